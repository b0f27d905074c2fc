"""Reads the iconmaster5326/YGOJSON individual layout (a folder, or its release zip) into the
earliest release date per passcode and region, with the set that released it.

The rule is the one of ../shared/data/README.md 5.2: passcodes come from a card's
``passwords[]`` and ``images[].password`` (leading digits only); a physical set's block dates
each of its locales by ``set.locales[L].date``; a virtual (Master Duel / Duel Links) block uses
the set's date and its ``formats[0]``. OCG is ``jp``; TCG is the earliest of the TCG locales.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from deckcheck.datafile import checked_id
from deckcheck.errors import InputError
from deckcheck.records import Record, field, record

#: Regions stored, in display order (``ocg`` = Japanese OCG; kr/ae/sc/tc are OCG regions).
REGIONS: tuple[str, ...] = ("ocg", "tcg", "kr", "ae", "sc", "tc", "masterduel", "duellinks")
TCG_LOCALES = frozenset({"en", "na", "eu", "oc", "de", "fr", "it", "sp", "pt", "fc"})
_LOCALE_REGION = {"jp": "ocg", "kr": "kr", "ae": "ae", "sc": "sc", "tc": "tc"}
_VIRTUAL = {"masterduel": "masterduel", "duellinks": "duellinks"}
#: card-file keys that put a card in a video game (its rarity there)
_GAME_KEYS = {"masterDuel": "masterduel", "duelLinks": "duellinks"}
_DIGITS = re.compile(r"\s*([0-9]+)")  # ASCII: int() would read "١٢" as 12 too
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@record(frozen=False, slots=True)
class Releases(Record):
    """What one YGOJSON tree gave: first (date, set name) per passcode and region."""

    first: dict[int, dict[str, tuple[str, str]]] = field(default_factory=dict)
    cards: int = 0
    sets: int = 0
    undated: int = 0  # (block, locale) pairs without a date: skipped, as README 5.2 says
    unknown_cards: int = 0  # printings naming a card UUID that has no card file
    konami_ids: dict[int, int] = field(default_factory=dict)  # passcode -> YGOJSON dbID
    passcodes: set[int] = field(default_factory=set)  # every passcode a card file names
    #: passcode -> the games its card file says it is in (``masterDuel``/``duelLinks`` keys)
    games: dict[int, set[str]] = field(default_factory=dict)


# --------------------------------------------------------------------------- detection


class _Tree:
    """Uniform read access to the layout in a folder or a zip (with or without a top folder)."""

    def __init__(self, path: Path):
        self.path = path
        self.zip: zipfile.ZipFile | None = None
        self.prefix = ""
        if path.is_dir():
            return
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise InputError(f"unreadable zip file: {exc}", where=str(path)) from None
        metas = [n for n in self.zip.namelist() if n.endswith("meta.json") and n.count("/") <= 1]
        metas = [n for n in metas if n == "meta.json" or n.split("/")[-1] == "meta.json"]
        if metas:
            self.prefix = min(metas, key=len)[: -len("meta.json")]

    @property
    def base(self) -> str:
        """Prefix of every file's display name (and, for a folder, of its path)."""
        return f"{self.path}/{self.prefix}" if self.zip else f"{self.path}{os.sep}"

    def close(self) -> None:
        if self.zip is not None:
            self.zip.close()

    def where(self, rel: str) -> str:
        return self.base + rel

    def exists(self, rel: str) -> bool:
        if self.zip is None:
            return (self.path / rel).is_file()
        try:
            self.zip.getinfo(self.prefix + rel)
        except KeyError:
            return False
        return True

    def read(self, rel: str) -> bytes:
        try:
            if self.zip is None:
                with open(os.path.join(self.path, rel), "rb") as f:
                    return f.read()
            return self.zip.read(self.prefix + rel)
        except (OSError, KeyError, zipfile.BadZipFile) as exc:
            raise InputError(f"cannot read: {exc}", where=self.where(rel)) from None

    def listing(self, folder: str) -> list[str]:
        """Relative names of the ``*.json`` files directly in ``folder``, sorted."""
        if self.zip is None:
            d = self.path / folder
            if not d.is_dir():
                return []
            return sorted(f"{folder}/{n}" for n in os.listdir(d) if n.endswith(".json"))
        start = f"{self.prefix}{folder}/"
        return sorted(
            n[len(self.prefix) :]
            for n in self.zip.namelist()
            if n.startswith(start) and n.endswith(".json") and "/" not in n[len(start) :]
        )


