"""The city's map is drawn once for what it is drawn from and read back from the "drawings"
cache (junta/games/fragments.py): the same inputs read it back, other inputs (a viewer's own
planned orders drawn over it, another coup) draw their own."""

from __future__ import annotations

from unittest import mock

from django.utils.safestring import mark_safe

from junta.games import citymap, fragments


def test_the_map_is_read_back_only_for_the_same_drawing() -> None:
    names = {0: "Don Carlos", 1: "Don Isabel"}
    mine = mark_safe('<g class="planned">MINE-ONLY</g>')
    theirs = mark_safe('<g class="planned">THEIRS-ONLY</g>')
    with mock.patch.object(citymap, "render_svg", wraps=citymap.render_svg) as draw:
        first = fragments.city_svg(None, names, title="Map of the city", planned=mine)
        again = fragments.city_svg(None, names, title="Map of the city", planned=mine)
        assert draw.call_count == 1 and again == first and "MINE-ONLY" in first
        other = fragments.city_svg(None, names, title="Map of the city", planned=theirs)
        assert draw.call_count == 2
        assert "THEIRS-ONLY" in other and "MINE-ONLY" not in other
        public = fragments.city_svg(None, names, title="Map of the city")
        assert draw.call_count == 3 and "-ONLY" not in public
        assert public == citymap.render_svg(None, names, title="Map of the city")
