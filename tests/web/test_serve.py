"""`make run` runs `manage.py serve`: set up an empty database, create the demo accounts, serve
the pages, run a worker with embedded beat; Ctrl-C stops every child by its process id."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

from junta.ops.supervisor import Child, Supervisor
from tests.conftest import PYTHON, REPO, subprocess_env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode()


def test_serve_sets_up_serves_pages_and_stops_every_child_on_ctrl_c(tmp_path):
    port = free_port()
    env = subprocess_env(JUNTA_VAR_DIR=str(tmp_path), DATABASE_URL=None, CELERY_BROKER_URL=None,
                         CACHE_URL=None, PYTHONUNBUFFERED="1")
    log_path = tmp_path / "serve.log"
    with log_path.open("w") as log:
        serve = subprocess.Popen([PYTHON, "manage.py", "serve", "--port", str(port)], cwd=REPO,
                                 env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        pages = {}
        while time.monotonic() < deadline and len(pages) < 2:
            for path in ("/", "/accounts/login/"):
                try:
                    pages[path] = fetch(f"http://127.0.0.1:{port}{path}")
                except OSError:
                    time.sleep(0.5)
        output = log_path.read_text()
        assert pages.get("/", (0,))[0] == 200, output
        assert "Junta" in pages["/"][1]
        assert 'name="password"' in pages["/accounts/login/"][1]
        assert "gm@junta.test" in output and "carlos@junta.test" in output
        assert "Created the demo campaign 'Republica de los Papayas (demo)' in mid-game" \
            in output
        pids = [int(pid) for pid in re.findall(r"started .+ \(pid (\d+)\)", output)]
        assert len(pids) == 2, output

        serve.send_signal(signal.SIGINT)
        assert serve.wait(timeout=60) == 0
        output = log_path.read_text()
        for pid in pids:
            assert f"pid {pid}" in output
            assert not alive(pid), f"child {pid} still running"
    finally:
        if serve.poll() is None:
            serve.kill()


def test_second_run_reuses_the_database(tmp_path):
    env = subprocess_env(JUNTA_VAR_DIR=str(tmp_path), DATABASE_URL=None, CACHE_URL=None)
    for expected in ("Created the demo accounts.", "Demo logins"):
        result = subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=REPO, env=env,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        result = subprocess.run([PYTHON, "manage.py", "seed_demo"], cwd=REPO, env=env,
                                capture_output=True, text=True, timeout=120)
        assert expected in result.stdout
    assert "Created the demo accounts." not in result.stdout


def test_supervisor_stops_the_others_when_one_child_dies(capsys):
    sleeper = Child("sleeper", [sys.executable, "-c", "import time; time.sleep(60)"])
    quitter = Child("quitter", [sys.executable, "-c", "import sys; sys.exit(3)"])
    supervisor = Supervisor([sleeper, quitter], cwd=REPO, grace_seconds=5)
    assert supervisor.run() == 3
    assert sleeper.process.poll() is not None
    assert not alive(sleeper.pid)
    assert "quitter exited with code 3; stopping the others" in capsys.readouterr().out


def test_supervisor_kills_a_child_that_ignores_sigterm(capsys):
    code = (
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
        "print('ready', flush=True); time.sleep(60)"
    )
    stubborn = Child("stubborn", [sys.executable, "-c", code])
    supervisor = Supervisor([stubborn], cwd=REPO, grace_seconds=1)
    supervisor.start()
    time.sleep(1.0)
    supervisor.stop()
    assert stubborn.process.returncode == -signal.SIGKILL
    assert "did not stop; killing it" in capsys.readouterr().out
