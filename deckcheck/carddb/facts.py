"""What the card-knowledge tables say about cards (issue 30), read from an opened ``CardDB``:
archetypes, printings and sets, card text. Cards are answered as lookup shows them (their
name key: alternate artworks and prerelease passcodes folded into their card).

Each reader says which source to install when its data is missing (``Missing``), so a
search term never passes for an empty success.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from deckcheck.carddb._common import KNOWLEDGE_SCHEMA
from deckcheck.errors import DataError

_ARCH_SOURCES = (
    "EDOPro's strings.conf (`deckcheck update` fetches ProjectIgnis/Distribution "
    "config/strings.conf; or `deckcheck db import strings.conf`) or yaml-yugi's cards.json "
    "(series)"
)
_SET_SOURCES = (
    "yaml-yugi's cards.json (sets) or YGOJSON (`deckcheck update`, or "
    "`deckcheck db import cards.json` / the YGOJSON folder)"
)
_TEXT_SOURCES = (
    "a cards.cdb with effect text (texts.desc, as ProjectIgnis/BabelCDB ships it), "
    "yaml-yugi's cards.json (text) or YGOJSON (effect text); `deckcheck update` or "
    "`deckcheck db import FILE…`"
)


class Missing(DataError):
    """The database has none of the data a question needs: names the source to install."""


def _tables(db: Any) -> set[str]:
    got: set[str] | None = getattr(db, "_facts_tables", None)
    if got is None:
        got = {r[0] for r in db.rows("SELECT name FROM sqlite_master WHERE type = 'table'")}
        db._facts_tables = got
    return got


def _has(db: Any, table: str) -> bool:
    return table in _tables(db) and bool(db.rows(f"SELECT 1 FROM {table} LIMIT 1"))


def status(db: Any) -> dict[str, int]:
    """How much of each kind of knowledge is installed (``db info``)."""
    out: dict[str, int] = {}
    for key, sql in (
        ("archetypes", "SELECT count(DISTINCT arch) FROM archetypes"),
        ("archetype_cards", "SELECT count(DISTINCT card_id) FROM archetype_cards"),
        ("printings", "SELECT count(*) FROM printings"),
        ("set_names", "SELECT count(*) FROM set_names"),
        ("texts", "SELECT count(*) FROM card_text"),
    ):
        table = sql.rsplit(" ", 1)[-1]
        out[key] = int(db.rows(sql)[0][0]) if table in _tables(db) else 0
    return out


def same_card(db: Any, card_id: int) -> list[int]:
    """Every passcode lookup shows as the card ``card_id`` is shown as (itself first)."""
    key = db.name_key(card_id)
    rows = db.rows("SELECT id FROM cards WHERE name_key = ? ORDER BY id", (key,))
    return [card_id, *[int(r[0]) for r in rows if int(r[0]) != card_id]]


def other_ids(db: Any) -> dict[int, list[int]]:
    """Per card (name key) the other passcodes shown as it (alternate artworks, prerelease
    and Rush/anime copies folded into it), in passcode order: ``--all-ids``."""
    out: dict[int, list[int]] = {}
    for cid, key in db.rows("SELECT id, name_key FROM cards WHERE id != name_key ORDER BY id"):
        out.setdefault(int(key), []).append(int(cid))
    return out


def _in(ids: list[Any]) -> str:
    return ", ".join("?" * len(ids))


# --------------------------------------------------------------------------- archetypes


def _older(db: Any) -> str | None:
    """Why a database built before issue 30 (schema < 3) holds no card knowledge."""
    meta = getattr(db, "meta", None) or {}
    version = int(meta.get("schema_version", KNOWLEDGE_SCHEMA) or 0)
    if version >= KNOWLEDGE_SCHEMA:
        return None
    return (
        f"the card database was built by an older deckcheck (schema {version}) and holds no "
        "archetypes, printings or card text: run `deckcheck update --force` (or import "
        "cards.cdb and the official files again)"
    )


def _need_archetypes(db: Any) -> None:
    if (why := _older(db)) is not None:
        raise Missing(why)
    if not _has(db, "archetypes"):
        raise Missing(f"no archetype names installed: install {_ARCH_SOURCES}")
    if not _has(db, "archetype_cards"):
        raise Missing(
            "archetype names are installed but no card has an archetype code: the card "
            "database was built before setcodes were stored; import cards.cdb again "
            "(`deckcheck update --force`)"
        )


def find_archetypes(db: Any, name: str) -> list[str]:
    """The archetype keys named ``name`` (any language a source gives; case, width and
    punctuation folded as card names are). Raises ``Missing`` without archetype data and
    DataError (with the closest names) for an unknown name."""
    from deckcheck.carddb.archetypes import fold

    _need_archetypes(db)
    norm = fold(name)
    got = [r[0] for r in db.rows("SELECT DISTINCT arch FROM archetypes WHERE norm = ?", (norm,))]
    if got:
        return sorted(got)
    raise DataError(
        f"unknown archetype {name!r}" + _closest(name, archetype_names(db)), where="arch:"
    )


def archetype_names(db: Any) -> list[str]:
    return sorted({r[0] for r in db.rows("SELECT name FROM archetypes")}, key=str.casefold)


def archetype_label(db: Any, arch: str, lang: str = "en") -> str:
    """The name an archetype is shown by (``lang`` when a source gives it, else English)."""
    rows = db.rows("SELECT name, lang FROM archetypes WHERE arch = ? ORDER BY name", (arch,))
    for want in (lang, "en"):
        for name, lg in rows:
            if lg == want:
                return str(name)
    return str(rows[0][0]) if rows else arch


def archetype_cards(db: Any, archs: list[str]) -> set[int]:
    """The cards (name keys) of any of the archetypes ``archs``."""
    if not archs:
        return set()
    rows = db.rows(
        "SELECT DISTINCT c.name_key FROM archetype_cards a JOIN cards c ON c.id = a.card_id "
        f"WHERE a.arch IN ({_in(archs)})",
        tuple(archs),
    )
    return {int(r[0]) for r in rows}


def archetypes_of(db: Any, card_id: int, lang: str = "en") -> list[dict[str, Any]]:
    """The archetypes of a card: ``{name, code, how}`` (code: '0x3008', None for a series
    no strings.conf names; how: setcode, series or series+setcode), a sub-archetype before
    its parent."""
    if "archetype_cards" not in _tables(db):
        return []
    ids = same_card(db, card_id)
    hows: dict[str, set[str]] = {}
    for arch, how in db.rows(
        f"SELECT arch, how FROM archetype_cards WHERE card_id IN ({_in(ids)})", tuple(ids)
    ):
        hows.setdefault(str(arch), set()).add(str(how))
    return _described(hows, lambda arch: archetype_label(db, arch, lang))


def archetype_table(db: Any, lang: str = "en") -> dict[int, list[dict[str, Any]]]:
    """``archetypes_of`` of every card at once, by name key (``db.name_key``): two queries
    where ``meta`` would make one per card (each a scan of the cards for its other
    passcodes: 4.1 s of a 6.0 s ``meta`` over 209 decks)."""
    if "archetype_cards" not in _tables(db):
        return {}
    names: dict[str, dict[str, str]] = {}
    for arch, name, lg in db.rows("SELECT arch, name, lang FROM archetypes ORDER BY name"):
        names.setdefault(str(arch), {}).setdefault(str(lg), str(name))

    def label(arch: str) -> str:  # archetype_label's choice: lang, English, the first name
        got = names.get(arch)
        if not got:
            return arch
        return got.get(lang) or got.get("en") or next(iter(got.values()))

    hows: dict[int, dict[str, set[str]]] = {}
    for key, arch, how in db.rows(
        "SELECT c.name_key, a.arch, a.how FROM archetype_cards a JOIN cards c ON c.id = a.card_id"
    ):
        hows.setdefault(int(key), {}).setdefault(str(arch), set()).add(str(how))
    return {key: _described(h, label) for key, h in hows.items()}


def _described(hows: dict[str, set[str]], label: Callable[[str], str]) -> list[dict[str, Any]]:
    out = []
    for arch, how in hows.items():
        code = int(arch, 16) if arch.startswith("0x") else None
        out.append(
            {
                "name": label(arch),
                "code": arch if code is not None else None,
                "how": "+".join(sorted(how)),
            }
        )
    return sorted(out, key=_specific_first)


def _specific_first(a: dict[str, Any]) -> tuple[int, int, int, str]:
    """Archetypes of one code family together (by its low 12 bits), a sub-archetype
    (0x3008 Elemental HERO) before its parent (0x8 HERO); those named by a source only last."""
    if a["code"] is None:
        return (1, 0, 0, a["name"].casefold())
    code = int(a["code"], 16)
    return (0, code & 0xFFF, -(code >> 12), a["name"].casefold())


# --------------------------------------------------------------------------- printings

_NUMBER_TAIL = re.compile(r"\d+$")


def _need_printings(db: Any) -> None:
    if (why := _older(db)) is not None:
        raise Missing(why)
    if not _has(db, "printings"):
        raise Missing(f"no printings installed: install {_SET_SOURCES}")


def set_cards(db: Any, value: str) -> set[int]:
    """The cards (name keys) printed under ``value``: a set code (``LOB``: every printing
    LOB-…), a printing prefix (``LOB-EN``), a full printing (``LOB-EN001``) or a set's name.
    Raises ``Missing`` without printings and DataError (closest codes) for an unknown one."""
    _need_printings(db)
    v = " ".join(value.split()).upper()
    if not v:
        raise DataError("set: needs a set code, a printing or a set name", where="set:")
    head = v.split("-", 1)[0]
    got = db.rows(
        "SELECT DISTINCT c.name_key, p.code FROM printings p JOIN cards c ON c.id = p.card_id "
        "WHERE p.code = ? OR (p.code >= ? AND p.code < ?)",  # LOB, LOB-… ('.' follows '-')
        (head, head + "-", head + "."),
    )
    if "-" not in v:
        keys = {int(k) for k, _code in got}
    else:  # one printing, or a run of them (LOB-EN: LOB-EN001, LOB-EN002 …)
        keys = {int(k) for k, code in got if code == v}
        if not keys:
            keys = {int(k) for k, code in got if code.startswith(v) and code[len(v) :].isdigit()}
    if not keys:
        keys = {
            int(r[0])
            for r in db.rows(
                "SELECT DISTINCT c.name_key FROM printings p JOIN cards c ON c.id = p.card_id "
                "JOIN set_names s ON s.id = p.set_id WHERE upper(s.name) = ?",
                (v,),
            )
        }
    if keys:
        return keys
    raise DataError(f"unknown set {value!r}" + _closest(value, set_codes(db)), where="set:")


def set_codes(db: Any) -> list[str]:
    """Every set code (the part of a printing code before its first '-')."""
    codes = {str(r[0]).split("-", 1)[0] for r in db.rows("SELECT DISTINCT code FROM printings")}
    return sorted(codes - {""})


def printings_of(db: Any, card_id: int) -> list[dict[str, Any]]:
    """A card's printings, one per code and set name: ``{code, set, rarities, lang, date}``
    (date from the printing, else from its set's release in YGOJSON; None when unknown),
    oldest first. A printing in a set without numbers (the first OCG boosters) has code "".
    """
    if "printings" not in _tables(db):
        return []
    ids = same_card(db, card_id)
    by_code: dict[tuple[str, str], dict[str, Any]] = {}
    for code, set_name, rarity, lang, date in db.rows(
        "SELECT p.code, s.name, p.rarity, p.lang, p.date FROM printings p "
        f"JOIN set_names s ON s.id = p.set_id WHERE p.card_id IN ({_in(ids)}) "
        "ORDER BY p.source, p.code",
        tuple(ids),
    ):
        got = by_code.setdefault(
            (code, set_name),
            {"code": code, "set": set_name, "rarities": [], "lang": lang, "date": date},
        )
        for r in str(rarity).split(", "):
            if r and r not in got["rarities"]:
                got["rarities"].append(r)
        if date and (got["date"] is None or date < got["date"]):
            got["date"] = date
    undated = {_NUMBER_TAIL.sub("", p["code"]) for p in by_code.values() if p["date"] is None}
    undated.discard("")
    if undated and "set_prefixes" in _tables(db):
        prefixes = sorted(undated)
        dates = dict(
            db.rows(
                "SELECT prefix, min(date) FROM set_prefixes WHERE date IS NOT NULL AND prefix IN "
                f"({_in(prefixes)}) GROUP BY prefix",
                tuple(prefixes),
            )
        )
        for p in by_code.values():
            if p["date"] is None:
                p["date"] = dates.get(_NUMBER_TAIL.sub("", p["code"]))
    return sorted(by_code.values(), key=lambda p: (p["date"] or "9999", p["code"]))


# --------------------------------------------------------------------------- card text


def text_cards(db: Any, phrase: str) -> set[int]:
    """The cards (name keys) whose text in some installed language has the words of
    ``phrase`` in a row (case and width folded, punctuation between words ignored, the last
    word a prefix; Chinese and Japanese characters anywhere in a run). One look-up in the
    full-text index made at import (``cardtext.rebuild_index``). Raises ``Missing`` when no
    card text is installed, DataError for a phrase without letters or digits."""
    from deckcheck.carddb import cardtext

    if (why := _older(db)) is not None:
        raise Missing(why)
    if not _has(db, "card_text"):
        raise Missing(f"no card text installed: install {_TEXT_SOURCES}")
    if cardtext.TABLE not in _tables(db):
        raise Missing(
            "card text is installed but not indexed: this SQLite has no full-text search "
            "(FTS5); `o:` needs a Python whose sqlite3 has it"
        )
    expr = cardtext.match(phrase)
    if expr is None:
        raise DataError(f"{phrase!r} has no letters or digits to look for", where="o:")
    rows = db.rows(f"SELECT rowid FROM {cardtext.TABLE} WHERE {cardtext.TABLE} MATCH ?", (expr,))
    return {int(r[0]) for r in rows}


_SOURCE_ORDER = {"cdb": 0, "yaml-yugi-cards": 1, "yaml-yugi-rush": 1, "yaml-yugi-skill": 1}


def texts_of(db: Any, card_id: int) -> dict[str, str]:
    """A card's text per language (a cdb's first, then yaml-yugi's, then YGOJSON's)."""
    if "card_text" not in _tables(db):
        return {}
    ids = same_card(db, card_id)
    rows = db.rows(
        f"SELECT card_id, lang, source, text FROM card_text WHERE card_id IN ({_in(ids)})",
        tuple(ids),
    )
    rows.sort(key=lambda r: (ids.index(r[0]), _SOURCE_ORDER.get(r[2], 2)))
    out: dict[str, str] = {}
    for _cid, lang, _src, text in rows:
        out.setdefault(str(lang), str(text))
    return out


def _closest(value: str, known: list[str]) -> str:
    from rapidfuzz import fuzz, process, utils

    got = process.extract(
        value, known, scorer=fuzz.WRatio, processor=utils.default_process, limit=5
    )
    near = [name for name, score, _i in got if score >= 60]
    return f" (closest: {', '.join(near)})" if near else ""
