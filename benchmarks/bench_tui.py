"""Measures the deck editor (``deckcheck deck edit``): keypress -> findings pane updated, and
search-as-you-type -> results shown, against ``validate`` of the same deck in the same run.

    python benchmarks/bench_tui.py [--data ../shared/data] [--edits 200] [--queries 200]

Builds a temporary data home (the real card database and the ProjectIgnis lists), copies a
real 60-card Main Deck (windbot's AI_Albaz.ydk unless ``--deck``) and opens it in the app,
headless (Textual's pilot, 120x36), in TCG on 2025-06-01. Then:

* **edit**: ``--edits`` presses of ``m`` on deck cards (to the Side Deck and back: the deck
  stays the same size), each after the app settled; each is timed from the key event sent
  (as the terminal driver sends it) until the first frame drawn after the findings pane was
  filled for the new deck (the compositor's update of the screen, findings included).
  Goal: p95 <= 50 ms.
* **peer**: in the same process, ``engine.check_item`` of the same file with a warm engine
  (``deckcheck validate``'s read and check of one deck), median of 200; and
  ``deckcheck validate`` of the file in a fresh process, median of 5.
* **search**: ``--queries`` of benchmarks/bench_lookup.py's queries (same seed) pasted into
  the search box, each after a pause (as a player pastes or types a first letter: the box
  searches at once; only a burst of changes waits ``EditorScreen.DEBOUNCE``); each timed
  from the change until the results table was filled. Goal: p95 <= 80 ms.
* **burst**: the same queries typed in one burst (a change every 10 ms, as key repeat or a
  paste in pieces delivers them), timed from the last change until the results were shown:
  the debounce included.

Writes benchmarks/results/tui.json.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

DATE = dt.date(2025, 6, 1)


def _stats(ms: list[float]) -> dict[str, float]:
    s = sorted(ms)
    return {
        "n": len(s),
        "median_ms": round(statistics.median(s), 2),
        "p95_ms": round(s[min(len(s) - 1, int(0.95 * len(s)))], 2),
        "max_ms": round(s[-1], 2),
    }


async def _drive(app: Any, edits: int, queries: list[str]) -> tuple[list[float], list[float]]:
    from textual import events
    from textual.widgets import Input, OptionList

    edit_ms: list[float] = []
    search_ms: list[float] = []
    # Every frame the app draws (headless, Textual still composes it: only the write to a
    # terminal is left out): when, and how many findings panes had been filled by then.
    frames: list[tuple[float, int]] = []
    display = app._display

    def drawn(screen: Any, update: Any) -> None:
        display(screen, update)
        if update is not None:
            frames.append((time.perf_counter(), app.editor_screen.checks))

    app._display = drawn
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.editor_screen
        deck = screen.query_one("#deck", OptionList)
        rows = [o.id for o in deck._options if o.id and o.id.startswith("main:")]
        i = 0
        while len(edit_ms) < edits:
            row = rows[(i // 2) % len(rows)]
            if i % 2 == 0:
                deck.focus()
                deck.highlighted = deck.get_option_index(row)
            await pilot.pause(0.15)  # settled: the card pane's timer (80 ms) has run
            before = screen.checks
            frames.clear()
            t0 = time.perf_counter()
            # the key as the terminal driver delivers it (not the pilot's press, which
            # also sleeps until the app is idle: >= 40 ms of its own per key)
            app._driver.send_message(events.Key("m", "m"))
            while not any(n > before for _t, n in frames):
                await asyncio.sleep(0)
            t1 = next(t for t, n in frames if n > before)
            edit_ms.append((t1 - t0) * 1000)
            i += 1
        box = screen.query_one("#search", Input)
        await pilot.press("slash")
        for q in queries:
            box.value = ""
            await pilot.pause(0.1)  # the clearing's own search done
            before = screen.searches
            t0 = time.perf_counter()
            box.insert_text_at_cursor(q)
            while screen.searches == before:
                await asyncio.sleep(0.001)
            search_ms.append((time.perf_counter() - t0) * 1000)
        burst_ms: list[float] = []
        for q in queries[:50]:
            box.value = ""
            await pilot.pause(0.1)
            before = screen.searches
            for j, ch in enumerate(q):
                if j:
                    await asyncio.sleep(0.01)
                box.insert_text_at_cursor(ch)
            t0 = time.perf_counter()
            while screen.searches == before or screen.search_pending:
                await asyncio.sleep(0.001)
            burst_ms.append((time.perf_counter() - t0) * 1000)
        await pilot.press("escape")
    return edit_ms, search_ms, burst_ms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--deck", type=Path, default=None)
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    from _common import build_full_home, write_result
    from bench_lookup import _queries

    src = args.deck or args.data / "decks" / "ProjectIgnis__windbot" / "AI_Albaz.ydk"
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        build_full_home(args.data, home)
        os.environ["DECKCHECK_HOME"] = str(home)
        path = Path(tmp) / "deck.ydk"
        shutil.copy(src, path)

        from deckcheck.tui.app import DeckEditor
        from deckcheck.tui.start import open_builder

        builder = open_builder(str(path), "tcg", DATE)
        engine = builder.engine
        counts = builder.verdict.report.counts
        queries = [q for _kind, q in _queries(engine.cards, args.queries, args.seed)]
        app = DeckEditor(builder)
        t0 = time.perf_counter()
        edit_ms, search_ms, burst_ms = asyncio.run(_drive(app, args.edits, queries))
        wall = time.perf_counter() - t0

        # the peer, same process, same engine kind (a fresh one, warmed), same file
        from deckcheck.engine import Engine

        peer = Engine.open()
        target = peer.target("tcg", DATE)
        for _ in range(5):
            peer.check_item(str(path), target)
        peer_ms = []
        for _ in range(200):
            t1 = time.perf_counter()
            peer.check_item(str(path), target)
            peer_ms.append((time.perf_counter() - t1) * 1000)
        env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
        cli = [sys.executable, "-m", "deckcheck", "validate", "-f", "tcg", "-d", str(DATE)]
        cli_ms = []
        for _ in range(6):
            t1 = time.perf_counter()
            subprocess.run([*cli, str(path)], env=env, capture_output=True, check=False)
            cli_ms.append((time.perf_counter() - t1) * 1000)
        cli_ms = cli_ms[1:]

    from deckcheck.tui.app import EditorScreen

    debounce = round(EditorScreen.DEBOUNCE * 1000)
    edit, search, check = _stats(edit_ms), _stats(search_ms), _stats(peer_ms)
    burst = _stats(burst_ms)
    result = {
        "deck": str(src),
        "counts": counts,
        "date": DATE.isoformat(),
        "edit_keypress_to_findings": edit,
        "search_to_results": search,
        "burst_last_change_to_results": burst,
        "debounce_ms": debounce,
        "peer_validate_in_process": check,
        "peer_validate_cli_median_ms": round(statistics.median(cli_ms), 1),
        "edit_p95_over_validate_median": round(edit["p95_ms"] / check["median_ms"], 1),
        "goals": {"edit_p95_ms": 50, "search_p95_ms": 80},
        "wall_s": round(wall, 1),
    }
    out = write_result("tui", result)
    print(f"deck {src.name} {counts}, TCG on {DATE}")
    print(
        f"keypress -> findings pane: median {edit['median_ms']} ms, p95 {edit['p95_ms']} ms "
        f"over {edit['n']} edits (goal p95 <= 50 ms)"
    )
    print(
        f"search -> results shown:   median {search['median_ms']} ms, p95 "
        f"{search['p95_ms']} ms over {search['n']} queries (goal p95 <= 80 ms)"
    )
    print(
        f"burst, last change -> results: median {burst['median_ms']} ms, p95 "
        f"{burst['p95_ms']} ms over {burst['n']} queries, {debounce} ms debounce included"
    )
    print(
        f"peer validate of the same deck: in-process median {check['median_ms']} ms "
        f"(p95 {check['p95_ms']}); `deckcheck validate` process median "
        f"{result['peer_validate_cli_median_ms']} ms"
    )
    print(f"edit p95 / validate median: {result['edit_p95_over_validate_median']}x  -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