def is_ygojson(path: Path) -> bool:
    """True when ``path`` (folder or zip) holds the YGOJSON individual layout."""
    if path.is_file():
        with path.open("rb") as f:
            if f.read(4) != b"PK\x03\x04":
                return False
    elif not path.is_dir():
        return False
    tree = _Tree(path)
    try:
        if tree.exists("meta.json"):
            try:
                meta = json.loads(tree.read("meta.json"))
            except (ValueError, RecursionError):  # not JSON, not UTF-8, a 5,000-digit number
                return False
            schema = str(meta.get("$schema", "")) if isinstance(meta, dict) else ""
            return "YGOJSON" in schema or (tree.listing("cards") != [] and "version" in meta)
        # no meta.json: a cards/ folder whose files are YGOJSON card files still is one
        first = tree.listing("cards")[:1]
        if not first:
            return False
        try:
            doc = json.loads(tree.read(first[0]))
        except (ValueError, RecursionError):
            return False
        return isinstance(doc, dict) and str(doc.get("$schema", "")).endswith("/card.json")
    finally:
        tree.close()


# --------------------------------------------------------------------------- reading


def _load(tree: _Tree, rel: str) -> dict[str, Any]:
    raw = tree.read(rel)
    try:
        doc = json.loads(raw)
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 JSON: {exc.reason}", where=tree.where(rel)) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"malformed JSON: {exc.msg} (column {exc.colno})",
            where=f"{tree.where(rel)}:{exc.lineno}",
        ) from None
    except ValueError:  # json.loads refuses an int over 4300 digits (int_max_str_digits)
        raise InputError(
            "malformed JSON: a number over 4300 digits long", where=tree.where(rel)
        ) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", where=tree.where(rel)) from None
    if not isinstance(doc, dict):
        raise InputError("expected a JSON object", where=tree.where(rel))
    return doc


def _list(doc: dict[str, Any], key: str, where: str) -> list[Any]:
    v = doc.get(key, [])
    if not isinstance(v, list):
        raise InputError(f"{key}: expected a list, got {type(v).__name__}", where=where)
    return v


def _passcodes(doc: dict[str, Any], where: str) -> Iterator[int]:
    for i, pw in enumerate(_list(doc, "passwords", where)):
        if not isinstance(pw, str):
            raise InputError(f"passwords[{i}]: expected a string, got {pw!r}", where=where)
        if m := _DIGITS.match(pw):
            yield _passcode(m.group(1), f"passwords[{i}]", where)
    for i, img in enumerate(_list(doc, "images", where)):
        if not isinstance(img, dict):
            raise InputError(f"images[{i}]: expected an object", where=where)
        pw = img.get("password")
        if isinstance(pw, str) and (m := _DIGITS.match(pw)):
            yield _passcode(m.group(1), f"images[{i}].password", where)


def _passcode(digits: str, what: str, where: str) -> int:
    """The passcode of a YGOJSON password string (ASCII digits, checked before SQLite)."""
    if len(digits) > 10:
        raise InputError(
            f"{what}: {digits[:12]}… ({len(digits)} digits) is not a passcode", where=where
        )
    return checked_id(int(digits), what, where)


def _date(v: Any, key: str, where: str) -> str | None:
    if v is None:
        return None
    if not isinstance(v, str) or not _DATE.match(v):
        raise InputError(f"{key}: expected a YYYY-MM-DD date, got {v!r}", where=where)
    return v


def _set_name(doc: dict[str, Any]) -> str:
    names = doc.get("name")
    if isinstance(names, dict):
        for lang in ("en", "ja", *names):
            v = names.get(lang)
            if isinstance(v, str) and v:
                return v
    return str(doc.get("id", "?"))


def read(path: Path, visit: Any = None) -> Releases:
    """Earliest release per passcode and region of the YGOJSON layout at ``path``.

    ``visit``, when given, sees every parsed file on the way: ``visit.card(doc, passcodes,
    where)`` for each card file, then ``visit.set(doc, where)`` for each set file (one read
    of the tree serves every reader of it, e.g. ``carddb.knowledge``)."""
    tree = _Tree(path)
    try:
        return _read(tree, visit)
    finally:
        tree.close()


