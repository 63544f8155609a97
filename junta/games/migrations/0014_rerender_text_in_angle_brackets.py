"""Render the stored speeches and announcements again: text a player wrote between angle
brackets ("I pay <Lucia> 2 MP") had been taken for HTML and deleted from the page (the Markdown
source, `body`, always kept it). `manage.py rerender_speeches` does the same at any time."""

from django.db import migrations


def rerender(apps, schema_editor):
    from junta.games.markdown import rerender_bodies

    for name in ("Speech", "Announcement"):
        rerender_bodies(apps.get_model("games", name))


class Migration(migrations.Migration):
    dependencies = [("games", "0013_game_archived_publicly")]
    operations = [migrations.RunPython(rerender, migrations.RunPython.noop)]
