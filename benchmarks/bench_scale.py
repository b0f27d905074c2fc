"""``deckcheck.scale`` on a dask LocalCluster: decks/s with 1 and 2 worker processes.

    python benchmarks/bench_scale.py [--data ../shared/data] [--decks 20000]

20,000 ydke links (the 209 real decks, round-robin) in a JSONL table; the cluster is started
before the clock starts (its start-up is reported apart). Writes benchmarks/results/scale.json.
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
sys.path.insert(0, str(HERE.parent))

from _common import DEFAULT_DATA, build_full_home, write_result  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--decks", type=int, default=20_000)
    args = ap.parse_args()
    from dask.distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        build_full_home(args.data, root / "home")
        os.environ["DECKCHECK_HOME"] = str(root / "home")
        from deckcheck import decks, scale
        from deckcheck.decks.write import to_ydke

        links = [to_ydke(decks.read_path(p)) for p in sorted((args.data / "decks").rglob("*.ydk"))]
        table = root / "decks.jsonl"
        with table.open("w") as f:
            for i in range(args.decks):
                f.write(json.dumps({"id": i, "ydke": links[i % len(links)]}) + "\n")
        data = scale.prepare("tcg", dt.date(2026, 6, 1))
        rows = []
        for workers in (1, 2):
            t0 = time.perf_counter()
            with (
                LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
                ) as cluster,
                Client(cluster) as client,
            ):
                started = time.perf_counter() - t0
                t1 = time.perf_counter()
                n = scale.run(table, root / f"out{workers}", data, client)
                secs = time.perf_counter() - t1
            rows.append(
                {
                    "workers": workers,
                    "decks": n,
                    "seconds": round(secs, 2),
                    "decks_per_s": round(n / secs),
                    "cluster_start_s": round(started, 2),
                }
            )
            print(rows[-1], flush=True)
    write_result("scale", {"rows": rows, "load": os.getloadavg()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
