"""Deadline storm: N campaigns whose phase falls due in the same minute, one worker.

    python bench/deadline_storm.py --games N

Creates the campaigns in a scratch SQLite database under a temporary directory (or the
database of DATABASE_URL when set: use a disposable one), starts one Celery worker with
embedded beat and waits for its first sweep (so start-up time is not counted), then makes every
open phase due at once and prints one JSON line {"games": N, "seconds": ..., "ms_per_game": ...}
once every phase has been adjudicated. `--kind coup` plays each campaign by bots into a coup
first, so the storm adjudicates coup phases (the heaviest) instead of nominations.
"""

from __future__ import annotations

import argparse
import contextlib
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
    parser.add_argument("--kind", choices=("nomination", "coup"), default="nomination",
                        help="the kind of phase that falls due (default: nomination)")
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
    from junta.ops.models import Heartbeat

    phase_ids = []
    for n in range(args.games):
        game = create_game(gm, f"Storm {n}", join_policy=Game.JoinPolicy.OPEN)
        for i, user in enumerate(people):
            join_game(game.id, user, f"Don {i}")
        phase = running.start_campaign(game.id, gm)
        if args.kind == "coup":
            phase = play_into_coup(game, phase, gm)
        phase_ids.append(phase.id)
    far = timezone.now() + timezone.timedelta(days=365)
    Phase.objects.filter(pk__in=phase_ids).update(deadline=far)
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "junta.celery", "worker", "-B", "--pool=solo",
         "--loglevel=WARNING", "--schedule", str(scratch / "beat")],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        waited = time.monotonic()
        while not Heartbeat.objects.filter(name=Heartbeat.SWEEP).exists():
            if time.monotonic() - waited > 120:
                raise SystemExit("the worker never swept within 2 minutes")
            time.sleep(0.2)
        Phase.objects.filter(pk__in=phase_ids).update(deadline=timezone.now())
        started = time.monotonic()
        while PhaseResult.objects.filter(phase_id__in=phase_ids).count() < len(phase_ids):
            if time.monotonic() - started > 600:
                raise SystemExit("the storm did not clear within 10 minutes")
            time.sleep(0.05)
        seconds = time.monotonic() - started
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    print(json.dumps({"games": args.games, "kind": args.kind, "seconds": round(seconds, 3),
                      "ms_per_game": round(1000 * seconds / args.games, 1)}))


def play_into_coup(game, phase, gm):  # noqa: ANN001, ANN201 - Django rows, imported late
    """Bots play the campaign through the services until a coup phase is open."""
    from junta.engine.bots import bot_orders
    from junta.engine.rng import Rng
    from junta.games import adjudication, repository, running
    from junta.games.models import Phase

    rng = Rng(f"storm:{game.id}")
    seats = {p.seat: p.user for p in game.players.filter(membership="active")}
    for _ in range(200):
        if phase.kind == "coup":
            return phase
        state = repository.state_before(phase)
        game.refresh_from_db()
        for seat in range(len(state.players)):
            orders = [o.to_dict() for o in bot_orders(state, seat, rng)]
            with contextlib.suppress(running.OrdersRejected):
                running.submit_orders(phase.id, seats[seat], orders,
                                      state_version=game.state_version, final=True)
        adjudication.adjudicate_phase(phase.id, force=True)
        phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    raise SystemExit(f"{game.name} never reached a coup")


if __name__ == "__main__":
    main()
