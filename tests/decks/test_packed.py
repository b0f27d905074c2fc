"""A packed deck (the ``.ydk`` fast reader's, issue 18) is a ``Deck`` in every way a caller can
see: equal to the general reader's, same repr, ``replace`` and pickling give plain decks, its
entries are built once on first read and then are the truth (edits count, the arrays are no
longer used), and every real deck checks the same packed as with its entries."""

from __future__ import annotations

import copy
import datetime as dt
import pickle
from pathlib import Path

from deckcheck import decks
from deckcheck.carddb import open_db
from deckcheck.decks import ydk
from deckcheck.decks.packed import PackedDeck
from deckcheck.engine import Engine
from deckcheck.errors import InputError
from deckcheck.formats import get_format, list_for
from deckcheck.model import Deck, DeckEntry
from deckcheck.validate import Target, validate_deck

TEXT = "#created by me\n#main\n89631139\n\n89631139\n14558127\n#extra\n44508094\n!side\n14558127\n"


def _packed() -> PackedDeck:
    deck = decks.read_string(TEXT, "d.ydk")
    assert isinstance(deck, PackedDeck) and deck.packed() is not None
    return deck


def _general() -> Deck:
    return ydk.parse_lines_general(TEXT.splitlines(), "d.ydk")


def test_packed_arrays_and_entries() -> None:
    deck = _packed()
    assert deck.packed() == (
        [89631139, 89631139, 14558127, 44508094, 14558127],
        3,
        1,
        [2, 4, 5, 7, 9],
    )
    assert deck.main[1] == DeckEntry("main", 89631139, 5, 1, None, "89631139")
    assert deck.packed() is None  # built once, all three sections
    assert deck.extra == [DeckEntry("extra", 44508094, 8, 1, None, "44508094")]
    assert deck == _general() and _general() == deck
    assert repr(deck) == repr(_general())
    assert deck.counts() == {"main": 3, "extra": 1, "side": 1}


def test_edits_after_reading_are_the_truth() -> None:
    deck = _packed()
    deck.main.append(DeckEntry("main", 1, 99))
    assert deck.packed() is None and len(deck.main) == 4
    deck = _packed()
    deck.side = []  # setting one section keeps what the arrays held for the others
    assert deck.side == [] and len(deck.main) == 3 and len(deck.extra) == 1
    assert deck.packed() is None


def test_replace_pickle_copy_give_plain_decks() -> None:
    for got in (
        _packed().replace(source="x.ydk"),
        pickle.loads(pickle.dumps(_packed())),
        copy.deepcopy(_packed()),
        copy.copy(_packed()),
    ):
        assert type(got) is Deck
        assert got.main == _general().main and got.side == _general().side
    assert _packed().replace(kind="text").kind == "text"


def test_packed_deck_is_not_equal_to_another_deck() -> None:
    other = _general()
    other.side = []
    assert _packed() != other
    assert _packed() != "deck"


def test_every_real_deck_checks_the_same_packed(real_home: Path, shared_data: Path) -> None:
    db = open_db()
    date = dt.date(2026, 6, 1)
    fmt = get_format("tcg")
    banlist = list_for(fmt.at(date), date, None)
    n = 0
    for f in sorted((shared_data / "decks").rglob("*.ydk")):
        try:
            packed = decks.read_path(f)
        except InputError:
            continue
        if packed.packed() is None:
            continue
        plain = decks.read_path(f)
        plain.main  # noqa: B018 - built: the entries are what the engine reads
        a = validate_deck(Engine(db), packed, Target(fmt, banlist, date))
        b = validate_deck(Engine(db), plain, Target(fmt, banlist, date))
        assert a == b, f
        n += 1
    assert n > 150


def test_unknown_cards_and_tokens_read_from_the_arrays(real_home: Path) -> None:
    db = open_db()
    token = next(c.id for c in db.all_cards().values() if c.kind == "token")
    skill = next((c.id for c in db.all_cards().values() if c.kind == "skill"), 1)
    base = f"#main\n7\n89631139\n{token}\n7\n\n#extra\n{token}\n8\n!side\n7\n44508094\n"
    with_skill = base.replace("#extra", f"{skill}\n#extra")
    date = dt.date(2026, 6, 1)
    for fmt_id in ("tcg", "speed"):
        fmt = get_format(fmt_id)
        banlist = list_for(fmt.at(date), date, None)
        for text in (base, with_skill):
            packed = decks.read_string(text, "d.ydk")
            assert packed.packed() is not None
            got = validate_deck(Engine(db), packed, Target(fmt, banlist, date))
            if text is base:  # checked without building its entries (skills read them)
                assert packed.packed() is not None
            plain = decks.read_string(text, "d.ydk")
            plain.main  # noqa: B018
            assert got == validate_deck(Engine(db), plain, Target(fmt, banlist, date))
            codes = [f.code for f in got.findings]
            assert codes.count("DC102") == 4 and codes.count("DC104") == 2
