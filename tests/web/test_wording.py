"""The engine's words on the pages (junta/games/wording.py): in the reader's language, the
message and the data names through the catalogue, the players' names as written; an event
stored before the engine wrote words reads as its stored text."""

from __future__ import annotations

import pytest
from django.utils import translation

from junta.engine import Event, GameState, new_game, resolve
from junta.games import wording

SPANISH = {
    "{seat} plays {card} in {zone}: {rolls}.": "{seat} juega {card} en {zone}: {rolls}.",
    "Political Refugees": "Refugiados Políticos",
    "Presidential Palace": "Palacio Presidencial",
    "nothing": "nada",
    " and ": " y ",
}


@pytest.fixture
def spanish(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wording, "gettext", lambda msgid: SPANISH.get(msgid, msgid))


def stored(msgid: str, **params: object) -> dict[str, object]:
    return {"kind": "bribe", "text": "the English text", "audience": "public", "data": {},
            "words": {"msgid": msgid, "params": params}}


def test_a_stored_event_reads_in_the_readers_language(spanish: None) -> None:
    event = stored("{seat} plays {card} in {zone}: {rolls}.", seat="Carlos", card={"card": 0},
                   zone={"zone": 1}, rolls={"items": [], "empty": {"term": "nothing"},
                                            "sep": ", "})
    assert wording.stored_event_text(event) == \
        "Carlos juega Refugiados Políticos en Palacio Presidencial: nada."
    assert wording.event_text(Event.from_dict(event)) == wording.stored_event_text(event)


def test_an_event_stored_before_words_or_badly_translated_reads_as_its_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    old = {"kind": "turn", "text": "Turn 3 begins.", "audience": "public", "data": {"turn": 3}}
    assert wording.stored_event_text(old) == "Turn 3 begins."
    monkeypatch.setattr(wording, "gettext", lambda msgid: "Turno {turno}." if "{turn}" in msgid
                        else msgid)
    assert wording.stored_event_text(stored("Turn {turn} begins.", turn=3)) == \
        "the English text"


def test_in_english_every_event_reads_as_the_engine_wrote_it() -> None:
    state: GameState = new_game("wording", ["Carlos", "Maria", "Bill", "Dona", "Ernesto",
                                            "Gloria"])
    events = resolve(state, {}).events
    assert events and all(wording.event_text(e) == e.text for e in events)


def test_an_event_reads_in_spanish_through_the_engines_catalogue() -> None:
    """The real catalogue (junta/engine/locale/es): the message, the card and the zone
    translated, the units' kind too, the amount and the rolls as numbers, the name as written."""
    event = stored("{seat} plays {card} in {zone}: pays {amount} MP, rolls {rolls}; {units} "
                   "change sides.", seat="Carlos", card={"card": 37}, zone={"zone": 1}, amount=2,
                   rolls={"items": [5, 6], "empty": {"term": "nothing"}, "sep": ", "},
                   units={"items": [{"msgid": "{n} {kind}",
                                     "params": {"n": 2, "kind": {"term": "Soldiers"}}}],
                          "empty": {"term": "no unit"}, "sep": ", "})
    with translation.override("es"):
        assert wording.stored_event_text(event) == (
            "Carlos juega Sobornar a la Policía en Palacio Presidencial: paga 2 MP, saca 5, 6; "
            "2 Soldados se cambian de bando.")
