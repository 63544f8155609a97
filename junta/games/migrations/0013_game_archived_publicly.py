from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_game_players_may_poll"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="archived_publicly",
            field=models.BooleanField(default=True),
        ),
    ]
