"""What changed between two versions of a Forbidden/Limited list, a card's status across a
family's history, and which decks a list change touches.

``diff_lists`` and ``card_history`` are pure functions of ``model.Banlist`` records; only
``deck_impact`` reaches into the validator (imported where used).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from deckcheck.model import STATUS_NAMES, Banlist, Finding
from deckcheck.records import Record, field, record

if TYPE_CHECKING:
    from deckcheck.model import Deck, Format

UNLIMITED = 3

NOT_IN_POOL = "Not in pool"

ChangeKind = Literal[
    "forbidden",  # newly Forbidden (was Unlimited)
    "limited",  # newly Limited (was Unlimited)
    "semi_limited",  # newly Semi-Limited (was Unlimited)
    "moved",  # from one restricted status to another (e.g. Limited -> Semi-Limited)
    "unlimited",  # no longer on the list
    "added",  # whitelist: added to the card pool
    "removed",  # whitelist: removed from the card pool
]

#: Order and headings used by every renderer (the order of an official announcement).
KIND_ORDER: tuple[ChangeKind, ...] = (
    "forbidden",
    "limited",
    "semi_limited",
    "moved",
    "unlimited",
    "added",
    "removed",
)
KIND_TITLES: dict[str, str] = {
    "forbidden": "Newly Forbidden",
    "limited": "Newly Limited",
    "semi_limited": "Newly Semi-Limited",
    "moved": "Moved",
    "unlimited": "No longer on the list (Unlimited)",
    "added": "Added to the card pool",
    "removed": "Removed from the card pool",
}

PointsKind = Literal["added", "removed", "changed"]
GroupKind = Literal["added", "removed", "changed"]


def status_name(limit: int | None) -> str:
    """A player's word for a copy limit; ``None`` means the card is not in a whitelist's pool."""
    if limit is None:
        return NOT_IN_POOL
    return STATUS_NAMES.get(limit, f"limit {limit}")


def status_in(banlist: Banlist, card_id: int) -> int | None:
    """Copies ``banlist`` allows of a card: an unlisted card is Unlimited (3) in a blacklist
    and not in the pool (``None``) in a whitelist."""
    got = banlist.limits.get(card_id)
    if got is None:
        return None if banlist.mode == "whitelist" else UNLIMITED
    return got


def _restricted(limit: int) -> bool:
    return 0 <= limit < UNLIMITED


def classify(old: int | None, new: int | None) -> ChangeKind | None:
    """The announcement group of a status change (``None``: no change)."""
    if old == new:
        return None
    if old is None:
        return "added"
    if new is None:
        return "removed"
    if _restricted(new) and not _restricted(old):
        return ("forbidden", "limited", "semi_limited")[new]  # type: ignore[return-value]
    if _restricted(old) and not _restricted(new):
        return "unlimited"
    return "moved"


# --------------------------------------------------------------------------- diff records


@record
class CardChange(Record):
    """One card whose copy limit (or pool membership) differs between two lists."""

    card_id: int
    kind: ChangeKind
    old: int | None  # copies allowed by the old list (None: not in the pool)
    new: int | None
    name: str = ""  # the name the lists give it, for humans; renderers may localise

    @property
    def label(self) -> str:
        """``"Limited → Semi-Limited"``: the move, as an announcement writes it."""
        return f"{status_name(self.old)} → {status_name(self.new)}"


@record
class PointsChange(Record):
    """A card whose points (Genesys) changed; ``None`` means it had / has no points entry."""

    card_id: int
    kind: PointsKind
    old: int | None
    new: int | None
    name: str = ""


@record
class GroupChange(Record):
    """A group ("Limited 1" style) that appeared, disappeared, or changed limit or members."""

    name: str
    kind: GroupKind
    old_limit: int | None
    new_limit: int | None
    cards_added: tuple[int, ...] = ()
    cards_removed: tuple[int, ...] = ()


@record
class ListDiff(Record):
    """Everything that differs between ``old`` and ``new``, grouped as an announcement is."""

    old: Banlist
    new: Banlist
    changes: tuple[CardChange, ...] = ()
    points: tuple[PointsChange, ...] = ()
    groups: tuple[GroupChange, ...] = ()
    by_id: dict[int, CardChange] = field(default_factory=dict, compare=False)

    @property
    def mode_changed(self) -> bool:
        """Blacklist <-> whitelist: cards named by neither list change status too (Unlimited
        <-> not in pool); the diff lists only the cards either list names."""
        return self.old.mode != self.new.mode

    @property
    def empty(self) -> bool:
        return not (self.changes or self.points or self.groups)

    def by_kind(self, kind: ChangeKind) -> list[CardChange]:
        return [c for c in self.changes if c.kind == kind]

    def moves(self) -> dict[tuple[int | None, int | None], list[CardChange]]:
        """The "moved" changes keyed by (old, new), ordered by new status then old."""
        out: dict[tuple[int | None, int | None], list[CardChange]] = {}
        moved = sorted(self.by_kind("moved"), key=lambda c: (_key(c.new), _key(c.old)))
        for c in moved:
            out.setdefault((c.old, c.new), []).append(c)
        return out

    def change_of(self, card_id: int) -> CardChange | None:
        return self.by_id.get(card_id)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {k: len(self.by_kind(k)) for k in KIND_ORDER}
        out["points"] = len(self.points)
        out["groups"] = len(self.groups)
        return out


def _key(limit: int | None) -> int:
    return -1 if limit is None else limit


def _name(card_id: int, *lists: Banlist) -> str:
    for b in lists:
        got = b.names.get(card_id)
        if got:
            return got
    return ""


def diff_lists(old: Banlist, new: Banlist) -> ListDiff:
    """The changes from ``old`` to ``new``: copy limits, pool membership, points, groups.

    Status of an unlisted card: Unlimited (3) in a blacklist, not in the pool in a whitelist;
    an explicit "3" and an absent entry in a blacklist are the same status, not a change.
    """
    changes: list[CardChange] = []
    for cid in old.limits.keys() | new.limits.keys():
        before, after = status_in(old, cid), status_in(new, cid)
        kind = classify(before, after)
        if kind is not None:
            changes.append(CardChange(cid, kind, before, after, _name(cid, new, old)))
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    changes.sort(
        key=lambda c: (order[c.kind], _key(c.new), _key(c.old), c.name.casefold(), c.card_id)
    )

    points: list[PointsChange] = []
    for cid in old.points.keys() | new.points.keys():
        p_old, p_new = old.points.get(cid), new.points.get(cid)
        if p_old == p_new:
            continue
        pkind: PointsKind = "added" if p_old is None else "removed" if p_new is None else "changed"
        points.append(PointsChange(cid, pkind, p_old, p_new, _name(cid, new, old)))
    points.sort(key=lambda p: (-(p.new or 0), p.name.casefold(), p.card_id))

    return ListDiff(
        old,
        new,
        tuple(changes),
        tuple(points),
        tuple(_diff_groups(old, new)),
        {c.card_id: c for c in changes},
    )


def _diff_groups(old: Banlist, new: Banlist) -> list[GroupChange]:
    before = {g.name: g for g in old.groups}
    after = {g.name: g for g in new.groups}
    out: list[GroupChange] = []
    for name in [*before, *(n for n in after if n not in before)]:
        g_old, g_new = before.get(name), after.get(name)
        if g_old is None and g_new is not None:
            out.append(GroupChange(name, "added", None, g_new.limit, tuple(sorted(g_new.cards))))
        elif g_new is None and g_old is not None:
            out.append(
                GroupChange(name, "removed", g_old.limit, None, (), tuple(sorted(g_old.cards)))
            )
        elif (
            g_old is not None
            and g_new is not None
            and (g_old.limit != g_new.limit or g_old.cards != g_new.cards)
        ):
            out.append(
                GroupChange(
                    name,
                    "changed",
                    g_old.limit,
                    g_new.limit,
                    tuple(sorted(g_new.cards - g_old.cards)),
                    tuple(sorted(g_old.cards - g_new.cards)),
                )
            )
    return out


# --------------------------------------------------------------------------- history


@record
class HistoryEntry(Record):
    """A card's status in one list version."""

    family: str
    list_name: str
    effective: dt.date
    limit: int | None  # None: not in the pool (whitelist)
    points: int | None = None  # set only for lists that carry points
    first: bool = False
    last: bool = False
    previous: HistoryEntry | None = field(default=None, compare=False)

    @property
    def status(self) -> str:
        text = status_name(self.limit)
        if self.points is not None:
            pts = f"{self.points} point{'s' if self.points != 1 else ''}"
            text = pts if self.limit == UNLIMITED else f"{text}, {pts}"
        return text

    @property
    def state(self) -> tuple[int | None, int | None]:
        return (self.limit, self.points)


