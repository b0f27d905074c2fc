"""The fast paths of issue 18 give what the plain ones give: the hand-made records, the card
table read in one query, the in-memory snapshot, the tally's composition, the worker plan,
``--jobs auto`` and the fork pool over many decks. (Speed itself is measured in benchmarks/,
never asserted here.)"""

from __future__ import annotations

import datetime as dt
import pickle
from pathlib import Path

import pytest

from deckcheck import runners
from deckcheck.batch import Request, reports
from deckcheck.carddb import open_db
from deckcheck.carddb.snapshot import CardSnapshot
from deckcheck.cli import main
from deckcheck.engine import Engine
from deckcheck.model import Card, Deck, DeckEntry, Finding, Format, Group, Scope, SizeRange
from deckcheck.report import DeckReport, Waivers
from deckcheck.rules._base import Context
from deckcheck.validate import Learnt, Target, _tally, composition, validate_deck

REPO = Path(__file__).parent.parent.parent


def test_records_are_frozen_equal_hashable_and_pickle() -> None:
    c = Card(1, "A", 1, "none", 0x4011, Scope.TCG)
    assert c.kind == "token" and c == Card(1, "A", 1, "none", 0x4011, Scope.TCG)
    assert c != Card(2, "A", 2, "none", 0x4011, Scope.TCG)
    assert len({c, pickle.loads(pickle.dumps(c))}) == 1
    with pytest.raises(AttributeError):
        c.name = "B"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del c.name  # type: ignore[misc]
    moved = c.replace(level=4, tcg_date=dt.date(2020, 1, 1))
    assert (moved.level, moved.tcg_date, moved.name, c.level) == (4, dt.date(2020, 1, 1), "A", 0)
    f = Finding("DC201", "main-size", "error", "too small", "main", 3)
    assert pickle.loads(pickle.dumps(f)) == f and "line=3" in repr(f)
    assert f.replace(waived=True).to_json()["waived"] is True and not f.waived
    assert str(SizeRange(40, 60)) == "40–60" and SizeRange(40, 60) == SizeRange(40, 60)
    assert Group("g", 1, frozenset({1})) == Group("g", 1, frozenset({1}))


def test_waivers_mark_findings_on_the_records() -> None:
    f = Finding("DC402", "forbidden", "error", "x")
    r = DeckReport("d.ydk", False, {"main": 40, "extra": 0, "side": 0}, (f,), "tcg")
    got = Waivers(ignore=["DC4"]).apply(r)
    assert got.legal and got.findings[0].waived and got.findings[0].code == "DC402"


def test_snapshot_pickles_and_answers_like_the_database(small_db: Path) -> None:
    db = open_db(small_db)
    snap = pickle.loads(pickle.dumps(CardSnapshot.of(db)))
    assert len(snap) == len(db) == 44
    for i in [*db.all_ids(), 3]:
        assert snap.get(i) == open_db(small_db).get(i)  # a fresh database, one query a card
    assert snap.get(500).canonical == 100 and snap.get(3) is None  # type: ignore[union-attr]


def test_tally_counts_the_composition_that_composition_reads(small_db: Path) -> None:
    db = open_db(small_db)
    ids = [100, 100, 101, 500, 502, 502, 503, 7, 501]
    deck = Deck(
        "d.ydk",
        main=[DeckEntry("main", i, n) for n, i in enumerate(ids[:-1], 1)],
        extra=[DeckEntry("extra", 501, 20), DeckEntry("extra", 503, 21)],
        side=[DeckEntry("side", 502, 30)],
    )
    ctx = Context(deck, Format("x", "X"), None, dt.date(2026, 6, 1), None)
    comp = _tally(ctx, db, None, Learnt())
    assert comp == composition(ctx) == {"monster": 4, "spell": 2, "trap": 0, "other": 1, "extra": 2}
    assert ctx.tallies[100].count == 3  # 100 twice and its artwork 500
    assert ctx.counts == {"main": 7, "extra": 1, "side": 1}  # skills left out
    report = validate_deck(Engine(db), deck, Target(Format("x", "X"), None, dt.date(2026, 6, 1)))
    assert report.composition == comp


def test_worker_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runners, "cores", lambda: 2)
    monkeypatch.setattr(runners, "others_running", lambda: 0)  # a quiet machine
    assert runners.plan_workers(64, None) == 2  # never more workers than usable cores
    assert runners.plan_workers(1, None) == 1
    assert runners.plan_workers("auto", 10) == 1  # a small batch stays in process
    assert runners.plan_workers("auto", runners.AUTO_MIN_DECKS) == 2
    assert runners.plan_workers("auto", None) == 2
    monkeypatch.setattr(runners, "others_running", lambda: 1)  # one core taken: in process
    assert runners.plan_workers("auto", None) == 1 and runners.plan_workers(2, None) == 2
    monkeypatch.setattr(runners, "cores", lambda: 4)
    assert runners.plan_workers("auto", None) == 3  # the free cores
    monkeypatch.setattr(runners, "cores", lambda: 1)
    monkeypatch.setattr(runners, "others_running", lambda: 0)
    assert runners.plan_workers("auto", None) == 1 and runners.plan_workers(8, None) == 1


def test_others_running_reads_the_load_file(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins
    import io

    real_open = builtins.open
    seen = iter(["0.5 0.4 0.3 3/200 99\n", "0.5 0.4 0.3 1/200 99\n", "0.5 0.4 0.3 4/200 99\n"])

    def fake(path, *a, **k):  # type: ignore[no-untyped-def]
        if path == "/proc/loadavg":
            return io.StringIO(next(seen))
        return real_open(path, *a, **k)

    monkeypatch.setattr(builtins, "open", fake)
    assert runners.others_running() == 0  # the fewest of three looks, this process left out
    monkeypatch.setattr(builtins, "open", lambda *a, **k: (_ for _ in ()).throw(OSError()))
    assert runners.others_running() == 0  # no such file: nothing known to run


def test_cores_reads_the_affinity_mask() -> None:
    import os

    assert 1 <= runners.cores() <= len(os.sched_getaffinity(0))


def test_jobs_option_takes_auto_and_refuses_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--jobs", "0", "x.ydk"]) == 2
    assert "--jobs" in capsys.readouterr().err
    assert main(["validate", "--jobs", "many", "x.ydk"]) == 2
    assert "not a count or 'auto'" in capsys.readouterr().err


def test_many_decks_in_a_pool_same_as_one_process(tmp_path: Path) -> None:
    """Over AUTO_MIN_DECKS decks with --jobs 2: chunks through the fork pool, in order."""
    from deckcheck.formats import ListStore, get_format

    decks = sorted((REPO / "examples" / "dm6").glob("*.ydk"))
    items = []
    for i in range(runners.AUTO_MIN_DECKS + 150):
        p = tmp_path / f"{i:05d}.ydk"
        p.write_bytes(decks[i % len(decks)].read_bytes())
        items.append(str(p))
    date = dt.date(2026, 6, 1)
    fmt = get_format("dm6")
    request = Request((), items, Target(fmt, ListStore.default().in_force("dm6", date), date))
    one = list(reports(request.replace(jobs=1)))
    two = list(reports(request.replace(items=iter(items), jobs=2)))  # looked ahead, then pooled
    auto = list(reports(request.replace(jobs="auto")))
    assert [r.input for r in two] == items
    assert two == one == auto
    assert {r.legal for r in one} == {True, False}
