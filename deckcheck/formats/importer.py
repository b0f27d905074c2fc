"""Importing lflist.conf files into the list store: one YAML file per list version, written
atomically, the same list from two sources merged, differences reported.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deckcheck import notes as dc_notes
from deckcheck.errors import InputError
from deckcheck.formats import duellinks, faults, official
from deckcheck.formats.compile import canonicalize
from deckcheck.formats.listfile import to_yaml
from deckcheck.formats.official import KonamiMap, Rejected
from deckcheck.model import Banlist, Scope
from deckcheck.records import Record, field, record

__all__ = ["Conflict", "ImportResult", "import_lflists", "read_lists", "to_yaml"]


@record
class Conflict(Record):
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


@record(frozen=False, slots=True)
class ImportResult(Record):
    written: list[Path] = field(default_factory=list)  # new or changed files
    unchanged: list[Path] = field(default_factory=list)
    lists: list[Banlist] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: official lists refused as upstream faults (empty, halved, mostly unmapped)
    rejected: list[Rejected] = field(default_factory=list)
    #: per source file: (ids/names in it, unmapped count, examples)
    unmapped: list[tuple[str, int, int, list[str]]] = field(default_factory=list)
    #: lflist lists skipped as transient upstream (retracted headers, index.json)
    skipped: list[str] = field(default_factory=list)


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
    from deckcheck.formats.listref import name_key

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
    konami: KonamiMap | None = None,
    konami_missing: str = "error",
) -> ImportResult:
    """Import list files into ``dest/<family>/<YYYY-MM-DD>.yaml`` (default: lists_dir()).

    Each file's kind is told by its content: lflist.conf (EDOPro/YGOPro), limit-regulation
    ``*.vector.json`` / ``*.name.json`` (official, exact days) or the Duel Links ``dev.db``.
    Konami ids map through ``konami`` (default: the card database's yaml-yugi data); without
    it a vector file is an error, or with ``konami_missing="skip"`` (``update``) left out with
    a note.
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
    if in_home and staging.in_state(target):
        # the installed lists: every list of this import lands in the next state, switched
        # in one step (a kill at any point leaves the old lists or the new, never a mix)
        with staging.new_state(size_hint=_input_bytes(paths)) as st:
            st.lists.mkdir(exist_ok=True)
            result = _import(paths, st.lists, family, effective, konami, konami_missing)
        from deckcheck.formats.catalog import seed_cache

        # compiled-list cache files a killed import left half-written (live writers hold a lock)
        staging.clean_stale(_paths.cache_dir() / "lists", [".dc-*.tmp"], recursive=False)
        written = {str(p) for p in result.written}
        for b in result.lists:  # keyed by the new state's files, now installed
            if b.path in written:
                seed_cache(Path(b.path), b)
        return _stable_names(result, st.lists, home / _paths.LISTS_NAME)
    with staging.home_lock() if in_home else contextlib.nullcontext():
        # an --out folder: what killed imports left there (not locked, an hour old) goes
        staging.clean_stale(
            target,
            [f"{staging.STAGE_PREFIX}*", ".*.yaml.*.tmp"],
            older_than=0 if in_home else staging.STALE_SECONDS,
        )
        return _import(paths, target, family, effective, konami, konami_missing)


def _stable_names(result: ImportResult, built: Path, stable: Path) -> ImportResult:
    """The written files named through ``<home>/banlists`` (a link to the installed state),
    not the state folder they were built in: the names the user knows and keeps."""

    def name(p: Path | str) -> Path:
        try:
            return stable / Path(p).relative_to(built)
        except ValueError:
            return Path(p)

    result.written = [name(p) for p in result.written]
    result.unchanged = [name(p) for p in result.unchanged]
    result.lists = [b.replace(path=str(name(b.path))) if b.path else b for b in result.lists]
    return result


def _input_bytes(paths: Sequence[Path]) -> int:
    """What the inputs weigh: about what their lists take once written (the full-disk
    message's estimate; ``staging.new_state``)."""
    total = 0
    for p in paths:
        try:
            total += Path(str(p).split("#", 1)[0]).stat().st_size
        except OSError:
            pass
    return total


def _import(
    paths: Sequence[Path],
    target: Path,
    family: str | None,
    effective: dt.date | None,
    konami: KonamiMap | None = None,
    konami_missing: str = "error",
) -> ImportResult:
    from deckcheck import paths as _paths
    from deckcheck import staging
    from deckcheck.cardnames import database_near, list_key
    from deckcheck.datafile import MAX_YAML_BYTES

    db = database_near(target)
    result = ImportResult()
    chosen: dict[tuple[str, dt.date], tuple[Banlist, list[str]]] = {}
    kinds = [(Path(p), official.sniff(Path(p))) for p in paths]
    lf_paths = [p for p, k in kinds if k is None]
    read = _drop_transient(
        read_lists(lf_paths, family=family, effective=effective) if lf_paths else [], result
    )
    off = [(p, k) for p, k in kinds if k is not None]
    if off:
        read = _read_official(off, db, family, konami, target, result, konami_missing) + read
    if effective is not None:
        fams = [b.family for b, _ in read]
        twice = sorted({f for f in fams if fams.count(f) > 1})
        if twice:
            raise InputError(
                f"--effective gives every list one date, but there are several {twice[0]!r} "
                "lists; import them one file at a time or pick one with path#name"
            )
    db_names: dict[int, str | None] = {}
    list_keys: dict[int, int] = {}

    def keyed(card: int) -> int:  # whitelists name thousands of cards, list after list
        got = list_keys.get(card)
        if got is None:
            got = list_keys[card] = list_key(db, card)
        return got

    for b, notes in read:
        if (b.family, b.effective) in chosen and notes[:1] == ["(name list)"]:
            continue  # the Konami-id vector of the same day wins over its name companion
        notes = [n for n in notes if n != "(name list)"]
        if db is not None:
            b = canonicalize(b, keyed)
            b = _admit_goat_entries(b, db)
            names = dict(b.names)
            for c in {*b.limits, *b.points}:
                if c not in db_names:  # hundreds of lists name the same cards: look up once
                    db_names[c] = db.name(c) if db.get(c) is not None else None
                known = db_names[c]
                if known is not None:
                    names[c] = known  # the database's English name beats a comment
            b = b.replace(names=names)
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
    from deckcheck.formats.catalog import is_official, seed_cache

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
        elif old is not None and not is_official(b.source) and _official_text(old):
            msg = f"{path}: kept the official list; {b.source} gives the same day"
            result.notes.append(msg)
            dc_notes.note(f"deckcheck: note: {msg}")
            result.unchanged.append(path)
            continue
        else:
            to_write.append((path, text))
            result.written.append(path)
            seeds.append((path, b))
        result.lists.append(b.replace(path=str(path)))
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
            seed_cache(path, b.replace(path=str(path)))
    return result


# --------------------------------------------------------------------------- official lists


def _read_official(
    files: Sequence[tuple[Path, str]],
    db: Any,
    family: str | None,
    konami: KonamiMap | None,
    target: Path,
    result: ImportResult,
    konami_missing: str = "error",
) -> list[tuple[Banlist, list[str]]]:
    """Official lists read, unmapped ids reported, upstream faults refused (not installed)."""
    got: list[official.OfficialList] = []
    names = None
    vectors = {str(p.resolve()) for p, k in files if k == "vector"}
    for path, kind in files:
        if kind == "name" and str(path.resolve()).replace(".name.json", ".vector.json") in vectors:
            continue  # the Konami-id vector of the same day is read instead of its names
        if kind == "archive":  # the repository's zip: every dated list at once
            if konami is None and db is not None:
                konami = official.konami_map_for(db)
            if db is None or (konami is None and konami_missing != "skip"):
                raise InputError(
                    "Konami ids need the yaml-yugi card data: `deckcheck db import cards.json "
                    "rush.json` (or `deckcheck update`) first",
                    where=str(path),
                )
            if names is None:
                names = official.name_map_for(db)  # early OCG lists name their cards
            lists, said = official.read_archive(path, konami, names)
            got.extend(lists)
            for msg in said:
                result.notes.append(msg)
                dc_notes.note(f"deckcheck: note: {msg}")
            continue
        if kind == "vector":
            if konami is None:
                konami = official.konami_map_for(db) if db is not None else None
            if konami is None and konami_missing == "skip":
                msg = f"{path}: skipped, Konami ids need the yaml-yugi card data (cards.json)"
                result.notes.append(msg)
                dc_notes.note(f"deckcheck: note: {msg}")
                continue
            if konami is None:
                raise InputError(
                    "Konami ids need the yaml-yugi card data: `deckcheck db import cards.json "
                    "rush.json` (or `deckcheck update`) first",
                    where=str(path),
                )
            got.append(official.read_vector(path, konami, family))
            continue
        if db is None:
            raise InputError(
                "names map to passcodes through the card database: install one first "
                "(`deckcheck update` or `deckcheck db import cards.cdb`)",
                where=str(path),
            )
        if names is None:
            names = official.name_map_for(db)
        if kind == "name":
            got.append(official.read_name_json(path, names, family))
        else:
            got.extend(duellinks.read_devdb(path, names))
    by_source: dict[str, tuple[int, set[str]]] = {}
    for ol in got:
        if ol.unmapped:
            total, miss = by_source.get(ol.banlist.source, (0, set()))
            by_source[ol.banlist.source] = (max(total, ol.total), miss | set(ol.unmapped))
    for source, (total, miss) in by_source.items():
        shown = sorted(miss)[:5]
        result.unmapped.append((source, total, len(miss), shown))
        dc_notes.note(
            f"deckcheck: note: {source}: {len(miss)} id(s) or name(s) map to no card "
            f"(e.g. {', '.join(shown)}); they are left out of its lists"
        )
    previous: dict[str, Banlist] = {}
    firsts: dict[str, dt.date] = {}
    for ol in got:
        f, d = ol.banlist.family, ol.banlist.effective
        firsts[f] = min(d, firsts.get(f, d))
    if firsts:
        from deckcheck.formats.catalog import ListStore

        store = ListStore([target])
        for f, d in firsts.items():
            # an official list is measured against the official one before it only: an lflist
            # whitelist of the family (EDOPro's Rush lists every legal card) is no measure of
            # a list of limits, and would refuse every official Rush list as "halved"
            prev = store.official_in_force(f, d - dt.timedelta(days=1))
            if prev is not None:
                previous[f] = prev
    keep, bad = official.check_faults(got, previous)
    for r in bad:
        result.rejected.append(r)
        dc_notes.note(f"deckcheck: warning: {r.message()}")
    faults.record(target, bad)
    out: list[tuple[Banlist, list[str]]] = []
    # vectors first: on the same day the Konami-id list wins over the name list
    for ol in sorted(keep, key=lambda o: o.kind != "vector"):
        notes = ["(name list)"] if ol.kind == "name" else []
        if ol.unmapped:
            notes.append(
                f"{len(ol.unmapped)} of {ol.total} entries of the source map to no card: "
                + ", ".join(ol.unmapped[:10])
            )
        out.append((ol.banlist, notes))
    return out


# --------------------------------------------------------------------------- lflist history


def _drop_transient(
    read: list[tuple[Banlist, list[str]]], result: ImportResult
) -> list[tuple[Banlist, list[str]]]:
    """Lists whose header upstream retracted for an earlier-dated one are skipped.

    When an ``index.json`` (the staged history's metadata: ``first_date``/``last_seen_date`` of
    every header and its ``revisions``) lies beside the files, a header that lived under 60
    days and was replaced by a header dated earlier that appeared when it went (Rush
    "2020.5.17", one week, then "2020.04.27" for two and a half years) was a transient
    list: upstream put the earlier one back in force. A list whose staged text is not its
    longest-standing revision gets a note (the revision texts are not in the files).
    Plain lflist files without an index are imported as they are.
    """
    idx = _load_indexes({Path(b.path) for b, _ in read})
    if not idx:
        return read
    info = {b.path: idx.get(str(Path(b.path).resolve())) for b, _ in read}
    out = []
    for b, notes in read:
        me = info.get(b.path)
        if me is None:
            out.append((b, notes))
            continue
        first, last = _day(me.get("first_date")), _day(me.get("last_seen_date"))
        replaced_by = None
        if first and last and (last - first).days < 60:
            for o, _ in read:
                other = info.get(o.path)
                if other is None or o.family != b.family or o.effective >= b.effective:
                    continue
                ofirst = _day(other.get("first_date"))
                if ofirst is not None and ofirst >= last - dt.timedelta(days=1):
                    replaced_by = o.name
                    break
        if replaced_by is not None:
            msg = (
                f"{b.name}: skipped, a transient list (upstream had it {first} … {last}, then "
                f"put {replaced_by!r} back in force)"
            )
            result.skipped.append(msg)
            dc_notes.note(f"deckcheck: note: {msg}")
            continue
        revs = [r for r in me.get("revisions") or [] if isinstance(r, dict)]
        if len(revs) > 1:
            spans = [_span(r) for r in revs]
            longest = max(range(len(revs)), key=lambda i: spans[i])
            if longest != len(revs) - 1 and spans[longest] > 2 * spans[-1]:
                notes = [
                    *notes,
                    (
                        f"The text is upstream's last revision ({spans[-1]} day(s)); revision "
                        f"{longest + 1} of {len(revs)} stood longest ({spans[longest]} days) "
                        "and may differ: prefer the official list where there is one."
                    ),
                ]
        out.append((b, notes))
    return out


def _span(rev: dict[str, Any]) -> int:
    a, b = _day(rev.get("first_date")), _day(rev.get("last_seen_date"))
    return (b - a).days + 1 if a and b else 0


def _day(text: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(text)[:10])
    except ValueError:
        return None


def _load_indexes(files: set[Path]) -> dict[str, dict[str, Any]]:
    """index.json entries by the resolved path of the file they describe."""
    import json

    out: dict[str, dict[str, Any]] = {}
    roots = {p.resolve().parent.parent for p in files} | {p.resolve().parent for p in files}
    for root in roots:
        f = root / "index.json"
        try:
            if f.stat().st_size > 64 * 1024 * 1024:
                continue
            doc = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        lists = doc.get("lists") if isinstance(doc, dict) else None
        if not isinstance(lists, list):
            continue
        for e in lists:
            if isinstance(e, dict) and isinstance(e.get("file"), str):
                out[str((root / e["file"]).resolve())] = e
    return out


def _official_text(text: str) -> bool:
    from deckcheck.formats.catalog import is_official

    for line in text.splitlines()[:12]:
        if line.startswith("source: "):
            import json

            try:
                return is_official(json.loads(line[8:]))
            except ValueError:
                return False
    return False


def _admit_goat_entries(b: Banlist, db: Any) -> Banlist:
    """A whitelist naming a card under its GOAT entry admits the real card too.

    EDOPro's GOAT list names "Sangan (GOAT)" (a 504700xxx row "treated as" Sangan, scope
    "illegal"), so a real Sangan by its own passcode was off the whitelist (DC405) and the
    2004-2005 Structure Decks failed in GOAT. The real card gets the GOAT entry's limit. Only
    such "illegal"-scope treated-as rows count: a Rush reprint "treated as" an OCG card must
    not bring the OCG card into a Rush whitelist.
    """
    if b.mode != "whitelist":
        return b
    add: dict[int, int] = {}
    for c, lim in b.limits.items():
        card = db.get(c)
        if card is None or card.alias_kind != "treated_as" or not card.scopes & Scope.ILLEGAL:
            continue
        real = int(db.canonical(c))
        if real != c and real not in b.limits:
            add[real] = min(lim, add.get(real, lim))
    if not add:
        return b
    names = dict(b.names)
    for real in add:
        names.setdefault(real, db.name(real))
    return b.replace(limits={**b.limits, **add}, names=names)
