"""Sign-up timing: does the answer to a registered address come as fast as to a new one?

    python bench/signup_timing.py [--runs 20] [--unprotected]

Signs up `--runs` times with a new address and `--runs` times with a registered one, in turns,
through Django's test client with the real password hasher (settings.PASSWORD_HASHERS) and the
embedded Celery broker, both in a scratch folder (a SQLite database; allauth's rate limits off).
The mail tasks are only queued, as in production; no worker runs them. Prints the median, the
90th percentile and the fastest answer of each path, and the gap between the medians; then, last,
the same in one JSON line: {"runs", "unprotected", "new": {"median_ms", "p90_ms", "min_ms"},
"registered": {...}, "gap_ms", "gap_share"}.

`--unprotected` measures allauth's own adapter and sign-up form instead of the project's (the
mail is sent inline then, to Django's in-memory test mailer, so the gap it shows is the password
hash alone; over a real SMTP server it was seconds). Never run by `make test` but at a tiny
size (tests/web/test_bench_signup.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

PASSWORD = "papaya-Republic-1977"
REGISTERED = "registered@bench.test"


def setup_django(folder: Path) -> None:
    os.environ["JUNTA_VAR_DIR"] = str(folder)
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"):
        os.environ.pop(name, None)  # the embedded SQLite, filesystem broker and database cache
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "junta.settings")
    import django
    from django.conf import settings

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host name; mail to the in-memory mailer
    settings.ACCOUNT_RATE_LIMITS = False  # one address signs up --runs times
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)


def sign_up(email: str) -> float:
    from django.test import Client
    from django.urls import reverse

    client = Client()
    data = {"email": email, "password1": PASSWORD, "password2": PASSWORD,
            "display_name": "Bench", "time_zone": "America/Lima"}
    started = time.perf_counter()
    response = client.post(reverse("account_signup"), data)
    elapsed = time.perf_counter() - started
    assert response.status_code == 302, (email, response.status_code)
    return elapsed


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (f"{name:<20} median {statistics.median(times) * 1000:8.1f} ms   "
            f"p90 {p90 * 1000:8.1f} ms   min {ordered[0] * 1000:8.1f} ms")


def outcome_line(args: argparse.Namespace, new: list[float], registered: list[float]) -> dict:
    """The last line, in JSON: each path's median, 90th percentile and fastest (ms), and the gap
    between the medians (ms, and as a share of the new address's median)."""
    def times(values: list[float]) -> dict:
        ordered = sorted(values)
        p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
        return {"median_ms": round(1000 * statistics.median(values), 1),
                "p90_ms": round(1000 * p90, 1), "min_ms": round(1000 * ordered[0], 1)}

    gap = statistics.median(new) - statistics.median(registered)
    return {"runs": args.runs, "unprotected": args.unprotected, "new": times(new),
            "registered": times(registered), "gap_ms": round(1000 * gap, 1),
            "gap_share": round(gap / statistics.median(new), 3)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="sign-ups of each kind")
    parser.add_argument("--unprotected", action="store_true",
                        help="allauth's default adapter and form, to compare")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    folder = Path(tempfile.mkdtemp(prefix="junta-signup-bench-"))
    try:
        setup_django(folder)
        from allauth.account.models import EmailAddress
        from django.conf import settings
        from django.contrib.auth import get_user_model

        if args.unprotected:
            settings.ACCOUNT_ADAPTER = "allauth.account.adapter.DefaultAccountAdapter"
            settings.ACCOUNT_FORMS = {}
        user = get_user_model().objects.create_user(email=REGISTERED, password=PASSWORD)
        EmailAddress.objects.create(user=user, email=REGISTERED, verified=True, primary=True)

        sign_up("warm-up@bench.test")
        sign_up(REGISTERED)
        new, registered = [], []
        for run in range(args.runs):  # in turns, so that a slower moment hits both paths
            new.append(sign_up(f"new-{run}@bench.test"))
            registered.append(sign_up(REGISTERED))

        print(f"{args.runs} sign-ups of each kind; hasher {settings.PASSWORD_HASHERS[0]}; "
              f"{'allauth defaults (unprotected)' if args.unprotected else 'the project'}")
        print(summary("new address", new))
        print(summary("registered address", registered))
        gap = statistics.median(new) - statistics.median(registered)
        print(f"gap between the medians: {gap * 1000:+.1f} ms "
              f"({gap / statistics.median(new):+.0%} of the new address's)")
        print(json.dumps(outcome_line(args, new, registered)), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
