"""Pieces shared by the card-database importer, the sample builder and the query API.

Schema loading, language codes, name normalization and the dialect rules (scope bits,
alternate-artwork distance) live here so that every writer derives cards the same way.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Mapping

from deckcheck import paths
from deckcheck.model import Scope, kind_of

SCHEMA_VERSION = 1

#: Languages deckcheck stores, in display order.
LANGS: tuple[str, ...] = ("en", "ja", "ko", "zh-CN", "zh-TW", "de", "fr", "it", "es", "pt")

_LANG_ALIASES = {
    "zh-cn": "zh-CN",
    "zh-hans": "zh-CN",
    "zh-sg": "zh-CN",
    "sc": "zh-CN",
    "zh-tw": "zh-TW",
    "zh-hant": "zh-TW",
    "zh-hk": "zh-TW",
    "tc": "zh-TW",
    "jp": "ja",
    "kr": "ko",
    "sp": "es",
}

#: Largest |id − alias| that makes an alias an alternate artwork, per dialect (exclusive).
ARTWORK_DISTANCE = {"edopro": 10, "ygopro": 20}
DIALECTS = ("edopro", "ygopro")

# EDOPro's scope bits are deckcheck's Scope bits; anything else (0x1000 "hidden") is dropped.
_KNOWN_SCOPES = 0
for _s in Scope:
    _KNOWN_SCOPES |= int(_s)
EDOPRO_SCOPE_MASK = _KNOWN_SCOPES & ~int(Scope.SIMPLIFIED_CHINESE)

_SPACES = re.compile(r"\s+")


def lang_code(text: str) -> str | None:
    """deckcheck's short language code for a locale name (``ja-JP`` -> ``ja``), or None."""
    t = text.strip().replace("_", "-")
    low = t.lower()
    if low in _LANG_ALIASES:
        return _LANG_ALIASES[low]
    for code in LANGS:
        if low == code.lower():
            return code
    # "ja-JP", "pt-PT", "en-US-mdpro3": the primary subtag decides (Chinese needs its script).
    primary = low.split("-", 1)[0]
    if primary == "zh":
        rest = set(low.split("-")[1:])
        if rest & {"cn", "hans", "sg"}:
            return "zh-CN"
        if rest & {"tw", "hant", "hk"}:
            return "zh-TW"
        return None
    if primary in LANGS:
        return primary
    return _LANG_ALIASES.get(primary)


def normalize(text: str) -> str:
    """NFKC + casefold + collapsed spaces: the ``names.norm`` column."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def scopes_from_ot(ot: int, dialect: str) -> int:
    """deckcheck Scope bits for a cdb ``ot`` value read in ``dialect``."""
    if dialect == "ygopro":
        out = ot & 0x3
        if ot & 0x4:
            out |= int(Scope.CUSTOM)
        if ot & 0x8:
            out |= int(Scope.SIMPLIFIED_CHINESE)
        return out
    return ot & EDOPRO_SCOPE_MASK


def alias_kind(card_id: int, alias: int, dialect: str) -> str:
    """'none', 'artwork' (alias within the dialect's distance) or 'treated_as'."""
    if not alias or alias == card_id:
        return "none"
    return "artwork" if abs(card_id - alias) < ARTWORK_DISTANCE[dialect] else "treated_as"


def canonical_ids(aliases: Mapping[int, int]) -> dict[int, int]:
    """Canonical id per card: follow alias chains to their end; a cycle ends at its smallest id."""
    out: dict[int, int] = {}
    for start in aliases:
        if start in out:
            continue
        chain = [start]
        seen = {start}
        cur = start
        while True:
            nxt = aliases.get(cur, 0)
            if not nxt or nxt == cur:
                end = cur
                break
            if nxt in out:
                end = out[nxt]
                break
            if nxt in seen:  # cycle: pick a stable member
                end = min(chain[chain.index(nxt):])
                break
            if nxt not in aliases:  # alias to a card this database lacks: it still names the card
                end = nxt
                break
            chain.append(nxt)
            seen.add(nxt)
            cur = nxt
        for c in chain:
            out[c] = end
    return out


def schema_sql() -> tuple[str, str]:
    """(tables, indexes) parts of ``card_db/schema.sql``."""
    text = (paths.builtin_card_db_dir() / "schema.sql").read_text(encoding="utf-8")
    tables, _, indexes = text.partition("-- indexes")
    # Blocks appended after the indexes ("-- official data: ...") are small tables with their
    # own indexes, created with the main tables so importers can fill them.
    indexes, sep, extra = indexes.partition("-- official data")
    return tables + (sep + extra if sep else ""), indexes


def create_tables(conn: sqlite3.Connection) -> None:
    conn.executescript(schema_sql()[0])


def create_indexes(conn: sqlite3.Connection) -> None:
    # Statement by statement: executescript() would commit the import's open transaction.
    for stmt in schema_sql()[1].split(";"):
        body = "\n".join(ln for ln in stmt.splitlines() if not ln.strip().startswith("--"))
        if body.strip():
            conn.execute(body)


def card_kind(type_bits: int) -> str:
    return kind_of(type_bits)


def fingerprint_of(parts: Iterable[str]) -> str:
    """A short stable hash of the schema version and the imported sources."""
    import hashlib

    h = hashlib.sha256(f"deckcheck-carddb-{SCHEMA_VERSION}".encode())
    for p in parts:
        h.update(b"\0" + p.encode())
    return h.hexdigest()[:32]
