"""Measures a full card-database import (cards.cdb + the 10 locale files), median of 3.

    python benchmarks/bench_import.py [--data ../shared/data] [--runs 3]

Prints a small table and writes benchmarks/results/import.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from deckcheck.carddb.importer import import_files

HERE = Path(__file__).resolve().parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    files = [args.data / "cards" / "cards.cdb", *sorted(args.data.glob("locales/*/cards.cdb"))]
    times = []
    summary = None
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            db_path = Path(tmp) / "cards.sqlite3"
            t0 = time.perf_counter()
            summary = import_files(files, db_path=db_path)
            times.append(time.perf_counter() - t0)
            size = db_path.stat().st_size
    assert summary is not None
    names = sum(summary.names_by_lang.values())
    result = {
        "files": len(files),
        "cards": summary.cards,
        "names": names,
        "db_bytes": size,
        "runs_s": [round(t, 3) for t in times],
        "median_s": round(statistics.median(times), 3),
        "target_s": 15.0,
    }
    print(f"{'files':>6} {'cards':>7} {'names':>7} {'db MiB':>7} {'median s':>9} {'runs s':>20}")
    print(f"{len(files):>6} {summary.cards:>7} {names:>7} {size / 2**20:>7.1f} "
          f"{result['median_s']:>9.2f} {' '.join(f'{t:.2f}' for t in times):>20}")
    out = HERE / "results" / "import.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
