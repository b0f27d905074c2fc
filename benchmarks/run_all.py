"""Runs every benchmark in turn (each a fresh process) and prints one summary of the results.

    python benchmarks/run_all.py [--data ../shared/data] [--quick] [--only goals,scale]

Each script prints its own table and writes benchmarks/results/<name>.json; this script then
prints the headline figure of each against its goal, and writes results/summary.json.
``--quick`` runs the batch benchmark on 10,000 synthetic decks instead of 100,000 (and the
goals' memory run on 10,000 decks). A script that does not exist (yet) is reported as missing.
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
    # issue 18's goals, each beside its peer from the same run (P4: lookup, P5: import below)
    "goals": ("bench_goals.py", ["--runs", "5", "--peak", "10000"]),
    "scale": ("bench_scale.py", []),
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
        if not (HERE / script).is_file():  # another part of the work may add it later
            status[name] = {"exit": "missing", "seconds": 0}
            continue
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
    return max((s["exit"] for s in status.values() if isinstance(s["exit"], int)), default=0)


def headline(name: str, r: dict | None) -> str:  # type: ignore[type-arg]
    """The figure that matters for each benchmark, with its goal where there is one."""
    if r is None:
        return "no result"
    if name == "goals":
        return goals_text(r)
    if name == "scale":
        return ", ".join(f"{x['workers']} worker(s): {x['decks_per_s']} decks/s" for x in r["rows"])
    if name == "startup":
        return (
            f"validate {r['validate_ms']} ms / python {r['python_pass_ms']} ms = "
            f"{r['ratio']} (goal <= 2.0)"
        )
    if name == "batch":
        big = max(r["runs"], key=lambda x: x["decks"] if "jobs 1" not in x["run"] else 0)
        return (
            f"{big['decks']} decks {big['seconds']} s (goal < 30), tree peak "
            f"{max(x['tree_peak_mib'] for x in r['runs'])} MiB (goal < 200), in-process "
            f"{r['in_process']['decks_per_s']} decks/s (goal >= 5000)"
        )
    if name == "validate":
        return ", ".join(f"{x['measurement']}: {x['decks_per_s']}/s" for x in r["rows"])
    keys = [k for k in r if k != "machine"][:4]
    return ", ".join(f"{k}={json.dumps(r[k])[:40]}" for k in keys)


def _met(value: float, goal: float) -> str:
    return "met" if value <= goal else "NOT met"


def goals_text(r: dict) -> str:  # type: ignore[type-arg]
    """Issue 18's goals P1-P3, each figure beside its peer from the same run."""
    lines = [
        (
            f"(baseline: python -c pass {r.get('baseline_python_ms')} ms; load average "
            f"{r.get('load_before')} -> {r.get('load_after')})"
        )
    ]
    if "p1" in r:
        p, ms = r["p1"], r["p1"]["ms"]
        lines.append(
            f"  P1 validate one.ydk {ms['validate']} ms vs bare click {ms['peer_validate']} ms "
            f"= {p['validate_ratio']} (goal <= 1.25: {_met(p['validate_ratio'], 1.25)}); "
            f"--help {ms['help']} vs {ms['peer_help']} ms = {p['help_ratio']} (goal <= 1.1: "
            f"{_met(p['help_ratio'], 1.1)})"
        )
    if "p2" in r:
        p = r["p2"]
        lines.append(
            f"  P2 per deck {p['deckcheck_ms_per_deck']} ms vs refcheck "
            f"{p['refcheck_ms_per_deck']} ms = {p['ratio']} (goal <= 1.0: {_met(p['ratio'], 1.0)})"
        )
    if "p3" in r:
        p = r["p3"]
        mem = p.get("memory", {})
        lines.append(
            f"  P3 jobs2/jobs1 {p['jobs2_over_jobs1']} (<= 0.75: "
            f"{_met(p['jobs2_over_jobs1'], 0.75)})"
            f"; one core busy: {p['busy_jobs2_over_jobs1']} (<= 1.10: "
            f"{_met(p['busy_jobs2_over_jobs1'], 1.10)}); jobs64/jobs{p['cores']} "
            f"{p['jobs64_over_jobs_cores']} (<= 1.10: {_met(p['jobs64_over_jobs_cores'], 1.10)}); "
            f"auto/best {p['auto_over_best']}, busy {p['busy_auto_over_best']} (<= 1.10: "
            f"{_met(max(p['auto_over_best'], p['busy_auto_over_best']), 1.10)})"
        )
        if mem:
            lines.append(
                f"  P3 memory: tree peak {mem.get('tree_peak_mib')} MiB on "
                f"{mem.get('decks')} decks (<= 200: "
                f"{_met(mem.get('tree_peak_mib', 1e9), 200)})"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
