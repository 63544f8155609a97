"""Under pytest-xdist (`make test` runs two workers) each worker has its own var folder, Celery
queues and cache key prefix (tests/workers.py), and its own test database (pytest-django)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from django.conf import settings

from tests.workers import SHARED_MODULES, unit_of_work, worker_environment

TESTS = Path(__file__).resolve().parent
REPO = Path("/repo")


def test_each_worker_gets_a_var_folder_queues_and_cache_keys_of_its_own():
    gw0 = worker_environment({}, "gw0", REPO)
    gw1 = worker_environment({}, "gw1", REPO)
    assert gw0 == {"JUNTA_VAR_DIR": "/repo/var/gw0", "JUNTA_CELERY_QUEUE": "junta-gw0",
                   "CACHE_KEY_PREFIX": "junta-gw0"}
    assert all(gw0[name] != gw1[name] for name in gw0)


def test_a_worker_keeps_what_the_environment_names_under_its_own_name():
    environ = {"JUNTA_VAR_DIR": "/tmp/ci-var", "JUNTA_CELERY_QUEUE": "ci",
               "JUNTA_CELERY_ADJUDICATION_QUEUE": "ci-deadlines", "CACHE_KEY_PREFIX": "ci"}
    assert worker_environment(environ, "gw1", REPO) == {
        "JUNTA_VAR_DIR": "/tmp/ci-var/gw1", "JUNTA_CELERY_QUEUE": "ci-gw1",
        "JUNTA_CELERY_ADJUDICATION_QUEUE": "ci-deadlines-gw1", "CACHE_KEY_PREFIX": "ci-gw1"}


def module_scoped(source: str) -> bool:
    """Whether the source defines a fixture of scope "module" (or wider)."""
    return any(isinstance(node, ast.keyword) and node.arg == "scope"
               and isinstance(node.value, ast.Constant) and node.value.value != "function"
               for node in ast.walk(ast.parse(source)))


def test_every_module_with_a_module_scoped_fixture_goes_whole_to_one_worker():
    shared = {path.relative_to(TESTS.parent).as_posix() for path in TESTS.rglob("test_*.py")
              if module_scoped(path.read_text(encoding="utf-8"))}
    assert shared == SHARED_MODULES
    assert unit_of_work("tests/web/test_demo.py::test_x") == "tests/web/test_demo.py"
    assert unit_of_work("tests/web/test_map.py::test_x[a]") == "tests/web/test_map.py::test_x[a]"


@pytest.mark.skipif("PYTEST_XDIST_WORKER" not in os.environ, reason="not run in an xdist worker")
@pytest.mark.django_db
def test_this_worker_runs_with_its_own_settings_and_test_database():
    from django.db import connection

    worker = os.environ["PYTEST_XDIST_WORKER"]
    assert settings.VAR_DIR.name == worker
    assert settings.CELERY_TASK_DEFAULT_QUEUE.endswith(f"-{worker}")
    assert settings.JUNTA_ADJUDICATION_QUEUE.endswith(f"-{worker}-adjudication")
    if "KEY_PREFIX" in settings.CACHES["default"]:
        assert settings.CACHES["default"]["KEY_PREFIX"].endswith(f"-{worker}")
    assert str(connection.settings_dict["NAME"]).endswith(f"_{worker}")
