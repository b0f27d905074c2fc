"""Plain, dependency-free records shared by every layer: cards, decks, lists, formats, findings.

Kept free of pydantic and yaml so the validate path starts fast (STYLE.md §10). The pydantic
models that check YAML files live in ``deckcheck.formats.schema`` and are converted to these.
"""

from __future__ import annotations

import datetime as dt
from enum import IntFlag
from functools import cached_property
from typing import Any, Literal, TypeVar

# re-exported: the services build their records with these, imported from here
from deckcheck.records import Record as Record
from deckcheck.records import field as field
from deckcheck.records import record as record

# --------------------------------------------------------------------------- cards


class Scope(IntFlag):
    """Dialect-independent legality scopes of a card (EDOPro's bit values, plus SC)."""

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

    @classmethod
    def from_names(cls, names: Any) -> Scope:
        out = cls(0)
        for n in names:
            out |= cls[n.upper()]
        return out

    def names(self) -> list[str]:
        return [m.name.lower() for m in Scope if m.name and m in self]


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
    scopes: Scope
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

    def __init__(
        self,
        id: int,
        name: str,
        canonical: int,
        alias_kind: AliasKind,
        type_bits: int,
        scopes: Scope,
        level: int = 0,
        atk: int = 0,
        defense: int = 0,
        race: int = 0,
        attribute: int = 0,
        ocg_date: dt.date | None = None,
        tcg_date: dt.date | None = None,
        md_date: dt.date | None = None,
        dl_date: dt.date | None = None,
        in_md: bool | None = None,
        in_dl: bool | None = None,
    ) -> None:
        d = self.__dict__
        d["id"] = id
        d["name"] = name
        d["canonical"] = canonical
        d["alias_kind"] = alias_kind
        d["type_bits"] = type_bits
        d["scopes"] = scopes
        d["level"] = level
        d["atk"] = atk
        d["defense"] = defense
        d["race"] = race
        d["attribute"] = attribute
        d["ocg_date"] = ocg_date
        d["tcg_date"] = tcg_date
        d["md_date"] = md_date
        d["dl_date"] = dl_date
        d["in_md"] = in_md
        d["in_dl"] = in_dl

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


_Self = TypeVar("_Self", bound="_Slotted")


