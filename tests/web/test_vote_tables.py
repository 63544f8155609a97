"""Each vote in a phase report is a table, built from the vote's event data (never from its
text): who, how many votes, for what, from which source, then the result. Votes are public
(docs/rules.md §secrets: "every vote cast (who, how, with how many votes and which cards)"), so
every viewer's report shows the same table."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from junta.engine import Catalog, Event, PhaseKind
from junta.games import vote_tables
from junta.games.campaigns import start_campaign
from junta.games.models import Game, PhaseResult
from tests.web.campaigns import advance_until, play_days

pytestmark = pytest.mark.django_db


def votes_of(result: PhaseResult) -> list[Event]:
    return [e for e in (Event.from_dict(d) for d in result.events) if e.kind == "votes_cast"]


def row(voter: str, votes: int, choice: str, source: str) -> str:
    return (f'<tr><th scope="row">{html.escape(voter)}</th><td>{votes}</td>'
            f"<td>{html.escape(choice)}</td><td>{html.escape(source)}</td></tr>")


def voted(game: Game, kind: PhaseKind) -> PhaseResult:
    """The newest published result of a phase of `kind` whose report has a vote."""
    results = [r for r in PhaseResult.objects.filter(phase__game=game, phase__kind=kind)
               .select_related("phase").order_by("-phase__number") if votes_of(r)]
    assert results, f"no vote in a {kind} phase"
    return results[0]


def test_the_first_election_is_a_table_of_each_familys_one_vote(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    advance_until(game, users, lambda phase, state: phase.kind != PhaseKind.NOMINATION
                  and phase.kind != PhaseKind.ELECTION)
    result = voted(game, PhaseKind.ELECTION)
    names = {p["seat"]: p["name"] for p in result.state_after["players"]}
    [event] = votes_of(result)[-1:]
    client.force_login(users[0])
    text = client.get(reverse("game_history", args=[game.id])).content.decode()
    report = text[text.index(f'id="phase-{result.phase.number}"'):]
    report = report[:report.index("</article>")]
    assert "<caption>Votes cast: " in report
    for entry in event.data["record"]:
        assert row(names[entry["seat"]], 1, names[entry["choice"]],
                   "the family's one vote") in report
    assert "Votes cast: " + names[event.data["record"][0]["seat"]] not in report  # no run-on
    totals = {}
    for entry in event.data["record"]:
        totals[names[entry["choice"]]] = totals.get(names[entry["choice"]], 0) + 1
    footer = report[report.index("<tfoot>"):report.index("</tfoot>")]
    assert '<th scope="row">Result</th>' in footer
    for name, count in totals.items():
        assert f"{html.escape(name)}: {count} vote" in footer


def test_a_budget_vote_shows_positions_and_cards_and_the_result(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    advance_until(game, users, lambda phase, state: phase.kind == PhaseKind.BUDGET_VOTE)
    play_days(game, users, 1)
    result = voted(game, PhaseKind.BUDGET_VOTE)
    names = {p["seat"]: p["name"] for p in result.state_after["players"]}
    event = votes_of(result)[0]
    outcome = next(e for e in (Event.from_dict(d) for d in result.events)
                   if e.kind in ("budget_passed", "budget_failed", "power_failure",
                                 "annulled", "alternative_budget"))
    client.force_login(users[2])
    text = client.get(reverse("game_events", args=[game.id])).content.decode()
    report = text[text.index(f'id="phase-{result.phase.number}"'):]
    report = report[:report.index("</article>")]
    tables = re.findall(r"<table.*?</table>", report, re.S)
    assert tables
    first = tables[0]
    assert "<caption>Votes cast: Budget Vote" in first
    for entry in event.data["record"]:
        source = entry["source"]
        kind = "position" if source in Catalog.TITLES.values() else None
        choice = str(entry["choice"]).capitalize()
        cells = (f'<th scope="row">{html.escape(names[entry["seat"]])}</th>'
                 f"<td>{entry['votes']}</td><td>{choice}</td>")
        assert cells in first
        if kind:
            assert f"<td>{html.escape(source)} (position)</td>" in first
        else:
            assert html.escape(source) in first
    assert html.escape(outcome.text) in report  # the result, with the table
    yes = sum(e["votes"] for e in event.data["record"] if e["choice"] == "yes")
    if yes:
        assert f"Yes: {yes} vote" in first


def test_vote_rows_come_from_the_record_and_the_outcome_is_folded_in():
    """Every source of votes in words: a position, an Influence or Vote card, an event."""
    record = [
        {"seat": 0, "source": "El Presidente", "votes": 1, "choice": "yes"},
        {"seat": 0, "source": "Banana Republic", "votes": 4, "choice": "no"},
        {"seat": 1, "source": "Farm & Labor Secretary", "votes": 5, "choice": "no"},
        {"seat": 2, "source": "Church Desecrated", "votes": 5, "choice": "yes"},
    ]
    names = {0: "Don Carlos", 1: "Don Isabel", 2: "Don Miguel"}
    events = [Event("proposal", "Don Carlos proposes a budget."),
              Event("votes_cast", "Votes cast: a long line.", data={"record": record}),
              Event("skim", "a secret", audience=(0,)),
              Event("budget_failed", "The budget is defeated, 6 votes to 9!"),
              Event("new_weapons", "New Weapons are assigned to the Navy.")]
    blocks = vote_tables.public_blocks(events, names, "Budget Vote")
    assert [kind for kind, _ in blocks] == ["lines", "vote", "lines"]
    table = blocks[1][1]
    assert table.caption == "Votes cast: Budget Vote"
    assert [(r.voter, r.votes, r.choice, r.source) for r in table.rows] == [
        ("Don Carlos", 1, "Yes", "El Presidente (position)"),
        ("Don Carlos", 4, "No", "Banana Republic (card)"),
        ("Don Isabel", 5, "No", "Farm & Labor Secretary (position)"),
        ("Don Miguel", 5, "Yes", "Church Desecrated (event)"),
    ]
    assert table.totals == [("No", 9), ("Yes", 6)]
    assert table.outcome == "The budget is defeated, 6 votes to 9!"
    assert blocks[2][1] == ["New Weapons are assigned to the Navy."]
    assert "a secret" not in repr(blocks)  # only public lines
