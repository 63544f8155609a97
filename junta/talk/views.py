"""The pages of private conversations: the list (and a form to start one), a conversation (read
and write), its new messages for a page left open (JSON, answered 304 when nothing changed),
leaving, agreeing to reveal after the end, and the revealed conversations."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.public import AuthenticatedHttpRequest, User
from junta.games.public import Game, Player, form_error_lines, game_for, kept_for_viewer
from junta.talk import access, consent, selectors, services
from junta.talk.access import Reader
from junta.talk.forms import MessageForm, StartForm
from junta.talk.models import Conversation, Member

MESSAGES_PER_PAGE = 100
POLL_LIMIT = 50  # new messages sent to an open page at a time


def _reader(request: AuthenticatedHttpRequest, game_id: int) -> tuple[Game, Reader]:
    game = game_for(request.user, game_id)
    return game, _reader_in(game, request.user)


def _reader_in(game: Game, user: User) -> Reader:
    reader = access.reader_for(game, user)
    if reader is None:
        raise Http404("Only the campaign's players and its GameMaster talk here.")
    return reader


def _conversation(reader: Reader, conversation_id: int) -> Conversation:
    conversation = Conversation.objects.filter(pk=conversation_id, game=reader.game).first()
    if conversation is None or not access.may_read(conversation, reader):
        raise Http404("No such conversation of yours.")
    return conversation


def _others(reader: Reader) -> list[Player]:
    players = (reader.game.players.filter(membership=Player.Membership.ACTIVE)
               .select_related("user").prefetch_related("characters").order_by("seat"))
    return [p for p in players if reader.player is None or p.pk != reader.player.pk]


def _index_context(reader: Reader, form: StartForm | None = None) -> dict[str, object]:
    game = reader.game
    unread = selectors.unread_by_conversation(reader.user, game.id)
    rows = list(access.readable(reader).prefetch_related("members"))
    conversations = []
    for c in rows:
        member = next((m for m in c.members.all()
                       if m.user_id == reader.user.id and m.left_at is None), None)
        conversations.append({
            "conversation": c, "unread": unread.get(c.id, 0), "member": member is not None,
            "names": [m.name for m in c.members.all()
                      if m.left_at is None and m.user_id != reader.user.id],
        })
    return {
        "game": game, "reader": reader, "conversations": conversations,
        "form": form or StartForm(players=_others(reader), gm_form=reader.is_gm),
        "blocked": access.why_not_send(reader, False),
        "finished": game.status == Game.Status.FINISHED,
        "left_asked": consent.left_and_asked(game, reader.user.id),
    }


@login_required
@require_GET
def index(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    _game, reader = _reader(request, game_id)
    return render(request, "talk/index.html", _index_context(reader))


@login_required
@require_POST
def start(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game, reader = _reader(request, game_id)
    form = StartForm(request.POST, players=_others(reader), gm_form=reader.is_gm)
    if form.is_valid():
        data = form.cleaned_data
        try:
            conversation = services.start(reader, data["subject"], list(data["players"]),
                                          bool(data.get("with_gm")), data["body"])
        except services.TalkError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your conversation has begun."))
            return redirect("talk_conversation", game_id=game.id,
                            conversation_id=conversation.id)
    return render(request, "talk/index.html", _index_context(reader, form), status=400)


OUT_OF_IT = {
    Player.Membership.REPLACED: gettext_noop(
        "The GameMaster has given your family to another player: its conversations went with "
        "the seat, and you no longer write in them."),
    Player.Membership.REMOVED: gettext_noop(
        "The GameMaster has removed you from this campaign: you are no longer in its "
        "conversations."),
}
SENT = gettext_noop("Your message is sent.")
LEFT_IT = gettext_noop("You have left this conversation (in another window?), so nobody in it "
                       "can read what you write there now.")


def _why_out(game: Game, user: User, conversation_id: int) -> str | None:
    """Why a message sent from a page of this conversation drawn earlier cannot go: the
    GameMaster replaced or removed him since (the same answer for any conversation: it tells
    nothing of them), or he left it, in another window or as he sent. None when neither."""
    if access.reader_for(game, user) is None:
        gone = (game.players.filter(user=user, membership__in=list(OUT_OF_IT))
                .order_by("-id").values_list("membership", flat=True).first())
        return _(OUT_OF_IT[Player.Membership(gone)]) if gone else None
    if Member.objects.filter(conversation_id=conversation_id, conversation__game=game,
                             user=user, left_at__isnull=False).exists():
        return _(LEFT_IT)
    return None


def _by_script(request: AuthenticatedHttpRequest) -> bool:
    """The conversation's form sent by its page's script (static/js/talk.js), which shows the
    message sent in place: it asks for JSON. A form sent by the browser alone asks for a page."""
    return request.headers.get("Accept") == "application/json"


def _not_sent_json(errors: list[str], status: int) -> JsonResponse:
    return JsonResponse({"sent": False, "errors": errors}, status=status)


def _not_sent(request: AuthenticatedHttpRequest, game: Game, why: str) -> HttpResponse:
    """He is out of the conversation (`_why_out`): what he typed is shown back, not lost with
    a 404 (his page's script keeps it in the box and says why)."""
    if _by_script(request):
        return _not_sent_json([why], 409)
    return render(request, "talk/left.html", {
        "game": game, "why": why, "text": request.POST.get("body", ""),
        "still_talks": why == _(LEFT_IT)}, status=409)


@login_required
@kept_for_viewer
@require_http_methods(["GET", "POST"])
def conversation(request: AuthenticatedHttpRequest, game_id: int,
                 conversation_id: int) -> HttpResponse:
    game = game_for(request.user, game_id)
    if request.method == "POST" and (why := _why_out(game, request.user, conversation_id)):
        return _not_sent(request, game, why)
    reader = _reader_in(game, request.user)
    talk = _conversation(reader, conversation_id)
    me = access.membership(talk, reader)
    form = MessageForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                message = services.post(talk, reader, form.cleaned_data["body"])
            except services.NotAMember as error:
                # he left, or the GameMaster replaced or removed him, while it was being sent
                if why := _why_out(game, reader.user, talk.id):
                    return _not_sent(request, game, why)
                form.add_error(None, str(error))
            except services.TalkError as error:
                form.add_error(None, str(error))
            else:
                if _by_script(request):  # shown in place: the page stays, nothing to reload
                    return JsonResponse({
                        "sent": True, "message": _(SENT), "id": message.id,
                        "html": render_to_string("talk/_message.html",
                                                 {"message": message, "reader": reader})})
                messages.success(request, _(SENT))
                url = reverse("talk_conversation", args=[game.id, talk.id])
                return redirect(f"{url}#m{message.id}")
        if _by_script(request):
            return _not_sent_json(form_error_lines(form), 400)
        status = 400
    shown = talk.messages.order_by("-id")
    page = Paginator(shown, MESSAGES_PER_PAGE).get_page(request.GET.get("page"))
    listed = list(reversed(page.object_list))
    newest = talk.messages.order_by("-id").first()
    last_id = newest.id if newest else 0
    read_until = me.read_until if me else None
    for message in listed:  # marked "new" for a member: written by another since he last read
        message.is_new = bool(  # type: ignore[attr-defined]
            me and message.author_id != reader.user.id
            and (read_until is None or message.created_at > read_until))
    if me is not None and page.number == 1 and request.method == "GET":
        services.mark_read(me, newest)
    members = list(talk.members.all())
    return render(request, "talk/conversation.html", {
        "game": game, "reader": reader, "talk": talk, "me": me, "form": form,
        "listed": listed, "page": page, "last_id": last_id,
        "members": [m for m in members if m.left_at is None],
        "left": [m for m in members if m.left_at is not None],
        "blocked": access.why_not_send(reader, access.to_gm_only(talk, reader))
        if me else None,
        "finished": game.status == Game.Status.FINISHED,
        "waiting_for": [m.name + (" " + _("(who left it)") if m.left_at else "")
                        for m in consent.waiting_for(talk, game)]
        if game.status == Game.Status.FINISHED and talk.revealed_at is None else [],
    }, status=status)


@login_required
@require_GET
def new_messages(request: AuthenticatedHttpRequest, game_id: int,
                 conversation_id: int) -> HttpResponse:
    """The messages after `?after=<id>` for a conversation page left open: JSON, each message
    drawn as the page draws it. `If-None-Match` with the ETag of the last answer gets a 304
    when nothing new was written. `read=1` (the page is in view) marks them read."""
    _game, reader = _reader(request, game_id)
    talk = _conversation(reader, conversation_id)
    after_text = request.GET.get("after", "0")
    if not after_text.isdigit() or len(after_text) > 18:
        return JsonResponse({"error": "after must be a message id (a whole number)",
                             "field": "after"}, status=400)
    after = int(after_text)
    last_id = talk.messages.order_by("-id").values_list("id", flat=True).first() or 0
    me = access.membership(talk, reader)
    # the reader's own: the messages are drawn for him (his are marked), and read only with read=1
    read = int(request.GET.get("read") == "1")
    etag = f'"talk-{talk.id}-{request.user.pk}-{after}-{last_id}-{read}"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    rows = list(talk.messages.filter(id__gt=after).order_by("id")[:POLL_LIMIT])
    if rows and request.GET.get("read") == "1" and me is not None:
        services.mark_read(me, rows[-1])
    payload = {
        "messages": [{"id": m.id, "author": m.author_name,
                      "html": render_to_string("talk/_message.html",
                                               {"message": m, "reader": reader})}
                     for m in rows],
        "last": rows[-1].id if rows else after,
    }
    response = JsonResponse(payload)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_POST
def leave(request: AuthenticatedHttpRequest, game_id: int, conversation_id: int) -> HttpResponse:
    game, reader = _reader(request, game_id)
    talk = _conversation(reader, conversation_id)
    try:
        services.leave(talk, reader)
    except services.TalkError as error:
        messages.error(request, str(error))
        return redirect("talk_conversation", game_id=game.id, conversation_id=talk.id)
    messages.success(request, _("You left “%(subject)s”.") % {"subject": talk.subject})
    return redirect("talk_index", game_id=game.id)


@login_required
@require_POST
def reveal(request: AuthenticatedHttpRequest, game_id: int,
           conversation_id: int) -> HttpResponse:
    """Agree to reveal it after the end: a member, or one who left it after writing in it (from
    the list of conversations, since he reads it no more)."""
    game, reader = _reader(request, game_id)
    talk = Conversation.objects.filter(pk=conversation_id, game=game).first()
    if talk is None or not (access.may_read(talk, reader)
                            or talk.members.filter(user=reader.user).exists()):
        raise Http404("No such conversation of yours.")
    try:
        revealed = services.agree_to_reveal(talk, reader)
    except services.TalkError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Everyone agreed: the conversation is in the History now.")
                         if revealed else _("Agreed. It is revealed once everyone in it, and "
                                            "everyone who wrote in it, agrees."))
    if access.membership(talk, reader) is None and not access.may_read(talk, reader):
        return redirect(reverse("talk_index", args=[game.id]) + "#left-talks")
    return redirect("talk_conversation", game_id=game.id, conversation_id=talk.id)


@login_required
@require_GET
def revealed(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """The conversations revealed once the game was over: public, each with the messages of
    those who agreed only (`junta.talk.consent`)."""
    game = game_for(request.user, game_id)
    return render(request, "talk/revealed.html", {"game": game,
                                                  "conversations": consent.revealed(game)})
