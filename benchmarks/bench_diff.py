"""Measures ``banlist diff`` and ``banlist history`` with the whole list history installed.

    python benchmarks/bench_diff.py [--data ../shared/data] [--home DIR] [--repeat 5]

Builds a temporary data home (real card database, the Fluorohydride TCG/OCG lists and every
ProjectIgnis list), or reuses ``--home``. Then times, best of ``--repeat``:
``diff_lists`` alone, the ``history`` scan alone, and the two commands end to end as a
fresh ``python -m deckcheck`` process (start-up, list cache, card names included).
Prints a small table and writes benchmarks/results/diff.json. Goal: well under a second.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DECKS = HERE.parent / "tests" / "fixtures" / "listdiff" / "decks"


def build_home(data: Path, home: Path) -> dict[str, float]:
    from deckcheck.carddb.importer import import_files
    from deckcheck.formats.importer import import_lflists

    t0 = time.perf_counter()
    cdbs = [data / "cards" / "cards.cdb", *sorted((data / "locales").glob("*/cards.cdb"))]
    import_files(cdbs, db_path=home / "cards.sqlite3")
    t1 = time.perf_counter()
    # YGOPro lists first (2011–2026), then ProjectIgnis', which replace them on shared dates.
    fl = data / "banlists" / "fluorohydride-ygopro"
    for kind in ("TCG", "OCG"):
        import_lflists(sorted((fl / kind).glob("*.lflist.conf")), dest=home / "banlists")
    pi = data / "banlists" / "projectignis-lflists"
    confs = sorted(p for p in pi.glob("*/*.lflist.conf") if p.parent.name != "upstream-head")
    import_lflists(confs, dest=home / "banlists")
    t2 = time.perf_counter()
    return {"import_cards_s": round(t1 - t0, 2), "import_lists_s": round(t2 - t1, 2)}


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) * 1000


def cli(args: list[str], env: dict[str, str]) -> Callable[[], object]:
    def go() -> object:
        return subprocess.run(
            [sys.executable, "-m", "deckcheck", *args],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    return go


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--home", type=Path, default=None, help="reuse an installed data home")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        home = args.home or Path(tmp)
        # Set first: the list importer canonicalizes ids with the home's card database.
        os.environ["DECKCHECK_HOME"] = str(home)
        setup: dict[str, float] = {}
        if args.home is None:
            setup = build_home(args.data, home)
        env = dict(os.environ)

        from deckcheck.formats.catalog import ListStore
        from deckcheck.listdiff import card_history, diff_lists, timeline

        t0 = time.perf_counter()
        store = ListStore.default()
        families = list(store.families())
        all_lists = {f: list(store.lists(f)) for f in families}
        load_ms = (time.perf_counter() - t0) * 1000
        n_lists = sum(len(v) for v in all_lists.values())
        tcg = all_lists["tcg"]
        old, new = tcg[-2], tcg[-1]

        def diff_all_pairs() -> None:
            for lists in all_lists.values():
                for a, b in itertools.pairwise(lists):
                    diff_lists(a, b)

        def history_all() -> None:
            for lists in all_lists.values():
                timeline(card_history(lists, 23434538))

        rows = {
            "store_load_ms": load_ms,
            "diff_one_pair_ms": best(lambda: diff_lists(old, new), args.repeat),
            "diff_all_pairs_ms": best(diff_all_pairs, args.repeat),
            "history_scan_ms": best(history_all, args.repeat),
            "cli_diff_ms": best(cli(["banlist", "diff", old.name, new.name], env), args.repeat),
            "cli_diff_markdown_ms": best(
                cli(["banlist", "diff", old.name, new.name, "-o", "markdown"], env), args.repeat
            ),
            "cli_diff_deck_ms": best(
                cli(["banlist", "diff", old.name, new.name, "--deck", str(DECKS)], env),
                args.repeat,
            ),
            "cli_history_id_ms": best(cli(["banlist", "history", "23434538"], env), args.repeat),
            "cli_history_family_ms": best(
                cli(["banlist", "history", "23434538", "--family", "ocg"], env), args.repeat
            ),
            "cli_history_name_ms": best(
                cli(["banlist", "history", "Pot of Greed"], env), args.repeat
            ),
        }
    result = {
        "lists": n_lists,
        "families": len(families),
        "pair": [old.name, new.name],
        **setup,
        **{k: round(v, 2) for k, v in rows.items()},
    }
    print(f"{n_lists} lists in {len(families)} families; pair {old.name} → {new.name}")
    print(f"{'measure':<24} {'ms':>9}")
    for k, v in rows.items():
        print(f"{k:<24} {v:>9.2f}")
    out = HERE / "results" / "diff.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
