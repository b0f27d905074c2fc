"""The card search language (docs/SEARCH.md): a query string parsed into a tree of terms.

Grammar (Scryfall-like; words are ANDed, ``or`` binds looser, ``-`` negates, parentheses
group)::

    query   := and ("or" and)*
    and     := unary+
    unary   := "-" unary | "(" query ")" | term
    term    := KEY OP VALUE | WORD | "quoted phrase"
    OP      := ":" | "=" | "!=" | ">=" | "<=" | ">" | "<"

Every error names the term and the reason (``QueryError``, exit 2); evaluation is
``deckcheck.search.table``.
"""

from __future__ import annotations

import datetime as dt
import re

from deckcheck.errors import InputError
from deckcheck.model import SUBTYPE_BITS
from deckcheck.records import Record, record


class QueryError(InputError):
    """A query that cannot be read: names the term and why (exit 2)."""

    def __init__(self, term: str, reason: str):
        super().__init__(f"search term {term!r}: {reason}", where="query")
        self.term = term


#: Attribute name -> EDOPro attribute bit.
ATTRIBUTES = {
    "earth": 0x1,
    "water": 0x2,
    "fire": 0x4,
    "wind": 0x8,
    "light": 0x10,
    "dark": 0x20,
    "divine": 0x40,
}
#: Monster type ("race") name -> EDOPro race bit (ProjectIgnis constant.lua).
RACES = {
    "warrior": 0x1,
    "spellcaster": 0x2,
    "fairy": 0x4,
    "fiend": 0x8,
    "zombie": 0x10,
    "machine": 0x20,
    "aqua": 0x40,
    "pyro": 0x80,
    "rock": 0x100,
    "winged-beast": 0x200,
    "plant": 0x400,
    "insect": 0x800,
    "thunder": 0x1000,
    "dragon": 0x2000,
    "beast": 0x4000,
    "beast-warrior": 0x8000,
    "dinosaur": 0x10000,
    "fish": 0x20000,
    "sea-serpent": 0x40000,
    "reptile": 0x80000,
    "psychic": 0x100000,
    "divine-beast": 0x200000,
    "creator-god": 0x400000,
    "wyrm": 0x800000,
    "cyberse": 0x1000000,
    "illusion": 0x2000000,
    "cyborg": 0x4000000,
    "magical-knight": 0x8000000,
    "high-dragon": 0x10000000,
    "omega-psychic": 0x20000000,
    "celestial-warrior": 0x40000000,
    "galaxy": 0x80000000,
}
_RACE_ALIASES = {
    "winged": "winged-beast",
    "wingedbeast": "winged-beast",
    "beastwarrior": "beast-warrior",
    "seaserpent": "sea-serpent",
    "divine": "divine-beast",
    "caster": "spellcaster",
}
#: Card kinds and subtypes ``t:`` accepts.
TYPES = ("monster", "spell", "trap", "token", "skill", *SUBTYPE_BITS)
_TYPE_ALIASES = {
    "quickplay": "quick-play",
    "quick": "quick-play",
    "fusions": "fusion",
    "extra": "extra",
    "main": "main",
}

#: Keys and what they compare (documented in docs/SEARCH.md).
NUMERIC = {
    "atk": "atk",
    "def": "def",
    "lv": "level",
    "level": "level",
    "rank": "rank",
    "link": "link",
    "scale": "scale",
    "id": "id",
}
KEYS = (
    "t",
    "type",
    "attr",
    "attribute",
    "a",
    "race",
    "r",
    "name",
    "n",
    *NUMERIC,
    "f",
    "format",
    "legal",
    "banned",
    "limit",
    "released",
    "arch",
    "archetype",
    "set",
    "o",
    "oracle",
    "text",
    "order",
    "sort",
)
#: What results can be sorted by (``--sort``, ``order:``); ``-KEY`` or ``KEY-desc``: descending.
SORT_KEYS = ("name", "atk", "def", "level", "released", "id")

