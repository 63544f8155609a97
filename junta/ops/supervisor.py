"""Run a few child processes together until Ctrl-C, then stop each by its own process id.

Used by `manage.py serve` (and so by `make run`) for the web server and the Celery worker.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Protocol


class Output(Protocol):
    """Where the supervisor reports: sys.stdout, or a command's self.stdout."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...


@dataclass
class Child:
    name: str
    argv: Sequence[str]
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None


class Supervisor:
    """Start children, watch them, and stop them all when told to or when one of them dies."""

    def __init__(self, children: Sequence[Child], cwd: Path, grace_seconds: float = 10.0) -> None:
        self.children = list(children)
        self.cwd = cwd
        self.grace_seconds = grace_seconds
        self._stopping = False

    def start(self) -> None:
        for child in self.children:
            child.process = subprocess.Popen(list(child.argv), cwd=self.cwd)

    def request_stop(self, signum: int | None = None, frame: FrameType | None = None) -> None:
        self._stopping = True

    def run(self, out: Output | None = None) -> int:
        """Start everything and block until a stop is requested or a child exits.

        Returns 0 after a requested stop, else the exit code of the child that died.
        """
        out = out or sys.stdout
        previous = {
            sig: signal.signal(sig, self.request_stop) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        try:
            self.start()
            for child in self.children:
                out.write(f"started {child.name} (pid {child.pid})\n")
            out.flush()
            exit_code = 0
            while not self._stopping:
                dead = [(c, c.process) for c in self.children
                        if c.process and c.process.poll() is not None]
                if dead:
                    child, process = dead[0]
                    exit_code = process.returncode or 1
                    out.write(f"{child.name} exited with code {process.returncode}; "
                              "stopping the others\n")
                    break
                time.sleep(0.3)
            self.stop(out)
            return exit_code
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def stop(self, out: Output | None = None) -> None:
        """SIGTERM each living child by pid, wait for the grace period, then SIGKILL."""
        out = out or sys.stdout
        living = [(c, c.process) for c in self.children if c.process and c.process.poll() is None]
        for child, process in living:
            out.write(f"stopping {child.name} (pid {process.pid})\n")
            process.terminate()
        deadline = time.monotonic() + self.grace_seconds
        for child, process in living:
            remaining = max(0.0, deadline - time.monotonic())
            try:
                process.wait(timeout=remaining)
            except subprocess.TimeoutExpired:
                # Its own children (a worker's pool processes) would outlive it: kill them too,
                # each by its process id.
                below = descendants(process.pid)
                out.write(f"{child.name} (pid {process.pid}) did not stop; killing it"
                          + (f" and its processes {sorted(below)}" if below else "") + "\n")
                process.kill()
                for pid in below:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                process.wait()
        out.flush()


def descendants(pid: int) -> set[int]:
    """The process ids below `pid` (children, their children...), read from Linux's /proc;
    empty where there is no /proc."""
    parents: dict[int, list[int]] = {}
    try:
        entries = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return set()
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(parent, []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found
