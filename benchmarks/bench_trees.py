"""P2 (the per-deck cost of a batch) of several checkouts in one run, against refcheck.

    python benchmarks/bench_trees.py --tree /tmp/before [--tree /tmp/path-off] [--runs 11]
                                     [--home H] [--data ../shared/data]

What a speed path saves in time, where an instruction count does not show it (a change in
what the processor's caches hold, say): this checkout and each ``--tree`` (another checkout,
e.g. ``git worktree add /tmp/before HEAD~1``, or a copy with one path switched off) run
``validate -o json --jobs 1`` on 1,026 and 5,130 copies of the real decks (bench_goals' P2
corpus), in turn with ``../shared/tools/refcheck.py`` on the same decks, the order reversed
every other round. Per deck = (5,130-deck run - 1,026-deck run) / 4,104, medians of CPU time
(user + system) and wall time; each tree's ratio to refcheck measured in the same rounds.
The decks from 1,026 on repeat those before, so every card is known by then: the difference
is the steady per-deck cost, without the first-time reads of the cards.

Writes benchmarks/results/trees.json.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from _common import DEFAULT_DATA, machine, ready_home, write_result  # noqa: E402
from bench_goals import DATE, DECKCHECK, LIST, corpus, env_for, ratio, wall  # noqa: E402

SMALL, BIG = 1026, 5130


def measure(data: Path, home: Path, root: Path, trees: list[Path], runs: int) -> dict[str, Any]:
    small, big = corpus(data, root, SMALL), corpus(data, root, BIG)
    py = sys.executable
    ref = [py, str(data.parent / "tools" / "refcheck.py"), str(data / "cards" / "cards.cdb")]
    ref += [str(data / LIST), "tcg"]
    dc = [py, *DECKCHECK, "validate", "--date", DATE, "-o", "json", "--jobs", "1"]
    base = env_for(home)
    runs_of: dict[str, tuple[list[str], dict[str, str]]] = {}
    for tree in trees:
        runs_of[str(tree)] = (dc, {**base, "PYTHONPATH": str(tree)})
    runs_of["refcheck"] = (ref, base)
    got: dict[tuple[str, int], list[tuple[float, float]]] = {}
    names = list(runs_of)
    for r in range(runs + 1):  # the first round warms the caches and is left out
        for name in names if r % 2 == 0 else names[::-1]:
            cmd, env = runs_of[name]
            for n, folder in ((SMALL, small), (BIG, big)):
                cpu: list[float] = []
                took = wall([*cmd, str(folder)], env, cpu)
                if r:
                    got.setdefault((name, n), []).append((cpu[0], took))
    per: dict[str, dict[str, float]] = {}
    for name in names:
        per[name] = {}
        for i, what in enumerate(("cpu", "wall")):
            a = statistics.median(x[i] for x in got[(name, SMALL)])
            b = statistics.median(x[i] for x in got[(name, BIG)])
            per[name][what] = (b - a) / (BIG - SMALL) * 1e6
    ref_cost = per["refcheck"]
    return {
        "us_per_deck": {k: {w: round(v, 1) for w, v in d.items()} for k, d in per.items()},
        "ratio_to_refcheck": {
            k: {w: ratio(v, ref_cost[w]) for w, v in d.items()} for k, d in per.items()
        },
        "goal": "P2: per deck <= 1.0x refcheck",
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tree", type=Path, action="append", default=[], help="another checkout")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--home", type=Path, help="reuse this data home instead of building one")
    args = ap.parse_args()
    trees = [REPO, *(t.resolve() for t in args.tree)]
    for t in trees:
        if not (t / "deckcheck" / "__init__.py").is_file():
            ap.error(f"--tree {t}: not a deckcheck checkout (no deckcheck/__init__.py)")
    out: dict[str, Any] = {"load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        home = ready_home(args.data, args.home, root)
        out.update(measure(args.data, home, root, trees, args.runs))
    out["load_after"] = os.getloadavg()
    out["machine"] = machine()
    for name, cost in out["us_per_deck"].items():
        r = out["ratio_to_refcheck"][name]
        print(
            f"{name}: {cost['cpu']:.1f} us CPU ({r['cpu']:.3f} of refcheck), "
            f"{cost['wall']:.1f} us wall ({r['wall']:.3f})"
        )
    write_result("trees", out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
