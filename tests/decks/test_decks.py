"""Deck readers and writers on hand-made fixtures: every quirk of real .ydk files, ydke://
links, text decklists in several languages and site exports, input limits, atomic writes."""

from __future__ import annotations

import base64
import os
import struct
from pathlib import Path

import pytest

from deckcheck import decks
from deckcheck.decks import text as textmod
from deckcheck.decks import write, ydk, ydke
from deckcheck.decks.source import Limits
from deckcheck.errors import InputError
from deckcheck.model import Deck, DeckEntry

FIX = Path(__file__).parent.parent / "fixtures" / "decks"


def ids(deck: Deck, section: str) -> list[int | None]:
    return [e.card_id for e in deck.section(section) for _ in range(e.count)]  # type: ignore[arg-type]


# ------------------------------------------------------------------ .ydk


def test_ydk_bom_crlf_blank_lines_and_creator_comment() -> None:
    d = decks.read_path(FIX / "bom_crlf.ydk")
    assert d.kind == "ydk"
    assert ids(d, "main") == [89631139, 89631139]
    assert ids(d, "extra") == [23995346]
    assert ids(d, "side") == [79853073]
    assert d.comments == ["#created by Tester"]
    assert [e.line for e in d.entries()] == [3, 4, 7, 9]
    assert d.findings == []


def test_ydk_cr_only_line_endings_count_lines() -> None:
    d = decks.read_path(FIX / "cr_only.ydk")
    assert [(e.section, e.card_id, e.line) for e in d.entries()] == [
        ("main", 89631139, 3),
        ("extra", 23995346, 5),
        ("side", 79853073, 7),
    ]


def test_ydk_cards_before_any_header_are_main() -> None:
    d = decks.read_path(FIX / "no_header.ydk")
    assert ids(d, "main") == [89631139, 89631139, 17985575]
    assert ids(d, "extra") == [23995346]


def test_ydk_messy_lines() -> None:
    d = decks.read_path(FIX / "messy.ydk")
    # Leading zeros, trailing text, spaces; markers in any case with spaces; glued comment.
    assert ids(d, "main") == [89631139, 89631139, 43973174]
    assert ids(d, "side") == [79853073]
    assert ids(d, "extra") == [23995346]
    assert d.main[0].raw == "089631139"
    assert d.main[1].raw == "89631139 -- Blue-Eyes White Dragon"
    assert d.comments == ["#created by Someone", "# a note before the deck"]
    got = [(f.code, f.rule, f.severity, f.section, f.line) for f in d.findings]
    assert got == [
        ("DC101", "unreadable-line", "error", "main", 7),
        ("DC101", "unreadable-line", "error", "main", 8),
        ("DC101", "unreadable-line", "error", "main", 9),
    ]
    assert '"abc"' in d.findings[0].message
    assert '"12x"' in d.findings[1].message
    assert "too large" in d.findings[2].message


def test_unreadable_line_quoted_on_one_line() -> None:
    d = ydk.parse("#main\nab\u2028c\x85d\x1be\n")
    (f,) = d.findings
    assert f.message == 'line 2 cannot be read (not a passcode): "ab\\u2028c\\x85d\\x1be"'


def test_ydk_uint32_bounds() -> None:
    d = ydk.parse("#main\n4294967295\n4294967296\n")
    assert ids(d, "main") == [4294967295]
    assert [f.line for f in d.findings] == [3]


def test_ydk_never_truncates() -> None:
    body = "#main\n" + "89631139\n" * 100 + "#extra\n" + "23995346\n" * 30 + "!side\n" + "1\n" * 40
    d = ydk.parse(body)
    assert d.counts() == {"main": 100, "extra": 30, "side": 40}


def test_ydk_no_final_newline() -> None:
    d = decks.read_path(FIX / "lf_no_final_newline.ydk")
    assert ids(d, "side") == [79853073]


