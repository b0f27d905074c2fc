"""The engine's per-passcode tally (issue 18) gives what its line-by-line tally gives: the
same tallies (by canonical card and by printing: canonical, name, count, first line, card),
counts, composition, entries and flags, on every real deck and on decks with alternate
artworks, unknown cards, tokens and skills; and the reports of both are equal."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck import decks
from deckcheck.carddb import open_db
from deckcheck.engine import Engine
from deckcheck.errors import InputError
from deckcheck.model import Deck, DeckEntry, Format
from deckcheck.rules import NAMES, module
from deckcheck.rules._base import Context, Tally
from deckcheck.validate import Learnt, Target, _tally, _tally_lines, validate_deck

DATE = dt.date(2026, 6, 1)


def _one(t: Tally) -> tuple[object, ...]:
    return (t.canonical, t.name, t.count, t.section, t.line, t.card)


def _fields(ts: dict[int, Tally]) -> list[tuple[object, ...]]:
    return [(k, *_one(t)) for k, t in ts.items()]


def _same(deck: Deck, db: object, fmt: Format, names: object = None) -> bool:
    """The engine's counted tally of ``deck`` == its line-by-line tally. For a packed deck
    the counted tally reads the arrays (before anything reads the entries) and the
    line-by-line one the entries built from them. Returns whether ``deck`` was packed."""
    packed = deck.packed() is not None
    fast = Context(deck, fmt, None, DATE, None)
    comp_fast = _tally(fast, db, names, Learnt())  # type: ignore[arg-type]
    counted = fast.counted
    assert counted is not None and (counted.rows is not None) is packed
    lines = Context(deck, fmt, None, DATE, None)
    comp_lines = _tally_lines(lines, db, names)  # type: ignore[arg-type]
    assert deck.packed() is None  # the entries read: from now on they are the truth
    assert comp_fast == comp_lines
    assert fast.counts == lines.counts and fast.flags == lines.flags
    # one card at a time (what limits and pool ask for), before the whole deck's tallies
    for c, t in lines.tallies.items():
        assert _one(fast.tally(c)) == _one(t)
        held = (
            [
                p.canonical
                for p in lines.printings.values()
                if p.card is not None and p.card.canonical == c
            ]
            if t.card is not None
            else []
        )
        assert counted.held(c) == held
    for cid, t in lines.printings.items():
        assert _one(fast.printing(cid)) == _one(t)
    assert counted.by_canonical == {c: t.count for c, t in lines.tallies.items()}
    assert _fields(fast.tallies) == _fields(lines.tallies)
    assert _fields(fast.printings) == _fields(lines.printings)
    assert fast.entries == lines.entries
    nm, ne = counted.nm, counted.ne
    assert list(counted.in_main) == list(lines.present["main"])
    assert list(dict.fromkeys(counted.ids[nm : nm + ne])) == list(lines.present["extra"])
    return packed


def test_real_decks_tally_the_same(real_home: Path, shared_data: Path) -> None:
    db = open_db()
    fmt = Format("tcg", "TCG")
    n = packed = 0
    for f in sorted((shared_data / "decks").rglob("*.ydk")):
        try:
            deck = decks.read_path(f)
        except InputError:
            continue
        plain = decks.read_path(f)
        assert plain.main is not None and plain.packed() is None  # its entries built
        packed += _same(deck, db, fmt)
        assert deck == plain
        _same(plain, db, fmt)
        _same(decks.read_path(f), db, fmt, names=lambda cid: f"name {cid}")
        n += 1
    assert n > 200 and packed > 0.9 * n  # most real decks take the fast reader


def test_artworks_unknown_tokens_skills(small_db: Path) -> None:
    db = open_db(small_db)
    fmt = Format("x", "X")
    # 500 is an artwork of 100; 7 and 9 are unknown; 503 a skill; 100 after its artwork
    ids = [500, 100, 101, 7, 503, 500, 9, 7, 502]
    deck = Deck(
        "d.ydk",
        main=[DeckEntry("main", i, n) for n, i in enumerate(ids, 1)],
        extra=[
            DeckEntry("extra", 501, 20),
            DeckEntry("extra", 503, 21),
            DeckEntry("extra", 100, 22),
        ],
        side=[DeckEntry("side", 502, 30), DeckEntry("side", 7, 31)],
    )
    _same(deck, db, fmt)
    _same(deck, db, fmt, names=lambda cid: "same" if cid == 100 else f"n{cid}")
    report = validate_deck(Engine(db), deck, Target(fmt, None, DATE))
    counted = Deck(
        "d.ydk",
        main=[*deck.main, DeckEntry("main", 102, 40, count=2)],
        extra=deck.extra,
        side=deck.side,
    )  # a counted line: the line-by-line path
    assert [f.code for f in report.findings] == [
        f.code for f in validate_deck(Engine(db), counted, Target(fmt, None, DATE)).findings
    ]


def _findings(deck: Deck, fmt: Format, banlist: object, db: object, counted: bool) -> list:
    learnt = Learnt()
    ctx = Context(deck, fmt.at(DATE), banlist, DATE, None, learnt.memos)  # type: ignore[arg-type]
    if counted:
        _tally(ctx, db, None, learnt)  # type: ignore[arg-type]
    else:
        _tally_lines(ctx, db, None)  # type: ignore[arg-type]
    assert (ctx.counted is not None) is counted
    out = [f for name in NAMES for f in module(name).check(ctx)]  # every family, ungated
    return sorted(out, key=lambda f: (f.section or "", f.line or 0, f.code, f.card_id or 0))


def test_rules_find_the_same_on_the_counted_and_the_line_tally(
    real_home: Path, shared_data: Path
) -> None:
    """Every rule's fast path over the engine's counts (limits, pool, placement, input,
    copies) finds what it finds over the line-by-line tally, on every real deck, packed and
    not, in formats with lists of every kind (blacklist, whitelist, Traditional, points)."""
    from deckcheck.formats import get_format, list_for

    db = open_db()
    files = sorted((shared_data / "decks").rglob("*.ydk"))
    n = 0
    for fmt_id in ("tcg", "ocg", "goat", "traditional", "rush", "speed", "genesys", "edison"):
        try:
            fmt = get_format(fmt_id)
        except Exception:  # noqa: BLE001 - a format this checkout does not ship
            continue
        banlist = list_for(fmt.at(DATE), DATE, None)
        for f in files[:: 2 if fmt_id != "tcg" else 1]:
            try:
                deck, again = decks.read_path(f), decks.read_path(f)
            except InputError:
                continue
            fast = _findings(deck, fmt, banlist, db, True)
            assert fast == _findings(again, fmt, banlist, db, False), (fmt_id, f)
            n += bool(fast)
    assert n > 300


_POOL = [100, 500, 101, 102, 7, 9, 502, 501]  # 500 an artwork of 100; 7, 9 unknown


# small_db is only read: one database serves every example
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    ids=st.lists(st.sampled_from(_POOL), min_size=1, max_size=12),
    limits=st.dictionaries(st.sampled_from(_POOL), st.integers(0, 3), max_size=5),
    as_limited=st.booleans(),
)
def test_limits_on_artworks_find_the_same_on_both_tallies(
    small_db: Path,
    ids: list[int],
    limits: dict[int, int],
    as_limited: bool,
) -> None:
    """The list's limits for decks holding a card by its artwork, its original, both, or as
    an unknown passcode, against lists naming either printing (the limits rule's own path
    over the counted tally, where a card counts as another): as over the line tally."""
    from deckcheck.model import Banlist

    db = open_db(small_db)
    fmt = Format("x", "X", forbidden_as_limited=as_limited)
    bl = Banlist("L", "x", DATE, limits=limits)
    deck = Deck("d.ydk", main=[DeckEntry("main", i, n) for n, i in enumerate(ids, 1)])
    again = Deck("d.ydk", main=[DeckEntry("main", i, n) for n, i in enumerate(ids, 1)])
    fast, lines = _findings(deck, fmt, bl, db, True), _findings(again, fmt, bl, db, False)
    assert [(f.code, f.message, f.line, f.card_id) for f in fast] == [
        (f.code, f.message, f.line, f.card_id) for f in lines
    ]
