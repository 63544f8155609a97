"""The names of the game's data, which the engine's messages name (`words.Card`, `Place`,
`Zone`, `Position` and the `Term`s of units, forces, statuses and vote choices), marked for the
translation catalogue: the catalogue's extraction reads calls in the code, not the data files.

`NAMES` is written by `python -m junta.engine.data_words` from `data_names()` (the one place
they come from: catalog.py, units.py, enums.py); tests/engine/test_words.py checks it is current.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

from . import catalog
from .enums import Status
from .labels import plural
from .state_shapes import UnitKind
from .units import FOREIGN_FORCES
from .words import gettext_noop

VOTE_CHOICES = ("yes", "no", "abstain")
START = "\nNAMES = (\n"


def data_names() -> list[str]:
    """Every name of the game's data a message may hold, each once, in a stable order."""
    names = [c.name for c in catalog.cards()]
    names += list(catalog.TITLES.values()) + list(catalog.LOCATION_NAMES.values())
    names += [z.name for z in catalog.zones().values()]
    for kind in get_args(UnitKind):
        names += [kind, plural(kind, 2)]
    names += list(FOREIGN_FORCES) + [str(s) for s in Status] + list(VOTE_CHOICES)
    return list(dict.fromkeys(names))


def module_text() -> str:
    """This module with `NAMES` written from `data_names()`."""
    text = Path(__file__).read_text(encoding="utf-8")
    head, _, rest = text.partition(START)
    rest = "\n" + rest
    tail = rest[rest.index("\n)\n") + 1:]
    body = "".join(f"    gettext_noop({json.dumps(name, ensure_ascii=False)}),\n"
                   for name in data_names())
    return f"{head}{START}{body}{tail}"