# ------------------------------------------------------------------ ydke://


def _ydke(*parts: list[int]) -> str:
    enc = [base64.b64encode(struct.pack(f"<{len(p)}I", *p)).decode() for p in parts]
    return "ydke://" + "!".join(enc) + "!"


def test_ydke_parse_and_encode_round_trip() -> None:
    url = _ydke([89631139, 89631139, 1], [23995346], [4294967295])
    d = ydke.parse(url)
    assert d.kind == "ydke"
    assert ids(d, "main") == [89631139, 89631139, 1]
    assert ids(d, "extra") == [23995346]
    assert ids(d, "side") == [4294967295]
    assert all(e.line is None for e in d.entries())
    assert ydke.encode(d) == url


def test_ydke_empty_sections_and_missing_padding() -> None:
    assert ydke.parse("ydke://!!!").counts() == {"main": 0, "extra": 0, "side": 0}
    url = _ydke([89631139], [], [])
    d = ydke.parse(url.replace("=", ""))
    assert ids(d, "main") == [89631139]


@pytest.mark.parametrize(
    ("url", "needle"),
    [
        ("ydk://AAAA!!!", "must start with ydke://"),
        ("ydke://o6lXBQ==!", "needs main!extra!side"),
        ("ydke://o6lXBQ==", "needs main!extra!side"),
        ("ydke://o6l$XBQ==!!!", "main section is not valid base64"),
        ("ydke://!AAAAAAA=!!", "extra section decodes to 5 bytes, not a whole number"),
        ("ydke://!!AAA=!", "side section decodes to 2 bytes"),
        ("ydke://!!!AAAAAA==", "data after the side section"),
        ("ydke://AAAAA!!!", "main section is not valid base64"),
    ],
)
def test_ydke_malformed_links_are_one_input_error(url: str, needle: str) -> None:
    with pytest.raises(InputError) as exc:
        ydke.parse(url)
    assert needle in str(exc.value)
    assert "\n" not in str(exc.value)


def test_file_holding_a_ydke_url_is_read_as_ydke() -> None:
    d = decks.read_path(FIX / "url.txt")
    assert d.kind == "ydke"
    assert ids(d, "main") == [89631139] * 3
    assert ids(d, "side") == [79853073]


# ------------------------------------------------------------------ text


@pytest.mark.parametrize(
    ("line", "count", "name"),
    [
        ("3 Ash Blossom & Joyous Spring", 3, "Ash Blossom & Joyous Spring"),
        ("Ash Blossom & Joyous Spring x3", 3, "Ash Blossom & Joyous Spring"),
        ("3x Ash Blossom & Joyous Spring", 3, "Ash Blossom & Joyous Spring"),
        ("x3 Ash Blossom & Joyous Spring", 3, "Ash Blossom & Joyous Spring"),
        ("3 x Ash Blossom & Joyous Spring", 3, "Ash Blossom & Joyous Spring"),
        ("Pot of Greed x 2", 2, "Pot of Greed"),
        ("Pot of Greed (2)", 2, "Pot of Greed"),
        ("3 Xyz Encore", 3, "Xyz Encore"),
        ("灰流丽×3", 3, "灰流丽"),
        ("3张灰流丽", 3, "灰流丽"),
        ("灰流うらら 3枚", 3, "灰流うらら"),
        ("３ 灰流丽", 3, "灰流丽"),
        ("- 2 Effect Veiler", 2, "Effect Veiler"),
        ("Pot of Greed", 1, "Pot of Greed"),
        ("1st Movement Solo", 1, "1st Movement Solo"),
        ("30,000-Year White Turtle", 1, "30,000-Year White Turtle"),
        ("Number 39: Utopia", 1, "Number 39: Utopia"),
    ],
)
def test_text_count_forms(line: str, count: int, name: str) -> None:
    d = textmod.parse(line)
    assert d.findings == []
    (e,) = d.entries()
    assert (e.count, e.query, e.card_id, e.line, e.raw) == (count, name, None, 1, line)


