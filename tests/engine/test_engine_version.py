"""The engine's version and its changelog (junta/engine/versions.py): every stored result names
the engine that adjudicated it, and the replay check forgives a difference only to a result of
an older engine, the rules having changed since. So a change of outcome must raise the version:
a few whole campaigns are pinned to it (tests/engine/pinned_campaigns.py), and resolve as pinned
or this test says what to do."""

from __future__ import annotations

import re

import pytest

from junta.engine import (
    ENGINE_CHANGELOG,
    ENGINE_VERSION,
    changes_since,
    is_known_version,
    is_older_version,
)
from tests.conftest import REPO

from .pinned_campaigns import CAMPAIGNS, RECORD, load, replayed

RAISE = ("If the rules changed on purpose, raise ENGINE_VERSION in junta/engine/versions.py, say "
         "what changed in its CHANGELOG and in README.md's list of engine versions, and record "
         f"the pinned campaigns again: {RECORD}")


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


def test_the_campaigns_were_pinned_under_this_engine_version():
    pinned = load()["engine_version"]
    assert pinned == ENGINE_VERSION, (
        f"ENGINE_VERSION is {ENGINE_VERSION} but the campaigns were pinned under {pinned}: "
        f"record them again: {RECORD}")
    assert [c["name"] for c in load()["campaigns"]] == [name for name, _, _ in CAMPAIGNS]


@pytest.mark.parametrize("index", range(len(CAMPAIGNS)))
def test_the_pinned_campaigns_resolve_as_pinned(index):
    """Each phase resolved again from the state the one before ended in gives its pinned
    digest: what the replay check asks of every phase today's engine adjudicated."""
    data = load()
    campaign = data["campaigns"][index]
    for number, kind, pinned, now in replayed(campaign):
        if now != pinned:
            pytest.fail(
                f"Campaign {campaign['name']!r} resolves otherwise from its phase {number} "
                f"({kind}) on than under engine {data['engine_version']}, which pinned it: a "
                "phase that engine adjudicated on the site would no longer replay to its "
                "stored digest, and the GM's replay check and the backup import would fail it "
                f"as changed behind the site's back. {RAISE}.")
    assert len(campaign["phases"]) > 50
