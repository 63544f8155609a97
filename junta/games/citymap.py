"""The city map as inline SVG, for the Map page (and any page that shows a coup).

`render_svg` is a pure function of the zones (map.json, through the engine's catalog), the
hand-drawn schematic in data/city_layout.json and an optional public coup view
(`view["coup"]`): the zones as numbered boxes with short names, the five pink control points,
embassies and barracks marked, the river and its bridges, and during a coup every placed unit
as a counter per owner and kind, coloured by the owner's seat, each with a <title>. The page
shows `stacks_by_zone` as a table below the map: the text alternative.

All markup is built with format_html, so the families' names are escaped. Only what the coup
view holds is drawn, and the coup view is public ("everything on the map is public"); so is
the fighting of a coup phase (`battles`), read from the phase's public events only. The one
thing drawn that is not public, `planned_marks`, is the viewer's own orders of the phase: the
Map page draws them on his page only (junta/games/map_orders.py).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypedDict, cast

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from junta.engine import Catalog, CoupView, Event, MapShape, UnitView, Zone
from junta.games.wording import event_text, stored_event_text

LAYOUT_FILE = Path(__file__).parent / "data" / "city_layout.json"
# The parsed city_layout.json: JSON, whose values json gives as Any.
Layout = dict[str, Any]

# One colour per seat, each dark enough for white text (WCAG AA, 4.5:1 or more).
OWNER_COLOURS = ("#1d4ed8", "#b91c1c", "#15803d", "#7e22ce", "#c2410c",
                 "#0f766e", "#78350f", "#9d174d", "#334155", "#4d7c0f")
NOBODY_COLOUR = "#ffffff"  # leaderless government units: white counters, dark text
NOBODY = "Leaderless (government)"

# Counter abbreviations; an unknown kind gets its initials.
ABBREVIATIONS = {
    "Palace Guard": "PG", "Police": "Po", "Soldier": "S", "Tank": "T", "Marine": "M",
    "Paratrooper": "Pa", "Bodyguard": "BG", "Labor Rioter": "LR", "Mob": "Mb",
    "Striker": "St", "Rioter": "Ri", "Militia": "Mi", "Peasant": "Pe", "Rural": "Ru",
    "Rural Guerrilla": "RG", "Terrorist": "Te", "Mercenary": "Me", "Helicopter": "H",
    "Commando": "Co", "Foreign Paratrooper": "FP",
}
KIND_ORDER = tuple(ABBREVIATIONS)
PLURALS = {"Police": "Police", "Militia": "Militia", "Mercenary": "Mercenaries"}

# What map.json's zone flags mean, for the legend (flags not listed here are not shown).
FLAG_NOTES = {
    "palace_bonus": "Palace Guard roll 2 dice here",
    "police_start": "a Police unit starts here",
    "police_seize_start": "all 4 Police start here if the Chamber was seized",
    "embassy": "embassy: a way into exile",
    "no_combat": "no combat",
    "demonstrators_start": "Demonstrators (Mob) appear here",
    "student_mob_start": "Student Protest (Mob) appears here",
    "christian_militia_start": "Christian Militia appears here",
    "strikers_start": "General Strike (Strikers) appears here",
    "labor_rioter_start": "the Farm & Labor Secretary's Labor Rioter starts here",
    "slum_rioters_start": "Slum Riots (Rioters) appear here",
    "dock_strikers_start": "Dock Strike (Strikers) appears here",
    "peasants_start": "Peasant Strike and Uprising appear here",
}
LOCATION_WORDS = {"Bank": "at the Bank", "HQ": "at HQ", "Home": "at home",
                  "Mistress": "with his mistress", "Nightclub": "at the nightclub"}

ZONE_FILL = {"barracks": "#ece4c8", "embassy": "#dfe9f7", "precinct": "#eceff3"}
CONTROL_FILL, CONTROL_STROKE = "#f9cfe0", "#b0245c"
PLAIN_FILL, PLAIN_STROKE = "#fffdf8", "#6f655b"
COUNTERS_SHOWN = 6  # per zone; a seventh group or more makes the last counter "+N"


@cache
@cache
def layout() -> Layout:
    """The city's drawing coordinates, read once a process (shared: never change it)."""
    return cast(Layout, json.loads(LAYOUT_FILE.read_text()))  # json.loads gives Any


# Changes whenever this module or the layout changes: part of the key of every cached drawing
# (`coup_maps.coup_maps`, `report_pages.CODE_VERSION`), so that a new way of drawing never
# serves an old picture.
DRAWING_VERSION = hashlib.sha256(
    Path(__file__).read_bytes() + LAYOUT_FILE.read_bytes()).hexdigest()[:16]


def bridges() -> list[tuple[int, int]]:
    return [(min(a, b), max(a, b)) for a, b in Catalog.city().get("bridges", [])]


def owner_colour(owner: int | None) -> str:
    if owner is None or owner < 0:
        return NOBODY_COLOUR
    return OWNER_COLOURS[owner % len(OWNER_COLOURS)]


def abbreviation(kind: str) -> str:
    return ABBREVIATIONS.get(kind) or "".join(w[0] for w in kind.split()[:2]).upper() or "?"


def plural(kind: str, count: int) -> str:
    if count == 1:
        return kind
    return PLURALS.get(kind, kind + "s")


