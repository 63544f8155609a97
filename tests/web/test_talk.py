"""Private conversations (docs/rules.md §talk), through the pages as a browser uses them:
starting one, writing, the unread counts in the game menu, new messages for a page left open,
who reads what (members only; the GameMaster only where the campaign allows it), the rules of
talk for the dead and the exiles, leaving, and revealing after the end."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from junta.engine import GameState, digest
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase
from junta.talk import services
from junta.talk.access import reader_for
from junta.talk.models import Conversation, Member, Message
from tests.web.browser_forms import Form, forms_in, submit
from tests.web.campaigns import kill_in_open_phase, open_phase
from tests.web.talk_helpers import message_form, seat_of, send, start_through_form

pytestmark = pytest.mark.django_db

SECRET = "TALK-SECRET-MARKER-4471: meet me at the Mistress, bring 12 MP"


@pytest.fixture
def started(campaign):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    return game, users


def access_reader(game: Game, user):  # noqa: ANN201 - a talk Reader
    reader = reader_for(game, user)
    assert reader is not None
    return reader


def test_two_players_talk_in_private_and_no_one_else_reads_it(started, client):
    """ "Private conversations are between two or more players of the campaign, started by
    any of them; only their members read them." """
    game, (carlos, isabel, miguel, *_) = started
    client.force_login(carlos)
    response = start_through_form(client, game, [seat_of(game, isabel)], "The budget",
                                  SECRET)
    assert response.status_code == 302
    talk = Conversation.objects.get(game=game)
    assert response["Location"] == reverse("talk_conversation", args=[game.id, talk.id])
    page = client.get(response["Location"]).content.decode()
    assert "TALK-SECRET-MARKER-4471" in page and "The budget" in page

    client.force_login(isabel)
    status = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert "Talk <span class=\"badge badge-new\">1" in status  # the menu counts it
    assert "TALK-SECRET-MARKER-4471" in client.get(
        reverse("talk_conversation", args=[game.id, talk.id])).content.decode()
    assert send(client, game, talk, "Twelve is too much.").status_code == 302
    assert "Talk <span" not in client.get(
        reverse("game_status", args=[game.id])).content.decode()  # read, and his own

    client.force_login(miguel)  # not a member: nothing shows, the page is not found
    for name in ("talk_index", "game_status", "game_events", "game_orders", "lobby"):
        url = reverse(name, args=[game.id]) if name != "lobby" else reverse(name)
        body = client.get(url).content.decode()
        assert "TALK-SECRET-MARKER" not in body and "The budget" not in body, name
    for name in ("talk_conversation", "talk_messages"):
        assert client.get(reverse(name, args=[game.id, talk.id])).status_code == 404
    assert client.post(reverse("talk_conversation", args=[game.id, talk.id]),
                       {"body": "let me in"}).status_code == 404
    assert Message.objects.count() == 2


def test_the_gm_reads_only_what_he_is_in_unless_the_campaign_says_so(started, client):
    """ "The GameMaster reads them only if the campaign said so when it was created (every
    player sees that choice before joining); any player may also write to the GameMaster
    privately." """
    game, (carlos, isabel, miguel, *_) = started
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel)], "Between us", SECRET)
    to_gm = start_through_form(client, game, [], "A word with the GM", "Am I in danger?",
                               with_gm=True)
    assert to_gm.status_code == 302
    between, with_gm = (Conversation.objects.get(subject=s) for s in
                        ("Between us", "A word with the GM"))
    client.force_login(game.gm)
    listing = client.get(reverse("talk_index", args=[game.id])).content.decode()
    assert "A word with the GM" in listing and "Between us" not in listing
    assert "Not even the GameMaster" in listing or "not even the GameMaster" in listing
    assert client.get(reverse("talk_conversation", args=[game.id, between.id])) \
        .status_code == 404
    assert "Am I in danger?" in client.get(
        reverse("talk_conversation", args=[game.id, with_gm.id])).content.decode()
    client.force_login(isabel)  # a private word to the GM is his and Carlos's alone
    assert client.get(reverse("talk_conversation", args=[game.id, with_gm.id])) \
        .status_code == 404

    game.gm_reads_talk = True
    game.save(update_fields=["gm_reads_talk"])
    client.force_login(game.gm)
    page = client.get(reverse("talk_conversation", args=[game.id, between.id])).content.decode()
    assert "TALK-SECRET-MARKER-4471" in page
    assert "You are not a member" in page and 'name="body"' not in page  # he reads, no more
    client.force_login(isabel)
    assert "the GameMaster may read it" in client.get(
        reverse("talk_conversation", args=[game.id, between.id])).content.decode()


