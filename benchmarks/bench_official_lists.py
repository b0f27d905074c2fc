"""Measures importing every official list file (yaml-yugi-limit-regulation vectors and names,
the Duel Links dev.db) against the peer, importing the whole ProjectIgnis lflist history, in
the same run on the same home, median of N, wall and CPU seconds; and the same official lists
read from the repository's source zip, as `update` fetches them.

    python benchmarks/bench_official_lists.py [--data ../shared/data] [--runs 3]

The home holds cards.cdb plus yaml-yugi cards.json/rush.json imported (untimed): Konami ids
map through the database (CardDB.passcodes_for_konami), as for a user. Prints a small table
and writes benchmarks/results/official_lists.json.
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
    from deckcheck.carddb.importer import import_files
    from deckcheck.formats.importer import import_lflists

    sys.path.insert(0, str(HERE))
    from _common import _realhome

    data: Path = args.data
    lr = data / "banlists" / "yaml-yugi-limit-regulation"
    official = sorted(lr.glob("*/*.json"))
    dev_db = data / "upstream/falsepopsky__forbidden-duel-links/prisma/dev.db"
    official.append(dev_db)
    pi = data / "banlists" / "projectignis-lflists"
    peer = sorted(p for p in pi.glob("*/*.lflist.conf") if p.parent.name != "upstream-head")
    rows: dict[str, list[tuple[float, float]]] = {"official": [], "official zip": [], "lflist": []}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        os.environ["DECKCHECK_HOME"] = str(home)
        yy = data / "upstream/DawnbrandBots__yaml-yugi"
        import_files(
            [data / "cards" / "cards.cdb", yy / "cards.json", yy / "rush.json"],
            db_path=home / "cards.sqlite3",
        )
        archive = _realhome().limit_regulation_archive(data, home / "master.zip")
        sink = io.StringIO()
        res = None
        for i in range(args.runs):
            with contextlib.redirect_stderr(sink):
                o_dest, z_dest, l_dest = home / f"o{i}", home / f"z{i}", home / f"l{i}"
                w, c, res = _timed(lambda: import_lflists(official, dest=o_dest))  # noqa: B023
                rows["official"].append((w, c))
                w, c, _ = _timed(
                    lambda: import_lflists([archive, dev_db], dest=z_dest)  # noqa: B023
                )
                rows["official zip"].append((w, c))
                w, c, _ = _timed(lambda: import_lflists(peer, dest=l_dest))  # noqa: B023
                rows["lflist"].append((w, c))
        n_off = len(res.lists)  # type: ignore[attr-defined]
    med = {
        k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for k, v in rows.items()
    }
    ratio = med["official"][0] / med["lflist"][0]
    print(f"{'step':<12} {'wall s':>8} {'cpu s':>8}")
    for k, (w, c) in med.items():
        print(f"{k:<12} {w:>8.2f} {c:>8.2f}")
    total = med["official"][0]
    print(f"official lists: {len(official)} files -> {n_off} lists; peer: {len(peer)} lflist files")
    print(
        f"official/lflist wall ratio {ratio:.2f}, CPU ratio "
        f"{med['official'][1] / med['lflist'][1]:.2f}; official {total:.2f} s "
        f"(goal <= {TARGET} s); load {os.getloadavg()[0]:.2f}"
    )
    out = HERE / "results" / "official_lists.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "median": med,
                "ratio_official_vs_lflist": ratio,
                "files": len(official),
                "lists": n_off,
                "peer_files": len(peer),
                "goal_s": TARGET,
            },
            indent=1,
        )
    )
    return 0 if total <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
