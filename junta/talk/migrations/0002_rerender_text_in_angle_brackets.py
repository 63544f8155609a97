"""Render the stored private messages again: text between angle brackets had been taken for
HTML and deleted from the page (the Markdown source, `body`, always kept it)."""

from django.db import migrations


def rerender(apps, schema_editor):
    from junta.games.markdown import rerender_bodies

    rerender_bodies(apps.get_model("talk", "Message"))


class Migration(migrations.Migration):
    dependencies = [("talk", "0001_initial")]
    operations = [migrations.RunPython(rerender, migrations.RunPython.noop)]
