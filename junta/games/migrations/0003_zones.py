"""Load the 28 zones of the city from the engine's map data."""

from django.db import migrations


def load_zones(apps, schema_editor):
    from junta.engine import Catalog

    Zone = apps.get_model("games", "Zone")
    for z in Catalog.zones().values():
        Zone.objects.update_or_create(number=z.id, defaults={
            "name": z.name, "kind": z.kind, "control_point": z.control_point, "river": z.river,
            "flags": list(z.flags), "adjacent": list(z.adjacent)})


class Migration(migrations.Migration):
    dependencies = [("games", "0002_board")]
    operations = [migrations.RunPython(load_zones, migrations.RunPython.noop)]
