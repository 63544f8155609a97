"""The installable web app in Chromium: it passes Chromium's installability criteria, its
service worker shows a push message as a notification whose click opens the message's page, and
offline the dashboard and Status pages come back as last seen, without a form, for their person
only. The server's side is in tests/web/test_installable_app.py.

Chromium counts http://127.0.0.1 (the live server) as a secure origin, as it counts https: the
worker registers and the app installs there as on the site."""

from __future__ import annotations

import itertools
import json
import shutil
import time

import pytest
from django.templatetags.static import static

from tests.e2e.conftest import CHROMIUM_ARGS
from tests.e2e.sessions import session_cookie, signed_in, six_families

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
WAITS = itertools.count()


def worker_ready(page) -> None:
    """Wait until the page's service worker is active and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def wait_until(page, check: str, arg: object = None) -> None:
    """Wait until the async JavaScript function `check` answers true in the page. Playwright's
    wait_for_function takes a promise for a true answer; so each of its polls starts a check
    and reads the answer of the last one ended, kept under a key of this wait."""
    key = f"wait{next(WAITS)}"
    page.wait_for_function(f"""(arg) => {{
        const answers = window.__pwaWaits = window.__pwaWaits || {{}};
        ({check})(arg).then((answer) => {{ answers["{key}"] = answer; }});
        return answers["{key}"] === true;
    }}""", arg=arg)


def test_the_site_is_an_installable_app(live_server, browser, tmp_path):
    """Chromium's own verdict, through the DevTools protocol. A context of the session's browser
    is incognito, where nothing installs ("in-incognito", checked before anything else): this
    test opens a browser of its own with a profile on disk, as a person's is."""
    game, users = six_families()
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    context.add_cookies(session_cookie(users[0], live_server.url))
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(f"{live_server.url}/")
    worker_ready(page)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{live_server.url}/manifest.webmanifest"
    assert manifest["errors"] == [], manifest["errors"]
    parsed = manifest["manifest"]
    assert parsed["name"] == "Junta" and parsed["display"] == "kStandalone"
    assert parsed["startUrl"] == parsed["id"] == parsed["scope"] == f"{live_server.url}/"
    assert len(parsed["icons"]) == 3
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    context.close()


def registration_ids(cdp, page, scope: str) -> set[str]:
    """The ids of the service worker registrations for `scope`, as the DevTools protocol names
    them: its ServiceWorker domain tells every registration once enabled; each round trip to
    the page lets its events in, until one for the scope has come (a few seconds at most), and
    one more lets in the rest. More than one when the browser holds a registration of an
    earlier test's context at the same address: a push goes to each, and this context's worker
    shows it."""
    found: set[str] = set()

    def updated(event: dict) -> None:
        for registration in event["registrations"]:
            if registration["scopeURL"] == scope and not registration["isDeleted"]:
                found.add(registration["registrationId"])

    cdp.on("ServiceWorker.workerRegistrationUpdated", updated)
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 5
    while not found and time.monotonic() < deadline:
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    assert found, f"no service worker registration for {scope}"
    return found


def push(cdp, base: str, registrations: set[str], message: dict | str) -> None:
    """A push message for the site's worker, as the push service would bring it."""
    data = message if isinstance(message, str) else json.dumps(message)
    for registration in sorted(registrations):
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": base, "registrationId": registration, "data": data})


NOTIFICATIONS = "navigator.serviceWorker.ready.then((r) => r.getNotifications())"


def notifications(page) -> list[dict]:
    """The notifications the site's worker shows now, as the browser keeps them."""
    return page.evaluate(f"""() => {NOTIFICATIONS}.then((shown) => shown.map((n) => ({{
        title: n.title, body: n.body, tag: n.tag, data: n.data, icon: n.icon}})))""")


def test_a_push_message_shows_a_notification_whose_click_opens_its_page(live_server, browser):
    """What is real: the service worker's registration by static/js/pwa.js, the push message
    delivered to it by Chromium (the DevTools protocol's ServiceWorker.deliverPushMessage, the
    path a push service's message takes once it reached the browser), the worker's `push`
    handler and the notification it shows, read back from the registration as the browser
    keeps it. What stands in for the OS: headless Chromium has no notification to click, so the
    test dispatches in the worker the `notificationclick` event the browser would fire, for the
    notification shown (a NotificationEvent carrying it), and waits for what its handler does,
    as the browser would wait (waitUntil); the handler then moves the site's open window to the
    message's page."""
    game, users = six_families()
    base = live_server.url
    context, page = signed_in(browser, users[0], base, 1280, 900)
    context.grant_permissions(["notifications"], origin=base)
    page.goto(f"{base}/")
    worker_ready(page)
    cdp = context.new_cdp_session(page)
    registration = registration_ids(cdp, page, f"{base}/")
    status = f"/games/{game.id}/status/"
    message = {"title": "Papayas: the budget is out", "body": "Your orders are due tomorrow.",
               "url": status, "tag": f"game-{game.id}"}
    push(cdp, base, registration, message)
    wait_until(page, f"async () => (await {NOTIFICATIONS}).length === 1")
    assert notifications(page) == [{"title": message["title"], "body": message["body"],
                      "tag": message["tag"], "data": {"url": status},
                      "icon": f"{base}{static('img/icon-192.png')}"}]

    worker = next(w for w in context.service_workers if w.url == f"{base}/sw.js")
    click = """async () => {
        const [notification] = await self.registration.getNotifications();
        const event = new NotificationEvent("notificationclick", {notification});
        const waited = [];
        event.waitUntil = (promise) => waited.push(promise);
        self.dispatchEvent(event);
        await Promise.all(waited);
    }"""
    worker.evaluate(click)
    page.wait_for_url(f"{base}{status}")
    assert notifications(page) == []  # the click closed it

    # a message naming another site: its click stays on this one, at the dashboard
    push(cdp, base, registration, {**message, "url": "https://elsewhere.example/phish", "tag": "x"})
    wait_until(page, f"async () => (await {NOTIFICATIONS}).length === 1")
    assert notifications(page)[0]["data"] == {"url": "/"}
    worker.evaluate(click)
    page.wait_for_url(f"{base}/")

    # a message that is not the contract's JSON still shows a notification (Chromium asks
    # every push message to show one), the site's name and nothing else
    push(cdp, base, registration, "not JSON")
    wait_until(page, f"async () => (await {NOTIFICATIONS}).length === 1")
    assert notifications(page) == [{"title": "Junta", "body": "", "tag": "",
                                    "data": {"url": "/"},
                                    "icon": f"{base}{static('img/icon-192.png')}"}]
    context.close()


