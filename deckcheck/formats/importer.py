"""Importing lflist.conf files into the list store: one YAML file per list version, written
atomically, the same list from two sources merged, differences reported.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from deckcheck import notes as dc_notes
from deckcheck.errors import InputError
from deckcheck.formats.compile import canonicalize
from deckcheck.formats.listfile import to_yaml
from deckcheck.model import Banlist

__all__ = ["Conflict", "ImportResult", "import_lflists", "read_lists", "to_yaml"]



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
    from deckcheck.formats.catalog import name_key

    for p in paths_:
        p = Path(p)
        pick = None
        if not p.exists() and "#" in p.name:
            # "file.conf#2024.09 TCG": one list of a file that holds several.
            head, _, pick = str(p).rpartition("#")
            p = Path(head)
        if p.exists() and not p.is_file():
            # /dev/zero, a FIFO, a socket: a list file is a regular file (bounded, no hang)
            raise InputError("not a regular file (an lflist.conf file is)", where=str(p))
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
    from deckcheck import staging

    target = Path(out_dir or dest or _paths.lists_dir())
    home = _paths.data_home().absolute()
    in_home = target.absolute() == home or home in target.absolute().parents
    # The home's lists are installed state: an import serialises with updates and other
    # imports on the home lock, so neither swaps the other's work away. --out elsewhere
    # is the user's own folder: no lock.
    with staging.home_lock() if in_home else contextlib.nullcontext():
        if in_home:
            staging.clean_stale(target, [f"{staging.STAGE_PREFIX}*", ".*.yaml.*.tmp"])
        return _import(paths, target, family, effective)


def _import(
    paths: Sequence[Path], target: Path, family: str | None, effective: dt.date | None
) -> ImportResult:
    from deckcheck import paths as _paths
    from deckcheck import staging
    from deckcheck.cardnames import database_near, list_key
    from deckcheck.datafile import MAX_YAML_BYTES

    db = database_near(target)
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
            b = canonicalize(b, lambda card: list_key(db, card))
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
    from deckcheck.formats.catalog import seed_cache

    to_write: list[tuple[Path, str]] = []
    seeds: list[tuple[Path, Banlist]] = []
    for (fam, eff), (b, notes) in sorted(chosen.items()):
        path = target / fam / f"{eff.isoformat()}.yaml"
        text = to_yaml(b, notes)
        size = len(text.encode("utf-8"))
        if size > MAX_YAML_BYTES:
            # What the importer writes, the store must read back (its YAML cap).
            raise InputError(
                f"list {b.name!r} ({len(b.limits) + len(b.points)} entries) would be a "
                f"{size}-byte list file, over the {MAX_YAML_BYTES}-byte cap every reader "
                "applies; nothing written",
                where=b.path or b.source,
            )
        try:
            old = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            old = None
        if old == text:
            result.unchanged.append(path)
        else:
            to_write.append((path, text))
            result.written.append(path)
            seeds.append((path, b))
        result.lists.append(replace(b, path=str(path)))
        result.notes.extend(notes)
    try:
        staging.write_all(to_write)  # every list or none (a full disk changes nothing)
    except OSError as exc:
        from deckcheck.errors import DataError

        where = getattr(exc, "filename", None) or str(target)
        raise DataError(
            f"cannot write the lists: {exc.strerror or exc}; nothing was changed", where=where
        ) from None
    if target.resolve() == _paths.lists_dir().resolve():
        for path, b in seeds:
            seed_cache(path, replace(b, path=str(path)))
    return result
