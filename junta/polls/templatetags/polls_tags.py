"""The one-line mention of open polls on the Events page, and the award results for the end
report (nothing while the awards are open; never a voter's name)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from accounts.public import User
from junta.games.public import Game, Player, seated
from junta.polls import selectors, services

register = template.Library()


@register.simple_tag(takes_context=True)
def open_polls(context: template.Context, game: Game) -> SafeString | str:
    """The open polls, each with a link and whether the viewer voted, and a link to post one
    for those who may: for the campaign's players and GameMaster only."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    seat = seated(game, user)  # the seat the page read already, if it did
    if user.id != game.gm_id and seat is None:
        return ""
    polls = selectors.open_polls(game, seat)
    may_post = services.may_post(game, user, seated=seat is not None)
    if not polls and not may_post:
        return ""
    return render_to_string("polls/_open_polls.html", {
        "game": game, "polls": polls, "seat": seat, "may_post": may_post})


@register.simple_tag(takes_context=True)
def award_results(context: template.Context, game: Game) -> SafeString | str:
    """The closed awards' results, and how many are still open (with a link to vote for the
    campaign's players, to close them for its GameMaster)."""
    results = selectors.award_results(game)
    still_open = selectors.open_awards(game)
    if not results and not still_open:
        return ""
    user = context.get("user")
    is_gm = user is not None and user.is_authenticated and user.id == game.gm_id
    member = is_gm or (user is not None and user.is_authenticated and game.players.filter(
        user=user, membership=Player.Membership.ACTIVE).exists())
    return render_to_string("polls/_award_results.html", {
        "game": game, "results": results, "still_open": still_open, "member": member,
        "is_gm": is_gm})


@register.simple_tag
def awards_won_by(user: User) -> SafeString | str:
    """The awards the person won, for his profile (nothing when none)."""
    won = selectors.awards_won(user)
    if not won:
        return ""
    return render_to_string("polls/_awards_won.html", {"won": won})
