"""The rows of a campaign that every page of it reads, read once per content revision and then
read back from the "drawings" cache while a page is drawn anew.

Drawing any page of a campaign starts with the same queries: the campaign and its GM, its
players with their people and characters, its latest phase (the state it opened with), that
phase's result once published and its orders. Every one of those rows raises the campaign's
content revision when it is written (`revisions.WATCHED`: by its model's signals, or by the
campaign's write lock for what is written in bulk; a person's name raises the revision of every
campaign he is in), so the rows read at revision N are the rows of every drawing at N: they are
kept under a key that names the revision (`cache_keys.content_key`), and nothing is ever
invalidated by hand.

Only rows are kept, never what a viewer may see of them: every drawing still decides
visibility as before (the engine's `view_for`, `Event.visible_to`, the pages' own rules), from
these rows. The other seats' orders are among them, as they are among what a page reads today,
and are never put in a page's context (`play.Seat.phase_orders`).

They are used only while a campaign page is drawn for a GET (`page_cache.kept_for_viewer`
reads the revision first, `revisions.drawing_at` says which): the rows are read after the
revision, so what is kept under N is never older than N. Anything else (a form sent, a
service) reads the database as before. Within one drawing the rows are read once (a drawing
that writes, as the Events page's "new" marks, writes none of them)."""

from __future__ import annotations

import pickle
from collections.abc import Callable

from django.core.cache import caches

from junta.games import revisions
from junta.games.cache_keys import content_key, site_version
from junta.games.models import Game, Order, Phase, PhaseResult, Player

SECONDS = 3600  # a revision is rarely drawn from again after an hour


class Rows:
    """A campaign's rows at one revision (see the module's text), each part read from the
    cache, or from the database (then kept) the first time a drawing asks for it: a page that
    reads only some of them costs no query for the others."""

    def __init__(self, game_id: int, number: int) -> None:
        self.game_id = game_id
        self._keys = {part: content_key("campaign-rows", site_version(), game_id, number, part)
                      for part in _PARTS}
        self._cache = caches["drawings"]
        # every part kept, in one read of the cache
        found = self._cache.get_many(list(self._keys.values()))
        self._held: dict[str, object] = {part: pickle.loads(found[key])
                                         for part, key in self._keys.items() if key in found}
        # the parts read from the database, as they were read (a drawing may add to its
        # rows: what it memoizes on them), to keep at its end (`keep`)
        self._new: dict[str, bytes] = {}

    def part(self, part: str, read: Callable[[], object]) -> object:
        """The part named `part` (one of `_PARTS`), read by `read` unless kept; each part has
        one reader (the properties below, `play.current_turn_results`)."""
        if part not in self._held:
            self._held[part] = read()
            self._new[part] = pickle.dumps(self._held[part], pickle.HIGHEST_PROTOCOL)
        return self._held[part]

    def keep(self) -> None:
        """Keep the parts this drawing read from the database (one write to the cache, when
        the drawing is over)."""
        if self._new:
            self._cache.set_many({self._keys[part]: kept for part, kept in self._new.items()},
                                 SECONDS)
            self._new = {}

    @property
    def game(self) -> Game | None:
        """The campaign with its GM (None: no such campaign)."""
        game = self.part("game", lambda: Game.objects.select_related("gm").filter(
            pk=self.game_id).first())
        return game if isinstance(game, Game) else None

    @property
    def players(self) -> list[Player]:
        """Every player row of the campaign (every membership), with person and characters."""
        # the person's password and last login are not the pages' (a login raises nothing)
        players = self.part("players", lambda: list(
            Player.objects.filter(game_id=self.game_id).select_related("user")
            .defer("user__password", "user__last_login").prefetch_related("characters")
            .order_by("seat", "joined_at", "id")))
        assert isinstance(players, list)
        return players

    def seated(self) -> list[Player]:
        """The seated players in seat order (`selectors.roster`)."""
        return sorted((p for p in self.players if p.membership == Player.Membership.ACTIVE),
                      key=lambda p: (p.seat is None, p.seat or 0))

    @property
    def phase(self) -> Phase | None:
        """The latest phase (None before the campaign starts), the state it opened with
        included."""
        phase = self.part("phase", lambda: Phase.objects.filter(game_id=self.game_id)
                           .order_by("-number").first())
        return phase if isinstance(phase, Phase) else None

    @property
    def result(self) -> PhaseResult | None:
        """The latest phase's result, once published."""
        def read() -> PhaseResult | None:
            phase = self.phase
            if phase is None or phase.status != Phase.Status.PUBLISHED:
                return None
            return PhaseResult.objects.filter(phase=phase).first()
        result = self.part("result", read)
        if not isinstance(result, PhaseResult):
            return None
        result.phase = self.phase  # type: ignore[assignment]  # its own, read just above
        return result

    @property
    def orders(self) -> list[Order]:
        """Every seat's orders of the latest phase, each with its player."""
        def read() -> list[Order]:
            phase = self.phase
            return [] if phase is None else list(
                Order.objects.filter(phase=phase).select_related("player").order_by("id"))
        orders = self.part("orders", read)
        assert isinstance(orders, list)
        for order in orders:
            order.phase = self.phase  # their own, read just above
        return orders


# every part, each read by one reader: the properties above, and this turn's published results,
# read by `play.current_turn_results` (`Rows.part`)
_PARTS = ("game", "players", "phase", "result", "orders", "turn_results")


def rows(game_id: int) -> Rows | None:
    """The campaign's rows when a page of it is being drawn at a known revision (None
    otherwise: read the database). One `Rows` a drawing: what it read once, it reads again
    from memory."""
    number = revisions.drawing_at(game_id)
    memo = revisions.drawn_from(game_id)
    if number is None or memo is None:
        return None
    if "rows" not in memo:
        memo["rows"] = kept = Rows(game_id, number)
        memo[revisions.AT_END] = kept.keep
    held = memo["rows"]
    assert isinstance(held, Rows)
    return held
