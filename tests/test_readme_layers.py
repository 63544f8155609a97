"""The README's layout section draws the packages' layers; the drawing must be the layers contract
of pyproject.toml as it is (the same lines, the same packages on each, in the same order), so
that a newcomer who reads it reads the rules lint-imports enforces."""

from __future__ import annotations

import re

from tests.layers import REPO, app_layers

_DRAWING = re.compile(
    r"The packages are layers.*?```\n(?P<drawing>.*?)```", re.S)


def drawn_layers(readme: str) -> list[list[str]]:
    """The drawing's lines of packages, top first: each line's first column split on "|"
    (the rules between them, made of dashes, skipped)."""
    found = _DRAWING.search(readme)
    assert found, "README.md's layout section draws the layers after 'The packages are layers'"
    lines = []
    for text in found["drawing"].splitlines():
        if not text.strip() or set(text.strip()) == {"-"}:
            continue
        packages = re.split(r"\s{2,}", text.strip(), maxsplit=1)[0]
        lines.append([name.strip() for name in packages.split("|")])
    return lines


def contract_layers() -> list[list[str]]:
    """The contract's lines of packages, top first, named as the drawing names them (the app's
    last name: `junta.games` is `games`)."""
    by_line: dict[int, list[str]] = {}
    for package, layer in app_layers().items():
        by_line.setdefault(layer.line, []).append(package.rsplit(".", 1)[-1])
    return [by_line[line] for line in sorted(by_line)]


def test_the_drawing_is_read_line_by_line():
    readme = ("The packages are layers, see:\n\n```\nsite | gm     on top\n-----\n"
              "games         below\n```\n")
    assert drawn_layers(readme) == [["site", "gm"], ["games"]]


def test_the_readme_draws_the_layers_of_the_contract():
    drawn = drawn_layers((REPO / "README.md").read_text(encoding="utf-8"))
    contract = contract_layers()
    assert len(contract) >= 6, contract  # the contract was read: six lines of packages today
    assert drawn == contract, (
        "README.md's drawing of the layers differs from pyproject.toml's layers contract:\n"
        f"drawn:    {drawn}\ncontract: {contract}")