def zone_notes(zone: Zone) -> list[str]:
    """What the legend says about a zone, from its kind and flags."""
    notes = []
    if zone.control_point:
        notes.append("control point")
    for flag in zone.flags:
        key, _, arg = flag.partition(":")
        if key == "brigade":
            notes.append(f"barracks of the {_ordinal(arg)} Brigade")
        elif key == "bodyguard_start":
            notes.append("the Minister of War's Bodyguard starts here if he is "
                         + LOCATION_WORDS.get(arg, arg))
        elif flag in FLAG_NOTES:
            notes.append(FLAG_NOTES[flag])
    if zone.river:
        notes.append("on the river")
    return notes


def _ordinal(number: str) -> str:
    return {"1": "1st", "2": "2nd", "3": "3rd"}.get(number, f"{number}th")


@dataclass(frozen=True)
class Stack:
    """Units of one owner and kind in one zone (or not yet placed: zone None)."""

    zone: int | None
    owner: int | None
    owner_name: str
    kind: str
    count: int
    new_weapons: int = 0
    unarmed: int = 0

    @property
    def label(self) -> str:
        return f"{self.count}{abbreviation(self.kind)}"

    @property
    def colour(self) -> str:
        return owner_colour(self.owner)

    @property
    def swatch(self) -> SafeString:
        return swatch(self.colour)

    @property
    def units_text(self) -> str:
        text = f"{self.count} {plural(self.kind, self.count)}"
        extras = []
        if self.new_weapons:
            extras.append("with New Weapons" if self.new_weapons == self.count
                          else f"{self.new_weapons} with New Weapons")
        if self.unarmed and self.unarmed != self.count:
            extras.append(f"{self.unarmed} unarmed")
        elif self.unarmed:
            extras.append("unarmed")
        return text + (f" ({', '.join(extras)})" if extras else "")

    @property
    def text(self) -> str:
        return f"{self.owner_name}: {self.units_text}"


def swatch(colour: str) -> SafeString:
    """A colour sample for the text beside the map (an SVG: the site's CSP forbids inline
    styles)."""
    return format_html(
        '<svg class="swatch" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">'
        '<rect x="0.75" y="0.75" width="14.5" height="14.5" rx="3" fill="{}" stroke="#1d1b19" '
        'stroke-width="1.5"/></svg>', colour)


def owner_name(owner: int | None, names: Mapping[int, str]) -> str:
    if owner is None:
        return NOBODY
    return names.get(owner, f"Seat {owner}")


def _owner_key(owner: int | None) -> tuple[int, int]:
    return (1, 0) if owner is None else (0, owner)


def _kind_key(kind: str) -> tuple[int, str]:
    return (KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER), kind)


def stacks(coup: CoupView | None, names: Mapping[int, str] | None = None) -> list[Stack]:
    """Every unit of the coup view grouped by zone, owner and kind, in zone order (unplaced
    units, zone None, last)."""
    names = names or {}
    # the coup view's units by zone, owner and kind
    groups: dict[tuple[int | None, int | None, str], list[UnitView]] = {}
    for unit in (coup.get("units") or [] if coup else []):
        key = (unit.get("zone"), unit.get("owner"), str(unit.get("kind") or "Unit"))
        groups.setdefault(key, []).append(unit)
    out = [
        Stack(zone, owner, owner_name(owner, names), kind, len(units),
              sum(1 for u in units if u.get("new_weapons")),
              sum(1 for u in units if u.get("armed") is False))
        for (zone, owner, kind), units in groups.items()
    ]
    out.sort(key=lambda s: ((1, 0) if s.zone is None else (0, s.zone), _owner_key(s.owner),
                            _kind_key(s.kind)))
    return out


class ZoneRow(TypedDict):
    """A zone that holds units, in the table below the map."""
    zone: int
    name: str
    stacks: list[Stack]


def stacks_by_zone(coup: CoupView | None, names: Mapping[int, str] | None = None,
                   zones: Mapping[int, Zone] | None = None) -> list[ZoneRow]:
    """Rows for the table below the map: each zone that holds units, with its stacks."""
    zones = zones or Catalog.zones()
    rows: dict[int, ZoneRow] = {}
    for stack in stacks(coup, names):
        if stack.zone is None:
            continue
        zone = zones.get(stack.zone)
        row = rows.setdefault(stack.zone, {
            "zone": stack.zone, "name": zone.name if zone else f"Zone {stack.zone}",
            "stacks": []})
        row["stacks"].append(stack)
    return [rows[z] for z in sorted(rows)]


def unplaced(coup: CoupView | None, names: Mapping[int, str] | None = None
             ) -> list[Stack]:
    return [s for s in stacks(coup, names) if s.zone is None]


class OwnerKey(TypedDict):
    """An owner in the key of counter colours, with how many units he has on the map."""
    owner: int | None
    name: str
    colour: str
    swatch: SafeString
    units: int


def owners(coup: CoupView | None, names: Mapping[int, str] | None = None) -> list[OwnerKey]:
    """The key of counter colours: each owner with units on the map, and how many."""
    count: dict[int | None, int] = {}
    for s in stacks(coup, names):
        if s.zone is not None:
            count[s.owner] = count.get(s.owner, 0) + s.count
    return [{"owner": o, "name": owner_name(o, names or {}), "colour": owner_colour(o),
             "swatch": swatch(owner_colour(o)), "units": n}
            for o, n in sorted(count.items(), key=lambda kv: _owner_key(kv[0]))]


