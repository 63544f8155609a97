"""The GM's actions that cannot be undone ask first.

Starting the campaign, adjudicating a phase now, publishing a draft, rolling back, declining,
removing or replacing a player: the button sends its form without the confirmation field, and
the answer is a page of the panel (gm/confirm.html) that says what will happen and to whom, with
a Confirm button and a Cancel link. Only the Confirm button's POST, carrying `confirm=yes` and
every field of the first form (its staleness guards included: the phase, the players' page it
was drawn from), acts; a direct POST without it acts never and shows the same page. Each
`describe_*` function checks the guards once more against the campaign as it stands (a form
drawn for a phase already adjudicated gets its refusal at once, not a question) and writes the
consequences from the rows as they are now; the services check everything again on Confirm.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.forms import BaseForm
from django.http import HttpRequest, QueryDict
from django.urls import reverse
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString

from accounts.public import User
from junta.engine import MIN_PLAYERS, current_phase, is_finished
from junta.games.public import Game, Order, Phase, Player, state_after
from junta.gm import selectors
from junta.gm.services.common import GMError, moved_on, still_on
from junta.gm.templatetags.gm_tags import phase_title

FIELD, YES = "confirm", "yes"
UNDONE = "This cannot be undone."


@dataclass
class Confirmation:
    """What the confirmation page shows: the question (its heading and title), what will happen
    and to whom (`lines`, HTML with everything typed by a person escaped), and the form: the
    fields of the form that asked, sent again with `confirm=yes` by the Confirm button."""

    question: str
    button: str
    lines: list[SafeString]
    action: str = ""
    cancel_url: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)


def confirmed(request: HttpRequest) -> bool:
    """Whether the POST is the Confirm button's (one click on the first form never is)."""
    return request.POST.get(FIELD) == YES


def sent_fields(form: BaseForm) -> list[tuple[str, str]]:
    """The fields of a bound form as the browser sent them (`request.POST`), to be sent again
    on Confirm."""
    data = form.data
    if not isinstance(data, QueryDict):  # not bound to a request's POST: nothing was sent
        return []
    return [(bound.html_name, value) for bound in form for value in data.getlist(bound.html_name)]


def _names(names: Iterable[str]) -> str:
    """"Isabel", "Isabel and Miguel", "Carlos, Isabel and Miguel"."""
    items = list(names)
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _phase(phase: Phase, capital: bool = False) -> str:
    """"phase 3 (turn 1, Cabinet Appointment)" ("Phase 3 ..." with `capital`)."""
    turn = f"turn {phase.turn}, " if phase.turn else ""
    return f"{'P' if capital else 'p'}hase {phase.number} ({turn}{phase_title(phase.kind)})"


def _plain(text: str) -> SafeString:
    """A line of the page written here, without anything typed by a person."""
    return conditional_escape(text)


def _count(n: int, word: str, plural: str = "") -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _families(game: Game) -> list[str]:
    """Every seated family, "Don Carlos (Carlos)", in seat order."""
    return [_who(row) for row in selectors.player_rows(game, None, None)]


def _who(row: selectors.PlayerRow) -> str:
    """A seated player by his family and his own name: "Don Carlos (Carlos)"."""
    return f"{row.name} ({row.player.user.public_name})"


def _said(text: str, what: str) -> list[SafeString]:
    """The announcement (or reason) the GM typed, quoted, when there is one."""
    text = (text or "").strip()
    return [format_html("{}: “{}”", what, text)] if text else []


