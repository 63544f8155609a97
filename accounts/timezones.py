"""The IANA time zones a person may pick, in one place, grouped for a readable list."""

from __future__ import annotations

import zoneinfo
from functools import cache

DEFAULT_TIME_ZONE = "America/New_York"


@cache
def time_zone_names() -> tuple[str, ...]:
    """Every canonical IANA zone name the system knows ("Area/City" plus UTC), sorted."""
    names = {
        name
        for name in zoneinfo.available_timezones()
        if "/" in name and not name.startswith(("Etc/", "SystemV/", "US/", "posix/", "right/"))
    }
    names.add("UTC")
    return tuple(sorted(names))


def time_zone_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Choices for a <select>, grouped by region: [("America", [("America/Lima", "Lima")...])]."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in time_zone_names():
        region, _, city = name.partition("/")
        label = city.replace("_", " ").replace("/", " / ") if city else name
        groups.setdefault(region if city else "Other", []).append((name, label))
    return sorted(groups.items())


def is_valid_time_zone(name: str) -> bool:
    return name in time_zone_names()
