"""Machines of one site for tests/web/test_two_machines.py: each a web server started the
production way (scripts/web-start) and a Celery worker, with a JUNTA_VAR_DIR of its own, sharing
only the database, Redis and the environment; and a browser-like HTTP client for them (cookies,
CSRF, forms with files)."""

from __future__ import annotations

import http.client
import json
import re
import socket
import subprocess
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.conftest import PYTHON, REPO, stop_process, subprocess_env
from tests.web.worker_processes import database_url_of_this_test

HOST = "junta.test"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def site_env(broker: str, **extra: str | None) -> dict[str, str]:
    """What every machine of the site is given: production settings, the test's database, Redis,
    uploads in the database, queues and cache keys of this test's own."""
    queue = f"machines-{uuid.uuid4().hex[:10]}"
    return subprocess_env(**{
        "DJANGO_SETTINGS_MODULE": "junta.settings",
        "DJANGO_DEBUG": "0", "JUNTA_DEV": None,
        "DJANGO_SECRET_KEY": "machines-test-secret-key-long-enough-and-random-enough-3f9a1c7e",
        "DJANGO_ALLOWED_HOSTS": HOST,
        "JUNTA_TRUST_X_FORWARDED_PROTO": "1",  # the proxy in front of every machine
        "DATABASE_URL": database_url_of_this_test(),
        "CELERY_BROKER_URL": broker, "CACHE_URL": None,
        "CACHE_KEY_PREFIX": queue,
        "JUNTA_STORAGE": "database",
        "JUNTA_CELERY_QUEUE": queue, "JUNTA_CELERY_ADJUDICATION_QUEUE": f"{queue}-adjudication",
        "EMAIL_HOST": None, "JUNTA_MEDIA_ROOT": None, "JUNTA_STATIC_ROOT": None,
        "PYTHON": PYTHON, "GUNICORN_WORKERS": "1",
        **extra,
    })


def wait_until(what: str, done: Callable[[], object], logs: list[Path],
               timeout: float = 60.0) -> None:
    """Poll `done` every tenth of a second until it is true; fail with the logs' ends."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.1)
    tails = "\n".join(f"--- {log}\n{log.read_text()[-2500:]}" for log in logs if log.exists())
    pytest.fail(f"timed out waiting for {what}\n{tails}")


class Machine:
    """One machine: its var folder, its web server and its worker (each started on demand)."""

    def __init__(self, name: str, root: Path, env: dict[str, str], stack: ExitStack) -> None:
        self.name = name
        self.var = root / name
        self.var.mkdir()
        self.env = {**env, "JUNTA_VAR_DIR": str(self.var)}
        self.stack = stack
        self.port = 0

    @property
    def logs(self) -> list[Path]:
        return [self.var / "web.log", self.var / "worker.log"]

    def _start(self, argv: list[str], log_name: str, **env: str) -> subprocess.Popen[bytes]:
        log = (self.var / log_name).open("w")
        process = subprocess.Popen(argv, cwd=REPO, env={**self.env, **env}, stdout=log,
                                   stderr=subprocess.STDOUT)
        self.stack.callback(log.close)
        self.stack.callback(stop_process, process)
        return process

    def start_web(self) -> None:
        self.port = free_port()
        self._start(["scripts/web-start"], "web.log", JUNTA_BIND=f"127.0.0.1:{self.port}")

    def web_ready(self) -> bool:
        try:
            return self.get("/healthz").status == 200
        except OSError:
            return False

    @property
    def queues(self) -> tuple[str, str]:
        """The site's queues: the mail's (and the rest), the sweep's and adjudications'."""
        return self.env["JUNTA_CELERY_QUEUE"], self.env["JUNTA_CELERY_ADJUDICATION_QUEUE"]

    @property
    def worker_name(self) -> str:
        return f"{self.name}@{socket.gethostname()}"

    def start_worker(self, queues: tuple[str, ...] | None = None) -> None:
        """Its worker, reading both queues unless told (a worker told more later: `read`)."""
        self._start([PYTHON, "-m", "celery", "-A", "junta.celery", "worker", "--pool=solo",
                     "--loglevel=INFO", "--without-mingle", "--without-gossip",
                     "-n", self.worker_name, "-Q", ",".join(queues or self.queues)],
                    "worker.log")

    def read(self, queue: str) -> None:
        """Its running worker reads `queue` too from now on (Celery's remote control)."""
        from junta.celery import app

        answers = app.control.add_consumer(queue, exchange=queue, routing_key=queue,
                                           destination=[self.worker_name], reply=True,
                                           timeout=30)
        assert answers and "ok" in next(iter(answers[0].values())), answers

    def worker_ready(self) -> bool:
        log = self.var / "worker.log"
        return log.exists() and " ready." in log.read_text()

    def adjudicated(self) -> list[str]:
        """The phases this machine's worker adjudicated, as its log names them."""
        return re.findall(r"adjudicating (.+)$", (self.var / "worker.log").read_text(),
                          re.MULTILINE)

    def send_sweep(self) -> None:
        """The minute sweep, sent as this machine's beat would (to the site's queue)."""
        from junta.celery import app

        adjudication = self.queues[1]
        app.send_task("junta.ops.tasks.sweep", queue=adjudication, routing_key=adjudication,
                      exchange=adjudication)

    def request(self, method: str, path: str, body: bytes = b"",
                headers: dict[str, str] | None = None) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers={
                "Host": HOST, "X-Forwarded-Proto": "https", **(headers or {})})
            response = connection.getresponse()
            return Answer(response.status, dict(response.getheaders()),
                          response.headers.get_all("Set-Cookie") or [], response.read())
        finally:
            connection.close()

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers=headers)


class Answer:
    def __init__(self, status: int, headers: dict[str, str], cookies: list[str],
                 body: bytes) -> None:
        self.status, self.headers, self.cookies, self.body = status, headers, cookies, body

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self) -> dict:
        return json.loads(self.body)


class Browser:
    """A person's browser: his cookies, sent to whichever machine the balancer picks."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def _headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        return {**({"Cookie": cookie} if cookie else {}), **(extra or {})}

    def _keep(self, answer: Answer) -> Answer:
        for header in answer.cookies:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return answer

    def get(self, machine: Machine, path: str) -> Answer:
        return self._keep(machine.get(path, self._headers()))

    def post(self, machine: Machine, path: str, fields: dict[str, str],
             files: dict[str, tuple[str, bytes, str]] | None = None) -> Answer:
        """A form posted as a browser does: its CSRF token (from the cookie) and its origin."""
        fields = {"csrfmiddlewaretoken": self.cookies["csrftoken"], **fields}
        if files:
            boundary = uuid.uuid4().hex
            parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                     f"{value}\r\n".encode() for name, value in fields.items()]
            parts += [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                      f'filename="{filename}"\r\nContent-Type: {kind}\r\n\r\n'.encode()
                      + content + b"\r\n" for name, (filename, content, kind) in files.items()]
            body = b"".join(parts) + f"--{boundary}--\r\n".encode()
            kind = f"multipart/form-data; boundary={boundary}"
        else:
            body, kind = urlencode(fields).encode(), "application/x-www-form-urlencoded"
        return self._keep(machine.request("POST", path, body, self._headers({
            "Content-Type": kind, "Origin": f"https://{HOST}",
            "Referer": f"https://{HOST}{path}"})))