def test_the_choice_is_made_at_creation_and_shown_before_joining(client, django_user_model):
    gm = django_user_model.objects.create_user(email="gm-talk@example.org")
    client.force_login(gm)
    page = client.get(reverse("game_create")).content.decode()
    assert "The GameMaster may read them too" in page
    form = next(f for f in forms_in(page) if "name" in f.names())
    form.set("name", "Talkative").set("gm_reads_talk", "yes")
    assert submit(client, reverse("game_create"), form).status_code == 302
    game = Game.objects.get(name="Talkative")
    assert game.gm_reads_talk
    form.set("name", "Quiet").set("gm_reads_talk", "no")
    submit(client, reverse("game_create"), form)
    assert Game.objects.get(name="Quiet").gm_reads_talk is False
    silent = {name: value for name, value in form.set("name", "Unsaid").submission()
              if name != "gm_reads_talk"}
    client.post(reverse("game_create"), silent)  # no answer: private
    assert Game.objects.get(name="Unsaid").gm_reads_talk is False
    newcomer = django_user_model.objects.create_user(email="newcomer@example.org")
    client.force_login(newcomer)
    detail = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "the GameMaster may read them" in detail


def test_a_page_left_open_gets_new_messages_and_304_when_nothing_changed(started, client):
    game, (carlos, isabel, *_) = started
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel)], "Live", "first")
    talk = Conversation.objects.get()
    url = reverse("talk_messages", args=[game.id, talk.id])
    client.force_login(isabel)
    page = client.get(reverse("talk_conversation", args=[game.id, talk.id])).content.decode()
    last = Message.objects.get().id
    assert f'data-after="{last}"' in page
    quiet = client.get(url, {"after": last, "read": "1"})
    assert quiet.status_code == 200 and json.loads(quiet.content)["messages"] == []
    etag = quiet["ETag"]
    assert client.get(url, {"after": last, "read": "1"}, headers={"If-None-Match": etag}) \
        .status_code == 304

    client.force_login(carlos)  # Carlos writes, through his page's form
    send(client, game, talk, "**Second** thoughts")
    client.force_login(isabel)
    assert "Talk <span" in client.get(reverse("game_status", args=[game.id])).content.decode()
    fresh = client.get(url, {"after": last, "read": "1"}, headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    data = json.loads(fresh.content)
    assert [m["author"] for m in data["messages"]] == ["Don Carlos"]
    assert "<strong>Second</strong> thoughts" in data["messages"][0]["html"]
    assert data["last"] == Message.objects.latest("id").id
    # read while the page was in view: the menu's count is gone
    assert "Talk <span" not in client.get(
        reverse("game_status", args=[game.id])).content.decode()
    assert client.get(url, {"after": "x"}).status_code == 400


def test_an_exile_reads_but_writes_only_to_the_gm(started, client):
    """ "An exile may not trade or deal with anyone: he may read his conversations, but sends
    nothing until he returns, and may not make speeches. He may still write to the
    GameMaster." """
    game, (carlos, isabel, *_) = started
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel)], "Deal", "a deal?")
    start_through_form(client, game, [], "Help", "GM, a question", with_gm=True)
    deal, help_ = (Conversation.objects.get(subject=s) for s in ("Deal", "Help"))
    phase = open_phase(game)
    state = GameState.from_dict(phase.state_before)
    state.players[seat_of(game, carlos).seat].status = "exiled"
    phase.state_before = state.to_dict()
    phase.state_digest = digest(state)
    phase.save()

    page = client.get(reverse("talk_conversation", args=[game.id, deal.id])).content.decode()
    assert "a deal?" in page and "is in exile and may not deal with anyone" in page
    assert 'name="body"' not in page
    refused = client.post(reverse("talk_conversation", args=[game.id, deal.id]),
                          {"body": "smuggled words"})
    assert refused.status_code == 400
    assert "is in exile" in refused.content.decode()
    assert "smuggled words" in refused.content.decode()  # his text is kept in the form
    assert not Message.objects.filter(body="smuggled words").exists()
    refused = start_through_form(client, game, [seat_of(game, isabel)], "New deal", "hello")
    assert refused.status_code == 400 and not Conversation.objects.filter(
        subject="New deal").exists()
    assert send(client, game, help_, "Get me home").status_code == 302
    assert Message.objects.filter(body="Get me home").exists()


