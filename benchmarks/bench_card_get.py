"""Measures ``CardDB.get`` by passcode: µs per lookup, cold (first access) and warm (cached).

    python benchmarks/bench_card_get.py [--data ../shared/data]

Imports the real data into a temporary database, then looks up every passcode once cold
and again warm. Prints a small table and writes benchmarks/results/card_get.json.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from deckcheck.carddb import open_db
from deckcheck.carddb.importer import import_files

HERE = Path(__file__).resolve().parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "cards.sqlite3"
        import_files([args.data / "cards" / "cards.cdb"], db_path=db_path)
        t0 = time.perf_counter()
        db = open_db(db_path)
        open_ms = (time.perf_counter() - t0) * 1000
        ids = db.all_ids()
        random.Random(1).shuffle(ids)
        t0 = time.perf_counter()
        for i in ids:
            db.get(i)
        cold = (time.perf_counter() - t0) / len(ids) * 1e6
        t0 = time.perf_counter()
        for _ in range(5):
            for i in ids:
                db.get(i)
        warm = (time.perf_counter() - t0) / (5 * len(ids)) * 1e6
        t0 = time.perf_counter()
        misses = 10000
        for i in range(misses):
            db.get(900_000_000 + i)
        miss = (time.perf_counter() - t0) / misses * 1e6
        db.close()
    result = {
        "ids": len(ids),
        "open_ms": round(open_ms, 2),
        "cold_us": round(cold, 2),
        "warm_us": round(warm, 3),
        "unknown_id_us": round(miss, 2),
    }
    print(f"{'ids':>7} {'open ms':>8} {'cold µs':>8} {'warm µs':>8} {'unknown µs':>11}")
    print(f"{len(ids):>7} {open_ms:>8.2f} {cold:>8.2f} {warm:>8.3f} {miss:>11.2f}")
    out = HERE / "results" / "card_get.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