_OPS = ("!=", ">=", "<=", ":", "=", ">", "<")
_TERM_RE = re.compile(r"^([A-Za-z][A-Za-z_-]*)(!=|>=|<=|:|=|>|<)(.*)$")


@record
class Term(Record):
    """One filter: ``key op value`` (key canonical, value parsed)."""

    text: str  # as written, for messages
    key: str  # type | attr | race | name | level | rank | link | scale | atk | def | id |
    #           format | legal | limit | released
    op: str  # ":", "=", "!=", ">=", "<=", ">", "<"
    value: object
    arg: str | None = None  # format / region a term is about (f:, banned:, limit:, released)


@record
class Order(Record):
    """How results are sorted: ``key`` of SORT_KEYS, descending or not."""

    key: str = "name"
    desc: bool = False


def parse_order(text: str, where: str = "--sort") -> Order:
    """``name``, ``atk``, ``-atk``, ``atk-desc``, ``atk desc``, ``atk:asc`` … as an Order;
    QueryError naming the known keys otherwise."""
    v = " ".join(text.strip().lower().split())
    desc = False
    if v.startswith("-"):
        desc, v = True, v[1:]
    for sep in (" ", "-", ":", "."):
        for word, d in (("desc", True), ("asc", False)):
            if v.endswith(sep + word):
                desc, v = d, v[: -len(sep + word)]
    v = {"lv": "level", "rank": "level", "link": "level", "date": "released"}.get(v, v)
    if v not in SORT_KEYS:
        raise QueryError(
            f"{where}:{text}" if where == "order" else text,
            f"cannot sort by {text!r} (known: {', '.join(SORT_KEYS)}; -KEY or 'KEY desc' "
            "for descending)",
        )
    return Order(v, desc)


def split_order(node: Node) -> tuple[Node | None, Order | None]:
    """The query without its ``order:`` term, and that order (a top-level term only: an
    ``order:`` inside ``or``, ``-`` or parentheses is a QueryError). A query of only an
    ``order:`` term is None: every card."""

    def bad(n: Node) -> None:
        for t in _terms(n):
            if t.key == "order":
                raise QueryError(t.text, "order: goes at the top level of a query, not in or/-/()")

    parts = node.nodes if isinstance(node, And) else (node,)
    orders = [p for p in parts if isinstance(p, Term) and p.key == "order"]
    rest = [p for p in parts if not (isinstance(p, Term) and p.key == "order")]
    for p in rest:
        bad(p)
    if len(orders) > 1:
        raise QueryError(orders[1].text, "one order: per query")
    order = orders[0].value if orders else None
    assert order is None or isinstance(order, Order)
    if not rest:
        return None, order
    return (rest[0] if len(rest) == 1 else And(tuple(rest))), order


def _terms(n: Node) -> list[Term]:
    if isinstance(n, Term):
        return [n]
    if isinstance(n, Not):
        return _terms(n.node)
    return [t for c in n.nodes for t in _terms(c)]


@record
class Not(Record):
    node: Node


@record
class And(Record):
    nodes: tuple[Node, ...]


@record
class Or(Record):
    nodes: tuple[Node, ...]


Node = Term | Not | And | Or