class _Slotted:
    """Base of the mutable deck classes: what ``@dataclass(slots=True)`` gave them, without
    its cost at start-up (field equality, no hash, a field-by-field repr, ``replace``). The
    fields are the class's ``_fields`` (its ``__slots__``); its ``__init__`` is written out.
    A subclass that keeps its base's ``_fields`` (``decks.packed.PackedDeck``) is the same
    record: equal to its base's objects field by field, shown and copied as its base."""

    __slots__: tuple[str, ...] = ()
    _fields: tuple[str, ...] = ()
    #: the class ``repr`` names and ``replace`` builds (the class itself when None)
    _record_class: type[Any] | None = None

    def _astuple(self) -> tuple[Any, ...]:
        return tuple([getattr(self, n) for n in self._fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__ or (
            isinstance(other, _Slotted) and other._fields is self._fields
        ):
            return self._astuple() == other._astuple()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a non-frozen dataclass

    def __repr__(self) -> str:
        body = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
        return f"{(self._record_class or self.__class__).__name__}({body})"

    def replace(self: _Self, **changes: Any) -> _Self:
        """A copy with some fields changed (what ``dataclasses.replace`` gave)."""
        names = self._fields
        cls = self._record_class or self.__class__
        bad = [n for n in changes if n not in names]
        if bad:
            raise TypeError(f"{cls.__name__}.replace() got an unexpected field {bad[0]!r}")
        return cls(
            **{
                n: changes[n] if n in changes else getattr(self, n)  # type: ignore[no-any-return]
                for n in names
            }
        )


class DeckEntry(_Slotted):
    """One card line of a deck. ``count`` > 1 only for text lists ("3 Ash Blossom").

    A plain mutable class with ``__slots__`` (see ``_Slotted``): positional or keyword
    construction, field equality, no hash.
    """

    __slots__ = ("section", "card_id", "line", "count", "query", "raw")
    __match_args__ = ("section", "card_id", "line", "count", "query", "raw")
    _fields = __slots__

    section: Section
    card_id: int | None  # passcode as read; None while a text name is unresolved
    line: int | None  # 1-based line in the source; None for ydke:// input
    count: int
    query: str | None  # the name as written in a text list
    raw: str  # the line as written

    def __init__(
        self,
        section: Section,
        card_id: int | None,
        line: int | None,
        count: int = 1,
        query: str | None = None,
        raw: str = "",
    ):
        self.section = section
        self.card_id = card_id
        self.line = line
        self.count = count
        self.query = query
        self.raw = raw


class Deck(_Slotted):
    """A deck as read: entries per section in file order, plus problems found while reading.

    A plain mutable class with ``__slots__`` (see ``_Slotted``); each list field is a new
    list per deck unless given.
    """

    __slots__ = ("source", "main", "extra", "side", "findings", "kind", "comments")
    __match_args__ = ("source", "main", "extra", "side", "findings", "kind", "comments")
    _fields = __slots__

    source: str  # file path, "ydke://…", or "<stdin>"
    main: list[DeckEntry]
    extra: list[DeckEntry]
    side: list[DeckEntry]
    findings: list[Finding]  # DC101/DC102/DC103 from reading
    kind: str  # ydk | ydke | text
    comments: list[str]  # header comments to keep on rewrite

    def __init__(
        self,
        source: str,
        main: list[DeckEntry] | None = None,
        extra: list[DeckEntry] | None = None,
        side: list[DeckEntry] | None = None,
        findings: list[Finding] | None = None,
        kind: str = "ydk",
        comments: list[str] | None = None,
    ):
        self.source = source
        self.main = [] if main is None else main
        self.extra = [] if extra is None else extra
        self.side = [] if side is None else side
        self.findings = [] if findings is None else findings
        self.kind = kind
        self.comments = [] if comments is None else comments

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

    def __init__(
        self,
        code: str,
        rule: str,
        severity: Severity,
        message: str,
        section: Section | None = None,
        line: int | None = None,
        card_id: int | None = None,
        card_name: str | None = None,
        count: int | None = None,
        limit: int | None = None,
        candidates: tuple[tuple[int, str], ...] = (),
        waived: bool = False,
    ) -> None:
        d = self.__dict__
        d["code"] = code
        d["rule"] = rule
        d["severity"] = severity
        d["message"] = message
        d["section"] = section
        d["line"] = line
        d["card_id"] = card_id
        d["card_name"] = card_name
        d["count"] = count
        d["limit"] = limit
        d["candidates"] = candidates
        d["waived"] = waived

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

    def __init__(self, name: str, limit: int, cards: frozenset[int]) -> None:
        d = self.__dict__
        d["name"] = name
        d["limit"] = limit
        d["cards"] = cards


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

    def __init__(
        self,
        name: str,
        family: str,
        effective: dt.date,
        mode: Literal["blacklist", "whitelist"] = "blacklist",
        limits: dict[int, int] | None = None,
        names: dict[int, str] | None = None,
        groups: tuple[Group, ...] = (),
        points: dict[int, int] | None = None,
        source: str = "",
        path: str = "",
        date_exact: bool = True,
        announced: dt.date | None = None,
    ) -> None:
        d = self.__dict__
        d["name"] = name
        d["family"] = family
        d["effective"] = effective
        d["mode"] = mode
        d["limits"] = {} if limits is None else limits
        d["names"] = {} if names is None else names
        d["groups"] = groups
        d["points"] = {} if points is None else points
        d["source"] = source
        d["path"] = path
        d["date_exact"] = date_exact
        d["announced"] = announced

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

    def __init__(self, min: int = 0, max: int | None = None) -> None:
        d = self.__dict__
        d["min"] = min
        d["max"] = max

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

    def __init__(
        self,
        id: str,
        name: str,
        main: SizeRange = _MAIN,
        extra: SizeRange = _EXTRA,
        side: SizeRange = _SIDE,
        copies: int = 3,
        list_family: str | None = None,
        forbidden_as_limited: bool = False,
        pool: frozenset[str] = frozenset(),
        universe: frozenset[str] = frozenset({"ocg-tcg"}),
        game: str = "paper",
        release_region: str | None = None,
        release_cutoff: dt.date | None = None,
        skills: SizeRange | None = None,
        legend: LegendRule = "none",
        extra_deck_types: frozenset[str] = frozenset({"fusion", "synchro", "xyz", "link"}),
        banned_types: frozenset[str] = frozenset(),
        points_cap: int | None = None,
        stale_after: int | None = None,
        description: str = "",
        source: str = "",
        changes: tuple[tuple[dt.date, dict[str, Any]], ...] = (),
    ) -> None:
        d = self.__dict__
        d["id"] = id
        d["name"] = name
        d["main"] = main
        d["extra"] = extra
        d["side"] = side
        d["copies"] = copies
        d["list_family"] = list_family
        d["forbidden_as_limited"] = forbidden_as_limited
        d["pool"] = pool
        d["universe"] = universe
        d["game"] = game
        d["release_region"] = release_region
        d["release_cutoff"] = release_cutoff
        d["skills"] = skills
        d["legend"] = legend
        d["extra_deck_types"] = extra_deck_types
        d["banned_types"] = banned_types
        d["points_cap"] = points_cap
        d["stale_after"] = stale_after
        d["description"] = description
        d["source"] = source
        d["changes"] = changes

    def at(self, date: dt.date) -> Format:
        """The format with every change whose date is not after ``date`` applied."""
        out = self.replace(changes=())
        for since, overrides in self.changes:
            if since <= date:
                out = out.replace(**overrides)
        return out
