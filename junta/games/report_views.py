"""The end report of a finished campaign (its page is the site's, `junta.site.report`, which
adds the award polls) and the archive of finished campaigns.

Both show only what the end of the game revealed (docs/rules.md §secrets: "When the game
ends, everything is revealed"): the report of a campaign still running is 404, and the
archive lists finished campaigns only (and, above them, the campaigns under way that their
GMs let anyone watch some phases behind: `watching`). A finished campaign no longer changes, so
its report is drawn once and kept for every viewer (it says the same to everyone), under a hash
of what it is drawn from (`made_of`: each result that counts by its digest, the families'
lives, the people in the seats) and of the site's code: a rename, a GM's correction or a new
release draws it anew, a vote in an award poll or a speech (which raise the campaign's
revision) does not."""

from __future__ import annotations

from django.core.cache import caches
from django.core.paginator import Paginator
from django.db.models import OuterRef, Q, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from junta.games import campaign_rows, charts, end_report
from junta.games.cache_keys import content_key, site_version
from junta.games.models import Game, PhaseResult, Player
from junta.games.rollbacks import undone
from junta.games.watching import watchable_games

SECONDS = 7 * 24 * 3600


def players_of(game: Game) -> list[Player]:
    """Every player of the campaign with his person and characters (kept rows while a page is
    drawn, else read)."""
    kept = campaign_rows.rows(game.pk)
    if kept is not None:
        return kept.players
    return list(game.players.select_related("user").prefetch_related("characters"))
ARCHIVE_PER_PAGE = 25
WATCHABLE_LISTED = 50


def drawn_report(game: Game) -> tuple[SafeString, SafeString, str]:
    """The report's body, drawn once for everyone (see the module's text), in two parts: the
    outcome and the ranking, then the charts and the families' stories (the awards, which
    change while the players vote, go between them); and its outcome in a sentence, for the
    page's description (the preview of a shared link)."""
    key = content_key("end-report", site_version(), *made_of(game))
    cache = caches["drawings"]
    kept = cache.get(key)
    if kept is None:
        try:
            data = end_report.build(game)
        except end_report.NotFinished as error:
            raise Http404 from error
        drawing = {"game": game, **context(data)}
        kept = (render_to_string("games/_end_report_top.html", drawing),
                render_to_string("games/_end_report.html", drawing), summary(data))
        cache.set(key, kept, SECONDS)
    top, rest, said = kept
    return mark_safe(top), mark_safe(rest), said  # drawn by our own templates, escaped there


def made_of(game: Game) -> tuple[object, ...]:
    """Everything the end report is drawn from (`end_report.build`), its results summed up by
    their digests: one small query, and the campaign's players as a page reads them
    (`selectors.roster`'s rows, kept under the campaign's revision while a page is drawn)."""
    results = list(PhaseResult.objects.filter(phase__game=game, published_at__isnull=False)
                   .exclude(undone()).order_by("phase__number")
                   .values_list("pk", "phase__number", "digest"))
    people = sorted((p.pk, p.seat, str(p.membership), p.user.public_name,
                     sorted((c.pk, c.life, c.name) for c in p.characters.all()))
                    for p in players_of(game) if p.seat is not None)
    return game.pk, str(game.status), results, people


def summary(data: end_report.Report) -> str:
    """"Winner: Dona Pilar (18 MP in Switzerland). 9 turns, 5 coups, 7 deaths." """
    top = data.ranking[0].bank if data.ranking else 0
    turns, coups, deaths = len(data.turns), len(data.coups), data.deaths
    return (f"Winner{'s' if len(data.winners) > 1 else ''}: {' and '.join(data.winners)} "
            f"({top} MP in Switzerland). {turns} turn{'s' if turns != 1 else ''}, {coups} "
            f"coup{'s' if coups != 1 else ''}, {deaths} death{'s' if deaths != 1 else ''}.")


def context(data: end_report.Report) -> dict[str, object]:
    """The report with its charts drawn."""
    money = [(s.name, s.bank) for s in data.stories]
    return {
        "r": data,
        "money_chart": charts.line_chart(
            "chart-money", "Money banked in Switzerland by each family, turn by turn", money),
        "deck_chart": charts.line_chart(
            "chart-deck", "Bills left in the money deck at the end of each turn",
            [("Money deck", data.deck)], y_label="Bills"),
        "votes_chart": charts.bar_chart(
            "chart-votes", "Votes for and against each budget",
            [(b["label"], [("For", b["yes"]), ("Against", b["no"])]) for b in data.budgets]),
        "palette": charts.PALETTE,
    }


def archive(request: HttpRequest) -> HttpResponse:
    """Finished campaigns, newest first: those their GM lists publicly, and those the reader
    ran or played in (a visitor without an account sees the public ones). Each with its
    winners (by Swiss bank), read with the campaigns in one query."""
    last = (PhaseResult.objects.filter(phase__game=OuterRef("pk"), published_at__isnull=False)
            .exclude(undone()).order_by("-phase__number").values("state_after__players")[:1])
    reader = request.user.pk if request.user.is_authenticated else None
    shown = Q(archived_publicly=True)
    if reader is not None:
        shown |= Q(gm_id=reader) | Q(players__user_id=reader)
    games = (Game.objects.filter(status=Game.Status.FINISHED, practice=False).filter(shown)
             .distinct().select_related("gm").annotate(final_players=Subquery(last))
             .order_by("-finished_at", "-pk"))
    page = Paginator(games, ARCHIVE_PER_PAGE).get_page(request.GET.get("page"))
    rows = []
    for game in page:
        ranked = end_report.ranking(getattr(game, "final_players", None) or [])
        rows.append({"game": game, "winners": [r.name for r in ranked if r.place == 1],
                     "top": ranked[0].bank if ranked else 0})
    # the campaigns under way their GMs let anyone signed in watch (`watching`), on the first
    # page, for those signed in (a watching link is the GM's to hand out)
    watchable = list(watchable_games()[:WATCHABLE_LISTED]) \
        if reader is not None and page.number == 1 else []
    return render(request, "games/archive.html",
                  {"page": page, "rows": rows, "watchable": watchable})