@dataclass(frozen=True)
class Move:
    owner: int | None
    owner_name: str
    start: int
    end: int
    count: int

    @property
    def text(self) -> str:
        units = "1 unit" if self.count == 1 else f"{self.count} units"
        return f"{self.owner_name}: {units} moved from zone {self.start} to zone {self.end}"


def moves(coup: CoupView | None, moved_in: int | None,
          names: Mapping[int, str] | None = None) -> list[Move]:
    """Units that entered their zone from another one in coup phase `moved_in` (the view's
    "entered" and "from_zone"), grouped by owner and route."""
    if moved_in is None:
        return []
    groups: dict[tuple[int | None, int, int], int] = {}  # by owner, start and end zone
    for unit in (coup.get("units") or [] if coup else []):
        start, end = unit.get("from_zone"), unit.get("zone")
        if unit.get("entered") == moved_in and start is not None and end is not None \
                and start != end:
            key = (unit.get("owner"), start, end)
            groups[key] = groups.get(key, 0) + 1
    return [Move(o, owner_name(o, names or {}), a, b, n)
            for (o, a, b), n in sorted(groups.items(),
                                       key=lambda kv: (_owner_key(kv[0][0]), kv[0][1:]))]


FIGHTING_KINDS = ("combat", "bombardment", "retreat", "destroyed")


@dataclass(frozen=True)
class Battle:
    """The fighting of one coup phase in one zone, from its PUBLIC events only: battles
    (casualties per owner), bombardments, retreats out of the zone and stacks destroyed."""

    zone: int
    name: str
    summaries: tuple[str, ...]  # short, for the marker's <title>
    lines: tuple[str, ...]  # the public report lines, for the list below the map
    retreats: tuple[tuple[int, str], ...] = ()  # (zone retreated to, the report line)

    @property
    def title(self) -> str:
        return f"{self.zone} {self.name}: " + "; ".join(self.summaries)


# A stored event is JSON from the database (Any values), and so is an Event's data.
StoredEvent = Event | Mapping[str, Any]


def _event_fields(event: StoredEvent) -> tuple[str, str, object, Mapping[str, Any]]:
    """kind, text, audience and data of an engine Event or of its stored dict."""
    if isinstance(event, Mapping):
        return (str(event.get("kind") or ""), stored_event_text(event),
                event.get("audience"), event.get("data") or {})
    return event.kind, event_text(event), event.audience, event.data or {}


def _loser(key: str, names: Mapping[int, str]) -> str:
    try:
        return owner_name(None if key in ("None", "") else int(key), names)
    except ValueError:
        return key


class _Fighting(TypedDict):  # what battles() gathers for one zone
    summaries: list[str]
    lines: list[str]
    retreats: list[tuple[int, str]]


def battles(events: Iterable[StoredEvent], names: Mapping[int, str] | None = None,
            zones: Mapping[int, Zone] | None = None) -> list[Battle]:
    """The zones where there was fighting in a phase, in zone order, read from the phase's
    events (engine Events or their stored dicts). Only public events are read: a private or
    GM-only line never reaches the map, whatever its kind."""
    zones = zones or Catalog.zones()
    names = names or {}
    found: dict[int, _Fighting] = {}
    for event in events:
        kind, text, audience, data = _event_fields(event)
        zone = data.get("zone")
        if audience != "public" or kind not in FIGHTING_KINDS or not isinstance(zone, int) \
                or isinstance(zone, bool):
            continue
        entry = found.setdefault(zone, {"summaries": [], "lines": [], "retreats": []})
        entry["lines"].append(text)
        if kind == "combat":
            losses = data.get("casualties") or {}
            entry["summaries"].append("Battle: " + (", ".join(
                f"{_loser(str(k), names)} lost {n}" for k, n in losses.items()) or "no losses"))
        elif kind == "bombardment":
            n = data.get("destroyed") or 0
            entry["summaries"].append(
                f"Bombardment: {n} unit{'' if n == 1 else 's'} destroyed")
        elif kind == "retreat":
            to = data.get("to")
            if isinstance(to, int) and not isinstance(to, bool) and to != zone:
                entry["retreats"].append((to, text))
            entry["summaries"].append(text.rstrip("."))
        else:
            entry["summaries"].append(text.rstrip("."))
    return [Battle(z, zones[z].name if z in zones else f"Zone {z}",
                   tuple(found[z]["summaries"]), tuple(found[z]["lines"]),
                   tuple(found[z]["retreats"]))
            for z in sorted(found)]


# --- drawing -----------------------------------------------------------------------------

def _join(parts: Iterable[SafeString]) -> SafeString:
    return mark_safe("".join(parts))  # every part comes from format_html


def _road(a: tuple[float, float], b: tuple[float, float], route: Sequence[Sequence[float]] | None,
          css: str) -> SafeString:
    if route:
        points = " ".join(f"{x:g},{y:g}" for x, y in [a, *route, b])
        return format_html('<polyline class="{}" points="{}"/>', css, points)
    return format_html('<line class="{}" x1="{}" y1="{}" x2="{}" y2="{}"/>',
                       css, a[0], a[1], b[0], b[1])


