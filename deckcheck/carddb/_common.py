"""Pieces shared by the card-database importer, the sample builder and the query API.

Schema loading, language codes, the dialect rules (scope bits, alternate-artwork distance)
and card identity (the copy, list and name keys) live here so that every writer derives
cards the same way.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping

from deckcheck import paths
from deckcheck.model import ALL_SCOPES, Scope, kind_of

# 2: cards.list_key/name_key stored, names.norm dropped; 3: cards.setcode and the card
# knowledge tables; 4: card_fields (carddb/cardfields.py)
SCHEMA_VERSION = 4
KNOWLEDGE_SCHEMA = 3  # the first schema with archetypes, printings and card text

#: Release regions stored from official data (see deckcheck/carddb/ygojson.py), in order.
RELEASE_REGIONS: tuple[str, ...] = (
    "ocg",
    "tcg",
    "kr",
    "ae",
    "sc",
    "tc",
    "masterduel",
    "duellinks",
)

#: EDOPro prerelease passcodes (README 1.1: 100xxxxxx / 101xxxxxx; official_ids maps them)
PRERELEASE_IDS = (100_000_000, 101_999_999)

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

#: the video games of ``game_cards``, as stored (the release regions of the same games in
#: ``releases``; ``deckcheck.carddb.games`` writes them)
GAMES: tuple[str, ...] = ("masterduel", "duellinks")

#: Largest |id − alias| that makes an alias an alternate artwork, per dialect (exclusive).
ARTWORK_DISTANCE = {"edopro": 10, "ygopro": 20}
DIALECTS = ("edopro", "ygopro")

# EDOPro's scope bits are deckcheck's Scope bits; anything else (0x1000 "hidden") is dropped.
EDOPRO_SCOPE_MASK = ALL_SCOPES & ~Scope.SIMPLIFIED_CHINESE


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


def scopes_from_ot(ot: int, dialect: str) -> int:
    """deckcheck Scope bits for a cdb ``ot`` value read in ``dialect``."""
    if dialect == "ygopro":
        out = ot & 0x3
        if ot & 0x4:
            out |= Scope.CUSTOM
        if ot & 0x8:
            out |= Scope.SIMPLIFIED_CHINESE
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
                end = min(chain[chain.index(nxt) :])
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


# --------------------------------------------------------------------------- identity

# The English name a Card carries (CardDB.get): an artwork shows its main card's name.
# LIMIT 1 over the WITHOUT ROWID primary key picks the same name every time.
_EN = (
    "(SELECT n.name FROM names n WHERE n.card_id = {} AND n.lang = 'en' AND n.kind = 'name' "
    "LIMIT 1)"
)
_KEY_SQL = (
    f"SELECT c.id, c.canonical, c.alias_kind, {_EN.format('c.id')}, {_EN.format('c.canonical')} "
    "FROM cards c"
)


def list_key(card_id: int, canonical: int, alias_kind: str) -> int:
    """What a list entry names: an alternate artwork's card, else the passcode itself.

    Only artworks are merged. A card "treated as" another (a Rush reprint of an OCG card, a
    GOAT or pre-errata entry) keeps its own passcode, because EDOPro looks a list up by the
    passcode and then by its alias, never the other way: the GOAT list naming "Terraforming
    (GOAT)" does not admit the modern Terraforming. Rules read the copy key first, then the
    passcode, so the treated-as card still takes its alias's status.
    """
    return canonical if alias_kind == "artwork" else card_id


def display_name(card_id: int, alias_kind: str, en: str | None, canonical_en: str | None) -> str:
    """A card's English name as ``Card.name`` shows it (artworks show their main card's)."""
    name = en if alias_kind != "artwork" or not canonical_en else canonical_en
    return name or canonical_en or str(card_id)


def compute_keys(conn: sqlite3.Connection) -> dict[int, tuple[int, int]]:
    """(list key, name key) of every card, from its canonical id, alias kind and names.

    The name key (what lookup shows): artworks collapse to their main card; a "treated as"
    card keeps its own identity (a deck lists Harpie Lady 1, not Harpie Lady) unless it has
    the very same name as its main card, which is then the same card to a player (Dark
    Magician 36996508 -> 46986414).
    """
    rows = conn.execute(_KEY_SQL).fetchall()
    shown = {cid: display_name(cid, akind, en, cen) for cid, _c, akind, en, cen in rows}
    out: dict[int, tuple[int, int]] = {}
    for cid, canon, akind, _en, _cen in rows:
        if akind == "artwork" or (canon != cid and canon in shown and shown[canon] == shown[cid]):
            nkey = canon
        else:
            nkey = cid
        out[cid] = (list_key(cid, canon, akind), nkey)
    # An EDOPro prerelease passcode that stands for an official card of this database (the
    # official_ids of yaml-yugi, matched by English name) is that card to a player: lookup
    # and search show it once, under the official passcode (issue 30).
    for pre, official in _official_ids(conn):
        if pre in out and official in out and pre != official:
            out[pre] = (out[pre][0], out[official][1])
    return out


def _official_ids(conn: sqlite3.Connection) -> list[tuple[int, int]]:
    try:
        return [
            (int(a), int(b))
            for a, b in conn.execute("SELECT edopro_id, official_id FROM official_ids")
        ]
    except sqlite3.OperationalError:  # a database without the official-data tables
        return []


def store_keys(conn: sqlite3.Connection) -> None:
    """Write the list and name keys of every card (after canonical ids are final)."""
    conn.executemany(
        "UPDATE cards SET list_key = ?, name_key = ? WHERE id = ?",
        [(lk, nk, cid) for cid, (lk, nk) in compute_keys(conn).items()],
    )


def migrate(conn: sqlite3.Connection, version: int) -> bool:
    """Bring an older database up to SCHEMA_VERSION in place; False when it cannot be."""
    if version == 1:
        conn.execute("ALTER TABLE cards ADD COLUMN list_key INTEGER NOT NULL DEFAULT 0")
        conn.execute("ALTER TABLE cards ADD COLUMN name_key INTEGER NOT NULL DEFAULT 0")
        conn.execute("DROP INDEX IF EXISTS names_norm")
        conn.execute("ALTER TABLE names DROP COLUMN norm")
        version = 2
    if version == 2:
        # The card-knowledge tables are created by create_tables; setcodes stay 0 until a
        # cards.cdb is imported again (carddb.facts says so). The import's create_tables may
        # have made the column already (CREATE TABLE IF NOT EXISTS leaves an old table as is).
        cols = {r[1] for r in conn.execute("PRAGMA table_info(cards)")}
        if "setcode" not in cols:
            conn.execute("ALTER TABLE cards ADD COLUMN setcode INTEGER NOT NULL DEFAULT 0")
        version = 3
    # 3 -> 4: create_tables makes card_fields, the import's end fills it
    return version in (3, SCHEMA_VERSION)


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
