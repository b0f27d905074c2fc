"""Shared benchmark helpers: a full data home built from ../shared/data, timing and results."""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results"
DEFAULT_DATA = REPO.parent / "shared" / "data"


def _realhome() -> Any:
    """tests/_realhome.py, loaded by its path: the benchmarks build their data homes with the
    tests' recipe, without putting the repository on sys.path (which would change which
    deckcheck the in-process benchmarks import, but not the one their subprocesses run)."""
    spec = importlib.util.spec_from_file_location("_realhome", REPO / "tests" / "_realhome.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_REALHOME = _realhome()
#: ``build_full_home(data, home)``: the full card database and the ProjectIgnis lists.
build_full_home: Callable[..., Path] = _REALHOME.build_full_home
#: ``with home_env(home):`` DECKCHECK_HOME pointed at ``home`` for the block, then restored.
home_env: Callable[[Path], Any] = _REALHOME.home_env


def ready_home(data: Path, given: Path | None, root: Path) -> Path:
    """The data home for timings: ``given`` (``--home``) when it holds a card database, else
    a full one built (at ``given``, or in ``root``) and synced to disk, so that its pages are
    not written back during the timings (measured right after the build, P1 read 1.29-1.30
    where the same home read 1.14 a minute later)."""
    home = given or root / "home"
    if not (home / "cards.sqlite3").exists():
        build_full_home(data, home)
        os.sync()
    return home


def one_deck(data: Path) -> Path:
    """The deck the one-deck timings check (P1, start-up): the first real ``.ydk`` by path."""
    return min((data / "decks").rglob("*.ydk"))


def machine() -> dict[str, Any]:
    """What the figures were measured on (they mean little without it)."""
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "executable": sys.executable,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def median_of(fn: Callable[[], float], runs: int, warmup: int = 1) -> float:
    """Median of ``runs`` calls after ``warmup`` discarded ones (the machine is shared)."""
    for _ in range(warmup):
        fn()
    return statistics.median(fn() for _ in range(runs))


def timed_run(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def write_result(name: str, result: dict[str, Any]) -> Path:
    """benchmarks/results/<name>.json, with the machine stamped in."""
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"{name}.json"
    out.write_text(json.dumps({**result, "machine": machine()}, indent=2) + "\n")
    return out
