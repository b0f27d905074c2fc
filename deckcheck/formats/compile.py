"""Compiling list and format files into JSON-ready dicts: checked by the pydantic models of
``formats.schema``, card names and artworks turned into list ids by a card resolver the caller
gives (this module never opens the card database or the lookup index itself).

pydantic is imported only when a file is checked: ``canonicalize`` (lflist.conf lists) needs
none of it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from deckcheck.datafile import load_yaml
from deckcheck.errors import DataError
from deckcheck.formats.listfile import fast_list_file
from deckcheck.model import Banlist, Group

if TYPE_CHECKING:
    from pydantic import ValidationError

    from deckcheck.formats import schema
    from deckcheck.lookup.records import Resolution


class CardResolver(Protocol):
    """What compiling a list needs to know about cards (``deckcheck.cardnames`` has one)."""

    #: True once a card database took part (recorded in the compiled list).
    used_db: bool

    def list_key(self, card: int) -> int:
        """The id a list keeps ``card`` under (an alternate artwork: its card)."""
        ...

    def resolve(self, name: str) -> Resolution:
        """The lookup verdict on a ``card:`` name."""
        ...

    def name(self, card: int) -> str:
        """The card's English name."""
        ...


def canonicalize(b: Banlist, list_key: Callable[[int], int]) -> Banlist:
    """Key a list by list ids (alternate artworks share their card's status)."""
    limits: dict[int, int] = {}
    for card, lim in b.limits.items():
        c = list_key(card)
        # Two artworks of one card listed: the stricter limit is the card's.
        limits[c] = min(lim, limits.get(c, lim))
    names = {list_key(c): n for c, n in b.names.items()}
    return b.replace(
        limits=limits,
        names=names,
        points={list_key(c): p for c, p in b.points.items()},
        groups=tuple(
            Group(g.name, g.limit, frozenset(list_key(c) for c in g.cards)) for g in b.groups
        ),
    )


# --------------------------------------------------------------------------- errors


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


def _resolve_name(cards: CardResolver, name: str, where: str) -> tuple[int, str]:
    res = cards.resolve(name)
    if res.status == "found" and res.card_id is not None:
        return cards.list_key(int(res.card_id)), cards.name(int(res.card_id))
    cands = ", ".join(f"{m.name} ({m.card_id})" for m in res.candidates[:5])
    if res.status == "ambiguous":
        raise DataError(f"card name {name!r} is ambiguous: {cands}; write its id", where=where)
    hint = f"; did you mean: {cands}" if cands else ""
    raise DataError(f"unknown card name {name!r}{hint}", where=where)


def list_dict(path: Path, cards: CardResolver, doc: Any = None) -> dict[str, Any]:
    """A list file checked and compiled to a JSON-ready dict, ids as ``cards`` keys them."""
    from pydantic import ValidationError

    from deckcheck.formats import schema

    if doc is None:
        doc = fast_list_file(path)
    if doc is None:
        doc = load_yaml(path)
    if not isinstance(doc, dict):
        raise DataError(
            "a list file must be a mapping (name:, family:, entries: …)", where=str(path)
        )
    try:
        lf = schema.ListFile.model_validate(doc)
    except ValidationError as exc:
        raise validation_error(path, exc) from None
    limits: dict[str, int] = {}
    shown: dict[str, str] = {}

    def key(e: schema.Entry | schema.PointsEntry, what: str, i: int) -> int:
        if e.card is not None:
            card, nm = _resolve_name(cards, e.card, f"{path}: {what}[{i}].card")
            shown.setdefault(str(card), e.name or nm)
            return card
        assert e.id is not None
        card = cards.list_key(e.id)
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
                members.append(_resolve_name(cards, c, f"{path}: groups[{gi}].cards[{ci}]")[0])
            else:
                members.append(cards.list_key(c))
        groups.append({"name": g.name, "limit": g.limit, "cards": sorted(set(members))})
    return {
        "name": lf.name,
        "family": lf.family,
        "effective": lf.effective.isoformat(),
        "date_exact": lf.date_exact,
        "announced": lf.announced.isoformat() if lf.announced is not None else None,
        "source": lf.source,
        "mode": lf.mode,
        "notes": lf.notes,
        "limits": limits,
        "names": shown,
        "groups": groups,
        "points": points,
        "path": str(path),
        "used_db": cards.used_db,
    }


# --------------------------------------------------------------------------- formats


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
    from pydantic import ValidationError

    from deckcheck.formats import schema

    doc = load_yaml(path)
    if not isinstance(doc, dict):
        raise DataError("a format file must be a mapping (id:, name:, main: …)", where=str(path))
    try:
        ff = schema.FormatFile.model_validate(doc)
    except ValidationError as exc:
        raise validation_error(path, exc) from None
    body = ff.model_dump(exclude_unset=True, exclude={"changes"})
    body["changes"] = [
        {"since": c.since.isoformat(), "set": _jsonable(c.set.model_dump(exclude_unset=True))}
        for c in ff.changes
    ]
    body["path"] = str(path)
    return _jsonable(body)  # type: ignore[no-any-return]


#: a video game's release region (``release_region``), by the format's ``game``
GAME_REGIONS = {"master-duel": "masterduel", "duel-links": "duellinks"}


def _check_pool(merged: dict[str, Any], where: str) -> None:
    """The pool keys of a merged format agree: a Rush ``pool`` needs the Rush universe, a
    video game's release dates only go with that game."""
    universe = merged.get("universe") or ["ocg-tcg"]
    if "rush" in (merged.get("pool") or ()) and "rush" not in universe:
        raise DataError(
            f"pool: [rush] but universe: {universe}: add 'universe: [rush]' (Rush cards are "
            "outside the OCG/TCG universe)",
            where=where,
        )
    game = merged.get("game") or "paper"
    region = merged.get("release_region")
    games = set(GAME_REGIONS.values())
    if region in games and GAME_REGIONS.get(game) != region:
        raise DataError(
            f"release_region: {region} is a video game's; it needs 'game: "
            f"{next(g for g, r in GAME_REGIONS.items() if r == region)}' (game is {game})",
            where=where,
        )
    if game != "paper" and region not in (None, GAME_REGIONS[game]):
        raise DataError(
            f"game: {game} dates its cards by the game (release_region: {GAME_REGIONS[game]} "
            f"or null), not by release_region: {region}",
            where=where,
        )


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
        _check_pool(merged, own["path"])
        out[fid] = merged
        return merged

    for fid in files:
        build(fid, ())
    return out
