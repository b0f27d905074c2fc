"""Edit requests on a loaded deck file: add, remove and move copies of a card, with the
choice of section (where the card belongs, where its copies are) and placement checks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from deckcheck.deckedit.cards import (
    SECTION_LABEL,
    EditError,
    art_root,
    copies_of,
    goes_to_extra,
    home_section,
)
from deckcheck.deckedit.editors import editor_for
from deckcheck.deckedit.files import DeckFile
from deckcheck.model import SECTIONS, Card, Format, Section
from deckcheck.records import Record, record


@record
class Change(Record):
    """What an edit did, for the user."""

    verb: str  # added | removed | moved
    card_id: int
    name: str
    count: int
    section: Section  # destination (added, moved) or origin (removed)
    origin: Section | None = None  # moved: from
    now: int = 0  # copies of the card in the whole deck after the edit


def pick_section(
    df: DeckFile, root: int, db: Any, home: Section, asked: Section | None, verb: str
) -> Section:
    """The section copies are taken from: the one asked, else where the card belongs or the
    one section holding it (EditError when copies are in several and none is home)."""
    if asked is not None:
        return asked
    present = [s for s in SECTIONS if copies_of(df.deck, root, db, [s])]
    if home in present or not present:
        return home
    if len(present) == 1:
        return present[0]
    raise EditError(
        f"copies are in the {' and '.join(SECTION_LABEL[s] for s in present)}; "
        f"say which with --main, --extra or --side to {verb}"
    )


def check_target(card: Card | None, section: Section, fmt: Format, force: bool) -> None:
    """EditError when ``card`` cannot go to ``section`` in ``fmt`` (unless ``force``)."""
    if card is None or force or section == "side":
        return
    name = card.name
    if card.kind == "token":
        raise EditError(f"{name} is a token: tokens are not part of a deck (--force adds it)")
    extra = goes_to_extra(card, fmt)
    if section == "extra" and not extra:
        raise EditError(
            f"{name} is not an Extra Deck monster in {fmt.name}; it cannot go to the Extra "
            "Deck (use --main or --side, or --force to place it anyway)"
        )
    if section == "main" and extra:
        raise EditError(
            f"{name} is an Extra Deck monster in {fmt.name}; it cannot go to the Main Deck "
            "(use --extra or --side, or --force to place it anyway)"
        )


def add(
    df: DeckFile,
    card_id: int,
    n: int,
    section: Section | None,
    fmt: Format,
    db: Any,
    index: Any,
    *,
    force: bool = False,
    lang: str = "en",
) -> Change:
    """Add ``n`` copies of ``card_id`` (default section: where the format puts the card)."""
    if n < 1:
        raise EditError("-n must be at least 1")
    card = db.get(card_id)
    target = section or (home_section(card, fmt) if card is not None else "main")
    check_target(card, target, fmt, force)
    editor_for(df, db, index, lang).add(target, card_id, n)
    root = art_root(card_id, db)
    return Change(
        "added", card_id, db.name(card_id, lang), n, target, now=copies_of(df.deck, root, db)
    )


def _matcher(card_id: int, exact: bool, db: Any) -> Callable[[int], bool]:
    if exact:
        return lambda cid: cid == card_id
    root = art_root(card_id, db)
    return lambda cid: art_root(cid, db) == root


def _held(df: DeckFile, section: Section, match: Callable[[int], bool]) -> int:
    return sum(
        e.count for e in df.deck.section(section) if e.card_id is not None and match(e.card_id)
    )


def remove(
    df: DeckFile,
    card_id: int,
    n: int | None,
    section: Section | None,
    fmt: Format,
    db: Any,
    index: Any,
    *,
    exact: bool = False,
    lang: str = "en",
) -> Change:
    """Remove ``n`` copies (None: all of them in the section), the last ones of the file.

    ``exact`` matches this passcode only; otherwise every artwork of the card matches.
    """
    card = db.get(card_id)
    root = art_root(card_id, db)
    home = home_section(card, fmt) if card is not None else "main"
    src = pick_section(df, root, db, home, section, "remove")
    match = _matcher(card_id, exact, db)
    have = _held(df, src, match)
    name = db.name(card_id, lang)
    want = have if n is None else n
    if want < 1 or have < want:
        if have == 0:
            raise EditError(f"no copy of {name} in the {SECTION_LABEL[src]}", where=str(df.path))
        raise EditError(
            f"cannot remove {want} copies of {name}: the {SECTION_LABEL[src]} holds {have}",
            where=str(df.path),
        )
    editor_for(df, db, index, lang).remove(src, match, want)
    return Change("removed", card_id, name, want, src, now=copies_of(df.deck, root, db))


def move(
    df: DeckFile,
    card_id: int,
    n: int | None,
    to: Section,
    origin: Section | None,
    fmt: Format,
    db: Any,
    index: Any,
    *,
    exact: bool = False,
    force: bool = False,
    lang: str = "en",
) -> Change:
    """Move ``n`` copies (None: all) from ``origin`` (default: where the copies are) to ``to``."""
    card = db.get(card_id)
    root = art_root(card_id, db)
    if origin is None:
        present = [s for s in SECTIONS if s != to and copies_of(df.deck, root, db, [s])]
        if len(present) > 1:
            raise EditError(
                f"copies are in the {' and '.join(SECTION_LABEL[s] for s in present)}; "
                "say which with --from"
            )
        origin = present[0] if present else ("main" if to != "main" else "side")
    if origin == to:
        raise EditError(f"--from and --to are both the {SECTION_LABEL[to]}")
    check_target(card, to, fmt, force)
    match = _matcher(card_id, exact, db)
    have = _held(df, origin, match)
    name = db.name(card_id, lang)
    want = have if n is None else n
    if have == 0:
        raise EditError(f"no copy of {name} in the {SECTION_LABEL[origin]}", where=str(df.path))
    if want < 1 or have < want:
        raise EditError(
            f"cannot move {want} copies of {name}: the {SECTION_LABEL[origin]} holds {have}",
            where=str(df.path),
        )
    ed = editor_for(df, db, index, lang)
    taken = ed.remove(origin, match, want)
    for cid, k in Counter(taken).items():
        ed.add(to, cid, k)
    return Change("moved", card_id, name, want, to, origin=origin, now=copies_of(df.deck, root, db))
