"""The site in the reader's language (accounts/languages.py, junta/site/language.py): a visitor's
browser chooses (Accept-Language, then the footer's switcher, which needs no script), a
signed-in person's saved language wins over his browser's; what is kept of a page in one
language is never served in another; mails and pushes are written in the recipient's language,
whoever sends them and whatever the language of the request or task that does."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from junta.api import tokens
from junta.games import speeches
from junta.games.cache_keys import content_key
from junta.games.campaigns import start_campaign
from junta.notify import conversations, push
from junta.notify.models import Preferences
from junta.talk import access, services

pytestmark = pytest.mark.django_db

SPANISH = {"Accept-Language": "es-ES,es;q=0.9"}
ENGLISH = {"Accept-Language": "en-US,en;q=0.9"}


def test_a_visitor_reads_his_browsers_language_until_he_switches_in_the_footer():
    browser = Client(enforce_csrf_checks=True)  # a visitor's switch needs no token
    page = browser.get(reverse("rules"), headers=SPANISH).content.decode()
    assert '<html lang="es">' in page and ">Registrarse<" in page and ">Sign up<" not in page
    assert 'name="csrfmiddlewaretoken"' not in page.split('class="site-footer"')[1]
    english = browser.get(reverse("rules"), headers=ENGLISH)
    assert ">Sign up<" in english.content.decode() and english["Content-Language"] == "en"

    switched = browser.post(reverse("set_language"), {"language": "es", "next": "/rules/"},
                            headers=ENGLISH)
    assert (switched.status_code, switched["Location"]) == (302, "/rules/")
    page = browser.get(reverse("rules"), headers=ENGLISH).content.decode()
    assert ">Registrarse<" in page  # his choice (a cookie) over his browser's
    missing = browser.get("/no-such-page/", headers=ENGLISH)
    assert missing.status_code == 404 and "Esta página no existe" in missing.content.decode()
    assert browser.post(reverse("set_language"), {"language": "xx", "next": "/"},
                        headers=ENGLISH).status_code == 302  # not a language: ignored
    assert ">Registrarse<" in browser.get("/", headers=ENGLISH).content.decode()


def test_a_signed_in_persons_saved_language_wins_over_his_browsers(django_user_model):
    carlos = django_user_model.objects.create_user(email="carlos@example.org")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(carlos)
    page = browser.get(reverse("profile"), headers=SPANISH).content.decode()
    assert ">Tu perfil<" in page  # nothing saved: his browser's
    footer = page.split('class="site-footer"')[1]
    token = footer.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert browser.post(reverse("set_language"), {"language": "es", "next": "/"},
                        headers=ENGLISH).status_code == 403  # his profile: the token needed
    carlos.refresh_from_db()
    assert carlos.language == ""
    browser.post(reverse("set_language"), {"language": "es", "next": "/",
                                           "csrfmiddlewaretoken": token}, headers=ENGLISH)
    carlos.refresh_from_db()
    assert carlos.language == "es"
    # another browser, which asks for English and never switched: his profile wins
    elsewhere = Client()
    elsewhere.force_login(carlos)
    page = elsewhere.get(reverse("profile"), headers=ENGLISH).content.decode()
    assert ">Tu perfil<" in page and '<option value="es" lang="es" selected>' in page
    # the profile's form: back to "as my browser asks"
    saved = elsewhere.post(reverse("profile"), {
        "display_name": "", "time_zone": carlos.time_zone, "language": ""}, headers=ENGLISH)
    assert saved.status_code == 302
    carlos.refresh_from_db()
    assert carlos.language == ""
    assert ">Your profile<" in elsewhere.get(reverse("profile"), headers=ENGLISH).content.decode()


def test_signing_up_in_spanish_saves_spanish_for_his_mails(
        client, django_user_model, django_capture_on_commit_callbacks, eager_celery):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account_signup"), {
            "email": "lucia@example.org", "password1": "a long pass phrase 2026",
            "password2": "a long pass phrase 2026", "display_name": "Lucia",
            "time_zone": "Europe/Madrid"}, headers=SPANISH)
    assert django_user_model.objects.get(email="lucia@example.org").language == "es"
    [confirm] = mail.outbox
    assert "confirme su dirección" in confirm.subject, confirm.subject  # allauth's Spanish


def test_a_page_kept_in_english_is_never_served_in_spanish(campaign):
    """The same person, the same browser, the same revision: another language is another page,
    another ETag; the API's answers and every kept drawing likewise."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    browser = Client()
    browser.force_login(users[0])
    browser.get(reverse("lobby"))
    assert settings.CSRF_COOKIE_NAME in browser.cookies
    url = reverse("game_status", args=[game.id])
    english = browser.get(url, headers=ENGLISH)
    assert browser.get(url, headers={**ENGLISH, "If-None-Match": english["ETag"]}
                       ).status_code == 304  # kept
    spanish = browser.get(url, headers={**SPANISH, "If-None-Match": english["ETag"]})
    assert spanish.status_code == 200 and spanish["ETag"] != english["ETag"]
    assert ">Salir<" in spanish.content.decode() and ">Log out<" not in spanish.content.decode()
    assert ">Órdenes</a>" in spanish.content.decode()  # the campaign's menu
    kept = browser.get(url, headers=SPANISH)  # now kept in Spanish too, apart
    assert kept.content == spanish.content and kept["Content-Language"] == "es"
    assert ">Log out<" in browser.get(url, headers=ENGLISH).content.decode()

    auth = {"Authorization": f"Bearer {tokens.create(users[0], 'bot').secret}"}
    api = f"/api/v1/campaigns/{game.id}"
    tag = Client().get(api, headers={**auth, **ENGLISH})["ETag"]
    assert Client().get(api, headers={**auth, **ENGLISH, "If-None-Match": tag}
                        ).status_code == 304
    assert Client().get(api, headers={**auth, **SPANISH, "If-None-Match": tag}
                        ).status_code == 200

    with translation.override("en"):  # every drawing kept (the Events' entries, maps, forms)
        in_english = content_key("events-entry", 1, "x")
    with translation.override("es"):
        assert content_key("events-entry", 1, "x") != in_english


