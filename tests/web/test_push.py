"""Web Push notifications, received for real: a push service on 127.0.0.1 (tests/web/
push_receiver.py) takes each encrypted POST, and the "browser" decrypts it (RFC 8291) with its
subscription's keys and checks its payload and its VAPID signature. A device is registered
through the endpoint the profile's script posts to; each kind of news is made by its real code
path (a phase published, a message posted, a GM announcement, the sweep's reminders and
awards). Endpoints that are not public hosts are refused when subscribing and again when
sending, and a redirect is not followed; 404/410 deletes a device, 500 keeps it; one push per
conversation per ten minutes; a muted campaign and an unchosen event push nothing; no push
holds a secret."""

from __future__ import annotations

import json
import socket
from datetime import timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from junta.engine import Catalog, GameState, digest
from junta.games import adjudication, order_intake, speeches
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase, PhaseResult
from junta.notify import notices, push, vapid
from junta.notify.models import Preferences, PushChoices, PushDevice
from junta.polls import services as polls
from junta.talk import services as talk_services
from junta.talk.access import reader_for
from tests.web.browser_forms import forms_in, submit
from tests.web.push_receiver import Browser, check_push, start_receiver
from tests.web.talk_helpers import seat_of

pytestmark = pytest.mark.django_db

CHROME_ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like "
                  "Gecko) Chrome/131.0.0.0 Mobile Safari/537.36")
SUBJECT = "mailto:push-test@junta.test"
REAL_GETADDRINFO = socket.getaddrinfo


@pytest.fixture
def push_site(mailbox, settings):
    """The site with a VAPID key, receivers on 127.0.0.1 allowed (the test setting), and the
    test push service running. `mailbox` (an override of the settings) comes before `settings`,
    so that their changes are undone in the reverse order: the other way round, undoing them
    would leave the mailbox's mailer in place for the tests that follow."""
    key = ec.generate_private_key(ec.SECP256R1())
    settings.JUNTA_VAPID_PRIVATE_KEY = vapid.b64url(
        key.private_numbers().private_value.to_bytes(32, "big"))
    settings.JUNTA_VAPID_SUBJECT = SUBJECT
    settings.JUNTA_PUSH_ALLOW_LOOPBACK = True
    receiver, server = start_receiver()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()


def subscribe(client, user, endpoint: str, browser: Browser | None = None) -> Browser:
    """The profile's script's POST, as `user` on his phone."""
    browser = browser or Browser()
    client.force_login(user)
    response = client.post(reverse("notify_push_subscribe"),
                           json.dumps(browser.subscription(endpoint)),
                           content_type="application/json", HTTP_USER_AGENT=CHROME_ANDROID)
    assert response.status_code == 201, response.content
    return browser


def payloads(receiver, name: str, browser: Browser, public_key: str | None = None) -> list:
    return [check_push(p, browser, public_key or vapid.public_key() or "", receiver.origin,
                       SUBJECT) for p in receiver.to(name)]


