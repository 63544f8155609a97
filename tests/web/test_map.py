"""The Map page (docs/rules.md §units, §zones): the city as inline SVG, units as counters
during a coup, only public information, a fixed number of queries."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from junta.engine import GameState, catalog, digest, view_for
from junta.engine.state import new_game
from junta.engine.units import deploy
from junta.games import citymap, coup_maps, map_views, order_intake
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase
from tests.web.campaigns import advance_until, play_days, queries_for

COUNTER = re.compile(r'<g class="cm-counter" data-owner="(\d*)" data-kind="([^"]+)" '
                     r'data-count="(\d+)">')


def counters(svg: str) -> Counter:
    """(zone, owner, kind) -> count, read back from the drawn counters."""
    out: Counter = Counter()
    for zone_markup in svg.split('<g class="cm-zone cm-')[1:]:
        zone = int(re.search(r'data-zone="(\d+)"', zone_markup).group(1))
        for owner, kind, count in COUNTER.findall(zone_markup):
            out[(zone, int(owner) if owner else None, kind)] += int(count)
    return out


def unit(uid: int, kind: str, owner: int | None, zone: int | None, **extra) -> dict:
    return {"id": uid, "kind": kind, "owner": owner, "zone": zone, "position": None,
            "armed": kind not in ("Mob", "Striker", "Rioter", "Labor Rioter"),
            "new_weapons": False, **extra}


def hand_made_coup() -> dict:
    units, uid = [], 0

    def add(kind: str, owner: int | None, zone: int | None, n: int = 1, **extra) -> None:
        nonlocal uid
        for _ in range(n):
            uid += 1
            units.append(unit(uid, kind, owner, zone, **extra))

    add("Palace Guard", 0, 1, 4)
    add("Soldier", 2, 15, 5)
    add("Tank", 2, 15)
    add("Soldier", 3, 1, 2, entered=1, from_zone=2)
    add("Soldier", None, 17, 5)
    add("Marine", 5, None)  # not yet placed: not drawn
    add("Bodyguard", 7, 18, new_weapons=True)
    add("Mob", 9, 5, 3)
    return {"phase": 2, "units": units, "control": {}, "result": None}


# --- the layout and the drawing --------------------------------------------------------------

def test_every_zone_of_the_map_has_a_layout_entry():
    lay = citymap.layout()
    assert sorted(int(z) for z in lay["zones"]) == sorted(catalog.zones()) == list(range(1, 29))
    for spot in lay["zones"].values():
        assert spot["label"] and 0 < spot["x"] < lay["width"] and 0 < spot["y"] < lay["height"]


def test_zone_boxes_do_not_overlap_and_straight_roads_pass_under_no_other_zone():
    lay = citymap.layout()
    w, h = lay["zone"]["width"], lay["zone"]["height"]
    at = {int(z): (s["x"], s["y"]) for z, s in lay["zones"].items()}
    for a in at:
        for b in at:
            if a < b:
                assert abs(at[a][0] - at[b][0]) >= w + 10 or abs(at[a][1] - at[b][1]) >= h + 10, \
                    (a, b)
    routed = {tuple(int(z) for z in key.split("-")) for key in lay["routes"]}
    for a, zone in catalog.zones().items():
        for b in zone.adjacent:
            if a > b or (a, b) in routed:
                continue
            for step in range(1, 100):
                x = at[a][0] + (at[b][0] - at[a][0]) * step / 100
                y = at[a][1] + (at[b][1] - at[a][1]) * step / 100
                for c, (cx, cy) in at.items():
                    if c not in (a, b):
                        assert abs(x - cx) > w / 2 or abs(y - cy) > h / 2, (a, b, c)


def test_the_svg_draws_28_zones_5_control_points_the_river_and_the_bridges():
    svg = str(citymap.render_svg())
    assert svg.startswith("<svg") and svg.count('<g class="cm-zone cm-') == 28
    assert svg.count(" cm-cp") == 5
    for zone in (1, 2, 3, 4, 8):
        assert f'id="zone-{zone}"' in svg
    assert 'class="cm-river"' in svg
    assert svg.count('class="cm-bridge"') == len(catalog.city()["bridges"])
    assert svg.count('class="cm-road"') + svg.count('class="cm-bridge"') == sum(
        len(z.adjacent) for z in catalog.zones().values()) // 2
    assert "cm-counter" not in svg  # no coup, no units
    assert "<title>1 Palace: Presidential Palace, control point</title>" in svg


class ZoneText(HTMLParser):
    """Each zone of the map: its name (<title>) and the words drawn in it, in their order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.zones: dict[str, tuple[str, list[str]]] = {}
        self._stack: list[str] = []
        self._zone: str | None = None
        self._depth = 0  # of the element open in the zone: 1 is the zone's own <title>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "g" and "cm-zone" in (a.get("class") or "").split():
            self._zone = a["data-zone"] or ""
            self.zones[self._zone] = ("", [])
            self._depth = 0
        elif self._zone is not None:
            self._depth += 1
        self._stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self._stack.pop()
        if self._zone is not None:
            if self._depth == 0:
                self._zone = None
            else:
                self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._zone is None or not self._stack:
            return
        title, seen = self.zones[self._zone]
        if self._stack[-1] == "title" and self._depth == 1:
            self.zones[self._zone] = (title + data, seen)
        elif self._stack[-1] == "text":
            seen.append(data)


