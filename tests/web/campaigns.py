"""Campaigns played through the services, shared by the web tests: bot orders day after day,
a phase's engine state read or replaced, the queries a page takes. The `campaign` fixture that
creates one is in tests/web/conftest.py."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone

from junta.engine import GameState, digest, owes_orders, why_no_orders
from junta.engine.bots import bot_orders
from junta.engine.rng import Rng
from junta.games import adjudication, order_intake, repository
from junta.games.models import Game, Order, Phase, Player


def play_days(game: Game, users: list, phases: int) -> None:
    """`phases` phases played: every seat gives the bots' orders, final, and each phase is
    adjudicated at its deadline."""
    rng = Rng("web-bots")
    by_seat = {p.seat: p.user for p in game.players.filter(membership="active")}
    for _ in range(phases):
        phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
        state = repository.state_before(phase)
        version = Game.objects.get(pk=game.pk).state_version
        for seat in range(len(state.players)):
            orders = [o.to_dict() for o in bot_orders(state, seat, rng)]
            if why_no_orders(state, seat):
                continue  # the dead do not act (docs/rules.md §death)
            order_intake.submit_orders(phase.id, by_seat[seat], orders, state_version=version,
                                  final=True, now=phase.opens_at + timedelta(minutes=1))
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)


def open_phase(game: Game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def state_of(phase: Phase) -> GameState:
    return repository.state_before(phase)


def advance_until(game: Game, users: list, done: Callable[[Phase, GameState], bool],
                  limit: int = 80, each: Callable[[Phase, GameState], None] | None = None
                  ) -> Phase:
    """Play bot orders phase by phase until `done(open phase, its state)`."""
    for _ in range(limit):
        phase = open_phase(game)
        state = state_of(phase)
        if done(phase, state):
            return phase
        if each:
            each(phase, state)
        play_days(game, users, 1)
    raise AssertionError("the campaign never got there")


def kill_in_open_phase(game: Game, seat: int) -> None:
    """The family of `seat` lies dead in the open phase's state (as after an assassination)."""
    phase = open_phase(game)
    state = GameState.from_dict(phase.state_before)
    state.players[seat].status = "dead"
    state.players[seat].fresh = True
    phase.state_before = state.to_dict()
    phase.state_digest = digest(state)
    phase.save()


def install(game: Game, s: GameState) -> Phase:
    """Put an engine state into the campaign's open phase (its families' names kept)."""
    phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    names = [p.name for p in GameState.from_dict(phase.state_before).players]
    for p, name in zip(s.players, names, strict=True):
        p.name = name
    phase.kind = s.phase
    phase.state_before = s.to_dict()
    phase.state_digest = digest(s)
    phase.owing_seats = owes_orders(s)
    phase.save()
    return phase


def version(game: Game) -> int:
    """The campaign's state version, as a form opened now carries it."""
    return Game.objects.get(pk=game.pk).state_version


def drawn_next(client) -> None:  # noqa: ANN001 - the test client
    """The client's next page is drawn, not served as this viewer last saw it: its CSRF cookie
    forgotten, as a new browser's (junta/games/page_cache.py keeps pages per CSRF secret)."""
    from django.conf import settings

    client.cookies.pop(settings.CSRF_COOKIE_NAME, None)


def queries_for(client, url: str) -> int:
    """The number of database queries drawing the page at `url` takes (it must answer 200)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    drawn_next(client)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def with_last_time(game: Game, before: GameState, given: dict[int, list[dict]],
                   now: GameState) -> tuple[Phase, dict]:
    """The started campaign's phase `before` closed, in which each seat of `given` gave those
    orders (as stored: the engine's JSON), and the phase `now` opened after it: the open phase
    and the users by seat."""
    first = install(game, before)
    seats = {p.seat: p for p in game.players.filter(membership=Player.Membership.ACTIVE)}
    for seat, payload in given.items():
        Order.objects.create(phase=first, player=seats[seat], payload=payload)
    Phase.objects.filter(pk=first.pk).update(status=Phase.Status.PUBLISHED)
    phase = repository.open_phase(game, now, timezone.now())
    return phase, {seat: p.user for seat, p in seats.items()}


def gm_ticks(client, game: Game, name: str, checked: bool) -> None:  # noqa: ANN001
    """The GameMaster ticks (or clears) the box `name` of his settings page and saves it, as
    his browser sends the form."""
    from django.urls import reverse

    from tests.web.browser_forms import forms_in, submit

    client.force_login(game.gm)
    settings_url = reverse("gm_settings", args=[game.id])
    form = next(f for f in forms_in(client.get(settings_url).content.decode())
                if name in f.names())
    form.control(name).checked = checked
    assert submit(client, settings_url, form).status_code == 302
