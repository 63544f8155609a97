"""Campaigns played by random bots through the real services and the adjudication pipeline.

Used by `manage.py simulate` and by `make run`'s demo campaign. The campaign starts `days` days
in the past; each phase gets the bots' orders (submitted as each player, validated by the
engine) and is adjudicated at its own deadline, until the next deadline lies in the future:
the campaign is then left open mid-game, with its history behind it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.public import User
from junta import engine
from junta.engine import PhaseKind, Rng, bot_orders
from junta.games import adjudication, order_intake, repository
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.demo import (
    DEMO_CAMPAIGN,
    DEMO_FINISHED_CAMPAIGN,
    DEMO_GM,
    DEMO_PLAYERS,
    demo_account,
)
from junta.games.models import Game, Phase

CHARACTER_NAMES = [
    "Generalissimo Carlos", "Dona Isabel", "Colonel Miguel", "Senora Lucia", "Don Rafael",
    "Madame Elena", "Captain Diego", "Dona Pilar", "Professor Tomas", "Comandante Rosa",
]


def _users(prefix: str, count: int) -> list[User]:
    """The bots' accounts, which anyone may log into with the demo password."""
    return [demo_account(f"{prefix}{i + 1}@junta.test", f"{prefix.title()} {i + 1}")
            for i in range(count)]


def simulate(*, gm: User, players: list[User], name: str, days: int, seed: str,
             now: datetime | None = None,
             on_phase: Callable[[Game, Phase], None] | None = None) -> Game:
    """`on_phase(game, phase)` runs once the bots have given their orders for each phase,
    before it is adjudicated: the demo's speeches and polls are made there."""
    real_now = now or timezone.now()
    clock = real_now - timedelta(days=days)
    game = create_game(gm, name, max_players=len(players), join_policy=Game.JoinPolicy.OPEN)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user, character in zip(players, CHARACTER_NAMES, strict=False):
        join_game(game.id, user, character, bio="A family of the Republic.")
    phase: Phase | None = start_campaign(game.id, gm, now=clock)
    rng = Rng(f"bots:{seed}")
    while phase is not None and phase.deadline <= real_now:
        state = repository.state_before(phase)
        game.refresh_from_db()
        seated = {p.seat: p for p in game.players.filter(membership="active")}
        submit_at = phase.opens_at + timedelta(minutes=5)
        for seat in range(len(state.players)):
            orders = bot_orders(state, seat, rng)
            if not orders:
                continue
            try:
                order_intake.submit_orders(phase.id, seated[seat].user,
                                      [o.to_dict() for o in orders],
                                      state_version=game.state_version, final=True,
                                      now=submit_at)
            except order_intake.OrdersRejected:
                continue
        if on_phase is not None:
            on_phase(game, phase)
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
        phase = Phase.objects.filter(game=game, status=Phase.Status.OPEN).first()
        if engine.is_finished(repository.state_before(
                game.phases.latest("number"))) and phase is None:
            break
    game.refresh_from_db()
    return game


def simulate_many(count: int, players: int, days: int, seed: str | None = None
                  ) -> list[Game]:
    """`count` campaigns of `players` bots over `days` days. With `seed`, campaign i uses the
    seed "{seed}-{i}", so a run can be reproduced."""
    gm = _users("sim-gm", 1)[0]
    people = _users("sim-player", players)
    base = seed or f"sim-{timezone.now().strftime('%Y%m%d%H%M%S')}"
    return [simulate(gm=gm, players=people, name=f"Simulated campaign {i + 1}", days=days,
                     seed=f"{base}-{i}") for i in range(count)]


def had_a_coup(game: Game) -> bool:
    return game.phases.filter(kind=PhaseKind.AFTERMATH, status=Phase.Status.PUBLISHED).exists()


def demo_accounts() -> tuple[User, list[User]] | None:
    """The demo GameMaster and the ten demo players in seat order, when they all exist."""
    User = get_user_model()
    gm = User.objects.filter(email=DEMO_GM[0]).first()
    players = list(User.objects.filter(email__in=[e for e, _ in DEMO_PLAYERS]))
    if gm is None or len(players) != len(DEMO_PLAYERS):
        return None
    order = {email: i for i, (email, _) in enumerate(DEMO_PLAYERS)}
    players.sort(key=lambda u: order[u.email])
    return gm, players


def demo_campaign(days: int = 36, tries: int = 6) -> Game | None:
    """The demo campaign of `make run`: the demo GM and ten demo players, mid-game, with a
    coup in its history. Created once, when the demo accounts exist and no running campaign
    does. A seed whose bots stage no coup in time is dropped for the next one."""
    if Game.objects.exclude(status=Game.Status.FINISHED).exists():
        return None
    return _first_good(lambda game: had_a_coup(game) and game.status == Game.Status.RUNNING,
                       name=DEMO_CAMPAIGN, days=days, seeds="demo-2026", tries=tries)


def finished_demo_campaign(days: int = 150, tries: int = 6,
                           on_phase: Callable[[Game, Phase], None] | None = None
                           ) -> Game | None:
    """The campaign the demo players finished before the running one began: played by the
    bots to its natural end (the money deck runs out, docs/rules.md §money-deck), so that
    its end report, awards and the archive have something to show. Created once, when the
    demo accounts exist and no campaign does; `on_phase` as for `simulate`. A seed whose
    game would not be over by now is dropped for the next one."""
    if Game.objects.exists():
        return None
    return _first_good(lambda game: game.status == Game.Status.FINISHED,
                       name=DEMO_FINISHED_CAMPAIGN, days=days, seeds="demo-first", tries=tries,
                       on_phase=on_phase)


def _first_good(good: Callable[[Game], bool], *, name: str, days: int, seeds: str, tries: int,
                on_phase: Callable[[Game, Phase], None] | None = None) -> Game | None:
    """The demo players' campaign played with seed "{seeds}-0", or the next seed while the
    one played is not `good` (the last one tried, whatever it is); None without the demo
    accounts."""
    accounts = demo_accounts()
    if accounts is None:
        return None
    gm, players = accounts
    game = None
    for attempt in range(tries):
        if game is not None:
            game.delete()
        game = simulate(gm=gm, players=players, name=name, days=days,
                        seed=f"{seeds}-{attempt}", on_phase=on_phase)
        if good(game):
            break
    return game