def _roads(zones: Mapping[int, Zone], lay: Layout) -> SafeString:
    centre = {int(k): (v["x"], v["y"]) for k, v in lay["zones"].items()}
    routes = lay.get("routes", {})
    bridged = set(bridges())
    roads, spans = [], []
    for a in sorted(zones):
        for b in sorted(zones[a].adjacent):
            if a < b and a in centre and b in centre:
                route = routes.get(f"{a}-{b}")
                if (a, b) in bridged:
                    spans.append(_road(centre[a], centre[b], route, "cm-bridge-deck"))
                    roads.append(_road(centre[a], centre[b], route, "cm-bridge"))
                else:
                    roads.append(_road(centre[a], centre[b], route, "cm-road"))
    return format_html(
        '<g class="cm-roads" aria-hidden="true" fill="none" stroke-linecap="round">'
        '<g stroke="#5b4636" stroke-width="16">{}</g>'
        '<g stroke="#a89a8a" stroke-width="6">{}</g></g>',
        _join(spans), _join(roads))


def _river(lay: Layout) -> SafeString:
    river = lay.get("river")
    if not river:
        return mark_safe("")
    label = river.get("label")
    text = format_html(
        '<text x="{}" y="{}" class="cm-river-name" font-size="18" font-style="italic" '
        'fill="#1d4f7a" text-anchor="middle">{}</text>', label["x"], label["y"], label["text"],
    ) if label else mark_safe("")
    return format_html(
        '<g class="cm-river" aria-hidden="true"><path d="{}" fill="none" stroke="#8ec3ea" '
        'stroke-width="{}" stroke-linecap="round"/>{}</g>', river["d"], river["width"], text)


def _badge(kind: str, x: float, y: float) -> SafeString:
    """A marker on the box's top-right corner: star (control point), flag (embassy),
    chevrons (barracks)."""
    circle = format_html('<circle cx="{}" cy="{}" r="15" fill="#fff" stroke="{}" '
                         'stroke-width="2.5"/>', x, y,
                         CONTROL_STROKE if kind == "control" else PLAIN_STROKE)
    if kind == "control":
        points = " ".join(
            f"{x + r * math.sin(i * math.pi / 5):.1f},{y - r * math.cos(i * math.pi / 5):.1f}"
            for i, r in zip(range(10), [10, 4.2] * 5, strict=True))
        shape = format_html('<polygon points="{}" fill="{}"/>', points, CONTROL_STROKE)
    elif kind == "embassy":
        shape = format_html(
            '<path d="M {} {} v 18 M {} {} h 13 l -3 4.5 l 3 4.5 h -13" fill="#3b5b8c" '
            'stroke="#1f3557" stroke-width="2"/>', x - 6, y - 9, x - 6, y - 9)
    else:
        shape = format_html(
            '<path d="M {} {} l 8 -6 l 8 6 M {} {} l 8 -6 l 8 6" fill="none" stroke="#5a4a1c" '
            'stroke-width="3.2" stroke-linejoin="round"/>', x - 8, y + 1, x - 8, y + 8)
    return format_html('<g class="cm-badge">{}{}</g>', circle, shape)


def _counter(stack: Stack, x: float, y: float, w: float, h: float) -> SafeString:
    nobody = stack.owner is None or stack.owner < 0
    dot = format_html('<circle cx="{}" cy="{}" r="4.5" fill="#ffd23f" stroke="#1d1b19" '
                      'stroke-width="1"/>', x + w - 3, y + 3) if stack.new_weapons else ""
    return format_html(
        '<g class="cm-counter" data-owner="{}" data-kind="{}" data-count="{}">'
        '<title>{}</title>'
        '<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="{}" stroke="#1d1b19" '
        'stroke-width="1.5"/>'
        '<text x="{}" y="{}" text-anchor="middle" font-size="14" font-weight="700" '
        'fill="{}">{}</text>{}</g>',
        "" if stack.owner is None else stack.owner, stack.kind, stack.count, stack.text,
        x, y, w, h, stack.colour, x + w / 2, y + h - 5.5, "#1d1b19" if nobody else "#fff",
        stack.label, dot)


def _more(hidden: list[Stack], x: float, y: float, w: float, h: float) -> SafeString:
    units = sum(s.count for s in hidden)
    return format_html(
        '<g class="cm-counter cm-more"><title>{}</title>'
        '<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="#e3d9cc" stroke="#1d1b19" '
        'stroke-width="1.5"/><text x="{}" y="{}" text-anchor="middle" font-size="15" '
        'font-weight="700" fill="#1d1b19">+{}</text></g>',
        "; ".join(s.text for s in hidden), x, y, w, h, x + w / 2, y + h - 6, units)


