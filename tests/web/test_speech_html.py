"""A speech's HTML is made once: its Markdown is rendered and sanitised (nh3) when it is posted,
imported or re-rendered by `manage.py rerender_speeches`, and stored beside the Markdown
(`Speech.body_html`); the Events page and the daily digest show what is stored, and render
nothing again."""

from __future__ import annotations

import importlib
from datetime import timedelta
from io import StringIO
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from junta.games.campaigns import start_campaign
from junta.games.markdown import render_markdown
from junta.games.models import Speech
from junta.games.speeches import post_speech
from junta.gm import backup
from junta.notify import notices
from tests.web.active_markup import active
from tests.web.browser_forms import forms_in
from tests.web.campaigns import play_days

pytestmark = pytest.mark.django_db

# Markdown with everything that must not act (it reads as written), and some it must keep.
HOSTILE = (
    "**Viva** la *Republica*! SPEECH-HTML-MARK\n\n"
    "<script>alert('SCRIPT-MARK')</script>\n\n"
    "[a prize](javascript:alert('LINK-MARK')) <img src=x onerror=\"alert('IMG-MARK')\">\n\n"
    "[the news](https://news.example)"
)


def assert_clean(html: str, page: str | None = None) -> None:
    """Nothing in the speech's `html` acts (no script, no handler, no javascript: link: the
    script the player typed shows, escaped, as he typed it); shown on `page`, it adds nothing
    active to what the page has without it."""
    assert active(html) == []
    if page is not None:
        assert html in page and active(page) == active(page.replace(html, ""))


def post_through_the_form(client, user, game, body: str):  # noqa: ANN001, ANN201
    """Open the Events page, type `body` into the speech form and press "Post the speech", as
    the browser sends it (the pressed button's name and value with the form's fields)."""
    client.force_login(user)
    url = reverse("game_events", args=[game.id])
    page = client.get(url).content.decode()
    (form,) = [f for f in forms_in(page) if any(c.type == "textarea" for c in f.controls)]
    name = next(c.name for c in form.controls if c.type == "textarea")
    form.type_text(name, body)
    assert '<button type="submit" name="post" value="1"' in page  # the button pressed
    data = urlencode([*form.submission(), ("post", "1")])
    return client.post(form.attrs.get("action") or url, data,
                       content_type="application/x-www-form-urlencoded")


