"""What yaml-yugi and YGOJSON files tell beyond identity and names (issue 30): a card's series
(archetypes), its printings (set code, set name, rarity, date) and its text, read beside the
identity records of ``carddb.official`` and written into the card-knowledge tables.

A value of the wrong shape (a series that is not a list of strings, a set number that is not
text, a 10 MB effect) is skipped and counted in one note per file, never an internal error.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Any

from deckcheck.carddb import cardtext
from deckcheck.carddb._common import lang_code
from deckcheck.records import Record, record

Note = Callable[[str], None]
_EXAMPLES = 5

#: yaml-yugi keys holding card text, per array kind, in reading order.
TEXT_KEYS: dict[str, tuple[str, ...]] = {
    "cards": ("text", "pendulum_effect"),
    "rush": ("summoning_condition", "requirement", "effect", "text"),
    "skill": ("activation", "effect"),
}
#: yaml-yugi language keys of names and texts -> deckcheck languages (romanizations left out)
_LANGS = {
    "en": "en",
    "de": "de",
    "es": "es",
    "fr": "fr",
    "it": "it",
    "pt": "pt",
    "ja": "ja",
    "ko": "ko",
    "zh-TW": "zh-TW",
    "zh-CN": "zh-CN",
}
#: ``printings.source`` of each file kind
SOURCES = {"yaml-yugi-cards": 1, "yaml-yugi-rush": 2, "yaml-yugi-skill": 3, "ygojson": 4}
#: YGOJSON's rarity ids as yaml-yugi (and the card) names them; others are kept as written.
RARITIES = {
    "common": "Common",
    "rare": "Rare",
    "super": "Super Rare",
    "ultra": "Ultra Rare",
    "secret": "Secret Rare",
    "ultimate": "Ultimate Rare",
    "ghost": "Ghost Rare",
    "starlight": "Starlight Rare",
    "platinum": "Platinum Rare",
    "platinumsecret": "Platinum Secret Rare",
    "prismaticsecret": "Prismatic Secret Rare",
    "25thsecret": "Quarter Century Secret Rare",
    "gold": "Gold Rare",
    "premiumgold": "Premium Gold Rare",
    "goldsecret": "Gold Secret Rare",
    "goldghost": "Ghost/Gold Rare",
    "collectors": "Collector's Rare",
    "millenium": "Millennium Rare",
    "starfoil": "Starfoil Rare",
    "shatterfoil": "Shatterfoil Rare",
    "mosaic": "Mosaic Rare",
    "extrasecret": "Extra Secret Rare",
    "shortprint": "Short Print",
    "commonparallel": "Normal Parallel Rare",
    "superparallel": "Super Parallel Rare",
    "ultraparallel": "Ultra Parallel Rare",
    "pharaohs": "Ultra Rare (Pharaoh's Rare)",
    "dtpc": "Duel Terminal Normal Parallel Rare",
    "dtrpr": "Duel Terminal Rare Parallel Rare",
    "dtspr": "Duel Terminal Super Parallel Rare",
    "dtupr": "Duel Terminal Ultra Parallel Rare",
}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MAX_SERIES = 200  # names per card; real cards have at most a handful
_MAX_SET_ROWS = 2000  # printings per card (Blue-Eyes White Dragon has about 150)


def printing_code(value: Any) -> str | None:
    """A set number as stored (``LOB-EN001``), or None when it is not one (not text, empty,
    over 40 characters, or with spaces or control characters)."""
    if not isinstance(value, str):
        return None
    code = value.strip().upper()
    if not 0 < len(code) <= 40 or not code.isprintable() or " " in code:
        return None
    return code


def set_code(code: str) -> str:
    """The set a printing code belongs to: its part before the first ``-`` (``LOB``)."""
    return code.split("-", 1)[0]


@record
class Extra(Record):
    """One yaml-yugi object's series, printings and texts (the part identity leaves)."""

    series: tuple[str, ...] = ()
    printings: tuple[tuple[str, str, str, str], ...] = ()  # code, set name, rarities, lang
    texts: tuple[tuple[str, str], ...] = ()  # lang, text
    bad: tuple[str, ...] = ()  # which values were skipped


def _ruby_free(text: str) -> str:
    from deckcheck.carddb.yamlyugi import split_ruby

    return split_ruby(text)[0] if "<" in text else text


def _series(raw: Any, bad: list[str]) -> list[str]:
    if raw is None:
        return []
    if isinstance(raw, list) and all(isinstance(s, str) for s in raw):
        return [" ".join(s.split()) for s in raw[:_MAX_SERIES] if s.strip()]
    bad.append("series")
    return []


