from django.db import migrations, models

from junta.games.markdown import render_markdown

BATCH = 500


def render_existing(apps, schema_editor):
    """Every speech posted before the column existed gets its HTML, rendered and sanitised as
    a new speech's is (in batches, so that a long campaign's talk is not held in memory)."""
    Speech = apps.get_model("games", "Speech")
    last = 0
    while True:
        batch = list(Speech.objects.filter(pk__gt=last).order_by("pk").only("pk", "body")[:BATCH])
        if not batch:
            break
        for speech in batch:
            speech.body_html = str(render_markdown(speech.body))
        Speech.objects.bulk_update(batch, ["body_html"])
        last = batch[-1].pk


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_board_order'),
    ]

    operations = [
        migrations.AddField(
            model_name='speech',
            name='body_html',
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.RunPython(render_existing, migrations.RunPython.noop, elidable=True),
    ]