def _read(tree: _Tree, visit: Any = None) -> Releases:
    out = Releases()
    by_uuid: dict[str, list[int]] = {}
    card_files = tree.listing("cards")
    if not card_files:
        raise InputError(
            "no cards/*.json files: not the YGOJSON individual layout", where=tree.where("cards")
        )
    base = tree.base
    for rel in card_files:
        where = base + rel
        doc = _load(tree, rel)
        uuid = doc.get("id")
        if not isinstance(uuid, str):
            raise InputError("id: expected the card's UUID string", where=where)
        codes = list(dict.fromkeys(_passcodes(doc, where)))
        by_uuid[uuid] = codes
        out.passcodes.update(codes)
        if visit is not None:
            visit.card(doc, codes, where)
        ext = doc.get("externalIDs")
        kid = ext.get("dbID") if isinstance(ext, dict) else None
        # YGOJSON writes a negative dbID for a card Konami's database lacks (71 in 2025-11):
        # no id; one over 32 bits is a broken file
        if isinstance(kid, int) and not isinstance(kid, bool) and kid >= 0:
            checked_id(kid, "externalIDs.dbID", where)
            for c in codes:
                out.konami_ids.setdefault(c, kid)
        in_games = {game for key, game in _GAME_KEYS.items() if doc.get(key) is not None}
        for c in codes:
            out.games.setdefault(c, set()).update(in_games)
    out.cards = len(card_files)
    # first[card uuid][region] = (date, set name)
    first: dict[str, dict[str, tuple[str, str]]] = {}

    def mark(cards: list[str], region: str, date: str, set_name: str) -> None:
        value = (date, set_name)
        for card in cards:
            got = first.get(card)
            if got is None:
                first[card] = {region: value}
                continue
            cur = got.get(region)
            if cur is None or value < cur:
                got[region] = value

    set_files = tree.listing("sets")
    for rel in set_files:
        where = base + rel
        doc = _load(tree, rel)
        name = _set_name(doc)
        if visit is not None:
            visit.set(doc, where)
        locales = doc.get("locales")
        if locales is not None and not isinstance(locales, dict):
            raise InputError("locales: expected an object", where=where)
        set_date = _date(doc.get("date"), "date", where)
        for b, block in enumerate(_list(doc, "contents", where)):
            at = f"contents[{b}]"
            if not isinstance(block, dict):
                raise InputError(f"{at}: expected an object", where=where)
            printings = _list(block, "cards", f"{where} {at}")
            cards = []
            for p, pr in enumerate(printings):
                if not isinstance(pr, dict) or not isinstance(pr.get("card"), str):
                    raise InputError(f"{at}.cards[{p}].card: expected a card UUID", where=where)
                if pr["card"] not in by_uuid:
                    out.unknown_cards += 1
                    continue
                cards.append(pr["card"])
            if "locales" in block:
                for loc in _list(block, "locales", f"{where} {at}"):
                    info = locales.get(loc) if isinstance(locales, dict) else None
                    date = (
                        _date(info.get("date"), f"locales.{loc}.date", where)
                        if isinstance(info, dict)
                        else None
                    )
                    if date is None:
                        out.undated += 1
                        continue
                    region = "tcg" if loc in TCG_LOCALES else _LOCALE_REGION.get(loc)
                    if region is None:
                        continue
                    mark(cards, region, date, name)
            else:
                formats = _list(block, "formats", f"{where} {at}")
                region = _VIRTUAL.get(formats[0]) if formats else None
                date = set_date
                hist = [
                    h.get("startDate")
                    for h in _list(block, "history", where)
                    if isinstance(h, dict) and h.get("startDate")
                ]
                if hist:
                    date = min([d for d in [date, *hist] if d])
                if region is None or date is None:
                    out.undated += 1
                    continue
                mark(cards, region, date, name)
    out.sets = len(set_files)
    for uuid, codes in by_uuid.items():
        got = first.get(uuid)
        if not got:
            continue
        for code in codes:
            dest = out.first.setdefault(code, {})
            for region, value in got.items():
                cur = dest.get(region)
                if cur is None or value < cur:
                    dest[region] = value
    return out
