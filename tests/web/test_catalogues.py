"""The translations (locale/<language>/LC_MESSAGES/*.po, made by `make messages`): every message
of every catalogue translated, none fuzzy, each one's placeholders matching its original
(gettext's `msgfmt --check --statistics`, which `make` compiles them with)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"
CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def test_there_is_a_spanish_catalogue():
    assert LOCALE / "es" / "LC_MESSAGES" / "django.po" in CATALOGUES


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda po: str(po.relative_to(LOCALE)))
def test_every_message_is_translated_and_none_is_fuzzy(po: Path):
    checked = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
                             capture_output=True, text=True)
    report = checked.stderr.strip()
    assert checked.returncode == 0, report
    assert re.fullmatch(r"\d+ translated messages?\.", report.splitlines()[-1]), (
        f"{po}: {report} (translate every message, and clear the fuzzy marks once checked)")
    assert "warning" not in report, report
