"""The GameMaster's panel: server-rendered pages and the POST actions behind their forms.

Every view goes through `gm_view`, which answers 404 to anyone but the campaign's GM before it
looks at the request method or anything else. Actions call `junta.gm.services` and report the
outcome with a message; a refused action changes nothing. A form that does not validate, and a
ruling the services refuse, come back on their page with what the GM typed (status 400).
Forms carry what they were drawn for (the phase number, the game's `state_version`), so a form
sent twice is refused rather than carried out twice. An action that cannot be undone asks first
(`junta.gm.confirm`): its form leads to a page saying what will happen and to whom, and only
that page's Confirm button acts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import time
from functools import wraps
from typing import Any, Concatenate

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.forms import BaseForm
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.public import AuthenticatedHttpRequest
from junta.engine import (
    MIN_PLAYERS,
    RULING_KINDS,
    Event,
    GameState,
    OrderError,
    OrderOption,
    PhaseKind,
    Problem,
    current_phase,
    describe_order,
    legal_options,
    ruling_options,
)
from junta.games.public import (
    Announcement,
    AnnouncementForm,
    CampaignError,
    Game,
    Order,
    OrderForm,
    Phase,
    Player,
    event_text,
    kept_for_viewer,
    post_announcement,
    state_after,
    when,
)
from junta.gm import confirm, forms, selectors, services
from junta.gm.checks import CampaignCheck, chain_lines
from junta.gm.permissions import gm_game_or_404
from junta.ops.public import Heartbeat
from junta.polls.public import STANDARD_AWARDS, award_progress

GET, POST = ("GET", "HEAD"), ("POST",)


# A GM page's view: given the campaign where Django gives the id in its address, and the
# rest of the address's arguments (by keyword, as Django passes them: any, hence the "...")
type GMView = Callable[Concatenate[AuthenticatedHttpRequest, Game, ...], HttpResponse]


def gm_view(methods: tuple[str, ...]) -> Callable[[GMView], Callable[..., HttpResponse]]:
    """Only the campaign's GM gets past this (404 for everyone else, whatever the method)."""

    def decorate(view: GMView) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapper(request: AuthenticatedHttpRequest, game_id: int, *args: object,
                    **kwargs: object) -> HttpResponse:
            game = gm_game_or_404(request.user, game_id)
            if request.method not in methods:
                return HttpResponseNotAllowed(methods)
            return view(request, game, *args, **kwargs)
        return wrapper
    return decorate


def _page(request: HttpRequest, game: Game, template: str, active: str, status: int = 200,
          *, current: tuple[Phase | None, GameState | None] | None = None,
          extra: Mapping[str, object] | None = None, **context: object) -> HttpResponse:
    """A panel page; `current` is `selectors.current(game)` when the view has loaded it;
    `extra` and `context` what the template draws besides."""
    phase, state = current if current is not None else selectors.current(game)
    return render(request, template, {
        "game": game, "phase": phase, "state": state, "active": active, **(extra or {}),
        **context}, status=status)


def _act[T](request: HttpRequest, done: Callable[[], T], success: str | Callable[[T], str],
            ) -> None:
    try:
        outcome = done()
    except CampaignError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, success(outcome) if callable(success) else success)


def _form_error(request: HttpRequest, form: BaseForm) -> None:
    messages.error(request, _("Not done.") + " " + " ".join(forms.error_lines(form)))


def _ask(request: HttpRequest, game: Game, active: str, cancel: str,
         describe: Callable[[], confirm.Confirmation], fields: list[tuple[str, str]]
         ) -> HttpResponse:
    """The confirmation page of an action that cannot be undone (`junta.gm.confirm`): nothing
    is done; the Confirm button sends `fields` again to this URL with `confirm=yes`. Refused
    already (the form drawn for a phase that is past, a player no longer there), the message
    and back to `cancel`, nothing done."""
    try:
        asked = describe()
    except CampaignError as error:
        messages.error(request, _("Not done.") + f" {error}")
        return redirect(cancel)
    asked.action, asked.cancel_url, asked.fields = request.path, cancel, fields
    return _page(request, game, "gm/confirm.html", active, confirm=asked)


# --- pages ----------------------------------------------------------------------------------

