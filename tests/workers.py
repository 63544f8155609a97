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
