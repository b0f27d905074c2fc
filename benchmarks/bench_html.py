"""Measures the HTML report of a 1,000-deck batch: its size, render time and load time in chromium.

    python benchmarks/bench_html.py [--data ../shared/data] [--decks 1000] [--runs 3]

Builds a temporary data home (full card database, ProjectIgnis lists), copies the real decks
of ../shared/data/decks round-robin into a temporary folder until it holds ``--decks`` decks
(legal and illegal ones, real findings), then runs
``deckcheck validate -o html --format tcg --banlist "2026.05 TCG"`` as a fresh process and
reports: the file's size (goal: under 10 MB for 1,000 decks), the time to write it, and in
headless Debian chromium (over the DevTools protocol, see tests/chromium.py) the time from
navigation to the load event (scripts run) and the time one "only illegal" filter and one
sort take (goal: each under 1 s on this 2-core machine). Median of ``--runs`` page loads,
each in a fresh page. Writes benchmarks/results/html.json.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from _common import DEFAULT_DATA, build_full_home, write_result  # noqa: E402

from tests import chromium  # noqa: E402

LOAD = """(() => { const n = performance.getEntriesByType('navigation')[0];
  return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; })()"""
FILTER = """(() => { const t = performance.now();
  document.getElementById('only-illegal').click();
  document.body.offsetHeight;  // force the layout a person waits for
  const rows = Array.from(document.querySelectorAll('#decks tbody tr')).filter(r => !r.hidden);
  return {ms: performance.now() - t, shown: rows.length}; })()"""
SORT = """(() => { const t = performance.now();
  document.querySelector('th[data-key=findings] button').click();
  document.body.offsetHeight;
  return performance.now() - t; })()"""


def make_corpus(decks: Path, n: int, out: Path) -> int:
    real = sorted(decks.rglob("*.ydk"))
    for i in range(n):
        src = real[i % len(real)]
        folder = out / f"batch{i // 250:02d}"
        folder.mkdir(exist_ok=True)
        shutil.copyfile(src, folder / f"{i:04d} {src.name}")
    return len(real)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--decks", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="copy the report to this path (to look at it)")
    args = ap.parse_args()
    if chromium.find() is None:
        print("bench_html: chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-html-") as tmp:
        tmpd = Path(tmp)
        home = tmpd / "home"
        home.mkdir()
        print("building the data home …", file=sys.stderr)
        build_full_home(args.data, home)
        corpus = tmpd / "decks"
        corpus.mkdir()
        distinct = make_corpus(args.data / "decks", args.decks, corpus)
        env = {**os.environ, "DECKCHECK_HOME": str(home), "PYTHONPATH": str(HERE.parent)}
        page = tmpd / "report.html"
        cmd = [
            sys.executable,
            "-m",
            "deckcheck",
            "validate",
            "-o",
            "html",
            "--format",
            "tcg",
            "--banlist",
            "2026.05 TCG",
            "--date",
            "2026-06-01",
            str(corpus),
        ]
        t0 = time.perf_counter()
        with page.open("w") as fp:
            subprocess.run(cmd, env=env, stdout=fp, stderr=subprocess.DEVNULL, check=False)
        write_s = time.perf_counter() - t0
        size = page.stat().st_size
        if args.keep:
            shutil.copyfile(page, args.keep)
        loads, dcls, filters, sorts = [], [], [], []
        shown = 0
        with chromium.Browser(timeout=120) as b:
            for _ in range(args.runs):
                b.open(page)
                got = b.js(LOAD)
                loads.append(got["load"])
                dcls.append(got["dcl"])
                f = b.js(FILTER)
                filters.append(f["ms"])
                shown = f["shown"]
                sorts.append(b.js(SORT))
        result = {
            "decks": args.decks,
            "distinct_real_decks": distinct,
            "bytes": size,
            "mib": round(size / 2**20, 2),
            "write_s": round(write_s, 2),
            "load_ms_median": round(statistics.median(loads), 1),
            "dom_content_loaded_ms_median": round(statistics.median(dcls), 1),
            "filter_only_illegal_ms_median": round(statistics.median(filters), 1),
            "illegal_rows_shown": shown,
            "sort_by_findings_ms_median": round(statistics.median(sorts), 1),
            "runs": args.runs,
            "command": " ".join(cmd[1:]),
        }
    out = write_result("html", result)
    for k, v in result.items():
        print(f"{k}: {v}")
    print(f"-> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
