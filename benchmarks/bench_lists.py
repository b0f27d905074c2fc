"""Measures the list store with the whole lflist history imported (ProjectIgnis + YGOPro):
import, cold compile (no cache) and warm ``in_force`` (a fresh process, json only).

    python benchmarks/bench_lists.py [--data ../shared/data] [--runs 5]

Prints a small table and writes benchmarks/results/lists.json.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

PROBE = """\
import time
t0 = time.perf_counter()
import datetime as dt, sys
from deckcheck.formats.catalog import ListStore
s = ListStore.default()
b = s.in_force("tcg", dt.date(2025, 6, 1))
t1 = time.perf_counter()
for _ in range(1000):
    s.in_force("ocg", dt.date(2020, 1, 1))
t2 = time.perf_counter()
print(t1 - t0, (t2 - t1) / 1000, len(s.families()), "yaml" in sys.modules)
"""


def probe(home: Path) -> tuple[float, float, int, bool]:
    env = {**os.environ, "DECKCHECK_HOME": str(home)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]), out[3] == "True"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    banlists = args.data / "banlists"
    confs = sorted(
        p
        for p in (banlists / "projectignis-lflists").glob("*/*.lflist.conf")
        if p.parent.name != "upstream-head"
    )
    confs.append(banlists / "fluorohydride-ygopro" / "upstream-head" / "lflist.conf")
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        os.environ["DECKCHECK_HOME"] = str(home)
        from deckcheck.formats.importer import import_lflists

        t0 = time.perf_counter()
        with contextlib.redirect_stderr(io.StringIO()):  # one note per differing list
            res = import_lflists(confs)
        import_s = time.perf_counter() - t0
        cold = []
        for _ in range(max(1, args.runs // 2)):
            shutil.rmtree(home / "cache", ignore_errors=True)
            cold.append(probe(home)[0])
        warm = [probe(home) for _ in range(args.runs)]
    files = len(res.written) + len(res.unchanged)
    result = {
        "source_files": len(confs),
        "list_files": files,
        "families": warm[0][2],
        "conflicts": len(res.conflicts),
        "import_s": round(import_s, 3),
        "cold_first_in_force_s": [round(t, 3) for t in cold],
        "warm_first_in_force_s": [round(w[0], 4) for w in warm],
        "warm_median_s": round(statistics.median(w[0] for w in warm), 4),
        "warm_in_force_call_us": round(statistics.median(w[1] for w in warm) * 1e6, 1),
        "warm_imports_yaml": any(w[3] for w in warm),
    }
    print(f"{'lists':>6} {'import s':>9} {'cold s':>8} {'warm s':>8} {'call µs':>8} {'yaml':>5}")
    print(
        f"{files:>6} {import_s:>9.2f} {statistics.median(cold):>8.2f} "
        f"{result['warm_median_s']:>8.4f} {result['warm_in_force_call_us']:>8.1f} "
        f"{result['warm_imports_yaml']!s:>5}"
    )
    out = HERE / "results" / "lists.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
