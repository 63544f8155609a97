"""The Orders page, read and submitted: the orders in, one form for each order the engine lets
the player give now, and what a submitted form does.

Every change goes through one service (`order_intake.change_orders`), which validates the whole set
once. A form the engine refuses comes back filled in as submitted, each message next to the
field it is about (`order_forms.OrderForm.place`); the orders already in stay as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.http import QueryDict
from django.utils.safestring import SafeString

from accounts.public import User
from junta.engine import (
    Options,
    Order,
    OrderOption,
    Problem,
    describe_order,
    legal_options,
    option_for,
    parse_order,
    validate_orders,
    values_of,
)
from junta.games import order_intake
from junta.games.campaigns import CampaignError
from junta.games.forms import AndFinalForm, NoteForm, RepeatForm
from junta.games.order_forms import OrderForm, form_prefix
from junta.games.play import Seat, phase_title
from junta.games.wording import problem_text

ACTIONS = ("add", "change", "remove", "final", "not_final", "note", "repeat")


@dataclass
class Entry:
    """One order form of the page."""
    option: OrderOption
    form: OrderForm
    bound: bool = False  # re-shown as submitted, with the engine's messages
    change: int | None = None  # the saved order this form changes in place
    and_final: AndFinalForm | None = None  # an add form's box "and mark my orders final"
    # the order every player gives in this phase (the engine's `likely`): shown unfolded while
    # not given yet, when no other form is (one re-shown with its messages, one changing an
    # order, the list of the orders of last time)
    likely: bool = False
    drawn: SafeString | None = None  # the form drawn already (`fragments.draw_order_forms`)

    @property
    def html_id(self) -> str:
        return self.form.prefix or ""  # OrderForm always has one


@dataclass
class Saved:
    index: int
    text: str
    changeable: bool  # an option still offers this order, so it can be changed in place
    problems: list[str] = field(default_factory=list)  # why it cannot be carried out now


@dataclass
class Outcome:
    done: bool
    message: str = ""
    to_map: bool = False  # the form came from the Map page (`FROM_MAP`): go back there


FROM = "from"  # a form's hidden field naming the page it was sent from
FROM_MAP = "map"  # ... the Map page (junta/games/map_orders.py), which a saved change returns to


@dataclass
class OrdersPage:
    seat: Seat
    change: int | None = None  # ?change=N: the saved order being changed
    errors: list[str] = field(default_factory=list)  # about the page as a whole
    failed: OrderForm | None = None  # the form re-shown with its messages
    note_form: NoteForm | None = None  # the note as submitted, when it could not be saved
    failed_change: int | None = None  # the saved order the re-shown form was changing
    from_map: bool = False  # the submitted form came from the Map page
    final_form: AndFinalForm | None = None  # the box as sent with an order to add
    repeat: bool = False  # ?repeat=1: the list of the orders of last time, to confirm

    def __post_init__(self) -> None:
        state = self.seat.state
        assert self.seat.player is not None and self.seat.player.seat is not None  # seated
        self.state = state
        self.index = self.seat.player.seat
        self.options: Options = legal_options(state, self.index)
        payload = list(self.seat.order.payload) if self.seat.order else []
        self.orders: list[Order] = [parse_order(dict(o)) for o in payload]

    # --- what is shown ---------------------------------------------------------------------
    def saved(self) -> list[Saved]:
        """The orders in, each with what the engine finds wrong with it now: given valid, an
        order may have been made impossible since by a GameMaster's ruling (money moved, a card
        taken), and would not be carried out."""
        broken: dict[int, list[str]] = {}
        for problem in validate_orders(self.state, self.index, self.orders):
            for i in problem.orders:
                broken.setdefault(i, []).append(problem_text(problem.unnumbered()))
        return [Saved(i, describe_order(self.state, o),
                      option_for(self.options, o) is not None, broken.get(i, []))
                for i, o in enumerate(self.orders)]

    def entries(self) -> list[Entry]:
        out = []
        changing = self._changing()
        quiet = self.failed is None and changing is None and not self.repeat
        given = {o.key for o in (option_for(self.options, order) for order in self.orders) if o}
        for option in self.options.orders:
            if self.failed is not None and self.failed.option.key == option.key:
                out.append(Entry(option, self.failed, bound=True, change=self.failed_change))
            elif changing is not None and changing[0].key == option.key:
                out.append(Entry(option, changing[1], change=self.change))
            else:
                out.append(Entry(option, OrderForm(option, self.state, self.index),
                                 likely=quiet and option.likely and option.key not in given))
        final = bool(self.seat.order and self.seat.order.final)
        for entry in out:  # an order added to final orders leaves them final: no box then
            if entry.change is None and not final:
                entry.and_final = self.final_form if entry.bound and self.final_form \
                    else AndFinalForm(auto_id=False)
        return out

    def and_final(self) -> bool:
        """Whether the order sent was to mark the orders final with it."""
        return self.final_form is not None and self.final_form.is_valid() \
            and bool(self.final_form.cleaned_data["and_final"])

    @cached_property
    def last_time(self) -> order_intake.LastTime | None:
        """The orders of last time and the engine's plan to give them again beside the orders
        in (docs/rules.md §repeat-orders); None when the phase repeats nothing or there are
        none."""
        assert self.seat.player is not None
        return order_intake.last_time(self.seat.phase, self.seat.player, self.state,
                                      self.orders)

    def repeat_form(self) -> RepeatForm:
        """The confirmation's hidden fields: what the list shown is drawn from."""
        last = self.last_time
        return RepeatForm(initial={
            "last_time": last.token if last else "",
            "revision": self.seat.order.revision if self.seat.order else 0,
            "state_version": self.seat.game.state_version}, auto_id=False)

    def _changing(self) -> tuple[OrderOption, OrderForm] | None:
        """The form that changes saved order `change`, filled in with it."""
        if self.change is None or not 0 <= self.change < len(self.orders) or \
                self.failed is not None:
            return None
        order = self.orders[self.change]
        option = option_for(self.options, order)
        if option is None:
            return None
        condition = (order.condition.kind, dict(order.condition.args)) \
            if order.condition is not None else None
        form = OrderForm(option, self.state, self.index,
                         values=values_of(self.state, option, order), condition=condition)
        return option, form

    def error_links(self) -> list[tuple[str, str]]:
        if self.failed is None:
            return []
        return self.failed.error_links(self.failed.option.label)

    # --- a submitted form --------------------------------------------------------------------
    def submit(self, data: QueryDict, user: User) -> Outcome:
        """Carry out the posted form; on refusal keep what it said for the page."""
        action = data.get("action", "")
        version = _int(data.get("state_version"), -1)
        self.from_map = data.get(FROM) == FROM_MAP
        if action not in ACTIONS:
            self.errors = ["The Orders page did not understand what this form asked for: "
                           "nothing was saved. Reload the page and try again."]
            return Outcome(False)
        change = order_intake.Change()
        form: OrderForm | None = None
        if action in ("add", "change"):
            option = self.options.get(data.get("option", ""))
            if option is None:
                self.errors = ["That order cannot be given now: the phase or your position "
                               "changed. The forms below are the ones you may use."]
                return Outcome(False)
            form = OrderForm(option, self.state, self.index, data)
            index = _int(data.get("index"), -1) if action == "change" else None
            self.failed_change = index
            if action == "add":
                self.final_form = AndFinalForm(data, auto_id=False)
            if not form.is_valid():
                self.failed = form
                return Outcome(False)
            change = order_intake.Change(add=form.order(), replace=index,
                                    revision=_int(data.get("revision"), -1),
                                    final=True if self.and_final() else None)
        elif action == "remove":
            change = order_intake.Change(remove=_int(data.get("index"), -1),
                                    revision=_int(data.get("revision"), -1))
        elif action in ("final", "not_final"):
            change = order_intake.Change(final=action == "final")
        elif action == "repeat":
            return self._repeat(data, user)
        else:
            self.note_form = NoteForm(data, auto_id="%s")
            if not self.note_form.is_valid():
                return Outcome(False)
            change = order_intake.Change(note=self.note_form.cleaned_data["note_to_gm"])
        try:
            done = order_intake.change_orders(self.seat.phase.id, user, change,
                                         state_version=version)
        except order_intake.ChangeRejected as rejected:
            self._place(rejected.errors, rejected.index, form)
            return Outcome(False)
        except CampaignError as error:
            self.errors = [str(error)]
            if form is not None:
                self.failed = form
            return Outcome(False)
        return Outcome(True, done.message, to_map=self.from_map)

    def _repeat(self, data: QueryDict, user: User) -> Outcome:
        """Give the orders of last time the list confirmed kept, through the intake, which
        checks everything again; when anything changed since the list was drawn, nothing is
        saved and the list is shown again as it stands now."""
        form = RepeatForm(data, auto_id=False)
        if not form.is_valid():
            self.errors = ["The Orders page did not understand what this form asked for: "
                           "nothing was saved. Reload the page and try again."]
            return Outcome(False)
        fields = form.cleaned_data
        try:
            done = order_intake.repeat_orders(
                self.seat.phase.id, user,
                order_intake.Repeat(fields["last_time"], fields["revision"]),
                state_version=fields["state_version"])
        except order_intake.OrdersRejected as rejected:
            self.errors = [str(e) for e in rejected.errors]
        except CampaignError as error:  # stale (StaleRepeat, StaleOrders), closed, barred
            self.errors = [str(error)]
        else:
            return Outcome(True, done.message)
        self.repeat = True
        return Outcome(False)

    def _place(self, problems: Sequence[str], index: int | None, form: OrderForm | None
               ) -> None:
        """The engine's messages: those about the order just given (or a set problem naming
        it) go to its form, by argument; those about other orders stay at the top."""
        mine, page = [], []
        for problem in problems:
            orders = getattr(problem, "orders", ())
            if form is not None and index is not None and index in orders:
                mine.append(_without_number(problem, index) if len(orders) == 1 else problem)
            else:
                page.append(problem_text(problem))
        self.errors = page
        if form is not None:
            form.place(mine)
            self.failed = form

    def context(self) -> dict[str, object]:
        return {"saved": self.saved(), "entries": self.entries(),
                "unavailable": list(self.options.notes), "errors": self.errors,
                "error_links": self.error_links(), "changing": self.change,
                "prefix_of": form_prefix, "from_map": self.from_map,
                "and_final": self.and_final(),
                "last_time": self.last_time, "repeating": self.repeat and self.last_time,
                "repeat_form": self.repeat_form() if self.repeat else None,
                "repeat_from": phase_title(self.last_time.row.phase) if self.last_time
                else "",
                "revision": self.seat.order.revision if self.seat.order else 0}


def _without_number(problem: str, index: int) -> str:
    """ "Order 3: You have 5 MP..." about the order just given reads without its number."""
    if isinstance(problem, Problem):
        return problem.unnumbered()
    return problem.removeprefix(f"Order {index + 1}: ")


def _int(value: str | None, default: int) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default
