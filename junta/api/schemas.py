"""The shapes the API answers with and reads (its OpenAPI schema is drawn from them)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from ninja import Field, Schema
from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from junta.ops.public import REFUSED_TEXT, refused_text


def _text(value: str) -> str:
    """A text the site may store: no control character but lines and tabs, no lone surrogate
    (the check of the web forms, `junta.ops.text`); else 400 naming the field."""
    if refused_text(value):
        raise PydanticCustomError("control_character", REFUSED_TEXT)
    return value


# Every text the API reads and may store.
Text = Annotated[str, AfterValidator(_text)]

# Any JSON value, passed on unchecked: pydantic's `Any` (drawn as {} in the schema). The
# engine's values (an order's arguments, an option's choices and defaults) and its view of the
# state are such JSON; their Python types are the engine's (`junta.engine.StateView` for the
# view, typed where the pages and the API build it).
AnyJson = Any


class ErrorOut(Schema):
    detail: str
    field: str | None = None
    errors: list[dict[str, AnyJson]] | None = None


class MeOut(Schema):
    id: int
    public_name: str
    time_zone: str


class PushDeviceOut(Schema):
    id: int
    label: str
    created_at: datetime
    last_sent_at: datetime | None


class PhaseOut(Schema):
    number: int
    kind: str
    title: str
    turn: int
    status: str
    opens_at: datetime
    deadline: datetime


class CampaignItem(Schema):
    id: int
    name: str
    status: str
    role: str = Field(description='"gm", "player" or "pending" (asked to join, not seated)')
    seat: int | None
    phase: PhaseOut | None = Field(description="The current phase; none before the start and "
                                               "once the game is over")
    owes_orders: bool
    orders_in: bool
    orders_final: bool
    unread_speeches: int
    unread_messages: int


class ClockOut(Schema):
    paused: bool
    reviewing: bool
    passed: bool
    counting: bool
    all_final: bool
    review_mode: bool
    left: str


class RosterEntry(Schema):
    seat: int
    family: str
    player: str


class InOrdersOut(Schema):
    seat: int
    family: str
    orders: str = Field(description='"none", "in" or "final"')


class CampaignOut(Schema):
    id: int
    name: str
    status: str
    role: str
    seat: int | None
    state_version: int
    phase: PhaseOut | None = Field(description="The current phase; none once the game is over")
    clock: ClockOut
    roster: list[RosterEntry]
    who_is_in: list[InOrdersOut]
    view: dict[str, AnyJson] = Field(description="The engine's view of the state for this viewer")


class VoteRowOut(Schema):
    voter: str
    votes: int
    choice: str
    source: str


class VoteOut(Schema):
    caption: str
    rows: list[VoteRowOut]
    totals: list[tuple[str, int]]
    outcome: str


class RevealedLine(Schema):
    told_to: str
    text: str


class FamilyOrders(Schema):
    family: str
    orders: list[str]


class ReportOut(Schema):
    number: int
    turn: int
    kind: str
    title: str
    published_at: datetime | None
    undone_on: datetime | None = Field(description="When a GM rollback undid this phase")
    headlines: list[str]
    public: list[str]
    private: list[str] = Field(description="The lines told to me alone (or to a few)")
    votes: list[VoteOut]
    revealed: list[RevealedLine] = Field(description="After the end: every secret line")
    orders: list[FamilyOrders] = Field(description="After the end: every family's orders")


class PhasesOut(Schema):
    page: int
    pages: int
    count: int
    phases: list[ReportOut]


class SpeechItem(Schema):
    kind: str = Field(description='"speech", "announcement" (the GM\'s) or "action" (a GM '
                                  "action announced)")
    id: int
    created_at: datetime
    speaker: str
    phase: int | None
    reply_to: int | None
    body: str
    html: str
    new: bool


class SpeechesOut(Schema):
    page: int
    pages: int
    count: int
    items: list[SpeechItem]


class SpeechIn(Schema):
    body: Text
    reply_to: int | None = None


class ConversationOut(Schema):
    id: int
    subject: str
    created_at: datetime
    last_message_at: datetime | None
    member: bool = Field(description="Whether I am in it (the GM may read others where the "
                                     "campaign lets him)")
    members: list[str]
    unread: int


class ConversationIn(Schema):
    subject: Text
    players: list[int] = Field(default_factory=list, description="The seats asked in")
    with_gm: bool = False
    body: Text


class MessageOut(Schema):
    id: int
    author: str
    created_at: datetime
    body: str
    html: str
    mine: bool


class MessagesOut(Schema):
    page: int
    pages: int
    count: int
    messages: list[MessageOut]


class MessageIn(Schema):
    body: Text


class OrderLine(Schema):
    index: int
    order: dict[str, AnyJson]
    text: str
    option: str | None = Field(description="The option that offers this order now, if any")


class OrdersOut(Schema):
    phase: PhaseOut
    state_version: int
    open: bool
    barred: str | None
    final: bool
    note_to_gm: str
    revision: int
    submitted_at: datetime | None
    orders: list[OrderLine]


class OrdersIn(Schema):
    orders: list[dict[str, AnyJson]] = Field(description=(
        'Each an engine order ({"kind": "pay", "to": 3, "amount": 2, "condition": {...}}) or '
        'an option filled in ({"option": "pay", "values": {"to": 3, "amount": 2}, '
        '"condition": {"kind": ..., ...}})'))
    state_version: int
    revision: int | None = Field(None, description=(
        "The revision of my orders this list replaces (GET …/orders). If they changed since "
        "(on the Orders page, say), nothing is saved: 409. Omitted: the list replaces them "
        "whatever they are now"))
    final: bool | None = Field(None, description="Mark them final or not; omitted: as they were")
    note_to_gm: Text | None = Field(None, description="The note to the GM; omitted: kept")


class FinalIn(Schema):
    final: bool


class KeptOut(Schema):
    order: dict[str, AnyJson]
    text: str


class LeftOutOut(Schema):
    text: str
    reason: str = Field(description="Why it is not given again, in the engine's words")


class LastTimeOut(Schema):
    from_phase: PhaseOut | None = Field(description=(
        "The phase of last time (the latest earlier phase of a kind this one repeats in which "
        "I gave orders); null when there is none"))
    token: str | None = Field(description="Send it back to POST …/orders/last-time to confirm")
    revision: int = Field(description="The revision of my orders the plan was drawn beside")
    state_version: int
    kept: list[KeptOut] = Field(description="Added after my orders, in this order, on confirm")
    left_out: list[LeftOutOut]


class LastTimeIn(Schema):
    token: str
    revision: int
    state_version: int


class ChoiceOut(Schema):
    value: AnyJson
    label: str


class ChoicesFor(Schema):
    when: AnyJson = Field(description="A value of the argument named by depends_on")
    values: list[AnyJson]


class ArgOut(Schema):
    name: str
    label: str
    shape: str = Field(description='"one", "some", "number", "table" or "ranking"')
    choices: list[ChoiceOut]
    minimum: int | None
    maximum: int | None
    required: bool
    help: str
    keys: list[ChoiceOut] = Field(description="A table's rows")
    blank: str | None
    default: AnyJson
    depends_on: str | None
    choices_for: list[ChoicesFor]
    combined: bool


class ConditionOut(Schema):
    kind: str
    label: str
    args: list[ArgOut]


class OptionOut(Schema):
    key: str
    kind: str
    label: str
    help: str
    fixed: dict[str, AnyJson]
    args: list[ArgOut]
    defaults: dict[str, AnyJson]
    conditions: list[ConditionOut]
    refused_conditions: list[str]
    rules: list[str] = Field(description="The sections of the rules this order comes from, "
                                         "the main one first: each is /rules/#<section>")
    likely: bool = Field(description="The order every player who owes orders gives in this "
                                     "phase (the ballot, the location): the Orders page shows "
                                     "it unfolded")


class OptionsOut(Schema):
    phase: PhaseOut
    state_version: int
    open: bool
    barred: str | None
    owes_orders: bool = Field(description="Whether the phase waits for my orders (it closes "
                                          "early once all who owe them are final)")
    final: bool = Field(description="Whether my orders for this phase are final")
    seat: int
    orders: list[OptionOut]
    notes: list[str] = Field(description="What is not offered now, and why")


# The error answers every endpoint may give, for the schema (the handlers in errors.py draw them).
ERRORS: dict[int, type[Schema]] = {400: ErrorOut, 401: ErrorOut, 404: ErrorOut, 413: ErrorOut,
                          415: ErrorOut, 429: ErrorOut}
