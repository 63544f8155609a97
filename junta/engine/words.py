"""What the engine says, as a message id and its parameters, so that a page can say it in its
reader's language.

A `Words` is the English text with named placeholders (`msgid`, the gettext convention: one
place for the English wording, and the key a catalogue translates) and the parameters to fill
them with. Each parameter keeps its type, so a page can render it in its own language:

- `str`: a player's name, as the engine wrote it (names are never translated);
- `int`: a number or an amount (the msgid says "MP");
- `Card`, `Place`, `Zone`, `Position`: a card, one of the five locations, a city zone, a
  position, named by the game's data (translated as data);
- `Term`: a word of the game the msgid does not hold ("dead", "nothing"), itself a msgid;
- `Words`: a sentence within the sentence;
- `Items`: a list joined with ", " (or its `empty` word when it is empty).

`english()` is the English text, the same the engine wrote as finished sentences before;
`say(translate, number)` is the text in another language, given how to translate a msgid and
how to write a number (the web layer gives gettext's). The engine marks each msgid with
`gettext_noop` so that the catalogue's extraction finds them without the engine importing
Django; the data names are marked in data_words.py. A separator of `Items` that is a word
(" and ") is translated too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Union

from . import catalog


def gettext_noop(msgid: str) -> str:
    """Marks `msgid` for the translation catalogue (found by name when it is extracted)."""
    return msgid


def _same(msgid: str) -> str:
    return msgid


@dataclass(frozen=True)
class Card:
    id: int


@dataclass(frozen=True)
class Place:
    key: str  # one of catalog.LOCATIONS


@dataclass(frozen=True)
class Zone:
    id: int


@dataclass(frozen=True)
class Position:
    key: str  # one of catalog.POSITIONS


@dataclass(frozen=True)
class Term:
    msgid: str


@dataclass(frozen=True)
class Items:
    items: tuple[Param, ...]
    empty: Param = ""
    sep: str = ", "


Param = Union[str, int, Card, Place, Zone, Position, Term, Items, "Words"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Words:
    msgid: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __hash__(self) -> int:  # (a sentence is a value: equal words, equal hashes)
        return hash((self.msgid, tuple(sorted(self.params.items()))))

    def english(self) -> str:
        return self.say()

    def say(self, translate: Callable[[str], str] = _same,
            number: Callable[[int], str] = str) -> str:
        """The sentence in a language: `translate` gives a msgid's text in it (the data names'
        too: their English name is their msgid), `number` writes a number in it. By default
        the engine's English."""
        return translate(self.msgid).format(
            **{k: spoken(v, translate, number) for k, v in self.params.items()})

    def placeholders(self) -> set[str]:
        return set(PLACEHOLDER.findall(self.msgid))

    def to_dict(self) -> dict[str, Any]:  # Any: JSON's values
        return {"msgid": self.msgid, "params": {k: to_json(v) for k, v in self.params.items()}}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Words:
        return cls(d["msgid"], {k: from_json(v) for k, v in d.get("params", {}).items()})


def words(msgid: str, **params: Param) -> Words:
    return Words(msgid, params)


def english(param: Param) -> str:
    """A parameter in the engine's English."""
    return spoken(param, _same, str)


def spoken(param: Param, translate: Callable[[str], str], number: Callable[[int], str]) -> str:
    """A parameter in a language (`Words.say`); a name as the engine wrote it."""
    match param:
        case Words():
            return param.say(translate, number)
        case Card(id=card_id):
            return translate(catalog.card(card_id).name)
        case Place(key=key):
            return translate(catalog.LOCATION_NAMES[key])
        case Zone(id=zone_id):
            return translate(catalog.zones()[zone_id].name)
        case Position(key=key):
            return translate(catalog.TITLES[key])
        case Term(msgid=msgid):
            return translate(msgid)
        case Items(items=items, empty=empty, sep=sep):
            if not items:
                return spoken(empty, translate, number)
            return translate(sep).join(spoken(i, translate, number) for i in items)
        case bool():
            return str(param)
        case int():
            return number(param)
        case _:
            return param


def to_json(param: Param) -> Any:  # Any: JSON's values
    match param:
        case Words():
            return param.to_dict()
        case Card(id=card_id):
            return {"card": card_id}
        case Place(key=key):
            return {"place": key}
        case Zone(id=zone_id):
            return {"zone": zone_id}
        case Position(key=key):
            return {"position": key}
        case Term(msgid=msgid):
            return {"term": msgid}
        case Items(items=items, empty=empty, sep=sep):
            return {"items": [to_json(i) for i in items], "empty": to_json(empty), "sep": sep}
        case _:
            return param


def from_json(value: Any) -> Param:  # Any: JSON's values
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if "msgid" in value:
        return Words.from_dict(value)
    if "items" in value:
        return Items(tuple(from_json(i) for i in value["items"]), from_json(value["empty"]),
                     value["sep"])
    (kind, key), = value.items()
    made: Param = {"card": Card, "place": Place, "zone": Zone, "position": Position,
                   "term": Term}[kind](key)
    return made
