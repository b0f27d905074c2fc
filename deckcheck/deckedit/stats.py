"""Deck measures for ``show`` and ``stats``: cards grouped by kind, the Main Deck's
composition, and exact opening-hand odds (hypergeometric)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

from deckcheck.deckedit.cards import art_root, goes_to_extra
from deckcheck.model import SECTIONS, Card, Deck, Format
from deckcheck.records import Record, field, record

#: Extra Deck groups of ``show``/``stats``, in this order (Rush: ritual too).
EXTRA_KINDS = ("fusion", "synchro", "xyz", "link", "ritual")
#: Separator between cards of one ``--card`` group (no real card name contains it).
GROUP_SEP = "|"

ATTRIBUTES = {
    0x1: "EARTH",
    0x2: "WATER",
    0x4: "FIRE",
    0x8: "WIND",
    0x10: "LIGHT",
    0x20: "DARK",
    0x40: "DIVINE",
}
RACES = {
    0x1: "Warrior",
    0x2: "Spellcaster",
    0x4: "Fairy",
    0x8: "Fiend",
    0x10: "Zombie",
    0x20: "Machine",
    0x40: "Aqua",
    0x80: "Pyro",
    0x100: "Rock",
    0x200: "Winged Beast",
    0x400: "Plant",
    0x800: "Insect",
    0x1000: "Thunder",
    0x2000: "Dragon",
    0x4000: "Beast",
    0x8000: "Beast-Warrior",
    0x10000: "Dinosaur",
    0x20000: "Fish",
    0x40000: "Sea Serpent",
    0x80000: "Reptile",
    0x100000: "Psychic",
    0x200000: "Divine-Beast",
    0x400000: "Creator God",
    0x800000: "Wyrm",
    0x1000000: "Cyberse",
    0x2000000: "Illusion",
}


@record(frozen=False)
class Line(Record):
    """One card of a grouped deck: copies of one passcode (or one unresolved name)."""

    card_id: int | None
    name: str
    count: int
    line: int | None


@record(frozen=False)
class Group(Record):
    kind: str  # monster | spell | trap | fusion | … | skill | token | unknown
    lines: list[Line] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(ln.count for ln in self.lines)


def kind_of_card(card: Card | None, section: str, fmt: Format) -> str:
    if card is None:
        return "unknown"
    kind = card.kind
    if section == "extra" and kind == "monster":
        for t in EXTRA_KINDS:
            if card.has_type(t):
                return t
    if kind == "monster" and section != "extra" and goes_to_extra(card, fmt):
        return "extra monster"
    return str(kind)


_GROUP_ORDER = [
    "monster",
    "extra monster",
    "spell",
    "trap",
    *EXTRA_KINDS,
    "skill",
    "token",
    "other",
    "unknown",
    "monster (not extra)",
]


def grouped(deck: Deck, db: Any, fmt: Format, name: Callable[[int], str]) -> dict[str, list[Group]]:
    """Each section's cards grouped by kind (Extra Deck: by summon type), file order inside."""
    out: dict[str, list[Group]] = {}
    for section in SECTIONS:
        groups: dict[str, Group] = {}
        index: dict[tuple[str, Any], Line] = {}
        for e in deck.section(section):
            card = db.get(e.card_id) if e.card_id is not None else None
            kind = kind_of_card(card, section, fmt)
            if section == "extra" and kind == "monster":
                kind = "monster (not extra)"
            key = (kind, e.card_id if e.card_id is not None else e.query)
            ln = index.get(key)
            if ln is None:
                label = (
                    name(e.card_id)
                    if card is not None and e.card_id is not None
                    else (e.query or str(e.card_id))
                )
                ln = index[key] = Line(e.card_id, label, 0, e.line)
                groups.setdefault(kind, Group(kind)).lines.append(ln)
            ln.count += e.count
        out[section] = sorted(
            groups.values(),
            key=lambda g: _GROUP_ORDER.index(g.kind) if g.kind in _GROUP_ORDER else 99,
        )
    return out


def p_at_least_one(deck_size: int, copies: int, hand: int) -> float:
    """P(at least one of ``copies`` cards in an opening hand of ``hand`` from ``deck_size``):
    1 − C(N−K, n) / C(N, n), exact in integers until the one division."""
    if deck_size <= 0 or copies <= 0:
        return 0.0
    n = min(hand, deck_size)
    return 1 - math.comb(deck_size - copies, n) / math.comb(deck_size, n)