def adjudicate(game: Game, phase_number: int, reason: str) -> Confirmation:
    """Adjudicating the open phase now (refused, GMError, once the form's phase is past)."""
    phase, state = selectors.current(game)
    still_on(game, phase, phase_number, Phase.Status.OPEN)
    if game.status == Game.Status.PAUSED:
        raise GMError("The campaign is paused: resume it before adjudicating.")
    assert phase is not None and state is not None
    rows = selectors.player_rows(game, phase, state)
    given = [r for r in rows if r.order is not None and r.order.payload]
    missing = [_who(r) for r in rows if r.owes and r not in given]
    not_final = [_who(r) for r in given if not r.order or not r.order.final]
    lines = [format_html(
        "{} is adjudicated now, before its deadline, with the orders as they stand: {}.",
        _phase(phase, capital=True), "nobody has given orders" if not given else
        f"{_count(len(given), 'player')} {'has' if len(given) == 1 else 'have'} given orders")]
    if missing:
        lines.append(format_html(
            "{} {} given none: the defaults apply to {} (<a href=\"{}#missed-orders\">the rules, "
            "Missed orders</a>).", _names(missing), "has" if len(missing) == 1 else "have",
            "him" if len(missing) == 1 else "them", reverse("rules")))
    else:
        lines.append(_plain("Every player called on in this phase has given orders."))
    if not_final:
        lines.append(format_html(
            "{} {} not marked {} orders final: they are taken as they stand.",
            _names(not_final), "has" if len(not_final) == 1 else "have",
            "his" if len(not_final) == 1 else "their"))
    if game.review_mode == Game.ReviewMode.REVIEW:
        lines.append(format_html(
            "The result is drafted for your review: the players see nothing of it until you "
            "publish it. Their orders for {} can no longer be changed.", _phase(phase)))
    else:
        lines.append(format_html(
            "The result is published at once to every player ({}) and e-mailed to those who "
            "take the results by mail; the next phase opens.", _names(_families(game))))
    return Confirmation(f"Adjudicate {_phase(phase)} now?", f"Adjudicate phase {phase.number} now",
                        [*lines, *_said(reason, "Your reason, for the audit log"),
                         _plain(UNDONE)])


def publish(game: Game, phase_number: int, announcement: str) -> Confirmation:
    """Publishing the drafted result (refused once the form's phase is no longer drafted)."""
    phase, _state = selectors.current(game)
    still_on(game, phase, phase_number, Phase.Status.DRAFTED, "published")
    if phase is None or phase.status != Phase.Status.DRAFTED:
        raise GMError("No drafted result waits for publication.")
    after = state_after(phase.result)
    lines = [format_html(
        "The draft of {}, as the Review page shows it, is published to every player ({}): "
        "each reads its events on his pages, and it is e-mailed to those who take the results "
        "by mail.", _phase(phase), _names(_families(game)))]
    if is_finished(after):
        lines.append(_plain("It ends the game: the campaign is finished and its end report "
                            "is written."))
    else:
        lines.append(format_html("Phase {} ({}) opens, with its deadline, and the players give "
                                 "their orders for it.", phase.number + 1,
                                 current_phase(after).title))
    return Confirmation(f"Publish the result of {_phase(phase)}?",
                        f"Publish phase {phase.number}",
                        [*lines, *_said(announcement, "Your announcement, on the Events page"),
                         _plain(UNDONE)])


def rollback(game: Game, to_phase: int, current_number: int, reason: str, announcement: str
             ) -> Confirmation:
    """Rolling back to the start of phase `to_phase` (refused once the current phase is no
    longer the one the form was drawn for)."""
    current = game.phases.order_by("-number").first()
    if current is None:
        raise GMError("The campaign has not started: there is nothing to roll back.")
    if current.number != current_number:
        raise moved_on(game, current_number)
    target = game.phases.filter(number=to_phase).first()
    if target is None or target.number >= current.number:
        raise GMError(f"Roll back to an earlier phase: phase {current.number} is the current "
                      "one.")
    undone = current.number - target.number + 1
    lines = [format_html(
        "Phase {} opens for every player ({}) with the state {} started from.",
        current.number + 1, _names(_families(game)), _phase(target)),
        format_html(
        "{} undone: {} to {}. Their orders and results stay in the history, marked undone; "
        "every death since is undone with them.",
        "The phase is" if undone == 1 else f"The {undone} phases are",
        _phase(target, capital=True), _phase(current))]
    if current.status == Phase.Status.DRAFTED:
        lines.append(format_html("The draft of {}, waiting for your review, is never "
                                 "published.", _phase(current)))
    if current.status in (Phase.Status.OPEN, Phase.Status.DRAFTED):
        ordered = [o.player for o in Order.objects.filter(phase=current).exclude(payload=[])
                   .select_related("player__user").prefetch_related("player__characters")
                   .order_by("player__seat")]
        if ordered:
            n = len(ordered)
            lines.append(format_html(
                "{} {} given orders for phase {}: {} must give them again in the new phase "
                "(with any note to you).",
                _names(f"{_character(p)} ({p.user.public_name})" for p in ordered),
                "has" if n == 1 else "have", current.number,
                "he" if n == 1 else f"these {n} players"))
        else:
            lines.append(format_html("Nobody has given orders for phase {}.", current.number))
    return Confirmation(f"Roll back to the start of {_phase(target)}?",
                        f"Roll back to phase {target.number}",
                        [*lines, *_said(reason, "Your reason, for the audit log"),
                         *_said(announcement, "Your announcement, on the Events page"),
                         _plain(UNDONE)])


