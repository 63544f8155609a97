"""Leak tests of the JSON API (docs/rules.md §secrets: "Private to you: your hand, pocket and
Bank account, your location, your orders until they are carried out"): every endpoint, as each
player, holds none of another family's secrets. The marker approach of the page leak tests:
one family's pocket and bank are set to numbers found nowhere else, his orders carry an amount
and a note to the GM found nowhere else, he writes privately to the GM, and the lines only a
minister or the President were told must be in no other player's answers."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from junta.api import tokens
from junta.engine import Catalog, catalog
from junta.games import order_intake, repository
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase, PhaseResult, Player
from junta.talk import access as talk_access
from junta.talk import services as talk_services
from tests.web.campaigns import advance_until, open_phase, play_days

pytestmark = pytest.mark.django_db

API = "/api/v1"
POCKET, BANK, AMOUNT = 987653, 876543, 45679
NOTE = "API-NOTE-MARKER-27182: I bribed the Admiral."
TALK = "API-TALK-MARKER-27182: the Admiral is mine"
SUBJECT = "An API private word"
MARKERS = (str(POCKET), str(BANK), str(AMOUNT), "API-NOTE-MARKER", "API-TALK-MARKER", SUBJECT)


def user_at(game: Game, seat: int):  # noqa: ANN201 - a user
    return game.players.get(seat=seat, membership=Player.Membership.ACTIVE).user


@pytest.fixture
def budget_vote(campaign):
    """A campaign in its first Budget Vote; the Foreign Minister (or the Farm & Labor
    Secretary) holds the markers, has ordered a payment with a note, and wrote to the GM."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    for _ in range(60):
        phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
        if phase.kind == "budget_vote":
            break
        play_days(game, users, 1)
    state = repository.state_before(phase)
    minister = state.commander(catalog.FOREIGN)
    if minister == state.president:
        minister = state.commander(catalog.FARM_LABOR)
    assert minister not in (None, state.president)
    changed = repository.state_before(phase)
    changed.players[minister].pocket = POCKET
    changed.players[minister].bank = BANK
    repository.rewrite_state_before(phase, changed)
    repository.write_board(game, changed)
    payee = next(p.seat for p in state.players if p.seat != minister and p.active)
    order_intake.submit_orders(phase.id, user_at(game, minister),
                          [{"kind": "pay", "to": payee, "amount": AMOUNT}],
                          state_version=Game.objects.get(pk=game.pk).state_version,
                          note_to_gm=NOTE)
    reader = talk_access.reader_for(game, user_at(game, minister))
    assert reader is not None
    talk = talk_services.start(reader, SUBJECT, [], True, TALK)
    return game, state, minister, talk


