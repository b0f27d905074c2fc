"""Measures reading 10,000 decks in one process (target: at most 1 s), the real decks repeated.

    python benchmarks/bench_read.py [--data ../shared/data] [--decks 10000] [--repeat 3]

Three figures, best of ``--repeat``: ``read_path`` (open + limits + decode + sniff + parse,
what ``deckcheck validate`` does per file), ``read_bytes`` (no file system), and the .ydk
parser alone on pre-split lines. Prints a small table and writes
benchmarks/results/read.json.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from deckcheck import decks
from deckcheck.decks import ydk
from deckcheck.decks.source import split_lines

HERE = Path(__file__).resolve().parent


def best_of(repeat: int, fn: Callable[[], int]) -> tuple[float, int]:
    best = float("inf")
    cards = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        cards = fn()
        best = min(best, time.perf_counter() - t0)
    return best, cards


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--decks", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    files = sorted((args.data / "decks").glob("*/*.ydk"))
    if not files:
        raise SystemExit(f"no .ydk files under {args.data / 'decks'}")
    paths = [files[i % len(files)] for i in range(args.decks)]
    blobs = [p.read_bytes() for p in paths]
    lines = [split_lines(b.decode("utf-8-sig"), "x") for b in blobs]

    def via_path() -> int:
        return sum(len(decks.read_path(p).entries()) for p in paths)

    def via_bytes() -> int:
        return sum(len(decks.read_bytes(b, "deck.ydk").entries()) for b in blobs)

    def parser_only() -> int:
        return sum(len(ydk.parse_lines(ls, "deck.ydk").entries()) for ls in lines)

    rows = []
    for name, fn in (
        ("read_path", via_path),
        ("read_bytes", via_bytes),
        ("ydk.parse_lines", parser_only),
    ):
        secs, cards = best_of(args.repeat, fn)
        rows.append(
            {
                "what": name,
                "decks": args.decks,
                "cards": cards,
                "seconds": round(secs, 4),
                "us_per_deck": round(secs / args.decks * 1e6, 1),
                "target_seconds": 1.0,
                "ok": secs <= 1.0,
            }
        )
    print(f"{'what':<16} {'decks':>6} {'cards':>8} {'seconds':>8} {'µs/deck':>8}  target ≤ 1 s")
    for r in rows:
        print(
            f"{r['what']:<16} {r['decks']:>6} {r['cards']:>8} {r['seconds']:>8.3f} "
            f"{r['us_per_deck']:>8.1f}  {'ok' if r['ok'] else 'OVER'}"
        )
    out = HERE / "results" / "read.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"benchmark": "read", "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