def test_each_zone_s_name_begins_with_the_words_drawn_in_it():
    """WCAG 2.5.3, label in name: a person using speech input says what he sees on the map
    ("1 Palace 4PG"); the zone's name begins with it, its full name and units after."""
    coup = hand_made_coup()
    for i in range(7):  # seven groups in the Plaza: six counters, the last one "+N"
        coup["units"].append(unit(100 + i, "Mob", i, 5))
    coup["control"] = {"1": "junta", "2": "president"}
    names = {seat: f"Don {seat}" for seat in range(10)}
    for drawn in (citymap.render_svg(), citymap.render_svg(coup, names)):
        parser = ZoneText()
        parser.feed(str(drawn))
        assert len(parser.zones) == 28
        for zone, (title, seen) in parser.zones.items():
            assert title.startswith(" ".join(seen)), (zone, title, seen)
    assert parser.zones["1"][0] == ("1 Palace 4PG 2S Junta: Presidential Palace, control "
                                    "point, held for the Junta; Don 0: 4 Palace Guards; "
                                    "Don 3: 2 Soldiers")
    assert parser.zones["5"][1][-1] == "+5"  # eight groups: five counters, then 1+1+3 units
    assert parser.zones["8"][0].startswith("8 Bank: Central Bank, control point; no units")
    assert parser.zones["9"][0] == "9 Cathedral: no units"  # its short name is its name


def test_counters_group_units_by_zone_owner_and_kind():
    names = {0: "Don Carlos", 2: "Don Miguel", 3: "Doña Lucía", 7: "Don Diego", 9: "Doña Rosa"}
    svg = str(citymap.render_svg(hand_made_coup(), names, moved_in=1))
    assert counters(svg) == {
        (1, 0, "Palace Guard"): 4, (1, 3, "Soldier"): 2, (15, 2, "Soldier"): 5,
        (15, 2, "Tank"): 1, (17, None, "Soldier"): 5, (18, 7, "Bodyguard"): 1,
        (5, 9, "Mob"): 3,
    }
    assert "Marine" not in svg  # not placed yet
    assert "<title>Don Carlos: 4 Palace Guards</title>" in svg
    assert "<title>Leaderless (government): 5 Soldiers</title>" in svg
    assert "Don Diego: 1 Bodyguard (with New Weapons)" in svg
    assert "Doña Rosa: 3 Mobs (unarmed)" in svg
    assert svg.count('class="cm-move"') == 1  # Lucía's 2 Soldiers from 2 to 1
    assert "Doña Lucía: 2 units moved from zone 2 to zone 1" in svg


def test_a_crowded_zone_shows_a_plus_counter_and_the_table_keeps_every_stack():
    units = [unit(seat + 1, "Rioter", seat, 21) for seat in range(8)]
    coup = {"phase": 1, "units": units, "control": {}, "result": None}
    svg = str(citymap.render_svg(coup, {}))
    assert len(counters(svg)) == citymap.COUNTERS_SHOWN - 1 and "cm-more" in svg and ">+3<" in svg
    rows = citymap.stacks_by_zone(coup, {})
    assert [r["zone"] for r in rows] == [21] and len(rows[0]["stacks"]) == 8


def test_names_are_escaped():
    coup = {"phase": 1, "units": [unit(1, "Soldier", 0, 13)], "control": {}, "result": None}
    svg = str(citymap.render_svg(coup, {0: '<script>alert("x")</script>'}))
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_control_after_the_vote_is_marked():
    coup = hand_made_coup()
    coup.update(phase=6, control={"1": "president", "2": "junta", "3": "junta", "4": "junta",
                                  "8": "president"}, result="junta")
    svg = str(citymap.render_svg(coup, {}))
    assert svg.count('class="cm-control"') == 5
    assert "held for the Junta" in svg and "held for the President" in svg


