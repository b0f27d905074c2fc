"""Evaluation of a parsed search query over the card table: one row per card as lookup shows
it (artworks merged), read from the database in one pass, filtered in memory."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from deckcheck.model import (
    SUBTYPE_BITS,
    TYPE_LINK,
    TYPE_MONSTER,
    TYPE_PENDULUM,
    TYPE_XYZ,
    Card,
    kind_of,
    scope_names,
)
from deckcheck.records import Record, record
from deckcheck.search.query import ATTRIBUTES, RACES, And, Node, Not, Or, QueryError, Term, compare

_ATTR_NAME = {v: k.upper() for k, v in ATTRIBUTES.items()}
_RACE_NAME = {v: k for k, v in RACES.items()}


@record
class Row(Record):
    """One card of the table (the columns ``card search`` shows and filters)."""

    id: int
    type_bits: int
    scopes: int
    level: int  # raw EDOPro level field (scales in the high bytes)
    atk: int
    defense: int
    race: int
    attribute: int
    ocg_date: str | None
    tcg_date: str | None

    @property
    def kind(self) -> str:
        return kind_of(self.type_bits)

    @property
    def is_monster(self) -> bool:
        return bool(self.type_bits & TYPE_MONSTER)

    @property
    def stars(self) -> int:
        return self.level & 0xFFFF

    @property
    def scale(self) -> int | None:
        return (self.level >> 24) & 0xFF if self.type_bits & TYPE_PENDULUM else None

    def card(self) -> Card:
        from deckcheck.dates import parse_date

        return Card(
            id=self.id,
            name="",
            canonical=self.id,
            alias_kind="none",
            type_bits=self.type_bits,
            scopes=self.scopes,
            level=self.level,
            atk=self.atk,
            defense=self.defense,
            race=self.race,
            attribute=self.attribute,
            ocg_date=parse_date(self.ocg_date) if self.ocg_date else None,
            tcg_date=parse_date(self.tcg_date) if self.tcg_date else None,
        )

    def type_text(self) -> str:
        subs = [n for n, b in SUBTYPE_BITS.items() if self.type_bits & b]
        return "/".join([self.kind, *subs]) if subs else self.kind

    def attr_text(self) -> str:
        return _ATTR_NAME.get(self.attribute, "") if self.is_monster else ""

    def race_text(self) -> str:
        if not self.is_monster:
            return ""
        return "/".join(n for b, n in _RACE_NAME.items() if self.race & b)

    def level_text(self) -> str:
        if not self.is_monster:
            return ""
        if self.type_bits & TYPE_LINK:
            return f"L{self.stars}"
        if self.type_bits & TYPE_XYZ:
            return f"R{self.stars}"
        return str(self.stars)

    def scope_text(self) -> str:
        return ",".join(scope_names(self.scopes))

    def atk_text(self) -> str:
        return ("?" if self.atk < 0 else str(self.atk)) if self.is_monster else ""

    def def_text(self) -> str:
        if not self.is_monster or self.type_bits & TYPE_LINK:
            return ""
        return "?" if self.defense < 0 else str(self.defense)


def load_rows(db: Any) -> list[Row]:
    """Every card once (the passcode lookup shows it under), in passcode order."""
    from deckcheck.sqlite import connect_ro

    conn = connect_ro(db.path)
    try:
        cols = {r[1] for r in conn.execute("PRAGMA table_info(cards)")}
        where = "WHERE name_key = id" if "name_key" in cols else ""
        rows = conn.execute(
            "SELECT id, type_bits, scopes, level, atk, def, race, attribute, ocg_date, "
            f"tcg_date FROM cards {where} ORDER BY id"
        ).fetchall()
    finally:
        conn.close()
    out = [Row(*r) for r in rows]
    if "name_key" not in cols:  # a schema-1 database: the keys are computed by carddb
        out = [r for r in out if db.name_key(r.id) == r.id]
    return out


class Context:
    """What terms beyond the card's own fields need: names, formats, lists, releases."""

    def __init__(
        self, db: Any, index: Any, date: dt.date, notes: Callable[[str], None] | None = None
    ):
        self.db, self.index, self.date = db, index, date
        self._note = notes or (lambda _t: None)
        self._formats: dict[str, Any] | None = None
        self._lists: dict[str, Any] = {}
        self._name_hits: dict[str, set[int]] = {}
        self._noted: set[str] = set()

    def note_once(self, text: str) -> None:
        if text not in self._noted:
            self._noted.add(text)
            self._note(text)

    def name_cards(self, word: str) -> set[int]:
        got = self._name_hits.get(word)
        if got is None:
            got = self._name_hits[word] = set(self.index.cards_with_name_containing(word))
        return got

    def knowledge(self, term: Term) -> set[int]:
        """The cards (name keys) an ``arch:``, ``set:`` or ``o:`` term names
        (``deckcheck.carddb.facts``): an unknown name or missing data is a QueryError
        naming the closest names or the source to install."""
        from deckcheck.carddb import facts
        from deckcheck.errors import DataError

        v = str(term.value)
        try:
            if term.key == "arch":
                return facts.archetype_cards(self.db, facts.find_archetypes(self.db, v))
            if term.key == "set":
                return facts.set_cards(self.db, v)
            return facts.text_cards(self.db, v)
        except DataError as exc:
            raise QueryError(term.text, exc.message) from None

    def format(self, term: Term) -> Any:
        if self._formats is None:
            from deckcheck.formats import load_formats

            self._formats = load_formats()
        fid = term.arg or ""
        fmt = self._formats.get(fid)
        if fmt is None:
            known = ", ".join(sorted(self._formats))
            raise QueryError(term.text, f"unknown format {fid!r} (known: {known})")
        return fmt.at(self.date)

    def banlist(self, term: Term, family: str) -> Any:
        if family not in self._lists:
            from deckcheck.formats.catalog import ListStore

            store = ListStore.default()
            if family not in store.families():
                known = ", ".join(store.families())
                raise QueryError(term.text, f"no {family!r} lists installed (families: {known})")
            self._lists[family] = store.in_force(family, self.date)
        return self._lists[family]