def test_mails_and_pushes_are_written_in_each_recipients_language(campaign, monkeypatch):
    """Carlos reads English, Isabel Spanish, Miguel chose nothing (the site's English): each
    gets his mail and his push in his own, whatever the language of the task that sends it."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    carlos, isabel, miguel = users[:3]
    type(carlos).objects.filter(pk=carlos.pk).update(language="en")
    type(carlos).objects.filter(pk=isabel.pk).update(language="es")
    for person in (isabel, miguel):
        Preferences.objects.create(user=person, game=game, messages=True)
    pushed: dict[int, str] = {}
    monkeypatch.setattr(push, "audience", lambda _game, ids, _event: sorted(ids))
    monkeypatch.setattr(push, "deliver", lambda user_id, _g, _k, _key, text, _now:
                        pushed.setdefault(user_id, text.body) and push.SENT)
    with translation.override("en"):  # Carlos writes, in English
        talk = services.start(access.reader_for(game, carlos), "La Marina",
                              [game.players.get(user=isabel), game.players.get(user=miguel)],
                              False, "The Navy is for sale.")
        push.message(talk.messages.get().id)
    with translation.override("es"):  # the sweep, in whatever language its task runs
        conversations.conversation_mails(timezone.now())
    to = {message.to[0]: message for message in mail.outbox}
    spanish, english = to[isabel.email], to[miguel.email]
    assert spanish.subject == f"[Junta] {game.name}: 1 mensaje nuevo en «La Marina»"
    assert "Leer y responder:" in spanish.body and "The Navy is for sale." in spanish.body
    assert "Dejar de recibir estos correos" in spanish.body
    html = spanish.alternatives[0].content
    assert '<html lang="es">' in html and "Novedades en «La Marina»" in html
    assert english.subject == f"[Junta] {game.name}: 1 new message in “La Marina”"
    assert "Read and answer:" in english.body and '<html lang="en">' in \
        english.alternatives[0].content
    assert pushed[isabel.pk].endswith("te ha escrito")
    assert pushed[miguel.pk].endswith("wrote to you")

    pushed.clear()
    with translation.override("es"):
        push.announcement(speeches.do_post_announcement(game, game.gm, "News.").id)
    assert pushed[isabel.pk] == "El director de juego ha publicado un anuncio"
    assert pushed[carlos.pk] == pushed[miguel.pk] == "The GameMaster made an announcement"


def test_the_scripts_words_come_in_the_pages_language_and_are_kept_for_good(client):
    page = client.get(reverse("rules"), headers=SPANISH).content.decode()
    address = re.search(r'<script src="(/jsi18n/es/[0-9a-f]+\.js)"', page).group(1)
    catalogue = client.get(address)
    assert catalogue.status_code == 200 and "immutable" in catalogue["Cache-Control"]
    assert "Este navegador no puede recibir notificaciones." in catalogue.content.decode()
    english = client.get(address.replace("/es/", "/en/")).content.decode()
    assert "Este navegador" not in english
    assert client.get(address.replace("/es/", "/xx/")).status_code == 404
    assert client.get("/jsi18n/es/0000.js").status_code == 404  # not this version of the site
