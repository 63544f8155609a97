"""The demo of `make run`: its accounts (a GameMaster and ten players, one password for all)
and the name of its campaign.

`manage.py seed_demo` (junta.ops) creates the accounts on an empty database; `simulation.
demo_campaign` then plays a campaign with them. Both read the data here, so the players' side
needs nothing from the ops package.
"""

from __future__ import annotations

DEMO_PASSWORD = "junta-demo-2026"
DEMO_GM = ("gm@junta.test", "El Gamemaster")
DEMO_PLAYERS = [
    ("carlos@junta.test", "Carlos"),
    ("isabel@junta.test", "Isabel"),
    ("miguel@junta.test", "Miguel"),
    ("lucia@junta.test", "Lucia"),
    ("rafael@junta.test", "Rafael"),
    ("elena@junta.test", "Elena"),
    ("diego@junta.test", "Diego"),
    ("pilar@junta.test", "Pilar"),
    ("tomas@junta.test", "Tomas"),
    ("rosa@junta.test", "Rosa"),
]
DEMO_CAMPAIGN = "Republica de los Papayas (demo)"
# played to its end before the running one began: its end report, awards and archive entry
DEMO_FINISHED_CAMPAIGN = "The First Republic (finished demo)"
