"""Measures start-up: ``deckcheck validate one.ydk`` (full database) vs ``python -c pass``.

    python benchmarks/bench_startup.py [--data ../shared/data] [--runs 15]

Builds a temporary data home with the full card database (cards.cdb and every locale) and
the real ProjectIgnis lists,
warms it up (caches compiled), then times both commands with the same interpreter
(``sys.executable``) and reports the medians and their ratio (goal: at most 2.0). Also lists
which of yaml, pydantic, rapidfuzz the validate run imported (goal: none). Writes
benchmarks/results/startup.json.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import build_full_home, one_deck, write_result  # noqa: E402

HEAVY = ("yaml", "pydantic", "rapidfuzz")


def build_home(data: Path, home: Path) -> None:
    """The full database (cards + locales) and the ProjectIgnis lists (see _common)."""
    build_full_home(data, home)


def timed(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    deck = one_deck(args.data)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        build_home(args.data, home)
        # this checkout's deckcheck, whatever the working folder (``-P``: not on sys.path)
        env = {**os.environ, "DECKCHECK_HOME": str(home), "PYTHONPATH": str(HERE.parent)}
        env.pop("GITHUB_ACTIONS", None)
        validate = [sys.executable, "-P", "-m", "deckcheck", "validate", "--date", "2026-06-01"]
        validate.append(str(deck))
        baseline = [sys.executable, "-c", "pass"]
        for _ in range(3):  # warm-up: compiled list and format caches, OS file cache
            timed(validate, env)
            timed(baseline, env)
        v, b = [], []
        for _ in range(args.runs):  # interleaved: load from other users hits both alike
            v.append(timed(validate, env))
            b.append(timed(baseline, env))
        probe = (
            "import sys; from deckcheck.cli import main; main(['validate', '--date', "
            f"'2026-06-01', {str(deck)!r}]); "
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)"
        )
        proc = subprocess.run(
            [sys.executable, "-P", "-c", probe],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        heavy = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    vm, bm = statistics.median(v), statistics.median(b)
    result = {
        "runs": args.runs,
        "validate_ms": round(vm * 1000, 1),
        "python_pass_ms": round(bm * 1000, 1),
        "ratio": round(vm / bm, 2),
        "goal_ratio": 2.0,
        "heavy_imports": [m for m in heavy.split(",") if m in HEAVY],
    }
    print(f"{'runs':>5} {'validate ms':>12} {'python ms':>10} {'ratio':>6}  heavy imports")
    print(
        f"{args.runs:>5} {result['validate_ms']:>12} {result['python_pass_ms']:>10} "
        f"{result['ratio']:>6}  {', '.join(result['heavy_imports']) or 'none'}"
    )
    write_result("startup", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