def answers(client, user, game: Game, extra: tuple[str, ...] = ()) -> dict[str, str]:  # noqa: ANN001
    """Every GET endpoint of the API as `user`, each answer as text (JSON without escapes)."""
    auth = {"Authorization": f"Bearer {tokens.create(user, 'leak test').secret}"}
    base = f"/campaigns/{game.id}"
    urls = ["/me", "/campaigns", base, f"{base}/phases", f"{base}/speeches",
            f"{base}/conversations", f"{base}/options", f"{base}/orders", *extra]
    published = game.phases.filter(status=Phase.Status.PUBLISHED).values_list("number",
                                                                               flat=True)
    urls += [f"{base}/phases/{n}" for n in published]
    urls += [f"{base}/phases?page={n}" for n in range(2, 2 + len(published) // 10)]
    out = {}
    with override_settings(JUNTA_API_RATES={"sustained": "10000/min", "burst": "10000/min"}):
        for url in urls:
            response = client.get(API + url, headers=auth)
            if response.status_code == 404 and url.endswith(("/options", "/orders")) \
                    and game.gm_id == user.id:
                continue  # the GM has no orders of his own
            assert url in extra or response.status_code == 200, (url, response.status_code)
            out[url] = json.dumps(response.json(), ensure_ascii=False)
            out[url + " status"] = str(response.status_code)
    return out


def private_lines(game: Game) -> dict[str, set[int]]:
    """Each private line told so far, and the seats told it."""
    told: dict[str, set[int]] = {}
    for result in PhaseResult.objects.filter(phase__game=game):
        for event in result.events:
            if event["audience"] not in ("public", "gm"):
                told.setdefault(event["text"], set()).update(event["audience"])
    return told


def plain(text: str) -> str:
    """A line as it stands inside a JSON string."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def test_no_answer_holds_another_family_s_secrets(budget_vote, client):
    game, state, minister, talk = budget_vote
    messages = f"/campaigns/{game.id}/conversations/{talk.id}/messages"
    mine = answers(client, user_at(game, minister), game, (messages,))
    everything = "".join(mine.values())
    assert str(POCKET) in mine[f"/campaigns/{game.id}"]  # he sees his own
    assert str(AMOUNT) in mine[f"/campaigns/{game.id}/orders"]
    assert "API-NOTE-MARKER" in mine[f"/campaigns/{game.id}/orders"]
    assert TALK in mine[messages]
    told = private_lines(game)
    assert any(plain(line) in everything for line, seats in told.items() if minister in seats)
    for seat in range(len(state.players)):
        if seat == minister:
            continue
        seen = answers(client, user_at(game, seat), game, (messages,))
        assert seen[messages + " status"] == "404", seat  # not his conversation
        for url, text in seen.items():
            for marker in MARKERS:
                assert marker not in text, (seat, url, marker)
            for line, owners in told.items():
                if seat not in owners:
                    assert plain(line) not in text, (seat, url, line)
            assert "players_secret" not in text and "extra_bills" not in text, (seat, url)
        view = json.loads(seen[f"/campaigns/{game.id}"])["view"]
        assert view["me"]["seat"] == seat


def test_the_gm_reads_no_talk_he_is_not_asked_into(budget_vote, client, campaign):
    """The GM sees the whole state (he runs the game) but a conversation only as its member or
    where the campaign lets him read all (`gm_reads_talk`); here he was asked in."""
    game, state, minister, talk = budget_vote
    messages = f"/campaigns/{game.id}/conversations/{talk.id}/messages"
    gm = answers(client, game.gm, game, (messages,))
    assert TALK in gm[messages]
    other = talk_services.start(talk_access.reader_for(game, user_at(game, minister)),
                                "Between us", [game.players.get(seat=(minister + 1) % 10)],
                                False, "NOT-FOR-THE-GM-5150")
    gm = answers(client, game.gm, game,
                 (f"/campaigns/{game.id}/conversations/{other.id}/messages",))
    assert not any("NOT-FOR-THE-GM-5150" in text for text in gm.values())


def test_everything_is_revealed_when_the_game_ends_and_nothing_before(campaign, client):
    """docs/rules.md §secrets: "When the game ends, everything is revealed" — in the API as on
    the History page: every secret line with whom it was told to, every family's orders."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = advance_until(game, users, lambda p, s: s.phase == "cabinet" and s.turn == 2)
    state = repository.state_before(phase)
    state.money_deck = state.money_deck[-3:]  # the budget cannot be drawn: the game ends
    for p in state.players:  # no motion on the President's competence delays the draw
        for cid in [c for c in p.hand if Catalog.card(c).name ==
                    "The President's Competence Questioned"]:
            p.hand.remove(cid)
            state.political_discard.append(cid)
    repository.rewrite_state_before(phase, state)
    game.state_version += 1
    game.save(update_fields=["state_version"])
    watcher = user_at(game, 0)
    before = answers(client, watcher, game)
    assert '"revealed": []' in before[f"/campaigns/{game.id}/phases"]
    assert all('"revealed": [{' not in text for text in before.values())
    assert "players_secret" not in before[f"/campaigns/{game.id}"]
    for _ in range(5):
        if Game.objects.get(pk=game.pk).status == Game.Status.FINISHED:
            break
        assert open_phase(game)
        play_days(game, users, 1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    after = answers(client, watcher, game)
    reports = json.loads(after[f"/campaigns/{game.id}/phases"])["phases"]
    assert any(r["revealed"] for r in reports) and any(r["orders"] for r in reports)
    assert "players_secret" in json.loads(after[f"/campaigns/{game.id}"])["view"]
    # over: no current phase, in the campaign and in the list of campaigns
    assert json.loads(after[f"/campaigns/{game.id}"])["phase"] is None
    assert [c["phase"] for c in json.loads(after["/campaigns"]) if c["id"] == game.id] == [None]
