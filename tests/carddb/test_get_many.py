"""``CardDB.get_many``: a deck's cards in one query, the very cards ``get`` gives (real data)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck import decks
from deckcheck.carddb import open_db
from deckcheck.carddb.db import CardDB
from deckcheck.engine import Engine
from deckcheck.formats import get_format
from deckcheck.validate import Target

pytestmark = pytest.mark.realdata


def _real_deck_ids(shared_data: Path) -> list[list[int | None]]:
    out = []
    for path in sorted((shared_data / "decks").rglob("*.ydk")):
        deck = decks.read_path(path)
        out.append([e.card_id for e in deck.entries()])
    assert len(out) > 100  # the real decks, not a stray file
    return out


def _card_queries(db: CardDB) -> list[str]:
    seen: list[str] = []
    db._conn.set_trace_callback(  # type: ignore[attr-defined]
        lambda sql: seen.append(sql) if "FROM cards c" in sql else None
    )
    return seen


def _check_every_deck(db_path: Path, shared_data: Path) -> int:
    many, one = open_db(db_path), open_db(db_path)
    n = 0
    for ids in _real_deck_ids(shared_data):
        got = many.get_many(ids)
        assert list(got) == list(dict.fromkeys(i for i in ids if i is not None))
        for cid in got:
            assert got[cid] == one.get(cid), cid  # every field, official release data too
            assert got[cid] is many.get(cid)  # the same object get() then gives
            assert many.list_key(cid) == one.list_key(cid)
            assert many.name_key(cid) == one.name_key(cid)
            n += got[cid] is not None
    return n


def test_get_many_of_cached_ids_answers_the_same(real_home_dir: Path, shared_data: Path) -> None:
    """The second ask of a deck's cards (all cached: no query, the fast path) gives what the
    first gave, the same objects, None ids skipped even once ``get(None)`` was asked."""
    db = open_db(real_home_dir / "cards.sqlite3")
    for ids in _real_deck_ids(shared_data)[:40]:
        first = db.get_many(ids)
        seen = _card_queries(db)
        again = db.get_many([*ids, None, 7])  # 7: an unknown passcode
        assert len(seen) <= 1  # at most the query for 7 (the others are cached)
        assert {k: v for k, v in again.items() if k != 7} == first
        assert all(again[k] is first[k] for k in first) and again[7] is None
        db._conn.set_trace_callback(None)  # type: ignore[attr-defined]
    db.get(None)  # type: ignore[arg-type]  # caches None -> None
    assert None not in db.get_many([None, *ids])
    assert list(db.get_many(dict.fromkeys(ids))) == list(dict.fromkeys(i for i in ids if i))


def test_get_many_equals_get_for_every_card_of_the_real_decks(
    real_home_dir: Path, shared_data: Path
) -> None:
    assert _check_every_deck(real_home_dir / "cards.sqlite3", shared_data) > 1000


def test_get_many_equals_get_with_official_release_data(
    official_import: tuple[Path, object], shared_data: Path
) -> None:
    home = official_import[0]
    db = open_db(home / "cards.sqlite3")
    assert db.has_releases  # dates and printings from yaml-yugi/YGOJSON decide the cards
    assert _check_every_deck(home / "cards.sqlite3", shared_data) > 1000


def test_get_many_reads_a_deck_in_one_query_and_caches_unknown_ids(real_home_dir: Path) -> None:
    db = open_db(real_home_dir / "cards.sqlite3")
    seen = _card_queries(db)
    ids = [14558127, 14558127, 23434538, 99999999999, None, 46986414, 12345]
    got = db.get_many(ids)
    assert len(seen) == 1
    assert got[99999999999] is None and got[12345] is None
    assert got[14558127] is not None and got[14558127].name == "Ash Blossom & Joyous Spring"
    assert db.get(99999999999) is None and db.get(14558127) is got[14558127]
    assert db.get_many(ids) == got and len(seen) == 1  # all cached now: no query
    # more ids than one query binds: split, same answers
    big = [*list(range(10000000, 10002000)), 14558127]
    fresh = open_db(real_home_dir / "cards.sqlite3")
    assert fresh.get_many(big) == {i: db.get(i) for i in big}


def test_ids_sqlite_cannot_bind_are_left_to_get(real_home_dir: Path) -> None:
    db = open_db(real_home_dir / "cards.sqlite3")
    with pytest.raises(OverflowError):  # what get() itself does with such an id
        db.get(1 << 70)
    with pytest.raises(OverflowError):
        db.get_many([14558127, 1 << 70])
    assert db.get_many([14558127])[14558127] is not None


def test_the_checker_reads_a_decks_cards_in_one_query(
    real_home_dir: Path, shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_HOME", str(real_home_dir))
    import datetime as dt

    fmt = get_format("tcg")
    target = Target(fmt, None, dt.date(2026, 6, 1))
    engine = Engine.open(str(real_home_dir / "cards.sqlite3"))
    seen = _card_queries(engine.cards)
    deck = min((shared_data / "decks").rglob("*.ydk"))
    report = engine.check_item(str(deck), target)
    assert report.input == str(deck)
    assert len(seen) == 1, seen  # not one query per card


def test_prefetch_fills_the_cache_get_then_reads(real_home_dir: Path) -> None:
    db, one = open_db(real_home_dir / "cards.sqlite3"), open_db(real_home_dir / "cards.sqlite3")
    seen = _card_queries(db)
    ids = [14558127, None, 23434538, 14558127, 12345]
    db.prefetch(ids)
    assert len(seen) == 1
    assert [db.get(i) for i in (14558127, 23434538, 12345)] == [
        one.get(14558127),
        one.get(23434538),
        None,
    ]
    db.prefetch(ids)  # everything cached: no query
    db.prefetch(iter([None, 46986414]))  # one card not cached yet: one more query
    assert len(seen) == 2 and db.get(46986414) == one.get(46986414)
    assert len(seen) == 2
