"""Plain, dependency-free records shared by every layer: cards, decks, lists, formats, findings.

Kept free of pydantic and yaml so the validate path starts fast (STYLE.md §10). The pydantic
models that check YAML files live in ``deckcheck.formats.schema`` and are converted to these.
"""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from typing import Any, Literal

# re-exported: the services build their records with these, imported from here
from deckcheck.records import Record as Record
from deckcheck.records import field as field
from deckcheck.records import record as record

# --------------------------------------------------------------------------- cards


class Scope:
    """Dialect-independent legality scopes of a card: EDOPro's bit values, plus SC. Plain
    ``int`` bits (a card's ``scopes`` is their union): an ``IntFlag`` cost 1.5M of a one-deck
    ``validate``'s 233M instructions to define (callgrind), and every rule that reads a card's
    scopes turned them into ints first; ``scope_bits``/``scope_names`` convert names."""

    OCG = 0x1
    TCG = 0x2
    ANIME = 0x4
    ILLEGAL = 0x8
    VIDEO_GAME = 0x10
    CUSTOM = 0x20
    SPEED = 0x40
    PRERELEASE = 0x100
    RUSH = 0x200
    LEGEND = 0x400
    SIMPLIFIED_CHINESE = 0x800  # YGOPro's 0x8 scope


#: scope name (lower case, as formats, ``card show`` and the sample write it) -> its bit
SCOPES: dict[str, int] = {n.lower(): b for n, b in vars(Scope).items() if n.isupper()}
#: every scope bit deckcheck knows
ALL_SCOPES = sum(SCOPES.values())


def scope_bits(names: Any) -> int:
    """The bits of scope names (any case); ``KeyError`` for a name that is not a scope."""
    out = 0
    for n in names:
        out |= SCOPES[n.lower()]
    return out


def scope_names(bits: int) -> list[str]:
    """The names of the scopes in ``bits``, in bit order (unknown bits are left out)."""
    return [n for n, b in SCOPES.items() if bits & b]


#: Scopes that make a card unofficial (DC503) when it has no OCG/TCG scope.
UNOFFICIAL = Scope.ANIME | Scope.CUSTOM | Scope.PRERELEASE | Scope.ILLEGAL | Scope.VIDEO_GAME

# EDOPro / YGOPro type bits (ProjectIgnis/CardScripts constant.lua).
TYPE_MONSTER = 0x1
TYPE_SPELL = 0x2
TYPE_TRAP = 0x4
TYPE_NORMAL = 0x10
TYPE_EFFECT = 0x20
TYPE_FUSION = 0x40
TYPE_RITUAL = 0x80
TYPE_TRAPMONSTER = 0x100
TYPE_SPIRIT = 0x200
TYPE_UNION = 0x400
TYPE_GEMINI = 0x800
TYPE_TUNER = 0x1000
TYPE_SYNCHRO = 0x2000
TYPE_TOKEN = 0x4000
TYPE_MAXIMUM = 0x8000
TYPE_QUICKPLAY = 0x10000
TYPE_CONTINUOUS = 0x20000
TYPE_EQUIP = 0x40000
TYPE_FIELD = 0x80000
TYPE_COUNTER = 0x100000
TYPE_FLIP = 0x200000
TYPE_TOON = 0x400000
TYPE_XYZ = 0x800000
TYPE_PENDULUM = 0x1000000
TYPE_SPSUMMON = 0x2000000
TYPE_LINK = 0x4000000
TYPE_SKILL = 0x8000000
TYPE_ACTION = 0x10000000

#: subtype name -> bit; the names used in formats (``banned_types``) and in ``card show``.
SUBTYPE_BITS: dict[str, int] = {
    "normal": TYPE_NORMAL,
    "effect": TYPE_EFFECT,
    "fusion": TYPE_FUSION,
    "ritual": TYPE_RITUAL,
    "spirit": TYPE_SPIRIT,
    "union": TYPE_UNION,
    "gemini": TYPE_GEMINI,
    "tuner": TYPE_TUNER,
    "synchro": TYPE_SYNCHRO,
    "maximum": TYPE_MAXIMUM,
    "quick-play": TYPE_QUICKPLAY,
    "continuous": TYPE_CONTINUOUS,
    "equip": TYPE_EQUIP,
    "field": TYPE_FIELD,
    "counter": TYPE_COUNTER,
    "flip": TYPE_FLIP,
    "toon": TYPE_TOON,
    "xyz": TYPE_XYZ,
    "pendulum": TYPE_PENDULUM,
    "link": TYPE_LINK,
}

EXTRA_DECK_BITS = TYPE_FUSION | TYPE_SYNCHRO | TYPE_XYZ | TYPE_LINK