def test_the_context_tolerates_a_view_without_a_coup():
    view = {"players": [{"seat": 0, "name": "Don Carlos"}], "positions": {"president": 0},
            "phase": "nomination", "phase_title": "Nominations", "turn": 1}
    context = map_views.map_context(view)
    assert context["coup"] is None and "cm-zone" in str(context["svg"])
    assert any(d["holder"] == "Don Carlos" and "4 Palace Guards in 1 Presidential Palace"
               in d["forces"][0] for d in context["deployment"])
    assert len(context["deployment"]) == len(catalog.city()["initial_deployment"])


def test_the_context_of_an_engine_view_with_and_without_a_coup():
    state = new_game("map", ["Don A", "Don B", "Don C", "Don D", "Don E", "Don F"])
    state.positions[catalog.PRESIDENT] = 2
    assert map_views.map_context(view_for(state, 0))["coup"] is None
    state.coup = deploy(state)
    context = map_views.map_context(view_for(state, 0))
    assert context["coup"] is not None
    assert counters(str(context["svg"]))[(1, 2, "Palace Guard")] == 4
    assert {"Don C"} <= {o["name"] for o in context["owners"]}
    assert [r["zone"] for r in context["rows"]] == [1, 10, 11, 12, 14, 15, 16, 17, 18, 22]


def test_the_moves_shown_are_the_last_phase_s():
    coup = hand_made_coup()
    assert coup_maps.moved_in({"phase": "coup"}, coup) == 1
    assert coup_maps.moved_in({"phase": "aftermath"}, {**coup, "phase": 6}) == 6


# --- the page ----------------------------------------------------------------------------

needs_db = pytest.mark.django_db


