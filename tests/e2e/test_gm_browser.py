"""A GameMaster on a phone reviews a drafted phase, makes a ruling, publishes it, and the players'
pages show the result."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from junta.engine import GameState, catalog
from junta.engine.bots import bot_orders
from junta.engine.rng import Rng
from junta.games import adjudication, order_intake, repository
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import AuditEntry, Game, Order, Phase

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PASSWORD = "papaya-Republic-1977"
NAMES = ["Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena"]
REASON = "Isabel's card was lost in the mail (GM-only reason)"
ANNOUNCEMENT = "By order of the GameMaster, a lost card goes to Don Carlos."


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def axe_problems(page) -> list[str]:
    """axe-core's serious and critical WCAG 2.2 AA findings on the page shown."""
    from axe_playwright_python.base import AXE_SCRIPT

    page.evaluate(AXE_SCRIPT)
    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
    found = page.evaluate("options => axe.run(document, options)",
                          {"runOnly": {"type": "tag", "values": tags}})
    return [f"{v['id']}: {v['help']}: {[n['html'] for n in v['nodes']]}"
            for v in found["violations"] if v["impact"] in ("serious", "critical")]


def account(email: str, name: str):
    user = get_user_model().objects.create_user(email=email, password=PASSWORD,
                                                display_name=name)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def log_in(page, base: str, email: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{base}/")


def bots_play(game: Game, until: str) -> Phase:
    """Bots give every seat's orders, phase after phase, until a phase of kind `until` opens."""
    rng = Rng("gm-browser")
    users = {p.seat: p.user for p in game.players.filter(membership="active")}
    for _ in range(20):
        phase = Phase.objects.get(game=game, status="open")
        state = repository.state_before(phase)
        version = Game.objects.get(pk=game.pk).state_version
        for seat in state.active_seats():
            orders = [o.to_dict() for o in bot_orders(state, seat, rng)]
            order_intake.submit_orders(phase.id, users[seat], orders, state_version=version,
                                  final=True, now=phase.opens_at + timedelta(minutes=1))
        if phase.kind == until:
            return phase
        adjudication.adjudicate_phase(phase.id, now=phase.deadline, force=True)
    raise AssertionError(f"no {until} phase")


def test_a_gm_reviews_rules_and_publishes_on_a_phone(live_server, browser):
    gm = account("gm@example.org", "The GM")
    game = create_game(gm, "Papayas", join_policy=Game.JoinPolicy.OPEN)
    for i, name in enumerate(NAMES):
        join_game(game.id, account(f"p{i}@example.org", name), f"Don {name}")
    Game.objects.filter(pk=game.pk).update(seed="gm-browser")  # the same deal every run
    start_campaign(game.id, gm)
    phase = bots_play(game, until="cabinet")  # turn 1: everyone holds 4 cards
    Game.objects.filter(pk=game.pk).update(review_mode=Game.ReviewMode.REVIEW)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)  # the sweep drafts it
    phase.refresh_from_db()
    assert phase.status == Phase.Status.DRAFTED
    state = repository.state_before(phase)
    card = state.players[1].hand[0]
    card_name = catalog.card(card).name
    assert card not in state.players[0].hand

    base = live_server.url
    gm_context = browser.new_context(viewport={"width": 375, "height": 740})
    page = gm_context.new_page()
    log_in(page, base, "gm@example.org")
    page.goto(f"{base}/games/{game.id}/status/")
    page.get_by_role("link", name="GM panel").click()
    assert "waits for your review" in page.content()
    assert no_horizontal_scroll(page)

    # review: the draft with every secret shown, and the orders it used
    page.get_by_role("link", name="Review it").click()
    content = page.content()
    assert "The drafted result, every secret shown" in content
    assert "to seat" in content  # private lines are shown to the GM
    assert "Appoint" in content or "appoint" in content
    assert no_horizontal_scroll(page)

    if os.environ.get("JUNTA_SCREENSHOTS"):
        page.screenshot(path="/tmp/gm-review.png", full_page=True)

    # an order for a player: choose him, then fill in his own "Give a card" form
    panel = page.get_by_role("navigation", name="GameMaster's panel")
    panel.get_by_role("link", name="Rulings").click()
    giver = state.players[4]
    gift = giver.hand[0]  # the form's first choice
    page.get_by_label("Player giving the order").select_option(value=str(giver.seat))
    page.get_by_role("button", name="Show the orders this player may give").click()
    page.wait_for_url(f"**/rulings/?order_for={giver.seat}#give-order")
    assert f"The orders {giver.name} may give" in page.content()
    assert no_horizontal_scroll(page)
    form = page.locator("#gm-order-give-card")
    form.locator("summary").first.click()
    form.get_by_label("To", exact=True).select_option(value="5")
    form.get_by_label("Reason").fill("Lost in the mail (GM-only reason)")
    assert no_horizontal_scroll(page)
    if os.environ.get("JUNTA_SCREENSHOTS"):
        page.locator("#give-order").screenshot(path="/tmp/gm-give-order.png")
    form.get_by_role("button", name=f"Give this order for {giver.name}").click()
    assert f"Order given for {giver.name}" in page.content()
    given = Order.objects.get(phase=phase, player__seat=giver.seat, player__membership="active")
    assert {"kind": "give_card", "to": 5, "card": gift} in given.payload
    assert AuditEntry.objects.filter(game=game, action="order").count() == 1

    # a ruling: Isabel's card goes to Carlos, with a reason and an announcement
    page.locator("summary", has_text="Move a card").click()
    card_form = page.locator("form", has=page.get_by_label("Move it to"))
    card_form.get_by_label("Card", exact=True).select_option(value=str(card))
    card_form.get_by_label("Move it to").select_option(value="hand:0")
    card_form.get_by_label("Reason").fill(REASON)
    card_form.get_by_label("Announcement").fill(ANNOUNCEMENT)
    card_form.get_by_role("button", name="Move the card").click()
    assert "Ruled:" in page.content()
    if os.environ.get("JUNTA_SCREENSHOTS"):
        page.screenshot(path="/tmp/gm-rulings.png", full_page=True)
    assert no_horizontal_scroll(page)
    entry = AuditEntry.objects.filter(game=game, action="card").get()
    assert entry.reason == REASON and entry.data["target"] == "hand:0"

    # publish from the review page: the redrafted result carries the ruling
    panel.get_by_role("link", name="Review").click()
    page.get_by_role("button", name=f"Publish phase {phase.number}").click()
    page.wait_for_url(f"{base}/games/{game.id}/gm/review/publish/")
    # publishing cannot be undone: a page asks first, saying to whom, the focus on its question
    question = f"Publish the result of phase {phase.number} (turn 1, Cabinet Appointment)?"
    assert page.title().startswith(f"Confirm: {question}")
    assert page.get_by_role("heading", name=question).is_visible()
    assert page.evaluate("document.activeElement.id") == "confirm"
    assert "is published to every player" in page.locator("#confirm").inner_text()
    assert no_horizontal_scroll(page)
    assert axe_problems(page) == []
    phase.refresh_from_db()
    assert phase.status == Phase.Status.DRAFTED  # nothing done yet
    if os.environ.get("JUNTA_SCREENSHOTS"):
        page.screenshot(path="/tmp/gm-confirm.png", full_page=True)
    page.get_by_role("button", name=f"Confirm: Publish phase {phase.number}").click()
    page.wait_for_url(f"{base}/games/{game.id}/gm/")
    assert "Published" in page.content()
    phase.refresh_from_db()
    assert phase.status == Phase.Status.PUBLISHED
    after = GameState.from_dict(phase.result.state_after)
    assert card in after.players[0].hand and card not in after.players[1].hand
    for name in ("everything", "history", "audit", "players", "time"):
        page.goto(f"{base}/games/{game.id}/gm/{name}/")
        assert no_horizontal_scroll(page), name
    if os.environ.get("JUNTA_SCREENSHOTS"):
        page.goto(f"{base}/games/{game.id}/gm/everything/")
        page.screenshot(path="/tmp/gm-everything.png", full_page=True)
    gm_context.close()

    # the players' pages show the result
    context = browser.new_context(viewport={"width": 375, "height": 740})
    carlos = context.new_page()
    log_in(carlos, base, "p0@example.org")
    carlos.goto(f"{base}/games/{game.id}/status/")
    assert card_name in carlos.locator("main").inner_text()
    assert "GM panel" not in carlos.content()
    carlos.goto(f"{base}/games/{game.id}/events/")
    events = carlos.content()
    assert ANNOUNCEMENT in events and REASON not in events
    assert "From the GameMaster" in events
    carlos.goto(f"{base}/games/{game.id}/history/")
    assert "Cabinet" in carlos.content() or "cabinet" in carlos.content()
    assert no_horizontal_scroll(carlos)
    response = carlos.goto(f"{base}/games/{game.id}/gm/")
    assert response is not None and response.status == 404  # a player sees no GM panel
    assert "There is no such page" in carlos.content()
    context.close()
