"""The translations (<tree>/<language>/LC_MESSAGES/*.po, made by `make messages`), in every tree
of settings.LOCALE_PATHS: the site's locale/ and the engine's junta/engine/locale/. Every message
of every catalogue translated, none fuzzy, each one's placeholders matching its original
(gettext's `msgfmt --check --statistics`, which `make` compiles them with); a msgid both trees
hold reads the same in both (Django merges the trees, and the site's would hide the engine's)."""

from __future__ import annotations

import gettext
import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

REPO = Path(__file__).resolve().parents[2]
TREES = [Path(folder) for folder in settings.LOCALE_PATHS]
CATALOGUES = [po for tree in TREES for po in sorted(tree.glob("*/LC_MESSAGES/*.po"))]


def test_the_site_and_the_engine_each_have_a_spanish_catalogue():
    assert REPO / "locale" / "es" / "LC_MESSAGES" / "django.po" in CATALOGUES
    assert REPO / "junta" / "engine" / "locale" / "es" / "LC_MESSAGES" / "django.po" in CATALOGUES


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda po: str(po.relative_to(REPO)))
def test_every_message_is_translated_and_none_is_fuzzy(po: Path):
    checked = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
                             capture_output=True, text=True)
    report = checked.stderr.strip()
    assert checked.returncode == 0, report
    assert re.fullmatch(r"\d+ translated messages?\.", report.splitlines()[-1]), (
        f"{po}: {report} (translate every message, and clear the fuzzy marks once checked)")
    assert "warning" not in report, report


def test_a_msgid_in_both_trees_reads_the_same_in_both():
    """The .mo files (compiled by tests/conftest.py) of each language and domain, tree by tree."""
    site, engine = TREES
    for mo in sorted(engine.glob("*/LC_MESSAGES/*.mo")):
        other = site / mo.relative_to(engine)
        if not other.exists():
            continue
        with mo.open("rb") as a, other.open("rb") as b:
            ours = gettext.GNUTranslations(a)._catalog  # type: ignore[attr-defined]
            theirs = gettext.GNUTranslations(b)._catalog  # type: ignore[attr-defined]
        clashes = {k: (ours[k], theirs[k]) for k in ours.keys() & theirs.keys()
                   if k and ours[k] != theirs[k]}
        assert not clashes, f"{mo} and {other} translate these differently: {clashes}"
