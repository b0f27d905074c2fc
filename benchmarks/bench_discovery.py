"""Folder-walk discovery (issue 16): deckcheck's walker vs git's own on the same tree.

A synthetic submissions repository (``--decks`` decks over 100 folders, as many non-deck
files, a ``.gitignore`` ignoring a folder and a pattern, a ``.git`` folder) is walked by
``deckcheck.inputs.Discovery.walk`` and listed by ``git ls-files --others --exclude-standard``
(git's .gitignore walker, the peer linters copy), interleaved, median of ``--repeat``.
Both must find the same deck files.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deckcheck.inputs import Discovery


def build(root: Path, decks: int) -> None:
    for i in range(decks):
        d = root / f"round{i % 100:03d}"
        d.mkdir(exist_ok=True)
        (d / f"p{i:06d}.ydk").write_text("#main\n1\n")
        (d / f"notes{i:06d}.txt").write_text("x\n")
    (root / "old").mkdir()
    for i in range(decks // 10):
        (root / "old" / f"o{i}.ydk").write_text("#main\n")
        (root / f"round{i % 100:03d}" / f"draft{i}.bak.ydk").write_text("#main\n")
    (root / ".gitignore").write_text("old/\n*.bak.ydk\n")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decks", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "subs"
        root.mkdir()
        build(root, args.decks)
        ours: list[float] = []
        git: list[float] = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            found = sorted(os.path.relpath(p, root) for p in Discovery(base=root).walk(root))
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            out = subprocess.run(
                ["git", "ls-files", "--others", "--exclude-standard"],
                cwd=root,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            git.append(time.perf_counter() - t)
            listed = sorted(x for x in out.splitlines() if x.endswith((".ydk", ".ydke")))
            assert found == listed, (len(found), len(listed))
        a, b = statistics.median(ours), statistics.median(git)
        print(
            f"tree: {args.decks} decks, {args.decks} other files, "
            f"{2 * (args.decks // 10)} ignored decks; {len(found)} decks found by both"
        )
        print(f"deckcheck Discovery.walk: {a * 1000:.0f} ms (median of {args.repeat})")
        print(f"git ls-files --others --exclude-standard: {b * 1000:.0f} ms")
        print(f"ratio deckcheck / git: {a / b:.2f}")


if __name__ == "__main__":
    main()
