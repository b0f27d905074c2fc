"""The 209 real .ydk decks of ../shared/data/decks: read cleanly, counts as in MANIFEST.tsv,
and exact round trips ydk -> ydke -> ydk and ydk -> text -> ydk (text through the real
card database and name lookup)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcheck import decks
from deckcheck.decks import write, ydke
from deckcheck.decks.resolve import resolve_deck
from deckcheck.decks.source import Limits
from deckcheck.model import Deck, DeckEntry

NO_LIMITS = Limits(max_bytes=1 << 30, max_lines=1 << 30)

pytestmark = pytest.mark.realdata


def _manifest(shared: Path) -> dict[str, tuple[int, int, int] | None]:
    out: dict[str, tuple[int, int, int] | None] = {}
    lines = (shared / "decks" / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    for line in lines[1:]:
        cols = line.split("\t")
        counts = None
        for note in cols[4].split(";"):
            key, _, value = note.strip().partition("=")
            if key == "lenient-counts":
                m, e, s = (int(x) for x in value.split("/"))
                counts = (m, e, s)
        out[cols[0]] = counts
    return out


@pytest.fixture(scope="module")
def real_decks(shared_data: Path) -> list[tuple[str, Deck]]:
    root = shared_data / "decks"
    paths = sorted(root.glob("*/*.ydk"))
    # Every test below loops over these: an empty (or half) folder must fail, not pass.
    assert len(paths) == 209, f"{len(paths)} decks in {root}, MANIFEST.tsv lists 209"
    return [(p.relative_to(root).as_posix(), decks.read_path(p)) for p in paths]


def _flat(deck: Deck) -> list[tuple[str, int | None]]:
    return [(e.section, e.card_id) for e in deck.entries() for _ in range(e.count)]


def _grouped(deck: Deck) -> list[tuple[str, int | None]]:
    """``_flat`` with every copy of a card of a section where it first appears, as a text
    list writes them (one line a card, issue 32)."""
    counts: dict[tuple[str, int | None], int] = {}
    for key in _flat(deck):
        counts[key] = counts.get(key, 0) + 1
    return [key for key, n in counts.items() for _ in range(n)]


def test_every_real_deck_reads_with_manifest_counts(
    shared_data: Path, real_decks: list[tuple[str, Deck]]
) -> None:
    manifest = _manifest(shared_data)
    assert set(manifest) == {name for name, _ in real_decks}
    checked = 0
    for name, deck in real_decks:
        assert deck.kind == "ydk", name
        assert deck.findings == [], name
        assert all(e.line is not None and e.raw for e in deck.entries()), name
        want = manifest[name]
        if want is not None:
            c = deck.counts()
            assert (c["main"], c["extra"], c["side"]) == want, name
            checked += 1
    assert checked == 209


def test_ydk_ydke_ydk_round_trip(real_decks: list[tuple[str, Deck]]) -> None:
    for name, deck in real_decks:
        url = write.to_ydke(deck)
        back = decks.read_string(write.to_ydk(ydke.parse(url)), "x.ydk")
        assert _flat(back) == _flat(deck), name
        assert decks.read_string(url).kind == "ydke"


@pytest.fixture
def db_and_index(real_home: Path) -> Iterator[tuple[object, object]]:
    from deckcheck.carddb import open_db
    from deckcheck.lookup import Index

    db = open_db()
    assert not db.is_sample
    yield db, Index.for_db(db)
    db.close()


def test_ydk_text_ydk_round_trip(
    real_decks: list[tuple[str, Deck]], db_and_index: tuple[object, object]
) -> None:
    db, index = db_and_index
    pinned = 0
    for name, deck in real_decks:
        listing = write.to_text(deck, db, index=index)  # type: ignore[arg-type]
        pinned += listing.count(")\n")
        text_deck = decks.read_string(listing, "list.txt")
        assert text_deck.kind == "text"
        resolved = resolve_deck(text_deck, db, index)  # type: ignore[arg-type]
        assert resolved.findings == [], name
        back = decks.read_string(write.to_ydk(resolved), "x.ydk")
        assert _flat(back) == _grouped(deck), name
    # Alternate artworks need their passcode beside the name; most lines need none.
    assert pinned > 0


def test_text_in_other_languages_resolves(
    real_decks: list[tuple[str, Deck]], db_and_index: tuple[object, object]
) -> None:
    db, index = db_and_index
    _, deck = next((n, d) for n, d in real_decks if n.endswith("Gouki.ydk"))
    for lang in ("ja", "zh-CN", "ko"):
        listing = write.to_text(deck, db, lang=lang, index=index)  # type: ignore[arg-type]
        resolved = resolve_deck(decks.read_string(listing, "l.txt"), db, index)  # type: ignore[arg-type]
        assert resolved.findings == [], lang
        assert _flat(resolved) == _flat(deck), lang


@pytest.mark.slow
def test_every_real_card_name_survives_a_text_list(real_home: Path) -> None:
    """Every name of every language in the real database, written by the text writer and
    read back, gives the same name and count (or its passcode, where the writer pinned it)."""
    import sqlite3

    from deckcheck.decks.text import fold

    con = sqlite3.connect(f"file:{real_home / 'cards.sqlite3'}?mode=ro", uri=True)
    names = sorted({n for (n,) in con.execute("SELECT DISTINCT name FROM names WHERE kind='name'")})
    con.close()
    assert len(names) > 100_000
    by_id = {i + 100_000: n for i, n in enumerate(names)}

    class Names:
        def name(self, card_id: int, lang: str = "en") -> str:
            return by_id[card_id]

    deck = Deck("x", main=[DeckEntry("main", i, None, 2) for i in by_id])
    back = decks.read_string(write.to_text(deck, Names()), "all.txt", limits=NO_LIMITS)
    assert back.findings == []
    assert len(back.main) == len(by_id)
    pinned = 0
    for want_id, e in zip(by_id, back.main, strict=True):
        assert e.count == 2
        if e.card_id is not None:
            assert e.card_id == want_id
            pinned += 1
        else:
            assert e.query == fold(" ".join(by_id[want_id].split()))
    assert pinned < 20  # only odd names ("7", "Battle x 2") need their passcode