def test_the_dead_may_talk(started, client):
    """ "The dead may talk, in speeches and in private." """
    game, (carlos, isabel, *_) = started
    kill_in_open_phase(game, seat_of(game, carlos).seat)
    client.force_login(carlos)
    assert start_through_form(client, game, [seat_of(game, isabel)], "From beyond",
                              "I will be back").status_code == 302
    assert Message.objects.filter(body="I will be back").exists()


def test_bad_messages_are_refused_with_their_reason_and_nothing_lost(started, client):
    game, (carlos, isabel, *_) = started
    client.force_login(carlos)
    empty = start_through_form(client, game, [seat_of(game, isabel)], "Subject", "   ")
    assert empty.status_code == 400 and "A message needs some words." in \
        empty.content.decode()
    nobody = start_through_form(client, game, [], "Alone", "hello?")
    assert nobody.status_code == 400 and "Choose at least one other player" in \
        nobody.content.decode()
    assert "hello?" in nobody.content.decode()
    start_through_form(client, game, [seat_of(game, isabel)], "Subject", "ok")
    talk = Conversation.objects.get()
    too_long = "x" * 10001
    answer = client.post(reverse("talk_conversation", args=[game.id, talk.id]),
                         {"body": too_long})
    assert answer.status_code == 400 and "10001 characters long" in answer.content.decode()
    assert Message.objects.count() == 1
    other = Game.objects.create(name="Elsewhere", gm=game.gm)
    assert client.get(reverse("talk_conversation", args=[other.id, talk.id])).status_code \
        == 404


def test_a_member_who_leaves_reads_it_no_more_and_the_others_keep_it(started, client):
    """ "A member may leave a conversation: he reads it no more, and the others keep what was
    said." """
    game, (carlos, isabel, miguel, *_) = started
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel), seat_of(game, miguel)], "Three",
                       SECRET)
    talk = Conversation.objects.get()
    client.force_login(miguel)
    assert client.post(reverse("talk_leave", args=[game.id, talk.id])).status_code == 302
    assert client.get(reverse("talk_conversation", args=[game.id, talk.id])).status_code \
        == 404
    assert reverse("talk_conversation", args=[game.id, talk.id]) not in client.get(
        reverse("talk_index", args=[game.id])).content.decode()
    client.force_login(isabel)
    page = client.get(reverse("talk_conversation", args=[game.id, talk.id])).content.decode()
    assert "TALK-SECRET-MARKER-4471" in page and "Left: Don Miguel" in page


def test_after_the_end_a_conversation_is_revealed_once_every_member_agrees(started, client):
    """ "When the game ends, a conversation can be shown to everyone in the History once
    everyone in it and everyone who wrote in it agree" (those who left: test_talk_reveal.py)."""
    game, (carlos, isabel, miguel, *_) = started
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel)], "The plot", SECRET)
    talk = Conversation.objects.get()
    reveal = reverse("talk_reveal", args=[game.id, talk.id])
    client.post(reveal)
    assert not Member.objects.filter(agrees_to_reveal=True).exists()  # not before the end

    game.status = Game.Status.FINISHED
    game.save(update_fields=["status"])
    client.post(reveal)
    client.force_login(miguel)
    revealed = reverse("talk_revealed", args=[game.id])
    assert "TALK-SECRET-MARKER" not in client.get(revealed).content.decode()
    assert "Waiting for: Don Isabel" in (client.force_login(carlos) or client.get(
        reverse("talk_conversation", args=[game.id, talk.id])).content.decode())
    client.force_login(isabel)
    client.post(reveal)
    client.force_login(miguel)
    assert "TALK-SECRET-MARKER-4471" in client.get(revealed).content.decode()
    assert reverse("talk_revealed", args=[game.id]) in client.get(
        reverse("game_history", args=[game.id])).content.decode()


def test_spectators_have_no_talk_pages(started, client, django_user_model):
    game, _users = started
    client.force_login(django_user_model.objects.create_user(email="spectator@example.org"))
    assert client.get(reverse("talk_index", args=[game.id])).status_code == 404
    assert Phase.objects.filter(game=game).exists()