def card_history(
    lists: Sequence[Banlist], card_id: int, *, also: Iterable[int] = ()
) -> list[HistoryEntry]:
    """The card's status in every list (oldest first), one entry per list version.

    ``also`` names other passcodes of the same card (alternate artworks), consulted when a
    list keys the card under one of them rather than under ``card_id``.
    """
    ids = [card_id, *also]
    out: list[HistoryEntry] = []
    for b in sorted(lists, key=lambda b: b.effective):
        cid = next((i for i in ids if i in b.limits or i in b.points), card_id)
        pts = b.points.get(cid, 0) if b.points else None
        out.append(HistoryEntry(b.family, b.name, b.effective, status_in(b, cid), pts))
    return out


def timeline(entries: Sequence[HistoryEntry]) -> list[HistoryEntry]:
    """Only the entries where the status changed, plus the first and the last list.

    Each entry returned links to the entry before it in this timeline (``previous``).
    """
    out: list[HistoryEntry] = []
    for i, e in enumerate(entries):
        first, last = i == 0, i == len(entries) - 1
        if first or last or e.state != entries[i - 1].state:
            prev = out[-1] if out else None
            out.append(
                HistoryEntry(
                    e.family, e.list_name, e.effective, e.limit, e.points, first, last, prev
                )
            )
    return out


