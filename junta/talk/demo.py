"""Talk for `make run`'s demo campaign, so that a newcomer sees a living game: speeches spread
over the campaign's past phases, and private conversations between the demo players (Carlos
and Isabel strike a deal, three families plot, Miguel writes to the GameMaster)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction

from junta.games import revisions, speeches
from junta.games.campaigns import CampaignError
from junta.games.models import Game, Player, Speech
from junta.talk import access, services
from junta.talk.models import Conversation, Member, Message

# (seat, speech) in the order they were made, spread evenly over the campaign's phases
SPEECHES: list[tuple[int, str]] = [
    (0, "Citizens! The Republic needs **order**, and order needs a strong hand. Mine."),
    (1, "The Generalissimo forgets who pays the soldiers. The budget is the people's."),
    (4, "I propose that every family be paid *something*. Even the Navy."),
    (2, "> Even the Navy.\n\nThe Navy thanks Don Rafael for his generosity. We have boats."),
    (6, "Who moved the tanks out of the barracks last night? Asking for a friend."),
    (3, "A reminder that the Bank closes for lunch. Plan accordingly, gentlemen."),
    (0, "The coup has failed, as coups do. The firing squad sends its regards."),
    (9, "El Presidente's competence is a matter for the Chamber. I merely count the votes."),
    (5, "Madame Elena will be at home all day. Everyone is welcome. Truly."),
    (7, "Another budget, another 2 MP for Dona Pilar. The Republic is *so* grateful."),
]

# (subject, members by seat (the first starts it), with the GameMaster, messages by seat)
CONVERSATIONS: list[tuple[str, list[int], bool, list[tuple[int | None, str]]]] = [
    ("The Foreign Minister's draw", [0, 1], False, [
        (0, "Isabel: what did you draw this turn? I will vote for your budget if it is fair."),
        (1, "Three bills, 5 MP in all. Twelve for you if the Navy gets nothing."),
        (0, "Done. And if the Admiral asks, we never spoke."),
    ]),
    ("Tanks at dawn?", [6, 2, 4], False, [
        (6, "The Palace is thinly held. The 2nd Brigade and the Navy could take it in a day."),
        (2, "I need the Air Force on our side first. Rafael?"),
        (4, "My price is the Ministry of War. Think about it."),
    ]),
    ("A question about the rules", [2], True, [
        (2, "May I hand my units to another Rebel during a coup?"),
        (None, "Yes, at the start of any coup phase: see the rules, §transfers."),
    ]),
]


def demo_talk(game: Game) -> None:
    """Fill the demo campaign with talk, once (nothing when it has speeches already). A line
    the rules of talk refuse (its family is in exile by then) is left out."""
    if Speech.objects.filter(game=game).exists():
        return
    with transaction.atomic(), revisions.raised(game.id):  # the backdating below included
        _speeches(game)
        _conversations(game)


def _seats(game: Game) -> dict[int, Player]:
    return {p.seat: p for p in game.players.filter(membership=Player.Membership.ACTIVE)
            .select_related("user").prefetch_related("characters") if p.seat is not None}


def _speeches(game: Game) -> None:
    seats = _seats(game)
    phases = list(game.phases.order_by("number"))
    for i, (seat, text) in enumerate(SPEECHES):
        try:
            speech = speeches.post_speech(game, seats[seat].user, text)
        except CampaignError:
            continue
        phase = phases[i * (len(phases) - 1) // max(1, len(SPEECHES) - 1)]
        Speech.objects.filter(pk=speech.pk).update(
            phase=phase, created_at=phase.opens_at + timedelta(hours=2))


def _conversations(game: Game) -> None:
    seats = _seats(game)
    last = game.phases.order_by("-number").first()
    start = last.opens_at if last else game.created_at
    for subject, members, with_gm, lines in CONVERSATIONS:
        starter = access.reader_for(game, seats[members[0]].user)
        try:
            assert starter is not None
            talk = services.start(starter, subject, [seats[s] for s in members[1:]], with_gm,
                                  lines[0][1])
        except services.TalkError:
            continue
        for seat, text in lines[1:]:
            reader = access.reader_for(game, game.gm if seat is None else seats[seat].user)
            try:
                assert reader is not None
                services.post(talk, reader, text)
            except services.TalkError:
                continue
        read_until: dict[int, object] = {}
        for n, message in enumerate(Message.objects.filter(conversation=talk).order_by("id")):
            at = start + timedelta(minutes=20 * n)
            Message.objects.filter(pk=message.pk).update(created_at=at)
            Conversation.objects.filter(pk=talk.pk).update(last_message_at=at)
            read_until[message.author_id] = at  # each has read up to his own last word
        for member in Member.objects.filter(conversation=talk):
            Member.objects.filter(pk=member.pk).update(read_until=read_until.get(member.user_id))
