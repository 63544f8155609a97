"""The polls page of a campaign (its polls and awards, and a form to post one), a poll's own page
(vote, results), closing, and opening the awards at the end (docs/rules.md §polls). Only the
campaign's seated players and its GameMaster see them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.public import AuthenticatedHttpRequest
from junta.games.public import Game, Player, game_for, kept_for_viewer
from junta.polls import selectors, services
from junta.polls.forms import AwardsForm, PollForm, VoteForm
from junta.polls.models import Poll


def _viewer(request: AuthenticatedHttpRequest, game_id: int) -> tuple[Game, Player | None]:
    game = game_for(request.user, game_id)
    seat = services.seat_of(game, request.user)
    if seat is None and game.gm_id != request.user.id:
        raise Http404("Only the campaign's players and its GameMaster see its polls.")
    return game, seat


def _poll(game: Game, poll_id: int) -> Poll:
    poll = Poll.objects.filter(pk=poll_id, game=game).first()
    if poll is None:
        raise Http404("No such poll.")
    return poll


def _index(request: AuthenticatedHttpRequest, game: Game, seat: Player | None,
           form: PollForm | None = None, status: int = 200) -> HttpResponse:
    polls = list(game.polls.select_related("author").prefetch_related("choices"))
    rows = [selectors.shown(p, seat) for p in polls]
    may_post = services.may_post(game, request.user, seated=seat is not None)
    context: dict[str, object] = {
        "game": game, "seat": seat,
        "polls": [r for r in rows if r.poll.kind == Poll.Kind.POLL],
        "awards": sorted((r for r in rows if r.poll.kind == Poll.Kind.AWARD),
                         key=lambda r: r.poll.id),  # in the order they were opened
        "form": (form or PollForm(zone=request.user.time_zone)) if may_post else None,
        "awards_form": AwardsForm() if (game.gm_id == request.user.id
                                        and game.status == Game.Status.FINISHED) else None,
    }
    return render(request, "polls/index.html", context, status=status)


@login_required
@kept_for_viewer
@require_GET
def index(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game, seat = _viewer(request, game_id)
    return _index(request, game, seat)


@login_required
@require_POST
def new(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game, seat = _viewer(request, game_id)
    form = PollForm(request.POST, zone=request.user.time_zone)
    if form.is_valid():
        data = form.cleaned_data
        try:
            poll = services.post_poll(game, request.user, data["question"], data["choices"],
                                      multiple=data["multiple"], anonymous=data["anonymous"],
                                      live=data["live"], closes_at=data["closes_at"])
        except services.PollError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your poll is open."))
            return redirect("polls_detail", game_id=game.id, poll_id=poll.id)
    if not services.may_post(game, request.user, seated=seat is not None):
        return _index(request, game, seat, status=403)
    return _index(request, game, seat, form=form, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def detail(request: AuthenticatedHttpRequest, game_id: int, poll_id: int) -> HttpResponse:
    game, seat = _viewer(request, game_id)
    poll = _poll(game, poll_id)
    shown = selectors.shown(poll, seat)
    form = None
    status = 200
    if seat is not None and not shown.closed:
        exclude = seat.pk if poll.kind == Poll.Kind.AWARD else None
        form = VoteForm(request.POST or None, poll=poll, mine=shown.mine, exclude=exclude)
    if request.method == "POST":
        if form is None:
            form = VoteForm(request.POST, poll=poll)
            form.is_valid()
            form.add_error(None, _("This poll is closed: your vote was not counted.")
                           if shown.closed else _("Only the campaign's seated players vote."))
        elif form.is_valid():
            try:
                services.vote(poll.id, request.user, form.chosen(), form.replacing())
            except services.VoteChanged as error:
                messages.error(request, str(error))
                return redirect("polls_detail", game_id=game.id, poll_id=poll.id)
            except services.PollError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Your vote is counted. You may change it until the "
                                               "poll closes.")
                                 if poll.closes_at or poll.kind == Poll.Kind.AWARD
                                 else _("Your vote is counted."))
                return redirect("polls_detail", game_id=game.id, poll_id=poll.id)
        status = 400
        shown = selectors.shown(poll, seat)
    return render(request, "polls/detail.html", {
        "game": game, "seat": seat, "shown": shown, "poll": poll, "form": form,
        "may_close": not shown.closed and request.user.id in (game.gm_id, poll.author_id),
    }, status=status)


@login_required
@require_POST
def close(request: AuthenticatedHttpRequest, game_id: int, poll_id: int) -> HttpResponse:
    """Closing cannot be undone: the Close button leads to a page saying who has voted and who
    sees what once it is closed; only its Confirm button (`confirm=yes`) closes the poll."""
    game, _seat = _viewer(request, game_id)
    poll = _poll(game, poll_id)
    if request.POST.get("confirm") != "yes":
        shown = selectors.shown(poll, None)
        refusal = (_("This poll is closed already.") if shown.closed else
                   _("Only the GameMaster or the poll's author closes it.")
                   if request.user.id not in (game.gm_id, poll.author_id) else "")
        if refusal:
            messages.error(request, refusal)
            return redirect("polls_detail", game_id=game.id, poll_id=poll.id)
        return render(request, "polls/close.html", {
            "game": game, "poll": poll, "shown": shown,
            "seated": game.players.filter(membership=Player.Membership.ACTIVE).count()})
    try:
        services.close(poll.id, request.user)
    except services.PollError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The poll is closed: its results show."))
    return redirect("polls_detail", game_id=game.id, poll_id=poll.id)


@login_required
@require_POST
def open_awards(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game, seat = _viewer(request, game_id)
    form = AwardsForm(request.POST)
    if form.is_valid():
        try:
            services.open_awards(game, request.user, form.names())
        except services.PollError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The awards are open: the players vote now."))
        return redirect("polls_index", game_id=game.id)
    return _index(request, game, seat, status=400)
