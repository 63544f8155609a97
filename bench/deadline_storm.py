"""Deadline storm: N campaigns whose phase falls due in the same minute, one worker.

    python bench/deadline_storm.py --games N

Creates the campaigns in a scratch SQLite database under a temporary directory (or the
database of DATABASE_URL when set: use a disposable one), makes every open phase due, starts
one Celery worker with embedded beat, and prints one JSON line
{"games": N, "seconds": ..., "ms_per_game": ...} once every phase has been adjudicated.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="junta-storm-"))
    os.environ.setdefault("JUNTA_VAR_DIR", str(scratch))
    os.environ["JUNTA_SWEEP_INTERVAL_SECONDS"] = "1"
    os.environ["DJANGO_SETTINGS_MODULE"] = "junta.settings"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from junta.games import running
    from junta.games.campaigns import create_game, join_game
    from junta.games.models import Game, Phase, PhaseResult

    call_command("migrate", verbosity=0)
    User = get_user_model()
    gm = User.objects.create_user(email=f"storm-gm-{time.time_ns()}@junta.test")
    people = [User.objects.create_user(email=f"storm-{time.time_ns()}-{i}@junta.test")
              for i in range(10)]
    phase_ids = []
    for n in range(args.games):
        game = create_game(gm, f"Storm {n}", join_policy=Game.JoinPolicy.OPEN)
        for i, user in enumerate(people):
            join_game(game.id, user, f"Don {i}")
        phase_ids.append(running.start_campaign(game.id, gm).id)
    Phase.objects.filter(pk__in=phase_ids).update(deadline=timezone.now())
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "junta.celery", "worker", "-B", "--pool=solo",
         "--loglevel=WARNING", "--schedule", str(scratch / "beat")],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = time.monotonic()
    try:
        while PhaseResult.objects.filter(phase_id__in=phase_ids).count() < len(phase_ids):
            if time.monotonic() - started > 600:
                raise SystemExit("the storm did not clear within 10 minutes")
            time.sleep(0.2)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    seconds = time.monotonic() - started
    print(json.dumps({"games": args.games, "seconds": round(seconds, 3),
                      "ms_per_game": round(1000 * seconds / args.games, 1)}))


if __name__ == "__main__":
    main()