def player_named(game: Game, player_id: int) -> Player:
    player = game.players.select_related("user").prefetch_related("characters") \
        .filter(pk=player_id).first()
    if player is None:
        raise GMError("There is no such player in this campaign.")
    return player


def _character(player: Player) -> str:
    character = player.character
    return character.name if character else f"Family {player.engine_seat + 1}"


def remove(game: Game, player: Player, reason: str) -> Confirmation:
    """Declining a request to join, or removing a seated player while the campaign forms:
    the question, the button and what happens."""
    who = f"{_character(player)} ({player.user.public_name}, {player.user.email})"
    if player.membership == Player.Membership.PENDING:
        question = f"Decline {player.user.public_name}'s request to join?"
        lines = [format_html("{} does not join {}: the request is closed.", who, game.name)]
        button = f"Decline {_character(player)}"
    elif player.membership == Player.Membership.ACTIVE and game.status == Game.Status.FORMING:
        question = f"Remove {_character(player)} from {game.name}?"
        lines = [format_html("{} gives up seat {} and leaves {}; the seats after it close up "
                             "when the campaign starts.", who, (player.seat or 0) + 1,
                             game.name)]
        button = f"Remove {_character(player)}"
    elif player.membership == Player.Membership.ACTIVE:
        raise GMError(f"{game.name} has started: the seat stays in the game. Replace "
                      f"{player.user.public_name} by another person instead.")
    else:
        raise GMError(f"{player.user.public_name} is no longer in {game.name}.")
    lines.append(format_html("To play, {} must ask to join again (and be approved, if the "
                             "campaign asks for approval).", player.user.public_name))
    return Confirmation(question, button, [*lines, *_said(reason, "Your reason, for the audit "
                                                                 "log"), _plain(UNDONE)])


def replace(game: Game, player: Player, email: str, character_name: str, reason: str,
            announcement: str) -> Confirmation:
    """Replacing a seated player of a running campaign by the person with `email`."""
    if player.membership != Player.Membership.ACTIVE or game.status in (
            Game.Status.FORMING, Game.Status.FINISHED):
        raise GMError("Only a seated player of a running campaign can be replaced.")
    newcomer = User.objects.filter(email__iexact=email.strip()).first() if email else None
    if newcomer is None:
        raise GMError(f"Nobody has an account with the e-mail address {email or '(none)'}: "
                      "ask the newcomer to sign up first.")
    seat = player.engine_seat + 1
    name = character_name.strip() or _character(player)
    return Confirmation(f"Replace {player.user.public_name} by {newcomer.public_name}?",
                        f"Replace {player.user.public_name}", [
        format_html("{} ({}) leaves seat {} for good: {} no longer plays in {} nor reads the "
                    "family's private conversations. Past orders and speeches stay theirs.",
                    player.user.public_name, player.user.email, seat,
                    player.user.public_name, game.name),
        format_html("{} ({}) takes seat {} as {}, with its money, cards, positions, orders in "
                    "progress and private conversations.", newcomer.public_name,
                    newcomer.email, seat, name),
        *_said(reason, "Your reason, for the audit log"),
        *_said(announcement, "Your announcement, on the Events page"),
        _plain(UNDONE)])


def start(game: Game) -> Confirmation:
    """Starting the campaign (refused once it has started)."""
    if game.status != Game.Status.FORMING:
        raise GMError(f"{game.name} has already started.")
    families = _families(game)
    if len(families) < MIN_PLAYERS:
        raise GMError(f"{game.name} needs at least {MIN_PLAYERS} seated players to start; it "
                      f"has {len(families)}.")
    pending = [p.user.public_name for p in game.players.select_related("user")
               .filter(membership=Player.Membership.PENDING)]
    lines = [format_html(
        "{} {} {}, in this seat order: {}. The cards are dealt and the nominations open, with "
        "the first deadline.", game.name, "begins with", _count(len(families), "player"),
        format_html_join(", ", "{}", ((f,) for f in families)))]
    lines.append(_plain(
        "Nobody else can join: a seat then changes hands only when you replace its player; "
        "the number of players, who may join and the hidden extra bills are fixed."))
    if pending:
        lines.append(format_html("{} {} waiting for your approval: {} request{} can no "
                                 "longer be approved.", _names(pending),
                                 "is" if len(pending) == 1 else "are",
                                 "the" if len(pending) == 1 else "their",
                                 "" if len(pending) == 1 else "s"))
    return Confirmation(f"Start {game.name}?", "Start the campaign",
                        [*lines, _plain(UNDONE)])
