"""`make run` runs `manage.py serve`: set up an empty database, create the demo accounts, serve
the pages, run a worker with embedded beat; Ctrl-C stops every child by its process id."""

from __future__ import annotations

import http.cookiejar
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from junta.games.demo import DEMO_PASSWORD
from junta.ops.supervisor import Child, Supervisor, descendants
from tests.conftest import PYTHON, REPO, subprocess_env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def alive(pid: int) -> bool:
    """True while the process runs; an exited one waiting to be reaped (zombie) is not alive."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in {"Z", "X"}


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode()


def fetch_error(url: str) -> tuple[int, str]:
    try:
        return fetch(url)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def browser_session(site: str, path: str) -> tuple[urllib.request.OpenerDirector, str]:
    """A cookie-keeping client that has drawn `path`, and the CSRF token it got."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with browser.open(f"{site}{path}", timeout=10) as response:
        assert response.geturl().startswith("http://")  # no redirect to https
    assert not any(cookie.secure for cookie in jar)
    return browser, next(cookie.value for cookie in jar if cookie.name == "csrftoken")


def post_form(browser: urllib.request.OpenerDirector, site: str, path: str, token: str,
              **fields: str) -> tuple[str, str]:
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
    request = urllib.request.Request(f"{site}{path}", data=form,
                                     headers={"Referer": f"{site}{path}"})
    with browser.open(request, timeout=30) as response:
        return response.geturl(), response.read().decode()


def check_development_mode(site: str, media: Path) -> None:
    """What players meet in production, over plain http: the site's own 404 page (not
    Django's technical one, listing every URL), the style sheet and an avatar served, a login
    whose cookies are sent back over http."""
    status, html = fetch_error(f"{site}/no-such-page/")
    assert status == 404 and "<title>Not found · Junta</title>" in html, html[:3000]
    assert "URLconf" not in html
    status, css = fetch(f"{site}/static/css/junta.css")
    assert status == 200 and ".site-header" in css
    (media / "avatars").mkdir(parents=True, exist_ok=True)
    (media / "avatars" / "serve-test.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    with urllib.request.urlopen(f"{site}/media/avatars/serve-test.png", timeout=5) as image:
        assert image.status == 200 and image.read() == b"\x89PNG\r\n\x1a\n"
    browser, token = browser_session(site, "/accounts/login/")
    url, page = post_form(browser, site, "/accounts/login/", token, login="carlos@junta.test",
                          password=DEMO_PASSWORD)
    assert url == f"{site}/" and "Log out" in page, url


def check_a_mail_is_one_line_and_a_file(site: str, mail: Path, log_path: Path) -> None:
    """A password reset asked on the site: the worker's mail is one line in the terminal, not
    the whole mail, and a file under var/mail/."""
    browser, token = browser_session(site, "/accounts/password/reset/")
    post_form(browser, site, "/accounts/password/reset/", token, email="carlos@junta.test")

    def lines() -> list[str]:  # the reset's line (the demo's reminders may be mailed too)
        return [line for line in log_path.read_text().splitlines()
                if "mail to carlos@junta.test" in line and "Password Reset" in line]

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not lines():
        time.sleep(0.5)
    [line] = lines()
    name = line.rstrip("/").rsplit("/", 1)[-1]
    assert line.endswith(f"{site}/dev/mail/{name}/"), line
    assert "carlos@junta.test" in (mail / name).read_text()
    output = log_path.read_text()
    assert "Subject:" not in output and "Content-Type" not in output


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
        assert "Development mode" in output and "DJANGO_DEBUG=1" in output
        key_file = tmp_path / "vapid.pem"  # push notifications' key pair, made on first start
        assert f"Made the VAPID key pair of push notifications: {key_file}" in output
        assert key_file.stat().st_mode & 0o777 == 0o600
        assert f"{tmp_path / 'mail'}/, read at http://127.0.0.1:{port}/dev/mail/" in output
        check_development_mode(f"http://127.0.0.1:{port}", tmp_path / "media")
        assert "Created the demo campaign 'Republica de los Papayas (demo)' in mid-game" \
            in output
        assert "a coup behind it" in output
        assert "adjudicating Republica" not in output  # the demo's month is not logged
        pids = [int(pid) for pid in re.findall(r"started .+ \(pid (\d+)\)", output)]
        assert len(pids) == 2, output
        while "ready." not in output and time.monotonic() < deadline:  # the worker's pool is up
            time.sleep(0.5)
            output = log_path.read_text()
        check_a_mail_is_one_line_and_a_file(f"http://127.0.0.1:{port}", tmp_path / "mail",
                                            log_path)
        family = descendants(serve.pid)  # the two children and the worker's pool and beat
        assert set(pids) <= family and len(family) > 2, family

        serve.send_signal(signal.SIGINT)  # to serve alone: it must stop the children itself
        assert serve.wait(timeout=60) == 0
        output = log_path.read_text()
        for pid in pids:
            assert re.search(rf"stopping .+ \(pid {pid}\)", output), output
        left = [pid for pid in family if alive(pid)]
        assert not left, f"processes still running after Ctrl-C: {left}"
    finally:
        if serve.poll() is None:
            serve.kill()


def test_serve_refuses_a_port_in_use_and_says_what_to_do(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        env = subprocess_env(JUNTA_VAR_DIR=str(tmp_path), DATABASE_URL=None,
                             CELERY_BROKER_URL=None, CACHE_URL=None)
        result = subprocess.run([PYTHON, "manage.py", "serve", "--port", str(port)], cwd=REPO,
                                env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert f"127.0.0.1:{port} is not free" in result.stderr
    assert "make run PORT=" in result.stderr
    assert "Demo logins" not in result.stdout  # refused before setting anything up


def test_make_run_passes_the_port_to_serve():
    result = subprocess.run(["make", "-n", "run", "PORT=8123"], cwd=REPO, capture_output=True,
                            text=True, timeout=60)
    assert "manage.py serve --port 8123" in result.stdout, result.stdout + result.stderr


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


def test_supervisor_kills_the_processes_of_a_child_that_ignores_sigterm(tmp_path, capsys):
    """A worker that will not stop in time is killed with its own children (its pool)."""
    code = (
        "import signal, subprocess, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
        "p = subprocess.Popen([sys.executable, '-c', 'import signal, time;"
        " signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)']);"
        f"open({str(tmp_path / 'pid')!r}, 'w').write(str(p.pid)); time.sleep(60)"
    )
    parent = Child("parent", [sys.executable, "-c", code])
    supervisor = Supervisor([parent], cwd=REPO, grace_seconds=1)
    supervisor.start()
    deadline = time.monotonic() + 20
    while not (tmp_path / "pid").exists() or not (tmp_path / "pid").read_text():
        assert time.monotonic() < deadline, "the grandchild never started"
        time.sleep(0.1)
    grandchild = int((tmp_path / "pid").read_text())
    assert grandchild in descendants(parent.pid)
    supervisor.stop()
    time.sleep(0.5)
    assert not alive(parent.pid) and not alive(grandchild)
    assert f"killing it and its processes [{grandchild}]" in capsys.readouterr().out
