from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0011_announcement_events_seen"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="players_may_poll",
            field=models.BooleanField(default=False),
        ),
    ]
