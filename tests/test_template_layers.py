"""Templates load tags in the apps' layers: a template of an app loads the tag libraries of that
app or of an app below it, never of an app above it nor of its neighbour on the same layer.

The layers are those the Python imports keep: pyproject.toml's import-linter contract whose
layers name the apps (`junta.gm | junta.api | junta.site`, then `junta.ops`...), read from
there, not repeated here. A template belongs to the app whose `templates/` directory holds it;
the root `templates/` directory (base.html, the error pages, the overrides of allauth and the
admin) is the site's, the top layer. A library belongs to the app whose `templatetags/` package
holds its module; a library of Django or of another package (static, tz, humanize) is none of
the project's and may be loaded anywhere.

A tag library runs queries: a page of the players' side loading the talk's tags depended on
the talk as much as an import would, and the lower layer's pages could not be drawn without the
upper one. What combines several apps (the dashboard, a campaign's page, the game menu with its
unread messages) stands in the site layer (junta/site/).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from tests.layers import REPO, Layer, app_layers

PACKAGES = ("junta", "accounts")
ROOT_TEMPLATES_APP = "junta.site"  # the root templates/ directory: the top layer's

_COMMENTS = re.compile(r"\{#.*?#\}|\{%\s*comment\b.*?%\}.*?\{%\s*endcomment\s*%\}", re.S)
_LOAD = re.compile(r"\{%\s*load\s+(.*?)\s*%\}", re.S)


def may_load(template_app: str, library_app: str, layers: Mapping[str, Layer]) -> bool:
    """Whether a template of one app may load a library of another: its own, or one below it
    (a later line of the contract), or a neighbour's where the line is split by ":"."""
    if template_app == library_app:
        return True
    mine, theirs = layers[template_app], layers[library_app]
    return theirs.line > mine.line or (theirs.line == mine.line and mine.open_to_neighbours)


def _app_of(directory: Path) -> str:
    """The app a package directory is ("junta/games" -> "junta.games", "accounts")."""
    return ".".join(directory.relative_to(REPO).parts)


def _app_dirs() -> Iterator[Path]:
    for package in PACKAGES:
        base = REPO / package
        yield base
        yield from (d for d in sorted(base.iterdir()) if (d / "__init__.py").is_file())


def tag_libraries() -> dict[str, str]:
    """Each tag library of the project by the name templates load it by, with its app."""
    out: dict[str, str] = {}
    for app_dir in _app_dirs():
        for module in sorted((app_dir / "templatetags").glob("*.py")):
            if module.stem == "__init__":
                continue
            assert module.stem not in out, f"two tag libraries named {module.stem}"
            out[module.stem] = _app_of(app_dir)
    return out


def templates() -> Iterator[tuple[str, Path]]:
    """Each template with its app: those of an app's templates/ directory, then the root's."""
    for app_dir in _app_dirs():
        for path in sorted((app_dir / "templates").rglob("*")):
            if path.is_file():
                yield _app_of(app_dir), path
    for path in sorted((REPO / "templates").rglob("*")):
        if path.is_file():
            yield ROOT_TEMPLATES_APP, path


def loaded_libraries(text: str) -> list[str]:
    """The libraries a template's `{% load %}` tags name, comments aside: `{% load a b %}`
    loads a and b; `{% load x y from a %}` loads names of a."""
    out = []
    for match in _LOAD.finditer(_COMMENTS.sub("", text)):
        words = match.group(1).split()
        out += [words[-1]] if "from" in words else words
    return out


def offences(found: Iterable[tuple[str, Path, str]], libraries: Mapping[str, str],
             layers: Mapping[str, Layer]) -> list[str]:
    """"path loads library (of app), above or beside the template's app" for each load of a
    (template's app, path, library) that the layers forbid; a template's app the contract does
    not name is reported too, so that a new app takes its place there."""
    out = []
    for template_app, path, library in found:
        library_app = libraries.get(library)
        if library_app is None:
            continue  # Django's or another package's
        where = path.relative_to(REPO) if path.is_relative_to(REPO) else path
        for app in (template_app, library_app):
            if app not in layers:
                out.append(f"{where}: {app} is in no layer of pyproject.toml's layers contract")
        if template_app in layers and library_app in layers \
                and not may_load(template_app, library_app, layers):
            out.append(f"{where} ({template_app}) loads {library} ({library_app})")
    return out


def project_loads() -> list[tuple[str, Path, str]]:
    return [(app, path, library) for app, path in templates()
            for library in loaded_libraries(path.read_text(encoding="utf-8"))]


def test_the_layers_come_from_the_contract():
    layers = app_layers()
    assert layers["junta.site"].line == 0  # the site on top
    assert layers["junta.games"].line > layers["junta.talk"].line == layers["junta.polls"].line
    assert layers["junta.engine"].line == layers["accounts"].line == max(
        layer.line for layer in layers.values())


def test_a_template_is_read_for_its_loads():
    text = ('{% load static tz %}{# {% load talk_tags %} #}{% comment %}{% load polls_tags %}'
            '{% endcomment %}\n{% load  when from local_times %}{% load\n notify_tags %}')
    assert loaded_libraries(text) == ["static", "tz", "local_times", "notify_tags"]


def test_a_load_from_above_or_beside_is_found():
    layers = {"site": Layer(0, False), "talk": Layer(1, False), "polls": Layer(1, False),
              "x": Layer(2, True), "y": Layer(2, True), "games": Layer(3, False)}
    libraries = {"talk_tags": "talk", "polls_tags": "polls", "nav": "games", "site_tags": "site",
                 "x_tags": "x", "y_tags": "y", "new_tags": "new"}
    found = [
        ("games", REPO / "g.html", "talk_tags"),  # above: no
        ("talk", REPO / "t.html", "polls_tags"),  # beside, split by "|": no
        ("talk", REPO / "t.html", "nav"),  # below: yes
        ("talk", REPO / "t.html", "talk_tags"),  # its own: yes
        ("site", REPO / "s.html", "talk_tags"),  # the top loads anything
        ("x", REPO / "x.html", "y_tags"),  # beside, split by ":": yes
        ("games", REPO / "g.html", "static"),  # not the project's
        ("games", REPO / "g.html", "new_tags"),  # an app in no layer
    ]
    assert offences(found, libraries, layers) == [
        "g.html (games) loads talk_tags (talk)",
        "t.html (talk) loads polls_tags (polls)",
        "g.html: new is in no layer of pyproject.toml's layers contract",
    ]


def test_every_template_loads_tags_of_its_app_or_below():
    libraries = tag_libraries()
    found = project_loads()
    # the reading works: the project's templates load the project's libraries
    assert {library for _, _, library in found} & set(libraries) >= {"page_alert", "notify_tags"}
    problems = offences(found, libraries, app_layers())
    assert not problems, (
        "Templates loading the tags of an app above or beside their own (pyproject.toml's "
        "layers contract): move the template up (junta/site/ holds what combines apps) or the "
        "tag down:\n  " + "\n  ".join(problems))
