"""Behaviour snapshot: the JSON reports of every real deck under five formats, to compare.

A restructuring must not change what deckcheck says. This script builds a full data home
from ``../shared/data`` (cards.cdb, every locale, the ProjectIgnis lists), runs
``deckcheck validate -o json`` on ``../shared/data/decks`` for tcg, ocg, goat, speed and rush
on a fixed date, and writes one JSON file with the five reports. Run it before and after a
change and compare:

    python benchmarks/equivalence.py --out /tmp/before.json          # on the old commit
    python benchmarks/equivalence.py --out /tmp/after.json --compare /tmp/before.json

``--compare`` prints the first differences and exits 1 when the reports differ. The snapshot
is derived from the reference data, so it is never committed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import DEFAULT_DATA, build_full_home

FORMATS = ("tcg", "ocg", "goat", "speed", "rush")
DATE = "2026-08-01"


def snapshot(data: Path, home: Path) -> dict[str, Any]:
    decks = data / "decks"
    env = {**os.environ, "DECKCHECK_HOME": str(home), "GITHUB_ACTIONS": ""}
    out: dict[str, Any] = {}
    for fmt in FORMATS:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "deckcheck",
                "validate",
                "-f",
                fmt,
                "-d",
                DATE,
                "-o",
                "json",
                str(decks),
            ],
            env=env,
            capture_output=True,
            text=True,
            check=False,
            cwd=str(data),
        )
        if proc.returncode not in (0, 1):
            raise SystemExit(
                f"equivalence: validate -f {fmt} exited {proc.returncode}: "
                f"{proc.stderr.strip()[:500]}"
            )
        report = json.loads(proc.stdout)
        # The input path depends on where the data lies; keep it relative to decks/.
        for d in report.get("decks", []):
            d["input"] = (
                os.path.relpath(d["input"], decks) if os.path.isabs(d["input"]) else d["input"]
            )
        out[fmt] = {"exit": proc.returncode, "report": report}
    return out


def differences(a: Any, b: Any, where: str = "") -> list[str]:
    if type(a) is not type(b):
        return [f"{where}: {a!r} != {b!r}"]
    if isinstance(a, dict):
        diffs: list[str] = []
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                diffs.append(f"{where}/{k}: only in {'after' if k in a else 'before'}")
            else:
                diffs += differences(a[k], b[k], f"{where}/{k}")
        return diffs
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items != {len(b)}"]
        pairs = enumerate(zip(a, b, strict=True))
        return [d for i, (x, y) in pairs for d in differences(x, y, f"{where}[{i}]")]
    return [] if a == b else [f"{where}: {a!r} != {b!r}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--compare", type=Path, help="an earlier snapshot to compare with")
    ap.add_argument("--home", type=Path, help="reuse this data home instead of building one")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = args.home or Path(tmp) / "home"
        if not (home / "cards.sqlite3").exists():
            home.mkdir(parents=True, exist_ok=True)
            build_full_home(args.data, home)
        snap = snapshot(args.data, home)
    args.out.write_text(json.dumps(snap, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    decks = sum(len(v["report"]["decks"]) for v in snap.values())
    print(f"equivalence: {decks} deck reports over {len(FORMATS)} formats -> {args.out}")
    if args.compare:
        diffs = differences(json.loads(args.compare.read_text()), snap)
        if diffs:
            print(f"equivalence: {len(diffs)} difference(s) from {args.compare}:")
            for d in diffs[:40]:
                print("  " + d)
            return 1
        print(f"equivalence: identical to {args.compare}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