# spot: the zone's entry in the layout (JSON, Any values: numbers and its label)
def _zone(zone: Zone, spot: Mapping[str, Any], size: Mapping[str, float], here: list[Stack],
          control: str | None, in_coup: bool, id_prefix: str = "") -> SafeString:
    cx, cy, w, h = spot["x"], spot["y"], size["width"], size["height"]
    left, top = cx - w / 2, cy - h / 2
    if zone.control_point:
        fill, stroke, width = CONTROL_FILL, CONTROL_STROKE, 4
    else:
        fill, stroke, width = ZONE_FILL.get(zone.kind, PLAIN_FILL), PLAIN_STROKE, 2
    # (the words in the zone's title, its badge) for each feature it has
    marks = [(words, badge) for has, words, badge in (
        (zone.control_point, "control point", "control"),
        ("embassy" in zone.flags, "embassy, no combat", "embassy"),
        (zone.kind == "barracks", "barracks", "barracks")) if has]
    label = spot.get("label", zone.name)
    shown = here if len(here) <= COUNTERS_SHOWN else here[:COUNTERS_SHOWN - 1]
    hidden = here[len(shown):]
    held = {"junta": "Junta", "president": "President"}.get(control or "")
    # The zone's name begins with the words drawn in it, in their order (its number, short
    # name, counters, the side holding it), so that a person using speech input can say what
    # he sees; the full name, features and units follow.
    seen = [str(zone.id), label, *(s.label for s in shown),
            *([f"+{sum(s.count for s in hidden)}"] if hidden else []), *([held] if held else [])]
    details = [zone.name] if zone.name != label else []
    details += [words for words, _badge in marks]
    if held:
        details.append(f"held for the {held}")
    title = " ".join(seen) + (f": {', '.join(details)}" if details else "")
    if in_coup:
        title += ("; " if details else ": ") + (
            "; ".join(s.text for s in here) if here else "no units")
    badge = _join(_badge(kind, left + w - 4 - 34 * i, top + 2)
                  for i, (_words, kind) in enumerate(marks))
    cw, ch, gap = (w - 12 - 6) / 3, 21, 3

    def slot(i: int) -> tuple[float, float, float, float]:
        return left + 6 + (i % 3) * (cw + gap), top + 65 + (i // 3) * (ch + gap), cw, ch

    counters = [_counter(s, *slot(i)) for i, s in enumerate(shown)]
    if hidden:
        counters.append(_more(hidden, *slot(COUNTERS_SHOWN - 1)))
    tag = ""
    if held:
        text, colour = ("Junta", "#7a1010") if control == "junta" else ("President", "#123f7a")
        tag = format_html(
            '<g class="cm-control"><rect x="{}" y="{}" width="84" height="22" rx="11" '
            'fill="{}"/><text x="{}" y="{}" text-anchor="middle" font-size="14" '
            'font-weight="700" fill="#fff">{}</text></g>',
            cx - 42, top + h + 3, colour, cx, top + h + 19, text)
    return format_html(
        '<g class="cm-zone cm-{}{}" id="{}zone-{}" data-zone="{}"><title>{}</title>'
        '<rect x="{}" y="{}" width="{}" height="{}" rx="12" fill="{}" stroke="{}" '
        'stroke-width="{}"/>'
        '<text class="cm-num" x="{}" y="{}" font-size="38" font-weight="700" '
        'fill="#1d1b19">{}</text>'
        '<text class="cm-label" x="{}" y="{}" font-size="16" fill="#1d1b19">{}</text>'
        '{}{}{}</g>',
        zone.kind, " cm-cp" if zone.control_point else "", id_prefix, zone.id, zone.id, title,
        left, top, w, h, fill, stroke, width,
        left + 8, top + 41, zone.id, left + 8, top + 59, label, badge, _join(counters), tag)


def _edge_point(c: tuple[float, float], towards: tuple[float, float], w: float, h: float,
                pad: float) -> tuple[float, float]:
    """Where the segment from box centre `c` towards a point leaves the box (plus pad)."""
    dx, dy = towards[0] - c[0], towards[1] - c[1]
    if dx == 0 and dy == 0:
        return c
    t = min(((w / 2 + pad) / abs(dx)) if dx else math.inf,
            ((h / 2 + pad) / abs(dy)) if dy else math.inf)
    return c[0] + dx * t, c[1] + dy * t


def _arrow(move: Move, lay: Layout) -> SafeString:
    spots, size = lay["zones"], lay["zone"]
    if str(move.start) not in spots or str(move.end) not in spots:
        return mark_safe("")
    a = (spots[str(move.start)]["x"], spots[str(move.start)]["y"])
    b = (spots[str(move.end)]["x"], spots[str(move.end)]["y"])
    x1, y1 = _edge_point(a, b, size["width"], size["height"], 2)
    x2, y2 = _edge_point(b, a, size["width"], size["height"], 4)
    angle = math.atan2(y2 - y1, x2 - x1)
    head = " ".join(f"{x2 + r * math.cos(angle + t):.1f},{y2 + r * math.sin(angle + t):.1f}"
                    for r, t in ((0, 0), (22, math.pi - 0.45), (22, math.pi + 0.45)))
    colour = "#1d1b19" if move.owner is None else owner_colour(move.owner)
    return format_html(
        '<g class="cm-move"><title>{}</title>'
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#fff" stroke-width="11" '
        'stroke-linecap="round"/>'
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="6" '
        'stroke-linecap="round"/><polygon points="{}" fill="{}" stroke="#fff" '
        'stroke-width="2"/></g>',
        move.text, f"{x1:.1f}", f"{y1:.1f}", f"{x2:.1f}", f"{y2:.1f}",
        f"{x1:.1f}", f"{y1:.1f}", f"{x2:.1f}", f"{y2:.1f}", colour, head, colour)


def _burst(x: float, y: float) -> SafeString:
    """A red twelve-pointed burst with crossed swords: a battle was fought here."""
    points = " ".join(
        f"{x + r * math.sin(i * math.pi / 12):.1f},{y - r * math.cos(i * math.pi / 12):.1f}"
        for i, r in zip(range(24), [26, 20] * 12, strict=True))
    swords = "".join(
        f'<path d="M {x - d * 11:.1f} {y - 11:.1f} L {x + d * 10:.1f} {y + 10:.1f} '
        f'M {x + d * 2:.1f} {y + 10:.1f} L {x + d * 10:.1f} {y + 2:.1f}"/>' for d in (1, -1))
    return format_html(
        '<polygon points="{}" fill="#c1121f" stroke="#fff" stroke-width="2.5" '
        'stroke-linejoin="round"/><g stroke="#fff" stroke-width="4" stroke-linecap="round" '
        'fill="none">{}</g>', points, mark_safe(swords))  # swords: numbers only


def _box(zone: int, lay: Layout) -> tuple[float, float, float, float] | None:
    spot, size = lay["zones"].get(str(zone)), lay["zone"]
    if spot is None:
        return None
    w, h = size["width"], size["height"]
    return spot["x"] - w / 2, spot["y"] - h / 2, w, h


def _ring(battle: Battle, lay: Layout) -> SafeString:
    """A dashed red ring round a zone fought over (drawn under the zones: a halo)."""
    box = _box(battle.zone, lay)
    if box is None:
        return mark_safe("")
    left, top, w, h = box
    return format_html(
        '<rect x="{}" y="{}" width="{}" height="{}" rx="16" fill="none" stroke="#c1121f" '
        'stroke-width="6" stroke-dasharray="14 6"/>', left - 5, top - 5, w + 10, h + 10)


def _battle(battle: Battle, lay: Layout) -> SafeString:
    """The marker of a zone fought over: a burst on its bottom-right corner, with the
    casualties in its <title>."""
    box = _box(battle.zone, lay)
    if box is None:
        return mark_safe("")
    left, top, w, h = box
    return format_html('<g class="cm-battle" data-zone="{}"><title>{}</title>{}</g>',
                       battle.zone, battle.title, _burst(left + w - 6, top + h - 6))


def _retreat(start: int, end: int, text: str, lay: Layout) -> SafeString:
    """A retreat: a dashed dark-red arrow with an open head (moves are solid, filled)."""
    spots, size = lay["zones"], lay["zone"]
    if str(start) not in spots or str(end) not in spots:
        return mark_safe("")
    a = (spots[str(start)]["x"], spots[str(start)]["y"])
    b = (spots[str(end)]["x"], spots[str(end)]["y"])
    x1, y1 = _edge_point(a, b, size["width"], size["height"], 2)
    x2, y2 = _edge_point(b, a, size["width"], size["height"], 6)
    angle = math.atan2(y2 - y1, x2 - x1)
    head = " ".join(f"{x2 + r * math.cos(angle + t):.1f},{y2 + r * math.sin(angle + t):.1f}"
                    for r, t in ((20, math.pi - 0.6), (0, 0), (20, math.pi + 0.6)))
    ends = (f"{x1:.1f}", f"{y1:.1f}", f"{x2:.1f}", f"{y2:.1f}")
    return format_html(
        '<g class="cm-retreat" data-from="{}" data-to="{}"><title>{}</title>'
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#fff" stroke-width="10" '
        'stroke-linecap="round"/>'
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#7a1010" stroke-width="5" '
        'stroke-dasharray="10 7"/>'
        '<polyline points="{}" fill="none" stroke="#fff" stroke-width="9" '
        'stroke-linecap="round" stroke-linejoin="round"/>'
        '<polyline points="{}" fill="none" stroke="#7a1010" stroke-width="5" '
        'stroke-linecap="round" stroke-linejoin="round"/></g>',
        start, end, text, *ends, *ends, head, head)


@dataclass(frozen=True)
class Planned:
    """One of the viewer's own orders of this phase that the map can show: an arrow from
    `start` to `end` (a move, a retreat), or a mark on `end` (a landing, an attack, a strike).
    Drawn for the one who gave it only: his orders are his secret until they are carried out
    (docs/rules.md §secrets)."""

    number: int  # 1-based, as the list below the map and the Orders page number it
    kind: str  # the order's kind, as data: the mark's data-kind
    shape: MapShape  # its map shape (the engine's): an arrow, an outline or a crosshair
    start: int | None
    end: int
    text: str

    @property
    def title(self) -> str:
        return f"Order {self.number}: {self.text}"


def _order_badge(number: int, x: float, y: float) -> SafeString:
    return format_html(
        '<g class="cm-order-badge"><circle cx="{}" cy="{}" r="15" fill="#1d1b19" '
        'stroke="#fff" stroke-width="3"/><text x="{}" y="{}" text-anchor="middle" '
        'font-size="18" font-weight="700" fill="#fff">{}</text></g>',
        f"{x:.1f}", f"{y:.1f}", f"{x:.1f}", f"{y + 6:.1f}", number)


def _planned(order: Planned, lay: Layout, colour: str, slot: int) -> SafeString:
    """A dashed arrow (the order's route) or a mark on the zone, with the order's number in a
    badge; `slot` shifts the badges of several marks on one zone apart."""
    spots, size = lay["zones"], lay["zone"]
    if str(order.end) not in spots or (order.start is not None and str(order.start) not in spots):
        return mark_safe("")
    b = (spots[str(order.end)]["x"], spots[str(order.end)]["y"])
    if order.start is not None and order.start != order.end:
        a = (spots[str(order.start)]["x"], spots[str(order.start)]["y"])
        # from inside the stack's box into the destination's: readable between boxes that
        # nearly touch, and unlike last phase's moves, drawn from box edge to box edge
        x1, y1 = _edge_point(a, b, size["width"] / 2, size["height"] / 2, 0)
        x2, y2 = _edge_point(b, a, size["width"] * 0.8, size["height"] * 0.8, 0)
        angle = math.atan2(y2 - y1, x2 - x1)
        head = " ".join(
            f"{x2 + r * math.cos(angle + t):.1f},{y2 + r * math.sin(angle + t):.1f}"
            for r, t in ((0, 0), (24, math.pi - 0.45), (24, math.pi + 0.45)))
        ends = (f"{x1:.1f}", f"{y1:.1f}", f"{x2:.1f}", f"{y2:.1f}")
        shape = format_html(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#fff" stroke-width="12" '
            'stroke-linecap="round"/>'
            '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="6" '
            'stroke-dasharray="14 8" stroke-linecap="round"/>'
            '<polygon points="{}" fill="{}" stroke="#fff" stroke-width="2.5"/>',
            *ends, *ends, colour, head, colour)
        badge = _order_badge(order.number, x1 + (x2 - x1) * 0.4, y1 + (y2 - y1) * 0.4)
    else:
        left, top = b[0] - size["width"] / 2, b[1] - size["height"] / 2
        if order.shape is MapShape.TARGET:  # a crosshair on the zone
            shape = format_html(
                '<g fill="none" stroke="#7a1010" stroke-width="5"><circle cx="{}" cy="{}" '
                'r="30"/><path d="M {} {} h 24 M {} {} h -24 M {} {} v 24 M {} {} v -24"/>'
                '</g>', b[0], b[1], b[0] - 42, b[1], b[0] + 42, b[1], b[0], b[1] - 42,
                b[0], b[1] + 42)
        else:
            shape = format_html(
                '<rect x="{}" y="{}" width="{}" height="{}" rx="10" fill="none" stroke="{}" '
                'stroke-width="6" stroke-dasharray="12 7"/>',
                left + 4, top + 4, size["width"] - 8, size["height"] - 8, colour)
        badge = _order_badge(order.number, left + 16 + 32 * slot, top + size["height"] - 16)
    return format_html(
        '<g class="cm-order" data-order="{}" data-kind="{}"><title>{}</title>{}{}</g>',
        order.number, order.kind, order.title, shape, badge)


def planned_marks(orders: Iterable[Planned], colour: str, lay: Layout | None = None
                  ) -> SafeString:
    """The viewer's own orders drawn over the map (an empty string without any)."""
    lay = lay or layout()
    slots: dict[int, int] = {}
    drawn = []
    for order in orders:
        slot = 0
        if order.start is None or order.start == order.end:
            slot = slots.get(order.end, 0)
            slots[order.end] = slot + 1
        drawn.append(_planned(order, lay, colour, slot))
    if not drawn:
        return mark_safe("")
    return format_html('<g class="cm-orders">{}</g>', _join(drawn))


def render_svg(coup: CoupView | None = None, names: Mapping[int, str] | None = None,
               *, zones: Mapping[int, Zone] | None = None, layout_data: Layout | None = None,
               moved_in: int | None = None, battles: Iterable[Battle] | None = None,
               title: str = "Map of the city", title_id: str = "citymap-title",
               id_prefix: str = "", planned: SafeString | None = None) -> SafeString:
    """The city as an inline <svg>. `coup` is a public coup view (or None outside a coup):
    its placed units are drawn as counters; `names` maps seats to the families' names;
    `moved_in` draws arrows for the units that moved in that coup phase; `battles` (from
    `battles()`, public events only) marks the zones fought over in that phase and draws the
    retreats out of them. `id_prefix` keeps element ids unique when a page draws several maps
    (History). `planned` (from `planned_marks`) draws the viewer's own orders on top."""
    zones = zones or Catalog.zones()
    lay = layout_data or layout()
    names = names or {}
    by_zone: dict[int, list[Stack]] = {}
    for stack in stacks(coup, names):
        if stack.zone is not None:
            by_zone.setdefault(stack.zone, []).append(stack)
    control = {str(k): v for k, v in ((coup.get("control") if coup else None) or {}).items()}
    drawn = [
        _zone(zones[z], lay["zones"][str(z)], lay["zone"], by_zone.get(z, []),
              control.get(str(z)), coup is not None, id_prefix)
        for z in sorted(zones) if str(z) in lay["zones"]]
    arrows = [_arrow(m, lay) for m in moves(coup, moved_in, names)]
    fought = list(battles or [])
    rings = fighting = mark_safe("")
    if fought:
        rings = format_html('<g class="cm-battle-rings" aria-hidden="true">{}</g>',
                            _join(_ring(b, lay) for b in fought))
        fighting = format_html(
            '<g class="cm-battles">{}</g><g class="cm-retreats">{}</g>',
            _join(_battle(b, lay) for b in fought),
            _join(_retreat(b.zone, to, text, lay) for b in fought for to, text in b.retreats))
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="citymap" viewBox="0 0 {} {}" '
        'role="group" aria-labelledby="{}" font-family="system-ui, sans-serif">'
        '<title id="{}">{}</title>'
        '<rect width="{}" height="{}" fill="#f4efe6" aria-hidden="true"/>'
        '{}{}{}<g class="cm-zones">{}</g><g class="cm-moves">{}</g>{}{}</svg>',
        lay["width"], lay["height"], title_id, title_id, title,
        lay["width"], lay["height"], _river(lay), _roads(zones, lay), rings, _join(drawn),
        _join(arrows), fighting, planned or "")


