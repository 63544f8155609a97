"""Talk for `make run`'s demo campaigns, so that a newcomer sees a living game: speeches spread
over the running campaign's past phases, and private conversations between the demo players
(Carlos and Isabel strike a deal, three families plot, Miguel writes to the GameMaster); and the
finished campaign's talk, made while the bots play it (`talk_during_first`), two conversations
of which the plotters agree, at the end, to reveal one (`reveal_first`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction

from junta.games.public import (
    CampaignError,
    Game,
    Phase,
    Player,
    Speech,
    backdate_speech,
    post_speech,
)
from junta.games.public import raised as revision_raised
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


# the finished campaign: {phase number: (seat, speech)}, posted as that phase is played
FIRST_SPEECHES: dict[int, tuple[int, str]] = {
    2: (0, "Citizens of the First Republic! Let us share the budget like gentlemen, "
           "and share it **soon**."),
    9: (4, "Don Rafael has heard rumours of tanks. Don Rafael is not worried. "
           "Don Rafael owns a boat."),
    17: (7, "I have served three Presidents and buried two. The third is listening, I hope, "
            "and he looks *very* healthy today."),
    26: (2, "To whoever bribed my Colonel: he is cheap, but he is *my* cheap."),
    36: (9, "The Chamber has voted. The Chamber will vote again. The Chamber never tires."),
    45: (5, "Madame Elena regrets nothing, and she invites you all to tea."),
    55: (1, "A budget with nothing for the Navy is a budget that learns to swim."),
    66: (6, "> Madame Elena regrets nothing\n\nThe Captain regrets the tea."),
    78: (3, "The Bank is nearly empty. So, gentlemen, are your promises."),
    88: (8, "History will judge us. Fortunately, History banks in Switzerland."),
}

# the finished campaign's conversations, started at phase FIRST_TALK_PHASE; the first is
# revealed at the end by all its members, the second stays secret (only Carlos agrees)
FIRST_TALK_PHASE = 30
FIRST_CONVERSATIONS: list[tuple[str, list[int], bool, list[tuple[int | None, str]]]] = [
    ("The Palace, at dawn", [6, 2, 4], False, [
        (6, "The President sleeps in the Palace and the Palace sleeps unguarded. Tuesday?"),
        (2, "Tuesday. I bring the Navy; Rafael brings the planes, or nobody brings anything."),
        (4, "Planes I have. What I want is the Ministry of War, in writing."),
        (6, "In writing? Rafael, this is a coup, not a notary's office."),
    ]),
    ("Between old friends", [0, 1], False, [
        (0, "Isabel, the Navy's share is yours if you vote my budget."),
        (1, "And the Navy's share next turn too. I know how your budgets age."),
    ]),
]


def talk_during_first(game: Game, phase: Phase) -> None:
    """The finished demo campaign's talk for `phase`, as the bots play it."""
    speech = FIRST_SPEECHES.get(phase.number)
    with transaction.atomic(), revision_raised(game.id):  # the backdating below included
        if speech is not None:
            _speak(game, speech[0], speech[1], phase)
        if phase.number == FIRST_TALK_PHASE:
            _converse(game, FIRST_CONVERSATIONS, phase.opens_at + timedelta(hours=1))


def reveal_first(game: Game) -> None:
    """Once the finished demo campaign is over, each of its plotters agrees to reveal his
    conversation (the first), and Carlos alone agrees for the second: it stays secret."""
    seats = _seats(game)
    for (subject, members, _, _), agreeing in zip(FIRST_CONVERSATIONS, ([6, 2, 4], [0]),
                                                  strict=True):
        talk = Conversation.objects.filter(game=game, subject=subject).first()
        if talk is None:
            continue
        for seat in agreeing:
            reader = access.reader_for(game, seats[seat].user)
            if reader is not None and seat in members:
                services.agree_to_reveal(talk, reader)


def demo_talk(game: Game) -> None:
    """Fill the demo campaign with talk, once (nothing when it has speeches already). A line
    the rules of talk refuse (its family is in exile by then) is left out."""
    if Speech.objects.filter(game=game).exists():
        return
    with transaction.atomic(), revision_raised(game.id):  # the backdating below included
        _speeches(game)
        last = game.phases.order_by("-number").first()
        _converse(game, CONVERSATIONS, last.opens_at if last else game.created_at)


def _seats(game: Game) -> dict[int, Player]:
    return {p.seat: p for p in game.players.filter(membership=Player.Membership.ACTIVE)
            .select_related("user").prefetch_related("characters") if p.seat is not None}


def _speeches(game: Game) -> None:
    phases = list(game.phases.order_by("number"))
    for i, (seat, text) in enumerate(SPEECHES):
        phase = phases[i * (len(phases) - 1) // max(1, len(SPEECHES) - 1)]
        _speak(game, seat, text, phase)


def _speak(game: Game, seat: int, text: str, phase: Phase) -> None:
    """The speech, made during `phase` (two hours after it opened); none when the rules of
    talk silence that family by then."""
    try:
        speech = post_speech(game, _seats(game)[seat].user, text)
    except CampaignError:
        return
    backdate_speech(speech, phase, phase.opens_at + timedelta(hours=2))


def _converse(game: Game,
              conversations: list[tuple[str, list[int], bool, list[tuple[int | None, str]]]],
              start: datetime) -> None:
    seats = _seats(game)
    for subject, members, with_gm, lines in conversations:
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
            if n == 0:
                Conversation.objects.filter(pk=talk.pk).update(created_at=at)
            read_until[message.author_id] = at  # each has read up to his own last word
        for member in Member.objects.filter(conversation=talk):
            Member.objects.filter(pk=member.pk).update(read_until=read_until.get(member.user_id))
