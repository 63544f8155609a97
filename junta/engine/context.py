"""The working context of one resolution: the state being changed, the orders, the facts
settled so far (for conditions) and the events written. Shared helpers for every phase, the
end of the game among them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from . import catalog
from .conditions import holds
from .enums import PhaseKind, Status
from .events import GM, PUBLIC, Event, private
from .facts import Facts
from .order import Condition, Order
from .rng import Rng
from .state import BIL, GameState
from .state_shapes import Coup
from .words import Items, Place, Words, gettext_noop, words


class Outcome(NamedTuple):
    """What became of one order whose condition held: carried out, or failed with the seats
    told why (the owner and every player the order deals with: the payee, the partner). A
    named tuple: a phase makes hundreds, and a frozen dataclass is slow to build."""
    seat: int
    order: Order
    done: bool
    told: tuple[int, ...] = ()


@dataclass
class Context:
    state: GameState
    orders: dict[int, list[Order]]
    rng: Rng
    submission_order: list[int] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    facts: Facts = field(default_factory=Facts)
    wiretaps: dict[int, list[int]] = field(default_factory=dict)  # target -> listeners
    outcomes: list[Outcome] = field(default_factory=list)
    # the any-time orders by the step they wait for (None: none, the any-time step), gathered
    # once a resolution by `anytime.run`
    any_time_due: dict[str | None, list[tuple[int, Order]]] | None = None
    # the coup's orders by kind (and the unit cards' plays, the Rebel actions): (seat, its
    # place among his orders, the order), gathered once a resolution by phases/coup.py (`_due`)
    coup_orders: dict[str, list[tuple[int, int, Order]]] | None = None

    # --- events -------------------------------------------------------------------------------
    # Each event's text is `Words` (a message id and its parameters, words.py); its English
    # text is written beside them.
    def public(self, kind: str, text: Words, headline: bool = False, **data: Any) -> None:
        self.events.append(Event(kind, text.english(), PUBLIC, data, headline, text))

    def tell(self, seats: int | list[int] | tuple[int, ...], kind: str, text: Words,
             **data: Any) -> None:
        if isinstance(seats, int):
            seats = [seats]
        seats = [s for s in seats if s is not None and s != BIL]
        if seats:
            self.events.append(Event(kind, text.english(), private(*seats), data, words=text))

    def gm(self, kind: str, text: Words, **data: Any) -> None:
        self.events.append(Event(kind, text.english(), GM, data, words=text))

    def transfer_note(self, seats: list[int], kind: str, text: Words, **data: Any) -> None:
        """A private transfer: told to both sides and to anyone wiretapping either of them."""
        listeners = [w for s in seats for w in self.wiretaps.get(s, [])]
        self.tell([*seats, *listeners], kind, text, **data)

    # --- what became of an order -------------------------------------------------------------
    def carried_out(self, seat: int, order: Order) -> None:
        self.outcomes.append(Outcome(seat, order, True))

    def failed(self, seat: int, order: Order, kind: str, text: Words, /,
               parties: tuple[int, ...] | list[int] = (), **data: Any) -> None:
        """An order that cannot be carried out as given: nothing of it happens (it is never
        trimmed), and its owner and every party to it are told why, in one line.
        (docs/rulings.md §ruling-no-silent-orders)."""
        told = tuple(dict.fromkeys(s for s in (seat, *parties) if s is not None and s != BIL))
        self.tell(list(told), kind, text, **data)
        self.outcomes.append(Outcome(seat, order, False, told))

    def failed_with_it(self, seat: int, order: Order) -> None:
        """Another order that failed with the last one, in the same words to the same players
        (the partner's side of a failed trade)."""
        self.outcomes.append(Outcome(seat, order, False, self.outcomes[-1].told))

    @property
    def coup(self) -> Coup:
        """The map of the coup under way, for the steps that only run during one."""
        coup = self.state.coup
        assert coup is not None, "no coup under way"
        return coup

    # --- orders -------------------------------------------------------------------------------
    def orders_of(self, seat: int, kind: str) -> list[Order]:
        return [o for o in self.orders.get(seat, []) if o.kind == kind]

    def holds(self, condition: Condition | None) -> bool:
        if condition is None:
            return True
        return holds(self, condition)

    def name(self, seat: int) -> str:
        return self.state.name(seat)

    # --- money and cards ----------------------------------------------------------------------
    def draw_political(self, seat: int, count: int) -> list[int]:
        s = self.state
        drawn = []
        for _ in range(count):
            if not s.political_deck and s.political_discard:
                s.political_deck = s.political_discard
                s.political_discard = []
                self.rng.shuffle(s.political_deck)
                self.public("deck_reshuffled", words(gettext_noop(
                    "The discard pile is shuffled into a new political deck.")))
            if not s.political_deck:
                break
            drawn.append(s.political_deck.pop())
        s.players[seat].hand.extend(drawn)
        return drawn

    def discard(self, seat: int, card_id: int) -> None:
        p = self.state.players[seat]
        if card_id in p.hand:
            p.hand.remove(card_id)
        elif card_id in p.influence:
            p.influence.remove(card_id)
        else:
            return
        self.state.political_discard.append(card_id)

    def pay_cost(self, seat: int, cost: int) -> bool:
        """Pay a card's cost out of play. Bankers and Monarchists in play each give 1 MP a turn
        usable only for Assassin and Bribe costs (ruling: a discount, no money is created).
        (docs/rulings.md §ruling-discounts)."""
        p = self.state.players[seat]
        used = self.state.turn_flags.setdefault("influence_discount_used", {})
        discount = 0
        for cid in p.influence:
            name = catalog.card(cid).name
            key = f"{seat}:{cid}"
            if name in ("Bankers", "Monarchists") and not used.get(key) and discount < cost:
                discount += 1
                used[key] = True
        due = cost - discount
        if due > p.pocket:
            for cid in p.influence:  # give the discount back: nothing was paid
                used.pop(f"{seat}:{cid}", None)
            return False
        p.pocket -= due
        self.state.spent += due
        return True

    def kill_together(self, deaths: list[tuple[int, int | None, Words, str | None]]
                      ) -> dict[int, list[tuple[int, int]]]:
        """Deaths of one simultaneous step, each (victim, killer, how, location); the first
        entry for a victim counts. "Any money in hand is given to the Player who assassinated
        the target", settled for all at once: each victim's pocket as it stands when the
        step's deaths resolve goes to his killer; when that killer dies in the same step, it
        goes on (with his own pocket) to whoever killed him, and so on. Money that reaches no
        living killer (a death by one's own hand, a circle of killers) leaves the game. Returns
        what each living killer received: {killer: [(victim, amount), ...]}.
        (docs/rulings.md §ruling-pockets-together)."""
        s = self.state
        killer_of: dict[int, int | None] = {}
        for victim, killer, _, _ in deaths:
            if s.players[victim].status == Status.ALIVE and victim not in killer_of:
                killer_of[victim] = killer
        pockets = {victim: s.players[victim].pocket for victim in killer_of}
        taken: dict[int, list[tuple[int, int]]] = {}
        for victim, amount in pockets.items():
            s.players[victim].pocket = 0
            heir, seen = killer_of[victim], {victim}
            while heir is not None and heir in killer_of and heir not in seen:
                seen.add(heir)
                heir = killer_of[heir]
            if heir is None or heir in seen or not s.players[heir].active:
                s.spent += amount  # nobody living inherits it: the money leaves play
            elif amount:
                s.players[heir].pocket += amount
                taken.setdefault(heir, []).append((victim, amount))
        done = set()
        for victim, killer, how, location in deaths:
            if victim in killer_of and victim not in done:
                done.add(victim)
                self.kill(victim, killer, how, location)  # his pocket is settled above
        return taken

    def kill(self, victim: int, killer: int | None, how: Words, location: str | None) -> None:
        """Death: "All cards in hand and in play are immediately lost, and any money in hand
        is given to the Player who assassinated the target." The bank account survives."""
        s = self.state
        p = s.players[victim]
        if p.status != Status.ALIVE:
            return
        for cid in list(p.hand) + list(p.influence):
            s.political_discard.append(cid)
        p.hand, p.influence = [], []
        if killer is not None and killer != victim and s.players[killer].status != Status.DEAD:
            s.players[killer].pocket += p.pocket
        else:
            s.spent += p.pocket  # nobody inherits it: the money leaves play
        p.pocket = 0
        p.status = Status.DEAD
        p.fresh = True
        p.rebel = False
        self.facts.killed.append(victim)
        vacated = [pos for pos in catalog.POSITIONS if s.positions.get(pos) == victim]
        for pos in vacated:
            s.positions[pos] = None
        self.facts.vacated.extend(pos for pos in vacated if pos != catalog.PRESIDENT)
        if catalog.PRESIDENT in vacated:
            self.facts.president_died = True
        said = (words(gettext_noop("{seat} is dead: {how} at the {place}."), seat=p.name,
                      how=how, place=Place(location)) if location else
                words(gettext_noop("{seat} is dead: {how}."), seat=p.name, how=how))
        self.public("death", said, headline=True, victim=victim, location=location,
                    how=how.english())

    # --- the end of the game ---------------------------------------------------------------------
    def finish(self, empty: bool = False) -> None:
        """"As soon as the budget cannot be drawn, the game has ended. The player with the most
        Banked money is declared the winner." Ties share the win; everything is revealed.
        `empty`: nobody is left in the country to draw it (docs/rules.md §about, §money-deck;
        docs/rulings.md §ruling-empty-country)."""
        s = self.state
        s.finished = True
        s.phase = PhaseKind.FINISHED
        best = max(p.bank for p in s.players)
        s.winners = [p.seat for p in s.players if p.bank == best]
        names = Items(tuple(s.name(w) for w in s.winners), sep=gettext_noop(" and "))
        why = (words(gettext_noop(
            "Nobody is left in the country to govern it or to receive the foreign aid: every "
            "living family is abroad, and the Swiss banks decide.")) if empty else
               words(gettext_noop("The foreign aid has run out: only {n} bills remain."),
                     n=len(s.money_deck)))
        wins = (gettext_noop("{why} {seats} wins with {amount} MP in the Bank.")
                if len(s.winners) == 1 else
                gettext_noop("{why} {seats} share the win with {amount} MP in the Bank."))
        self.public("game_over", words(wins, why=why, seats=names, amount=best),
                    headline=True, winners=s.winners, bills_left=len(s.money_deck),
                    **({"country_empty": True} if empty else {}))
        banks = Items(tuple(words(gettext_noop("{seat}: {bank} MP banked, {pocket} MP in pocket"),
                                  seat=p.name, bank=p.bank, pocket=p.pocket)
                            for p in s.players), sep="; ")
        self.public("reveal", words(gettext_noop(
            "Everything is revealed. {banks}. The money deck held {n} extra bills."),
            banks=banks, n=s.extra_bills), extra_bills=s.extra_bills)