def test_each_member_has_his_own_unread_count(started, client):
    """One member reading leaves the others' messages unread for them."""
    game, (carlos, isabel, miguel, *_) = started
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel), seat_of(game, miguel)], "Three",
                       "first")
    talk = Conversation.objects.get()
    client.force_login(isabel)
    client.get(reverse("talk_conversation", args=[game.id, talk.id]))
    client.force_login(carlos)
    send(client, game, talk, "second")
    for person, unread in ((isabel, 1), (miguel, 2), (carlos, 0)):
        client.force_login(person)
        listing = client.get(reverse("talk_index", args=[game.id])).content.decode()
        assert (f"{unread} unread" in listing) == bool(unread), person
        if not unread:
            assert "unread</span>" not in listing


def test_rerender_speeches_renews_announcements_and_messages_too(started):
    """Every text stored as sanitised HTML is rendered again after a policy change."""
    from io import StringIO

    from django.core.management import call_command

    game, (carlos, isabel, *_) = started
    reader = access_reader(game, carlos)
    services.start(reader, "Subject", [seat_of(game, isabel)], False, "**bold** words")
    Message.objects.update(body_html="<script>old</script>")
    out = StringIO()
    call_command("rerender_speeches", "--game", str(game.id), stdout=out)
    assert "Rendered 1 private message again; 1 had changed." in out.getvalue()
    assert "announcements again" in out.getvalue()
    assert Message.objects.get().body_html == "<p><strong>bold</strong> words</p>"


def test_a_newcomer_takes_the_family_s_conversations_with_its_seat(started, client,
                                                                    django_user_model):
    """ "A player who takes over a family from another (the GameMaster replaces him) takes the
    family's conversations with its seat; the one he replaces no longer reads them." """
    from junta.gm import services as gm_services

    game, (carlos, isabel, *_) = started
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel)], "Old deal", SECRET)
    talk = Conversation.objects.get()
    newcomer = django_user_model.objects.create_user(email="nuevo@example.org")
    gm_services.replace_player(game.id, game.gm, seat_of(game, isabel).pk, newcomer.email,
                               "Don Nuevo", reason="Isabel moved away")
    url = reverse("talk_conversation", args=[game.id, talk.id])
    client.force_login(isabel)
    assert client.get(url).status_code == 404
    client.force_login(newcomer)
    page = client.get(url).content.decode()
    assert "TALK-SECRET-MARKER-4471" in page and "Don Nuevo (you)" in page
    assert send(client, game, talk, "I am the family now.").status_code == 302


def not_sent(response, body: str) -> str:
    """The page answering a message that was not sent: his text comes back to him, nothing of
    it is stored. Its text."""
    assert response.status_code == 409
    text = response.content.decode()
    assert "Your message was not sent" in text and f"{body}</textarea>" in text
    assert not Message.objects.filter(body=body).exists()
    return text


def test_a_message_from_a_window_left_open_after_leaving_is_shown_back(started, client):
    """He leaves the conversation in one window and sends a message from another drawn before:
    it is not sent (he reads it no more), and what he typed comes back to him, not a 404."""
    game, users = started
    client.force_login(users[0])
    start_through_form(client, game, [seat_of(game, users[1])], "A deal", "Twelve MP?")
    talk = Conversation.objects.get(game=game)
    form = message_form(client, game, talk).set("body", "Fifteen, final offer.")
    services.leave(talk, access_reader(game, users[0]))
    response = submit(client, reverse("talk_conversation", args=[game.id, talk.id]), form)
    assert "You have left this conversation" in not_sent(response, "Fifteen, final offer.")


def test_a_message_sent_as_its_writer_leaves_elsewhere_is_refused_and_shown_back(started, client,
                                                                                 monkeypatch):
    """He leaves in another window while his message is on its way, after the page checked he
    was still in it: posting reads who is in it again under the conversation's lock, refuses it
    (tests/web/test_talk_concurrency.py has the race itself), and his text comes back."""
    game, users = started
    client.force_login(users[0])
    start_through_form(client, game, [seat_of(game, users[1])], "A deal", "Twelve MP?")
    talk = Conversation.objects.get(game=game)
    form = message_form(client, game, talk).set("body", "Fifteen, final offer.")
    real_post = services.post

    def leave_meanwhile(conversation, reader, body):  # noqa: ANN001, ANN202
        services.leave(conversation, reader)
        return real_post(conversation, reader, body)

    monkeypatch.setattr(services, "post", leave_meanwhile)
    response = submit(client, reverse("talk_conversation", args=[game.id, talk.id]), form)
    assert "You have left this conversation" in not_sent(response, "Fifteen, final offer.")


