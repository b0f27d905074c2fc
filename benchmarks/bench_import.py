"""Measures full card-database imports, median of 3: cards.cdb + the 10 locale files, and the
same plus the official data (yaml-yugi cards/rush/skill.json and the YGOJSON folder).

    python benchmarks/bench_import.py [--data ../shared/data] [--runs 3] [--zip]

``--zip`` imports YGOJSON as a release zip (built once in a temporary folder, not timed)
instead of the folder. Prints a small table and writes benchmarks/results/import.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import zipfile
from pathlib import Path

from deckcheck.carddb.importer import import_files

HERE = Path(__file__).resolve().parent
TARGETS = {"cdb+locales": 15.0, "cdb+locales+official": 30.0}  # issue 18 P5


def _zip(src: Path, dest: Path) -> Path:
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for f in sorted(src.rglob("*.json")):
            z.write(f, f.relative_to(src).as_posix())
    return dest


def _measure(files: list[Path], runs: int) -> dict[str, object]:
    times = []
    cpu = []
    summary = None
    size = 0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            db_path = Path(tmp) / "cards.sqlite3"
            t0, c0 = time.perf_counter(), time.process_time()
            summary = import_files(files, db_path=db_path)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            size = db_path.stat().st_size
    assert summary is not None
    return {
        "files": len(files),
        "cards": summary.cards,
        "names": sum(summary.names_by_lang.values()),
        "db_bytes": size,
        "runs_s": [round(t, 3) for t in times],
        "median_s": round(statistics.median(times), 3),
        # CPU time of this process: on a shared machine wall time also counts the others
        "cpu_median_s": round(statistics.median(cpu), 3),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--zip", action="store_true", help="YGOJSON as the release zip")
    args = ap.parse_args()
    base = [args.data / "cards" / "cards.cdb", *sorted(args.data.glob("locales/*/cards.cdb"))]
    up = args.data / "upstream"
    with tempfile.TemporaryDirectory() as ztmp:
        ygojson = up / "iconmaster5326__YGOJSON"
        if args.zip:
            ygojson = _zip(ygojson, Path(ztmp) / "individual.zip")
        official = [up / "DawnbrandBots__yaml-yugi" / n for n in ("cards.json", "rush.json",
                                                                   "skill.json")]
        result = {
            "cdb+locales": _measure(base, args.runs),
            "cdb+locales+official": _measure([*base, *official, ygojson], args.runs),
        }
    print(f"{'import':>22} {'files':>6} {'cards':>7} {'names':>7} {'db MiB':>7} "
          f"{'median s':>9} {'cpu s':>6} {'target s':>9} {'runs s':>20}")
    for name, r in result.items():
        r["target_s"] = TARGETS[name]
        runs = " ".join(f"{t:.2f}" for t in r["runs_s"])  # type: ignore[attr-defined]
        print(f"{name:>22} {r['files']:>6} {r['cards']:>7} {r['names']:>7} "
              f"{int(r['db_bytes']) / 2**20:>7.1f} {r['median_s']:>9.2f} {r['cpu_median_s']:>6.2f} "
              f"{r['target_s']:>9.1f} "
              f"{runs:>20}")
    out = HERE / "results" / "import.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({**result, "ygojson": "zip" if args.zip else "folder"},
                              indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