# On the kept pages (the dashboard, the Status pages) as they load: a form in <main> with
# every kind of field, as a page would have one, and a message of that moment, before
# static/js/pwa.js keeps the copy.
A_FORM_IN_MAIN = """
new MutationObserver((changes, observer) => {
  const main = document.querySelector("main");
  if (!main || !document.body.hasAttribute("data-pwa-keep")) return;
  observer.disconnect();
  main.insertAdjacentHTML("beforeend", `<p data-page-alert>Order added.</p>
    <form method="post" action="/stale/"><label>Amount
    <input name="amount" value="3"></label><select name="to"><option>Bank</option></select>
    <textarea name="why">A stale form</textarea><button type="submit">Send it</button></form>`);
}).observe(document, {childList: true, subtree: true});
"""


def wait_kept(page, paths: list[str]) -> None:
    wait_until(page, """async (paths) => {
        if (!(await caches.has("junta-seen"))) return paths.length === 0;
        const cache = await caches.open("junta-seen");
        const kept = (await cache.keys()).map((r) => new URL(r.url).pathname)
            .filter((p) => p !== "/.pwa-owner").sort();
        return JSON.stringify(kept) === JSON.stringify(paths);
    }""", sorted(paths))


def offline_list(page) -> list[str]:
    return page.locator("#offline-list a").evaluate_all("(links) => links.map((a) => "
                                                        "a.getAttribute('href'))")


def test_offline_the_pages_last_seen_come_back_without_a_form(live_server, browser):
    """Offline (Playwright cuts the context's network, the worker's included), a navigation to
    a Status page seen before shows its copy marked with its time and no form (the test puts
    one in the page's <main> as it loads, A_FORM_IN_MAIN: the copy keeps none of it); the
    Orders page, never kept, shows the offline page's list. The copies belong to the person:
    his log-out throws them away, and another person logging in on the browser never sees
    them."""
    game, users = six_families()
    carlos, isabel, miguel = users[:3]
    base = live_server.url
    status, orders = f"/games/{game.id}/status/", f"/games/{game.id}/orders/"
    context, page = signed_in(browser, carlos, base, 375, 740)
    context.add_init_script(A_FORM_IN_MAIN)
    page.goto(f"{base}/")
    worker_ready(page)
    page.goto(f"{base}{status}")
    assert page.locator("main form textarea").count() == 1
    seen = page.locator("main h2").first.inner_text()
    wait_kept(page, ["/", status])

    context.set_offline(True)
    page.goto(f"{base}{status}")
    note = page.locator("#offline-as-of")
    note.wait_for()
    assert note.inner_text().startswith("Offline, as of ")
    assert note.locator("time").get_attribute("datetime")
    assert note.locator("time").inner_text()
    assert page.locator("#offline-copy h1").inner_text() == game.name
    assert page.locator("#offline-copy h2").first.inner_text() == seen
    assert page.title().startswith("Offline · Status")
    assert page.locator("form, button, input, select, textarea, label").count() == 0
    assert "A stale form" not in page.content() and "Order added." not in page.content()
    assert page.locator("#offline-copy a", has_text="Your orders").count() == 1  # a link stays

    page.goto(f"{base}{orders}")
    page.locator("#offline-list li").first.wait_for()
    assert page.locator("h1").inner_text() == "You are offline"
    assert page.locator("#offline-as-of").is_hidden()
    assert sorted(offline_list(page)) == ["/", status]
    assert page.locator("#offline-list a", has_text=f"Status · {game.name}").count() == 1
    assert page.locator("#offline-list a", has_text="Your campaigns").count() == 1
    assert page.locator("form, button, input, select, textarea").count() == 0

    # back online, he logs out: his copies go
    context.set_offline(False)
    page.goto(f"{base}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Log out").click()
    wait_kept(page, [])

    # Isabel logs in on the same browser and sees only what she saw
    context.add_cookies(session_cookie(isabel, base))
    page.goto(f"{base}/")
    wait_kept(page, ["/"])
    page.goto(f"{base}{status}")
    wait_kept(page, ["/", status])
    # Miguel takes the browser without her logging out: her copies go as well
    context.add_cookies(session_cookie(miguel, base))
    page.goto(f"{base}/")
    wait_kept(page, ["/"])
    context.set_offline(True)
    page.goto(f"{base}{status}")
    page.locator("#offline-list li").first.wait_for()
    assert offline_list(page) == ["/"]
    assert page.locator("#offline-as-of").is_hidden()
    assert "Isabel" not in page.locator("main").inner_text()
    context.close()