def p_exactly(deck_size: int, copies: int, hand: int) -> list[float]:
    """P(exactly k) for k = 0 … min(K, n): C(K, k) C(N−K, n−k) / C(N, n)."""
    n = min(hand, deck_size)
    total = math.comb(deck_size, n) if deck_size > 0 else 1
    return [
        math.comb(copies, k) * math.comb(deck_size - copies, n - k) / total
        for k in range(min(copies, n) + 1)
    ]


@record(frozen=False)
class Odds(Record):
    label: str
    ids: list[int]
    copies: int
    p_any: float
    exactly: list[float]


def main_copies(deck: Deck, db: Any) -> dict[int, int]:
    """Copies per card (artworks together) in the Main Deck, in file order."""
    out: dict[int, int] = {}
    for e in deck.main:
        if e.card_id is not None:
            root = art_root(e.card_id, db)
            out[root] = out.get(root, 0) + e.count
    return out


def composition(deck: Deck, db: Any, fmt: Format) -> dict[str, Any]:
    """Counts by kind and subtype, levels, attributes and types of the Main Deck monsters,
    Extra Deck by summon type."""
    kinds: Counter[str] = Counter()
    subtypes: Counter[str] = Counter()
    levels: Counter[int] = Counter()
    attributes: Counter[str] = Counter()
    races: Counter[str] = Counter()
    atk: list[int] = []
    for e in deck.main:
        card = db.get(e.card_id) if e.card_id is not None else None
        if card is None:
            kinds["unknown"] += e.count
            continue
        kinds[card.kind] += e.count
        for s in card.subtypes:
            subtypes[f"{card.kind}:{s}" if card.kind != "monster" else s] += e.count
        if card.kind == "monster":
            lvl = card.level & 0xFF  # pendulum scales live in the upper bytes
            levels[lvl] += e.count
            attributes[ATTRIBUTES.get(card.attribute, "?")] += e.count
            races[RACES.get(card.race, "?")] += e.count
            if card.atk >= 0:
                atk.extend([card.atk] * e.count)
    extra: Counter[str] = Counter()
    for e in deck.extra:
        card = db.get(e.card_id) if e.card_id is not None else None
        extra[kind_of_card(card, "extra", fmt)] += e.count
    n_mon = sum(levels.values())
    return {
        "counts": deck.counts(),
        "main": dict(kinds.most_common()),
        "subtypes": dict(subtypes.most_common()),
        "levels": {str(k): v for k, v in sorted(levels.items())},
        "average_level": round(sum(k * v for k, v in levels.items()) / n_mon, 2) if n_mon else None,
        "average_atk": round(sum(atk) / len(atk)) if atk else None,
        "attributes": dict(attributes.most_common()),
        "types": dict(races.most_common()),
        "extra": dict(extra.most_common()),
    }


def group_odds(
    main_size: int, copies: dict[int, int], ids: list[int], hand: int, label: str
) -> Odds:
    """Odds of at least one card of ``ids`` (any of them) in the opening hand."""
    k = sum(copies.get(i, 0) for i in dict.fromkeys(ids))
    return Odds(label, ids, k, p_at_least_one(main_size, k, hand), p_exactly(main_size, k, hand))


def card_odds(
    main_size: int, copies: dict[int, int], hand: int, name: Callable[[int], str]
) -> list[Odds]:
    """The odds of each card of the Main Deck (artworks together), in file order."""
    return [group_odds(main_size, copies, [cid], hand, name(cid)) for cid in copies]


def split_group(spec: str) -> list[str]:
    """The card queries of one ``--card`` group ("Ash Blossom|Effect Veiler")."""
    return [p.strip() for p in spec.split(GROUP_SEP) if p.strip()]


def named_group_odds(
    main_size: int, copies: dict[int, int], ids: list[int], hand: int, name: Callable[[int], str]
) -> Odds:
    """``group_odds`` labelled with the names of its cards ("A | B")."""
    label = " | ".join(name(i) for i in dict.fromkeys(ids))
    return group_odds(main_size, copies, ids, hand, label)


def p_each(deck_size: int, group_copies: list[int], hand: int) -> float:
    """P(the hand holds at least one card of every group), groups disjoint: inclusion-
    exclusion over the groups missed, each term C(N − K_S, n) / C(N, n)."""
    from itertools import combinations

    n = min(hand, deck_size)
    total = math.comb(deck_size, n) if deck_size > 0 else 1
    p = 0.0
    for r in range(len(group_copies) + 1):
        for miss in combinations(group_copies, r):
            p += (-1) ** r * math.comb(deck_size - sum(miss), n) / total
    return max(0.0, min(1.0, p))