def _printings(sets: Any, bad: list[str]) -> list[tuple[str, str, str, str]]:
    if sets is None:
        return []
    if not isinstance(sets, dict):
        bad.append("sets")
        return []
    out: list[tuple[str, str, str, str]] = []
    for key, entries in sets.items():
        lang = _LANGS.get(key) or lang_code(str(key)) or str(key)[:10]
        if not isinstance(entries, list):
            bad.append(f"sets.{key}")
            continue
        for e in entries:
            number = e.get("set_number") if isinstance(e, dict) else None
            # The first OCG sets (Booster 7, Vol.1 …) printed no set numbers: yaml-yugi
            # writes "" there, a printing of its own with an empty code (by set name only).
            code = "" if isinstance(number, str) and not number.strip() else printing_code(number)
            if code is None:
                bad.append(f"sets.{key}")
                continue
            name = e.get("set_name")
            name = " ".join(name.split())[:200] if isinstance(name, str) else ""
            rar = e.get("rarities")
            rarities = [r for r in rar if isinstance(r, str)] if isinstance(rar, list) else []
            out.append((code, name, ", ".join(rarities)[:200], lang))
    if len(out) > _MAX_SET_ROWS:
        bad.append("sets (too many)")
        out = out[:_MAX_SET_ROWS]
    return out


def _texts(obj: dict[str, Any], kind: str, bad: list[str]) -> list[tuple[str, str]]:
    texts: dict[str, list[str]] = {}
    for key in TEXT_KEYS.get(kind, ()):
        value = obj.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            bad.append(key)
            continue
        for lk, t in value.items():
            tlang = _LANGS.get(lk)
            if tlang is None or t is None:
                continue
            text = cardtext.clean(t)
            if text is None and not isinstance(t, str):
                bad.append(f"{key}.{lk}")
            elif text:
                texts.setdefault(tlang, []).append(_ruby_free(text))
    out = []
    for lang, parts in texts.items():
        t = "\n".join(parts)
        if len(t) > cardtext.MAX_CHARS:
            bad.append(f"text.{lang} (too long)")
            continue
        out.append((lang, t))
    return out


def extra_of(obj: Any, kind: str) -> Extra:
    """The ``Extra`` of one yaml-yugi object of ``kind`` (cards, rush or skill)."""
    if not isinstance(obj, dict):
        return Extra()
    bad: list[str] = []
    series = _series(obj.get("series"), bad)
    prints = _printings(obj.get("sets"), bad)
    texts = _texts(obj, kind, bad)
    return Extra(
        tuple(dict.fromkeys(series)), tuple(dict.fromkeys(prints)), tuple(texts), tuple(bad)
    )


def extras_of(data: Any, kind: str) -> list[Extra]:
    """``extra_of`` for every object of a parsed yaml-yugi array (same order as its records)."""
    return [extra_of(obj, kind) for obj in data] if isinstance(data, list) else []


def _report(note: Note, where: str, what: str, items: list[str]) -> None:
    if items:
        eg = "; ".join(items[:_EXAMPLES]) + ("; …" if len(items) > _EXAMPLES else "")
        note(f"{where}: {len(items)} {what} (e.g. {eg})")