def open_phase(game: Game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def publish(game: Game, capture) -> Phase:
    phase = open_phase(game)
    with capture(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    return phase


def write(game: Game, capture, author, to: list, body: str, subject: str = "A word"):
    """`author` starts a conversation with `to` (seated players), or writes in it again."""
    with capture(execute=True):
        return talk_services.start(reader_for(game, author), subject,
                                   [seat_of(game, u) for u in to], False, body)


def test_every_kind_of_news_reaches_the_device_encrypted_and_signed(
        campaign, push_site, client, eager_celery, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    game, users = campaign()
    carlos, isabel = users[0], users[1]
    start_campaign(game.id, game.gm)
    browser = subscribe(client, carlos, push_site.endpoint("carlos"))
    [device] = PushDevice.objects.filter(user=carlos)
    assert device.label == "Chrome on Android" and device.last_sent_at is None

    published = publish(game, capture)  # the phase's results
    [results] = payloads(push_site, "carlos", browser)
    assert results["title"] == "Papayas"
    assert results["body"] == "Nominations: results are out", results  # before turn 1
    assert results["url"] == f"/games/{game.id}/status/"
    assert results["tag"] == f"junta-{game.id}-results"
    sent = push_site.to("carlos")[0]
    assert sent.headers["TTL"] == str(24 * 60 * 60) and sent.headers["Urgency"] == "normal"
    push_site.clear()
    push.results(published.id)  # the task again: nothing twice
    assert push_site.received == []

    talk = write(game, capture, isabel, [carlos], "Shall we?")  # a private message
    [message] = payloads(push_site, "carlos", browser)
    name = reader_for(game, isabel).name
    assert message == {"title": "Papayas", "body": f"{name} wrote to you",
                       "url": f"/games/{game.id}/talk/{talk.id}/",
                       "tag": f"junta-{game.id}-talk-{talk.id}"}
    push_site.clear()

    with capture(execute=True):  # a GM announcement
        speeches.post_announcement(game, game.gm, "The Republic rejoices.")
    [announced] = payloads(push_site, "carlos", browser)
    assert announced["body"] == "The GameMaster made an announcement"
    assert announced["url"] == f"/games/{game.id}/events/"
    push_site.clear()

    phase = open_phase(game)  # the deadline near, orders owed: the sweep's reminder
    assert seat_of(game, carlos).engine_seat in phase.owing_seats
    notices.sweep(phase.deadline - timedelta(hours=8))
    assert push_site.received == []  # not yet: six hours before, by default
    notices.sweep(phase.deadline - timedelta(hours=2))
    notices.sweep(phase.deadline - timedelta(hours=2))
    [reminder] = payloads(push_site, "carlos", browser)
    assert reminder["body"] == "Orders due in 2 hours"
    assert reminder["url"] == f"/games/{game.id}/orders/"
    push_site.clear()

    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)  # the awards
    game.refresh_from_db()
    polls.open_awards(game, game.gm, [])
    notices.sweep()
    notices.sweep()
    [awards] = payloads(push_site, "carlos", browser)
    assert awards["body"] == "The awards are open"
    assert awards["url"] == f"/games/{game.id}/polls/"
    device.refresh_from_db()
    assert device.last_sent_at is not None


ENDPOINTS_REFUSED = [
    "http://push.example.com/send/1",  # not https
    "https://127.0.0.1/send/1",
    "https://10.1.2.3/send/1",
    "https://192.168.0.7/send/1",
    "https://172.16.4.4/send/1",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/send/1",  # shared address space
    "https://[::1]/send/1",
    "https://[fc00::1]/send/1",
    "https://[fe80::1]/send/1",
    "https://[::ffff:127.0.0.1]/send/1",
    "https://0.0.0.0/send/1",
    "https://localhost/send/1",
    "https://inside.example.com/send/1",  # a name that resolves to a private address
    "https://split.example.com/send/1",  # one public address, one private
    "https://nowhere.example.com/send/1",  # a name that resolves to nothing
    "https://user:secret@push.example.com/send/1",
    "https://push.example.com/send/1#fragment",
    "ftp://push.example.com/send/1",
    "not a url",
]


def fake_dns(monkeypatch, names: dict[str, list[str]]) -> None:
    """`socket.getaddrinfo` answering these names (literal addresses as they are)."""
    def getaddrinfo(host, port, *args, **kwargs):
        if host in names:
            return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "",
                     (a, port)) for a in names[host]]
        if host[:1].isdigit() or ":" in host:  # a literal address
            return REAL_GETADDRINFO(host, port, *args, **kwargs)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


PUBLIC_DNS = {"push.example.com": ["93.184.215.14"], "inside.example.com": ["10.0.0.5"],
              "split.example.com": ["93.184.215.14", "192.168.1.1"]}