@pytest.mark.parametrize(
    ("line", "section"),
    [
        ("Main Deck:", "main"),
        ("Main Deck (40):", "main"),
        ("Extra Deck (15)", "extra"),
        ("extra deck: 15", "extra"),
        ("Side Deck:", "side"),
        ("Sideboard", "side"),
        ("#extra", "extra"),
        ("!side", "side"),
        ("主卡组", "main"),
        ("主卡組：", "main"),
        ("额外卡组", "extra"),
        ("額外卡組（15）", "extra"),
        ("副卡组", "side"),
        ("副卡組", "side"),
        ("メインデッキ", "main"),
        ("エクストラデッキ", "extra"),
        ("サイドデッキ", "side"),
        ("메인 덱", "main"),
        ("엑스트라 덱", "extra"),
        ("사이드 덱", "side"),
    ],
)
def test_text_section_headers(line: str, section: str) -> None:
    d = textmod.parse(
        f"Side Deck\n{line}\nPot of Greed\n" if section == "main" else f"{line}\nPot of Greed\n"
    )
    assert [e.section for e in d.entries()] == [section]


def test_text_long_line_and_rush_card_named_fusion() -> None:
    d = textmod.parse("Fusion\n" + "a" * 301 + "\n")
    assert [(e.query, e.count) for e in d.entries()] == [("Fusion", 1)]
    assert [(f.code, f.line) for f in d.findings] == [("DC101", 2)]
    assert "over 300 characters" in d.findings[0].message


def test_text_sub_headers_keep_the_section() -> None:
    d = textmod.parse(
        "Monsters (12)\n1 A\nSpells\n1 B\nTraps:\n1 C\nExtra\n1 D\nSide Deck\nMonster (1)\n1 E\n"
    )
    assert [(e.section, e.query) for e in d.entries()] == [
        ("main", "A"),
        ("main", "B"),
        ("main", "C"),
        ("extra", "D"),
        ("side", "E"),
    ]


def test_text_passcodes_are_ids_and_pinned_names() -> None:
    d = decks.read_path(FIX / "counts.txt")
    pot = [(e.card_id, e.count, e.query) for e in d.main if e.card_id is not None]
    assert pot == [(55144522, 1, None), (55144522, 2, None)]
    d = textmod.parse("Main Deck (2):\r\n2x 12345678 (card not yet registered in database)\r\n")
    assert [(e.card_id, e.count, e.query) for e in d.entries()] == [(12345678, 2, None)]
    d = textmod.parse("[main]\n89631139 -- Blue-Eyes\n[extra]\n[side]\n")
    assert [(e.card_id, e.count, e.query) for e in d.entries()] == [(89631139, 1, None)]
    d = textmod.parse("1 Dark Magician (46986415)\n")
    (e,) = d.entries()
    assert (e.card_id, e.query, e.count) == (46986415, "Dark Magician", 1)


def test_text_comments_separators_skipped_and_bad_lines_reported() -> None:
    d = textmod.parse(
        "# my deck\n// note\n-----\n3\nx3\n3x\n0 Pot of Greed (55144522)\nPot of Greed\n"
    )
    assert [e.query for e in d.entries()] == ["Pot of Greed"]
    assert d.comments == ["# my deck"]
    assert [(f.code, f.line) for f in d.findings] == [
        ("DC101", 4),
        ("DC101", 5),
        ("DC101", 6),
        ("DC101", 7),
    ]


@pytest.mark.parametrize(
    "name", ["ygoprodeck.txt", "duelingnexus.txt", "duelingbook.txt", "zh-CN.txt", "ja.txt"]
)
def test_site_exports_and_languages_sections(name: str) -> None:
    d = decks.read_path(FIX / name)
    assert d.kind == "text"
    assert d.findings == []
    assert d.counts() == {"main": 6, "extra": 1, "side": 3}


