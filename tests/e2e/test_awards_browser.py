"""A player votes an award in the browser at the end of a campaign (docs/rules.md §polls): the
GameMaster has opened the awards; Carlos finds them from the game menu, votes for Isabel (his own
name is not offered), changes his vote, and once the GameMaster closes the award he sees the
winner and the counts, with no voter's name. At phone and desktop widths, with screenshots in a
folder the test prints, and axe-core's WCAG checks on the award's page."""

from __future__ import annotations

import pytest

from junta.games.models import Game
from junta.polls import services
from junta.polls.models import Poll, Vote
from tests.e2e.checks import serious_axe_violations
from tests.e2e.sessions import screenshot_folder, signed_in, six_families

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
WIDTHS = {"phone": (375, 740), "desktop": (1280, 900)}


def finished_campaign() -> tuple[Game, list]:
    """Six families; the campaign started, then over, its awards open."""
    game, users = six_families("Gamemaster")
    game.refresh_from_db()
    game.status = Game.Status.FINISHED
    game.save()
    services.open_awards(game, game.gm, [])
    return game, users


@pytest.mark.parametrize("width_name", list(WIDTHS))
def test_a_player_votes_an_award(live_server, browser, width_name, capsys):
    game, users = finished_campaign()
    carlos, miguel = users[0], users[2]
    services.vote(Poll.objects.get(question="Best speech").id, miguel,
                  [Poll.objects.get(question="Best speech").choices.get(label="Don Isabel").pk])
    base = live_server.url
    width, height = WIDTHS[width_name]
    context, page = signed_in(browser, carlos, base, width, height)
    folder = screenshot_folder("junta-awards-")

    page.goto(f"{base}/games/{game.id}/events/")
    page.get_by_role("link", name="Polls").first.click()
    page.get_by_role("link", name="Best speech").click()
    assert page.get_by_label("Don Carlos").count() == 0  # never himself
    page.get_by_label("Don Lucia").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Vote").click()
    assert "Your vote is counted" in page.content()
    page.get_by_label("Don Isabel").check()  # he changes his mind
    with page.expect_navigation():
        page.get_by_role("button", name="Change my vote").click()
    award = Poll.objects.get(question="Best speech")
    mine = Vote.objects.filter(poll=award, voter__user=carlos)
    assert [v.choice.label for v in mine] == ["Don Isabel"]
    assert page.locator("table.poll-table").count() == 0  # no results while open
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert serious_axe_violations(page) == []
    page.screenshot(path=str(folder / f"award-vote-{width_name}-{width}.png"), full_page=True)

    services.close(award.id, game.gm)
    page.reload()
    table = page.locator("table.poll-table")
    assert table.locator("tr", has_text="Don Isabel").locator("td").inner_text() == "2"
    assert table.locator("th", has_text="Who").count() == 0  # nobody's vote is named
    assert table.locator("tr", has_text="Don Miguel").locator("td").inner_text() == "0"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert serious_axe_violations(page) == []
    page.screenshot(path=str(folder / f"award-results-{width_name}-{width}.png"), full_page=True)
    page.goto(f"{base}/games/{game.id}/polls/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(folder / f"polls-{width_name}-{width}.png"), full_page=True)
    context.close()
    with capsys.disabled():
        print(f"\nscreenshots of an award vote ({width_name}) in {folder}")