def test_a_speech_posted_through_the_form_stores_sanitised_html_and_the_pages_show_it(
        campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    response = post_through_the_form(client, users[0], game, HOSTILE)
    assert response.status_code == 302

    speech = Speech.objects.get()
    # the Markdown is kept as written (the browser sends its lines ending in CRLF: stored as
    # LF, each line break one character, as the box counted it)
    assert speech.body == HOSTILE
    assert speech.body_html == str(render_markdown(speech.body))
    assert "<strong>Viva</strong>" in speech.body_html and "SPEECH-HTML-MARK" in speech.body_html
    assert 'href="https://news.example"' in speech.body_html
    assert_clean(speech.body_html)

    events = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert_clean(speech.body_html, events)

    # once its phase is published, the History counts it and links to it
    phase = speech.phase
    play_days(game, users, 1)
    history = client.get(reverse("game_history", args=[game.id])).content.decode()
    link = f'{reverse("game_events", args=[game.id])}?phase={phase.number}'
    assert f'<a href="{link}">1 speech</a>' in history
    assert "SPEECH-HTML-MARK" not in history and "IMG-MARK" not in history
    filtered = client.get(link).content.decode()
    assert_clean(speech.body_html, filtered)


def test_the_pages_and_the_digest_show_the_stored_html_and_render_nothing(
        campaign, client, monkeypatch):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    speech = post_speech(game, users[0], "Rendered when posted.")
    Speech.objects.filter(pk=speech.pk).update(body_html="<p>STORED-HTML</p>")

    def no_rendering(text: str) -> str:
        raise AssertionError("a page rendered a speech's Markdown again")

    for where in ("junta.games.models", "junta.site.events",
                  "junta.games.templatetags.junta_text"):
        monkeypatch.setattr(f"{where}.render_markdown", no_rendering)
    client.force_login(users[1])
    page = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert "<p>STORED-HTML</p>" in page and "Rendered when posted." not in page

    now = timezone.now()
    mail = notices.digest_mail(game, now - timedelta(hours=1), now + timedelta(hours=1))
    assert mail is not None
    [item] = mail.context["items"]
    assert item["html"] == "<p>STORED-HTML</p>"


def test_the_migration_fills_the_html_of_the_speeches_posted_before(campaign):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    bodies = [f"Old speech **{i}** <script>x()</script>" for i in range(7)]
    for i, body in enumerate(bodies):
        post_speech(game, users[i], body)
    Speech.objects.update(body_html="")  # as the column is added: empty
    migration = importlib.import_module("junta.games.migrations.0007_speech_body_html")
    migration.render_existing(apps, None)
    for speech in Speech.objects.all():
        assert speech.body_html == str(render_markdown(speech.body))
        assert "<strong>" in speech.body_html and "<script" not in speech.body_html


def test_rerender_speeches_renews_every_speech_s_html_in_batches(
        campaign, django_assert_max_num_queries):
    game, users = campaign()
    other, strangers = campaign(players=6, review=True)
    start_campaign(game.id, game.gm)
    start_campaign(other.id, other.gm)
    for i in range(5):
        post_speech(game, users[i], f"Speech **{i}** of the first campaign")
    post_speech(other, strangers[0], "The other campaign's *speech*")
    # as if rendered under an older policy: stale HTML, one of them let a script through
    Speech.objects.update(body_html="<p>old policy</p>")
    oldest = Speech.objects.filter(game=game).order_by("pk").values_list("pk", flat=True)[0]
    Speech.objects.filter(pk=oldest).update(body_html="<script>alert(1)</script>")
    bodies = dict(Speech.objects.values_list("pk", "body"))

    out = StringIO()
    call_command("rerender_speeches", "--game", str(game.id), "--batch", "2", stdout=out)
    assert "Rendered 5 speeches again; 5 had changed." in out.getvalue()
    for speech in Speech.objects.filter(game=game):
        assert speech.body_html == str(render_markdown(speech.body))
        assert "<strong>" in speech.body_html
    assert Speech.objects.get(game=other).body_html == "<p>old policy</p>"  # not asked for

    out = StringIO()
    with django_assert_max_num_queries(20):  # batches of 500: a few queries, not one a speech
        call_command("rerender_speeches", stdout=out)
    assert "Rendered 6 speeches again; 1 had changed." in out.getvalue()
    assert Speech.objects.get(game=other).body_html == str(
        render_markdown("The other campaign's *speech*"))
    assert dict(Speech.objects.values_list("pk", "body")) == bodies  # the Markdown untouched

    with pytest.raises(CommandError, match="no campaign"):
        call_command("rerender_speeches", "--game", str(other.id + 1000))
    with pytest.raises(CommandError, match="at least 1"):
        call_command("rerender_speeches", "--batch", "0")


def test_a_backup_carries_no_html_and_the_import_renders_it_again(campaign):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    first = post_speech(game, users[0], "Viva la **Republica**!")
    post_speech(game, users[1], "Viva, but *whose*?", reply_to_id=first.id)
    data = backup.export_campaign(game.id)
    assert data["speeches"] and all("body_html" not in row for row in data["speeches"])
    # a file that brings HTML of its own: it is never stored
    for row in data["speeches"]:
        row["body_html"] = "<script>alert('FROM-THE-FILE')</script>"

    imported = backup.import_campaign(data, as_new=True, name="Papayas restored")

    speeches = list(Speech.objects.filter(game=imported.game).order_by("pk"))
    assert [s.body for s in speeches] == ["Viva la **Republica**!", "Viva, but *whose*?"]
    for speech in speeches:
        assert speech.body_html == str(render_markdown(speech.body))
        assert "FROM-THE-FILE" not in speech.body_html
    assert speeches[1].reply_to == speeches[0]


def test_stored_speeches_lost_their_angle_bracket_text_and_get_it_back(campaign):
    """Before, "I pay <Lucia> 2 MP" was stored as "I pay  2 MP" in the page's HTML (its
    Markdown always kept it); the data migration renders the stored texts again."""
    from junta.games.markdown import rerender_bodies

    game, users = campaign()
    start_campaign(game.id, game.gm)
    said = post_speech(game, users[0], "I pay <Lucia> 2 MP.")
    Speech.objects.filter(pk=said.pk).update(body_html="<p>I pay  2 MP.</p>")  # as it was
    assert rerender_bodies(Speech) == 1
    assert Speech.objects.get(pk=said.pk).body_html == "<p>I pay &lt;Lucia&gt; 2 MP.</p>"
    assert rerender_bodies(Speech) == 0


def test_a_speech_that_fits_the_box_is_posted_whatever_its_line_breaks(campaign, client):
    """The box counts a line break as one character; the browser sends it as two (CR LF). A
    speech of exactly the limit, over many lines, is posted; one over it is refused with its
    length as the box counts it."""
    from junta.games.speeches import MAX_SPEECH_LENGTH

    game, users = campaign()
    start_campaign(game.id, game.gm)
    line = "x" * 99 + "\n"
    full = (line * (MAX_SPEECH_LENGTH // len(line)))[:MAX_SPEECH_LENGTH - 1] + "x"
    assert post_through_the_form(client, users[0], game, full).status_code == 302
    assert len(Speech.objects.get().body) == MAX_SPEECH_LENGTH
    from junta.games.campaigns import CampaignError

    with pytest.raises(CampaignError, match=f"this one has {MAX_SPEECH_LENGTH + 1:,}"):
        post_speech(game, users[1], (full + "y").replace("\n", "\r\n"))  # counted as seen