@kept_for_viewer
@gm_view(GET)
def overview(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    phase, state = selectors.current(game)
    heartbeat = Heartbeat.objects.filter(name=Heartbeat.SWEEP).first()
    everyone = selectors.players(game)  # the seated and those asking to join, in one query
    return render(request, "gm/overview.html", {
        "game": game, "phase": phase, "state": state, "active": "overview",
        "rows": selectors.player_rows(game, phase, state, everyone),
        "pending": sorted((p for p in everyone if p.membership == Player.Membership.PENDING),
                          key=lambda p: p.joined_at),
        "heartbeat": heartbeat, "heartbeat_stale": heartbeat is None or heartbeat.is_stale(),
        "phase_title": current_phase(state).title if state else "",
        "recent": list(selectors.audit(game)[:5]),
        "awards": (award_progress(game)
                   if game.status == Game.Status.FINISHED else []),
        "standard_awards": STANDARD_AWARDS,
        "min_players": MIN_PLAYERS,
    })


def _settings_said(form: forms.SettingsForm, game: Game, changed: list[str]) -> str:
    """"Saved. List in the archive when finished: no." — each changed setting by its label,
    with its new value."""
    if not changed:
        return _("Nothing changed.")
    parts = []
    for name in changed:
        field = form.fields.get(name)
        value = getattr(game, name)
        if name == "phase_days":
            days = value or {}
            parts.append("Phase lengths: " + ", ".join(
                f"{str(form.fields[field_name].label).split(' (')[0].lower()} {n} "
                f"day{'s' if n != 1 else ''}" for field_name, n in (
                    ("nomination_days", days.get(PhaseKind.NOMINATION.value)),
                    ("election_days", days.get(PhaseKind.ELECTION.value)),
                    ("default_days", days.get("default")))
                if n is not None))
            continue
        label = str(field.label) if field is not None and field.label else \
            name.replace("_", " ").capitalize()
        if isinstance(value, bool):
            shown = "yes" if value else "no"
        elif isinstance(value, time):
            shown = value.strftime("%H:%M")
        elif hasattr(game, f"get_{name}_display"):
            shown = str(getattr(game, f"get_{name}_display")())
        else:
            shown = str(value)
        parts.append(f"{label}: {shown}")
    return "Saved. " + "; ".join(parts) + "."


@gm_view(GET)
def players(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    everyone = selectors.players(game)
    return _page(request, game, "gm/players.html", "players", min_players=MIN_PLAYERS,
                 seated=[(p, forms.ReplaceForm(auto_id=f"replace-{p.id}-%s"))
                         for p in everyone if p.membership == Player.Membership.ACTIVE],
                 pending=[p for p in everyone if p.membership == Player.Membership.PENDING],
                 former=[p for p in everyone if p.membership in (
                     Player.Membership.REPLACED, Player.Membership.REMOVED)],
                 invite_url=request.build_absolute_uri(
                     f"/games/{game.id}/invite/{game.invite_token}/"))


def _time_context(phase: Phase | None, **bound: BaseForm) -> dict[str, object]:
    """The Time page's forms, each with its own prefix (their fields' ids differ)."""
    return {
        "pause_form": forms.TimeForm(prefix="pause"),
        "resume_form": forms.TimeForm(prefix="resume"),
        "extend_form": forms.ExtendForm(prefix="extend",
                                        phase=phase.number if phase else None,
                                        deadline=phase.deadline if phase else None),
        "adjudicate_form": forms.AdjudicateForm(prefix="adjudicate",
                                                phase=phase.number if phase else None),
        **bound,
    }


@gm_view(GET)
def time_page(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    phase, state = selectors.current(game)
    return _page(request, game, "gm/time.html", "time", current=(phase, state),
                 extra=_time_context(phase))


def _time_again(request: HttpRequest, game: Game, **bound: BaseForm) -> HttpResponse:
    """The Time page again, with the refused form as the GM filled it in."""
    phase, state = selectors.current(game)
    return _page(request, game, "gm/time.html", "time", status=400, current=(phase, state),
                 extra=_time_context(phase, **bound))


def _orders(phase: Phase | None, state: GameState | None,
            annul: tuple[int, int, BaseForm] | None = None) -> list[dict[str, object]]:
    """Every seat's orders; a refused annulment (seat, index, bound form) is shown again."""
    rows = selectors.orders_by_seat(phase, state)
    if annul is not None:
        seat, index, form = annul
        for row in rows:
            if row["seat"] == seat:
                row["annul_index"], row["annul_form"] = index, form
    return rows


# --- giving an order for a player ------------------------------------------------------------
# The GM chooses the player (`?order_for=<seat>` on the Rulings or Review page), then gets the
# order forms that player sees on his own Orders page: one `OrderForm` per option of
# `legal_options(state, seat)`, each with the GM's own fields (`forms.GMOrderForm`), drawn by
# the players' include games/_order_form.html and posted to `add_order`.

@dataclass
class GiveEntry:
    """One of the player's order forms, as the GM gives it (games/_order_form.html's `entry`):
    the player's fields (`form`) and the GM's (`gm_form`: reason, announcement, version)."""
    option: OrderOption
    form: OrderForm
    gm_form: forms.GMOrderForm
    bound: bool = False  # sent back refused, as the GM filled it in
    change: None = None  # the GM adds orders; he does not change one in place

    @property
    def html_id(self) -> str:
        return self.form.prefix or ""  # OrderForm always has one


@dataclass
class Give:
    """The "Give an order for a player" section: the choice of player and, once chosen, his
    order forms and what is not offered to him now (`notes`)."""
    origin: str  # the page: "rulings" or "review"
    action_url: str
    seats: list[tuple[str, str, bool]]  # value, label, chosen
    seat: int | None = None
    name: str = ""
    entries: list[GiveEntry] = field(default_factory=list)
    notes: tuple[str, ...] = ()

    @property
    def extra_fields(self) -> list[tuple[str, str]]:
        return [("from", self.origin), ("seat", str(self.seat))]

    @property
    def button(self) -> str:
        return f"Give this order for {self.name}"


def _seat_of(state: GameState | None, value: str | int | None) -> int | None:
    """The seat a form or the query string names (None: none, or not a seat of the game)."""
    if value is None:
        return None
    try:
        seat = int(value)
    except (TypeError, ValueError):
        return None
    return seat if state is not None and 0 <= seat < len(state.players) else None


def _entry(game: Game, state: GameState, seat: int, option: OrderOption,
           data: QueryDict | None = None) -> GiveEntry:
    return GiveEntry(
        option, OrderForm(option, state, seat, data, prefix=forms.gm_prefix(option.key)),
        forms.GMOrderForm(data, prefix=forms.gm_fields_prefix(option.key),
                          version=game.state_version), bound=data is not None)


def _give(game: Game, state: GameState, origin: str, order_for: str | int | None = None,
          failed: GiveEntry | None = None) -> Give:
    """The section for the player `order_for` (a seat, or the query string's text); `failed`
    is a refused form, shown again in place of its option's fresh one."""
    seat = _seat_of(state, order_for)
    give = Give(origin, reverse("gm_add_order", args=[game.id]),
                [(value, label, value == str(seat))
                 for value, label in forms.seat_choices(state)])
    if seat is None:
        return give
    options = legal_options(state, seat)
    give.seat, give.name, give.notes = seat, state.name(seat), options.notes
    for option in options.orders:
        if failed is not None and failed.option.key == option.key:
            give.entries.append(failed)
        else:
            give.entries.append(_entry(game, state, seat, option))
    return give


def _review_context(game: Game, phase: Phase | None, state: GameState | None, *,
                    publish_form: forms.PublishForm | None = None,
                    order_for: str | int | None = None, failed: GiveEntry | None = None,
                    annul: tuple[int, int, BaseForm] | None = None, **_others: object
                    ) -> dict[str, object]:
    context: dict[str, object] = {"publish_form": publish_form or forms.PublishForm(
        phase=phase.number if phase else None)}
    if phase is not None and phase.status == Phase.Status.DRAFTED and state is not None:
        result = phase.result
        after = state_after(result)
        context.update({
            "result": result,
            "events": [(event, event_text(event))
                       for event in map(Event.from_dict, result.events)],
            "after": selectors.everything(after),
            "changes": selectors.compare(state, after),
            "orders": _orders(phase, state, annul),
            "give": _give(game, state, "review", order_for, failed),
        })
    return context


@gm_view(GET)
def review(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    phase, state = selectors.current(game)
    return _page(request, game, "gm/review.html", "review", current=(phase, state),
                 extra=_review_context(game, phase, state,
                                   order_for=request.GET.get("order_for")))


# --- the rulings on offer ----------------------------------------------------------------------
# One form per ruling of the Rulings page that `ruling_options(state)` offers now, built from
# the engine's offer (`forms.OfferedRulingForm`); for each ruling not offered, the engine's
# reason.

RULING_BUTTONS = {"money": "Move the money", "card": "Move the card",
                  "location": "Set the location", "unit_add": "Add the unit",
                  "unit_remove": "Remove the unit", "fiat": "Decree this budget"}


@dataclass
class RulingEntry:
    """One ruling of the page (gm/_ruling_form.html): its form, or why it is not offered."""
    kind: str
    summary: str
    form: forms.OfferedRulingForm | None = None
    why_not: str = ""

    @property
    def button(self) -> str:
        return RULING_BUTTONS[self.kind]

    @property
    def note(self) -> str:
        return self.form.option.help if self.form is not None else ""


def _ruling_entries(game: Game, state: GameState,
                    sent: forms.OfferedRulingForm | None = None) -> list[RulingEntry]:
    """The page's rulings; `sent` is a refused form, shown again in place of a fresh one."""
    options = ruling_options(state)
    out = []
    for kind in services.PAGE_RULINGS:
        option = options.get(kind)
        if option is None:
            out.append(RulingEntry(kind, RULING_KINDS[kind], why_not=options.why_not(kind)))
        elif sent is not None and sent.prefix == kind:  # the refused form of this ruling
            out.append(RulingEntry(kind, option.label, sent))
        else:
            out.append(RulingEntry(kind, option.label, forms.OfferedRulingForm(
                option, version=game.state_version)))
    return out


def _rulings_context(game: Game, phase: Phase | None, state: GameState | None, *,
                     annul: tuple[int, int, BaseForm] | None = None,
                     order_for: str | int | None = None, failed: GiveEntry | None = None,
                     ruling: forms.OfferedRulingForm | None = None, **_others: object
                     ) -> dict[str, object]:
    working = phase is not None and phase.status in (Phase.Status.OPEN, Phase.Status.DRAFTED) \
        and game.status != Game.Status.FINISHED
    if not working or state is None:  # a phase that works has its state
        return {"working": False, "orders": []}
    return {"working": True, "orders": _orders(phase, state, annul),
            "give": _give(game, state, "rulings", order_for, failed),
            "rulings": _ruling_entries(game, state, ruling)}


@gm_view(GET)
def rulings(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    phase, state = selectors.current(game)
    return _page(request, game, "gm/rulings.html", "rulings", current=(phase, state),
                 extra=_rulings_context(game, phase, state,
                                    order_for=request.GET.get("order_for")))


@gm_view(GET)
def everything(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    phase, state = selectors.current(game)
    return _page(request, game, "gm/everything.html", "everything", current=(phase, state),
                 everything=selectors.everything(state) if state is not None else None)


@gm_view(GET)
def board(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    """The board rows (`selectors.board`): read from the rows alone, never the engine state."""
    phase = game.phases.order_by("-number").first()
    return _page(request, game, "gm/board.html", "board", current=(phase, None),
                 board=selectors.board(game))


def _history_context(game: Game, report: CampaignCheck | None = None,
                     rollback_form: forms.RollbackForm | None = None) -> dict[str, object]:
    phases = list(game.phases.order_by("-number"))
    chain = {line.number: line for line in chain_lines(game)}
    current = phases[0] if phases else None
    return {
        "phases": phases,
        # whose orders for the current phase a rollback leaves behind (to be given again)
        "ordered": list(Order.objects.filter(phase=current).exclude(payload=[])
                        .select_related("player").order_by("player__seat"))
        if current is not None and current.status == Phase.Status.OPEN else [],
        "rows": [(p, chain[p.number]) for p in phases],
        "rollback_form": rollback_form or forms.RollbackForm(
            phases=phases[1:], current=phases[0].number if phases else None),
        "report": report,
    }


@gm_view(GET)
def history(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    return _page(request, game, "gm/history.html", "history", extra=_history_context(game))


@gm_view(GET)
def audit(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    page = Paginator(selectors.audit(game), 50).get_page(request.GET.get("page"))
    return _page(request, game, "gm/audit.html", "audit", page=page)


@gm_view(GET + POST)
def settings(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    form = forms.SettingsForm(request.POST or None, game=game)
    if request.method == "POST":
        if form.stale():
            fresh = forms.SettingsForm(game=game)
            messages.error(request, forms.SettingsForm.STALE)
            return _page(request, game, "gm/settings.html", "settings", form=fresh, status=409)
        if form.is_valid():
            try:
                changed = services.update_settings(game.id, request.user, form.changes())
            except CampaignError as error:
                form.add_error(None, str(error))
            else:
                game.refresh_from_db()
                messages.success(request, _settings_said(form, game, changed))
                return redirect("gm_settings", game_id=game.id)
        return _page(request, game, "gm/settings.html", "settings", form=form, status=400)
    return _page(request, game, "gm/settings.html", "settings", form=form)


ANNOUNCEMENTS_SHOWN = 20


@gm_view(GET + POST)
def announce(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    """A free announcement to every player (narration, news), at any time: Markdown, shown on
    the Events page among the speeches, marked as the GameMaster's. Sent from here or from the
    Events page (`back=events` returns there); a refused one comes back with its text."""
    form = AnnouncementForm(request.POST or None, prefix="announce")
    if request.method == "POST":
        if form.is_valid():
            try:
                post_announcement(game, request.user, form.cleaned_data["body"])
            except CampaignError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Your announcement is at the top of the Events page."))
                if request.POST.get("back") == "events":
                    return redirect("game_events", game_id=game.id)
                return redirect("gm_announce", game_id=game.id)
        return _page(request, game, "gm/announce.html", "announce", form=form, status=400,
                     announcements=_announcements(game))
    return _page(request, game, "gm/announce.html", "announce", form=form,
                 announcements=_announcements(game))


def _announcements(game: Game) -> list[Announcement]:
    return list(game.announcements.defer("body").order_by("-created_at", "-id")
                [:ANNOUNCEMENTS_SHOWN])


# --- actions: players ---------------------------------------------------------------------

@gm_view(GET + POST)
def start(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    """Asks first (`confirm.start`), also when the players' page of the campaign sends here
    (`from=detail`: Cancel goes back there, and the campaign's Status page follows)."""
    from_detail = (request.POST or request.GET).get("from") == "detail"
    if request.method != "POST" or not confirm.confirmed(request):
        cancel = reverse("game_detail" if from_detail else "gm_overview", args=[game.id])
        return _ask(request, game, "overview", cancel, lambda: confirm.start(game),
                    [("from", "detail")] if from_detail else [])
    _act(request, lambda: services.start_campaign(game.id, request.user),
         f"{game.name} has begun: nominations are open.")
    return redirect("game_status" if from_detail else "gm_overview", game_id=game.id)


def _seat_number(player: Player) -> str:
    """The seat a player was just given, counted from 1."""
    return str(player.seat + 1) if player.seat is not None else "?"


@gm_view(POST)
def approve(request: AuthenticatedHttpRequest, game: Game, player_id: int) -> HttpResponse:
    _act(request, lambda: services.approve_player(game.id, request.user, player_id),
         lambda p: f"{p.character} takes seat {_seat_number(p)}.")
    return redirect("gm_players", game_id=game.id)


@gm_view(POST)
def remove(request: AuthenticatedHttpRequest, game: Game, player_id: int) -> HttpResponse:
    reason = request.POST.get("reason", "")
    if not confirm.confirmed(request):
        return _ask(request, game, "players", reverse("gm_players", args=[game.id]),
                    lambda: confirm.remove(game, confirm.player_named(game, player_id), reason),
                    [("reason", reason)] if reason else [])
    _act(request, lambda: services.remove_player(game.id, request.user, player_id,
                                                 request.POST.get("reason", "")),
         lambda p: f"{p.user.public_name} is out of {game.name}.")
    return redirect("gm_players", game_id=game.id)


@gm_view(POST)
def replace(request: AuthenticatedHttpRequest, game: Game, player_id: int) -> HttpResponse:
    form = forms.ReplaceForm(request.POST)
    if not form.is_valid():
        _form_error(request, form)
    elif not confirm.confirmed(request):
        data = form.cleaned_data
        return _ask(request, game, "players",
                    reverse("gm_players", args=[game.id]) + f"#player-{player_id}",
                    lambda: confirm.replace(
                        game, confirm.player_named(game, player_id), data["email"],
                        data["character_name"], data["reason"], data["announcement"]),
                    confirm.sent_fields(form))
    else:
        data = form.cleaned_data
        _act(request, lambda: services.replace_player(
            game.id, request.user, player_id, data["email"], data["character_name"],
            data["reason"], data["announcement"]),
            lambda p: f"{p.user.public_name} takes seat {_seat_number(p)}.")
    return redirect("gm_players", game_id=game.id)


# --- actions: time --------------------------------------------------------------------------

# done and ask take the form's cleaned data (Any values: Django's)
def _time_action[T](request: HttpRequest, game: Game, form_class: type[BaseForm], prefix: str,
                    done: Callable[[dict[str, Any]], T], success: str | Callable[[T], str],
                    then: str = "gm_time",
                    ask: Callable[[dict[str, Any]], confirm.Confirmation] | None = None
                    ) -> HttpResponse:
    """A Time page form (`prefix`): refused, the Time page again with the form as the GM
    filled it in; valid, the action (`done` with the cleaned data) and `then`. With `ask`, an
    action that cannot be undone: the confirmation page first (`confirm`)."""
    form = form_class(request.POST, prefix=prefix)
    if not form.is_valid():
        _form_error(request, form)
        return _time_again(request, game, **{f"{prefix}_form": form})
    if ask is not None and not confirm.confirmed(request):
        return _ask(request, game, "time", reverse("gm_time", args=[game.id]),
                    lambda: ask(form.cleaned_data), confirm.sent_fields(form))
    _act(request, lambda: done(form.cleaned_data), success)
    return redirect(then, game_id=game.id)


@gm_view(POST)
def pause(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    return _time_action(
        request, game, forms.TimeForm, "pause",
        lambda data: services.pause(game.id, request.user, data["reason"],
                                    data["announcement"]),
        _("The campaign is paused: no deadline passes until you resume it."))


@gm_view(POST)
def resume(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    return _time_action(
        request, game, forms.TimeForm, "resume",
        lambda data: services.resume(game.id, request.user, data["reason"],
                                     data["announcement"]),
        _("The campaign runs again; the deadline moved by the length of the pause."))


@gm_view(POST)
def extend(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    return _time_action(
        request, game, forms.ExtendForm, "extend",
        lambda data: services.extend_deadline(game.id, request.user, data["hours"],
                                              data["reason"], data["announcement"],
                                              phase_number=data["phase"],
                                              deadline_shown=data["deadline"]),
        lambda phase: _("Phase %(number)s's deadline is now %(when)s.")
        % {"number": phase.number, "when": when(phase.deadline)})


@gm_view(POST)
def adjudicate(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    def said(phase: Phase) -> str:
        phase.refresh_from_db(fields=["status"])
        if phase.status == Phase.Status.DRAFTED:
            return _("Phase %(number)s is adjudicated: its draft waits for your review.") % {
                "number": phase.number}
        return _("Phase %(number)s is adjudicated and published.") % {"number": phase.number}

    return _time_action(
        request, game, forms.AdjudicateForm, "adjudicate",
        lambda data: services.adjudicate_now(game.id, request.user, data["reason"],
                                             phase_number=data["phase"]),
        said, "gm_review" if game.review_mode == Game.ReviewMode.REVIEW else "gm_overview",
        ask=lambda data: confirm.adjudicate(game, data["phase"], data["reason"]))


# --- actions: review ------------------------------------------------------------------------

@gm_view(POST)
def publish(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    form = forms.PublishForm(request.POST)
    if not form.is_valid():
        _form_error(request, form)
        phase, state = selectors.current(game)
        return _page(request, game, "gm/review.html", "review", status=400,
                     current=(phase, state),
                     extra=_review_context(game, phase, state, publish_form=form))
    data = form.cleaned_data
    if not confirm.confirmed(request):
        return _ask(request, game, "review", reverse("gm_review", args=[game.id]),
                    lambda: confirm.publish(game, data["phase"], data["announcement"]),
                    confirm.sent_fields(form))
    try:
        services.publish(game.id, request.user, data["announcement"],
                         phase_number=data["phase"])
    except CampaignError as error:
        messages.error(request, str(error))
        return redirect("gm_review", game_id=game.id)
    messages.success(request,
                     _("Published: the players can read the result, and the next phase is "
                       "open."))
    return redirect("gm_overview", game_id=game.id)


@gm_view(POST)
def redraft(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    _act(request, lambda: services.redraft(game.id, request.user,
                                           request.POST.get("reason", "")),
         _("Drafted again from the stored state and orders."))
    return redirect("gm_review", game_id=game.id)


def _back(request: HttpRequest, game: Game, order_for: int | None = None) -> HttpResponse:
    """Back to the page the form was on (review or rulings); with `order_for`, at the order
    forms of that player."""
    page = "gm_review" if request.POST.get("from") == "review" else "gm_rulings"
    url = reverse(page, args=[game.id])
    if order_for is not None:
        url += f"?order_for={order_for}#give-order"
    return redirect(url)


def _again(request: HttpRequest, game: Game, form: BaseForm | None, *,
           annul: tuple[int, int] | None = None, order_for: int | None = None,
           failed: GiveEntry | None = None, ruling: forms.OfferedRulingForm | None = None
           ) -> HttpResponse:
    """A refused ruling: the page it came from again (status 400), with the form as the GM
    filled it in, open, and its errors next to its fields. The form now carries the current
    `state_version`: the page shows the campaign as it is, so sending it again is deliberate."""
    game.refresh_from_db()
    if form is not None and isinstance(form.data, QueryDict):  # a copy of request.POST
        form.data[form.add_prefix("state_version")] = str(game.state_version)
    phase, state = selectors.current(game)
    where = (annul[0], annul[1], form) if annul is not None and form is not None else None
    if request.POST.get("from") == "review":
        return _page(request, game, "gm/review.html", "review", status=400,
                     current=(phase, state),
                     extra=_review_context(game, phase, state, annul=where,
                                          order_for=order_for, failed=failed))
    return _page(request, game, "gm/rulings.html", "rulings", status=400,
                 current=(phase, state),
                 extra=_rulings_context(game, phase, state, annul=where, order_for=order_for,
                                       failed=failed, ruling=ruling))


def _refuse(request: HttpRequest, form: BaseForm, error: CampaignError, field: str | None = None
            ) -> None:
    """A ruling the services refused: the message on top and next to the form (or field)."""
    messages.error(request, f"Not done. {error}")
    form.add_error(None if str(error) == services.STALE_FORM else field, str(error))


@gm_view(POST)
def annul(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    form = forms.AnnulForm(request.POST.copy())
    if not form.is_valid():
        _form_error(request, form)
        seat, index = form.cleaned_data.get("seat"), form.cleaned_data.get("index")
        if seat is None or index is None:  # not from the page's forms
            return _back(request, game)
        return _again(request, game, form, annul=(seat, index))
    data = form.cleaned_data
    try:
        services.annul_order(game.id, request.user, data["seat"], data["index"],
                             data["reason"], data["announcement"],
                             state_version=data["state_version"], revision=data["revision"])
    except CampaignError as error:
        _refuse(request, form, error)
        return _again(request, game, form, annul=(data["seat"], data["index"]))
    messages.success(request, _("The order is annulled."))
    return _back(request, game)


def _about_the_new_order(problems: list[str], index: int) -> list[Problem]:
    """The engine's messages on the orders with the GM's new one (at `index`), for its form:
    a message about it alone loses its "Order N: " and stays by its argument; one about it and
    another order keeps its words; one about the player's other orders only is about the form
    as a whole."""
    out = []
    for problem in problems:
        orders = tuple(getattr(problem, "orders", ()))
        arg = getattr(problem, "arg", None)
        if orders == (index,):
            out.append(Problem(str(problem).removeprefix(f"Order {index + 1}: "), arg, orders))
        else:
            out.append(Problem(str(problem), arg if index in orders else None, orders))
    return out


@gm_view(POST)
def add_order(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    """One of a player's order forms, given by the GM: built from the option it names, read by
    the form, then checked by the engine with the player's other orders (`services.add_order`).
    A refusal comes back on the page with the form as the GM filled it in and each message
    next to its field."""
    _phase, state = selectors.current(game)
    seat = _seat_of(state, request.POST.get("seat"))
    if state is None or seat is None:
        messages.error(request, "Not done. Choose the player the order is for, then fill in "
                                "one of the forms shown for him.")
        return _back(request, game)
    name = state.name(seat)
    data = request.POST.copy()
    option = legal_options(state, seat).get(data.get("option", ""))
    if option is None:
        messages.error(request, f"Not done. That order cannot be given for {name} now: the "
                                "phase or the player's position changed. The forms shown are "
                                f"the ones {name} may use now.")
        return _again(request, game, None, order_for=seat)
    entry = _entry(game, state, seat, option, data)
    valid = entry.form.is_valid()
    valid = entry.gm_form.is_valid() and valid
    if not valid:
        messages.error(request, "Not done. " + " ".join(
            [text for _, text in entry.form.error_links(option.label)]
            + forms.error_lines(entry.gm_form)))
        return _again(request, game, entry.gm_form, order_for=seat, failed=entry)
    cleaned = entry.gm_form.cleaned_data
    try:
        order = entry.form.order()
        services.add_order(game.id, request.user, seat, order, cleaned["reason"],
                           cleaned["announcement"], state_version=cleaned["state_version"])
    except services.GMOrderRefused as refused:
        messages.error(request, f"Not done. {refused}")
        entry.form.place(_about_the_new_order(refused.problems, refused.index))
        return _again(request, game, entry.gm_form, order_for=seat, failed=entry)
    except OrderError as error:
        messages.error(request, f"Not done. {error}")
        entry.form.add_error(None, str(error))
        return _again(request, game, entry.gm_form, order_for=seat, failed=entry)
    except CampaignError as error:
        _refuse(request, entry.gm_form, error)
        return _again(request, game, entry.gm_form, order_for=seat, failed=entry)
    messages.success(request, f"Order given for {name}: {describe_order(state, order)}.")
    return _back(request, game, order_for=seat)


# --- actions: rulings -----------------------------------------------------------------------

@gm_view(POST)
def rule(request: AuthenticatedHttpRequest, game: Game, kind: str) -> HttpResponse:
    """One of the Rulings page's forms: built from the engine's offer now, read, then carried
    out by the engine (`services.rule`). A ruling no longer offered, a value not offered (the
    form's lists are the engine's), or one the engine refuses comes back on the page with the
    form as the GM filled it in and each message next to its field; nothing changes."""
    if kind not in services.PAGE_RULINGS:
        raise Http404
    _phase, state = selectors.current(game)
    if state is None:
        messages.error(request, _("The campaign has not started: there is no state to rule on."))
        return _back(request, game)
    options = ruling_options(state)
    option = options.get(kind)
    if option is None:
        messages.error(request, f"Not done. {RULING_KINDS[kind]}: {options.why_not(kind)}")
        return _again(request, game, None)
    form = forms.OfferedRulingForm(option, request.POST.copy())
    if not form.is_valid():
        _form_error(request, form)
        return _again(request, game, form, ruling=form)
    data = form.cleaned_data
    try:
        entry = services.rule(game.id, request.user, kind, form.values(), data["reason"],
                              data["announcement"], state_version=data["state_version"])
    except services.RulingRefused as refused:
        messages.error(request, f"Not done. {refused}")
        form.place(refused.problems)
        return _again(request, game, form, ruling=form)
    except CampaignError as error:
        _refuse(request, form, error)
        return _again(request, game, form, ruling=form)
    messages.success(request, f"Ruled: {entry.data.get('summary', entry.action)}.")
    broken = entry.data.get("broken_orders") or []
    if broken:
        messages.warning(request, "This ruling leaves orders given by " + ", ".join(broken)
                         + " impossible as they stand: they are marked on their Orders page, "
                         "and not carried out unless changed.")
    return _back(request, game)


# --- actions: rollback and replay -----------------------------------------------------------

@gm_view(POST)
def rollback(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    form = forms.RollbackForm(request.POST, phases=list(game.phases.order_by("-number")))
    if not form.is_valid():
        _form_error(request, form)
        return _page(request, game, "gm/history.html", "history", status=400,
                     extra=_history_context(game, rollback_form=form))
    data = form.cleaned_data
    if not confirm.confirmed(request):
        return _ask(request, game, "history", reverse("gm_history", args=[game.id]),
                    lambda: confirm.rollback(game, data["to_phase"], data["current_phase"],
                                             data["reason"], data["announcement"]),
                    confirm.sent_fields(form))
    _act(request, lambda: services.rollback(
        game.id, request.user, data["to_phase"], data["reason"], data["announcement"],
        current_phase=data["current_phase"]),
        lambda phase: f"Rolled back: phase {phase.number} opens with the state phase "
                      f"{data['to_phase']} started from.")
    return redirect("gm_history", game_id=game.id)


@gm_view(POST)
def replay(request: AuthenticatedHttpRequest, game: Game) -> HttpResponse:
    try:
        report = services.replay_check(game.id, request.user)
    except CampaignError as error:
        messages.error(request, str(error))
        return redirect("gm_history", game_id=game.id)
    return _page(request, game, "gm/history.html", "history",
                 extra=_history_context(game, report))
