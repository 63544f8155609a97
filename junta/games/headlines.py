"""Newspaper headlines for the big public events, in the tone of El Diario de los Papayas.

Only public events get headlines, and a headline uses only what the public event itself says
(its text and its data: names, the place of a death, the side that won a coup), so it can never
reveal a secret. Each kind of event has its own headlines, picked from a few variants by a
stable hash, so a page shows the same headline every time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from junta.engine import Catalog, Event
from junta.games.wording import event_text

# Each variant is formatted with: name_caps (the person the event is about, if any), at_place
# (where a death happened: "AT THE CLUB"), points (control points won), zone_caps and card_caps
# (where a card put units on the map, and which card), text_caps (the report line).
VARIANTS: dict[str, tuple[str, ...]] = {
    "assassination": (
        "BLOOD {at_place}! {name_caps} GUNNED DOWN",
        "{name_caps} ASSASSINATED: THE CAPITAL HOLDS ITS BREATH",
        "TRAGEDY {at_place}: {name_caps} WILL NOT BE COMING BACK",
        "SHOTS RING OUT {at_place}. {name_caps} IS NO MORE",
        "ASSASSINATION! THE CAPITAL HOLDS ITS BREATH",
    ),
    "assassination_nowhere": (
        "{name_caps} ASSASSINATED: THE CAPITAL HOLDS ITS BREATH",
        "A FAMILY MOURNS: {name_caps} FALLS TO AN ASSASSIN",
        "AN ASSASSIN STRIKES: A FAMILY MOURNS",
    ),
    "execution": (
        "AT DAWN, THE FIRING SQUAD: {name_caps} EXECUTED",
        "{name_caps} FACES THE WALL. JUSTICE, SAYS THE PALACE",
        "THE PALACE SETTLES ACCOUNTS: {name_caps} SHOT",
        "VOLLEYS AT DAWN IN THE BARRACKS YARD: AN EXECUTION",
    ),
    "death": (
        "A FAMILY MOURNS: {name_caps} IS DEAD",
        "BLACK CREPE ON THE BOULEVARD: {name_caps} DIES",
        "BLACK CREPE ON THE BOULEVARD: A DEATH IN HIGH SOCIETY",
    ),
    "president": (
        "¡VIVA EL PRESIDENTE {name_caps}!",
        "THE CHAMBER HAS SPOKEN: {name_caps} TAKES THE SASH",
        "A NEW DAWN FOR THE REPUBLIC? {name_caps} MOVES INTO THE PALACE",
        "BANDS PLAY, FLAGS WAVE: {name_caps} IS PRESIDENT",
        "A NEW DAWN FOR THE REPUBLIC? THE CHAMBER HAS CHOSEN ITS PRESIDENT",
    ),
    "budget_passed": (
        "BUDGET PASSES: THE PEOPLE REJOICE, MODESTLY",
        "FOREIGN AID FLOWS! DEPUTIES SMILE FOR THE CAMERAS",
        "CHAMBER APPROVES THE BUDGET; SWISS BANKERS REPORT A BUSY AFTERNOON",
    ),
    "budget_failed": (
        "CHAMBER THROWS OUT THE BUDGET! THE GENERALS ARE WATCHING",
        "BUDGET DEFEATED: CRISIS IN THE CHAMBER, TANKS POLISHED IN THE BARRACKS",
        "NO BUDGET FOR THE REPUBLIC! WHISPERS OF A COUP IN THE CAFÉS",
    ),
    "chamber_seized": (
        "TANKS AT THE CHAMBER DOORS! THE BUDGET PASSES AT GUNPOINT",
        "DEMOCRACY TAKES A LUNCH BREAK: POLICE SEIZE THE CHAMBER",
    ),
    "budget_stays_defeated": (
        "NO MONEY FOR ANYONE (ALMOST): THE BUDGET STAYS DEFEATED",
        "BANK SHUTTERS COME DOWN: THE BUDGET IS DEAD",
    ),
    "alternative_budget": (
        "A RIVAL BUDGET! {name_caps} TAKES THE MONEY BAGS",
        "A RIVAL BUDGET! THE MONEY BAGS CHANGE HANDS",
    ),
    "resignation": (
        "EL PRESIDENTE STEPS DOWN! {name_caps} RESIGNS",
        "SHOCK AT THE PALACE: {name_caps} HANDS BACK THE SASH",
        "EL PRESIDENTE STEPS DOWN! THE CHAMBER MUST CHOOSE AGAIN",
    ),
    "exile": (
        "MIDNIGHT FLIGHT FROM THE CAPITAL! {name_caps} SLIPS ABROAD",
        "{name_caps} SEEN BOARDING A FREIGHTER: EXILE!",
        "THE AIRPORT AT DAWN: {name_caps} CHOOSES EXILE",
        "MIDNIGHT FLIGHT FROM THE CAPITAL: ANOTHER FAMILY CHOOSES EXILE",
    ),
    "flight": (
        "OVER THE EMBASSY WALL! {name_caps} FLEES INTO EXILE",
        "{name_caps} ESCAPES THROUGH AN EMBASSY: A DIPLOMATIC INCIDENT",
        "OVER THE EMBASSY WALL: A DIPLOMATIC INCIDENT",
    ),
    "returned": (
        "THE EXILE COMES HOME: {name_caps} IS BACK",
        "{name_caps} RETURNS! THE AIRPORT CROWD IS SMALL BUT LOUD",
        "THE EXILE COMES HOME: THE AIRPORT CROWD IS SMALL BUT LOUD",
    ),
    "rebels": (
        "TROOPS IN THE STREETS! COUP D'ÉTAT IN THE CAPITAL",
        "COUP! {name_caps} LEADS THE REBELS AGAINST THE PALACE",
        "TANKS ROLL AT DAWN: THE REPUBLIC HOLDS ITS BREATH",
    ),
    "coup_won": (
        "THE JUNTA TRIUMPHS! {points} CONTROL POINTS FALL TO THE REBELS",
        "THE PALACE FALLS! THE JUNTA WILL NAME A PRESIDENT",
    ),
    "coup_lost": (
        "THE COUP IS CRUSHED! THE PRESIDENT HOLDS THE CAPITAL",
        "LOYAL TROOPS PREVAIL: THE REBELS' DAY IS OVER",
        "EL PRESIDENTE SURVIVES! THE FIRING SQUADS OIL THEIR RIFLES",
    ),
    "no_junta": (
        "THE REBELS WIN AND VANISH! NO JUNTA, AND {name_caps} FALLS ALL THE SAME",
        "A COUP WITHOUT A JUNTA: {name_caps} FALLS, THE CHAMBER WILL CHOOSE",
        "VICTORY, THEN THE AIRPORT: NOT ONE REBEL STAYS TO GOVERN",
    ),
    "scandal": (
        "SCANDAL ROCKS HIGH SOCIETY! {name_caps} CAUGHT WITH A MISTRESS",
        "{name_caps} AND THE MISTRESS: THE PHOTOGRAPHS",
        "SCANDAL ROCKS HIGH SOCIETY: THE PHOTOGRAPHS",
    ),
    "units_appear": (
        "UNREST IN {zone_caps}! {name_caps} PLAYS {card_caps}",
        "{card_caps}: THE CROWDS GATHER IN {zone_caps}",
        "TROUBLE IN {zone_caps}. WHO PAYS THESE PEOPLE? ({name_caps}, SAYS THE PALACE)",
        "THE STREETS FILL UP: WHO PAYS THESE PEOPLE?",
    ),
    "motion_result": (
        "THE CHAMBER SACKS EL PRESIDENTE! A NEW ELECTION AT ONCE",
        "OUT! THE DEPUTIES FIND THE PRESIDENT INCOMPETENT",
    ),
    "motion": (
        "IS THE PRESIDENT FIT TO RULE? THE CHAMBER WILL DECIDE",
        "MOTION OF INCOMPETENCE TABLED AGAINST EL PRESIDENTE",
    ),
    "power_failure": (
        "LIGHTS OUT IN THE CHAMBER! THE VOTE IS TAKEN AGAIN",
        "BLACKOUT! DEPUTIES COUNT AGAIN BY CANDLELIGHT",
    ),
    "annulled": (
        "VOTE ANNULLED! THE CHAMBER MUST TRY AGAIN TOMORROW",
    ),
    "coup_excuse_card": (
        "THE ARMY GROWS RESTLESS: A COUP EXCUSE!",
        "OUTRAGE IN THE BARRACKS: THE GENERALS HAVE THEIR EXCUSE",
    ),
    "bank_holiday": ("BANK HOLIDAY! THE SWISS ACCOUNTS WAIT",),
    "audit": ("FOREIGN AID AUDIT: THE PRESIDENT OPENS THE BOOKS",),
    "game_over": (
        "THE FOREIGN AID HAS RUN DRY: {name_caps} RETIRES IN COMFORT",
        "THE LAST DOLLAR IS SPENT: {name_caps} WINS THE REPUBLIC",
        "FINIS! THE BANKERS NAME {name_caps} THE RICHEST PATRIOT",
        "NO MORE AID, NO MORE REPUBLIC: THE SWISS ACCOUNTS ARE OPENED",
    ),
}
DEFAULT = ("EXTRA! {text_caps}", "LATE EDITION: {text_caps}")

AT_PLACE = {"home": "AT HOME", "hq": "AT HEADQUARTERS", "bank": "AT THE BANK",
            "club": "AT THE CLUB", "mistress": "AT THE MISTRESS'S"}

# Which data field names the person a headline is about, per kind of event.
SUBJECT = {"death": "victim", "president": "president", "exile": "seat", "flight": "seat",
           "rebels": "first_rebel", "no_junta": "deposed"}


class _Blank(dict[str, object]):  # the values of a headline's fields, of any kind
    def __missing__(self, key: str) -> str:
        return ""


def _variants(event: Event) -> tuple[str, ...]:
    data = event.data or {}
    if event.kind == "death":
        how = str(data.get("how", ""))
        if how == "assassinated":
            return VARIANTS["assassination" if data.get("location") else
                            "assassination_nowhere"]
        if "firing squad" in how or "executed" in how:
            return VARIANTS["execution"]
        return VARIANTS["death"]
    if event.kind == "coup_result":
        return VARIANTS["coup_won" if data.get("result") == "junta" else "coup_lost"]
    return VARIANTS.get(event.kind, DEFAULT)


def _subject(event: Event, names: Mapping[int, str]) -> str:
    data = event.data or {}
    if event.kind == "game_over":
        return " AND ".join(names.get(w, "") for w in data.get("winners", [])
                            if names.get(w))
    key = SUBJECT.get(event.kind)
    seat = data.get(key) if key else None
    if isinstance(seat, int) and seat in names:
        return names[seat]
    # else the first family named in the report line ("Scandal! Don Carlos is caught...")
    found = [(event.text.find(name), -len(name), name) for name in names.values()
             if name and name in event.text]
    return min(found)[2] if found else ""


def headline(event: Event, salt: str = "", names: Mapping[int, str] | None = None
             ) -> str | None:
    """The newspaper's headline for a public headline event, or None. `names` maps seats to
    the families' names (public)."""
    if not event.headline or event.audience != "public":
        return None
    names = names or {}
    name = _subject(event, names)
    data = event.data or {}
    zone_id = data.get("zone")
    zone = Catalog.zones().get(zone_id) if isinstance(zone_id, int) else None
    said = event_text(event)  # the line in the reader's language (the pick stays the same)
    values: dict[str, object] = _Blank(
        name=name, name_caps=name.upper(), text_caps=said.upper(),
        zone_caps=zone.name.upper() if zone else "", card_caps=str(data.get("card", "")).upper(),
        at_place=AT_PLACE.get(str((event.data or {}).get("location") or ""), ""),
        points=(event.data or {}).get("points", ""), text=said)
    variants = [v for v in _variants(event) if _usable(v, values)] or list(DEFAULT)
    pick = int(hashlib.sha256(f"{salt}:{event.kind}:{event.text}".encode()).hexdigest(), 16)
    return variants[pick % len(variants)].format_map(values)


def _usable(variant: str, values: Mapping[str, object]) -> bool:
    """A variant that names someone (or somewhere) is used only when the event says who."""
    return all(values.get(key) not in ("", None)
               for key in ("name_caps", "at_place", "points", "zone_caps", "card_caps")
               if "{" + key + "}" in variant)
