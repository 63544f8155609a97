"""The lock files agree with pyproject.toml and with this virtual environment.

pyproject.toml keeps version ranges (for anyone installing Junta as a library); requirements/
dev.lock and base.lock pin one version of everything, with hashes, and are what `make test`,
`make run`, CI and the Dockerfile install. After editing a range or a dependency in
pyproject.toml, `make lock` re-resolves both files; these tests fail until then.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parents[2]
BASE_LOCK = REPO / "requirements" / "base.lock"
DEV_LOCK = REPO / "requirements" / "dev.lock"
FIX = "run `make lock` to re-resolve requirements/*.lock from pyproject.toml"


@dataclass(frozen=True)
class Pin:
    name: str
    version: Version
    marker: Marker | None
    hashes: tuple[str, ...]

    def applies_here(self) -> bool:
        return self.marker is None or self.marker.evaluate({"extra": ""})


def read_lock(path: Path) -> dict[str, Pin]:
    """The pins of a requirements file written by `uv pip compile --generate-hashes`."""
    text = path.read_text().replace("\\\n", " ")
    pins: dict[str, Pin] = {}
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        spec, *hashes = line.split(" --hash=")
        req = Requirement(spec)
        (specifier,) = req.specifier
        assert specifier.operator == "==", f"{path.name}: {spec!r} is not an exact pin"
        name = canonicalize_name(req.name)
        assert name not in pins, f"{path.name} pins {name} twice"
        pins[name] = Pin(name, Version(specifier.version), req.marker,
                         tuple(h.strip() for h in hashes))
    return pins


def project() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def runtime_requirements() -> list[Requirement]:
    return [Requirement(r) for r in project()["dependencies"]]


def dev_requirements() -> list[Requirement]:
    return [Requirement(r) for r in project()["optional-dependencies"]["dev"]]


def out_of_lock(requirements: list[Requirement], pins: dict[str, Pin]) -> list[str]:
    """The requirements that the lock leaves out or pins outside their range."""
    wrong = []
    for req in requirements:
        pin = pins.get(canonicalize_name(req.name))
        if pin is None:
            wrong.append(f"{req} is not in the lock")
        elif not req.specifier.contains(pin.version, prereleases=True):
            wrong.append(f"{req} but the lock pins {pin.version}")
    return wrong


def closure(roots: list[Requirement], pins: dict[str, Pin]) -> tuple[set[str], list[str]]:
    """What the roots need here, transitively, by the installed packages' own metadata: the
    names reached, and the requirements that the lock misses or pins outside their range."""
    seen: set[tuple[str, frozenset[str]]] = set()
    wrong: list[str] = []
    todo = [(req, "pyproject.toml") for req in roots]
    while todo:
        req, wanted_by = todo.pop()
        name = canonicalize_name(req.name)
        pin = pins.get(name)
        if pin is None:
            wrong.append(f"{wanted_by} needs {req}, which the lock leaves out")
            continue
        if not req.specifier.contains(pin.version, prereleases=True):
            wrong.append(f"{wanted_by} needs {req}, the lock pins {pin.version}")
        extras = frozenset({""} | req.extras)
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            wrong.append(f"{name} is not installed here, so its own needs are unknown")
            continue
        for line in requires:
            dep = Requirement(line)
            if dep.marker is None or any(dep.marker.evaluate({"extra": e}) for e in extras):
                todo.append((dep, f"{name}=={pin.version}"))
    return {name for name, _ in seen}, wrong


@pytest.fixture(scope="module")
def base() -> dict[str, Pin]:
    return read_lock(BASE_LOCK)


@pytest.fixture(scope="module")
def dev() -> dict[str, Pin]:
    return read_lock(DEV_LOCK)


def test_every_pin_has_hashes(base, dev):
    for lock, pins in (("base.lock", base), ("dev.lock", dev)):
        bare = [name for name, pin in pins.items() if not pin.hashes]
        assert not bare, f"{lock} pins {bare} without a hash; {FIX}"
        assert all(h.startswith("sha256:") for pin in pins.values() for h in pin.hashes)


def test_base_lock_pins_every_runtime_dependency_in_its_range(base):
    assert not out_of_lock(runtime_requirements(), base), FIX


def test_dev_lock_pins_every_runtime_and_dev_dependency_in_its_range(dev):
    assert not out_of_lock(runtime_requirements() + dev_requirements(), dev), FIX


def test_base_lock_is_dev_lock_less_the_dev_tools(base, dev):
    """Production runs the very versions that the tests ran with."""
    differ = {name: (pin.version, dev[name].version if name in dev else None)
              for name, pin in base.items() if name not in dev or dev[name] != pin}
    assert not differ, f"base.lock vs dev.lock (version, markers or hashes) {differ}; {FIX}"


@pytest.mark.parametrize("lock, roots", [
    ("base", runtime_requirements),
    ("dev", lambda: runtime_requirements() + dev_requirements()),
])
def test_lock_holds_exactly_what_pyproject_needs_here(lock, roots, request):
    """Closed: every dependency of a locked package is locked, in range. Nothing stale: every pin
    that applies to this Python and platform is needed by pyproject.toml's dependencies."""
    pins = request.getfixturevalue(lock)
    reached, wrong = closure(roots(), pins)
    assert not wrong, f"{lock}.lock: {wrong}; {FIX}"
    stale = sorted(name for name, pin in pins.items() if pin.applies_here() and name not in reached)
    assert not stale, f"{lock}.lock pins {stale}, which nothing in pyproject.toml needs; {FIX}"


def test_this_environment_has_the_dev_lock_installed(dev):
    """`make test` installs dev.lock; a venv left behind by an older lock shows here."""
    differ = {}
    for name, pin in dev.items():
        if not pin.applies_here():
            continue
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = None
        if installed is None or Version(installed) != pin.version:
            differ[name] = f"locked {pin.version}, installed {installed}"
    assert not differ, f"{differ}: `make test` reinstalls when a lock file changes"
