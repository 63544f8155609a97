from django.db import migrations, models
import django.db.models.deletion


def number_every_campaign(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    ContentRevision = apps.get_model("games", "ContentRevision")
    ContentRevision.objects.bulk_create(
        [ContentRevision(game_id=pk) for pk in Game.objects.values_list("pk", flat=True)])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0008_speech_game_newest"),
    ]

    operations = [
        migrations.CreateModel(
            name="ContentRevision",
            fields=[
                ("game", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE,
                                              primary_key=True, related_name="content_revision",
                                              serialize=False, to="games.game")),
                ("number", models.PositiveBigIntegerField(default=1)),
            ],
        ),
        migrations.RunPython(number_every_campaign, migrations.RunPython.noop),
    ]
