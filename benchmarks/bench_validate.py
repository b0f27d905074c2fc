"""Measures validation throughput: real decks checked per second in one warm process.

    python benchmarks/bench_validate.py [--data ../shared/data] [--decks 5000]

Builds a temporary data home (real card database, real ProjectIgnis lists), reads the 209
real decks, then validates them round-robin until ``--decks`` reports are made: once with the
decks already read (``validate_deck`` alone) and once reading each file too (the path of
``deckcheck validate DIR``). Goals: at least 5,000 decks/s; 1,000 decks in under 1 s.
Writes benchmarks/results/validate.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--decks", type=int, default=5000)
    args = ap.parse_args()
    from bench_startup import build_home

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        build_home(args.data, home)
        os.environ["DECKCHECK_HOME"] = str(home)
        from deckcheck import decks
        from deckcheck.carddb import open_db
        from deckcheck.engine import Engine
        from deckcheck.formats import ListStore, get_format
        from deckcheck.validate import Target, validate_deck

        date = dt.date(2026, 6, 1)
        fmt = get_format("tcg")
        banlist = ListStore.default().in_force("tcg", date)
        db = open_db()
        engine, target = Engine(db), Target(fmt, banlist, date)
        paths = sorted((args.data / "decks").rglob("*.ydk"))
        read = [decks.read_path(p) for p in paths]
        for d in read:  # warm-up: the card cache, as a long run would have it
            validate_deck(engine, d, target)
        n = args.decks
        rows = []
        t0 = time.perf_counter()
        for i in range(n):
            validate_deck(engine, read[i % len(read)], target)
        rows.append(("validate_deck (decks read)", n, time.perf_counter() - t0))
        t0 = time.perf_counter()
        for i in range(n):
            validate_deck(engine, decks.read_path(paths[i % len(paths)]), target)
        rows.append(("read + validate_deck", n, time.perf_counter() - t0))
        t0 = time.perf_counter()
        for i in range(1000):
            validate_deck(engine, decks.read_path(paths[i % len(paths)]), target)
        rows.append(("1,000 decks read + validated", 1000, time.perf_counter() - t0))
        db.close()
    print(f"{'measurement':<30} {'decks':>6} {'seconds':>8} {'decks/s':>9}")
    result = {"real_decks": len(paths), "goal_decks_per_s": 5000, "rows": []}
    for name, count, secs in rows:
        print(f"{name:<30} {count:>6} {secs:>8.3f} {count / secs:>9.0f}")
        result["rows"].append(  # type: ignore[union-attr]
            {
                "measurement": name,
                "decks": count,
                "seconds": round(secs, 4),
                "decks_per_s": round(count / secs),
            }
        )
    out = HERE / "results" / "validate.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
