"""The engine's version, and what each version changed in how a phase resolves.

Every stored result names the engine that adjudicated it (the web app's
`PhaseResult.engine_version`). The GM's replay check and the backup import resolve every
adjudicated phase again with today's engine and compare the digests: a phase of the current
version must come out as stored, while one adjudicated by an older engine may come out otherwise
when a rule changed since; its stored result stands (the campaign went on from it), and the
check says so in words, pointing here.

So any change to the engine that makes a stored phase resolve otherwise (another state after it,
hence another digest) raises ENGINE_VERSION and says below, in the players' words, what changed.
tests/engine/test_engine_version.py pins the outcome of a few fixed campaigns to the version and
fails until both are done.
"""

from __future__ import annotations

ENGINE_VERSION = "1.1"

# Each version, oldest first, and what it changed in how orders resolve (a version's stored
# results may differ from what a later engine makes of the same state and orders).
CHANGELOG: dict[str, str] = {
    "1.0": "The engine the site opened with.",
    "1.1": (
        "What the engine accepts, it carries out whole or it tells every player involved why "
        "not: nothing is trimmed, capped or dropped in silence (docs/rulings.md "
        "§ruling-no-silent-orders). A deposit or a withdrawal the pocket or the account no "
        "longer covers at the banking step fails whole instead of being cut down to what was "
        "there; a payment, a gift or a trade a GameMaster's ruling made impossible, or whose "
        "payer died or fled earlier that day, fails where it acts and both sides are told; of "
        "two trades the same two players ordered the same day, each finds its own match; coup "
        "orders that can no longer be carried out, an assassination attempt not made, a card "
        "played on a condition that held but not carried out and a minister's draw cut short "
        "by the money deck are told to their player. Orders the Orders page never offered are "
        "refused when given, and dropped with a word if stored: a deposit above the pocket, "
        "coup orders about units that are not there, a card's units in another zone than its "
        "own, a Bribe with no unit to buy, safe passage or execution of an exile who did not "
        "ask to return, a trade asking for a card the partner cannot have or more than 999 MP. "
        "A country emptied by exile holds no election (which looped for ever): the Presidency "
        "stays vacant, an exile who asks comes home safely, and if nobody is back when the "
        "budget is due the game ends and the Swiss banks decide (docs/rulings.md "
        "§ruling-empty-country). A coup the Rebels won with no Rebel left in the country no "
        "longer keeps the President in office with the Junta's right to shoot anyone: he "
        "falls and the Chamber elects after the Aftermath (docs/rulings.md §ruling-junta)."
    ),
}


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def is_known_version(version: str) -> bool:
    """Whether `version` is one this engine's changelog names (its own or an older one)."""
    return version in CHANGELOG


def is_older_version(version: str, than: str = ENGINE_VERSION) -> bool:
    """Whether `version` is a known engine older than `than` (a known one: this one unless
    told)."""
    return (is_known_version(version) and is_known_version(than)
            and _key(version) < _key(than))


def changes_since(version: str) -> list[tuple[str, str]]:
    """What each version after `version` changed, oldest first (every version when `version`
    is unknown): (version, changes)."""
    if not is_known_version(version):
        return list(CHANGELOG.items())
    return [(v, text) for v, text in CHANGELOG.items() if _key(v) > _key(version)]
