"""deckcheck.deckedit: opening-hand odds against exact enumeration, and line-level edits.

The edit tests run twice: on the built-in sample card set (what deckcheck uses with no
database installed, so they run on a machine without ../shared) and on the real database.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck import deckedit
from deckcheck.formats import get_format

FIXTURES = Path(__file__).parent.parent / "fixtures" / "deckedit"
ASH = 14558127
VEILER = 97268402
ACCESSCODE = 86066372


# --------------------------------------------------------------------------- odds


def enumerate_hands(
    deck: list[str], hand: int, wanted: set[str]
) -> tuple[Fraction, list[Fraction]]:
    """P(at least one of ``wanted``) and P(exactly k) by listing every opening hand."""
    total = 0
    hits = 0
    exact: dict[int, int] = {}
    for h in itertools.combinations(range(len(deck)), hand):
        total += 1
        k = sum(1 for i in h if deck[i] in wanted)
        exact[k] = exact.get(k, 0) + 1
        hits += k > 0
    top = max(exact)
    return Fraction(hits, total), [Fraction(exact.get(k, 0), total) for k in range(top + 1)]


def test_odds_match_enumeration_of_every_hand() -> None:
    # A 16-card deck: 3 A, 2 B, 1 C, 10 fillers.
    deck = ["A"] * 3 + ["B"] * 2 + ["C"] + [f"x{i}" for i in range(10)]
    copies = {1: 3, 2: 2, 3: 1}
    for hand in (5, 6):
        for cid, name in ((1, "A"), (2, "B"), (3, "C")):
            want, exact = enumerate_hands(deck, hand, {name})
            got = deckedit.group_odds(len(deck), copies, [cid], hand, name)
            assert got.p_any == pytest.approx(float(want), abs=1e-15)
            assert got.exactly == pytest.approx([float(p) for p in exact], abs=1e-15)
        # A group: at least one of A or C.
        want, _ = enumerate_hands(deck, hand, {"A", "C"})
        grp = deckedit.group_odds(len(deck), copies, [1, 3, 1], hand, "A|C")
        assert grp.copies == 4  # a card named twice counts once
        assert grp.p_any == pytest.approx(float(want), abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 60), st.data())
def test_p_at_least_one_is_the_complement_of_drawing_none(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    hand = data.draw(st.integers(1, 7))
    miss = Fraction(1)
    for i in range(min(hand, n)):
        miss *= Fraction(n - k - i, n - i) if n - k - i > 0 else 0
    assert deckedit.p_at_least_one(n, k, hand) == pytest.approx(float(1 - miss), abs=1e-12)
    assert sum(deckedit.p_exactly(n, k, hand)) == pytest.approx(1.0)


def test_known_figures() -> None:
    # Three copies in 40 cards: 1 - C(37,5)/C(40,5) = 1 - 435897/658008 going first,
    # 1 - C(37,6)/C(40,6) = 1 - 2324784/3838380 going second.
    assert deckedit.p_at_least_one(40, 3, 5) == pytest.approx(1 - 435897 / 658008, abs=1e-15)
    assert deckedit.p_at_least_one(40, 3, 6) == pytest.approx(1 - 2324784 / 3838380, abs=1e-15)
    assert round(deckedit.p_at_least_one(40, 3, 5) * 100, 2) == 33.76
    assert deckedit.p_at_least_one(40, 0, 5) == 0.0
    assert deckedit.p_at_least_one(0, 0, 5) == 0.0
    assert deckedit.p_at_least_one(4, 1, 5) == 1.0  # the hand is the whole deck


# --------------------------------------------------------------------------- edits


def _open() -> tuple[object, object]:
    from deckcheck.carddb import open_db
    from deckcheck.lookup import Index

    db = open_db()
    return db, Index.for_db(db)


@pytest.fixture(params=["sample", "real"])
def env(request: pytest.FixtureRequest) -> tuple[object, object]:
    """The card database and lookup index: the built-in sample, then the real ones."""
    if request.param == "real":
        request.getfixturevalue("real_home")
    db, index = _open()
    assert db.is_sample == (request.param == "sample")  # type: ignore[attr-defined]
    return db, index


@pytest.fixture
def real_env(real_home: Path) -> tuple[object, object]:
    return _open()


def load(tmp_path: Path, name: str, env: tuple[object, object]) -> deckedit.DeckFile:
    p = tmp_path / name
    p.write_bytes((FIXTURES / name).read_bytes())
    db, index = env
    return deckedit.load(p, db, index)


def test_named_ydk_gets_a_name_comment_and_loses_it(
    tmp_path: Path, env: tuple[object, object]
) -> None:
    db, index = env
    fmt = get_format("tcg")
    df = load(tmp_path, "named.ydk", env)
    original = df.text
    deckedit.add(df, VEILER, 2, None, fmt, db, index)
    deckedit.save(df)
    lines = df.path.read_text().splitlines()
    at = lines.index("# Effect Veiler")
    assert lines[at + 1 : at + 3] == [str(VEILER)] * 2 and lines[at + 3] == "#extra"
    deckedit.remove(df, VEILER, None, None, fmt, db, index)
    deckedit.save(df)
    assert df.path.read_text() == original


def test_missing_sections_are_created_in_order(tmp_path: Path, env: tuple[object, object]) -> None:
    db, index = env
    fmt = get_format("tcg")
    df = load(tmp_path, "no-extra.ydk", env)
    deckedit.add(df, ASH, 1, "side", fmt, db, index)
    deckedit.add(df, ACCESSCODE, 1, None, fmt, db, index)
    deckedit.save(df)
    text = df.path.read_text().splitlines()
    assert text[-4:] == ["#extra", str(ACCESSCODE), "!side", str(ASH)]
    assert text[:2] == ["#created by someone", "# a note that stays"]


def test_alternate_artwork_removed_by_name_not_by_other_passcode(
    tmp_path: Path, env: tuple[object, object]
) -> None:
    db, index = env
    fmt = get_format("tcg")
    alt = next(a for a in db.alternates(46986414) if a != 46986414)  # Dark Magician artwork
    p = tmp_path / "art.ydk"
    p.write_text(f"#main\n46986414\n{alt}\n#extra\n!side\n")
    df = deckedit.load(p, db, index)
    with pytest.raises(deckedit.EditError):
        deckedit.remove(df, 46986414, 2, None, fmt, db, index, exact=True)
    ch = deckedit.remove(df, 46986414, 2, None, fmt, db, index)
    assert ch.count == 2 and ch.now == 0
    assert [e.card_id for e in df.deck.main] == []


def test_copies_in_main_and_side_need_a_section_to_remove(
    tmp_path: Path, env: tuple[object, object]
) -> None:
    db, index = env
    fmt = get_format("tcg")
    p = tmp_path / "ms.ydk"
    p.write_text(f"#main\n{VEILER}\n#extra\n!side\n{ASH}\n")
    df = deckedit.load(p, db, index)
    # Only in the side deck: removed from there without asking.
    ch = deckedit.remove(df, ASH, 1, None, fmt, db, index)
    assert ch.section == "side"
    deckedit.add(df, VEILER, 1, "side", fmt, db, index)
    ch = deckedit.remove(df, VEILER, 1, None, fmt, db, index)
    assert ch.section == "main"  # where the card belongs wins
    deckedit.add(df, VEILER, 1, "main", fmt, db, index)
    with pytest.raises(deckedit.EditError, match="--from"):
        deckedit.move(df, VEILER, 1, "extra", None, fmt, db, index, force=True)


def test_format_line_picks_the_format(tmp_path: Path, env: tuple[object, object]) -> None:
    df = load(tmp_path, "no-extra.ydk", env)
    assert df.format_hint is None
    p = tmp_path / "f.ydk"
    p.write_text(deckedit.new_text("ydk", "ocg"))
    db, index = env
    assert deckedit.load(p, db, index).format_hint == "ocg"


def test_new_finding_keys_ignore_counts() -> None:
    from deckcheck.model import Finding
    from deckcheck.report import DeckReport

    def rep(*fs: Finding) -> DeckReport:
        return DeckReport("d", False, {}, fs, "tcg")

    four = Finding("DC401", "copies", "error", "4 copies", "main", 3, ASH, "Ash", 4, 3)
    five = Finding("DC401", "copies", "error", "5 copies", "main", 3, ASH, "Ash", 5, 3)
    size = Finding("DC201", "main-size", "error", "41", "main")
    added, fixed = deckedit.new_findings(rep(four, size), rep(five))
    assert added == [] and fixed == [size]
    added, fixed = deckedit.new_findings(rep(), rep(four))
    assert added == [four] and fixed == []


def test_add_then_remove_gives_back_every_real_deck_byte_for_byte(
    shared_data: Path, tmp_path: Path, real_env: tuple[object, object]
) -> None:
    db, index = real_env
    fmt = get_format("tcg")
    files = sorted((shared_data / "decks").glob("*/*.ydk"))
    assert len(files) > 200
    for src in files:  # CRLF, BOM, marker-less and blank-line files among them (~2 s)
        p = tmp_path / "d.ydk"
        raw = src.read_bytes()
        p.write_bytes(raw)
        df = deckedit.load(p, db, index)
        before = [(e.section, e.card_id) for e in df.deck.entries()]
        for section in ("main", "side"):
            deckedit.add(df, ASH, 2, section, fmt, db, index)  # type: ignore[arg-type]
        deckedit.add(df, ACCESSCODE, 1, None, fmt, db, index)
        after = [(e.section, e.card_id) for e in df.deck.entries()]
        assert sorted(after) == sorted(
            before + [("main", ASH)] * 2 + [("side", ASH)] * 2 + [("extra", ACCESSCODE)]
        ), src.name
        deckedit.remove(df, ACCESSCODE, 1, "extra", fmt, db, index, exact=True)
        for section in ("side", "main"):
            deckedit.remove(df, ASH, 2, section, fmt, db, index, exact=True)  # type: ignore[arg-type]
        deckedit.save(df)
        got = p.read_bytes()
        if b"#extra" in raw.lower() and b"!side" in raw:
            assert got == raw, src.name
        else:
            # Markers the file lacked were added; every original line is still there.
            assert [ln for ln in got.splitlines() if ln not in (b"#extra", b"!side")] == [
                ln for ln in raw.splitlines() if ln not in (b"#extra", b"!side")
            ], src.name


def test_text_sub_headers_get_cards_of_their_kind(
    tmp_path: Path, real_env: tuple[object, object]
) -> None:
    db, index = real_env
    fmt = get_format("tcg")
    df = load(tmp_path, "subheaders.txt", real_env)
    for query in ("Effect Veiler", "Called by the Grave", "Divine Arsenal AA-ZEUS - Sky Thunder"):
        deckedit.add(df, deckedit.resolve_card(query, db, index), 1, None, fmt, db, index)
    deckedit.save(df)
    assert df.path.read_text().splitlines() == [
        "Main Deck (6)",
        "Monsters",
        "2 Ash Blossom & Joyous Spring",
        "1 Effect Veiler",
        "Spells:",
        "1 Pot of Desires",
        "1 Called by the Grave",
        "Traps",
        "1 Infinite Impermanence",
        "",
        "Extra Deck (3)",
        "Xyz",
        "1 Number 39: Utopia",
        "1 Divine Arsenal AA-ZEUS - Sky Thunder",
        "Link",
        "1 Accesscode Talker",
    ]
