"""What each pytest-xdist worker has of its own (`make test` runs the tests in two workers).

tests/conftest.py's pytest_xdist_setupnodes puts these variables in each worker's environment
as it starts, before the worker loads the settings: so the settings, and the child processes the
tests start with this environment, have a JUNTA_VAR_DIR of the worker's own (the SQLite files,
the file broker, the mail folder, media, beat's schedule), its own Celery queues and its own
cache key prefix in the Redis that the workers share (no test empties a Redis database: the
tests' keys and queues are their own, by these names or by a uuid). The test database is
pytest-django's to tell apart: it adds the worker's name to the test database's name
(test_junta_gw0; SQLite's junta-test.sqlite3_gw0). Ports are the system's to give (port 0).
Without xdist (`-n 0`, `-p no:xdist`) nothing changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def worker_environment(environ: Mapping[str, str], worker: str, repo: Path) -> dict[str, str]:
    """The variables that the worker named `worker` ("gw0", "gw1", ...) gets on top of
    `environ`, the environment of the process that starts it."""
    var_dir = Path(environ.get("JUNTA_VAR_DIR") or repo / "var")
    queue = environ.get("JUNTA_CELERY_QUEUE") or "junta"
    changes = {
        "JUNTA_VAR_DIR": str(var_dir / worker),
        "JUNTA_CELERY_QUEUE": f"{queue}-{worker}",
        "CACHE_KEY_PREFIX": f"{environ.get('CACHE_KEY_PREFIX') or 'junta'}-{worker}",
    }
    if environ.get("JUNTA_CELERY_ADJUDICATION_QUEUE"):
        changes["JUNTA_CELERY_ADJUDICATION_QUEUE"] = \
            f"{environ['JUNTA_CELERY_ADJUDICATION_QUEUE']}-{worker}"
    return changes


# The test modules whose tests share a fixture of the module's (the demo: bots play it for a
# while), so that one worker runs them all and builds it once. tests/test_workers.py checks that
# every module with a module-scoped fixture is here.
SHARED_MODULES = frozenset({
    "tests/engine/test_state_copy.py",
    "tests/web/test_demo.py",
    "tests/web/test_lock.py",
})


def unit_of_work(nodeid: str) -> str:
    """What one worker runs at one go: a test, or the whole of a module of SHARED_MODULES."""
    module = nodeid.split("::", 1)[0]
    return module if module in SHARED_MODULES else nodeid


def scheduler(config, log):  # noqa: ANN001, ANN201 - pytest-xdist's config, log and scheduler
    """pytest-xdist's load scheduling (each worker takes the tests in pytest-django's order: the
    transactional ones, which empty the tables, after the others), with the modules of
    SHARED_MODULES each sent whole to one worker. (xdist's own `--dist loadgroup` marks the
    tests through their node ids, which pytest 9 no longer lets a plugin change.)"""
    from xdist.scheduler import LoadScopeScheduling

    class SharedModulesScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of_work(nodeid)

    config.option.loadscopereorder = False  # the units in the order collected, not by size
    return SharedModulesScheduling(config, log)
