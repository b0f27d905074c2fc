"""Konami's official lists from their real upstream files: yaml-yugi-limit-regulation
``*.vector.json`` (Konami ids) and ``*.name.json`` (English names), one by one or all from the
repository's source zip, read into ``model.Banlist``s with exact dates, ids and names mapped to
passcodes, and every unmapped id or name counted (the Duel Links history: ``formats.duellinks``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
import unicodedata
import zipfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from deckcheck.datafile import checked_id, shown_number
from deckcheck.errors import InputError
from deckcheck.model import Banlist
from deckcheck.records import Record, field, record

__all__ = [
    "FOLDER_FAMILIES",
    "KonamiMap",
    "NameMap",
    "OfficialList",
    "Rejected",
    "check_archive",
    "check_faults",
    "konami_map_for",
    "name_key",
    "name_map_for",
    "read_archive",
    "read_name_json",
    "read_vector",
    "sniff",
]

#: (Konami id, "ocg_tcg" | "rush") -> passcodes (CardDB.passcodes_for_konami).
KonamiMap = Callable[[int, str], list[int]]
#: name_key(English name) -> passcodes; ``rush`` True asks for Rush cards.
NameMap = Callable[[str, bool], list[int]]

#: yaml-yugi-limit-regulation folder -> list family (the folder name is the format).
FOLDER_FAMILIES = {
    "tcg": "tcg",
    "ocg": "ocg",
    "ocg-ae": "ocg-ae",
    "ocg-cn": "ocg-cn",
    "master-duel": "master-duel",
    "genesys": "genesys",
    "ocg-genesys": "ocg-genesys",
    "rush": "rush",
}
POINTS_FAMILIES = frozenset({"genesys", "ocg-genesys"})
LIST_NAMES = {
    "tcg": "TCG",
    "ocg": "OCG",
    "ocg-ae": "OCG (Asian-English)",
    "ocg-cn": "OCG (Simplified Chinese)",
    "master-duel": "Master Duel",
    "genesys": "Genesys",
    "ocg-genesys": "OCG Genesys",
    "rush": "Rush Duel",
    "duel-links": "Duel Links",
    "duel-links-rush": "Duel Links Rush",
}
_REPO_LR = "DawnbrandBots/yaml-yugi-limit-regulation"
_DATE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})\.(vector|name)\.json$")
#: A list file inside the repository's source archive (GitHub puts every entry under one
#: ``<repo>-<branch>/`` folder): ``[<top>/]data/<format>/<date>.(vector|name).json``.
_ARCHIVE_MEMBER = re.compile(
    r"^(?:[^/]+/)?data/([a-z0-9-]+)/(\d{4}-\d{2}-\d{2})\.(vector|name)\.json$"
)
MAX_JSON_BYTES = 16 * 1024 * 1024
#: The whole archive's list files, uncompressed: a zip bomb stops here, not in memory.
MAX_ARCHIVE_BYTES = 256 * 1024 * 1024
_SQLITE_MAGIC = b"SQLite format 3\x00"


@record(frozen=False, slots=True)
class OfficialList(Record):
    """One list read from an official file, with what did not map."""

    banlist: Banlist
    kind: str  # vector | name | devdb
    total: int = 0  # ids/names in the file for this list
    unmapped: list[str] = field(default_factory=list)  # ids or names that found no passcode

    @property
    def entries(self) -> int:
        b = self.banlist
        return len(b.limits) + len(b.points) + sum(len(g.cards) for g in b.groups)


@record
class Rejected(Record):
    """A list not put in force because its data looks broken upstream."""

    family: str
    effective: dt.date
    source: str
    reason: str

    def message(self) -> str:
        return (
            f"{self.family} {self.effective.isoformat()} ({self.source}) not installed: "
            f"{self.reason}; the previous list stays in force"
        )


def name_key(name: str) -> str:
    """Names compared after NFKC (full-width ＜P＞ -> <P>), casefold and single spaces."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


# --------------------------------------------------------------------------- sniffing


def sniff(path: Path) -> str | None:
    """ "vector", "name", "devdb", "archive" (the repository's zip) for an official list file,
    None for anything else (lflist).

    Only a regular file is opened: a FIFO or device would block or never end here; the
    lflist reader then refuses it with a clear message."""
    import stat

    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return None
        with path.open("rb") as f:
            head = f.read(64)
    except OSError:
        return None
    if head.startswith(b"PK\x03\x04"):
        return "archive" if _archive_members(path) else None
    if head.startswith(_SQLITE_MAGIC):
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            finally:
                conn.close()
        except sqlite3.DatabaseError:
            return None
        want = {"SpeedBanlist", "SpeedRestriction", "RestrictionType"}
        return "devdb" if want <= tables else None
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        doc = _load_json(path)
        if isinstance(doc, dict) and "regulation" in doc:
            return "vector"
        if isinstance(doc, dict) and all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in doc.items()
        ):
            return "name"
    return None


