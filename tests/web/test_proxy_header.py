"""`X-Forwarded-Proto` is believed only when the operator says a TLS proxy sets it
(JUNTA_TRUST_X_FORWARDED_PROTO=1, which docker-compose.yml's web service sets): anyone can send
that header, and believing it from anyone turns off the HTTPS redirect for whoever asks."""

from __future__ import annotations

import http.client
import json
import subprocess
import time
from pathlib import Path

import pytest
import yaml
from django.test import override_settings

from tests.conftest import PYTHON, REPO, stop_process, subprocess_env

PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "k8Yd3v0J-production-like-secret-key-with-enough-entropy-5f1c9e2a7b",
    "DJANGO_ALLOWED_HOSTS": "junta.example.org",
    "DATABASE_URL": None, "CELERY_BROKER_URL": None, "CACHE_URL": None, "EMAIL_HOST": None,
    "JUNTA_TRUST_X_FORWARDED_PROTO": None, "FORWARDED_ALLOW_IPS": None,
    "DJANGO_SETTINGS_MODULE": "junta.settings",
}
PRINT_PROXY_HEADER = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps(settings.SECURE_PROXY_SSL_HEADER))
"""


def proxy_header(tmp_path: Path, **env: str | None) -> list | None:
    result = subprocess.run(
        [PYTHON, "-c", PRINT_PROXY_HEADER], cwd=REPO, capture_output=True, text=True,
        timeout=60, env=subprocess_env(**{**PRODUCTION, "JUNTA_VAR_DIR": str(tmp_path), **env}))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("debug", ["0", "1"])
def test_the_header_is_trusted_only_when_the_variable_says_so(tmp_path, debug):
    assert proxy_header(tmp_path, DJANGO_DEBUG=debug) is None
    assert proxy_header(tmp_path, DJANGO_DEBUG=debug, JUNTA_TRUST_X_FORWARDED_PROTO="0") is None
    assert proxy_header(tmp_path, DJANGO_DEBUG=debug, JUNTA_TRUST_X_FORWARDED_PROTO="1") == [
        "HTTP_X_FORWARDED_PROTO", "https"]


@pytest.mark.django_db
def test_an_untrusted_header_does_not_make_a_plain_request_secure(client):
    with override_settings(SECURE_SSL_REDIRECT=True, SECURE_PROXY_SSL_HEADER=None):
        response = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 301
    assert response["Location"].startswith("https://")


@pytest.mark.django_db
def test_a_trusted_header_does(client):
    with override_settings(SECURE_SSL_REDIRECT=True,
                           SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https")):
        assert client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https").status_code == 200
        assert client.get("/accounts/login/").status_code == 301


def test_docker_compose_trusts_it_for_the_web_service_behind_its_proxy():
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    environment = compose["services"]["web"]["environment"]
    assert environment["JUNTA_TRUST_X_FORWARDED_PROTO"] == "${JUNTA_TRUST_X_FORWARDED_PROTO:-1}"


def get_from(address: str, port: int, **headers: str) -> http.client.HTTPResponse:
    """A GET to gunicorn on 127.0.0.1 from `address` (any 127.x address is this machine's)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                            source_address=(address, 0))
    connection.request("GET", "/accounts/login/",
                       headers={"Host": "junta.example.org", **headers})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def web_start(tmp_path: Path, **env: str) -> tuple[subprocess.Popen, int]:
    """scripts/web-start with production settings and a database of its own (SQLite)."""
    port = free_port()
    log = (tmp_path / "web.log").open("a")
    process = subprocess.Popen(
        ["scripts/web-start"], cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
        env=subprocess_env(**{**PRODUCTION, "JUNTA_VAR_DIR": str(tmp_path), "PYTHON": PYTHON,
                              "JUNTA_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "1",
                              **env}))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            get_from("127.0.0.1", port)
            return process, port
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.5)
    process.kill()
    pytest.fail("web-start did not serve:\n" + (tmp_path / "web.log").read_text()[-3000:])


def test_web_start_believes_a_stranger_s_header_only_when_told(tmp_path):
    https = {"X-Forwarded-Proto": "https"}
    process, port = web_start(tmp_path)
    try:
        stranger = get_from("127.0.0.2", port, **https)  # not FORWARDED_ALLOW_IPS: not gunicorn
        assert stranger.status == 301, "a stranger's X-Forwarded-Proto was believed"
        assert stranger.getheader("Location") == "https://junta.example.org/accounts/login/"
        assert get_from("127.0.0.1", port, **https).status == 200  # the health check's way
    finally:
        stop_process(process)
    process, port = web_start(tmp_path, JUNTA_TRUST_X_FORWARDED_PROTO="1")
    try:
        assert get_from("127.0.0.2", port, **https).status == 200  # the proxy, say
        assert get_from("127.0.0.2", port).status == 301
    finally:
        stop_process(process)
