"""Spectators: whether a campaign may be watched, how many published phases behind, and by
link (each campaign its own secret watching link)."""

import secrets

import django.core.validators
from django.db import migrations, models

import junta.games.models


def tokens(apps, schema_editor):  # type: ignore[no-untyped-def]
    """A token of its own for each campaign (a callable default gives all rows one)."""
    Game = apps.get_model("games", "Game")
    for pk in Game.objects.values_list("pk", flat=True):
        Game.objects.filter(pk=pk).update(watch_token=secrets.token_hex(16))


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0017_game_bot_style"),
    ]

    operations = [
        migrations.AddField(
            model_name="game", name="watchable", field=models.BooleanField(default=False)),
        migrations.AddField(
            model_name="game", name="watch_delay",
            field=models.PositiveSmallIntegerField(
                default=1, validators=[django.core.validators.MaxValueValidator(10)])),
        migrations.AddField(
            model_name="game", name="watch_by_link", field=models.BooleanField(default=False)),
        migrations.AddField(
            model_name="game", name="watch_token",
            field=models.CharField(default="", max_length=32)),
        migrations.RunPython(tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game", name="watch_token",
            field=models.CharField(default=junta.games.models.new_seed, max_length=32)),
    ]