def evaluate(node: Node, rows: Iterable[Row], ctx: Context) -> list[Row]:
    """The rows ``node`` admits, in order."""
    pred = _compile(node, ctx)
    return [r for r in rows if pred(r)]


def _compile(node: Node, ctx: Context) -> Callable[[Row], bool]:
    if isinstance(node, Not):
        inner = _compile(node.node, ctx)
        return lambda r: not inner(r)
    if isinstance(node, And):
        # Cheap terms first: format and list terms build a card record per row.
        nodes = sorted(node.nodes, key=_cost)
        parts = [_compile(n, ctx) for n in nodes]
        return lambda r: all(p(r) for p in parts)
    if isinstance(node, Or):
        parts = [_compile(n, ctx) for n in node.nodes]
        return lambda r: any(p(r) for p in parts)
    return _term(node, ctx)


def _cost(node: Node) -> int:
    if isinstance(node, Term):
        if node.key in ("format", "legal"):
            return 2
        return 1 if node.key in ("limit", "released") else 0
    if isinstance(node, Not):
        return _cost(node.node)
    return max(_cost(n) for n in node.nodes)


def _monster_number(get: Callable[[Row], int | None], op: str, v: int) -> Callable[[Row], bool]:
    def pred(r: Row) -> bool:
        got = get(r)
        return got is not None and compare(got, op, v)

    return pred


