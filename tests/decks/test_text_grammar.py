"""The public line grammar of ``deckcheck.decks.text`` that the reader and the text-list
editor share: each function on known lines, and the reader agreeing with it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deckcheck.decks import text


def test_find_count_gives_the_count_its_name_and_where_it_is_written() -> None:
    for line, count, name in (
        ("3 Ash Blossom", 3, "Ash Blossom"),
        ("3x Ash Blossom", 3, "Ash Blossom"),
        ("Ash Blossom x2", 2, "Ash Blossom"),
        ("7 Colored Fish x2", 2, "7 Colored Fish"),  # a count after the name wins
        ("灰流丽 3张", 3, "灰流丽"),
        ("x3 Effect Veiler", 3, "Effect Veiler"),
    ):
        got = text.find_count(line)
        assert got is not None, line
        assert got[:2] == (count, name), line
        a, b = got[2]
        assert line[a:b] == str(count), line
        assert text.split_count(line) == (count, name)
    assert text.find_count("Ash Blossom") is None and text.split_count("Ash Blossom") is None


def test_bullets_pins_and_sub_headers() -> None:
    assert text.strip_bullet("- 3 Ash") == "3 Ash" and text.strip_bullet("• Ash") == "Ash"
    assert text.strip_bullet("1. 3 Ash") == "3 Ash" and text.strip_bullet("3 Ash") == "3 Ash"
    assert text.split_pin("1 Dark Magician (46986409)") == ("1 Dark Magician", 46986409)
    assert text.split_pin("1 Dark Magician [#46986409]") == ("1 Dark Magician", 46986409)
    assert text.split_pin("1 Dark Magician") == ("1 Dark Magician", None)
    assert text.sub_header_kinds("Monsters") == {"monster"}
    assert text.sub_header_kinds("Spells & Traps") == {"spell", "trap"}
    assert text.sub_header_kinds("魔法") == {"spell"}
    assert text.sub_header_kinds("Xyz Monsters") == {"xyz", "monster"}
    for not_sub in ("Main Deck", "Extra Deck (15)", "3 Monsters", "", "Ash Blossom"):
        assert text.sub_header_kinds(not_sub) is None, not_sub


def test_format_line() -> None:
    assert text.format_line(2, "Ash Blossom & Joyous Spring") == "2 Ash Blossom & Joyous Spring"
    assert text.format_line(1, "Dark Magician", 46986409) == "1 Dark Magician (46986409)"
    assert text.format_line(1, "", 946) == "1 00000946"


_NAME = (
    st.text(
        alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Lo"), max_codepoint=0x9FFF),
        min_size=1,
        max_size=20,
    )
    .map(str.strip)
    .filter(bool)
)


@given(st.integers(1, 999), _NAME, st.one_of(st.none(), st.integers(10000, 4294967295)))
def test_the_reader_reads_what_format_line_writes(count: int, name: str, pin: int | None) -> None:
    deck = text.parse_lines([text.format_line(count, name, pin)], "")
    (entry,) = deck.entries()
    assert not deck.findings
    assert entry.count == count
    assert (entry.card_id, entry.query) == ((pin, name) if pin is not None else (None, name))


@given(st.text(alphabet="0123456789 xX×*()[]#-•・.:张枚장abcDE灰流（）：", max_size=14))
def test_the_reader_and_the_grammar_agree_on_counts(line: str) -> None:
    deck = text.parse_lines([line], "")
    s = line.strip()
    if deck.findings or not deck.entries():
        return
    (entry,) = deck.entries()
    body, pin = text.split_pin(text.strip_bullet(text.fold(s)))
    if pin is None or pin > 0xFFFFFFFF:
        body = text.strip_bullet(text.fold(s))
    got = text.find_count(body)
    assert entry.count == (got[0] if got else 1)
