"""Measures issue 30's search goal: an ``o:`` (card text) and an ``arch:`` query against a name
query, in one run (ratios against the name query measured beside them).

    python benchmarks/bench_search.py [--data ../shared/data] [--runs 15] [--cli-runs 5]

The home: the real cards.cdb and locales plus the official data (yaml-yugi, YGOJSON,
EDOPro's strings.conf: the archetypes and printings are real). **The card text is made up**:
the staged data has none (cards.cdb ``desc`` empty, yaml-yugi ``text`` and YGOJSON ``effect``
removed), so every card gets an English text of 40-80 words and a Japanese one of 60-120
characters drawn from fixed vocabularies (seeded, so every run has the same texts; about as
long as real card text), stored as an import stores them and indexed by
``cardtext.rebuild_index`` (timed: what the text adds to an import).

Timed: ``cardinfo.query_cards`` — what ``card search QUERY`` runs after start-up (parse, the
card table, the terms, the names, the sort) — median of N in one process, and the whole
``python -m deckcheck card search QUERY`` (median of M processes). The peer is the name query
``name:dragon``; goal: an ``o:`` query <= 2x it (issue 30).

Prints a table and writes benchmarks/results/search.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _common import DEFAULT_DATA, REPO, _realhome, home_env, timed_run, write_result  # noqa: E402

PEER = "name:dragon"
QUERIES = (
    PEER,
    "blue-eyes t:monster",  # a name word and a filter
    "o:destroy",
    'o:"negate the activation"',
    'o:"negate the activation" t:trap',
    "o:破壊",
    'arch:"elemental hero"',
    "arch:hero t:fusion",
    "set:LOB",
)
GOAL = 2.0  # o: <= 2x the name query

_EN = (
    "you can target one card your opponent controls destroy it negate the activation of a "
    "spell trap monster effect special summon from your hand deck graveyard banish send "
    "draw discard during the end phase battle damage once per turn if this card is sent "
    "add to your hand face-up attack position defense position change it tribute summon "
    "this turn gain lp equal to its original atk shuffle into the main deck set"
).split()
_JA = (
    "このカードを破壊する相手フィールドの魔法罠モンスター効果の"
    "発動を無効にし手札デッキ墓地から特殊召喚できる除外"
)


def _fake_texts(conn: sqlite3.Connection) -> list[tuple[int, str, str, str]]:
    rng = random.Random(30)
    rows = []
    for (cid,) in conn.execute("SELECT id FROM cards ORDER BY id"):
        en = " ".join(rng.choice(_EN) for _ in range(rng.randint(40, 80)))
        ja = "".join(rng.choice(_JA) for _ in range(rng.randint(60, 120)))
        rows.append((int(cid), "en", "cdb", en.capitalize() + "."))
        rows.append((int(cid), "ja", "cdb", ja + "。"))
    return rows


def build_home(data: Path, home: Path) -> dict[str, float]:
    from deckcheck.carddb import cardtext
    from deckcheck.carddb.importer import import_files

    rh = _realhome()
    home.mkdir(parents=True, exist_ok=True)
    db_path = home / "cards.sqlite3"
    up = data / "upstream"
    official = [
        up / "DawnbrandBots__yaml-yugi" / "cards.json",
        up / "DawnbrandBots__yaml-yugi" / "rush.json",
        up / "DawnbrandBots__yaml-yugi" / "skill.json",
        up / "iconmaster5326__YGOJSON",
        up / "ProjectIgnis__Distribution" / "config" / "strings.conf",
    ]
    import_files([*rh.card_files(data), *[p for p in official if p.exists()]], db_path=db_path)
    conn = sqlite3.connect(db_path)
    try:
        rows = _fake_texts(conn)
        t0 = time.perf_counter()
        cardtext.store(conn, rows)
        t_store = time.perf_counter() - t0
        t0 = time.perf_counter()
        n = cardtext.rebuild_index(conn, lambda _t: None)
        t_index = time.perf_counter() - t0
        conn.commit()
    finally:
        conn.close()
    chars = sum(len(r[3]) for r in rows)
    return {"texts": len(rows), "chars": chars, "cards": n, "store_s": t_store, "index_s": t_index}


def in_process(home: Path, runs: int) -> dict[str, float]:
    from deckcheck.cardinfo import open_lookup, query_cards

    day = dt.date(2026, 8, 1)
    out: dict[str, float] = {}
    with home_env(home):
        db, index = open_lookup()
        for q in QUERIES:
            query_cards(q, db, index, None, 10, day)  # warm: the name index, the OS cache
            times = []
            for _ in range(runs):
                t0 = time.perf_counter()
                _shown, total, _notes = query_cards(q, db, index, None, 10, day)
                times.append(time.perf_counter() - t0)
            out[q] = statistics.median(times)
            out[q + " #"] = total
    return out


def cli(home: Path, runs: int) -> dict[str, float]:
    env = {**os.environ, "DECKCHECK_HOME": str(home), "PYTHONPATH": str(REPO)}
    out = {}
    for q in (PEER, 'o:"negate the activation"', "o:破壊", 'arch:"elemental hero"'):
        cmd = [sys.executable, "-m", "deckcheck", "card", "search", q]
        timed_run(cmd, env)  # warm
        out[q] = statistics.median(timed_run(cmd, env) for _ in range(runs))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--cli-runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        built = build_home(args.data, home)
        load = os.getloadavg()[0]
        inproc = in_process(home, args.runs)
        procs = cli(home, args.cli_runs) if args.cli_runs else {}
    peer = inproc[PEER]
    print(
        f"made-up text: {built['texts']} texts, {built['chars']:,} characters, "
        f"{built['cards']} cards indexed; store {built['store_s']:.2f} s, "
        f"index {built['index_s']:.2f} s (load {load:.2f})"
    )
    print(f"{'query':<36} {'cards':>6} {'ms':>8} {'x name':>7} {'cli ms':>8} {'x name':>7}")
    rows = {}
    for q in QUERIES:
        ratio = inproc[q] / peer
        c = procs.get(q)
        cr = c / procs[PEER] if c is not None and procs else None
        rows[q] = {"cards": int(inproc[q + " #"]), "ms": inproc[q] * 1000, "ratio": ratio}
        if c is not None:
            rows[q].update(cli_ms=c * 1000, cli_ratio=cr)
        print(
            f"{q:<36} {int(inproc[q + ' #']):>6} {inproc[q] * 1000:>8.1f} {ratio:>7.2f} "
            + (f"{c * 1000:>8.0f} {cr:>7.2f}" if c is not None and cr is not None else "")
        )
    worst = max(r["ratio"] for q, r in rows.items() if q.startswith("o:"))
    print(f"goal: o: <= {GOAL}x {PEER!r} in process: worst {worst:.2f}x")
    path = write_result(
        "search", {"built": built, "queries": rows, "peer": PEER, "goal": GOAL, "load": load}
    )
    print(f"wrote {path.relative_to(REPO)}")
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