# --- the text beside the map --------------------------------------------------------------

class LegendZone(TypedDict):
    id: int
    name: str
    kind: str
    control_point: bool
    notes: list[str]


def legend(zones: Mapping[int, Zone] | None = None) -> list[LegendZone]:
    """The numbered list of zones with what is special about each."""
    zones = zones or Catalog.zones()
    return [{"id": z.id, "name": z.name, "kind": z.kind, "control_point": z.control_point,
             "notes": zone_notes(z)} for z in (zones[k] for k in sorted(zones))]


POSITION_KEYS = {
    "President": Catalog.PRESIDENT,
    "Minister of Internal Security": Catalog.INTERNAL_SECURITY,
    "Generalissimo 1st Brigade": Catalog.GENERAL_1,
    "Generalissimo 2nd Brigade": Catalog.GENERAL_2,
    "Generalissimo 3rd Brigade": Catalog.GENERAL_3,
    "Admiral": Catalog.ADMIRAL,
    "Air Force Commander": Catalog.AIR_FORCE,
    "Minister of War": Catalog.WAR,
    "Farm & Labor Secretary": Catalog.FARM_LABOR,
}


def _where(zone: int | None, zones: Mapping[int, Zone]) -> str:
    return f"{zone} {zones[zone].name}" if zone is not None and zone in zones else f"zone {zone}"