_INSERT_PRINTING = (
    "INSERT INTO printings (card_id, code, set_id, rarity, lang, date, source) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


class SetNames:
    """Set names by number (printings name their set by id: the names repeat a lot)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self.ids = {str(n): int(i) for i, n in conn.execute("SELECT id, name FROM set_names")}
        self.new: list[tuple[int, str]] = []

    def id(self, name: str) -> int:
        got = self.ids.get(name)
        if got is None:
            got = self.ids[name] = len(self.ids) + 1
            self.new.append((got, name))
        return got

    def write(self) -> None:
        self.conn.executemany("INSERT INTO set_names (id, name) VALUES (?, ?)", self.new)
        self.new = []


def apply_yamlyugi(
    conn: sqlite3.Connection,
    source: str,
    extras: list[Extra],
    targets: dict[int, list[int]],
    where: str,
    note: Note,
) -> None:
    """Write the series, printings and texts of a yaml-yugi file (``source`` is its kind,
    e.g. ``yaml-yugi-cards``) for the passcodes each object was attached to (``targets``,
    by index in the array); this file's earlier rows are replaced."""
    src = SOURCES[source]
    for table in ("card_series", "card_text"):
        conn.execute(f"DELETE FROM {table} WHERE source = ?", (source,))
    conn.execute("DELETE FROM printings WHERE source = ?", (src,))
    sets = SetNames(conn)
    series: list[tuple[int, str, str]] = []
    prints: list[tuple[Any, ...]] = []
    texts: list[tuple[int, str, str, str]] = []
    bad: list[str] = []
    for i, ex in enumerate(extras):
        if ex.bad:
            bad.append(f"[{i}]: {', '.join(dict.fromkeys(ex.bad))}")
        for cid in targets.get(i, ()):
            series += [(cid, name, source) for name in ex.series]
            prints += [
                (cid, code, sets.id(name), rarity, lang, None, src)
                for code, name, rarity, lang in ex.printings
            ]
            texts += [(cid, lang, source, t) for lang, t in ex.texts]
    conn.executemany(
        "INSERT OR IGNORE INTO card_series (card_id, name, source) VALUES (?, ?, ?)", series
    )
    sets.write()
    conn.executemany(_INSERT_PRINTING, prints)
    cardtext.store(conn, texts)
    _report(note, where, "object(s) with values of the wrong shape, skipped", bad)


class YgojsonFacts:
    """Collects printings, set dates and texts while ``ygojson.read`` walks the files
    (``visit`` callbacks: every card file first, then every set file). Printings are kept
    only for the cards no yaml-yugi printing covers; set dates for every printing prefix."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.ids = {int(r[0]) for r in conn.execute("SELECT id FROM cards")}
        self.covered = {
            int(r[0])
            for r in conn.execute("SELECT DISTINCT card_id FROM printings WHERE source != 4")
        }
        self.codes: dict[str, list[int]] = {}  # card UUID -> passcodes wanting printings
        self.texts: list[tuple[int, str, str]] = []  # passcode, lang, text
        self.prefixes: dict[tuple[str, str, str], str | None] = {}
        self.prints: list[tuple[int, str, str, str, str, str | None]] = []
        self.bad: list[str] = []

    def card(self, doc: dict[str, Any], codes: list[int], where: str) -> None:
        uuid = doc.get("id")
        if isinstance(uuid, str) and not self.covered.intersection(codes):
            # (a card's artworks share its YGOJSON file: yaml-yugi printing one covers all)
            self.codes[uuid] = [c for c in codes if c in self.ids]
        text = doc.get("text")
        if not isinstance(text, dict):
            return
        for lk, entry in text.items():
            lang = lang_code(str(lk))
            if lang is None or not isinstance(entry, dict):
                continue
            parts = [cardtext.clean(entry.get(k)) for k in ("effect", "pendulumEffect")]
            got = "\n".join(p for p in parts if p)
            if len(got) > cardtext.MAX_CHARS:
                self.bad.append(f"{where}: text.{lk}")
                continue
            if got:
                self.texts += [(c, lang, got) for c in codes if c in self.ids]

    def set(self, doc: dict[str, Any], where: str) -> None:
        locales = doc.get("locales")
        if not isinstance(locales, dict):
            return  # a virtual (Master Duel / Duel Links) set has no printing codes
        name = doc.get("name")
        set_name = ""
        if isinstance(name, dict):
            set_name = next((v for v in (name.get("en"), *name.values()) if isinstance(v, str)), "")
        info: dict[str, tuple[str, str | None, str]] = {}  # locale -> prefix, day, language
        for loc, li in locales.items():
            if not isinstance(li, dict):
                continue
            prefix, date = li.get("prefix"), li.get("date")
            date = date if isinstance(date, str) and _DATE.match(date) else None
            p = printing_code(prefix)
            if p is not None:
                lang = li.get("language")
                lang = (lang_code(lang) or lang[:10]) if isinstance(lang, str) else str(loc)[:10]
                info[str(loc)] = (p, date, lang)
                self.prefixes[(p, set_name, str(loc))] = date
        contents = doc.get("contents")
        for block in contents if isinstance(contents, list) else []:
            if not isinstance(block, dict) or not isinstance(block.get("locales"), list):
                continue
            got = block.get("cards")
            cards: list[Any] = got if isinstance(got, list) else []
            for loc in block["locales"]:
                if str(loc) not in info:
                    continue
                prefix, date, lang = info[str(loc)]
                for pr in cards:
                    uuid = pr.get("card") if isinstance(pr, dict) else None
                    targets = self.codes.get(uuid) if isinstance(uuid, str) else None
                    if not targets:
                        continue  # a card yaml-yugi has printings of (or not in the database)
                    code = printing_code(prefix + str(pr.get("suffix") or ""))
                    if code is None:
                        self.bad.append(f"{where}: a printing")
                        continue
                    rar = pr.get("rarity")
                    rarity = RARITIES.get(rar, rar[:60]) if isinstance(rar, str) else ""
                    for c in targets:
                        self.prints.append((c, code, set_name, rarity, lang, date))

    def write(self, conn: sqlite3.Connection, where: str, note: Note) -> None:
        """Set dates; printings of the cards yaml-yugi gave none; texts where none is stored."""
        conn.execute("DELETE FROM card_text WHERE source = 'ygojson'")
        conn.execute("DELETE FROM printings WHERE source = 4")
        conn.execute("DELETE FROM set_prefixes")
        conn.executemany(
            "INSERT OR REPLACE INTO set_prefixes (prefix, set_name, locale, date) "
            "VALUES (?, ?, ?, ?)",
            [(p, n, loc, d) for (p, n, loc), d in self.prefixes.items()],
        )
        sets = SetNames(conn)
        rows = [
            (c, code, sets.id(name), rarity, loc, date, 4)
            for c, code, name, rarity, loc, date in dict.fromkeys(self.prints)
        ]
        sets.write()
        conn.executemany(_INSERT_PRINTING, rows)
        have = cardtext.texts_of(conn)
        cardtext.store(
            conn,
            [(c, lang, "ygojson", t) for c, lang, t in self.texts if (c, lang) not in have],
            replace=False,
        )
        _report(note, where, "value(s) of the wrong shape, skipped", self.bad)
