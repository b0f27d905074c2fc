"""Shared benchmark helpers: a full data home built from ../shared/data, timing and results."""

from __future__ import annotations

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
RESULTS = HERE / "results"
DEFAULT_DATA = HERE.parent.parent / "shared" / "data"


def build_full_home(data: Path, home: Path) -> None:
    """Card database (cards.cdb + every locale) and the ProjectIgnis lists, as a user has them.

    The lists are imported with that home's database installed so their ids are canonical
    (alternate artworks merged), the same way ``tests/conftest.py`` builds ``real_home``.
    """
    from deckcheck.carddb.importer import import_files
    from deckcheck.formats.importer import import_lflists

    cdbs = [data / "cards" / "cards.cdb", *sorted((data / "locales").glob("*/cards.cdb"))]
    import_files(cdbs, db_path=home / "cards.sqlite3")
    pi = data / "banlists" / "projectignis-lflists"
    confs = sorted(p for p in pi.glob("*/*.lflist.conf") if p.parent.name != "upstream-head")
    saved = os.environ.get("DECKCHECK_HOME")
    os.environ["DECKCHECK_HOME"] = str(home)
    try:
        import_lflists(confs, dest=home / "banlists")
    finally:
        if saved is None:
            os.environ.pop("DECKCHECK_HOME", None)
        else:
            os.environ["DECKCHECK_HOME"] = saved


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