# spec: a force's entry in map.json (JSON, Any values)
def _force(kind: str, spec: Mapping[str, Any], zones: Mapping[int, Zone]) -> str:
    count = spec.get("count")
    units = f"{count} {plural(kind, count)}" if isinstance(count, int) else kind
    if "zone_by_location" in spec:
        places = ", ".join(f"{LOCATION_WORDS.get(loc, loc)} in {_where(z, zones)}"
                           for loc, z in spec["zone_by_location"].items())
        return f"the {kind} starts where the Minister of War is: {places}"
    if "zones" in spec:
        each = spec.get("count_each", 1)
        line = (f"{each} {plural(kind, each)} in each of "
                + ", ".join(_where(z, zones) for z in spec["zones"]))
        alt = spec.get("alt_if_chamber_seized")
        if alt:
            line += (f" (all {alt.get('count')} in {_where(alt.get('zone'), zones)} if the "
                     "Chamber was seized)")
        return line
    if spec.get("zone") is not None:
        return f"{units} in {_where(spec['zone'], zones)}"
    if "deploy" in spec:
        return f"{units}, placed in {spec['deploy']}"
    if "uses" in spec:
        return (f"{spec['uses']} {plural(kind, spec['uses'])} of {spec.get('dice', '?')} dice,"
                f" at most {spec.get('max_per_phase', 1)} a coup phase")
    if spec.get("notes"):
        return f"the {kind}: {spec['notes']}"
    return units


