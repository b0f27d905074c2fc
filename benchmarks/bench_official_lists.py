"""Measures importing every official list file (yaml-yugi-limit-regulation vectors and names,
the Duel Links dev.db) against the peer, importing the whole ProjectIgnis lflist history, in
the same run on the same home (cards.cdb installed), median of N, wall and CPU seconds.

    python benchmarks/bench_official_lists.py [--data ../shared/data] [--runs 3]

The Konami id map is read from yaml-yugi cards.json/rush.json by tests/_konami.py (the card
side's CardDB.passcodes_for_konami does the same from the database); building it is timed
separately. Prints a small table and writes benchmarks/results/official_lists.json.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = 30.0  # issue 15: importing all upstream files in at most 30 s


def _timed(fn) -> tuple[float, float, object]:  # type: ignore[no-untyped-def]
    w, c = time.perf_counter(), time.process_time()
    got = fn()
    return time.perf_counter() - w, time.process_time() - c, got


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    sys.path.insert(0, str(HERE.parent / "tests"))
    from _konami import konami_map

    from deckcheck.carddb import open_db
    from deckcheck.carddb.importer import import_files
    from deckcheck.formats.importer import import_lflists

    data: Path = args.data
    lr = data / "banlists" / "yaml-yugi-limit-regulation"
    official = [p for p in sorted(lr.glob("*/*.json"))]
    official.append(data / "upstream/falsepopsky__forbidden-duel-links/prisma/dev.db")
    pi = data / "banlists" / "projectignis-lflists"
    peer = sorted(p for p in pi.glob("*/*.lflist.conf") if p.parent.name != "upstream-head")
    rows: dict[str, list[tuple[float, float]]] = {"konami map": [], "official": [], "lflist": []}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        os.environ["DECKCHECK_HOME"] = str(home)
        import_files([data / "cards" / "cards.cdb"], db_path=home / "cards.sqlite3")
        db = open_db(home / "cards.sqlite3")
        sink = io.StringIO()
        yy = data / "upstream/DawnbrandBots__yaml-yugi"
        res = None
        for i in range(args.runs):
            with contextlib.redirect_stderr(sink):
                w, c, km = _timed(lambda: konami_map(yy, db))
                rows["konami map"].append((w, c))
                o_dest, l_dest, kmap = home / f"o{i}", home / f"l{i}", km
                w, c, res = _timed(
                    lambda: import_lflists(official, dest=o_dest, konami=kmap)  # noqa: B023
                )
                rows["official"].append((w, c))
                w, c, _ = _timed(lambda: import_lflists(peer, dest=l_dest))  # noqa: B023
                rows["lflist"].append((w, c))
        n_off = len(res.lists)  # type: ignore[attr-defined]
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in rows.items()}
    ratio = med["official"][0] / med["lflist"][0]
    print(f"{'step':<12} {'wall s':>8} {'cpu s':>8}")
    for k, (w, c) in med.items():
        print(f"{k:<12} {w:>8.2f} {c:>8.2f}")
    total = med["official"][0] + med["konami map"][0]
    print(f"official lists: {len(official)} files -> {n_off} lists; "
          f"peer: {len(peer)} lflist files")
    print(f"official/lflist wall ratio {ratio:.2f}; official+map {total:.2f} s "
          f"(goal <= {TARGET} s)")
    out = HERE / "results" / "official_lists.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"median": med, "ratio_official_vs_lflist": ratio,
                               "files": len(official), "lists": n_off, "peer_files": len(peer),
                               "goal_s": TARGET}, indent=1))
    return 0 if total <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