NAMES = (
    gettext_noop("Political Refugees"),
    gettext_noop("Black Marketeers"),
    gettext_noop("Anarcho-Syndicalists"),
    gettext_noop("Peasant Vote"),
    gettext_noop("Ghost Voters"),
    gettext_noop("Middle Class"),
    gettext_noop("Marxist-Leninists"),
    gettext_noop("Ballot Stuffers"),
    gettext_noop("Retired Generals"),
    gettext_noop("Civil Servants"),
    gettext_noop("Dock Workers"),
    gettext_noop("Military Cadets"),
    gettext_noop("Church"),
    gettext_noop("Christian Democrats"),
    gettext_noop("Conservatives"),
    gettext_noop("Bankers"),
    gettext_noop("Labor Unions"),
    gettext_noop("Socialists"),
    gettext_noop("Peasants"),
    gettext_noop("Students"),
    gettext_noop("University"),
    gettext_noop("Radicals"),
    gettext_noop("Monarchists"),
    gettext_noop("Electoral Fraud"),
    gettext_noop("Landowners"),
    gettext_noop("Foreign Business Interests"),
    gettext_noop("Press"),
    gettext_noop("Secret Political Donation"),
    gettext_noop("Bribe the Assassin"),
    gettext_noop("Secret Police Overtime"),
    gettext_noop("Bribe the Police"),
    gettext_noop("Bribe the 1st Army Brigade"),
    gettext_noop("Bribe the 2nd Army Brigade"),
    gettext_noop("Bribe the 3rd Army Brigade"),
    gettext_noop("Bribe the Agitators"),
    gettext_noop("Bribe the Palace Guard"),
    gettext_noop("Amateur Assassin"),
    gettext_noop("Professional Assassin"),
    gettext_noop("Foreign Assassin"),
    gettext_noop("Psychotic Assassin"),
    gettext_noop("Monarchist Assassin"),
    gettext_noop("Character Assassin"),
    gettext_noop("Burglar"),
    gettext_noop("Bank Robber"),
    gettext_noop("Spy in Switzerland"),
    gettext_noop("Informant"),
    gettext_noop("Wiretap"),
    gettext_noop("Mole in the Treasury"),
    gettext_noop("Crooked Accountant"),
    gettext_noop("Private Eye"),
    gettext_noop("Double Agent"),
    gettext_noop("Power Failure"),
    gettext_noop("Summer Recess"),
    gettext_noop("Recount"),
    gettext_noop("Demand for Reform"),
    gettext_noop("The President's Competence Questioned"),
    gettext_noop("Church Desecrated"),
    gettext_noop("Alternative Budget"),
    gettext_noop("Student Petition Against Repression"),
    gettext_noop("Coalition Breaks Up"),
    gettext_noop("Bank Holiday"),
    gettext_noop("UN Condemns Torture of Political Prisoners"),
    gettext_noop("Annual Street Festival"),
    gettext_noop("General Strike"),
    gettext_noop("Dock Strike"),
    gettext_noop("Slum Riots"),
    gettext_noop("Demonstrators"),
    gettext_noop("Student Protest"),
    gettext_noop("Peasant Strike"),
    gettext_noop("Peasant Uprising"),
    gettext_noop("Christian Militia Formed"),
    gettext_noop("Helicopter"),
    gettext_noop("Provincial Pretender"),
    gettext_noop("Radical Terrorists"),
    gettext_noop("Mercenaries"),
    gettext_noop("Border Incident"),
    gettext_noop("Press Scandal"),
    gettext_noop("Amnesty"),
    gettext_noop("Foreign Aid Audit"),
    gettext_noop("El Presidente"),
    gettext_noop("Minister of Internal Security"),
    gettext_noop("Generalissimo of the 1st Army Brigade"),
    gettext_noop("Generalissimo of the 2nd Army Brigade"),
    gettext_noop("Generalissimo of the 3rd Army Brigade"),
    gettext_noop("Admiral of the Navy"),
    gettext_noop("Air Force Commander"),
    gettext_noop("Minister of War"),
    gettext_noop("Foreign Minister"),
    gettext_noop("Farm & Labor Secretary"),
    gettext_noop("Home"),
    gettext_noop("HQ"),
    gettext_noop("Bank"),
    gettext_noop("Club"),
    gettext_noop("Mistress"),
    gettext_noop("Presidential Palace"),
    gettext_noop("Chamber of Deputies"),
    gettext_noop("Radio Station"),
    gettext_noop("Railroad Station"),
    gettext_noop("Plaza de Armas"),
    gettext_noop("Old Town"),
    gettext_noop("Docks"),
    gettext_noop("Central Bank"),
    gettext_noop("Cathedral"),
    gettext_noop("Police Precinct North"),
    gettext_noop("Police Precinct East"),
    gettext_noop("Police Precinct South"),
    gettext_noop("University City"),
    gettext_noop("Police Precinct West"),
    gettext_noop("1st Brigade Barracks"),
    gettext_noop("2nd Brigade Barracks"),
    gettext_noop("3rd Brigade Barracks"),
    gettext_noop("Wealthy Neighborhood"),
    gettext_noop("North American Embassy"),
    gettext_noop("Soviet Embassy"),
    gettext_noop("Slums"),
    gettext_noop("Industrial District"),
    gettext_noop("Market"),
    gettext_noop("North Suburb"),
    gettext_noop("South Suburb"),
    gettext_noop("Fishermen's Wharf"),
    gettext_noop("Cemetery"),
    gettext_noop("Airfield"),
    gettext_noop("Palace Guard"),
    gettext_noop("Palace Guards"),
    gettext_noop("Police"),
    gettext_noop("Soldier"),
    gettext_noop("Soldiers"),
    gettext_noop("Tank"),
    gettext_noop("Tanks"),
    gettext_noop("Marine"),
    gettext_noop("Marines"),
    gettext_noop("Paratrooper"),
    gettext_noop("Paratroopers"),
    gettext_noop("Bodyguard"),
    gettext_noop("Bodyguards"),
    gettext_noop("Labor Rioter"),
    gettext_noop("Labor Rioters"),
    gettext_noop("Striker"),
    gettext_noop("Strikers"),
    gettext_noop("Rioter"),
    gettext_noop("Rioters"),
    gettext_noop("Mob"),
    gettext_noop("Mobs"),
    gettext_noop("Peasant"),
    gettext_noop("Militia"),
    gettext_noop("Militias"),
    gettext_noop("Helicopters"),
    gettext_noop("Rural Guerrilla"),
    gettext_noop("Rural Guerrillas"),
    gettext_noop("Terrorist"),
    gettext_noop("Terrorists"),
    gettext_noop("Mercenary"),
    gettext_noop("Foreign Paratrooper"),
    gettext_noop("Foreign Paratroopers"),
    gettext_noop("Commando"),
    gettext_noop("Commandos"),
    gettext_noop("airstrikes"),
    gettext_noop("helicopter"),
    gettext_noop("paratroopers"),
    gettext_noop("commandos"),
    gettext_noop("alive"),
    gettext_noop("dead"),
    gettext_noop("exiled"),
    gettext_noop("yes"),
    gettext_noop("no"),
    gettext_noop("abstain"),
)


if __name__ == "__main__":
    Path(__file__).write_text(module_text(), encoding="utf-8")