def _term(t: Term, ctx: Context) -> Callable[[Row], bool]:
    k, op, v = t.key, t.op, t.value
    neg = op == "!="
    if k == "type":
        name = str(v)
        if name == "extra":
            from deckcheck.model import EXTRA_DECK_BITS

            def has(r: Row) -> bool:
                return bool(r.type_bits & TYPE_MONSTER and r.type_bits & EXTRA_DECK_BITS)
        elif name == "main":
            from deckcheck.model import EXTRA_DECK_BITS

            def has(r: Row) -> bool:
                return r.kind in ("monster", "spell", "trap") and not (
                    r.type_bits & TYPE_MONSTER and r.type_bits & EXTRA_DECK_BITS
                )
        elif name in ("monster", "spell", "trap", "token", "skill"):

            def has(r: Row) -> bool:
                return r.kind == name
        else:
            bit = SUBTYPE_BITS[name]

            def has(r: Row) -> bool:
                return bool(r.type_bits & bit)

        return (lambda r: not has(r)) if neg else has
    if k == "attr":
        bit = int(v)  # type: ignore[call-overload]
        if neg:
            return lambda r: r.is_monster and r.attribute != bit
        return lambda r: r.is_monster and r.attribute == bit
    if k == "race":
        bit = int(v)  # type: ignore[call-overload]
        if neg:
            return lambda r: r.is_monster and not r.race & bit
        return lambda r: r.is_monster and bool(r.race & bit)
    if k == "name":
        from deckcheck.lookup import normalize

        key = normalize(str(v))
        if not key:
            raise QueryError(t.text, "the name folds to nothing (only punctuation?)")
        hits = ctx.name_cards(key)
        if neg:
            return lambda r: r.id not in hits
        return lambda r: r.id in hits
    if k in ("atk", "def", "level", "rank", "link", "scale", "id"):
        n = int(v)  # type: ignore[call-overload]
        getters: dict[str, Callable[[Row], int | None]] = {
            "atk": lambda r: r.atk if r.is_monster else None,
            "def": lambda r: r.defense if r.is_monster and not r.type_bits & TYPE_LINK else None,
            "level": lambda r: (
                r.stars if r.is_monster and not r.type_bits & (TYPE_LINK | TYPE_XYZ) else None
            ),
            "rank": lambda r: r.stars if r.is_monster and r.type_bits & TYPE_XYZ else None,
            "link": lambda r: r.stars if r.is_monster and r.type_bits & TYPE_LINK else None,
            "scale": lambda r: r.scale,
            "id": lambda r: r.id,
        }
        return _monster_number(getters[k], ":" if op == ":" else op, n)
    if k in ("format", "legal"):
        from deckcheck.search.status import in_pool

        fmt = ctx.format(t)
        bl = ctx.banlist(t, fmt.list_family) if fmt.list_family else None
        legal = k == "legal"

        def ok(r: Row) -> bool:
            if in_pool(r.card(), fmt, bl, ctx.date) is not None:
                return False
            if legal and bl is not None:
                lim = bl.limit_of(r.id)
                return lim is None or lim > 0
            return True

        return (lambda r: not ok(r)) if neg else ok
    if k == "limit":
        family = t.arg or ""
        bl = ctx.banlist(t, family)
        if bl is None:
            ctx.note_once(
                f"no {family} list in force on {ctx.date.isoformat()}: {t.text} matches nothing"
            )
            return lambda r: False
        n = int(v)  # type: ignore[call-overload]

        def lim(r: Row) -> bool:
            got = bl.limit_of(r.id)
            if got is None:
                got = 3  # not listed: unlimited
            return compare(got, op, n)

        return lim
    if k == "released":
        return _released(t, ctx)
    if k == "order":  # sorting, not a filter (search.run_sorted applies it)
        return lambda r: True
    if k in ("arch", "set", "o"):
        hits = ctx.knowledge(t)
        return lambda r: r.id in hits
    raise QueryError(t.text, "not supported")  # pragma: no cover - parse() knows every key


def _released(t: Term, ctx: Context) -> Callable[[Row], bool]:
    db = ctx.db
    region = t.arg
    first_release = getattr(db, "first_release", None)
    has_official = callable(first_release) and bool(getattr(db, "_official", True))
    if region is not None and region not in ("ocg", "tcg", "jp") and not has_official:
        raise QueryError(t.text, f"unknown region {region!r} (ocg, tcg)")
    if not has_official:
        ctx.note_once(
            "official release data is not installed: release dates come from the card "
            "database's own ocg/tcg dates, which only curated data has; cards without a date "
            "never match a released term"
        )
    day = t.value

    def date_of(r: Row) -> dt.date | None:
        if has_official:
            assert first_release is not None
            if region:
                return first_release(r.id, region)  # type: ignore[no-any-return]
            got = [d for d in (first_release(r.id, "ocg"), first_release(r.id, "tcg")) if d]
            return min(got) if got else None
        from deckcheck.dates import parse_date

        pick = {"ocg": [r.ocg_date], "jp": [r.ocg_date], "tcg": [r.tcg_date]}.get(
            region or "", [r.ocg_date, r.tcg_date]
        )
        got = [d for d in (parse_date(x) for x in pick if x) if d]
        return min(got) if got else None

    def pred(r: Row) -> bool:
        d = date_of(r)
        return d is not None and compare(d, t.op, day)

    return pred