def _load_json(path: Path) -> Any:
    from deckcheck import fsio

    try:
        raw = fsio.read_bounded(path, MAX_JSON_BYTES)
    except fsio.TooLarge:
        raise InputError(f"over {MAX_JSON_BYTES} bytes: not a list file", where=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=str(path)) from None
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid JSON: {exc}", where=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc}", where=str(path)) from None
    except ValueError:  # json.loads refuses an int over 4300 digits (int_max_str_digits)
        raise InputError(
            "not valid JSON: a number over 4300 digits long", where=str(path)
        ) from None
    except RecursionError:
        raise InputError("not valid JSON: nested too deeply", where=str(path)) from None


def _family(path: Path, family: str | None) -> str:
    got = family or FOLDER_FAMILIES.get(path.parent.name.lower())
    if got is None:
        raise InputError(
            f"cannot tell the format of this list from its folder {path.parent.name!r} (one of "
            f"{', '.join(sorted(FOLDER_FAMILIES))}); pass --family",
            where=str(path),
        )
    return got


def _source(path: Path) -> str:
    parent = path.parent.name
    return f"{_REPO_LR} data/{parent}/{path.name}" if parent else f"{_REPO_LR} {path.name}"


#: The largest count or points value an official list may give a card: counts are 0-3 and
#: Genesys points are at most the cap (100); a bigger number is a broken file (issue 32).
MAX_COUNT = 1000


