"""Importing lflist.conf files into the list store: one YAML file per list version, written
atomically, the same list from two sources merged, differences reported.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deckcheck import notes as dc_notes
from deckcheck import paths
from deckcheck.errors import InputError
from deckcheck.model import Banlist, Group

_LIMIT_WORD = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}


@dataclass(frozen=True, slots=True)
class Conflict:
    """The same family and date read twice with different entries."""

    family: str
    effective: dt.date
    sources: tuple[str, str]
    cards: tuple[tuple[int, int | None, int | None], ...]  # (id, limit in first, in second)

    def message(self) -> str:
        shown = ", ".join(
            f"{c} ({'-' if a is None else a} vs {'-' if b is None else b})"
            for c, a, b in self.cards[:10]
        )
        more = f" and {len(self.cards) - 10} more" if len(self.cards) > 10 else ""
        return (
            f"{self.family} {self.effective.isoformat()}: {self.sources[0]} and {self.sources[1]} "
            f"differ on {len(self.cards)} card(s): {shown}{more}; kept the first"
        )


@dataclass(slots=True)
class ImportResult:
    written: list[Path] = field(default_factory=list)  # new or changed files
    unchanged: list[Path] = field(default_factory=list)
    lists: list[Banlist] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def list_key(db: Any, card: int) -> int:
    """The id a list entry is kept under: an alternate artwork's card, else the passcode.

    Only artworks are merged. A card "treated as" another (a Rush reprint of an OCG card, a
    GOAT or pre-errata entry) keeps its own passcode, because EDOPro looks a list up by the
    passcode and then by its alias, never the other way: the GOAT list naming "Terraforming
    (GOAT)" does not admit the modern Terraforming, and a Rush list forbidding "Vanity's Fiend
    (Rush)" says nothing about the OCG card. Rules read the canonical id first, then the
    passcode, so the treated-as card still takes its alias's status.
    """
    return int(db.list_key(card))


def canonicalize(b: Banlist, db: Any) -> Banlist:
    """Key a list by canonical passcodes (alternate artworks share their card's status)."""

    def canon(card: int) -> int:
        return list_key(db, card)

    limits: dict[int, int] = {}
    for card, lim in b.limits.items():
        c = canon(card)
        # Two artworks of one card listed: the stricter limit is the card's.
        limits[c] = min(lim, limits.get(c, lim))
    names = {canon(c): n for c, n in b.names.items()}
    return replace(
        b,
        limits=limits,
        names=names,
        points={canon(c): p for c, p in b.points.items()},
        groups=tuple(
            Group(g.name, g.limit, frozenset(canon(c) for c in g.cards)) for g in b.groups
        ),
    )


def _db(target: Path) -> Any:
    # A list folder inside a data home (``<home>/banlists``) goes with that home's database.
    for cand in (target.parent / paths.database_path().name, paths.database_path()):
        if cand.is_file():
            from deckcheck.carddb import open_db

            return open_db(cand)
    return None


# Characters YAML does not allow raw in a document (YAML 1.1 §5.1 "printable"); escaped.
# NEL and the Unicode line/paragraph separators are line breaks to YAML: escaped as well.
_NOT_PRINTABLE = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def _q(text: str) -> str:
    """A double-quoted scalar: JSON's escapes are YAML's, and other readers can json.loads it."""
    out = json.dumps(text, ensure_ascii=False)
    return _NOT_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def to_yaml(b: Banlist, notes: Sequence[str] = ()) -> str:
    """The list as a YAML file in the shape of docs/ARCHITECTURE.md (one entry per line)."""
    out = [
        f"name: {_q(b.name)}",
        f"family: {b.family}",
        f"effective: {b.effective.isoformat()}",
        f"date_exact: {'true' if b.date_exact else 'false'}",
        f"source: {_q(b.source)}",
        f"mode: {b.mode}",
    ]
    if notes:
        out.append("notes:")
        out.extend(f"  - {_q(n)}" for n in notes)

    def named(card: int) -> str:
        n = b.names.get(card)
        return f", name: {_q(n)}" if n else ""

    out.append("entries:" if b.limits else "entries: []")
    for card, lim in sorted(b.limits.items(), key=lambda kv: (kv[1], kv[0])):
        out.append(f"  - {{id: {card}{named(card)}, limit: {lim}}}")
    if b.groups:
        out.append("groups:")
        for g in b.groups:
            cards = ", ".join(str(c) for c in sorted(g.cards))
            out.append(f"  - {{name: {_q(g.name)}, limit: {g.limit}, cards: [{cards}]}}")
    if b.points:
        out.append("points:")
        for card, pts in sorted(b.points.items(), key=lambda kv: (kv[1], kv[0])):
            out.append(f"  - {{id: {card}{named(card)}, points: {pts}}}")
    return "\n".join(out) + "\n"


def _differs(a: Banlist, b: Banlist) -> list[tuple[int, int | None, int | None]]:
    ids = set(a.limits) | set(b.limits) | set(a.points) | set(b.points)
    out = []
    for c in sorted(ids):
        la = a.points.get(c) if a.points else a.limits.get(c)
        lb = b.points.get(c) if b.points else b.limits.get(c)
        if la != lb:
            out.append((c, la, lb))
    return out


def read_lists(
    paths_: Sequence[Path],
    *,
    family: str | None = None,
    effective: dt.date | None = None,
) -> list[tuple[Banlist, list[str]]]:
    """Every list of the given lflist.conf files as Banlists (passcodes as written) + notes."""
    from deckcheck.formats import lflist

    out: list[tuple[Banlist, list[str]]] = []
    from deckcheck.formats.store import name_key

    for p in paths_:
        p = Path(p)
        pick = None
        if not p.exists() and "#" in p.name:
            # "file.conf#2024.09 TCG": one list of a file that holds several.
            head, _, pick = str(p).rpartition("#")
            p = Path(head)
        lists = lflist.parse_file(p)
        if pick is not None:
            lists = [lf for lf in lists if name_key(lf.name) == name_key(pick)]
            if not lists:
                raise InputError(f"no list named {pick!r} in this file", where=str(p))
        for lf in lists:
            fam = family or lflist.family_of(lf.name, p)
            if fam is None:
                raise InputError(
                    f"cannot tell the family of list {lf.name!r} from its name; pass --family",
                    where=f"{p}:{lf.line}",
                )
            notes: list[str] = []
            if effective is not None:
                eff, exact = effective, True
            else:
                got = lflist.date_of(lf.name)
                if got is None:
                    raise InputError(
                        f"list {lf.name!r} has no date in its name; pass --effective YYYY-MM-DD",
                        where=f"{p}:{lf.line}",
                    )
                eff, exact = got
                if not exact:
                    notes.append(
                        f"Only the month is known from the name {lf.name!r}; "
                        "the effective date is set to the 1st."
                    )
            if any(e.count < 0 for e in lf.entries):
                notes.append("Entries with count -1 in the source are read as Forbidden (0).")
            src = f"{p.parent.name}/{p.name}" if p.parent.name else p.name
            b = lflist.to_banlist(
                lf, family=fam, effective=eff, date_exact=exact, source=src, path=str(p)
            )
            out.append((b, notes))
    return out


def import_lflists(
    paths: Sequence[Path],
    *,
    dest: Path | None = None,
    family: str | None = None,
    effective: dt.date | None = None,
    out_dir: Path | None = None,
) -> ImportResult:
    """Import lflist.conf files into ``dest/<family>/<YYYY-MM-DD>.yaml`` (default: lists_dir()).

    ``out_dir`` is a synonym of ``dest`` (``banlist import --out``). Re-importing the same files
    changes nothing. Everything is read and checked before the first file is written.
    """
    from deckcheck import paths as _paths

    target = Path(out_dir or dest or _paths.lists_dir())
    db = _db(target)
    result = ImportResult()
    chosen: dict[tuple[str, dt.date], tuple[Banlist, list[str]]] = {}
    read = read_lists(paths, family=family, effective=effective)
    if effective is not None:
        fams = [b.family for b, _ in read]
        twice = sorted({f for f in fams if fams.count(f) > 1})
        if twice:
            raise InputError(
                f"--effective gives every list one date, but there are several {twice[0]!r} "
                "lists; import them one file at a time or pick one with path#name"
            )
    for b, notes in read:
        if db is not None:
            b = canonicalize(b, db)
            names = dict(b.names)
            for c in {*b.limits, *b.points}:
                card = db.get(c)
                if card is not None:
                    names[c] = db.name(c)  # the database's English name beats a comment
            b = replace(b, names=names)
        slot = (b.family, b.effective)
        prev = chosen.get(slot)
        if prev is None:
            chosen[slot] = (b, notes)
            continue
        diff = _differs(prev[0], b)
        if diff:
            conflict = Conflict(b.family, b.effective, (prev[0].source, b.source), tuple(diff))
            result.conflicts.append(conflict)
            dc_notes.note(f"deckcheck: note: {conflict.message()}")
    from deckcheck.formats.store import seed_cache, write_atomic

    for (fam, eff), (b, notes) in sorted(chosen.items()):
        path = target / fam / f"{eff.isoformat()}.yaml"
        text = to_yaml(b, notes)
        try:
            old = path.read_text(encoding="utf-8")
        except OSError:
            old = None
        if old == text:
            result.unchanged.append(path)
        else:
            write_atomic(path, text)
            result.written.append(path)
            if target.resolve() == _paths.lists_dir().resolve():
                seed_cache(path, replace(b, path=str(path)))
        result.lists.append(replace(b, path=str(path)))
        result.notes.extend(notes)
    return result
