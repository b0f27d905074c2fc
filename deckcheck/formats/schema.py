"""Pydantic models of the list and format YAML files, safe YAML loading, and errors that name
file, key and reason.

Only the cold path imports this module (the store compiles YAML into a JSON cache). Files are
turned into plain JSON-ready dicts (``list_dict`` / ``format_dict``); ``deckcheck.formats.store``
turns those into ``model.Banlist`` / ``model.Format`` on both the cold and the warm path.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from deckcheck import dates, fsio
from deckcheck.errors import DataError, InputError

MAX_YAML_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 20  # list and format files are at most four levels deep

# An anchor or alias token (&x / *x) at the start of a node; quoted text can trip it, so a hit
# only sends the file through the slower alias-refusing loader, which decides exactly.
_MAYBE_ALIAS = re.compile(r"(?:^|[\s\[{,:\-])[&*][^\s\]},]", re.MULTILINE)


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader that refuses anchors/aliases: list files never need them (alias bombs)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            ev = self.peek_event()
            raise InputError(
                "YAML aliases (*name) are not allowed in list and format files",
                where=f"{self.name}:{ev.start_mark.line + 1}",
            )
        return super().compose_node(parent, index)


def _depth(node: Any, limit: int) -> int:
    stack = [(node, 1)]
    deepest = 0
    while stack:
        cur, d = stack.pop()
        deepest = max(deepest, d)
        if d > limit:
            return d
        if isinstance(cur, dict):
            stack.extend((v, d + 1) for v in cur.values())
        elif isinstance(cur, list):
            stack.extend((v, d + 1) for v in cur)
    return deepest


# The importer's own layout (one flow mapping per line, JSON-quoted strings), read without the
# YAML constructor, which costs ~50 ms per big list. Any other line sends the file to YAML.
_J = r'"(?:[^"\\]|\\.)*"'
_TOP = re.compile(
    r"^(name|source): (" + _J + r")$|^(family|mode): ([a-z0-9-]+)$"
    r"|^effective: (\d{4}-\d{2}-\d{2})$|^date_exact: (true|false)$"
    r"|^(notes|entries|groups|points):( \[\])?$"
)
_ITEM = re.compile(
    r"^  - \{(?:id: (\d+)(?:, name: (" + _J + r"))?, (limit|points): (\d+)"
    r"|name: (" + _J + r"), limit: (\d+), cards: \[([\d, ]*)\])\}$"
)
_NOTE = re.compile(r"^  - (" + _J + r")$")


def _fast_list_doc(text: str) -> dict[str, Any] | None:
    import json

    doc: dict[str, Any] = {}
    section: str | None = None
    for line in text.split("\n"):
        line = line.removesuffix("\r")
        if not line or line.startswith("#"):
            continue
        m = _TOP.match(line)
        if m:
            if m.group(1):
                doc[m.group(1)] = json.loads(m.group(2))
            elif m.group(3):
                doc[m.group(3)] = m.group(4)
            elif m.group(5):
                doc["effective"] = dates.parse_date(m.group(5))
            elif m.group(6):
                doc["date_exact"] = m.group(6) == "true"
            else:
                section = m.group(7)
                if section in doc:
                    return None
                doc[section] = []
            continue
        if section is None:
            return None
        if section == "notes":
            n = _NOTE.match(line)
            if n is None:
                return None
            doc["notes"].append(json.loads(n.group(1)))
            continue
        m = _ITEM.match(line)
        if m is None:
            return None
        if m.group(1):
            item: dict[str, Any] = {"id": int(m.group(1))}
            if m.group(2):
                item["name"] = json.loads(m.group(2))
            item[m.group(3)] = int(m.group(4))
        else:
            cards = [int(c) for c in m.group(7).split(",") if c.strip()]
            item = {"name": json.loads(m.group(5)), "limit": int(m.group(6)), "cards": cards}
        doc[section].append(item)
    return doc


# libyaml recurses in C once per nesting level and crashes the process (SIGSEGV) somewhere
# past 30,000 levels, before any Python check runs; refuse such text before parsing.
_DEEP_FLOW = 1000
_DASH_CHAIN = re.compile(rf"(?:[-?:][ \t]+){{{_DEEP_FLOW}}}")
_BRACKET = re.compile(r"[\[\]{}]")


def _too_deep(text: str) -> bool:
    if text.count("[") + text.count("{") > _DEEP_FLOW:
        depth = 0
        for m in _BRACKET.finditer(text):
            depth += 1 if m.group() in "[{" else -1
            if depth > _DEEP_FLOW:
                return True
    return _DASH_CHAIN.search(text) is not None


def load_yaml(path: Path) -> Any:
    """A YAML document, safely: size cap, no aliases, bounded nesting, errors with the line."""
    try:
        data = fsio.read_bounded(path, MAX_YAML_BYTES)
    except fsio.TooLarge as exc:
        msg = f"file is {exc.size} bytes, more than {MAX_YAML_BYTES}"
        raise InputError(msg, where=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=str(path)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", where=str(path)) from None
    if _too_deep(text):
        raise InputError(f"YAML nested deeper than {MAX_DEPTH} levels", where=str(path))
    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    if _MAYBE_ALIAS.search(text):
        loader = _NoAliasLoader
    try:
        ld = loader(text)
        ld.name = str(path)
        try:
            doc = ld.get_single_data()
        finally:
            ld.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        what = " ".join(str(exc.problem or exc.context).split())
        raise InputError(f"malformed YAML: {what}", where=where) from None
    except yaml.YAMLError as exc:
        # A ReaderError's text spans two lines; the error is printed as one.
        what = " ".join(str(exc).split())
        raise InputError(f"malformed YAML: {what}", where=str(path)) from None
    except ValueError:
        # int() refuses over 4300 digits; no number in a list or format is that long.
        raise InputError(
            "malformed YAML: a number over 4300 digits long", where=str(path)
        ) from None
    except RecursionError:
        raise InputError("YAML nested too deeply", where=str(path)) from None
    if _depth(doc, MAX_DEPTH) > MAX_DEPTH:
        raise InputError(f"YAML nested deeper than {MAX_DEPTH} levels", where=str(path))
    return doc


def _fast_list_file(path: Path) -> dict[str, Any] | None:
    try:
        if path.stat().st_size > MAX_YAML_BYTES:
            return None  # load_yaml says why
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        return _fast_list_doc(text)
    except ValueError:
        return None


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            # A key may hold any text, line breaks too; the error must stay one line.
            key = str(part)
            out += ("." if out else "") + (key if key.isprintable() and key else repr(key))
    return out or "(top level)"


def validation_error(path: Path | str, exc: ValidationError) -> DataError:
    """One DataError line for a file: ``file: key: reason; key: reason``."""
    parts = []
    for err in exc.errors():
        msg = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        elif err["type"] == "missing":
            msg = "required key missing"
        # Union members are listed in the location (e.g. "int"); they do not help the reader.
        loc = tuple(p for p in err["loc"] if p not in ("int", "str", "date", "function-after"))
        parts.append(f"{_loc(loc)}: {msg}")
    return DataError("; ".join(parts[:5]) + (" …" if len(parts) > 5 else ""), where=str(path))


# --------------------------------------------------------------------------- lists


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Entry(BaseModel):
    # Extra keys (seed_name, seed_line, notes …) are for humans and are kept out of the model.
    model_config = ConfigDict(extra="allow")

    id: int | None = Field(default=None, gt=0)
    card: str | None = None
    name: str | None = None
    limit: int

    @field_validator("limit")
    @classmethod
    def _limit(cls, v: int) -> int:
        if not 0 <= v <= 3:
            raise ValueError("must be 0–3")
        return v

    @model_validator(mode="after")
    def _one_key(self) -> Entry:
        if (self.id is None) == (self.card is None):
            raise ValueError("give exactly one of 'id' (passcode) or 'card' (name)")
        return self


class PointsEntry(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: int | None = Field(default=None, gt=0)
    card: str | None = None
    name: str | None = None
    points: int = Field(ge=0)

    @model_validator(mode="after")
    def _one_key(self) -> PointsEntry:
        if (self.id is None) == (self.card is None):
            raise ValueError("give exactly one of 'id' (passcode) or 'card' (name)")
        return self


class GroupModel(_Strict):
    name: str
    limit: int = Field(ge=0)
    cards: list[int | str]


class ListFile(_Strict):
    name: str = Field(min_length=1)
    family: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    effective: dt.date
    date_exact: bool = True
    source: str = ""
    mode: Literal["blacklist", "whitelist"] = "blacklist"
    notes: list[str] = []
    entries: list[Entry] = []
    groups: list[GroupModel] = []
    points: list[PointsEntry] = []


class _Names:
    """Resolves ``card:`` names and canonical ids through the card database, opened lazily."""

    def __init__(self, db: Any = None):
        self._db = db
        self._index: Any = None
        self.used_db = db is not None

    def db(self) -> Any:
        if self._db is None:
            from deckcheck.carddb import open_db

            self._db = open_db()
            self.used_db = True
        return self._db

    def canonical(self, card: int) -> int:
        """The id a list keeps the card under (artworks merged; see importer.list_key)."""
        if self._db is None:
            return card
        from deckcheck.formats.importer import list_key

        return list_key(self._db, card)

    def resolve(self, name: str, where: str) -> tuple[int, str]:
        db = self.db()
        if self._index is None:
            from deckcheck.lookup import Index

            self._index = Index.for_db(db)
        res = self._index.resolve(name)
        if res.status == "found" and res.card_id is not None:
            return self.canonical(int(res.card_id)), db.name(int(res.card_id))
        cands = ", ".join(f"{m.name} ({m.card_id})" for m in res.candidates[:5])
        if res.status == "ambiguous":
            raise DataError(f"card name {name!r} is ambiguous: {cands}; write its id", where=where)
        hint = f"; did you mean: {cands}" if cands else ""
        raise DataError(f"unknown card name {name!r}{hint}", where=where)


def list_dict(path: Path, doc: Any = None, *, db: Any = None) -> dict[str, Any]:
    """A list file checked and compiled to a JSON-ready dict (ids canonical when a db is given).

    ``card:`` entries open the installed card database (or the sample) to resolve names.
    """
    if doc is None:
        doc = _fast_list_file(path)
    if doc is None:
        doc = load_yaml(path)
    if not isinstance(doc, dict):
        raise DataError(
            "a list file must be a mapping (name:, family:, entries: …)", where=str(path)
        )
    try:
        lf = ListFile.model_validate(doc)
    except ValidationError as exc:
        raise validation_error(path, exc) from None
    names = _Names(db)
    limits: dict[str, int] = {}
    shown: dict[str, str] = {}

    def key(e: Entry | PointsEntry, what: str, i: int) -> int:
        if e.card is not None:
            card, nm = names.resolve(e.card, f"{path}: {what}[{i}].card")
            shown.setdefault(str(card), e.name or nm)
            return card
        assert e.id is not None
        card = names.canonical(e.id)
        if e.name:
            shown.setdefault(str(card), e.name)
        return card

    written: dict[int | str, int] = {}
    for i, e in enumerate(lf.entries):
        as_written: int | str = e.id if e.id is not None else str(e.card)
        if as_written in written and written[as_written] != e.limit:
            raise DataError(
                f"entries[{i}]: card {as_written} is listed twice with limits "
                f"{written[as_written]} and {e.limit}",
                where=str(path),
            )
        written[as_written] = e.limit
        k = str(key(e, "entries", i))
        # Two artworks of one card may both be listed: the stricter limit is the card's.
        limits[k] = min(e.limit, limits.get(k, e.limit))
    points = {str(key(e, "points", i)): e.points for i, e in enumerate(lf.points)}
    groups = []
    for gi, g in enumerate(lf.groups):
        members = []
        for ci, c in enumerate(g.cards):
            if isinstance(c, str):
                members.append(names.resolve(c, f"{path}: groups[{gi}].cards[{ci}]")[0])
            else:
                members.append(names.canonical(c))
        groups.append({"name": g.name, "limit": g.limit, "cards": sorted(set(members))})
    return {
        "name": lf.name,
        "family": lf.family,
        "effective": lf.effective.isoformat(),
        "date_exact": lf.date_exact,
        "source": lf.source,
        "mode": lf.mode,
        "notes": lf.notes,
        "limits": limits,
        "names": shown,
        "groups": groups,
        "points": points,
        "path": str(path),
        "used_db": names.used_db,
    }


# --------------------------------------------------------------------------- formats


class Size(_Strict):
    min: int = Field(default=0, ge=0)
    max: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _order(self) -> Size:
        if self.max is not None and self.max < self.min:
            raise ValueError("max is smaller than min")
        return self


_TYPES = Literal["fusion", "synchro", "xyz", "link", "ritual", "pendulum", "effect", "normal",
                 "spirit", "union", "gemini", "tuner", "toon", "flip", "maximum", "token",
                 "quick-play", "continuous", "equip", "field", "counter", "monster", "spell",
                 "trap", "skill"]  # fmt: skip


class FormatBody(_Strict):
    """The keys a format file, or one of its ``changes[].set`` blocks, may set."""

    name: str | None = None
    description: str | None = None
    source: str | None = None
    main: Size | None = None
    extra: Size | None = None
    side: Size | None = None
    copies: int | None = Field(default=None, ge=1, le=99)
    list_family: str | None = None
    forbidden_as_limited: bool | None = None
    pool: list[str] | None = None
    release_region: str | None = None
    release_cutoff: dt.date | None = None
    skills: Size | None = None
    legend: Literal["none", "one_total", "one_per_type"] | None = None
    extra_deck_types: list[_TYPES] | None = None
    banned_types: list[_TYPES] | None = None
    points_cap: int | None = Field(default=None, ge=0)


class Change(_Strict):
    since: dt.date
    set: FormatBody


class FormatFile(FormatBody):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    extends: str | None = None
    changes: list[Change] = []

    @field_validator("pool")
    @classmethod
    def _pool(cls, v: list[str] | None) -> list[str] | None:
        from deckcheck.model import Scope

        for s in v or ():
            if s.upper() not in Scope.__members__:
                known = ", ".join(m.lower() for m in Scope.__members__)
                raise ValueError(f"unknown scope {s!r} (known: {known})")
        return v


def _jsonable(v: Any) -> Any:
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    return v


def format_file(path: Path) -> dict[str, Any]:
    """One format file checked: the keys it sets (JSON-ready), plus ``extends`` and ``changes``."""
    doc = load_yaml(path)
    if not isinstance(doc, dict):
        raise DataError("a format file must be a mapping (id:, name:, main: …)", where=str(path))
    try:
        ff = FormatFile.model_validate(doc)
    except ValidationError as exc:
        raise validation_error(path, exc) from None
    body = ff.model_dump(exclude_unset=True, exclude={"changes"})
    body["changes"] = [
        {"since": c.since.isoformat(), "set": _jsonable(c.set.model_dump(exclude_unset=True))}
        for c in ff.changes
    ]
    body["path"] = str(path)
    return _jsonable(body)  # type: ignore[no-any-return]


def merge_formats(files: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Resolve ``extends`` (the child's keys win; changes accumulate, oldest first)."""
    out: dict[str, dict[str, Any]] = {}

    def build(fid: str, seen: tuple[str, ...]) -> dict[str, Any]:
        if fid in out:
            return out[fid]
        own = files[fid]
        parent = own.get("extends")
        if parent is None:
            merged = dict(own)
        else:
            if parent in seen or parent == fid:
                chain = " -> ".join((*seen, fid, parent))
                raise DataError(f"format 'extends' cycle: {chain}", where=own["path"])
            if parent not in files:
                known = ", ".join(sorted(files))
                raise DataError(
                    f"extends: unknown format {parent!r} (known: {known})", where=own["path"]
                )
            base = build(parent, (*seen, fid))
            merged = {**base, **{k: v for k, v in own.items() if k != "changes"}}
            merged["changes"] = sorted(
                [*base.get("changes", []), *own.get("changes", [])], key=lambda c: c["since"]
            )
        if "name" not in merged:
            raise DataError("name: required key missing", where=own["path"])
        out[fid] = merged
        return merged

    for fid in files:
        build(fid, ())
    return out
