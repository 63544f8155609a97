"""A player's day in the browser: he logs in, reads the Status page, gives orders and
then changes them (a conditional one among them), previews a speech and posts it, and sees it
on top of the Events page. The Status, Events and Map pages are saved as screenshots at phone
and desktop widths, during a coup, in a folder the test prints."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from junta.engine import Order as EngineOrder
from junta.engine import catalog as cat
from junta.engine import resolve
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game, Order, Speech
from tests.e2e.sessions import screenshot_folder
from tests.engine.helpers import in_phase
from tests.web.campaigns import install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PASSWORD = "papaya-Republic-1977"
NAMES = ["Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena", "Diego", "Pilar", "Tomas",
         "Rosa"]
WIDTHS = {"phone": (375, 740), "desktop": (1280, 900)}


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def campaign() -> tuple[Game, list]:
    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org")
    game = create_game(gm, "Papayas", join_policy=Game.JoinPolicy.OPEN)
    users = []
    for i, name in enumerate(NAMES):
        user = User.objects.create_user(email=f"p{i}@example.org", password=PASSWORD,
                                        display_name=name)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        join_game(game.id, user, f"Don {name}")
        users.append(user)
    start_campaign(game.id, gm)
    return game, users


def log_in(page, base: str, email: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{base}/")


def add_order(page, summary: str, fill) -> None:  # noqa: ANN001 - fill(form) chooses fields
    details = page.locator("details.builder",
                           has=page.locator("summary", has_text=summary)).first
    if details.get_attribute("open") is None:  # the phase's likely order is open already
        details.locator("summary").first.click()
    form = details.locator("form.order-form")
    fill(form)
    with page.expect_navigation():
        form.get_by_role("button", name="Add this order").click()
    assert "Order added." in page.content(), page.content()


def test_a_players_day(live_server, browser, capsys):  # noqa: PLR0915 - one story
    game, users = campaign()
    state = in_phase("locations")  # Miguel (seat 2) is the 1st Brigade's Generalissimo
    for p in state.players:
        p.pocket = 6
    install(game, state)
    base = live_server.url
    context = browser.new_context(viewport={"width": 375, "height": 740},
                                  device_scale_factor=2)
    page = context.new_page()
    log_in(page, base, "p2@example.org")

    # the Status page: what to do today, for his position
    page.goto(f"{base}/games/{game.id}/status/")
    assert "Generalissimo of the 1st Army Brigade" in page.content()
    assert "location" in page.locator("main").inner_text().lower()
    assert no_horizontal_scroll(page)

    # orders: a location, then a payment only if Carlos is assassinated; then a change of mind
    page.get_by_role("link", name="Your orders").first.click()
    add_order(page, "Choose a location", lambda f: f.get_by_label("Location").first
              .select_option(label="Club"))
    def conditional_payment(form):  # noqa: ANN001, ANN202
        form.get_by_label("To", exact=True).select_option(label="Don Isabel")
        form.get_by_label("MP", exact=True).fill("2")
        form.get_by_label("Condition", exact=True).select_option("killed")
        form.locator("fieldset.condition").get_by_label("Player").select_option(
            label="Don Carlos")
    add_order(page, "Pay money", conditional_payment)
    row = Order.objects.get(player__user=users[2])
    assert row.payload == [{"kind": "location", "place": "club"},
                           {"kind": "pay", "to": 1, "amount": 2,
                            "condition": {"kind": "killed", "seat": 0}}]
    with page.expect_navigation():  # he thinks better of the Club
        page.get_by_role("button", name="Remove order 1: ").first.click()
    add_order(page, "Choose a location", lambda f: f.get_by_label("Location").first
              .select_option(label="HQ"))
    with page.expect_navigation():
        page.get_by_role("button", name="Mark my orders final").click()
    row.refresh_from_db()
    assert row.final and {"kind": "location", "place": "hq"} in row.payload
    assert [o for o in row.payload if o["kind"] == "pay"][0]["condition"] == \
        {"kind": "killed", "seat": 0}
    assert {"kind": "location", "place": "club"} not in row.payload
    assert no_horizontal_scroll(page)

    # a speech: previewed, then posted, then on top of the Events page
    page.goto(f"{base}/games/{game.id}/events/")
    page.get_by_label("Your speech").fill("Papayans! **The Army** stands with the people.")
    with page.expect_navigation():
        page.get_by_role("button", name="Preview").click()
    preview = page.locator(".speech-preview")
    assert preview.locator("strong").inner_text() == "The Army"
    assert not Speech.objects.exists()
    with page.expect_navigation():
        page.get_by_role("button", name="Post the speech").click()
    first = page.locator("article[id^='speech-']").first
    assert "stands with the people" in first.inner_text()
    assert Speech.objects.get().player.user == users[2]
    assert no_horizontal_scroll(page)

    # the same pages during a coup, at both widths
    state = in_phase("locations")
    state.coup_excuse = True
    state = resolve(state, {2: [EngineOrder("rebel_move", {"from_zone": 15, "to_zone": 13})]},
                    [2]).state
    assert state.phase == "coup" and state.positions[cat.GENERAL_1] == 2
    install(game, state)
    folder = screenshot_folder("junta-day-")
    for width_name, (width, height) in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        for name in ("status", "events", "map"):
            page.goto(f"{base}/games/{game.id}/{name}/")
            assert page.locator("h1").count() >= 1
            assert no_horizontal_scroll(page), (name, width)
            page.screenshot(path=str(folder / f"{name}-{width_name}-{width}.png"),
                            full_page=True)
    page.goto(f"{base}/games/{game.id}/map/")
    assert "Coup Phase 1" in page.content()
    with capsys.disabled():
        print(f"\nscreenshots of Status, Events and Map (phone and desktop) in {folder}")
    assert {f"{n}-{w}-{size[0]}.png" for n in ("status", "events", "map")
            for w, size in WIDTHS.items()} <= {p.name for p in folder.glob("*.png")}
    context.close()
