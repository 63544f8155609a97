"""The city map of a coup as History and the phases' reports show it: the city after each coup
phase (or after the Locations phase that began the coup), with the moves of that phase as
arrows and, for a coup phase, the zones fought over in it; all of it public (the public coup
view and the public events only), so the same drawing for every viewer.

A published result never changes: each drawing is kept in the cache (the same for every
viewer), keyed by what it is drawn from (the state's digest, the events, the title) and the
drawing code's version. A day: History's pages of old coups stay fast."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import caches
from django.utils.safestring import SafeString

from junta.engine import PUBLIC, CoupView, Event, PhaseKind, PublicView, view_for
from junta.games import citymap, repository
from junta.games.cache_keys import content_key
from junta.games.models import PhaseResult

COUP_KINDS = (PhaseKind.COUP, PhaseKind.COUP_FINAL)
COUP_MAP_CACHE_SECONDS = 24 * 3600
_NO_MAP = "none"


def moved_in(view: PublicView, coup: CoupView) -> int | None:
    """The coup phase whose moves the map shows as arrows: while Coup Phase n is open the
    state holds the moves of phase n-1 (0 is the Rebel-Only step); after Coup Phase 6 (the
    Aftermath) those of phase 6."""
    phase = coup.get("phase")
    if not isinstance(phase, int):
        return None
    return phase - 1 if view.get("phase") in COUP_KINDS else phase


def public_events(result: PhaseResult) -> list[Event]:
    """A phase's public lines only, whoever looks: what a map may draw."""
    events = [Event.from_dict(d) for d in result.events]
    return [e for e in events if e.audience == PUBLIC]


@dataclass
class CoupMap:
    svg: SafeString
    caption: str
    fighting: list[citymap.Battle]  # one per zone fought over in the phase
    fighting_title: str  # "Fighting in Coup Phase 3", or "" when the phase had no combat step


def fighting_of(result: PhaseResult, names: dict[int, str], number: int | None
                ) -> tuple[list[citymap.Battle], str]:
    """The zones fought over in a coup phase, from its public events only, and the heading of
    their list ("Fighting in Coup Phase 3"); nothing for a phase that is not a coup phase."""
    if result.phase.kind not in COUP_KINDS or not number:
        return [], ""
    return citymap.battles(public_events(result), names), f"Fighting in Coup Phase {number}"


def coup_maps(results: list[tuple[PhaseResult, str]]) -> dict[int, CoupMap]:
    """The city after each coup phase (or after the Locations phase that began the coup) of
    `results` ((result, the phase's `phase_title`) pairs), by result id; phases with no map are
    left out. Each drawn from the public coup view of the state after it, with the moves of
    that phase and, for a coup phase, its fighting (public events only). Drawn once: then read
    from the cache, all of a page's in one read."""
    cache = caches["drawings"]

    keys = {}
    for result, title in results:
        if result.phase.kind in COUP_KINDS or (
                result.phase.kind == PhaseKind.LOCATIONS and _coup_after(result)):
            # what the drawing is made of: the state after the phase, its events, the title
            keys[content_key("coup-map", citymap.DRAWING_VERSION, result.digest, result.events,
                             title)] = (result, title)
    kept = cache.get_many(list(keys)) if keys else {}
    missing = [result for key, (result, _title) in keys.items() if key not in kept]
    if missing and "state_after" in missing[0].get_deferred_fields():
        states = dict(PhaseResult.objects.filter(pk__in=[r.pk for r in missing])
                      .values_list("pk", "state_after"))  # one query for all to draw
        for result in missing:
            result.state_after = states[result.pk]
    drawn = {}
    for key, (result, title) in keys.items():
        if key not in kept:
            made = _draw_coup_map(result, title)
            drawn[key] = kept[key] = _NO_MAP if made is None else made
    if drawn:
        cache.set_many(drawn, COUP_MAP_CACHE_SECONDS)
    return {result.pk: kept[key] for key, (result, _title) in keys.items()
            if kept[key] != _NO_MAP}


def _coup_after(result: PhaseResult) -> bool:
    """Whether a coup is under way after the phase (`play.history_results` reads only that)."""
    if hasattr(result, "coup_after"):
        return result.coup_after is not None
    return bool(result.state_after.get("coup"))


def _draw_coup_map(result: PhaseResult, title: str) -> CoupMap | None:
    state = repository.state_after(result)
    view = view_for(state, None)
    coup = view.get("coup")
    if coup is None:
        return None
    names = {p["seat"]: p["name"] for p in view["players"]}
    shown = moved_in(view, coup)
    fighting, fighting_title = fighting_of(result, names, shown)
    title = f"The city after {title}"
    svg = citymap.render_svg(coup, names, moved_in=shown, battles=fighting, title=title,
                             title_id=f"map-{result.phase.number}-title",
                             id_prefix=f"p{result.phase.number}-")
    caption = ("Arrows show the Rebel-Only moves." if shown == 0 else
               f"Arrows show the moves of Coup Phase {shown}." if shown else "")
    if fighting:
        caption += " Red rings and bursts mark the fighting" + (
            "; dashed arrows, the retreats." if any(b.retreats for b in fighting) else ".")
    return CoupMap(svg, caption.strip(), fighting, fighting_title)
