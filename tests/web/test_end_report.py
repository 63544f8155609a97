"""The end report of a finished campaign, the archive and a player's career on his profile.

docs/rules.md §secrets: "When the game ends, everything is revealed" — and not before: the
report of a running campaign is 404 and the archive never lists one. docs/rules.md §end: "The
family with the most money in the Bank wins; ties share the win" (pocket money does not count,
§about). The expected numbers are computed here from the stored results, independently of
junta/games/end_report.py, and the charts' numbers are checked against the tables beside them.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict

import pytest
from django.core.cache import caches
from django.db import transaction
from django.urls import reverse

from junta.engine import Catalog, PhaseKind
from junta.games import end_report, revisions
from junta.games.campaigns import start_campaign
from junta.games.models import Character, Game, PhaseResult, Player
from tests.web.browser_forms import forms_in, submit
from tests.web.campaigns import drawn_next, play_days, queries_for
from tests.web.endings import finish

pytestmark = pytest.mark.django_db

@pytest.fixture
def finished(campaign):
    game, users = campaign()
    finish(game, users)
    return game, users


def page(client, user, name: str, *args: object) -> str:
    client.force_login(user)
    response = client.get(reverse(name, args=list(args)))
    assert response.status_code == 200, name
    return html.unescape(response.content.decode())


def table(text: str, table_id: str) -> list[list[str]]:
    """The cells of each body row of the table `table_id`, tags stripped."""
    body = re.search(rf'<table class="table" id="{table_id}">.*?<tbody>(.*?)</tbody>', text,
                     re.S)
    assert body, table_id
    return [[re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)]


def svg(text: str, chart_id: str) -> str:
    found = re.search(rf'<svg class="chart" id="{chart_id}".*?</svg>', text, re.S)
    assert found, chart_id
    return found.group(0)


def rows_of(game: Game) -> list[PhaseResult]:
    return list(PhaseResult.objects.filter(phase__game=game, published_at__isnull=False)
                .select_related("phase").order_by("phase__number"))


def places(banks: list[int]) -> list[str]:
    """By hand: a family's place is one more than the number of families with more money in
    the bank; equal banks share it, marked "=" (1st=)."""
    names = {1: "st", 2: "nd", 3: "rd"}
    out = []
    for bank in banks:
        place = 1 + sum(1 for other in banks if other > bank)
        label = f"{place}{names.get(place, 'th')}"
        out.append(label + "=" if banks.count(bank) > 1 else label)
    return out


# --- the report's numbers, against the stored results -----------------------------------------

def test_the_report_tells_each_family_story_from_the_stored_results(finished, client):
    game, users = finished
    text = page(client, users[3], "game_report", game.id)
    results = rows_of(game)
    final = results[-1].state_after["players"]

    # the ranking: by bank only, richest first, ties sharing a place
    by_bank = sorted(final, key=lambda p: (-p["bank"], p["seat"]))
    ranking = table(text, "ranking")
    player = {p.seat: p.user.public_name for p in game.players.filter(membership="active")}
    assert [re.sub(r" \(\w+\)", "", row[1]) for row in ranking] == [
        f"{p['name']} played by {player[p['seat']]}" for p in by_bank]
    assert [row[2] for row in ranking] == [f"{p['bank']} MP" for p in by_bank]
    assert [row[3] for row in ranking] == [f"{p['pocket']} MP" for p in by_bank]
    assert [row[0] for row in ranking] == places([p["bank"] for p in by_bank])
    top = max(p["bank"] for p in final)
    winners = [p["name"] for p in by_bank if p["bank"] == top]
    lead = re.sub(r"<[^>]+>", "", text.split('<p class="lead">')[1].split("</p>")[0])
    assert f"Winner{'s' if len(winners) > 1 else ''}: {' and '.join(winners)}." in lead

    # money banked at the end of each turn, in the table and in the chart
    last_of_turn = {r.phase.turn: r.state_after for r in results if r.phase.turn}
    turns = sorted(last_of_turn)
    banks = {p["name"]: [last_of_turn[t]["players"][p["seat"]]["bank"] for t in turns]
             for p in final}
    money = {row[0]: [int(c) for c in row[1:]] for row in table(text, "money-table")}
    assert money == banks
    chart = svg(text, "chart-money")
    drawn = {html.unescape(label): [(int(x), int(y)) for x, y in
                                    re.findall(r'data-x="(\d+)" data-y="(\d+)"', series)]
             for label, series in re.findall(r'<g class="series" data-label="([^"]*)">(.*?)</g>',
                                             chart, re.S)}
    assert drawn == {name: list(zip(turns, values, strict=True))
                     for name, values in banks.items()}

    # the money deck, turn by turn
    deck = [(t, len(last_of_turn[t]["money_deck"])) for t in turns]
    assert [(int(a), int(b)) for a, b in table(text, "deck-table")] == deck
    assert [(int(x), int(y)) for x, y in re.findall(r'data-x="(\d+)" data-y="(\d+)"',
                                                    svg(text, "chart-deck"))] == deck
    assert deck[-1][1] == 3 and deck[0][1] > deck[-1][1]

    # votes for and against each budget: the last count of each Budget Vote
    expected = []
    for r in results:
        if r.phase.kind != PhaseKind.BUDGET_VOTE:
            continue
        counts = [e["data"]["record"] for e in r.events if e["kind"] == "votes_cast"]
        if counts:
            yes = sum(line["votes"] for line in counts[-1] if line["choice"] == "yes")
            no = sum(line["votes"] for line in counts[-1] if line["choice"] == "no")
            expected.append((yes, no))
    votes = table(text, "votes-table")
    assert expected and [(int(row[1]), int(row[2])) for row in votes] == expected
    bars = re.findall(r'data-x="([^"]+)" data-label="(For|Against)" data-y="(\d+)"',
                      svg(text, "chart-votes"))
    assert [(label, int(y)) for _x, label, y in bars] == [
        pair for yes, no in expected for pair in (("For", yes), ("Against", no))]
    assert [x for x, _l, _y in bars[::2]] == [row[0] for row in votes]

    # each family: every vote it cast, the cards it played, its deaths and its heirs
    cast: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    deaths = []
    for r in results:
        hands = {p["seat"]: p["hand"] for p in r.state_after["players"]}
        for seat, orders in r.orders_used.items():
            played[int(seat)] += sum(1 for o in orders if o["kind"] == "play_card"
                                     and o["card"] not in hands[int(seat)])
        for e in r.events:
            if e["kind"] == "votes_cast":
                for line in e["data"]["record"]:
                    cast[line["seat"]] += line["votes"]
            if e["kind"] == "death":
                deaths.append(e["text"])
    for p in final:
        story = text.split(f'<h3 id="story-{p["seat"]}">')[1].split("</article>")[0]
        assert f"Votes cast ({cast[p['seat']]} in all)" in story
        assert f"Cards played ({played[p['seat']]})" in story
    for line in deaths:
        assert line in text
    heirs = Character.objects.filter(player__game=game, life__gt=1)
    for heir in heirs:
        assert f"heir: {heir.name}" in text or f", {heir.name}" in text


def test_positions_held_turn_by_turn(finished, client):
    game, users = finished
    text = page(client, users[0], "game_report", game.id)
    held: dict[int, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for r in rows_of(game):
        for pos, seat in (r.state_after["positions"] or {}).items():
            if r.phase.turn and isinstance(seat, int) and seat >= 0:
                held[seat][r.phase.turn].add(Catalog.TITLES[pos])
    for seat, turns in held.items():
        story = text.split(f'<h3 id="story-{seat}">')[1].split("</article>")[0]
        for turn, titles in turns.items():
            line = re.search(rf"Turn {turn}: ([^<]*)</span>", story)
            assert line and set(line.group(1).split(", ")) == titles


# --- ties, and what does not count ----------------------------------------------------------

def test_ties_share_a_place_and_the_pocket_does_not_count():
    players = [{"seat": s, "name": f"Don {s}", "bank": b, "pocket": pocket, "status": "alive"}
               for s, (b, pocket) in enumerate([(3, 0), (5, 0), (5, 0), (1, 900), (3, 7),
                                                (3, 0), (0, 0)])]
    ranked = end_report.ranking(players)
    assert [(r.label, r.seat) for r in ranked] == [
        ("1st=", 1), ("1st=", 2), ("3rd=", 0), ("3rd=", 4), ("3rd=", 5), ("6th", 3),
        ("7th", 6)]
    assert end_report.ranking(players[:1])[0].label == "1st"


# --- never before the end -------------------------------------------------------------------

def test_no_report_and_no_archive_entry_before_the_end(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 3)
    url = reverse("game_report", args=[game.id])
    for who in (users[0], game.gm):
        client.force_login(who)
        drawn_next(client)
        assert client.get(url).status_code == 404
        status = client.get(reverse("game_status", args=[game.id])).content.decode()
        assert url not in status and "End report" not in status
        archive = client.get(reverse("game_archive")).content.decode()
        assert url not in archive and f'href="{reverse("game_history", args=[game.id])}"' \
            not in archive
    with pytest.raises(end_report.NotFinished):
        end_report.build(game)


def test_the_archive_lists_finished_campaigns_unless_the_gm_hides_them(finished, client,
                                                                       django_user_model):
    game, users = finished
    outsider = django_user_model.objects.create_user(email="reader@example.org")
    url = reverse("game_report", args=[game.id])
    lobby = page(client, outsider, "lobby")
    assert reverse("game_archive") in lobby
    archive = page(client, outsider, "game_archive")
    assert f'<a href="{url}">Papayas</a>' in archive
    assert "End report" in page(client, users[0], "game_status", game.id)
    assert "Read the end report" in page(client, users[0], "game_status", game.id)

    # a visitor without an account (a friend a player shared the link with) reads it too, from
    # the archive, and is asked to sign in for the rest of the campaign
    client.logout()
    shared = client.get(url)
    assert shared.status_code == 200
    shared_text = html.unescape(shared.content.decode())
    assert "The final ranking" in shared_text and "Sign in</a> to read its history" in shared_text
    assert reverse("game_status", args=[game.id]) not in shared_text  # no campaign menu
    assert re.search(r'<meta property="og:description" content="Winners?: [^"]+ \(\d+ MP in '
                     r'Switzerland\)\. \d+ turns?, \d+ coups?, \d+ deaths?\.">', shared_text)
    public = html.unescape(client.get(reverse("game_archive")).content.decode())
    assert f'<a href="{url}">Papayas</a>' in public
    assert reverse("game_history", args=[game.id]) not in public
    assert client.get(reverse("game_history", args=[game.id])).status_code == 302  # sign in

    # the GM keeps it out of the archive: outsiders no longer find it, its players still do
    client.force_login(game.gm)
    settings_url = reverse("gm_settings", args=[game.id])
    settings_page = client.get(settings_url).content.decode()
    assert "List in the archive when finished" in settings_page
    form = next(f for f in forms_in(settings_page) if "archived_publicly" in f.names())
    form.control("archived_publicly").checked = False
    response = submit(client, settings_url, form)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.archived_publicly is False
    said = html.unescape(client.get(response["Location"]).content.decode())
    # each setting the form changed, by its label, with its new value
    assert "Saved. List in the archive when finished: no." in said
    assert url not in page(client, outsider, "game_archive")
    assert url in page(client, users[4], "game_archive")
    client.logout()  # nor may a visitor without an account read it any more
    assert url not in client.get(reverse("game_archive")).content.decode()
    hidden = client.get(url)
    assert hidden.status_code == 302 and hidden["Location"].startswith(reverse("account_login"))


# --- efficient: drawn once, a bounded number of queries ---------------------------------------

def test_the_report_takes_few_queries_and_is_drawn_once(finished, client, monkeypatch):
    game, users = finished
    client.force_login(users[1])
    url = reverse("game_report", args=[game.id])
    assert queries_for(client, url) <= 16  # whatever the number of phases
    caches["drawings"].clear()
    client.get(url)

    def never(game: Game) -> None:
        raise AssertionError("drawn again")

    monkeypatch.setattr(end_report, "build", never)
    client.force_login(users[2])
    drawn_next(client)
    assert client.get(url).status_code == 200  # another viewer: the same drawing, kept
    with transaction.atomic():
        revisions.bump(game.id)  # a change it is not drawn from (a vote, a speech)
    assert client.get(url).status_code == 200  # the page drawn anew, the report kept
    monkeypatch.undo()
    users[3].display_name = "Renamed Reporter"
    users[3].save()  # what it is drawn from: drawn anew
    assert "Renamed Reporter" in page(client, users[2], "game_report", game.id)


# --- the profile ----------------------------------------------------------------------------

def test_career_statistics_on_the_profile(finished, client):
    game, users = finished
    final = rows_of(game)[-1].state_after["players"]
    top = max(p["bank"] for p in final)
    seat_of = dict(Player.objects.filter(game=game, membership=Player.Membership.ACTIVE)
                   .values_list("user_id", "seat"))
    for user in users:
        text = page(client, user, "profile")
        won = final[seat_of[user.pk]]["bank"] == top
        assert "<dt>Campaigns played</dt><dd>1</dd>" in text
        assert "<dt>Finished</dt><dd>1</dd>" in text
        assert f"<dt>Won</dt><dd>{1 if won else 0}" in text
        mine = final[seat_of[user.pk]]
        place = places([p["bank"] for p in final])[[p["seat"] for p in final].index(
            mine["seat"])]
        assert table(text, "career-record") == [[
            "Papayas", mine["name"], f"{place} of {len(final)}" + (" winner" if won else ""),
            f"{mine['bank']} MP"]]
    # one who handed his seat on before the end played the campaign, with no place in it
    seat = Player.objects.get(game=game, user=users[0])
    seat.membership = Player.Membership.REPLACED
    seat.save()
    text = page(client, users[0], "profile")
    assert "<dt>Campaigns played</dt><dd>1</dd>" in text and "<dt>Won</dt><dd>0" in text
    assert table(text, "career-record") == [["Papayas", "you handed your seat on before the end"]]
