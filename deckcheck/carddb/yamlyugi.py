"""Reads DawnbrandBots/yaml-yugi aggregates (``cards.json``, ``rush.json``, ``skill.json``).

Each is one JSON array of card objects. This module turns them into plain records (Konami id,
passcode, official names per deckcheck language with ``<ruby>`` markup split into name and
reading) and leaves matching them to the card database to ``deckcheck.carddb.official``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from deckcheck.datafile import checked_id
from deckcheck.errors import InputError
from deckcheck.records import Record, field, record

#: Which array a file holds, told apart by the keys of its objects.
KINDS = ("cards", "rush", "skill")

# yaml-yugi name keys -> (deckcheck language, kind). Romanizations are readings: they let a
# player type "Haru Urara" and find the card, but they are not the card's printed name.
_NAME_KEYS: dict[str, tuple[str, str]] = {
    "en": ("en", "name"),
    "de": ("de", "name"),
    "es": ("es", "name"),
    "fr": ("fr", "name"),
    "it": ("it", "name"),
    "pt": ("pt", "name"),
    "ja": ("ja", "name"),
    "ja_romaji": ("ja", "reading"),
    "ko": ("ko", "name"),
    "ko_rr": ("ko", "reading"),
    "zh-TW": ("zh-TW", "name"),
    "zh-CN": ("zh-CN", "name"),
}
_RUBY = re.compile(r"<ruby>(.*?)<rt>(.*?)</rt></ruby>", re.DOTALL)
_TAG = re.compile(r"<[^>]*>")


@record
class OfficialCard(Record):
    """One yaml-yugi object: identity and names (no effect text)."""

    kind: str  # cards | rush | skill
    index: int  # position in the array, for messages
    page_id: int | None
    konami_id: int | None = None
    password: int | None = None
    fake_password: int | None = None
    # (lang, name, kind) with kind "name" or "reading"
    names: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)
    #: ``master_duel_rarity`` (N/R/SR/UR: the card is in Master Duel), None when absent
    md_rarity: str | None = None

    @property
    def name_en(self) -> str | None:
        for lang, name, kind in self.names:
            if lang == "en" and kind == "name":
                return name
        return None

    def label(self) -> str:
        ident = (
            f"Konami id {self.konami_id}"
            if self.konami_id is not None
            else f"Yugipedia page {self.page_id}"
        )
        return f"{self.name_en or '?'} ({ident})"


def split_ruby(text: str) -> tuple[str, str | None]:
    """Name and reading of a yaml-yugi name with ``<ruby>`` markup.

    ``<ruby>灰<rt>は</rt></ruby><ruby>流<rt>る</rt></ruby>うらら`` gives (``灰流うらら``,
    ``はるうらら``): the reading replaces each ruby base by its annotation; it is None
    when there is no markup.
    """
    if "<" not in text:
        return text, None
    base = _TAG.sub("", _RUBY.sub(r"\1", text)).strip()
    reading = _TAG.sub("", _RUBY.sub(r"\2", text)).strip()
    return base, (reading if reading != base else None)


def detect_kind(data: Any) -> str | None:
    """Which yaml-yugi array ``data`` is, from its objects' keys; None when it is none of them."""
    if not isinstance(data, list) or not data or not isinstance(data[0], dict):
        return None
    keys = set(data[0])
    if "name" not in keys or "yugipedia_page_id" not in keys:
        return None
    if "password" in keys or "limit_regulation" in keys:
        return "cards"
    if "konami_id" in keys:
        return "rush"
    if "type_line" in keys or "character" in keys:
        return "skill"
    return None


def load_json(path: Path) -> Any:
    """Parse a JSON file; a syntax error names the file and line."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=str(path)) from None
    try:
        return json.loads(raw)
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 JSON: {exc.reason}", where=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"malformed JSON: {exc.msg} (column {exc.colno})", where=f"{path}:{exc.lineno}"
        ) from None
    except ValueError:  # json.loads refuses an int over 4300 digits (int_max_str_digits)
        raise InputError(
            "malformed JSON: a number over 4300 digits long", where=str(path)
        ) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", where=str(path)) from None


def _int(obj: dict[str, Any], key: str, where: str, at: str) -> int | None:
    v = obj.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(f"{at}.{key}: expected an integer or null, got {v!r}", where=where)
    return checked_id(v, f"{at}.{key}", where)


def parse(data: Any, kind: str, where: str) -> list[OfficialCard]:
    """Records of a parsed yaml-yugi array of ``kind``; a wrong shape names its JSON path."""
    if not isinstance(data, list):
        raise InputError("expected a JSON array of yaml-yugi card objects", where=where)
    out: list[OfficialCard] = []
    for i, obj in enumerate(data):
        at = f"[{i}]"
        if not isinstance(obj, dict):
            raise InputError(f"{at}: expected an object, got {type(obj).__name__}", where=where)
        names = obj.get("name")
        if not isinstance(names, dict):
            raise InputError(f"{at}.name: expected an object of names by language", where=where)
        rows: list[tuple[str, str, str]] = []
        for key, value in names.items():
            if value is None or key not in _NAME_KEYS:
                continue
            if not isinstance(value, str):
                raise InputError(f"{at}.name.{key}: expected a string or null", where=where)
            lang, nkind = _NAME_KEYS[key]
            base, reading = split_ruby(value)
            if base:
                rows.append((lang, base, nkind))
            if reading:
                rows.append((lang, reading, "reading"))
        konami = _int(obj, "konami_id", where, at) if kind != "skill" else None
        password = _int(obj, "password", where, at) if kind == "cards" else None
        fake = _int(obj, "fake_password", where, at) if kind == "cards" else None
        rarity = obj.get("master_duel_rarity") if kind == "cards" else None
        if rarity is not None and not isinstance(rarity, str):
            raise InputError(f"{at}.master_duel_rarity: expected a string or null", where=where)
        out.append(
            OfficialCard(
                kind=kind,
                index=i,
                page_id=_int(obj, "yugipedia_page_id", where, at),
                konami_id=konami,
                password=password,
                fake_password=fake,
                names=tuple(dict.fromkeys(rows)),
                md_rarity=rarity or None,
            )
        )
    return out
