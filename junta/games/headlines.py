"""Newspaper headlines for the big public events, in the tone of El Diario de los Papayas.

Only public events get headlines, and a headline uses only what the public event says, so it
can never reveal a secret. The wording is picked from a few variants by a stable hash, so a
page shows the same headline every time.
"""

from __future__ import annotations

import hashlib

from junta.engine.events import Event

VARIANTS: dict[str, tuple[str, ...]] = {
    "death": ("TRAGEDY IN THE CAPITAL: {text}", "BLOOD ON THE BOULEVARD! {text}",
              "A FAMILY MOURNS. {text}"),
    "president": ("HAIL THE NEW PRESIDENT! {text}", "THE CHAMBER HAS SPOKEN: {text}",
                  "A NEW DAWN FOR THE REPUBLIC? {text}"),
    "budget_passed": ("BUDGET PASSES: THE PEOPLE REJOICE, MODESTLY. {text}",
                      "FOREIGN AID FLOWS! {text}"),
    "budget_failed": ("CHAMBER DEFEATS THE BUDGET! {text}", "CRISIS IN THE CHAMBER. {text}"),
    "chamber_seized": ("TANKS AT THE CHAMBER DOORS! {text}",
                       "DEMOCRACY TAKES A LUNCH BREAK. {text}"),
    "budget_stays_defeated": ("NO MONEY FOR ANYONE (ALMOST). {text}",),
    "resignation": ("EL PRESIDENTE STEPS DOWN! {text}", "SHOCK RESIGNATION AT THE PALACE. {text}"),
    "exile": ("MIDNIGHT FLIGHT FROM THE CAPITAL! {text}",),
    "returned": ("THE EXILE COMES HOME. {text}",),
    "rebels": ("TROOPS IN THE STREETS! {text}", "COUP! {text}"),
    "scandal": ("SCANDAL ROCKS HIGH SOCIETY! {text}",),
    "game_over": ("THE AID HAS RUN DRY. {text}",),
}
DEFAULT = ("EXTRA! EXTRA! {text}", "LATE EDITION: {text}")


def headline(event: Event, salt: str = "") -> str | None:
    if not event.headline or event.audience != "public":
        return None
    variants = VARIANTS.get(event.kind, DEFAULT)
    pick = int(hashlib.sha256(f"{salt}:{event.kind}:{event.text}".encode()).hexdigest(), 16)
    return variants[pick % len(variants)].format(text=event.text)
