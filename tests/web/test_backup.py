"""Backups of one campaign (`manage.py export_campaign` / `import_campaign`, junta/gm/backup.py):
a campaign played with bots, speeches, a death and an heir, a GM ruling, a replacement and a
rollback is exported, deleted and imported again; every row comes back (ids aside), the replay
finds the stored digests, a tampered file is refused, and a second import is refused. Last,
docker compose's nightly `pg_dump` loop runs once against PostgreSQL and its dump restores."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
import uuid
from datetime import date, timedelta
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.apps import apps
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import CommandError, call_command
from django.db import connection, models
from django.utils import timezone

from accounts.models import User
from junta import engine
from junta.games import repository
from junta.games.archive import AUDIT_PLAYER_KEYS
from junta.games.campaigns import start_campaign
from junta.games.models import (
    Announcement,
    AuditEntry,
    Bill,
    Character,
    Game,
    Order,
    Phase,
    PhaseResult,
    Player,
    PoliticalCard,
    Position,
    Speech,
    Unit,
)
from junta.games.speeches import post_announcement, post_speech
from junta.gm import backup, services
from junta.lives.models import HeirDraft, Obituary
from junta.lives.services import prepare_heir
from junta.notify.models import Absence, ConversationMail, Delivery, Preferences
from junta.polls.models import Choice as PollChoice
from junta.polls.models import Poll, Vote
from junta.polls.services import post_poll
from junta.polls.services import vote as cast_vote
from junta.talk import access as talk_access
from junta.talk import services as talk_services
from junta.talk.models import Conversation, Member, Message
from tests.conftest import REPO
from tests.web.campaigns import advance_until, open_phase, play_days
from tests.web.images import image_bytes

pytestmark = pytest.mark.django_db

# Each model of a campaign and how to find a campaign's rows of it.
ROWS = {
    Game: "pk", Player: "game", Character: "player__game", Phase: "game", Order: "phase__game",
    PhaseResult: "phase__game", Speech: "game", AuditEntry: "game", HeirDraft: "player__game",
    Obituary: "character__player__game", Preferences: "game", Absence: "player__game",
    Delivery: "game", Position: "game", PoliticalCard: "game", Bill: "game", Unit: "game",
    Announcement: "game", Conversation: "game", Member: "conversation__game",
    Message: "conversation__game", Poll: "game", PollChoice: "poll__game", Vote: "poll__game",
    ConversationMail: "member__conversation__game",
}


# --- an independent picture of a campaign's rows: no ids, references by what they name ------


def natural(obj: models.Model | None) -> object:
    """What a reference names, without row ids."""
    if obj is None:
        return None
    if isinstance(obj, User):
        return obj.email
    if isinstance(obj, Game):
        return "the campaign"
    if isinstance(obj, Player):
        return ("player", obj.user.email, obj.seat, obj.membership, obj.joined_at)
    if isinstance(obj, Phase):
        return ("phase", obj.number)
    if isinstance(obj, Character):
        return ("character", natural(obj.player), obj.life)
    if isinstance(obj, Speech):
        return ("speech", obj.created_at, obj.body)
    if isinstance(obj, Conversation):
        return ("conversation", obj.subject, obj.created_at)
    if isinstance(obj, Member):
        return ("member", natural(obj.conversation), obj.user.email)
    if isinstance(obj, Poll):
        return ("poll", obj.question, obj.created_at)
    if isinstance(obj, PollChoice):
        return ("choice", natural(obj.poll), obj.position, obj.label)
    return (type(obj).__name__, obj.pk)  # static rows (the city's zones) keep their ids


def snapshot(game: Game) -> dict[str, list]:
    """Every row of every model of the campaign, as sorted tuples of field values with the
    references replaced by what they name (audit entries' and mail keys' ids too)."""
    game = Game.objects.get(pk=game.pk)
    players = {p.pk: p for p in Player.objects.filter(game=game).select_related("user")}
    phases = {p.pk: p.number for p in Phase.objects.filter(game=game)}
    out = {}
    for model, path in ROWS.items():
        rows = []
        for obj in model.objects.filter(**{path: game.pk if path == "pk" else game}):
            row = []
            for field in model._meta.concrete_fields:
                if field.primary_key or field.name in ("invite_token", "watch_token"):
                    continue
                if field.is_relation:
                    value = natural(getattr(obj, field.name))
                elif isinstance(field, models.FileField):
                    value = getattr(obj, field.attname).name
                else:
                    value = field.value_from_object(obj)
                if model is AuditEntry and field.name == "data":
                    value = {k: natural(players[v]) if k in AUDIT_PLAYER_KEYS
                             and v in players else v for k, v in value.items()}
                if model is Delivery and field.name == "key":
                    value = re.sub(r"^phase:(\d+)", lambda m: f"phase #{phases[int(m[1])]}",
                                   value)
                    value = re.sub(rf"^game:{game.pk}\b", "game", value)
                row.append((field.name, value))
            rows.append(tuple(row))
        out[model.__name__] = sorted(rows, key=repr)
    return out


# --- the campaign ---------------------------------------------------------------------------


def rich_campaign(campaign):
    """A campaign with something in every table: bot phases, speeches and a reply, an avatar,
    a death (the bots' own) with its obituary and the heir being
    prepared, a GM ruling, a replacement, a rollback, notification settings, an absence and
    mails already sent."""
    game, users = campaign(players=8)
    start_campaign(game.id, game.gm)
    Preferences.objects.create(user=users[0], game=game, results=True, digest=True)
    Preferences.objects.create(user=game.gm, game=game)
    first = post_speech(game, users[0], "Viva la **Republica**!")
    post_speech(game, users[1], "Viva, but whose?", reply_to_id=first.id)
    post_speech(game, game.gm, "The GameMaster welcomes the families.")
    post_announcement(game, game.gm, "The rains come early to *Papaya City*.")
    talker = talk_access.reader_for(game, users[0])
    assert talker is not None
    talk = talk_services.start(talker, "Our deal", [Player.objects.get(user=users[1])], True,
                               "Twelve for your vote.")
    listener = talk_access.reader_for(game, users[1])
    assert listener is not None
    talk_services.post(talk, listener, "Fifteen, and **no** Navy.")
    told = talk.members.get(user=users[0])  # the mail of new messages told him of the answer
    ConversationMail.objects.create(member=told, user=users[0], mailed_at=timezone.now(),
                                    mailed_until=talk.messages.order_by("id").last().created_at)
    poll = post_poll(game, game.gm, "Who wins?", ["The Army", "The Navy"], multiple=False,
                     anonymous=True, live=False,
                     closes_at=timezone.now() + timedelta(days=3))
    cast_vote(poll.id, users[0], [poll.choices.order_by("position").first().pk])
    character = Character.objects.get(player__user=users[2], life=1)
    character.avatar.save("don-isabel.png", ContentFile(image_bytes()))
    # the bots' dice with this seed: a family dies early (in phase 8, an election)
    phase = advance_until(game, users, lambda _phase, state: any(
        p.status == "dead" for p in state.players))
    dead = next(p.seat for p in repository.state_before(phase).players if p.status == "dead")
    heir = Player.objects.get(game=game, seat=dead, membership="active").user
    prepare_heir(game.id, heir, "Doña Carla", "Back from Paris.")
    play_days(game, users, 1)
    state = repository.state_before(open_phase(game))
    source = next(f"{pot}:{p.seat}" for p in state.players for pot in ("pocket", "bank")
                  if getattr(p, pot) > 0)
    target = next(f"bank:{p.seat}" for p in state.players if f"bank:{p.seat}" != source)
    services.move_money(game.id, game.gm, source, target, 1, reason="a bribe the engine missed",
                        announcement="The GM moves one million.")
    newcomer = User.objects.create_user(email="newcomer@example.org", display_name="Nuevo")
    old = Player.objects.get(game=game, seat=(dead + 1) % 8, membership="active")
    services.replace_player(game.id, game.gm, old.pk, newcomer.email, "Don Nuevo",
                            reason="Lucia moved away")
    play_days(game, users, 1)
    current = open_phase(game)
    services.rollback(game.id, game.gm, current.number - 1, reason="a misread order",
                      current_phase=current.number)
    post_speech(game, newcomer, "I am new here.")
    player = Player.objects.get(game=game, seat=4, membership="active")
    Absence.objects.create(player=player, starts_on=date(2026, 5, 1), ends_on=date(2026, 5, 9),
                           note="in the mountains")
    published = PhaseResult.objects.filter(phase__game=game, published_at__isnull=False).first()
    Delivery.objects.create(user=users[0], game=game, kind="results",
                            key=f"phase:{published.phase_id}", status="sent", subject="Results")
    Delivery.objects.create(user=users[0], game=game, kind="campaign",
                            key=f"game:{game.id}:start", status="sent", subject="Started")
    assert HeirDraft.objects.filter(player__game=game).exists()
    return game, users


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


# The export of the rich campaign, kept for the module's other tests (playing it takes a while).
EXPORTS: dict[str, str] = {}


@pytest.fixture
def exported(campaign, tmp_path):
    """The rich campaign, exported to a file: (game, users, the file, its snapshot)."""
    game, users = rich_campaign(campaign)
    path = tmp_path / "campaign.json"
    call_command("export_campaign", game.id, "-o", str(path), stderr=StringIO())
    EXPORTS["rich"] = path.read_text()
    return game, users, path, snapshot(game)


@pytest.fixture
def export_file(campaign, tmp_path):
    """The file alone, the campaign not in the database (its people neither)."""
    if "rich" not in EXPORTS:
        game, users = rich_campaign(campaign)
        call_command("export_campaign", game.id, "-o", str(tmp_path / "x.json"),
                     stderr=StringIO())
        EXPORTS["rich"] = (tmp_path / "x.json").read_text()
        delete_campaign(game, users)
    path = tmp_path / "campaign.json"
    path.write_text(EXPORTS["rich"])
    return path


def delete_campaign(game: Game, users: list) -> list[str]:
    """The campaign's rows and its avatar files gone, and the players' accounts too (the GM's
    and two players' stay); returns the e-mails of the accounts deleted."""
    for character in Character.objects.filter(player__game=game).exclude(avatar=""):
        default_storage.delete(character.avatar.name)
    game.delete()
    gone = [u.email for u in users[2:]] + ["newcomer@example.org"]
    User.objects.filter(email__in=gone).delete()
    for model, path in ROWS.items():
        if path != "pk":
            assert not model.objects.filter(**{f"{path}__pk": game.pk}).exists(), model
    return gone


def import_file(path: Path, *args: str) -> str:
    out = StringIO()
    call_command("import_campaign", str(path), *args, stdout=out)
    return out.getvalue()


def changed_file(path: Path, change) -> Path:
    data = json.loads(path.read_text())
    change(data)
    target = path.with_name("changed.json")
    target.write_text(json.dumps(data))
    return target


# --- the tests ------------------------------------------------------------------------------


def test_every_model_that_belongs_to_a_campaign_is_exported_or_rebuilt():
    campaign_models = {Game}
    grown = True
    while grown:
        grown = False
        for model in apps.get_models():
            if model not in campaign_models and any(
                    f.is_relation and (f.many_to_one or f.one_to_one)
                    and f.related_model in campaign_models
                    and f.related_model is not model for f in model._meta.concrete_fields):
                campaign_models.add(model)
                grown = True
    exported = {table.model for table in backup.TABLES}
    assert campaign_models - {Game} == exported | set(backup.REBUILT) | set(backup.SITE_OWN)
    assert set(ROWS) == campaign_models - set(backup.SITE_OWN)


def test_export_delete_import_restores_every_row_and_replays_equal(exported):
    game, users, path, before = exported
    data = json.loads(path.read_text())
    assert data["format"] == "junta-campaign" and data["version"] == backup.FORMAT_VERSION
    assert {u["email"] for u in data["users"]} >= {u.email for u in users}
    assert data["files"], "the avatar travels inside the file"
    assert not {"positions", "cards", "bills", "units"} & set(data)  # rebuilt from the state
    for table in backup.TABLES:
        assert data[table.key], f"the campaign should have {table.key}"
    rows = {p["number"]: p for p in data["phases"]}
    for phase in Phase.objects.filter(game=game):  # states, digests, deadlines exactly
        row = rows[phase.number]
        assert row["deadline"] == phase.deadline.isoformat()
        assert (row["state_before"], row["state_digest"]) == (phase.state_before,
                                                              phase.state_digest)
    phases = Phase.objects.filter(game=game).count()
    replayed = PhaseResult.objects.filter(phase__game=game).count()
    assert Phase.objects.filter(game=game, status=Phase.Status.SUPERSEDED).exists()
    old_id = game.id
    gone = delete_campaign(game, users)

    output = import_file(path)

    assert f"replayed {replayed} phases: all digests equal" in output
    # eight seats, nine players: the replaced one keeps his row
    assert f"Imported campaign {old_id} 'Papayas' (9 players, {phases} phases)" in output
    restored = Game.objects.get(pk=old_id)
    assert snapshot(restored) == before
    for email in gone:  # the accounts come back, without a usable password
        user = User.objects.get(email=email)
        assert not user.has_usable_password()
        assert email in output
    assert User.objects.get(email="newcomer@example.org").display_name == "Nuevo"
    avatar = Character.objects.get(player__game=restored, avatar__gt="").avatar
    assert default_storage.exists(avatar.name)
    with avatar.open("rb") as handle:
        assert handle.read() == image_bytes()
    # the restored campaign goes on: its board is the state's, the next phase adjudicates
    assert PoliticalCard.objects.filter(game=restored).count() == 88
    assert Position.objects.filter(game=restored).exists()
    assert Bill.objects.filter(game=restored).exists()
    play_days(restored, users, 1)
    assert Game.objects.create(gm=restored.gm, name="Later").pk > old_id

    # importing it again is refused, and changes nothing
    with pytest.raises(CommandError, match=f"Campaign {old_id} already exists"):
        import_file(path)
    # so is another campaign of the same name
    with pytest.raises(CommandError, match="A campaign named 'Papayas' already exists"):
        import_file(changed_file(path, lambda d: d["game"].update(id=old_id + 1000)))
    assert Game.objects.filter(name="Papayas").count() == 1
    # under its own id, renamed: new campaigns are numbered after it (PostgreSQL's sequence)
    far = old_id + 1000

    def far_away(d):
        d["game"]["id"] = far
        d["deliveries"] = []  # their keys name the campaign already restored

    import_file(changed_file(path, far_away), "--name", "Papayas far")
    assert Game.objects.get(pk=far).name == "Papayas far"
    assert Game.objects.create(gm=restored.gm, name="Even later").pk > far

    # --as-new makes a copy beside it, under a new id, name, invitation and watching link
    restored_rows = snapshot(restored)
    output = import_file(path, "--as-new", "--name", "Papayas II")
    assert f"replayed {replayed} phases: all digests equal" in output
    twin = Game.objects.get(name="Papayas II")
    assert twin.pk != old_id and twin.invite_token != restored.invite_token
    assert twin.watch_token != restored.watch_token  # the watching link is the other's too
    renamed = [tuple((k, "Papayas II" if k == "name" else v) for k, v in row)
               for row in before["Game"]]
    assert snapshot(twin) == before | {"Game": renamed}
    assert snapshot(restored) == restored_rows


def by_rank(data: dict) -> dict:
    """The file with each table's ids replaced by their rank in its list (an import creates the
    rows in that order, under new ids), and the references with them: the rows', the audit
    entries' players and the mail keys' phases; without the moment of the export."""
    data = json.loads(json.dumps(data))
    del data["exported_at"]
    rank = {t.key: {row["id"]: i for i, row in enumerate(data[t.key])} for t in backup.TABLES}
    for table in backup.TABLES:
        for row in data[table.key]:
            row["id"] = rank[table.key][row["id"]]
            for name, target in table.refs.items():
                if target != backup.USERS and row[name] is not None:
                    row[name] = rank[target][row[name]]
    for row in data["audit_entries"]:
        row["data"] = {k: rank["players"][v] if k in AUDIT_PLAYER_KEYS
                       and v in rank["players"] else v for k, v in row["data"].items()}
    for row in data["deliveries"]:
        row["key"] = re.sub(r"^phase:(\d+)", lambda m: f"phase #{rank['phases'][int(m[1])]}",
                            row["key"])
    return data


def test_an_imported_campaign_exports_the_file_it_came_from(export_file):
    """Export, import, export: the same JSON, byte for byte, but for the new rows' ids and the
    moment of the export (each app writes and reads its own rows: the file stays the same)."""
    text = export_file.read_text()
    import_file(export_file)
    data = json.loads(text)
    again = backup.export_campaign(data["game"]["id"])
    assert list(again) == list(data)  # the lists in the same order
    assert again["users"] == data["users"] and again["files"] == data["files"]
    for table in backup.TABLES:
        assert [list(row) for row in again[table.key]] == [list(row) for row in data[table.key]]
    assert json.dumps(by_rank(again), ensure_ascii=False, separators=(",", ":")) \
        == json.dumps(by_rank(data), ensure_ascii=False, separators=(",", ":"))
    # every app's tables are in the file
    assert sorted(t.key for t in backup.TABLES) \
        == sorted(t.key for archive in backup.ARCHIVES for t in archive.tables)


def test_a_version_1_file_keeps_the_mails_told_in_the_members_rows(export_file):
    """Before version 2 a member's row held what the mail of new messages told him."""
    def version_1(data):
        data["version"] = 1
        members = {row["id"]: row for row in data["conversation_members"]}
        for row in data.pop("conversation_mails"):
            members[row["member"]].update(mailed_until=row["mailed_until"],
                                          mailed_at=row["mailed_at"])

    told = json.loads(export_file.read_text())["conversation_mails"]
    assert told
    import_file(changed_file(export_file, version_1))
    game = Game.objects.get(name="Papayas")
    assert sorted((m.user.email, m.mailed_until.isoformat(), m.mailed_at.isoformat())
                  for m in ConversationMail.objects.filter(member__conversation__game=game)) \
        == sorted((row["user"], row["mailed_until"], row["mailed_at"]) for row in told)


def test_a_file_with_a_control_character_or_a_dangling_reference_is_refused(export_file):
    """Each app reads its own rows, the GM panel's checks and the one transaction hold: a bad row
    of the last tables refuses the file whole."""
    def nul_in_a_message(d):
        d["messages"][-1]["body"] += "\x00"

    with pytest.raises(CommandError, match=r"^The export is refused: Message\.body may not "
                                           "hold a control character"):
        import_file(changed_file(export_file, nul_in_a_message))

    def vote_for_no_choice(d):
        d["poll_votes"][0]["choice"] = 10**9

    with pytest.raises(CommandError, match=r"^poll_votes row \d+: choice names poll_choices row "
                                           "1000000000, which the export does not hold"):
        import_file(changed_file(export_file, vote_for_no_choice))

    def an_unlisted_author(d):
        d["conversations"][0]["started_by"] = "nobody@example.org"

    with pytest.raises(CommandError, match="^The export names nobody@example.org but does not "
                                           "list that person"):
        import_file(changed_file(export_file, an_unlisted_author))
    assert not Game.objects.exists() and not Player.objects.exists()
    assert not Conversation.objects.exists() and not Poll.objects.exists()
    assert not User.objects.filter(email="newcomer@example.org").exists()  # nor the people


def test_a_changed_order_is_refused_naming_its_phase(export_file):
    data = json.loads(export_file.read_text())
    numbers = {p["id"]: p["number"] for p in data["phases"]}
    adjudicated = {r["phase"] for r in data["results"]}
    row = next(o for o in data["orders"] if o["phase"] in adjudicated and o["payload"])

    def drop_an_order(d):
        order = next(o for o in d["orders"] if o["id"] == row["id"])
        order["payload"] = order["payload"][1:]

    with pytest.raises(CommandError, match=rf"^phase {numbers[row['phase']]} \(\w+\) differs: "
                                           "its stored orders are not those .*nothing was "
                                           "imported"):
        import_file(changed_file(export_file, drop_an_order))
    assert not Game.objects.exists() and not Player.objects.exists()


def test_orders_changed_with_the_result_replay_to_another_digest(export_file):
    """A forger who changes an order and the result's record of it alike: the replay gives
    another digest than the stored result's, and names the phase."""
    data = json.loads(export_file.read_text())
    seat_of = {p["id"]: p["seat"] for p in data["players"]}
    phase_of = {p["id"]: p for p in data["phases"]}
    results = {r["phase"]: r for r in data["results"]}
    # the first order whose absence the engine notices
    for order in sorted(data["orders"], key=lambda o: phase_of[o["phase"]]["number"]):
        result = results.get(order["phase"])
        if result is None or not order["payload"]:
            continue
        phase, seat = phase_of[order["phase"]], str(seat_of[order["player"]])
        used = {int(s): engine.parse_orders([] if s == seat else items)
                for s, items in result["orders_used"].items()}
        firsts = sorted((o["first_submitted_seq"], seat_of[o["player"]])
                        for o in data["orders"] if o["phase"] == order["phase"]
                        and o["first_submitted_seq"] is not None)
        state = engine.GameState.from_dict(phase["state_before"])
        resolved = engine.resolve(state, used, [s for _, s in firsts])
        if engine.digest(resolved.state) != result["digest"]:
            break
    else:
        pytest.fail("no order of the campaign changes its phase's result")

    def forge(d):
        next(o for o in d["orders"] if o["id"] == order["id"])["payload"] = []
        next(r for r in d["results"] if r["phase"] == order["phase"])["orders_used"][seat] = []

    with pytest.raises(CommandError, match=rf"^phase {phase['number']} \(\w+\) differs: "
                                           "replayed digest .*nothing was imported"):
        import_file(changed_file(export_file, forge))
    assert not Game.objects.exists()
    # kept on request, but still reported (and the command fails)
    with pytest.raises(CommandError, match=rf"^phase {phase['number']} .*was kept"):
        import_file(changed_file(export_file, forge), "--keep-on-mismatch")
    assert Game.objects.filter(pk=data["game"]["id"]).exists()


def test_a_changed_state_or_an_unknown_format_is_refused(export_file):
    def richer(d):
        phase = max(d["phases"], key=lambda p: p["number"])
        phase["state_before"]["players"][1]["bank"] += 5

    with pytest.raises(CommandError, match=r"phase \d+ \(\w+\) differs: its starting state "
                                           "does not match its digest"):
        import_file(changed_file(export_file, richer))
    with pytest.raises(CommandError, match="format version 99"):
        import_file(changed_file(export_file, lambda d: d.update(version=99)))
    with pytest.raises(CommandError, match="not a Junta campaign export"):
        import_file(changed_file(export_file, lambda d: d.update(format="other")))
    with pytest.raises(CommandError, match="Cannot read"):
        import_file(export_file.with_name("missing.json"))
    assert not Game.objects.exists()


def test_export_of_a_missing_campaign_fails():
    with pytest.raises(CommandError, match="There is no campaign 999"):
        call_command("export_campaign", 999)


def test_the_nightly_dump_of_docker_compose_runs_keeps_14_days_and_restores(postgres, tmp_path):
    """The `backup` service's loop, once, against this PostgreSQL (its paths moved to a
    temporary folder), then the README's restore with psql into a scratch database."""
    service = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]["backup"]
    assert service["image"].startswith("postgres:")
    assert service["volumes"] == ["backups:/backups"]
    assert service["environment"]["PGHOST"] == "db"
    shell, flag, script = service["command"]
    assert (shell, flag) == ("sh", "-c") and "sleep 86400" in script
    backups = tmp_path / "backups"
    backups.mkdir()
    old, recent = backups / "junta-2000-01-01.sql", backups / "junta-2000-01-02.sql"
    for path, days in ((old, 15), (recent, 13)):
        path.write_text("-- an old dump\n")
        moment = time.time() - days * 86400 - 3600
        os.utime(path, (moment, moment))
    script = script.replace("$$", "$").replace("/backups", str(backups)) \
        .replace("sleep 86400", "break")
    db = connection.settings_dict
    env = {**os.environ, "PGHOST": db["HOST"] or "127.0.0.1", "PGPORT": str(db["PORT"] or 5432),
           "PGUSER": db["USER"] or "postgres", "PGPASSWORD": db["PASSWORD"] or "",
           "PGDATABASE": db["NAME"]}
    run = subprocess.run([shell, flag, script], env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    dump = backups / f"junta-{date.today().isoformat()}.sql"
    assert f"backup: {dump}" in run.stdout, run.stdout + run.stderr
    assert "CREATE TABLE public.games_game" in dump.read_text()
    assert not old.exists() and recent.exists()  # 14 days kept
    assert not list(backups.glob(".junta-*"))  # no half-written dump left

    scratch = f"junta_restore_{uuid.uuid4().hex[:8]}"
    subprocess.run(["createdb", scratch], env=env, check=True)
    try:
        restore = subprocess.run(["psql", "-v", "ON_ERROR_STOP=1", "-q", "-d", scratch,
                                  "-f", str(dump)], env=env, capture_output=True, text=True,
                                 timeout=120)
        assert restore.returncode == 0, restore.stderr
        tables = subprocess.run(["psql", "-tA", "-d", scratch, "-c",
                                 "SELECT count(*) FROM games_phase"], env=env,
                                capture_output=True, text=True, check=True)
        assert tables.stdout.strip().isdigit()
    finally:
        subprocess.run(["dropdb", "--if-exists", scratch], env=env, check=False)