CardKind = Literal["monster", "spell", "trap", "token", "skill", "other"]
AliasKind = Literal["none", "artwork", "treated_as"]


def kind_of(type_bits: int) -> CardKind:
    """Card kind from EDOPro type bits (token and skill win over monster/spell)."""
    if type_bits & TYPE_TOKEN:
        return "token"
    if type_bits & TYPE_SKILL:
        return "skill"
    if type_bits & TYPE_MONSTER:
        return "monster"
    if type_bits & TYPE_SPELL:
        return "spell"
    if type_bits & TYPE_TRAP:
        return "trap"
    return "other"


@record
class Card(Record):
    """One passcode of the card database, with its canonical identity decided once."""

    id: int
    name: str  # English (or best available) name
    canonical: int  # id whose copies and list status this card shares
    alias_kind: AliasKind
    type_bits: int
    scopes: int  # Scope bits
    level: int = 0
    atk: int = 0
    defense: int = 0
    race: int = 0
    attribute: int = 0
    ocg_date: dt.date | None = None
    tcg_date: dt.date | None = None
    md_date: dt.date | None = None  # first in Master Duel (official release data)
    dl_date: dt.date | None = None  # first in Duel Links (official release data)
    # in the video game by the official card data (deckcheck.carddb.games): True, False (a
    # source knows the card and none puts it there), None (no source knows the card)
    in_md: bool | None = None
    in_dl: bool | None = None

    @cached_property
    def kind(self) -> CardKind:
        """Computed once per card (then a plain attribute): rules ask it for every entry."""
        return kind_of(self.type_bits)

    @property
    def is_extra_deck_monster(self) -> bool:
        """Fusion, Synchro, Xyz, Link (and their Pendulum forms)."""
        return bool(self.type_bits & TYPE_MONSTER and self.type_bits & EXTRA_DECK_BITS)

    def has_type(self, subtype: str) -> bool:
        if subtype in ("monster", "spell", "trap", "token", "skill"):
            return self.kind == subtype
        return bool(self.type_bits & SUBTYPE_BITS[subtype])

    @property
    def subtypes(self) -> list[str]:
        return [n for n, b in SUBTYPE_BITS.items() if self.type_bits & b]


# --------------------------------------------------------------------------- decks

Section = Literal["main", "extra", "side"]
SECTIONS: tuple[Section, ...] = ("main", "extra", "side")
#: (every passcode, Main then Extra then Side; Main's count; Extra's count; the 0-based row
#: of each, its line number less one): a deck of one copy per line, packed (``Deck.packed``)
Packed = tuple[list[int], int, int, list[int]]


@record(frozen=False, slots=True)
class DeckEntry(Record):
    """One card line of a deck. ``count`` > 1 only for text lists ("3 Ash Blossom").

    Mutable, with ``__slots__`` (a deck has one per line): field equality, no hash.
    """

    section: Section
    card_id: int | None  # passcode as read; None while a text name is unresolved
    line: int | None  # 1-based line in the source; None for ydke:// input
    count: int = 1
    query: str | None = None  # the name as written in a text list
    raw: str = ""  # the line as written


@record(frozen=False, slots=True)
class Deck(Record):
    """A deck as read: entries per section in file order, plus problems found while reading.

    Mutable, with ``__slots__``; each list field is a new list per deck unless given.
    """

    source: str  # file path, "ydke://…", or "<stdin>"
    main: list[DeckEntry] = field(default_factory=list)
    extra: list[DeckEntry] = field(default_factory=list)
    side: list[DeckEntry] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # DC101/DC102/DC103 from reading
    kind: str = "ydk"  # ydk | ydke | text
    comments: list[str] = field(default_factory=list)  # header comments to keep on rewrite

    def section(self, name: Section) -> list[DeckEntry]:
        return getattr(self, name)  # type: ignore[no-any-return]

    def packed(self) -> Packed | None:
        """The deck's passcodes as arrays, when a reader holds them so and nothing has read
        the entries yet (``decks.packed.PackedDeck``); None for a deck of entries."""
        return None

    def entries(self) -> list[DeckEntry]:
        return [*self.main, *self.extra, *self.side]

    def counts(self) -> dict[str, int]:
        return {s: sum(e.count for e in self.section(s)) for s in SECTIONS}


# --------------------------------------------------------------------------- findings

Severity = Literal["error", "warning"]