# ------------------------------------------------------------------ sniffing, limits


def test_sniffing_by_content(tmp_path: Path) -> None:
    p = tmp_path / "deck"
    p.write_text("89631139\n89631139\n")
    assert decks.read_path(p).kind == "ydk"
    p.write_text("3 Pot of Greed\nEffect Veiler\n")
    assert decks.read_path(p).kind == "text"
    p.write_text("#main\n89631139\nabc\n")
    d = decks.read_path(p)
    assert d.kind == "ydk" and [f.code for f in d.findings] == ["DC101"]
    assert decks.read_string("  ydke://!!!\n").kind == "ydke"
    assert decks.read_string("89631139\n", source="list.txt").kind == "text"
    assert decks.read_string("3 Pot of Greed\n", source="list.ydk").kind == "text"
    assert decks.read_string("abc\n89631139\n", source="d.ydk").kind == "ydk"
    # Without a name to go by: "3 Name" lines are a decklist, passcode lines a .ydk.
    assert decks.read_string("3 Pot of Greed\n2 Effect Veiler\n", source="-").kind == "text"
    assert decks.read_string("89631139 -- Blue-Eyes\n89631139\n", source="-").kind == "ydk"


def test_limits_refuse_before_parsing(tmp_path: Path) -> None:
    big = tmp_path / "big.ydk"
    big.write_bytes(b"89631139\n" * 200)
    with pytest.raises(InputError, match="larger than the 1,000 bytes limit"):
        decks.read_path(big, limits=Limits(max_bytes=1000))
    with pytest.raises(InputError, match="200 lines, over the limit of 100"):
        decks.read_path(big, limits=Limits(max_lines=100))
    assert decks.read_path(big).counts()["main"] == 200
    with pytest.raises(InputError, match="over the limit of 10,000"):
        decks.read_string("1\n" * 10_001)


def test_huge_file_is_not_slurped(tmp_path: Path) -> None:
    huge = tmp_path / "huge.ydk"
    with huge.open("wb") as fp:
        fp.truncate(64 * 1024 * 1024)  # sparse: 64 MiB of NULs
    with pytest.raises(InputError, match="larger than the 1 MiB limit"):
        decks.read_path(huge)


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"#main\n8963\x001139\n", "NUL byte at offset 10"),
        (b"#main\n\xff\xfe\xfd\n", "not UTF-8"),
        ("3 Über\n".encode("cp1252"), "not UTF-8"),  # GBK/Shift-JIS: tests/reliability
    ],
)
def test_binary_and_non_utf8_refused(tmp_path: Path, data: bytes, needle: str) -> None:
    p = tmp_path / "x.ydk"
    p.write_bytes(data)
    with pytest.raises(InputError, match=needle) as exc:
        decks.read_path(p)
    assert exc.value.where == str(p)


def test_utf16_with_bom_is_text(tmp_path: Path) -> None:
    p = tmp_path / "x.ydk"
    p.write_bytes("#main\r\n89631139\r\n".encode("utf-16"))
    assert ids(decks.read_path(p), "main") == [89631139]


