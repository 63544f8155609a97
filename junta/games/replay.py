"""Replay: re-run every adjudicated phase of a campaign from its stored state and orders and
compare the digests with the stored results. Equal digests prove that the stored history is
what the engine produces (and that nothing was changed behind its back).

A result names the engine that adjudicated it (`PhaseResult.engine_version`). One adjudicated
by an older engine (`engine.is_older_version`) may resolve otherwise today, when a rule changed
since (`engine.ENGINE_CHANGELOG`): its stored result stands, since the campaign went on from it,
and its line says so. What still holds for it, as for every result: its stored state matches its
own digest (here), and the next phase starts from that state (the chain, `junta.gm.checks`). A
phase of the current engine that resolves otherwise fails, and so does an older one that comes
after a phase a newer engine adjudicated, or one whose engine this site does not know: no rule
change explains their difference."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from junta import engine
from junta.games import repository
from junta.games.models import Game, PhaseResult


@dataclass(frozen=True)
class ReplayLine:
    phase_number: int
    kind: str
    stored: str  # the stored result's digest
    replayed: str  # the digest today's engine gives
    version: str = engine.ENGINE_VERSION  # the engine that adjudicated the stored result
    same: bool = True  # today's engine gives the stored result
    failure: str = ""  # why the stored result fails the check ("" when it stands)
    intact: bool = True  # the stored result's state matches its own digest

    @property
    def ok(self) -> bool:
        return not self.failure

    @property
    def older(self) -> bool:
        """Adjudicated by another engine than today's (older, or unknown)."""
        return self.version != engine.ENGINE_VERSION

    @property
    def stands_changed(self) -> bool:
        """Resolved otherwise today, the stored result standing: the rules changed since."""
        return self.ok and not self.same

    @property
    def text(self) -> str:
        """The line in words, after "Phase N (kind): "."""
        now = engine.ENGINE_VERSION
        head = (f"resolved again by engine {now}" if not self.older else
                f"adjudicated by engine {self.version or '(none)'}; resolved again by {now}")
        if not self.intact:
            return f"{head}: {self.failure}"
        if self.failure:
            return f"{head}: differs: {self.failure}"
        if self.same:
            return f"{head}: same result"
        return (f"{head}: differs: the rules changed since (see the changelog); the stored "
                "result stands")


def replay_game(game: Game) -> list[ReplayLine]:
    """Every adjudicated phase re-run from its stored starting state (checked against its own
    digest) and the orders it used. A phase whose starting state is not the previous result's
    state (outside a GM ruling or rollback, which rewrite it on purpose) shows as a mismatch."""
    lines = []
    newest: tuple[str, int] | None = None  # the newest engine seen so far, and its first phase
    results = PhaseResult.objects.filter(phase__game=game).select_related("phase").order_by(
        "phase__number")
    for result in results:
        phase = result.phase
        state = repository.state_before(phase)
        orders = {int(seat): engine.parse_orders(items)
                  for seat, items in result.orders_used.items()}
        resolution = engine.resolve(state, orders, repository.submission_order(phase))
        replayed = engine.digest(resolution.state)
        version = result.engine_version
        try:
            stored_state = repository.state_after(result)
        except RuntimeError:
            lines.append(ReplayLine(phase.number, phase.kind, result.digest, replayed, version,
                                    same=replayed == result.digest, intact=False,
                                    failure="its stored result does not match its digest"))
            continue
        # a state an older engine wrote may lack a field added since: read with its default
        same = replayed == result.digest or (
            version != engine.ENGINE_VERSION and replayed == engine.digest(stored_state))
        unexplained = None if same else _unexplained(version, newest)
        failure = "" if unexplained is None else (
            f"{unexplained}replayed digest {replayed[:12]}, stored {result.digest[:12]}")
        lines.append(ReplayLine(phase.number, phase.kind, result.digest, replayed, version,
                                same, failure))
        if engine.is_known_version(version) and (
                newest is None or engine.is_older_version(newest[0], than=version)):
            newest = (version, phase.number)
    return lines


def older_notes(lines: list[ReplayLine]) -> list[str]:
    """The phases adjudicated by another engine than today's that stand, in words: those that
    resolve to the same result counted by engine, those the rules changed since one by one."""
    now = engine.ENGINE_VERSION
    same = Counter(line.version for line in lines if line.older and line.ok and line.same)
    notes = [f"{count} phase{'s' if count != 1 else ''} adjudicated by engine {version}; "
             f"resolved again by {now}: same result" for version, count in same.items()]
    return notes + [f"phase {line.phase_number} ({line.kind}): {line.text}"
                    for line in lines if line.stands_changed]


def changelog_for(lines: list[ReplayLine]) -> list[tuple[str, str]]:
    """What each engine version changed since the oldest that adjudicated a phase standing
    otherwise today: (version, changes), oldest first; none when every phase resolves alike."""
    versions = [line.version for line in lines if line.stands_changed]
    if not versions:
        return []
    return engine.changes_since(min(versions, key=list(engine.ENGINE_CHANGELOG).index))


def _unexplained(version: str, newest: tuple[str, int] | None) -> str | None:
    """Why no change of the rules explains that a result differs (None when one does; "" when
    the current engine adjudicated it: the digests say it all)."""
    if not engine.is_known_version(version):
        return f"engine {version or '(none)'} is not one this site knows; "
    if not engine.is_older_version(version):
        return ""
    if newest is not None and engine.is_older_version(version, than=newest[0]):
        return (f"phase {newest[1]} before it was adjudicated by engine {newest[0]} already, "
                "so no change of the rules since explains it; ")
    return None
