"""The engine's per-passcode tally (issue 18) gives what its line-by-line tally gives: the
same tallies (by canonical card and by printing: canonical, name, count, first line, card),
counts, composition, entries and flags, on every real deck and on decks with alternate
artworks, unknown cards, tokens and skills; and the reports of both are equal. The file stem
that names a deck's player is ``splitext(basename())``."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck import decks
from deckcheck.carddb import open_db
from deckcheck.errors import InputError
from deckcheck.inputs import file_stem
from deckcheck.model import Deck, DeckEntry, Format
from deckcheck.rules._base import Context, Tally
from deckcheck.validate import _tally, _tally_lines, check_deck
from tests.validate.test_perf_paths import small_db  # noqa: F401 - a fixture

DATE = dt.date(2026, 6, 1)


def _fields(ts: dict[int, Tally]) -> list[tuple[object, ...]]:
    return [(k, t.canonical, t.name, t.count, t.section, t.line, t.card) for k, t in ts.items()]


def _same(deck: Deck, db: object, fmt: Format, names: object = None) -> None:
    fast, lines = Context(deck, fmt, None, DATE, None), Context(deck, fmt, None, DATE, None)
    comp_fast = _tally(fast, db, names)  # type: ignore[arg-type]
    comp_lines = _tally_lines(lines, db, names)  # type: ignore[arg-type]
    assert comp_fast == comp_lines
    assert fast.counts == lines.counts and fast.flags == lines.flags
    assert _fields(fast.tallies) == _fields(lines.tallies)
    assert _fields(fast.printings) == _fields(lines.printings)
    assert fast.entries == lines.entries
    for key in ("main", "extra"):
        assert list(fast.present[key]) == list(lines.present[key])


def test_real_decks_tally_the_same(real_home: Path, shared_data: Path) -> None:
    db = open_db()
    fmt = Format("tcg", "TCG")
    n = 0
    for f in sorted((shared_data / "decks").rglob("*.ydk")):
        try:
            deck = decks.read_path(f)
        except InputError:
            continue
        _same(deck, db, fmt)
        _same(deck, db, fmt, names=lambda cid: f"name {cid}")
        n += 1
    assert n > 200


def test_artworks_unknown_tokens_skills(small_db: Path) -> None:  # noqa: F811
    db = open_db(small_db)
    fmt = Format("x", "X")
    # 500 is an artwork of 100; 7 and 9 are unknown; 503 a skill; 100 after its artwork
    ids = [500, 100, 101, 7, 503, 500, 9, 7, 502]
    deck = Deck("d.ydk", main=[DeckEntry("main", i, n) for n, i in enumerate(ids, 1)],
                extra=[DeckEntry("extra", 501, 20), DeckEntry("extra", 503, 21),
                       DeckEntry("extra", 100, 22)],
                side=[DeckEntry("side", 502, 30), DeckEntry("side", 7, 31)])  # fmt: skip
    _same(deck, db, fmt)
    _same(deck, db, fmt, names=lambda cid: "same" if cid == 100 else f"n{cid}")
    report = check_deck(deck, fmt, None, db, DATE, None, None, None)
    counted = Deck("d.ydk", main=[*deck.main, DeckEntry("main", 102, 40, count=2)],
                   extra=deck.extra, side=deck.side)  # a counted line: the line-by-line path
    assert [f.code for f in report.findings] == [
        f.code for f in check_deck(counted, fmt, None, db, DATE, None, None, None).findings
    ]


_NAMES = st.text(alphabet="ab./\\ é", max_size=12)


@settings(max_examples=500, deadline=None)
@given(_NAMES)
def test_file_stem_is_splitext_of_basename(path: str) -> None:
    assert file_stem(path) == os.path.splitext(os.path.basename(path))[0]


def test_file_stem_examples() -> None:
    for path in ["a.ydk", ".ydk", "..ydk", "x.", ".a.ydk", "a", "d/b.c.ydk", "d.x/y", "/", "",
                 "a/.hidden", "a/..", "a/b..ydk"]:  # fmt: skip
        assert file_stem(path) == os.path.splitext(os.path.basename(path))[0], path
