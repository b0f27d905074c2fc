"""Decks between games and across files: the difference of two decks per section, a side
plan checked against the tournament rules (docs/RULES.md "Siding between duels"), and sample
opening hands."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from deckcheck.carddb import goes_to_extra
from deckcheck.deckedit.cards import SECTION_LABEL, art_root
from deckcheck.model import SECTIONS, Deck, DeckEntry, Format
from deckcheck.records import Record, field, record


def section_counts(deck: Deck, db: Any) -> dict[str, Counter[int]]:
    """Copies per card (artworks together) in each section."""
    out: dict[str, Counter[int]] = {s: Counter() for s in SECTIONS}
    for e in deck.entries():
        if e.card_id is not None:
            out[e.section][art_root(e.card_id, db)] += e.count
    return out


@record
class DiffLine(Record):
    section: str
    card_id: int
    before: int
    after: int

    @property
    def change(self) -> str:
        if self.before == 0:
            return "added"
        if self.after == 0:
            return "removed"
        return "changed"


def diff(a: Deck, b: Deck, db: Any) -> list[DiffLine]:
    """Per section (main, extra, side), every card whose count differs from ``a`` to ``b``."""
    ca, cb = section_counts(a, db), section_counts(b, db)
    out: list[DiffLine] = []
    for s in SECTIONS:
        for cid in dict.fromkeys([*ca[s], *cb[s]]):
            x, y = ca[s][cid], cb[s][cid]
            if x != y:
                out.append(DiffLine(s, cid, x, y))
    return out


@record(frozen=False)
class SidePlan(Record):
    """The deck after a side plan, and the rule each broken step breaks (empty: fine)."""

    deck: Deck
    problems: list[str] = field(default_factory=list)
    moves: list[tuple[str, int, int]] = field(default_factory=list)  # (in|out, card, n)


def side(
    deck: Deck,
    ins: list[tuple[int, int]],
    outs: list[tuple[int, int]],
    db: Any,
    fmt: Format,
    name: Any,
) -> SidePlan:
    """Apply ``ins`` (cards from the Side Deck) and ``outs`` (cards to the Side Deck).

    The TCG and OCG policies (docs/RULES.md) exchange Side Deck cards one for one: the Side
    Deck keeps its size, and so do the Main and the Extra Deck (an Extra Deck card goes out
    only for a card that goes to the Extra Deck). A card sided in must be in the Side Deck,
    one sided out in the Main or Extra Deck, with enough copies.
    """
    counts = section_counts(deck, db)
    copies = _copies(deck, db)
    problems: list[str] = []
    main_in = extra_in = main_out = extra_out = 0
    moved: dict[str, Counter[int]] = {s: Counter() for s in SECTIONS}
    for cid, n in ins:
        root = art_root(cid, db)
        have = counts["side"][root] - moved["side"][root]
        if have < n:
            problems.append(f"side in {n} × {name(root)}: the Side Deck has {have}")
            continue
        card = db.get(root)
        to = "extra" if card is not None and goes_to_extra(card, fmt) else "main"
        moved["side"][root] += n
        moved[to][root] -= n  # negative: arrives
        _move(copies, "side", to, root, n, cid)
        if to == "extra":
            extra_in += n
        else:
            main_in += n
    for cid, n in outs:
        root = art_root(cid, db)
        placed = [s for s in ("main", "extra") if counts[s][root] - moved[s][root] > 0]
        have = sum(counts[s][root] - moved[s][root] for s in ("main", "extra"))
        if have < n or not placed:
            problems.append(f"side out {n} × {name(root)}: the Main and Extra Deck have {have}")
            continue
        frm = placed[0]
        moved[frm][root] += n
        moved["side"][root] -= n
        _move(copies, frm, "side", root, n, cid)
        if frm == "extra":
            extra_out += n
        else:
            main_out += n
    if main_in != main_out:
        problems.append(
            f"Main Deck would change size ({main_in} in, {main_out} out): Side Deck cards are "
            "exchanged one for one, the Main Deck keeps its size"
        )
    if extra_in != extra_out:
        problems.append(
            f"Extra Deck would change size ({extra_in} in, {extra_out} out): an Extra Deck "
            "card is exchanged only for a card that goes to the Extra Deck"
        )
    if main_in + extra_in != main_out + extra_out:
        problems.append("the Side Deck would not keep its size")
    new = _rebuild(deck, copies)
    return SidePlan(
        new,
        problems,
        [("in", art_root(c, db), n) for c, n in ins]
        + [("out", art_root(c, db), n) for c, n in outs],
    )


#: section -> card (artworks together) -> the passcode of each copy, in file order.
_Copies = dict[str, dict[int, list[int]]]


def _copies(deck: Deck, db: Any) -> _Copies:
    out: _Copies = {s: {} for s in SECTIONS}
    for e in deck.entries():
        if e.card_id is not None:
            out[e.section].setdefault(art_root(e.card_id, db), []).extend([e.card_id] * e.count)
    return out


def _move(copies: _Copies, frm: str, to: str, root: int, n: int, named: int) -> None:
    """Move ``n`` copies of ``root`` with their own passcodes (the artwork the user has):
    copies of the passcode named first, then the last ones of the section."""
    pile = copies[frm].get(root, [])
    named_at = [i for i, c in enumerate(pile) if c == named]
    other_at = [i for i, c in enumerate(pile) if c != named]
    chosen = set(named_at[-n:])
    missing = n - len(chosen)
    if missing > 0:
        chosen.update(other_at[-missing:])
    copies[to].setdefault(root, []).extend(pile[i] for i in sorted(chosen))
    copies[frm][root] = [c for i, c in enumerate(pile) if i not in chosen]


def _rebuild(deck: Deck, copies: _Copies) -> Deck:
    """A copy of ``deck`` holding these copies per section, each under its own passcode
    (file order kept, cards that arrive last)."""
    out = deck.replace(main=[], extra=[], side=[], findings=[])
    for s in SECTIONS:
        want: Counter[int] = Counter()
        for pile in copies[s].values():
            want.update(pile)
        order = [e.card_id for e in deck.section(s) if e.card_id is not None]
        for pile in copies[s].values():
            order.extend(pile)
        for cid in dict.fromkeys(order):
            if want[cid] > 0:
                out.section(s).append(
                    DeckEntry(
                        section=s,
                        card_id=cid,
                        line=None,  # type: ignore[arg-type]
                        count=want[cid],
                    )
                )
    return out


def draw(deck: Deck, hand: int, seed: int | None, db: Any) -> list[int]:
    """A random opening hand of ``hand`` cards from the Main Deck (passcodes, artworks
    merged); ``seed`` makes it repeatable."""
    pile = [
        art_root(e.card_id, db) for e in deck.main if e.card_id is not None for _ in range(e.count)
    ]
    rng = random.Random(seed)
    return rng.sample(pile, min(hand, len(pile)))


__all__ = ["SECTION_LABEL", "DiffLine", "SidePlan", "diff", "draw", "section_counts", "side"]
