"""The ``.ydk`` reader's block fast path (issue 18) gives exactly what the line-by-line reader
gives: entries, line numbers, raw lines, comments and findings, on every real deck, every
fixture and on hostile input (BOM, CRLF, comments, junk, huge numbers, blank lines)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.decks import ydk
from deckcheck.decks.packed import PackedDeck
from deckcheck.decks.source import Limits, decode, split_lines
from deckcheck.errors import InputError
from deckcheck.model import Deck

REPO = Path(__file__).parent.parent.parent
BIG = Limits(max_bytes=2**40, max_lines=2**40)


def both(text: str) -> tuple[object, object]:
    lines = split_lines(text, "x.ydk", BIG)
    fast, general = ydk.parse_lines(lines, "x.ydk"), ydk.parse_lines_general(lines, "x.ydk")
    same_packed(fast, general, lines)
    return fast, general


def same_packed(fast: Deck, general: Deck, lines: list[str]) -> None:
    """A packed deck's arrays (what the engine's tally reads, before any entry is built) say
    what the general reader's entries say; then its entries (built now) equal them too."""
    packed = fast.packed()
    if packed is not None:
        assert isinstance(fast, PackedDeck)
        ids, nm, ne, rows = packed
        every = general.entries()
        assert ids == [e.card_id for e in every]
        assert (nm, ne, len(ids) - nm - ne) == tuple(
            map(len, (general.main, general.extra, general.side))
        )
        assert [r + 1 for r in rows] == [e.line for e in every]
        assert [lines[r] for r in rows] == [e.raw for e in every]
        assert all(e.count == 1 and e.query is None for e in every)
        assert fast.comments == general.comments and fast.findings == general.findings == []
    assert fast == general and repr(fast) == repr(general)
    assert fast.packed() is None  # compared: the entries are built, and are the truth


@pytest.mark.parametrize(
    "text",
    [
        "#main\n1\n2\n#extra\n3\n!side\n4\n",
        "#created by X\n#main\n1\n2\n#extra\n!side\n",
        "\ufeff#main\n1\n",
        "#main\r\n89631139\r\n89631139\r\n#extra\r\n!side\r\n",
        "#main\r1\r2\r",
        "1\n2\n3",  # no header at all
        "#main\n0\n00089631139\n",  # leading zeros: 11 digits, still a passcode
        "#main\n4294967295\n4294967296\n99999999999\n",  # UINT32_MAX and beyond
        "#main\n" + "9" * 5000 + "\n1\n",  # more digits than int() takes
        "#main\n" + "1\n" * 3000,  # a long file
        "#main\n1\n\n2\n   \n3\n",  # blank lines keep the numbering
        "#main\n1\n\n2\n\n",  # blank lines only (what the fast reader skips)
        "\n#created by x\n\n#note\n#main\n\n\n1\n#extra\n\n!side\n\n3\n\n",
        "#c\n\n\n#d\n",  # comments and blank lines, no card
        "\n\n1\n\n#late\n2\n",  # a comment after the first card is not kept
        "#main\n1\n2\n\n",
        "#main\n 1\n2 \n\t3\n",  # spaces around passcodes
        "#main\n89631139 -- Blue-Eyes\n1 2\n12x\nabc\n",  # text after, two passcodes, junk
        "#main\n１２３\n²\n٣\n",  # non-ASCII digits
        "#main\n1_000\n+2\n-3\n",  # what int() would take but a passcode line is not
        "#main\n#extra\n#side\n!side\n#MAIN\n# extra \n1\n",  # markers in any case and spacing
        "#note\n#main\n1\n#later comment\n2\n!side#created by x\n3\n",
        "!side\n1\n#main\n2\n",
        "#\n!\n#main\n1\n",
        "#main\n1\u2028\n2\x0c\n",  # other line breaks stay in the line
        "",
        "\n\n\n",
        "#main",
        "12345678",
    ],
)
def test_fast_path_equals_the_general_reader(text: str) -> None:
    fast, general = both(text)
    assert fast == general


def test_lines_holding_newlines_are_left_to_the_general_reader() -> None:
    lines = ["#main", "1\n2", "3"]
    assert ydk._parse_blocks(lines, "x", {}) is None
    assert ydk.parse_lines(lines, "x") == ydk.parse_lines_general(lines, "x")


