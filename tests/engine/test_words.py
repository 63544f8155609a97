"""What the engine says is a message id and its parameters (junta/engine/words.py): every
event of the pinned campaigns (tests/engine/pinned_campaigns.py) carries its words, whose
English is the event's text, whose placeholders are exactly its parameters, which survive the
trip through JSON that stored results take, and whose message ids and data names are marked for
the translation catalogue."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from junta.engine import Event, GameState, parse_orders, resolve
from junta.engine.data_words import NAMES, data_names
from junta.engine.words import Card, Items, Param, Term, Words, Zone, gettext_noop, words

from .pinned_campaigns import load

ENGINE = Path(__file__).parents[2] / "junta" / "engine"


@cache
def marked() -> frozenset[str]:
    """Every string the engine's code marks with `gettext_noop`, as the catalogue's
    extraction finds them (adjacent literals joined)."""
    found = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "gettext_noop" and node.args and \
                    isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return frozenset(found)


def pinned_events() -> Iterator[Event]:
    for campaign in load()["campaigns"]:
        state = GameState.from_dict(campaign["start"])
        for phase in campaign["phases"]:
            orders = {int(seat): parse_orders(items) for seat, items in phase["orders"].items()}
            result = resolve(state, orders)
            state = result.state
            yield from result.events


def parts(param: Param) -> Iterator[Param]:
    """A parameter and every parameter within it."""
    yield param
    if isinstance(param, Words):
        for value in param.params.values():
            yield from parts(value)
    elif isinstance(param, Items):
        for item in (*param.items, param.empty):
            yield from parts(item)


def test_every_event_is_words_that_read_as_its_text_and_name_each_parameter():
    events = list(pinned_events())
    assert len(events) > 1000  # every kind of phase, coups among them
    unmarked: set[str] = set()
    for event in events:
        said = event.words
        assert said is not None, event.text
        assert said.english() == event.text
        stored = json.loads(json.dumps(event.to_dict()))
        assert Event.from_dict(stored) == event
        for part in parts(said):
            if isinstance(part, Words):
                assert part.placeholders() == set(part.params), part.msgid
                unmarked |= {part.msgid} - marked()
            elif isinstance(part, Term):
                unmarked |= {part.msgid} - marked() - set(NAMES)
            elif isinstance(part, Items) and part.sep.strip(" ,;"):
                unmarked |= {part.sep} - marked()
    assert not unmarked


def test_the_data_names_marked_are_those_of_the_data():
    """Written again with `python -m junta.engine.data_words` when the data change."""
    assert list(NAMES) == data_names()
    assert set(NAMES) >= {"Bankers", "El Presidente", "Presidential Palace", "Soldiers", "dead"}


def test_stored_words_read_again_and_old_events_have_none():
    """Words go into stored results as JSON and come back the same; an event of a campaign
    played before the engine wrote words has none (pages read its text)."""
    said = words(gettext_noop("{seat} plays {card} in {zone}: {rolls}."), seat="Carlos",
                 card=Card(0), zone=Zone(1), rolls=Items((4, 6), Term("nothing")))
    assert Words.from_dict(json.loads(json.dumps(said.to_dict()))) == said
    assert said.english() == "Carlos plays Political Refugees in Presidential Palace: 4, 6."
    old = {"kind": "turn", "text": "Turn 3 begins.", "audience": "public", "data": {"turn": 3}}
    assert Event.from_dict(old).words is None
    assert "words" not in Event.from_dict(old).to_dict()