def appears_in(lists: Iterable[Banlist], card_ids: Iterable[int]) -> bool:
    """Whether any of the lists names the card (an entry or a points value)."""
    ids = list(card_ids)
    return any(i in b.limits or i in b.points for b in lists for i in ids)


# --------------------------------------------------------------------------- decks


@record
class DeckCardChange(Record):
    """A card of a deck whose status changed, with the copies the deck plays."""

    change: CardChange
    count: int


@record
class DeckImpact(Record):
    """How a list change affects one deck."""

    source: str
    cards: tuple[DeckCardChange, ...]
    legal_before: bool
    legal_after: bool
    reasons: tuple[Finding, ...]  # findings under the new list that the old list did not cause
    findings_after: tuple[Finding, ...] = ()
    resolved: tuple[Finding, ...] = ()  # findings under the old list that the new one lifts

    @property
    def verdict(self) -> str:
        def word(ok: bool) -> str:
            return "legal" if ok else "illegal"

        return f"{word(self.legal_before)} → {word(self.legal_after)}"

    @property
    def becomes_illegal(self) -> bool:
        return self.legal_before and not self.legal_after

    @property
    def impacted(self) -> bool:
        return bool(self.cards) or self.legal_before != self.legal_after


def deck_counts(deck: Deck, canonical: Callable[[int], int]) -> dict[int, int]:
    """Copies per canonical card over main + extra + side (unresolved entries skipped)."""
    out: dict[int, int] = {}
    for e in deck.entries():
        if e.card_id is None:
            continue
        cid = canonical(e.card_id)
        out[cid] = out.get(cid, 0) + e.count
    return out


def _finding_key(f: Finding) -> tuple[Any, ...]:
    return (f.code, f.card_id, f.section, f.line, f.limit)


def deck_impact(
    diff: ListDiff,
    deck: Deck,
    fmt: Format,
    cards: Any,
    *,
    date: dt.date | None = None,
) -> DeckImpact:
    """Which of the deck's cards the diff touches, and its legality under both lists.

    Both validations use the same event date (default: the new list's effective date), so
    the only thing that differs between them is the list.
    """
    from deckcheck.engine import Engine
    from deckcheck.validate import Target, validate_deck

    when = date or diff.new.effective
    counts = deck_counts(deck, cards.canonical)
    touched = [DeckCardChange(c, counts[c.card_id]) for c in diff.changes if c.card_id in counts]
    engine = Engine(cards)
    before = validate_deck(engine, deck, Target(fmt, diff.old, when))
    after = validate_deck(engine, deck, Target(fmt, diff.new, when))
    seen = {_finding_key(f) for f in before.findings}
    reasons = tuple(f for f in after.findings if _finding_key(f) not in seen)
    still = {_finding_key(f) for f in after.findings}
    resolved = tuple(f for f in before.findings if _finding_key(f) not in still)
    return DeckImpact(
        source=deck.source,
        cards=tuple(touched),
        legal_before=bool(before.legal),
        legal_after=bool(after.legal),
        reasons=reasons,
        findings_after=tuple(after.findings),
        resolved=resolved,
    )
