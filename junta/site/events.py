"""A campaign's Events page: the speeches and the GameMaster's announcements (the players' side)
with the mention of the open polls (the polls), and this turn's phase reports."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render

from accounts.public import AuthenticatedHttpRequest
from junta.games.public import (
    AnnouncementForm,
    CampaignError,
    EventsItem,
    Game,
    Phase,
    SpeechForm,
    current_turn_results,
    drawn_entries,
    drawn_reports,
    events_items,
    events_reader,
    game_for,
    kept_for_viewer,
    mark_new,
    mark_seen,
    outsider_sent_to,
    phase_title,
    post_speech,
    render_markdown,
    seen_until,
    speaker_for,
    unread_speeches,
    why_silent,
)
from junta.games.public import quote as quote_speech
from junta.games.public import speeches as shown_speeches

SPEECHES_PER_PAGE = 20


@login_required
@kept_for_viewer
def events(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """The Events page: first the form to speak and the speeches, newest first (the GM's
    announcements among them), what is new since the reader's last visit marked; then this
    turn's phase reports. `?reply_to=<id>` opens the form with that speech quoted;
    `?phase=<number>` shows only the speeches made while that phase of the campaign was open
    (the History links there); a phase the campaign does not have is 404."""
    game = game_for(request.user, game_id)
    if watching := outsider_sent_to(game, request.user, "events"):
        return redirect(watching)  # an outsider of a campaign under way watches it, or 404
    phase = _phase_asked(game, request.GET.get("phase"))
    speaker = speaker_for(game, request.user)
    silent = why_silent(game, speaker[0]) if speaker else None
    preview = None
    status = 200
    refused_text = ""
    if request.method == "POST":
        form = SpeechForm(request.POST)
        if speaker is None:
            raise Http404
        if form.is_valid():
            body = form.cleaned_data["body"]
            if "preview" in request.POST and not silent:
                preview = render_markdown(body)
            else:
                try:
                    post_speech(game, request.user, body, form.cleaned_data["reply_to"])
                except CampaignError as error:
                    form.add_error(None, str(error))
                    refused_text = body  # shown back when the form is not: nothing is lost
                    status = 400
                else:
                    messages.success(request, "Your speech is at the top of the Events page.")
                    return redirect("game_events", game_id=game.id)
        else:
            status = 400
    else:
        form = _speech_form(game, request.GET.get("reply_to"))
    reply_to_id = form["reply_to"].value()
    replying_to = (
        game.speeches.filter(pk=reply_to_id).first() if str(reply_to_id or "").isdigit() else None
    )
    shown = shown_speeches(game)
    if phase is not None:
        shown = shown.filter(phase=phase)
    page = Paginator(shown, SPEECHES_PER_PAGE).get_page(request.GET.get("page"))
    items = events_items(game, page, phase)
    new_count = _mark_new(request, game, items, first=page.number == 1 and phase is None)
    latest = current_turn_results(game)
    is_gm = game.gm_id == request.user.id
    context = {
        "game": game, "page": page, "items": items, "form": form, "preview": preview,
        # each entry drawn once and kept (a new speech is the one entry drawn)
        "drawn_items": drawn_entries(items, may_reply=bool(speaker and not silent)),
        "speaker": speaker, "silent": silent, "refused_text": refused_text,
        "replying_to": replying_to, "new_count": new_count,
        "first_new": next((i for i in items if i.new), None),
        "announce_form": AnnouncementForm(prefix="announce") if is_gm else None,
        # the viewer, from the speaker already read: the GM, a seated player's seat, or nobody
        "latest": drawn_reports(
            game, "gm" if is_gm else
            speaker[0].seat if speaker and speaker[0] else None, latest),
        "latest_turn": latest[0].phase.turn if latest else None,
        "phase": phase, "phase_title": phase_title(phase) if phase else "",
        "phase_query": f"phase={phase.number}" if phase else "",
    }
    return render(request, "site/events.html", context, status=status)


def _speech_form(game: Game, reply_to: str | None) -> SpeechForm:
    """The empty form to speak; answering a speech of the campaign (`?reply_to=<id>`), it
    opens with that speech quoted, as forums do, and keeps the link to it."""
    if not (reply_to or "").isdigit() or len(reply_to or "") > 18:
        return SpeechForm()
    answered = game.speeches.filter(pk=int(reply_to or 0)).first()
    if answered is None:
        return SpeechForm()
    return SpeechForm(initial={"reply_to": answered.pk, "body": quote_speech(answered)})


def _mark_new(request: AuthenticatedHttpRequest, game: Game,
              items: list[EventsItem], *, first: bool) -> int:
    """Mark what is new to the reader (the GM or a seated player) since his last visit; how
    many there are on every page. Reading the first page of every speech moves his point
    forward to the newest of them: written only when there is something new, so a reload
    writes nothing (`mark_seen`)."""
    if not events_reader(game, request.user):
        return 0
    since = seen_until(game, request.user)
    mark_new(items, game, request.user, since)
    count = unread_speeches(game, request.user, since, known=True)
    new = [entry.created_at for entry in items if entry.new]
    if first and new:
        mark_seen(game, request.user, max(new))
    return count


def _phase_asked(game: Game, number: str | None) -> Phase | None:
    """The phase of `game` that `?phase=` names by its number; None without one; 404 for a
    phase the campaign does not have."""
    if number is None:
        return None
    if not number.isdigit() or len(number) > 9:
        raise Http404
    phase = game.phases.filter(number=int(number)).first()
    if phase is None:
        raise Http404
    return phase