@pytest.mark.parametrize("endpoint", ENDPOINTS_REFUSED)
def test_a_subscription_to_a_non_public_host_is_refused(endpoint, push_site, settings, client,
                                                       django_user_model, monkeypatch):
    settings.JUNTA_PUSH_ALLOW_LOOPBACK = False  # as on every real site
    fake_dns(monkeypatch, PUBLIC_DNS)
    user = django_user_model.objects.create_user(email="p@example.org")
    client.force_login(user)
    response = client.post(reverse("notify_push_subscribe"),
                           json.dumps(Browser().subscription(endpoint)),
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"].startswith("endpoint: ")
    assert not PushDevice.objects.exists()


def test_a_public_https_endpoint_is_accepted_and_the_loopback_setting_allows_only_loopback(
        push_site, settings, client, django_user_model, monkeypatch):
    settings.JUNTA_PUSH_ALLOW_LOOPBACK = False
    fake_dns(monkeypatch, PUBLIC_DNS)
    user = django_user_model.objects.create_user(email="p@example.org")
    subscribe(client, user, "https://push.example.com/send/1")
    settings.JUNTA_PUSH_ALLOW_LOOPBACK = True  # the tests' setting lets 127.0.0.1 in, no more
    for endpoint in ("https://10.1.2.3/x", "http://192.168.0.7/x", "https://inside.example.com/x"):
        response = client.post(reverse("notify_push_subscribe"),
                               json.dumps(Browser().subscription(endpoint)),
                               content_type="application/json")
        assert response.status_code == 400, endpoint
    assert PushDevice.objects.count() == 1


@pytest.mark.parametrize(("change", "error"), [
    (lambda s: s.pop("keys"), "p256dh: This field is required."),
    (lambda s: s["keys"].update(p256dh="AAAA"), "p256dh: The key p256dh must be"),
    (lambda s: s["keys"].update(p256dh="BA" + "A" * 85), "p256dh: The key p256dh is not a"),
    (lambda s: s["keys"].update(auth="c2hvcnQ"), "auth: The secret auth must be 16 bytes."),
    (lambda s: s["keys"].update(auth="!!!"), "auth: The secret auth is not base64url."),
    (lambda s: s.update(endpoint=17), "The subscription's endpoint and keys must be strings."),
])
def test_a_malformed_subscription_is_refused_with_its_reason(change, error, push_site, client,
                                                             django_user_model):
    user = django_user_model.objects.create_user(email="p@example.org")
    client.force_login(user)
    sent = Browser().subscription(push_site.endpoint("x"))
    change(sent)
    response = client.post(reverse("notify_push_subscribe"), json.dumps(sent),
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["error"].startswith(error)
    bad = client.post(reverse("notify_push_subscribe"), "{", content_type="application/json")
    assert bad.status_code == 400 and bad.json() == {"error": "The subscription is not JSON."}
    assert not PushDevice.objects.exists()


def test_subscribing_needs_a_login_and_the_csrf_token(push_site, django_user_model):
    user = django_user_model.objects.create_user(email="p@example.org")
    browser = Client(enforce_csrf_checks=True)
    body = json.dumps(Browser().subscription(push_site.endpoint("x")))
    url = reverse("notify_push_subscribe")
    assert browser.post(url, body, content_type="application/json").status_code == 403
    assert browser.post(url, body, content_type="application/json",  # a token, no login
                        HTTP_X_CSRFTOKEN="x" * 32).status_code in (302, 403)
    browser.force_login(user)
    assert browser.post(url, body, content_type="application/json").status_code == 403
    page = browser.get(reverse("profile")).content.decode()
    token = next(c.value for f in forms_in(page) for c in f.controls
                 if c.name == "csrfmiddlewaretoken")
    response = browser.post(url, body, content_type="application/json",
                            HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201 and PushDevice.objects.filter(user=user).count() == 1


def test_a_host_that_now_resolves_to_loopback_gets_no_request(
        campaign, push_site, settings, client, monkeypatch, django_capture_on_commit_callbacks):
    """Checked again when sending: a name that resolved to a public address when the device
    subscribed and to 127.0.0.1 now (DNS rebinding) is not connected to."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    settings.JUNTA_PUSH_ALLOW_LOOPBACK = False
    fake_dns(monkeypatch, {"push.example.com": ["93.184.215.14"]})
    subscribe(client, users[0], f"https://push.example.com:{push_site.port}/push/rebound")
    fake_dns(monkeypatch, {"push.example.com": ["127.0.0.1"]})
    connections = []
    real_connect = socket.create_connection
    monkeypatch.setattr(socket, "create_connection",
                        lambda address, *a, **k: connections.append(address)
                        or real_connect(address, *a, **k))
    made = speeches.do_post_announcement(game, game.gm, "News.")
    assert push.announcement(made.id) == {push.FAILED: 1}
    assert connections == [] and push_site.received == []
    assert PushDevice.objects.filter(user=users[0]).exists()  # refused now, kept


@pytest.mark.parametrize(("status", "kept"), [(404, False), (410, False), (500, True),
                                              (429, True), (302, True), (301, True)])
def test_a_device_gone_is_deleted_and_a_redirect_is_not_followed(status, kept, campaign,
                                                                 push_site, client):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    subscribe(client, users[0], push_site.endpoint("device"))
    push_site.answer("device", status, push_site.endpoint("elsewhere"))
    made = speeches.do_post_announcement(game, game.gm, "News.")
    outcome = push.announcement(made.id)
    assert len(push_site.to("device")) == 1 and push_site.to("elsewhere") == []
    assert PushDevice.objects.filter(user=users[0]).exists() is kept
    assert outcome == {push.FAILED if kept else push.EMPTY: 1}


def test_one_push_per_conversation_per_ten_minutes_and_none_when_muted_or_unchosen(
        campaign, push_site, client, eager_celery, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    game, users = campaign(players=6)
    carlos, isabel, miguel, lucia = users[:4]
    start_campaign(game.id, game.gm)
    browsers = {u.pk: subscribe(client, u, push_site.endpoint(str(u.pk))) for u in users[:4]}
    talk = write(game, capture, isabel, [carlos, miguel], "One")
    reader = reader_for(game, isabel)
    for body in ("Two", "Three"):
        with capture(execute=True):
            talk_services.post(talk, reader, body)
    assert len(push_site.to(str(carlos.pk))) == 1 and len(push_site.to(str(miguel.pk))) == 1
    assert push_site.to(str(isabel.pk)) == []  # not to the writer
    other = write(game, capture, isabel, [carlos], "Another conversation")
    assert [p["url"] for p in payloads(push_site, str(carlos.pk), browsers[carlos.pk])] == [
        f"/games/{game.id}/talk/{talk.id}/", f"/games/{game.id}/talk/{other.id}/"]
    later = talk_services.post(talk, reader, "Four")
    push.message(later.id, timezone.now() + timedelta(minutes=11))  # ten minutes on
    assert len(push_site.to(str(carlos.pk))) == 3
    push_site.clear()

    Preferences.objects.create(user=carlos, game=game, push=False)  # mutes the campaign
    PushChoices.objects.create(user=miguel, announcement=False)  # wants no announcements
    with capture(execute=True):
        speeches.post_announcement(game, game.gm, "The Republic rejoices.")
    assert sorted(r.path for r in push_site.received) == [f"/push/{isabel.pk}",
                                                         f"/push/{lucia.pk}"]
    push_site.clear()
    publish(game, capture)
    assert sorted(r.path for r in push_site.received) == [
        f"/push/{u.pk}" for u in sorted((isabel, miguel, lucia), key=lambda u: u.pk)]


POCKET, BANK = 48151600, 62342000
SECRET_NOTE = "PUSH-SECRET-NOTE-MARKER"
SECRET_TALK = "PUSH-SECRET-TALK-MARKER"
SECRET_SUBJECT = "PUSH-SECRET-SUBJECT-MARKER"
SECRET_NEWS = "PUSH-SECRET-ANNOUNCEMENT-MARKER"


def test_no_push_holds_a_secret(campaign, push_site, client, eager_celery,
                                django_capture_on_commit_callbacks):
    """Every kind of push, sent in a campaign whose pockets, banks, orders, messages and their
    subjects carry markers, and whose hands hold cards by name: none is in any payload."""
    capture = django_capture_on_commit_callbacks
    game, users = campaign()
    phase = start_campaign(game.id, game.gm)
    state = GameState.from_dict(phase.state_before)
    for p in state.players:
        p.pocket, p.bank = POCKET + p.seat, BANK + p.seat
    phase.state_before = state.to_dict()
    phase.state_digest = digest(state)
    phase.save()
    cards = {Catalog.card(c).name for p in state.players for c in p.hand}
    browsers = {u.pk: subscribe(client, u, push_site.endpoint(str(u.pk))) for u in users}
    order_intake.submit_orders(phase.id, users[2], [], note_to_gm=SECRET_NOTE,
                               state_version=Game.objects.get(pk=game.pk).state_version)

    write(game, capture, users[1], [users[0], users[2]], SECRET_TALK, subject=SECRET_SUBJECT)
    with capture(execute=True):
        speeches.post_announcement(game, game.gm, SECRET_NEWS)
    publish(game, capture)
    notices.sweep(open_phase(game).deadline - timedelta(hours=1))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    polls.open_awards(game, game.gm, [])
    notices.sweep()

    seen = set()
    for user in users:
        for payload in payloads(push_site, str(user.pk), browsers[user.pk]):
            seen.add(payload["body"])
            text = json.dumps(payload, ensure_ascii=False)
            for marker in (SECRET_NOTE, SECRET_TALK, SECRET_SUBJECT, SECRET_NEWS, "4815160",
                           "6234200", *cards):
                assert marker not in text, (marker, payload)
    kinds = {"results are out", "wrote to you", "made an announcement", "Orders due",
             "awards are open"}
    assert all(any(kind in body for body in seen) for kind in kinds), seen


def test_the_profile_lists_the_devices_removes_one_and_saves_the_events(
        push_site, client, django_user_model):
    user = django_user_model.objects.create_user(email="p@example.org")
    other = django_user_model.objects.create_user(email="o@example.org")
    subscribe(client, other, push_site.endpoint("other"))
    subscribe(client, user, push_site.endpoint("phone"))
    page = client.get(reverse("profile")).content.decode()
    assert "Notifications on your phone" in page and "Chrome on Android" in page
    assert f'data-public-key="{vapid.public_key()}"' in page
    assert "Notifications are on for this device (Chrome on Android)." in page  # the alert
    assert "js/push.js" in page
    mine = PushDevice.objects.get(user=user)
    theirs = PushDevice.objects.get(user=other)
    assert client.post(reverse("notify_push_remove", args=[theirs.pk])).status_code == 404
    remove = next(f for f in forms_in(page)
                  if f.attrs.get("action") == reverse("notify_push_remove", args=[mine.pk]))
    response = submit(client, reverse("profile"), remove)
    assert response.status_code == 302 and response.url.endswith("#push")
    assert not PushDevice.objects.filter(user=user).exists()
    assert PushDevice.objects.filter(user=other).exists()
    page = client.get(reverse("profile")).content.decode()
    assert "gets no more notifications" in page and "No device gets notifications yet" in page

    choices = next(f for f in forms_in(page)
                   if f.attrs.get("action") == reverse("notify_push_choices"))
    choices.control("push-messages").checked = False
    choices.control("push-awards").checked = False
    submit(client, reverse("profile"), choices)
    chosen = PushChoices.objects.get(user=user)
    assert (chosen.results, chosen.messages, chosen.reminder, chosen.announcement,
            chosen.awards) == (True, False, True, True, False)


def test_without_a_key_push_is_unavailable_and_the_profile_says_so(settings, client, tmp_path,
                                                                   django_user_model):
    settings.JUNTA_VAPID_PRIVATE_KEY = ""
    settings.JUNTA_VAPID_KEY_FILE = tmp_path / "none.pem"
    user = django_user_model.objects.create_user(email="p@example.org")
    client.force_login(user)
    page = client.get(reverse("profile")).content.decode()
    assert "Push notifications are not available on this site" in page
    assert "js/push.js" not in page
    response = client.post(reverse("notify_push_subscribe"),
                           json.dumps(Browser().subscription("https://push.example.com/x")),
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "Push notifications are not available on this site."


def test_the_key_file_is_made_once_readable_by_its_owner_only(settings, tmp_path):
    settings.JUNTA_VAPID_PRIVATE_KEY = ""
    settings.JUNTA_VAPID_KEY_FILE = tmp_path / "var" / "vapid.pem"
    assert vapid.keys() is None
    made = vapid.ensure_key_file()
    assert made == tmp_path / "var" / "vapid.pem" and made.stat().st_mode & 0o777 == 0o600
    public = vapid.public_key()
    assert public and len(vapid.b64url_decode(public)) == 65
    assert vapid.ensure_key_file() is None and vapid.public_key() == public  # kept


def test_the_permission_is_asked_only_in_the_buttons_click_handler():
    script = (Path(__file__).resolve().parents[2] / "static" / "js" / "push.js").read_text()
    code = "\n".join(line for line in script.splitlines() if not line.strip().startswith("//"))
    assert code.count("requestPermission(") == 1
    handler = code.index('button.addEventListener("click"')
    assert code.index("requestPermission(") > handler
    assert code.index('register("/sw.js")') > handler
    assert "userVisibleOnly: true" in code and "toJSON()" in code


def test_the_api_lists_my_devices_and_removes_one(push_site, client, django_user_model):
    user = django_user_model.objects.create_user(email="p@example.org")
    other = django_user_model.objects.create_user(email="o@example.org")
    subscribe(client, other, push_site.endpoint("other"))
    subscribe(client, user, push_site.endpoint("phone"))
    listed = client.get("/api/v1/push/devices")
    assert listed.status_code == 200
    [device] = listed.json()
    assert device["label"] == "Chrome on Android" and device["last_sent_at"] is None
    assert set(device) == {"id", "label", "created_at", "last_sent_at"}  # not its endpoint
    theirs = PushDevice.objects.get(user=other).pk
    assert client.delete(f"/api/v1/push/devices/{theirs}").status_code == 404
    assert client.delete(f"/api/v1/push/devices/{device['id']}").status_code == 204
    assert client.delete(f"/api/v1/push/devices/{device['id']}").status_code == 404
    assert client.get("/api/v1/push/devices").json() == []
    assert PushDevice.objects.filter(user=other).exists()


def test_no_reminder_for_orders_marked_final_and_one_query_when_nobody_has_a_device(
        campaign, push_site, client, django_assert_num_queries):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    phase = open_phase(game)
    phases = notices.open_phases()
    with django_assert_num_queries(1):  # the sweep's minute, when no one gets pushes
        assert push.reminders(phase.deadline - timedelta(hours=1), phases) == {}
    subscribe(client, users[0], push_site.endpoint("final"))
    subscribe(client, users[1], push_site.endpoint("owing"))
    order_intake.set_final(phase.id, users[0])
    notices.sweep(phase.deadline - timedelta(hours=1))
    assert push_site.to("final") == [] and len(push_site.to("owing")) == 1


def test_the_words_of_a_push_name_the_turn_and_the_device_its_browser():
    from junta.notify import push_texts

    game = Game(id=7, name="Papayas")
    assert push_texts.results(game, 5, "Budget Vote").body == \
        "Turn 5, Budget Vote: results are out"
    assert push_texts.reminder(game, 1).body == "Orders due in 1 hour"
    assert push_texts.reminder(game, 0).body == "Orders due in less than an hour"
    assert push_texts.device_label(CHROME_ANDROID) == "Chrome on Android"
    assert push_texts.device_label(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0") \
        == "Firefox on Windows"
    assert push_texts.device_label(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
        "like Gecko) Version/18.1 Mobile/15E148 Safari/604.1") == "Safari on iPhone"
    assert push_texts.device_label("") == "A browser"


def test_the_sweep_pushes_the_results_a_lost_task_did_not_once(
        campaign, push_site, client, django_capture_on_commit_callbacks):
    """The results task lost (its on-commit queueing never ran): the minute sweep pushes them,
    once however often it runs, and not once they are no longer news."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    browser = subscribe(client, users[0], push_site.endpoint("carlos"))
    phase = open_phase(game)
    with django_capture_on_commit_callbacks(execute=False):  # the task is lost
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert push_site.received == []
    now = timezone.now()
    notices.sweep(now)
    [results] = payloads(push_site, "carlos", browser)
    assert results["url"] == f"/games/{game.id}/status/"
    notices.sweep(now + timedelta(minutes=1))
    assert len(push_site.to("carlos")) == 1
    push_site.clear()
    phase = open_phase(game)  # the next phase's task lost too, and no sweep for an hour
    with django_capture_on_commit_callbacks(execute=False):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    published = PhaseResult.objects.get(phase=phase).published_at
    assert published is not None
    notices.sweep(published + push.NEWS_FOR + timedelta(minutes=1))
    assert push_site.received == []  # no longer news
    notices.sweep(published + timedelta(minutes=1))
    assert len(push_site.to("carlos")) == 1  # news still, a minute after
