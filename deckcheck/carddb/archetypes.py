"""Archetypes: EDOPro's ``strings.conf`` ``!setname`` lines and yaml-yugi's ``series``, and
which cards belong to each (issue 30).

A card belongs to an archetype when one of the four 16-bit parts of its cdb ``setcode``
matches the archetype's code the way the simulators test it (EDOPro ``Card::IsSetCard``,
YGOPro ``card::is_set_card``): ``(part & 0xfff) == (code & 0xfff)`` and
``(part & code) == code`` — so an "Elemental HERO" card (0x3008) is a "HERO" card (0x8) too —
or when a source names the archetype for it (yaml-yugi ``series``). Membership is rebuilt
at the end of every import (``rebuild``) from the stored setcodes, setnames and series.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from deckcheck.errors import InputError
from deckcheck.records import Record, field, record

#: A strings.conf larger than this is not one (the real file is about 54 KB).
MAX_BYTES = 4 * 1024 * 1024
_DIRECTIVE = re.compile(rb"^!(system|setname|counter|victory)[ \t]", re.MULTILINE)
_SETNAME = re.compile(r"^!setname[ \t]+(\S+)[ \t]+(.+?)\s*$")
_EXAMPLES = 5
_MASK64 = (1 << 64) - 1


def looks_like_strings(head: bytes) -> bool:
    """True when the first bytes of a file read as an EDOPro/YGOPro ``strings.conf``."""
    if b"\0" in head:
        return False
    return _DIRECTIVE.search(head.removeprefix(b"\xef\xbb\xbf")) is not None


def parts(setcode: int) -> list[int]:
    """The non-zero 16-bit archetype codes packed in a cdb ``setcode`` (low part first)."""
    setcode &= _MASK64  # SQLite gives a code with the top bit set as a negative int64
    return [p for p in ((setcode >> (16 * i)) & 0xFFFF for i in range(4)) if p]


def matches(setcode: int, code: int) -> bool:
    """The simulators' test: some part of ``setcode`` is ``code`` or one of its sub-archetypes."""
    base = code & 0xFFF
    return any((p & 0xFFF) == base and (p & code) == code for p in parts(setcode))


def fold(name: str) -> str:
    """The key an archetype name is found by: NFKC (full-width letters as ASCII), case
    folded, only letters and digits kept ("Blue-Eyes" = "blue eyes" = "BLUEEYES",
    "Ｅ・ＨＥＲＯ" = "e hero"). Card names fold further (``lookup.normalize``); carddb
    cannot import lookup, which reads carddb."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", name).casefold() if ch.isalnum())


def arch_key(code: int) -> str:
    return f"0x{code:x}"


@record(frozen=False, slots=True)
class StringsFile(Record):
    """The ``!setname`` lines of one strings.conf: (code, name) pairs and what was skipped."""

    names: list[tuple[int, str]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "line N: why"


def read_strings(path: Path) -> StringsFile:
    """The archetype names of a strings.conf; a bad ``!setname`` line is skipped and counted
    (its line number and why), a file that is not text is one InputError."""
    where = str(path)
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=where) from None
    if len(raw) > MAX_BYTES:
        raise InputError(f"over {MAX_BYTES // (1024 * 1024)} MiB: not a strings.conf", where=where)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text at byte {exc.start}: not a strings.conf", where=where
        ) from None
    out = StringsFile()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith("!setname"):
            continue
        m = _SETNAME.match(line)
        if m is None:
            out.skipped.append(f"line {n}: no code and name")
            continue
        raw_code, names = m.group(1), m.group(2)
        try:
            code = int(raw_code, 16) if raw_code.lower().startswith("0x") else int(raw_code)
        except ValueError:
            out.skipped.append(f"line {n}: {raw_code[:20]!r} is not a number")
            continue
        if not 0 < code <= 0xFFFF:
            out.skipped.append(f"line {n}: {raw_code[:20]} is not a 16-bit archetype code")
            continue
        for name in names.split("|"):
            name = " ".join(name.split())
            if name and len(name) <= 200:
                out.names.append((code, name))
            elif name:
                out.skipped.append(f"line {n}: a name over 200 characters")
    return out


def apply_strings(
    conn: sqlite3.Connection, path: Path, lang: str, note: Callable[[str], None]
) -> tuple[int, int]:
    """Replace the setnames of ``lang`` with those of ``path``; (names, skipped lines)."""
    got = read_strings(path)
    conn.execute("DELETE FROM setnames WHERE lang = ?", (lang,))
    conn.executemany(
        "INSERT OR IGNORE INTO setnames (code, name, lang) VALUES (?, ?, ?)",
        [(code, name, lang) for code, name in got.names],
    )
    if got.skipped:
        eg = "; ".join(got.skipped[:_EXAMPLES]) + ("; …" if len(got.skipped) > _EXAMPLES else "")
        note(f"{path}: {len(got.skipped)} !setname line(s) skipped (e.g. {eg})")
    if not got.names:
        note(f"{path}: no !setname lines: no archetype names from this file")
    return len(got.names), len(got.skipped)


def series_rows(
    card_ids: Iterable[int], names: Iterable[str], source: str
) -> list[tuple[Any, ...]]:
    return [(cid, name, source) for cid in card_ids for name in names]


# --------------------------------------------------------------------------- membership


def rebuild(conn: sqlite3.Connection) -> None:
    """Archetypes and their cards from the stored setcodes, setnames and series (the end of
    every import: a cards.cdb, a strings.conf or a yaml-yugi file may each have changed)."""
    conn.execute("DELETE FROM archetypes")
    conn.execute("DELETE FROM archetype_cards")
    by_norm: dict[str, set[str]] = {}
    names: list[tuple[str, str, str, str]] = []
    codes: dict[int, list[int]] = {}  # low 12 bits -> archetype codes
    for code, name, lang in conn.execute("SELECT code, name, lang FROM setnames"):
        key, norm = arch_key(int(code)), fold(name)
        names.append((key, name, lang, norm))
        if norm:
            by_norm.setdefault(norm, set()).add(key)
        codes.setdefault(int(code) & 0xFFF, [])
        if int(code) not in codes[int(code) & 0xFFF]:
            codes[int(code) & 0xFFF].append(int(code))
    members: list[tuple[str, int, str]] = []
    if codes:
        for cid, setcode in conn.execute("SELECT id, setcode FROM cards WHERE setcode != 0"):
            for part in parts(int(setcode)):
                for code in codes.get(part & 0xFFF, ()):
                    if part & code == code:
                        members.append((arch_key(code), int(cid), "setcode"))
    for cid, name in conn.execute("SELECT DISTINCT card_id, name FROM card_series"):
        norm = fold(name)
        if not norm:
            continue
        keys = by_norm.get(norm)
        if keys is None:  # a series no strings.conf names: an archetype of its own
            key = f"series:{norm}"
            keys = by_norm[norm] = {key}
            names.append((key, name, "en", norm))
        members.extend((key, int(cid), "series") for key in keys)
    conn.executemany(
        "INSERT OR IGNORE INTO archetypes (arch, name, lang, norm) VALUES (?, ?, ?, ?)", names
    )
    conn.executemany(
        "INSERT OR IGNORE INTO archetype_cards (arch, card_id, how) VALUES (?, ?, ?)", members
    )