class DeploymentRow(TypedDict):
    """A position's forces where they start, with its public holder ("" for a force no
    position commands)."""
    title: str
    holder: str
    forces: list[str]


def deployment(positions: Mapping[str, int | None] | None = None,
               names: Mapping[int, str] | None = None,
               zones: Mapping[int, Zone] | None = None) -> list[DeploymentRow]:
    """Where each position's forces start when a coup begins (map.json's initial_deployment),
    with the position's public holder."""
    zones = zones or Catalog.zones()
    positions, names = positions or {}, names or {}
    out: list[DeploymentRow] = []
    for title, forces in Catalog.city().get("initial_deployment", {}).items():
        key = POSITION_KEYS.get(title)
        holder = positions.get(key) if key else None
        who = ("vacant" if holder is None else "the President's Brother-in-Law"
               if holder < 0 else names.get(holder, f"seat {holder}"))
        out.append({"title": Catalog.TITLES.get(key, title) if key else title,
                    "holder": who if key else "",
                    "forces": _forces(forces, zones)})
    return out


# forces: a position's entry in map.json's initial_deployment (JSON, Any values)
def _forces(forces: Mapping[str, Any], zones: Mapping[int, Zone]) -> list[str]:
    """One line per force; forces that simply start together in one zone share a line ("5
    Soldiers and 1 Tank in 15 1st Brigade Barracks")."""
    lines: list[str | tuple[int, list[str]]] = []
    together: dict[int, list[str]] = {}
    for kind, spec in forces.items():
        count, zone = spec.get("count"), spec.get("zone")
        if isinstance(count, int) and isinstance(zone, int) and not spec.get("notes"):
            if zone not in together:
                together[zone] = []
                lines.append((zone, together[zone]))
            together[zone].append(f"{count} {plural(kind, count)}")
        else:
            lines.append(_force(kind, spec, zones))
    return [line if isinstance(line, str) else
            " and ".join(line[1]) + f" in {_where(line[0], zones)}" for line in lines]