@record
class Finding(Record):
    """One reason a deck is not legal (or a warning). The record every renderer reads."""

    code: str  # DCnnn (SPEC.md §5)
    rule: str  # short rule name, e.g. "limited"
    severity: Severity
    message: str  # a sentence a player understands
    section: Section | None = None
    line: int | None = None
    card_id: int | None = None
    card_name: str | None = None
    count: int | None = None
    limit: int | None = None
    candidates: tuple[tuple[int, str], ...] = ()  # (id, name) for DC102/DC103
    waived: bool = False  # --ignore/--select: shown, but it does not make the deck fail

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "section": self.section,
            "line": self.line,
        }
        if self.card_id is not None:
            out["card"] = {"id": self.card_id, "name": self.card_name}
        if self.count is not None:
            out["count"] = self.count
        if self.limit is not None:
            out["limit"] = self.limit
        if self.candidates:
            out["candidates"] = [{"id": i, "name": n} for i, n in self.candidates]
        if self.waived:
            out["waived"] = True
        return out


# --------------------------------------------------------------------------- lists

#: a list's number for a card (copies allowed) -> the name of that status, as players say it.
STATUS_NAMES: dict[int, str] = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}


@record
class Group(Record):
    """At most ``limit`` cards in total (each copy counting) from ``cards`` (Limited 1/2/3)."""

    name: str
    limit: int
    cards: frozenset[int]


@record
class Banlist(Record):
    """One version of a Forbidden/Limited list, keyed by canonical passcode."""

    name: str  # e.g. "2026.05 TCG"
    family: str  # tcg, ocg, speed, goat, dm6 …
    effective: dt.date
    mode: Literal["blacklist", "whitelist"] = "blacklist"
    limits: dict[int, int] = field(default_factory=dict)  # passcode -> 0/1/2/3
    names: dict[int, str] = field(default_factory=dict)  # passcode -> name, for humans
    groups: tuple[Group, ...] = ()
    points: dict[int, int] = field(default_factory=dict)  # Genesys points per copy
    source: str = ""
    path: str = ""  # file it was loaded from
    date_exact: bool = True  # False when only the month was known
    announced: dt.date | None = None  # when Konami announced it, where known (DC601)

    def limit_of(self, canonical: int) -> int | None:
        """Copies allowed by the list (None: not listed). Whitelist: unlisted means 0."""
        got = self.limits.get(canonical)
        if got is None and self.mode == "whitelist":
            return 0
        return got

    @property
    def label(self) -> str:
        return f"{self.name} (effective {self.effective.isoformat()})"


# --------------------------------------------------------------------------- formats


@record
class SizeRange(Record):
    """How many cards a section holds: ``min`` to ``max`` (None: no upper limit)."""

    min: int = 0
    max: int | None = None  # None: no upper limit

    def contains(self, n: int) -> bool:
        return n >= self.min and (self.max is None or n <= self.max)

    def __str__(self) -> str:
        if self.max is None:
            return f"at least {self.min}"
        if self.min == self.max:
            return f"exactly {self.min}"
        return f"{self.min}–{self.max}"


LegendRule = Literal["none", "one_total", "one_per_type"]
#: a format's default section sizes (its fields' defaults)
_MAIN, _EXTRA, _SIDE = SizeRange(40, 60), SizeRange(0, 15), SizeRange(0, 15)


@record
class Format(Record):
    """A format on one date: sizes, copies, pool and the list family that applies.

    ``changes`` holds date-dependent overrides ((from_date, {field: value}), oldest first);
    call ``at(date)`` to get the rules in force on an event date.
    """

    id: str
    name: str
    main: SizeRange = _MAIN
    extra: SizeRange = _EXTRA
    side: SizeRange = _SIDE
    copies: int = 3
    list_family: str | None = None  # None: the format has no list
    forbidden_as_limited: bool = False  # Traditional
    pool: frozenset[str] = frozenset()  # scopes a card needs one of (e.g. {"tcg"}); empty: any
    #: card universes admitted: "ocg-tcg" (OCG/TCG cards), "rush" (Rush Duel cards); DC504
    universe: frozenset[str] = frozenset({"ocg-tcg"})
    game: str = "paper"  # whose card pool: "paper", "master-duel", "duel-links" (DC504)
    release_region: str | None = None  # "tcg"/"ocg": release dates that DC502 checks
    release_cutoff: dt.date | None = None  # cards released after this are out (retro formats)
    skills: SizeRange | None = None  # None: skill cards not allowed
    legend: LegendRule = "none"
    extra_deck_types: frozenset[str] = frozenset({"fusion", "synchro", "xyz", "link"})
    banned_types: frozenset[str] = frozenset()
    points_cap: int | None = None
    #: a maintained format's lists: days after its newest list that make it stale (DC602)
    stale_after: int | None = None
    description: str = ""
    source: str = ""
    changes: tuple[tuple[dt.date, dict[str, Any]], ...] = ()

    def at(self, date: dt.date) -> Format:
        """The format with every change whose date is not after ``date`` applied."""
        out = self.replace(changes=())
        for since, overrides in self.changes:
            if since <= date:
                out = out.replace(**overrides)
        return out