def test_every_real_and_fixture_deck_reads_the_same(shared_data: Path) -> None:
    files = [
        *sorted((shared_data / "decks").rglob("*.ydk")),
        *sorted(REPO.glob("tests/fixtures/**/*.ydk")),
        *sorted(REPO.glob("examples/**/*.ydk")),
    ]
    assert len(files) > 200
    taken = 0
    for f in files:
        try:
            text = decode(f.read_bytes(), str(f), BIG)
        except InputError:
            continue
        lines = split_lines(text, str(f), BIG)
        general = ydk.parse_lines_general(lines, str(f))
        fast = ydk._parse_blocks(lines, str(f), {})
        taken += fast is not None
        assert ydk.parse_lines(lines, str(f)) == general, f
        if fast is not None:
            same_packed(fast, general, lines)
    assert taken > 0.9 * len(files)  # the fast path is what real files take


_LINE = st.one_of(
    st.integers(0, 2**33).map(str),
    st.sampled_from(["#main", "#extra", "!side", "#created by me", "", " ", "1 2", "x", "#"]),
    st.text(alphabet="0123456789#! \t\r-x", max_size=12),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINE, max_size=30), st.sampled_from(["\n", "\r\n", "\r"]))
def test_fast_path_equals_the_general_reader_on_generated_files(lines: list[str], eol: str) -> None:
    fast, general = both(eol.join(lines))
    assert fast == general


def _sniff_line_by_line(lines: list[str], source: str) -> str:
    """``decks.sniff`` as it was before its shortcuts (a suffix test per deck, a regex per
    line): what the shortcuts must agree with."""
    import os
    import re

    from deckcheck import decks

    marker, ydk_line = re.compile(decks._MARKER, re.IGNORECASE), re.compile(decks._YDK_LINE)
    suffix = os.path.splitext(source)[1].lower()
    if suffix == ".txt":
        return "text"
    ydk_like = other = 0
    for line in lines:
        if not line.strip():
            continue
        if marker.match(line):
            return "ydk"
        if ydk_line.fullmatch(line):
            if line.strip()[0] not in "#!":
                ydk_like += 1
        else:
            other += 1
    if suffix == ".ydk":
        return "text" if ydk_like == 0 and other > 0 else "ydk"
    return "ydk" if ydk_like > other else "text"


_NAME = st.sampled_from(
    [
        "d.ydk",
        "d.txt",
        "d.TXT",
        "a/.txt",
        "x.ydke",
        "-",
        "<stdin>",
        "d.ydk.txt",
        "d",
        ".ydk",
        "a.b/c",
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(_LINE, st.sampled_from(["3 Pot of Greed", "#MAIN", " !side "])), max_size=20
    ),
    _NAME,
)
def test_sniff_shortcuts_agree_with_reading_every_line(lines: list[str], name: str) -> None:
    from deckcheck.decks import sniff

    assert sniff(lines, name) == _sniff_line_by_line(lines, name)


def test_a_passcode_is_one_int_object_for_every_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two decks naming a card, read with one run's table, give the very same int object
    (dict lookups downstream are identity matches); values are what int() gives, past the
    table's cap too."""
    ints: dict[str, int] = {}
    text = "#main\n89631139\n0089631139\n14558127\n"
    a = ydk.parse_lines(split_lines(text, "a.ydk"), "a.ydk", ints).packed()
    b = ydk.parse_lines(split_lines("#main\n" + "89631139\n" * 3, "b.ydk"), "b.ydk", ints).packed()
    assert a is not None and b is not None
    assert a[0] == [89631139, 89631139, 14558127] and b[0] == [89631139] * 3
    assert a[0][0] is b[0][0] is b[0][2]
    # the table holds passcodes only: a warm table does not let a bigger number through
    for _ in range(2):  # the second time too, when every line was seen before
        over = ydk.parse_lines(split_lines("#main\n89631139\n4294967296\n", "c"), "c", ints)
        assert over.packed() is None and over.findings  # the general reader reports it
    assert "4294967296" not in ints
    monkeypatch.setattr(ydk, "INTS_MAX", 2)
    for n in range(10):
        got = ydk.parse_lines(split_lines(f"#main\n{n}\n{n + 100}\n", "d"), "d", ints).packed()
        assert got is not None and got[0] == [n, n + 100]
    assert len(ints) <= 2 + 2  # cleared once over the cap, then refilled
    # without a table (a library caller): the same decks, nothing kept between them
    plain = ydk.parse_lines(split_lines(text, "a.ydk"), "a.ydk").packed()
    assert plain is not None and plain[0] == a[0]
