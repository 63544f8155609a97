"""The engine's version and its changelog (junta/engine/versions.py): every stored result names
the engine that adjudicated it, and the replay check forgives a difference only to a result of
an older engine, the rules having changed since, and says what changed."""

from __future__ import annotations

import re

from junta.engine import (
    ENGINE_CHANGELOG,
    ENGINE_VERSION,
    changes_since,
    is_known_version,
    is_older_version,
)
from tests.conftest import REPO


def test_the_engine_version_is_the_newest_in_its_changelog():
    versions = list(ENGINE_CHANGELOG)
    assert versions[-1] == ENGINE_VERSION
    keys = [tuple(int(part) for part in v.split(".")) for v in versions]
    assert keys == sorted(set(keys)), "the changelog lists each version once, oldest first"
    assert all(text.strip() for text in ENGINE_CHANGELOG.values())
    assert "§ruling-no-silent-orders" in ENGINE_CHANGELOG["1.1"]


def test_older_versions_and_the_changes_since():
    assert is_older_version("1.0") and not is_older_version(ENGINE_VERSION)
    assert not is_known_version("0.9") and not is_older_version("0.9")
    assert not is_older_version("1.1", than="1.0") and is_older_version("1.0", than="1.1")
    assert [v for v, _ in changes_since("1.0")] == list(ENGINE_CHANGELOG)[1:]
    assert changes_since(ENGINE_VERSION) == []
    assert changes_since("0.9") == list(ENGINE_CHANGELOG.items())


def test_the_readme_lists_every_engine_version():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Engine versions and the replay check"):]
    listed = re.findall(r"^- \*\*(\d+(?:\.\d+)*)\*\*: ", section, re.MULTILINE)
    assert listed == list(ENGINE_CHANGELOG), (
        "README.md lists the engine versions of junta/engine/versions.py's CHANGELOG, each "
        "with what it changed")
