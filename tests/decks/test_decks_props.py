"""Property tests: any input to the three readers gives a Deck or an InputError, never
another exception; what the writers produce reads back to the same cards."""

from __future__ import annotations

import base64

from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck import decks
from deckcheck.decks import text as textmod
from deckcheck.decks import write, ydk, ydke
from deckcheck.decks.source import Limits
from deckcheck.errors import InputError
from deckcheck.model import Deck, DeckEntry

# Lines built from the pieces real decks and lists are made of, plus arbitrary text.
_piece = st.sampled_from(
    [
        "#main",
        "#extra",
        "!side",
        "#created by x",
        "89631139",
        "0089631139",
        "4294967296",
        " ",
        "\t",
        "x3",
        "3x",
        "3",
        "Ash Blossom",
        "灰流丽",
        "×",
        "(",
        ")",
        "[",
        "#",
        "!",
        "\ufeff",
        "主卡组",
        "(55144522)",
        "0 ",
        "３",
        "장",
        "Extra Deck (15):",
        "-- c",
        "12x",
        "\u2028",
        "\x85",
        ":",
        "ydke://",
    ]
)
_line = st.one_of(st.lists(_piece, max_size=6).map("".join), st.text(max_size=40))
_doc = st.lists(_line, max_size=30).flatmap(
    lambda ls: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda nl: nl.join(ls))
)

_SMALL = Limits(max_bytes=4096, max_lines=50)


def _check(deck: Deck) -> None:
    assert isinstance(deck, Deck)
    for e in deck.entries():
        assert e.count >= 1
        assert e.card_id is not None or e.query
        assert e.card_id is None or 0 <= e.card_id <= 0xFFFFFFFF
    for f in deck.findings:
        assert f.code == "DC101" and f.line is not None


@settings(max_examples=300, deadline=None)
@given(_doc)
def test_ydk_reader_total(doc: str) -> None:
    _check(ydk.parse(doc))


@settings(max_examples=300, deadline=None)
@given(_doc)
def test_text_reader_total(doc: str) -> None:
    _check(textmod.parse(doc))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60).map(lambda s: "ydke://" + s), st.text(max_size=60)))
def test_ydke_reader_total(url: str) -> None:
    try:
        _check(ydke.parse(url))
    except InputError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.sampled_from([None, "ydk", "text"]))
def test_read_bytes_total(data: bytes, kind: str | None) -> None:
    try:
        _check(decks.read_bytes(data, "in.ydk", _SMALL, kind=kind))
    except InputError as exc:
        assert exc.where == "in.ydk"


_ids = st.lists(st.integers(0, 0xFFFFFFFF), max_size=20)


@settings(max_examples=200, deadline=None)
@given(_ids, _ids, _ids)
def test_ydke_and_ydk_round_trip(main: list[int], extra: list[int], side: list[int]) -> None:
    deck = Deck(
        "x",
        main=[DeckEntry("main", i, None) for i in main],
        extra=[DeckEntry("extra", i, None) for i in extra],
        side=[DeckEntry("side", i, None) for i in side],
    )
    for back in (ydke.parse(write.to_ydke(deck)), ydk.parse(write.to_ydk(deck))):
        assert [e.card_id for e in back.main] == main
        assert [e.card_id for e in back.extra] == extra
        assert [e.card_id for e in back.side] == side


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64))
def test_ydke_any_base64_payload(payload: bytes) -> None:
    url = "ydke://" + base64.b64encode(payload).decode() + "!!!"
    if len(payload) % 4:
        try:
            ydke.parse(url)
        except InputError as exc:
            assert "not a whole number" in str(exc)
        else:
            raise AssertionError("a payload not a multiple of 4 bytes was accepted")
    else:
        assert len(ydke.parse(url).main) == len(payload) // 4
