"""Runs every benchmark in turn (each a fresh process) and prints one summary of the results.

    python benchmarks/run_all.py [--data ../shared/data] [--quick] [--only startup,batch]

Each script prints its own table and writes benchmarks/results/<name>.json; this script then
prints the headline figure of each against its goal, and writes results/summary.json.
``--quick`` runs the batch benchmark on 10,000 synthetic decks instead of 100,000.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import DEFAULT_DATA, RESULTS, machine, write_result  # noqa: E402

#: name -> (script, extra arguments for --quick)
BENCHES: dict[str, tuple[str, list[str]]] = {
    "startup": ("bench_startup.py", []),
    "validate": ("bench_validate.py", []),
    "batch": ("bench_batch.py", ["--decks", "10000", "--sizes", "10000"]),
    "import": ("bench_import.py", ["--runs", "1"]),
    "card_get": ("bench_card_get.py", []),
    "read": ("bench_read.py", []),
    "lookup": ("bench_lookup.py", []),
    "lists": ("bench_lists.py", []),
    "diff": ("bench_diff.py", []),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated names: " + ",".join(BENCHES))
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(BENCHES)
    status: dict[str, dict[str, object]] = {}
    for name in names:
        script, quick = BENCHES[name]
        cmd = [sys.executable, str(HERE / script), "--data", str(args.data)]
        if args.quick:
            cmd += quick
        print(f"== {name}: {' '.join(cmd[1:])}", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.run(cmd, check=False).returncode
        status[name] = {"exit": rc, "seconds": round(time.perf_counter() - t0, 1)}
    print("\n== summary")
    for name, st in status.items():
        path = RESULTS / f"{name}.json"
        got = json.loads(path.read_text()) if path.is_file() and st["exit"] == 0 else None
        print(f"{name:<10} exit {st['exit']}  {st['seconds']:>6} s  {headline(name, got)}")
    write_result("summary", {"runs": status, "quick": args.quick})
    print(f"machine: {machine()}")
    return max((int(str(s["exit"])) for s in status.values()), default=0)


def headline(name: str, r: dict | None) -> str:  # type: ignore[type-arg]
    """The figure that matters for each benchmark, with its goal where there is one."""
    if r is None:
        return "no result"
    if name == "startup":
        return f"validate {r['validate_ms']} ms / python {r['python_pass_ms']} ms = " \
               f"{r['ratio']} (goal <= 2.0)"
    if name == "batch":
        big = max(r["runs"], key=lambda x: x["decks"] if "jobs 1" not in x["run"] else 0)
        return (f"{big['decks']} decks {big['seconds']} s (goal < 30), tree peak "
                f"{max(x['tree_peak_mib'] for x in r['runs'])} MiB (goal < 200), in-process "
                f"{r['in_process']['decks_per_s']} decks/s (goal >= 5000)")
    if name == "validate":
        return ", ".join(f"{x['measurement']}: {x['decks_per_s']}/s" for x in r["rows"])
    keys = [k for k in r if k != "machine"][:4]
    return ", ".join(f"{k}={json.dumps(r[k])[:40]}" for k in keys)


if __name__ == "__main__":
    sys.exit(main())
