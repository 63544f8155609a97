"""`bench/engine.py` runs from the repository root and prints well-formed JSON lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_engine_bench_prints_json_lines(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "bench/engine.py", "--games", "2"], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    *phases, summary = lines
    assert summary["games"] == 2 and summary["phases_per_s"] > 0
    kinds = {p["phase"] for p in phases}
    assert {"nomination", "election", "cabinet", "budget_draw", "budget_proposal",
            "budget_vote", "locations"} <= kinds
    for p in phases:
        assert set(p) == {"phase", "count", "mean_ms", "max_ms"}
        assert p["count"] >= 1 and 0 <= p["mean_ms"] <= p["max_ms"]



def test_engine_bench_times_both_engines_on_the_same_inputs(tmp_path):
    """--compare HEAD --same-inputs: this engine's campaign recorded, then resolved phase by
    phase by the work tree's engine and by HEAD's, round by round; each kind's line gives both
    means, and the last line how many phases both resolved."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "bench/engine.py", "--games", "1", "--compare", "HEAD",
                           "--same-inputs", "--rounds", "2"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    *phases, summary = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert summary["same_inputs"] is True and summary["compare"] == "HEAD"
    assert summary["rounds"] == 2 and summary["inputs"] == sum(p["count"] for p in phases)
    assert summary["same_results"] == (summary["different_results"] == 0)
    assert {"coup", "budget_vote", "locations"} <= {p["phase"] for p in phases}
    for p in phases:
        assert p["mean_ms"] > 0 and p["before_mean_ms"] > 0 and p["speedup"] > 0
        assert 0 < p["min_mean_ms"] <= p["mean_ms"] and p["speedup_min"] > 0


def test_engine_bench_same_inputs_needs_compare():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "bench/engine.py", "--same-inputs"], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--same-inputs needs --compare" in done.stderr

def test_engine_bench_without_diplomacy_says_how_to_install_it(tmp_path):
    """--diplomacy never needs the package in the project's .venv: without it (here shadowed by
    a module that cannot be imported, whatever is installed) the bench stops at once and says
    how to get it."""
    (tmp_path / "diplomacy.py").write_text("raise ImportError('shadowed by the test')\n")
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
           "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "bench/engine.py", "--games", "1", "--diplomacy"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and done.stdout == ""
    assert "make bench-diplomacy" in done.stderr and "bench/diplomacy.txt" in done.stderr
    assert "shadowed by the test" in done.stderr
