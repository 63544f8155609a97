"""The apps' layers as pyproject.toml's import-linter contract names them: the one place the
tests read them from (tests/test_template_layers.py checks the templates' tag libraries against
them, tests/test_readme_layers.py the README's drawing)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Layer:
    """An app's place: its line in the contract (0 the top) and whether the apps of that line
    may use one another (split by ":") or not (split by "|")."""

    line: int
    open_to_neighbours: bool


def app_layers(pyproject: Path = REPO / "pyproject.toml") -> dict[str, Layer]:
    """Each app's layer, from the import-linter contract of type "layers" that names packages
    (the one without `containers`: the engine's own contract orders its modules)."""
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    contracts = [c for c in config["tool"]["importlinter"]["contracts"]
                 if c.get("type") == "layers" and not c.get("containers")]
    assert len(contracts) == 1, "one layers contract names the apps in pyproject.toml"
    out = {}
    for line, text in enumerate(contracts[0]["layers"]):
        separator = "|" if "|" in text else ":"
        for app in text.split(separator):
            out[app.strip()] = Layer(line, separator == ":")
    return out
