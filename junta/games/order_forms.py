"""The order forms: one Django form for each of the engine's legal options for a seat.

`junta.engine.options.legal_options(state, seat)` says what the player may order now and with
which values; `OrderForm` turns one option into a Django form with a prefix of its own
("order-pay"), so no field of one form can share a name with another form's or the page's own
fields. The choices are the engine's, so a player picks from lists (players, cards in hand,
zones) and never types a name. What a form cannot check on its own (a zone next to the one a
stack leaves, a pocket too small for two orders) the engine checks when the order is given; its
messages come back keyed by argument (`junta.engine.problems.Problem`) and `place` puts each one
next to the field it is about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from django import forms
from django.forms.boundfield import BoundField, BoundWidget
from django.forms.utils import flatatt
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import slugify

from junta.engine import (
    ArgOption,
    GameState,
    Order,
    OrderOption,
    Shape,
    build,
    condition_detail,
)
from junta.games.quick_widgets import QuickRenderer
from junta.games.wording import problem_text

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

CONDITION = "if"  # the field choosing a condition's kind; its details are "if_<detail>"
CONDITION_BLANK = {
    "seat": "Choose the player the condition is about.",
    "location": "Choose the location the condition is about.",
    "choice": "Choose the vote the condition is about.",
    "card": "Choose the card the condition is about.",
    "position": "Choose the position the condition is about.",
}
RANK_LABELS = ("Lose last", "Then", "Then", "Then")


# A value of an order's argument as the engine gives and takes it (`Choice.value`, `Order.args`,
# `values_of`): Any in the engine, whose order arguments are not typed per kind.
type EngineValue = Any


def token(value: object) -> str:
    """How a value travels in a form: "" for none, yes/no for true/false, else its text."""
    if value is None:
        return ""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def form_prefix(key: str) -> str:
    """ "order-pay", "order-play-card-17", "order-place-marine" """
    return "order-" + slugify(key.replace(":", "-").replace("_", "-"))


@dataclass
class Group:
    """What the template draws for one argument (or a condition's detail): a single field, or
    a fieldset of several (a TABLE's rows, a RANKING's places, a SOME's boxes)."""
    arg: str
    label: str
    shape: str
    help: str = ""
    names: list[str] = field(default_factory=list)  # the form's field names, in order
    errors: list[str] = field(default_factory=list)  # about the group as a whole
    conditions: str = ""  # a condition detail: the kinds of condition that use it
    required: bool = True
    html_id: str = ""


class Box(TypedDict):
    """One checkbox of a SOME argument, drawn."""
    tag: SafeString
    id: str
    label: str


class RenderedRow(TypedDict):
    """One field of a group, drawn (a SOME's row has its boxes instead of a widget)."""
    bf: BoundField
    id: str
    boxes: list[Box] | None
    errors: list[str]
    widget: NotRequired[SafeString]
    help: NotRequired[StrOrPromise]
    label: NotRequired[StrOrPromise]
    number: NotRequired[bool]
    optional: NotRequired[bool]


class RenderedGroup(TypedDict):
    """A group as the template draws it (`OrderForm.rendered_groups`)."""
    group: Group
    id: str
    many: bool
    rows: list[RenderedRow]
    errors: list[str]
    help: str
    label: str
    conditions: str
    detail: bool
    is_condition: bool


class OrderForm(forms.Form):
    """One of the engine's options as a form. `values()`, `condition()` and `order()` read a
    valid form back into the engine's terms."""

    default_renderer = QuickRenderer()  # a page draws dozens of these: no template per option

    def __init__(self, option: OrderOption, state: GameState, seat: int,
                 data: Mapping[str, Any] | None = None, *,  # Any: Django's form data
                 values: dict[str, EngineValue] | None = None,
                 condition: tuple[str, dict[str, EngineValue]] | None = None,
                 prefix: str | None = None) -> None:
        super().__init__(data, prefix=prefix or form_prefix(option.key), auto_id="%s")
        self.option, self.state, self.seat = option, state, seat
        self.groups: list[Group] = []
        self.group_errors: dict[str, list[str]] = {}
        self._values: dict[str, dict[str, EngineValue]] = {}  # field name -> token -> value
        start = {**option.defaults(), **(values or {})}
        for arg in option.args:
            self._add_arg(arg, start.get(arg.name))
        if option.conditions:
            self._add_condition(condition)

    # --- fields ---------------------------------------------------------------------------
    def _choice_field(self, name: str, label: str, choices: list[tuple[EngineValue, str]],
                      blank: str | None, initial: EngineValue, required: bool = True,
                      help_text: str = "") -> None:
        listed = ([("", blank)] if blank is not None else []) + [(token(v), t)
                                                               for v, t in choices]
        self._values[name] = {token(v): v for v, _ in choices}
        if blank is not None:
            self._values[name][""] = None
        self.fields[name] = forms.ChoiceField(
            label=label, choices=listed, required=required and blank is None,
            initial=token(initial), help_text=help_text,
            error_messages={"invalid_choice": f"{label}: choose one of the options offered.",
                            "required": f"{label}: choose one of the options offered."})

    def _number_field(self, name: str, label: str, arg: ArgOption, initial: EngineValue,
                      required: bool | None = None, help_text: str = "") -> None:
        attrs: dict[str, str | int | bool] = {"inputmode": "numeric"}
        if arg.minimum is not None:
            attrs["min"] = arg.minimum
        if arg.maximum is not None:
            attrs["max"] = arg.maximum
        need = arg.required if required is None else required
        if need:
            attrs["required"] = True
        self.fields[name] = forms.IntegerField(
            label=label, required=need, initial=initial, help_text=help_text,
            widget=forms.NumberInput(attrs=attrs),
            error_messages={"invalid": f"{label}: give a whole number.",
                            "required": f"{label}: give a whole number."})

    def _add_arg(self, arg: ArgOption, initial: EngineValue) -> None:
        choices = [(c.value, c.label) for c in arg.choices]
        group = Group(arg.name, arg.label, str(arg.shape), arg.help, required=arg.required,
                      html_id=f"{self.prefix}-{slugify(arg.name.replace('_', '-'))}")
        if arg.shape is Shape.ONE:
            self._choice_field(arg.name, arg.label, choices, arg.blank, initial,
                               help_text=arg.help)
            group.names = [arg.name]
        elif arg.shape is Shape.NUMBER:
            self._number_field(arg.name, arg.label, arg, initial, help_text=arg.help)
            group.names = [arg.name]
        elif arg.shape is Shape.SOME:
            self._values[arg.name] = {token(v): v for v, _ in choices}
            self.fields[arg.name] = forms.MultipleChoiceField(
                label=arg.label, choices=[(token(v), t) for v, t in choices],
                required=arg.required, initial=[token(v) for v in initial or []],
                help_text=arg.help, widget=forms.CheckboxSelectMultiple,
                error_messages={"invalid_choice": f"{arg.label}: choose among the options "
                                                  "offered.",
                                "required": f"{arg.label}: choose at least one."})
            group.names = [arg.name]
        elif arg.shape is Shape.TABLE:
            cells = initial or {}
            for key in arg.keys:
                name = f"{arg.name}_{slugify(token(key.value)).replace('-', '_')}"
                if arg.choices:
                    self._choice_field(name, key.label, choices, arg.blank,
                                       cells.get(key.value), required=False)
                else:
                    self._number_field(name, key.label, arg, cells.get(key.value),
                                       required=False)
                group.names.append(name)
        elif arg.shape is Shape.RANKING:
            picked = list(initial or [])
            for i in range(arg.maximum or len(arg.choices)):
                name = f"{arg.name}_{i + 1}"
                self._choice_field(name, RANK_LABELS[min(i, len(RANK_LABELS) - 1)], choices,
                                   None if i == 0 else "-",
                                   picked[i] if i < len(picked) else None)
                group.names.append(name)
        self.groups.append(group)

    def _add_condition(self, initial: tuple[str, dict[str, EngineValue]] | None) -> None:
        kinds = [(c.kind, c.label) for c in self.option.conditions]
        self._choice_field(CONDITION, "Condition", kinds, "always",
                           initial[0] if initial else None, required=False)
        self.groups.append(Group(CONDITION, "Condition", "condition", names=[CONDITION],
                                 required=False))
        # One field per detail ("if_seat"), shared by the kinds of condition that name it
        # with the same choices; a kind offering other choices for it gets a field of its own
        # ("if_seat_2": an assassin may wait only for his own player's location).
        # by (detail, its choices as (value, label) pairs)
        fields: dict[tuple[str, tuple[tuple[EngineValue, str], ...]],
                     tuple[str, ArgOption, list[str]]] = {}
        self._details: dict[tuple[str, str], str] = {}  # (kind, detail) -> field name
        for cond in self.option.conditions:
            for arg in cond.args:
                sig = (arg.name, tuple((c.value, c.label) for c in arg.choices))
                if sig not in fields:
                    taken = sum(1 for name, _ in fields if name == arg.name)
                    field_name = f"{CONDITION}_{arg.name}" + (f"_{taken + 1}" if taken else "")
                    fields[sig] = (field_name, arg, [])
                fields[sig][2].append(cond.kind)
                self._details[(cond.kind, arg.name)] = fields[sig][0]
        chosen_kind = initial[0] if initial else None
        chosen = dict(initial[1]) if initial else {}
        for field_name, arg, kinds_using in fields.values():
            start = chosen.get(arg.name) if chosen_kind in kinds_using else None
            if arg.shape is Shape.NUMBER:
                self._number_field(field_name, arg.label, arg, start, required=False,
                                   help_text=arg.help)
            else:
                blank = arg.blank if arg.blank is not None else f"choose {arg.label.lower()}"
                self._choice_field(field_name, arg.label, [(c.value, c.label)
                                                           for c in arg.choices],
                                   blank, start, required=False, help_text=arg.help)
            self.groups.append(Group(f"condition.{arg.name}", arg.label, "detail", arg.help,
                                     names=[field_name], conditions=" ".join(kinds_using),
                                     required=False))

    def _detail_field(self, kind: str, detail: str) -> str | None:
        return getattr(self, "_details", {}).get((kind, detail))

    # --- reading ----------------------------------------------------------------------------
    def _value(self, name: str) -> EngineValue:
        raw = self.cleaned_data.get(name)
        if isinstance(self.fields[name], forms.IntegerField):
            return raw
        if isinstance(raw, list):
            return [self._values[name][v] for v in raw]
        return self._values[name].get(raw or "")

    def clean(self) -> dict[str, Any]:  # Any: Django's cleaned data
        super().clean()
        cleaned = self.cleaned_data  # what Form.clean returns
        kind = cleaned.get(CONDITION) if self.option.conditions else None
        if kind:
            for detail in condition_detail(kind):
                name = self._detail_field(kind, detail)
                if detail in CONDITION_BLANK and name in self.fields and \
                        not cleaned.get(name) and name not in self.errors:
                    self.add_error(name, CONDITION_BLANK[detail])
        return cleaned

    def values(self) -> dict[str, EngineValue]:
        out: dict[str, EngineValue] = {}
        for arg in self.option.args:
            group = next(g for g in self.groups if g.arg == arg.name)
            if arg.shape is Shape.TABLE:
                out[arg.name] = {key.value: self._value(name)
                                 for key, name in zip(arg.keys, group.names, strict=True)}
            elif arg.shape is Shape.RANKING:
                out[arg.name] = [v for v in (self._value(n) for n in group.names)
                                 if v is not None]
            else:
                out[arg.name] = self._value(arg.name)
        return out

    def condition(self) -> tuple[str, dict[str, EngineValue]] | None:
        if not self.option.conditions:
            return None
        kind = self._value(CONDITION)
        if not kind:
            return None
        details = {}
        for detail in condition_detail(kind):
            name = self._detail_field(kind, detail)
            if name in self.fields:
                details[detail] = self._value(name)
        return kind, details

    def order(self) -> Order:
        """The engine's order this valid form describes."""
        return build(self.state, self.seat, self.option, self.values(), self.condition())

    # --- the engine's messages --------------------------------------------------------------
    def place(self, problems: Sequence[str]) -> None:
        """Put each of the engine's messages about this order next to what it is about: its
        argument's field (or the fieldset of a table), the condition or one of its details, or
        the form as a whole."""
        for problem in problems:
            arg = getattr(problem, "arg", None)
            group = self._group_for(arg)
            said = problem_text(problem)
            if group is None:
                self.add_error(None, said)
            elif len(group.names) == 1 and group.shape != str(Shape.SOME):
                self.add_error(group.names[0], said)
            else:
                self.group_errors.setdefault(group.arg, []).append(said)

    def _group_for(self, arg: str | None) -> Group | None:
        if arg is None:
            return None
        if arg == "condition":
            arg = CONDITION
        if arg.startswith("condition.") and self.is_bound:
            kind = self.data.get(self.add_prefix(CONDITION), "")
            name = self._detail_field(kind, arg.removeprefix("condition."))
            for g in self.groups:
                if name is not None and g.names == [name]:
                    return g
        for g in self.groups:
            if g.arg == arg:
                return g
        if arg.startswith("condition."):  # a detail the form does not show: the condition
            return self._group_for(CONDITION)
        return None

    # --- drawing ----------------------------------------------------------------------------
    def rendered_groups(self) -> list[RenderedGroup]:
        """Each group with its bound fields, ids, messages and the widget drawn with its
        accessible description (help and error ids) already in place."""
        out: list[RenderedGroup] = []
        for g in self.groups:
            errors = list(self.group_errors.get(g.arg, []))
            if g.shape == str(Shape.SOME):
                errors += [str(e) for e in self[g.names[0]].errors]
            many = g.shape in (str(Shape.TABLE), str(Shape.RANKING), str(Shape.SOME))
            group_id = g.html_id or f"{self.prefix}-{slugify(g.arg)}"
            rows: list[RenderedRow] = []
            for name in g.names:
                bf = self[name]
                field_errors = [] if g.shape == str(Shape.SOME) else [str(e) for e in bf.errors]
                row_id = bf.auto_id
                described = []
                if bf.help_text and not many:
                    described.append(f"{row_id}-help")
                if field_errors:
                    described.append(f"{row_id}-error")
                if many and (g.help or errors):
                    described += ([f"{group_id}-help"] if g.help else []) + \
                        ([f"{group_id}-error"] if errors else [])
                attrs: dict[str, str | bool] = {}
                if described:
                    attrs["aria-describedby"] = " ".join(described)
                if field_errors or errors:
                    attrs["aria-invalid"] = "true"
                if name == CONDITION:
                    attrs["data-condition-kind"] = ""
                if g.shape == str(Shape.SOME):
                    boxes: list[Box] = [{"tag": _choice_tag(box), "id": box.id_for_label,
                                         "label": box.choice_label} for box in bf]
                    rows.append({"bf": bf, "id": row_id, "boxes": boxes, "errors": []})
                else:
                    rows.append({"bf": bf, "id": row_id, "widget": bf.as_widget(attrs=attrs),
                                 "boxes": None,
                                 "errors": field_errors, "help": "" if many else bf.help_text,
                                 "label": bf.label, "number": isinstance(
                                     bf.field, forms.IntegerField),
                                 "optional": not bf.field.required})
            out.append({"group": g, "id": group_id, "many": many, "rows": rows,
                        "errors": errors, "help": g.help if many else "",
                        "label": g.label, "conditions": g.conditions,
                        "detail": g.shape == "detail", "is_condition": g.arg == CONDITION})
        return out

    def error_links(self, label: str) -> list[tuple[str, str]]:
        """(element id, text) for every message of this form: the page's summary links."""
        links = [(f"{self.prefix}-errors", f"{label}: {e}") for e in self.non_field_errors()]
        for g in self.rendered_groups():
            links += [(g["id"], f"{label}, {g['label']}: {e}") for e in g["errors"]]
            for row in g["rows"]:
                links += [(row["id"], f"{label}, {row['label']}: {e}") for e in row["errors"]]
        return links



def _choice_tag(box: BoundWidget) -> SafeString:
    """One checkbox of a list, as Django's input template draws it (type, name, value, then
    its attributes: a True one bare, a False or None one left out), without a template: an
    Orders page draws dozens of them."""
    data = box.data
    value = "" if data["value"] is None else format_html(' value="{}"', data["value"])
    return format_html('<input type="{}" name="{}"{}{}>', data["type"], data["name"], value,
                       flatatt(data["attrs"]))