def open_phase(game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def users_by_seat(game) -> dict:
    return {p.seat: p.user for p in game.players.all()}


def set_state(phase: Phase, state: GameState) -> None:
    phase.state_before = state.to_dict()
    phase.state_digest = digest(state)
    phase.save()


@needs_db
def test_the_map_page_renders_for_a_player_and_the_gm(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    url = reverse("game_map", args=[game.id])
    for who in (users[0], game.gm):
        client.force_login(who)
        response = client.get(url)
        assert response.status_code == 200
        page = response.content.decode()
        assert page.count('<g class="cm-zone cm-') == 28
        assert "No coup is under way" in page and "Where the forces start" in page
        assert 'aria-current="page">Map</a>' in page
        assert "Presidential Palace" in page and "Fishermen&#x27;s Wharf" in page
    status = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert f'href="{url}"' in status


@needs_db
def test_strangers_and_other_games_players_get_404(campaign, client, django_user_model):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    other, other_users = campaign(players=6, review=True)
    start_campaign(other.id, other.gm)
    url = reverse("game_map", args=[game.id])
    client.force_login(django_user_model.objects.create_user(email="nosy@example.org"))
    assert client.get(url).status_code == 404
    client.force_login(other_users[0])
    assert client.get(url).status_code == 404
    client.force_login(other.gm)
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


@needs_db
def test_during_a_coup_the_page_shows_every_unit(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 3)  # nominations, election, the Cabinet
    phase = open_phase(game)
    state = GameState.from_dict(phase.state_before)
    state.coup = deploy(state)
    set_state(phase, state)
    president = state.commander(catalog.PRESIDENT)
    general = state.commander(catalog.GENERAL_1)
    client.force_login(users[0])
    page = client.get(reverse("game_map", args=[game.id])).content.decode()
    drawn = counters(page)
    assert drawn[(1, president, "Palace Guard")] == 4
    assert drawn[(15, general, "Soldier")] == 5 and drawn[(15, general, "Tank")] == 1
    assert sum(drawn.values()) == sum(1 for u in state.coup["units"] if u["zone"] is not None)
    assert "Units by zone" in page and "Not yet on the map" in page
    assert f"{state.name(president)}: 4 Palace Guards" in page
    assert "No coup is under way" not in page


@needs_db
def test_the_map_page_shows_no_secret(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 3)
    phase = open_phase(game)
    state = GameState.from_dict(phase.state_before)
    for p in state.players:
        p.pocket = 918270 + p.seat
        p.bank = 827160 + p.seat
    state.coup = deploy(state)
    set_state(phase, state)
    by_seat = users_by_seat(game)
    order_intake.submit_orders(phase.id, by_seat[1], [],
                          state_version=Game.objects.get(pk=game.pk).state_version,
                          note_to_gm="MARKER-NOTE-5521")
    effects = {catalog.card(c).effect for p in state.players for c in p.hand}
    assert effects
    for who in (by_seat[0], game.gm):
        client.force_login(who)
        page = client.get(reverse("game_map", args=[game.id])).content.decode()
        for seat in range(len(state.players)):
            assert str(918270 + seat) not in page and str(827160 + seat) not in page
        assert "MARKER-NOTE-5521" not in page
        assert not [e for e in effects if e in page]


@needs_db
def test_the_map_page_makes_the_same_queries_however_long_the_campaign(
        campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    url = reverse("game_map", args=[game.id])
    client.force_login(users[0])
    play_days(game, users, 2)
    early = queries_for(client, url)
    play_days(game, users, 8)
    assert queries_for(client, url) == early
    client.force_login(game.gm)  # drawn for him as for a player (the clocks' moments apart:
    assert queries_for(client, url) <= early  # page_cache asks them once per change, not here)


# --- the fighting of a coup phase ---------------------------------------------------------------

FIGHT_NAMES = {0: "Don Carlos", 2: "Don Miguel", 3: "Doña Lucía"}


def fight_events() -> list[dict]:
    return [
        {"kind": "combat", "audience": "public",
         "text": "Battle in Presidential Palace: Don Carlos fires at Don Miguel: 6, 2 (1 hit). "
                 "Casualties: Don Carlos 2, Don Miguel 1.",
         "data": {"zone": 1, "casualties": {"0": 2, "2": 1}}},
        {"kind": "retreat", "audience": "public",
         "text": "Don Carlos's units retreat from Presidential Palace to Chamber of Deputies.",
         "data": {"zone": 1, "to": 2}},
        {"kind": "bombardment", "audience": "public",
         "text": "An Airstrike by Doña Lucía strikes Don Miguel's units in 1st Brigade "
                 "Barracks: rolls 6, 6, 1, 2, 3, 4; 2 units destroyed.",
         "data": {"zone": 15, "rolls": [6, 6, 1, 2, 3, 4], "destroyed": 2}},
        {"kind": "destroyed", "audience": "public",
         "text": "the government's leaderless units's 3 units in Cathedral find nowhere to "
                 "retreat and are destroyed.", "data": {"zone": 9}},
        {"kind": "combat", "audience": "public", "text": "Battle in University: no hits.",
         "data": {"zone": 13, "casualties": {"None": 0, "3": 0}}},
        # never drawn: not public, or not fighting, or no zone
        {"kind": "combat", "audience": [2], "text": "SECRET-SKIRMISH-7731 in the Slums.",
         "data": {"zone": 21, "casualties": {"2": 4}}},
        {"kind": "retreat", "audience": "gm", "text": "SECRET-RETREAT-7732.",
         "data": {"zone": 25, "to": 28}},
        {"kind": "bombard_refused", "audience": "public", "text": "No strike on an embassy.",
         "data": {"zone": 19}},
        {"kind": "combat", "audience": "public", "text": "A battle nowhere.", "data": {}},
    ]


def test_battles_read_only_the_public_fighting_events():
    fought = citymap.battles(fight_events(), FIGHT_NAMES)
    assert [b.zone for b in fought] == [1, 9, 13, 15]
    palace = fought[0]
    assert palace.summaries[0] == "Battle: Don Carlos lost 2, Don Miguel lost 1"
    assert palace.retreats == ((2, fight_events()[1]["text"]),)
    assert palace.lines == (fight_events()[0]["text"], fight_events()[1]["text"])
    assert fought[2].summaries == (
        "Battle: Leaderless (government) lost 0, Doña Lucía lost 0",)
    assert fought[3].summaries == ("Bombardment: 2 units destroyed",)
    # engine Events work as well as their stored dicts
    from junta.engine.events import Event
    assert citymap.battles([Event.from_dict(e) for e in fight_events()], FIGHT_NAMES) == fought
    assert citymap.battles([e for e in fight_events() if e["audience"] != "public"]) == []


def test_the_svg_marks_each_zone_fought_over_and_draws_the_retreats():
    fought = citymap.battles(fight_events(), FIGHT_NAMES)
    svg = str(citymap.render_svg(hand_made_coup(), FIGHT_NAMES, moved_in=1, battles=fought))
    assert re.findall(r'<g class="cm-battle" data-zone="(\d+)">', svg) == ["1", "9", "13", "15"]
    assert ("<title>1 Presidential Palace: Battle: Don Carlos lost 2, Don Miguel lost 1; "
            "Don Carlos&#x27;s units retreat from Presidential Palace to Chamber of Deputies"
            "</title>") in svg
    assert "<title>15 1st Brigade Barracks: Bombardment: 2 units destroyed</title>" in svg
    assert svg.count('class="cm-retreat"') == 1
    assert '<g class="cm-retreat" data-from="1" data-to="2">' in svg
    assert svg.count('class="cm-move"') == 1  # the moves are still drawn, in their own style
    assert "stroke-dasharray" in svg.split('class="cm-retreat"')[1]
    assert "SECRET" not in svg and 'data-zone="21">' not in svg.split("cm-battles")[1]
    # without battles nothing of the kind is drawn
    plain = str(citymap.render_svg(hand_made_coup(), FIGHT_NAMES, moved_in=1))
    assert "cm-battle" not in plain and "cm-retreat" not in plain


def test_the_fighting_escapes_names_and_lines():
    events = [{"kind": "combat", "audience": "public", "text": "<b>Battle</b>",
               "data": {"zone": 5, "casualties": {"0": 1}}}]
    fought = citymap.battles(events, {0: "<script>x</script>"})
    svg = str(citymap.render_svg(None, {}, battles=fought))
    assert "<script>" not in svg and "&lt;script&gt;x&lt;/script&gt; lost 1" in svg


def in_coup_phase(game, users, number: int) -> Phase:
    return advance_until(game, users, lambda p, s: p.kind == "coup" and s.coup is not None
                         and s.coup["phase"] == number, limit=150)


def add_events(result, events: list[dict]) -> None:
    result.events = [*result.events, *events]
    result.save(update_fields=["events"])


def public_fighting_zones(result) -> set[int]:
    return {e["data"]["zone"] for e in result.events if e["audience"] == "public"
            and e["kind"] in citymap.FIGHTING_KINDS and isinstance(e["data"].get("zone"), int)}


@needs_db
def test_during_a_coup_the_map_shows_the_last_coup_phase_s_fighting_and_no_secret(
        campaign, client):
    from junta.games.models import PhaseResult

    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = in_coup_phase(game, users, 3)
    result = PhaseResult.objects.get(phase__game=game, phase__number=phase.number - 1)
    assert result.phase.kind == "coup"
    state = GameState.from_dict(phase.state_before)
    quiet = [z for z in sorted(catalog.zones()) if z not in public_fighting_zones(result)]
    secret_zone, fight_zone = quiet[0], quiet[-1]
    to = min(catalog.zones()[fight_zone].adjacent)
    add_events(result, [
        {"kind": "combat", "audience": "public",
         "text": f"Battle in {catalog.zones()[fight_zone].name}: PUBLIC-FIGHT-4410.",
         "data": {"zone": fight_zone, "casualties": {"0": 2, "1": 1}}},
        {"kind": "retreat", "audience": "public", "text": "PUBLIC-RETREAT-4411.",
         "data": {"zone": fight_zone, "to": to}},
        {"kind": "combat", "audience": [1], "text": "SECRET-SKIRMISH-4412.",
         "data": {"zone": secret_zone, "casualties": {"1": 3}}},
        {"kind": "bombardment", "audience": "gm", "text": "SECRET-SHELLING-4413.",
         "data": {"zone": secret_zone, "rolls": [6], "destroyed": 1}},
    ])
    url = reverse("game_map", args=[game.id])
    for who in (users[0], users[1], game.gm):
        client.force_login(who)
        page = client.get(url).content.decode()
        assert '<h3 id="fighting-latest">Fighting in Coup Phase 2</h3>' in page
        assert "Arrows show the moves of Coup Phase 2." in page
        assert f"Battle: {state.name(0)} lost 2, {state.name(1)} lost 1" in page
        assert f'<g class="cm-battle" data-zone="{fight_zone}">' in page
        assert f'<g class="cm-retreat" data-from="{fight_zone}" data-to="{to}">' in page
        assert "PUBLIC-FIGHT-4410" in page and "PUBLIC-RETREAT-4411" in page
        assert f'<li data-zone="{fight_zone}">' in page
        assert "SECRET-" not in page
        assert f'<g class="cm-battle" data-zone="{secret_zone}">' not in page
        assert f'<li data-zone="{secret_zone}">' not in page


@needs_db
def test_the_map_s_queries_do_not_grow_with_the_coup_phases(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    url = reverse("game_map", args=[game.id])
    client.force_login(users[0])
    play_days(game, users, 2)
    before = queries_for(client, url)  # no coup yet
    in_coup_phase(game, users, 2)
    early = queries_for(client, url)
    assert early == before
    assert "Fighting in Coup Phase 1" in client.get(url).content.decode()
    in_coup_phase(game, users, 5)
    assert "Fighting in Coup Phase 4" in client.get(url).content.decode()
    assert queries_for(client, url) == early