def replaced_as_she_writes(started, client, django_user_model) -> tuple[Game, Conversation,
                                                                          str, Form, object]:
    """Carlos and Isabel talk; Isabel's page of it is open with a message typed in. (The game,
    the conversation, its address, her form, the GameMaster's replacement of her by a newcomer
    (a function))."""
    from junta.gm import services as gm_services

    game, (carlos, isabel, *_) = started
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel)], "Old deal", SECRET)
    talk = Conversation.objects.get(game=game)
    client.force_login(isabel)
    form = message_form(client, game, talk).set("body", "Fifteen, final offer.")
    newcomer = django_user_model.objects.create_user(email="nuevo@example.org")
    seat = seat_of(game, isabel).pk

    def replace() -> None:
        gm_services.replace_player(game.id, game.gm, seat, newcomer.email, "Don Nuevo",
                                   reason="Isabel moved away")

    return game, talk, reverse("talk_conversation", args=[game.id, talk.id]), form, replace


REPLACED = "The GameMaster has given your family to another player"


def test_a_message_from_a_page_drawn_before_the_gm_replaced_its_writer_is_shown_back(
        started, client, django_user_model):
    """The GameMaster gives her family to a newcomer while her page of a conversation is open:
    what she sends from it is not sent, since the family's conversations went with its seat
    (docs/rules.md §talk), and her text comes back to her, not a 404, with nothing of the
    conversation."""
    _game, _talk, url, form, replace = replaced_as_she_writes(started, client,
                                                             django_user_model)
    replace()
    text = not_sent(submit(client, url, form), "Fifteen, final offer.")
    assert REPLACED in text and "TALK-SECRET-MARKER" not in text


def test_a_message_sent_as_the_gm_replaces_its_writer_is_refused_and_shown_back(
        started, client, django_user_model, monkeypatch):
    """The GameMaster replaces her while her message is on its way, after the page checked she
    was still in it: posting reads who is in it under the conversation's lock, which the
    replacement takes too (tests/web/test_talk_concurrency.py has the race itself), refuses it,
    and her text comes back, with nothing of the conversation."""
    _game, _talk, url, form, replace = replaced_as_she_writes(started, client,
                                                             django_user_model)
    real_post = services.post

    def replaced_meanwhile(conversation, reader, body):  # noqa: ANN001, ANN202
        replace()
        return real_post(conversation, reader, body)

    monkeypatch.setattr(services, "post", replaced_meanwhile)
    text = not_sent(submit(client, url, form), "Fifteen, final offer.")
    assert REPLACED in text and "TALK-SECRET-MARKER" not in text


def test_a_player_the_gm_removes_leaves_his_conversations_and_reads_them_no_more(campaign,
                                                                                  client):
    """While the campaign forms the seated players talk already; the GameMaster removes one of
    them. He is out of its conversations as if he had left them: what he sends from a page
    drawn before comes back to him, the others see he left, and should he join the campaign
    again he reads nothing said since."""
    from junta.games.campaigns import join_game
    from junta.gm import services as gm_services

    game, (carlos, isabel, *_) = campaign(players=6)
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel)], "Before the start", "12 MP?")
    talk = Conversation.objects.get(game=game)
    url = reverse("talk_conversation", args=[game.id, talk.id])
    client.force_login(isabel)
    form = message_form(client, game, talk).set("body", "Fifteen, final offer.")
    gm_services.remove_player(game.id, game.gm, seat_of(game, isabel).pk)
    text = not_sent(submit(client, url, form), "Fifteen, final offer.")
    assert "The GameMaster has removed you from this campaign" in text
    client.force_login(carlos)
    assert send(client, game, talk, SECRET).status_code == 302
    assert "Left: Don Isabel." in client.get(url).content.decode()

    join_game(game.id, isabel, "Doña Isabel")  # an open campaign: she is seated again
    client.force_login(isabel)
    assert client.get(url).status_code == 404
    assert client.get(reverse("talk_messages", args=[game.id, talk.id])).status_code == 404
    assert "Before the start" not in client.get(reverse("talk_index", args=[game.id])) \
        .content.decode()