def test_missing_directory_unreadable(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        decks.read_path(tmp_path / "nope.ydk")
    with pytest.raises(InputError, match="is a directory"):
        decks.read_path(tmp_path)


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Mode 000 does not stop root (the test machine), so the OS refusal is simulated.
    p = tmp_path / "locked.ydk"
    p.write_text("1\n")

    def refuse(self: Path, *a: object, **k: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refuse)
    monkeypatch.setattr("os.open", refuse)  # the reader opens with os.open (FIFO-safe)
    with pytest.raises(InputError, match="permission denied") as exc:
        decks.read_path(p)
    assert exc.value.where == str(p)


# ------------------------------------------------------------------ writers


class FakeNames:
    """A stand-in for CardDB.name (the real database is used in test_decks_realdata)."""

    def name(self, card_id: int, lang: str = "en") -> str:
        return {89631139: "Blue-Eyes White Dragon", 23995346: "Blue-Eyes Ultimate Dragon"}.get(
            card_id, str(card_id)
        )


def _deck() -> Deck:
    return Deck(
        "x",
        main=[
            DeckEntry("main", 89631139, 1, 2),
            DeckEntry("main", 5, 2),
            DeckEntry("main", 89631139, 3),
        ],
        extra=[DeckEntry("extra", 23995346, 4)],
        side=[],
    )


def test_to_ydk_canonical_and_with_names() -> None:
    d = _deck()
    assert write.to_ydk(d) == (
        "#created by deckcheck\n#main\n89631139\n89631139\n5\n89631139\n#extra\n23995346\n!side\n"
    )
    named = write.to_ydk(d, FakeNames())
    assert "# Blue-Eyes White Dragon\n89631139\n89631139\n# 5\n5\n" in named
    back = ydk.parse(named)
    assert back.findings == []
    assert ids(back, "main") == ids(d, "main") and ids(back, "extra") == ids(d, "extra")


def test_to_ydk_keeps_creator_comment() -> None:
    d = decks.read_path(FIX / "bom_crlf.ydk")
    out = write.to_ydk(d)
    assert out.startswith("#created by Tester\n#main\n")


def test_to_text_keeps_order_and_reads_back() -> None:
    # issue 32: every copy of a card of a section in one line, where the card first appears
    d = _deck()
    out = write.to_text(d, FakeNames())
    assert out == (
        "Main Deck (4)\n3 Blue-Eyes White Dragon\n1 00000005\n\n"
        "Extra Deck (1)\n1 Blue-Eyes Ultimate Dragon\n"
    )
    back = textmod.parse(out)
    assert [(e.section, e.query, e.card_id, e.count) for e in back.entries()] == [
        ("main", "Blue-Eyes White Dragon", None, 3),
        ("main", None, 5, 1),
        ("extra", "Blue-Eyes Ultimate Dragon", None, 1),
    ]


def test_to_text_pins_names_that_would_misread() -> None:
    class Odd:
        def name(self, card_id: int, lang: str = "en") -> str:
            return {1: "7", 2: "Battle x 2", 3: "Main Deck", 4: "7 Colored Fish"}[card_id]

    d = Deck("x", main=[DeckEntry("main", i, None, 2) for i in (1, 2, 3, 4)])
    out = write.to_text(d, Odd())
    assert out.splitlines()[1:] == [
        "2 7 (00000001)",
        "2 Battle x 2 (00000002)",
        "2 Main Deck",  # a count in front: a card line, not a header
        "2 7 Colored Fish",
    ]
    back = textmod.parse(out)
    assert [(e.card_id, e.count) for e in back.entries() if e.card_id] == [(1, 2), (2, 2)]
    assert [e.query for e in back.entries()][2:] == ["Main Deck", "7 Colored Fish"]
    assert back.findings == []


def test_writers_refuse_unresolved_entries() -> None:
    d = textmod.parse("3 Nonexistent Card\n", source="l.txt")
    for fn in (write.to_ydk, write.to_ydke):
        with pytest.raises(InputError, match='"Nonexistent Card" is not resolved') as exc:
            fn(d)
        assert exc.value.where == "l.txt:1"


def test_write_atomic(tmp_path: Path) -> None:
    target = tmp_path / "deck.ydk"
    target.write_text("old\n")
    write.write_atomic(target, "new\n")
    assert target.read_text() == "new\n"
    assert sorted(os.listdir(tmp_path)) == ["deck.ydk"]
    with pytest.raises(InputError, match="does not exist"):
        write.write_atomic(tmp_path / "no" / "deck.ydk", "x")
    with pytest.raises(InputError, match="is a directory"):
        write.write_atomic(tmp_path, "x")
