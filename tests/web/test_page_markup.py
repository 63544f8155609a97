"""Markup the HTML validator and axe flag. aria-describedby names elements that exist,
<time datetime> has no fractional seconds, the notifications table's columns all have a name,
the Standing table carries no redundant row/cell roles."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from junta.games.campaigns import start_campaign

pytestmark = pytest.mark.django_db

# A valid HTML global date and time, to the second (no fraction), with a zone.
DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:?\d{2})$")


class Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.described: list[str] = []
        self.times: list[str] = []
        self.roles: list[tuple[str, str]] = []
        self.th_text: list[str] = []
        self._in_th = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if a.get("aria-describedby"):
            self.described.extend(a["aria-describedby"].split())
        if tag == "time" and "datetime" in a:
            self.times.append(a["datetime"] or "")
        if a.get("role") and tag in ("tr", "td", "th", "thead", "tbody"):
            self.roles.append((tag, a["role"]))
        if tag == "th":
            self._in_th = True
            self.th_text.append("")

    def handle_endtag(self, tag):
        if tag == "th":
            self._in_th = False

    def handle_data(self, data):
        if self._in_th:
            self.th_text[-1] += data


def parse(client, user, url: str) -> Markup:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    m = Markup()
    m.feed(response.content.decode())
    return m


def test_described_by_ids_exist_and_times_have_no_fraction(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    player_pages = [reverse(n, args=[game.id]) for n in
                    ("game_detail", "game_status", "game_events", "game_notifications")]
    player_pages.append(reverse("notify_overview"))
    gm_pages = [reverse(n, args=[game.id]) for n in
                ("gm_overview", "gm_players", "gm_time", "gm_rulings", "gm_history", "gm_audit")]
    for user, urls in ((users[0], player_pages), (game.gm, gm_pages)):
        for url in urls:
            m = parse(client, user, url)
            missing = [i for i in m.described if i not in m.ids]
            assert not missing, (url, missing)
            bad = [t for t in m.times if not DATETIME.match(t)]
            assert not bad, (url, bad)
            if url.endswith("/audit/"):
                assert m.times, "the audit log shows when each entry happened"


def test_notifications_table_headers_all_have_a_name(campaign, client):
    game, users = campaign()
    m = parse(client, users[0], reverse("notify_overview"))
    assert m.th_text and all(t.strip() for t in m.th_text), m.th_text


def test_standing_table_has_no_redundant_cell_roles(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    m = parse(client, users[0], reverse("game_status", args=[game.id]))
    assert not m.roles, m.roles


def test_lone_links_have_a_24px_touch_target():
    from pathlib import Path
    css = (Path(__file__).resolve().parents[2] / "static/css/junta.css").read_text()
    rule = re.search(r"\.touch-link\s*\{([^}]*)\}", css)
    assert rule and "min-height: 24px" in rule.group(1)


def test_two_budget_votes_of_one_turn_have_regions_of_their_own_names(campaign, client):
    """A budget defeated is proposed and voted again: the Events page (this turn's phases) and
    the History show two reports titled "Budget Vote", each vote a table a screen reader lists
    among the page's regions, by a name of its own (its phase's number)."""
    from junta.engine import PhaseKind
    from junta.games.models import Phase
    from tests.web.campaigns import advance_until
    from tests.web.landmarks import region_names, repeated

    game, users = campaign()
    start_campaign(game.id, game.gm)

    def two_votes(phase: Phase, _state) -> bool:
        return Phase.objects.filter(game=game, turn=phase.turn, kind=PhaseKind.BUDGET_VOTE,
                                    status=Phase.Status.PUBLISHED).count() >= 2

    phase = advance_until(game, users, two_votes, limit=40)
    client.force_login(users[0])
    votes = Phase.objects.filter(game=game, turn=phase.turn, kind=PhaseKind.BUDGET_VOTE)
    for name in ("game_events", "game_history"):
        page = client.get(reverse(name, args=[game.id])).content.decode()
        assert not repeated(page), name
        names = region_names(page)
        for vote in votes:
            assert f"Votes cast: Budget Vote, phase {vote.number}" in names, (name, names)


class Articles(HTMLParser):
    """Each <article> of a page: whether a heading (h1-h6) is in it."""

    def __init__(self) -> None:
        super().__init__()
        self.headed: list[bool] = []
        self._open: list[int] = []  # the indexes of the articles open

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self._open.append(len(self.headed))
            self.headed.append(False)
        elif re.fullmatch(r"h[1-6]", tag):
            for i in self._open:
                self.headed[i] = True

    def handle_endtag(self, tag):
        if tag == "article" and self._open:
            self._open.pop()


def headed(page: str) -> list[bool]:
    articles = Articles()
    articles.feed(page)
    return articles.headed


def test_each_speech_announcement_and_message_is_headed_by_its_author(campaign, client):
    """A screen reader moves from one speech or message to the next by its heading: each
    <article> has one, its author."""
    from junta.games.speeches import post_announcement, post_speech
    from junta.talk import services as talk
    from junta.talk.access import reader_for

    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    post_speech(game, users[0], "Friends, Papayans!")
    post_announcement(game, game.gm, "The rains have come.")
    reader = reader_for(game, users[0])
    assert reader is not None
    conversation = talk.start(reader, "The budget", [game.players.get(user=users[1])], False,
                              "Twelve MP for your vote.")
    client.force_login(users[0])
    events = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert len(headed(events)) >= 3 and all(headed(events))  # the reports too
    assert '<h3 class="speech-author">Don Carlos</h3>' in events
    talk_page = client.get(reverse("talk_conversation", args=[game.id, conversation.id]))
    assert headed(talk_page.content.decode()) == [True]
    fresh = client.get(reverse("talk_messages", args=[game.id, conversation.id]),
                       {"after": "0"}).json()["messages"]  # drawn into a page left open
    assert [headed(m["html"]) for m in fresh] == [[True]]
    client.force_login(game.gm)
    announced = client.get(reverse("gm_announce", args=[game.id])).content.decode()
    assert headed(announced) == [True]


def test_the_money_deck_s_bar_stays_full_once_drawn_into_its_extra_bills(campaign, client):
    """A <progress> whose value passes its max is invalid HTML: drawn into its hidden extra
    bills, the deck's bar is full, and the text says how many bills were drawn."""
    from junta.engine import GameState
    from tests.web.campaigns import install, open_phase

    game, users = campaign()
    start_campaign(game.id, game.gm)
    state = GameState.from_dict(open_phase(game).state_before)
    assert state.extra_bills >= 1
    state.money_deck = state.money_deck[:state.extra_bills - 1]  # one extra bill drawn
    install(game, state)
    client.force_login(users[0])
    page = client.get(reverse("game_status", args=[game.id])).content.decode()
    bar = re.search(r"<progress ([^>]*)>", page)
    assert bar is not None
    attrs = dict(re.findall(r'(\w+)="([^"]*)"', bar.group(1)))
    assert 0 <= float(attrs["value"]) <= float(attrs["max"]) and attrs["value"] == attrs["max"]
    assert "drawing into the unknown extra bills" in page