def _count(v: Any, where: str, key: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_COUNT:
        shown = shown_number(v) if isinstance(v, int) and not isinstance(v, bool) else repr(v)
        raise InputError(
            f"entry {_short(key)!r}: {shown} is not a count (0, 1, 2 or points up to {MAX_COUNT})",
            where=where,
        )
    return v


def _short(key: str) -> str:
    return key if len(key) <= 40 else f"{key[:40]}…"


# --------------------------------------------------------------------------- yaml-yugi lists


def read_vector(path: Path, konami: KonamiMap, family: str | None = None) -> OfficialList:
    """A ``{"date", "regulation": {konami_id: count}}`` file; points for Genesys folders."""
    return _vector(
        _load_json(path), str(path), _family(path, family), path.name, _source(path), konami
    )


def _vector(
    doc: Any, where: str, fam: str, fname: str, source: str, konami: KonamiMap
) -> OfficialList:
    if not isinstance(doc, dict) or not isinstance(doc.get("regulation"), dict):
        raise InputError(
            'not a limit-regulation vector ({"date", "regulation": {...}})', where=where
        )
    day = _day(doc.get("date"), fname, where)
    kind = "rush" if fam == "rush" else "ocg_tcg"
    limits: dict[int, int] = {}
    points: dict[int, int] = {}
    unmapped: list[str] = []
    reg: dict[str, Any] = doc["regulation"]
    for key, v in reg.items():
        n = _count(v, where, key)
        if not key.isascii() or not key.isdigit() or len(key) > 10:
            raise InputError(f"{_short(key)!r} is not a Konami id", where=where)
        kid = checked_id(int(key), f"Konami id {key!r}", where)
        ids = konami(kid, kind)
        if not ids:
            unmapped.append(str(kid))
            continue
        _enter(ids, n, fam, limits, points)
    return OfficialList(
        _banlist(source, where, fam, day, limits, points), "vector", len(reg), unmapped
    )


def read_name_json(path: Path, names: NameMap, family: str | None = None) -> OfficialList:
    """A ``<date>.name.json`` file: ``{"English name": count}`` (early OCG, Master Duel)."""
    return _name_list(
        _load_json(path), str(path), _family(path, family), path.name, _source(path), names
    )


def _name_list(
    doc: Any, where: str, fam: str, fname: str, source: str, names: NameMap
) -> OfficialList:
    m = _DATE_NAME.match(fname)
    if not isinstance(doc, dict) or m is None:
        raise InputError("not a limit-regulation name list (<YYYY-MM-DD>.name.json)", where=where)
    day = _day(m.group(1), fname, where)
    limits: dict[int, int] = {}
    points: dict[int, int] = {}
    unmapped: list[str] = []
    for name, v in doc.items():
        n = _count(v, where, name)
        ids = names(name_key(name), fam == "rush")
        if not ids:
            unmapped.append(name)
            continue
        _enter(ids, n, fam, limits, points)
    return OfficialList(
        _banlist(source, where, fam, day, limits, points), "name", len(doc), unmapped
    )


# --------------------------------------------------------------------------- the archive


def _archive_members(path: Path) -> list[tuple[zipfile.ZipInfo, str, str, str]]:
    """(entry, format folder, date, "vector" | "name") of every list file in a repository
    source archive; empty for a zip that holds none (or no zip at all)."""
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        return []
    out = []
    for info in infos:
        m = _ARCHIVE_MEMBER.match(info.filename)
        if m is not None and not info.is_dir():
            out.append((info, m.group(1), m.group(2), m.group(3)))
    return out


def check_archive(path: Path, where: str) -> int:
    """The number of list files in a sound archive; DataError for a corrupt or oversized one
    (checked at download, before the file reaches the cache)."""
    from deckcheck.errors import DataError

    members = _archive_members(path)
    if not members:
        raise DataError(
            "corrupt download: no data/<format>/<date>.vector.json in this zip", where=where
        )
    total = sum(i.file_size for i, *_ in members)
    if total > MAX_ARCHIVE_BYTES:
        raise DataError(
            f"its list files unpack to {total} bytes, over the {MAX_ARCHIVE_BYTES}-byte cap",
            where=where,
        )
    try:
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise DataError(f"corrupt download: {exc}", where=where) from None
    if bad is not None:
        raise DataError(f"corrupt download: bad CRC in {bad}", where=where)
    return len(members)


def read_archive(
    path: Path, konami: KonamiMap | None, names: NameMap
) -> tuple[list[OfficialList], list[str]]:
    """Every list of a yaml-yugi-limit-regulation source archive (GitHub's zip of the
    repository: the whole dated history), and notes on what was left out.

    Per format and day the Konami-id vector wins over its name companion. A points list
    identical to the one before it is left out: upstream downloads the Genesys points daily
    and keeps every download, so the first day of a run is the day the list was seen. Other
    lists keep every dated file (an identical list on a later day is Konami's effective day).
    Without ``konami`` (no yaml-yugi card data) vectors are left out, with a note. Each
    list's source names its file in the repository, as when the file is imported on its own.
    """
    members = _archive_members(path)
    if sum(i.file_size for i, *_ in members) > MAX_ARCHIVE_BYTES:
        raise InputError(f"list files over {MAX_ARCHIVE_BYTES} bytes unpacked", where=str(path))
    vectors = {(folder, day) for _, folder, day, kind in members if kind == "vector"}
    unknown: set[str] = set()
    no_ids = 0
    out: list[OfficialList] = []
    last: dict[str, OfficialList] = {}
    with zipfile.ZipFile(path) as z:
        for info, folder, day, kind in sorted(
            members, key=lambda m: (m[1], m[2], m[3] != "vector")
        ):
            fam = FOLDER_FAMILIES.get(folder)
            if fam is None:
                unknown.add(folder)
                continue
            if kind == "name" and konami is not None and (folder, day) in vectors:
                continue  # the Konami-id vector of the day is read instead
            if kind == "vector" and konami is None:
                no_ids += 1
                continue
            fname = info.filename.rsplit("/", 1)[-1]
            where = f"{path}#{info.filename}"
            if info.file_size > MAX_JSON_BYTES:
                raise InputError(f"over {MAX_JSON_BYTES} bytes: not a list file", where=where)
            try:
                doc = json.loads(z.read(info).decode("utf-8-sig"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise InputError(f"not valid JSON: {exc}", where=where) from None
            except RecursionError:
                raise InputError("not valid JSON: nested too deeply", where=where) from None
            except (zipfile.BadZipFile, OSError, EOFError) as exc:
                raise InputError(f"cannot read the archive: {exc}", where=where) from None
            source = f"{_REPO_LR} data/{folder}/{fname}"
            if kind == "vector":
                assert konami is not None
                ol = _vector(doc, where, fam, fname, source, konami)
            else:
                ol = _name_list(doc, where, fam, fname, source, names)
            prev = last.get(fam)
            if (
                fam in POINTS_FAMILIES
                and prev is not None
                and ol.entries
                and _same(prev.banlist, ol.banlist)
            ):
                continue  # another day's download of the same points list
            out.append(ol)
            if ol.entries:
                last[fam] = ol
    said = []
    if no_ids:
        said.append(
            f"{path}: {no_ids} Konami-id list(s) skipped: they need the yaml-yugi card "
            "data (cards.json)"
        )
    if unknown:
        said.append(
            f"{path}: list folder(s) of no known format left out: " + ", ".join(sorted(unknown))
        )
    return out, said


def _same(a: Banlist, b: Banlist) -> bool:
    return a.limits == b.limits and a.points == b.points and a.groups == b.groups


def _enter(
    ids: list[int], n: int, fam: str, limits: dict[int, int], points: dict[int, int]
) -> None:
    """One entry's cards: points in a points family, else a limit (3, unlimited, is left out)."""
    for c in ids:
        if fam in POINTS_FAMILIES:
            points[c] = n
        elif n < 3:
            limits[c] = n


def _banlist(
    source: str, where: str, fam: str, day: dt.date, limits: dict[int, int], points: dict[int, int]
) -> Banlist:
    return Banlist(
        name=f"{day.isoformat()} {LIST_NAMES.get(fam, fam)}",
        family=fam,
        effective=day,
        limits=limits,
        points=points,
        source=source,
        path=where,
        date_exact=True,
    )


def _day(value: Any, fname: str, where: str) -> dt.date:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        m = _DATE_NAME.match(fname)
        if m:
            return dt.date.fromisoformat(m.group(1))
        raise InputError(f"date {value!r} is not YYYY-MM-DD", where=where) from None


# --------------------------------------------------------------------------- mapping


def konami_map_for(db: Any) -> KonamiMap | None:
    """The card database's Konami id mapping (yaml-yugi data imported), else None."""
    fn = getattr(db, "passcodes_for_konami", None)
    if fn is None:
        return None
    if not fn(4007, "ocg_tcg"):  # Blue-Eyes White Dragon: no official data imported
        return None
    return fn  # type: ignore[no-any-return]


def name_map_for(db: Any) -> NameMap:
    """English names of the card database -> passcodes; Rush cards apart from the others.

    Names are indexed up front; a card is looked up only when a list names it (a list names
    a few hundred of the database's 25,000 cards)."""
    from deckcheck.model import Scope

    by_key: dict[str, list[int]] = {}
    for cid, lang, name, kind in db.iter_names():
        if lang != "en" or kind not in ("name", "official", ""):
            continue
        got = by_key.setdefault(name_key(name), [])
        if cid not in got:
            got.append(cid)
    split: dict[str, tuple[list[int], list[int]]] = {}

    def plain_and_rush(key: str) -> tuple[list[int], list[int]]:
        if key not in split:
            plain: list[int] = []
            rush: list[int] = []
            for cid in by_key.get(key, ()):
                card = db.get(cid)
                if card is None or card.alias_kind == "artwork":
                    continue
                is_rush = bool(card.scopes & (Scope.RUSH | Scope.LEGEND)) and not (
                    card.scopes & (Scope.OCG | Scope.TCG)
                )
                (rush if is_rush else plain).append(cid)
            split[key] = (plain, rush)
        return split[key]

    def lookup(key: str, want_rush: bool) -> list[int]:
        plain, rush = plain_and_rush(key)
        first, second = (rush, plain) if want_rush else (plain, rush)
        if first:
            return _official_first(first)
        return [] if not want_rush else _official_first(second)

    return lookup


def _official_first(ids: Iterable[int]) -> list[int]:
    # A prerelease (100xxxxxx) row and its official printing: the official passcode.
    ids = list(ids)
    real = [c for c in ids if c < 100_000_000]
    return real or ids


# --------------------------------------------------------------------------- faults


def check_faults(
    lists: Sequence[OfficialList], previous: dict[str, Banlist]
) -> tuple[list[OfficialList], list[Rejected]]:
    """The lists to install and those refused, oldest first per family.

    Refused: an empty list, one that loses more than half the entries of the previous list of
    its family, or one whose ids/names mostly do not map. A refused list is not the
    "previous" of the next one: the comparison is with the last list put in force.
    """
    keep: list[OfficialList] = []
    bad: list[Rejected] = []
    last: dict[str, int] = {f: _size(b) for f, b in previous.items()}
    for ol in sorted(lists, key=lambda o: (o.banlist.family, o.banlist.effective)):
        b = ol.banlist
        n = ol.entries
        reason = None
        if ol.total == 0 or n == 0:
            reason = "the list is empty (an upstream fault: an empty file is no list)"
        elif len(ol.unmapped) * 2 > ol.total:
            reason = f"{len(ol.unmapped)} of {ol.total} ids or names map to no card"
        elif b.family in last and n * 2 < last[b.family]:
            reason = f"it has {n} entries, less than half of the previous list's {last[b.family]}"
        if reason is not None:
            bad.append(Rejected(b.family, b.effective, b.source, reason))
            continue
        keep.append(ol)
        last[b.family] = n
    return keep, bad


def _size(b: Banlist) -> int:
    return len(b.limits) + len(b.points) + sum(len(g.cards) for g in b.groups)