def tokenize(text: str) -> list[str]:
    """Words, quoted phrases (kept with their quotes), ``(``, ``)``."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "()":
            out.append(ch)
            i += 1
            continue
        j = i
        buf = []
        while j < n and not text[j].isspace() and text[j] not in "()":
            if text[j] == '"':
                k = text.find('"', j + 1)
                if k == -1:
                    raise QueryError(text[i:], "unclosed quote")
                buf.append(text[j : k + 1])
                j = k + 1
            else:
                buf.append(text[j])
                j += 1
        out.append("".join(buf))
        i = j
    return out


def is_query(text: str) -> bool:
    """True when ``text`` uses the search language (a filter, ``or``, ``-`` or parentheses)
    rather than being a plain card name."""
    try:
        toks = tokenize(text)
    except QueryError:
        return False
    if toks.count("(") != toks.count(")"):
        # card names hold balanced parentheses ("… (Pre-Errata)"), never a lone one: the
        # query parser says what is wrong (exit 2) instead of a search for no name (issue 32)
        return True
    for t in toks:
        m = _TERM_RE.match(t)
        if m and m.group(1).lower() in KEYS:
            return True
        if t.lower() == "or" and len(toks) > 1:
            return True
        if t.startswith("-") and len(t) > 1 and _TERM_RE.match(t[1:]):
            return True
    return False


def parse(text: str) -> Node:
    """The tree of ``text``; raises ``QueryError`` naming the bad term."""
    toks = tokenize(text)
    if not toks:
        raise QueryError(text, "empty query")
    pos = 0

    def peek() -> str | None:
        return toks[pos] if pos < len(toks) else None

    def query() -> Node:
        nonlocal pos
        parts = [conj()]
        while peek() is not None and peek().lower() == "or":  # type: ignore[union-attr]
            pos += 1
            if peek() is None or peek() == ")":
                raise QueryError("or", "nothing after 'or'")
            parts.append(conj())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def conj() -> Node:
        parts: list[Node] = []
        while True:
            t = peek()
            if t is None or t == ")" or t.lower() == "or":
                break
            parts.append(unary())
        if not parts:
            raise QueryError(peek() or text, "expected a term")
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def unary() -> Node:
        nonlocal pos
        t = peek()
        assert t is not None
        if t == "(":
            pos += 1
            inner = query()
            if peek() != ")":
                raise QueryError("(", "unclosed parenthesis")
            pos += 1
            return inner
        if t == "-" or (t.startswith("-") and len(t) > 1):
            if t == "-":
                pos += 1
                if peek() is None:
                    raise QueryError("-", "nothing to negate")
                return Not(unary())
            toks[pos] = t[1:]
            return Not(unary())
        pos += 1
        return term(t)

    node = query()
    if pos != len(toks):
        raise QueryError(toks[pos], "unexpected here (a ')' without '('?)")
    return node


def _unquote(v: str) -> str:
    return v[1:-1] if len(v) >= 2 and v[0] == '"' and v[-1] == '"' else v


def _number(term: str, what: str, v: str) -> int:
    v = v.strip()
    if v == "?":
        return -2  # "?" ATK/DEF as EDOPro stores it
    try:
        return int(v)
    except ValueError:
        raise QueryError(term, f"{what} wants a whole number, not {v!r}") from None


def term(tok: str) -> Term:
    m = _TERM_RE.match(tok)
    if not m or m.group(1).lower() not in KEYS:
        if m and not tok.startswith('"'):
            known = ", ".join(sorted(set(KEYS)))
            raise QueryError(tok, f"unknown key {m.group(1)!r} (known: {known})")
        word = _unquote(tok)
        if not word.strip():
            raise QueryError(tok, "empty name")
        return Term(tok, "name", ":", word)
    key, op, raw = m.group(1).lower(), m.group(2), _unquote(m.group(3))
    if raw == "" and key != "released":
        raise QueryError(tok, "no value after the operator")
    eq = op in (":", "=", "!=")
    if key in ("t", "type"):
        if not eq:
            raise QueryError(tok, "a type is compared with ':', '=' or '!='")
        v = raw.lower()
        v = _TYPE_ALIASES.get(v, v)
        if v not in TYPES and v not in ("main", "extra"):
            raise QueryError(tok, f"unknown type {raw!r} (known: {', '.join(TYPES)})")
        return Term(tok, "type", op, v)
    if key in ("attr", "attribute", "a"):
        if not eq:
            raise QueryError(tok, "an attribute is compared with ':', '=' or '!='")
        v = raw.lower()
        if v not in ATTRIBUTES:
            raise QueryError(tok, f"unknown attribute {raw!r} (known: {', '.join(ATTRIBUTES)})")
        return Term(tok, "attr", op, ATTRIBUTES[v])
    if key in ("race", "r"):
        if not eq:
            raise QueryError(tok, "a monster type is compared with ':', '=' or '!='")
        v = raw.lower().replace(" ", "-").replace("_", "-")
        v = _RACE_ALIASES.get(v.replace("-", ""), _RACE_ALIASES.get(v, v))
        if v not in RACES:
            raise QueryError(tok, f"unknown monster type {raw!r} (known: {', '.join(RACES)})")
        return Term(tok, "race", op, RACES[v])
    if key in ("name", "n"):
        if not eq:
            raise QueryError(tok, "a name is compared with ':', '=' or '!='")
        return Term(tok, "name", op, raw)
    if key in NUMERIC:
        return Term(tok, NUMERIC[key], op, _number(tok, key.upper(), raw))
    if key in ("arch", "archetype", "set", "o", "oracle", "text", "order", "sort"):
        if op not in (":", "="):
            raise QueryError(tok, f"{key}: takes ':' (a name, code or words after it)")
        if not raw.strip():
            raise QueryError(tok, "no value after the operator")
        if key in ("order", "sort"):
            return Term(tok, "order", ":", parse_order(raw, "order"))
        canon = {"archetype": "arch", "oracle": "o", "text": "o"}.get(key, key)
        return Term(tok, canon, ":", raw)
    if key in ("f", "format", "legal"):
        if not eq:
            raise QueryError(tok, "a format is named with ':'")
        return Term(tok, "format" if key != "legal" else "legal", op, True, raw.lower())
    if key == "banned":
        if not eq:
            raise QueryError(tok, "a list family is named with ':'")
        return Term(tok, "limit", "=", 0, raw.lower())
    if key == "limit":
        # limit:tcg=1, limit:ocg<=2
        mm = re.match(r"^([A-Za-z0-9_-]+)(!=|>=|<=|=|>|<)(\d)$", raw) if op == ":" else None
        if mm is None:
            raise QueryError(tok, "write limit:FAMILY=N (e.g. limit:tcg=1, limit:ocg<=2)")
        return Term(tok, "limit", mm.group(2), int(mm.group(3)), mm.group(1).lower())
    # released<2010-01-01, released:tcg<2010-01-01, released>=2020
    region = None
    if op == ":":
        mm = re.match(r"^([A-Za-z]+)(!=|>=|<=|=|>|<)(.*)$", raw)
        if mm is None:
            raise QueryError(tok, "write released<DATE or released:REGION<DATE")
        region, op, raw = mm.group(1).lower(), mm.group(2), mm.group(3)
    if not raw:
        raise QueryError(tok, "no date after the operator")
    return Term(tok, "released", op, _date(tok, raw), region)


def _date(term: str, v: str) -> dt.date:
    try:
        if re.fullmatch(r"\d{4}", v):
            return dt.date(int(v), 1, 1)
        if re.fullmatch(r"\d{4}-\d{2}", v):
            return dt.date(int(v[:4]), int(v[5:]), 1)
        return dt.date.fromisoformat(v)
    except ValueError:
        raise QueryError(term, f"{v!r} is not a date (YYYY-MM-DD, YYYY-MM or YYYY)") from None


def compare(a: object, op: str, b: object) -> bool:
    """``a op b`` (``:`` and ``=`` are equality)."""
    if op in (":", "="):
        return a == b
    if op == "!=":
        return a != b
    if op == ">=":
        return a >= b  # type: ignore[operator]
    if op == "<=":
        return a <= b  # type: ignore[operator]
    if op == ">":
        return a > b  # type: ignore[operator]
    return a < b  # type: ignore[operator]


__all__ = [
    "ATTRIBUTES",
    "RACES",
    "TYPES",
    "And",
    "Node",
    "Not",
    "Or",
    "Order",
    "QueryError",
    "Term",
    "compare",
    "is_query",
    "parse",
    "parse_order",
    "split_order",
    "tokenize",
]
