"""The installed lists and formats: found on disk, compiled once into a cache, picked by
family and date, name, or file.

Warm path: one ``os.scandir`` per family folder to build the cache key ((path, mtime, size) of
every YAML file, by family, plus the card database's stat since ids are mapped to canonical
ones), then ``marshal`` only (the compiled shapes are JSON-ready data, stored with the
interpreter's own format: nothing to import, several times faster to read than JSON); yaml
and pydantic (``formats.compile``) are imported only to rebuild the cache. A question about
one family (the list in force, the next one) reads only that family's folders and stats only
its files: its lists depend on nothing else.
Compiling needs a card resolver (``formats.compile.CardResolver``): the caller gives a factory
of them; by default ``deckcheck.cardnames.installed_resolvers()``.
"""

from __future__ import annotations

import datetime as dt
import marshal
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from deckcheck import dates, paths
from deckcheck.errors import DataError, InputError
from deckcheck.formats.codec import banlist_from_dict, banlist_to_dict
from deckcheck.fsio import name_hash
from deckcheck.model import Banlist

if TYPE_CHECKING:
    from pathlib import Path

    from deckcheck.formats.compile import CardResolver

#: Makes one card resolver per list file compiled (see ``formats.compile.CardResolver``).
Resolvers = Callable[[], "CardResolver"]

CACHE_VERSION = 4  # 2: treated-as ids kept in lists; 3: date_exact/source in the index; 4: marshal
#: the cache files' suffix (``lists-<h>``, ``lists/<blob>``, ``formats-<set>-<h>``); older
#: deckchecks wrote ``.json`` files, removed like any stale cache file
SUFFIX = ".marshal"
#: the interpreter that wrote a cache (marshal's format is its own, and may change in any
#: release): in every cache key and name, so two Pythons sharing a home keep one cache each
RUNTIME = f"{sys.implementation.cache_tag}-marshal{marshal.version}"
#: a list file's name (``_is_date_file`` checks it without compiling it at start-up)
DATE_FILE = r"^\d{4}-\d{2}-\d{2}\.ya?ml$"


def _is_date_file(name: str) -> bool:
    """``re.match(DATE_FILE, name)`` by hand (``\\d``: any Unicode digit, as ``isdecimal``;
    ``$`` also matches before one final newline)."""
    n = name[:-1] if name[-1:] == "\n" else name
    return (
        n[10:] in (".yaml", ".yml")
        and n[4:5] + n[7:8] == "--"
        and (n[:4] + n[5:7] + n[8:10]).isdecimal()
    )


def _is_family_name(name: str) -> bool:
    """A family as its folder is named: one plain folder name (not ``formats``, nothing
    hidden), so a one-family question reads only that folder of each list folder."""
    return bool(name) and name == os.path.basename(name) and name[0] != "." and name != "formats"


def _date_files(folder: str) -> list[str]:
    """The list files of one family folder, by name (``DirEntry.path`` strings)."""
    entries = sorted(os.scandir(folder), key=lambda e: e.name)
    return [e.path for e in entries if _is_date_file(e.name) and e.is_file()]


# --------------------------------------------------------------------------- helpers


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` to ``path`` all or nothing, creating its folder (raises OSError)."""
    from deckcheck import fsio  # only writers need it; the warm read path does not

    fsio.write_atomic(path, text, mkdir=True, fsync=False)


def _stat_key(p: Path | str) -> list[Any] | None:
    try:
        st = os.stat(p)
    except OSError:
        return None
    return [str(p), st.st_mtime_ns, st.st_size]


def _read_cache(p: str | Path) -> Any:
    try:
        with open(p, "rb") as f:
            # loads of the whole file, not load(f): load reads a file object piece by piece
            # (a readinto call per string), ten times slower on these caches (~5 ms a run)
            return marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None  # missing or damaged cache: rebuild


def _write_cache(path: str | Path, data: Any) -> None:
    """``data`` (JSON-ready: dicts, lists, str, int, bool, None) as a cache file."""
    write_atomic(path, marshal.dumps(data))


def _parse_date(text: str, what: str) -> dt.date:
    try:
        return dates.parse_date(text)
    except ValueError:
        raise DataError(f"{what}: {text!r} is not a date (YYYY-MM-DD)") from None


def blob_name(path: str | Path) -> str | None:
    """Cache file name of one compiled list file: its stat and the card database's stat."""
    st = _stat_key(path)
    if st is None:
        return None
    raw = repr([CACHE_VERSION, RUNTIME, st, _stat_key(paths.database_file())])
    return name_hash(raw.encode())


def seed_cache(path: Path, b: Banlist) -> None:
    """Record a list the importer just wrote, so the store need not parse its YAML again."""
    blob = blob_name(path)
    if blob is None:
        return
    body = banlist_to_dict(b)
    body["path"] = str(path)
    try:
        _write_cache(paths.join(paths.cache_folder(), "lists", f"{blob}{SUFFIX}"), body)
    except OSError:
        pass


# --------------------------------------------------------------------------- lists


class ListStore:
    """Every installed list version; later folders win over earlier ones on the same date.

    The folders are kept as strings (``str(Path(d))``): the warm path makes no Path."""

    def __init__(
        self,
        dirs: Sequence[str | Path],
        cache_dir: str | Path | None = None,
        resolvers: Resolvers | None = None,
    ):
        self._dirs = [paths.str_path(d) for d in dirs]
        self._cache = paths.str_path(cache_dir) if cache_dir is not None else paths.cache_folder()
        # A read-only home's own cache folder, read when ours misses (None: none, or not
        # looked for yet; False: looked for, none): a given cache_dir has none.
        self._ro: str | bool | None = False if cache_dir is not None else None
        self._resolvers = resolvers
        self._meta: list[dict[str, Any]] | None = None
        #: the cached index as read (None: not read yet), for the one-family questions
        self._cached: dict[str, Any] | None = None
        #: family -> its index entries, checked against its own files (``_family_metas``)
        self._family: dict[str, list[dict[str, Any]]] = {}
        self._loaded: dict[str, Banlist] = {}
        self._fam_cache: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}

    @classmethod
    def default(cls, resolvers: Resolvers | None = None) -> ListStore:
        """The built-in lists and the user's ``lists_dir()``, names resolved through the
        installed card database unless ``resolvers`` says otherwise (made when a list is
        first compiled: a warm cache needs no resolver, nor ``deckcheck.cardnames``)."""
        return cls([paths.builtin_banlists_folder(), paths.lists_folder()], resolvers=resolvers)

    @property
    def dirs(self) -> list[Path]:
        """The list folders, earliest first."""
        from pathlib import Path

        return [Path(d) for d in self._dirs]

    @property
    def cache_dir(self) -> Path:
        """The folder of this store's compiled lists."""
        from pathlib import Path

        return Path(self._cache)

    def resolvers(self) -> Resolvers:
        """This store's resolver factory (the installed database's unless given), made once."""
        if self._resolvers is None:
            self._resolvers = default_resolvers()
        return self._resolvers

    # ---- cache

    def _files(self) -> list[str]:
        # Plain strings (``DirEntry.path``, what ``str(Path(...))`` gives for them): the warm
        # path builds no Path object per list file, only the cache key.
        files: list[str] = []
        for d in self._dirs:
            try:
                fams = [e for e in os.scandir(d) if e.is_dir() and e.name != "formats"]
            except (FileNotFoundError, NotADirectoryError):
                continue
            for fam in sorted(fams, key=lambda e: e.name):
                files.extend(_date_files(fam.path))
        return files

    def _family_files(self, family: str) -> list[str]:
        """``_files`` of one family: its folder in each list folder, in the same order."""
        files: list[str] = []
        for d in self._dirs:
            try:
                files.extend(_date_files(os.path.join(d, family)))
            except (FileNotFoundError, NotADirectoryError):
                continue
        return files

    def _key(self, files: list[str]) -> list[Any]:
        """The index's key: what its lists are compiled from (``_base``), and the stat of
        each list file, by family (a family's lists depend only on its own files)."""
        by_family: dict[str, list[Any]] = {}
        for f in files:
            by_family.setdefault(os.path.basename(os.path.dirname(f)), []).append(_stat_key(f))
        return [self._base(), by_family]

    @staticmethod
    def _base() -> list[Any]:
        return [CACHE_VERSION, RUNTIME, _stat_key(paths.database_file())]

    def _index_path(self) -> Path:
        from pathlib import Path

        return Path(self._index_file())

    def _index_file(self) -> str:
        # str(_index_path()), what the warm path opens
        h = name_hash("\0".join([RUNTIME, *self._dirs]).encode())[:12]
        return paths.join(self._cache, f"lists-{h}{SUFFIX}")

    def _ro_folder(self) -> str | None:
        """The cache folder of a read-only home, when ours is another one (the private
        folder ``paths.cache_folder`` picks then): what ``db import`` or ``update`` compiled
        there is read, not compiled again on every command (issue 32: validate took 3–15 s
        in a read-only home)."""
        if self._ro is None:
            ro = paths.read_only_cache_folder()
            self._ro = ro if ro is not None and ro != self._cache else False
        return self._ro if isinstance(self._ro, str) else None

    def _read_blob(self, blob: str) -> Any:
        """A compiled list's cache body from our folder, else the read-only home's."""
        name = f"{blob}{SUFFIX}"
        body = _read_cache(paths.join(self._cache, "lists", name))
        if not isinstance(body, dict) and (ro := self._ro_folder()) is not None:
            body = _read_cache(paths.join(ro, "lists", name))
        return body

    def _index(self) -> list[dict[str, Any]]:
        if self._meta is not None:
            return self._meta
        files = self._files()
        key = self._key(files)
        for cached in self._cached_indexes():
            if cached.get("key") == key:
                self._meta = cached["lists"]
                return self._meta
        self._meta = self._compile(files, key)
        return self._meta

    def _cached_indexes(self) -> Iterator[dict[str, Any]]:
        """The cached index (read once), then the read-only home's when there is one."""
        if self._cached is None:
            got = _read_cache(self._index_file())
            self._cached = got if isinstance(got, dict) else {}
        yield self._cached
        ro = self._ro_folder()
        if ro is not None:
            got = _read_cache(paths.join(ro, os.path.basename(self._index_file())))
            if isinstance(got, dict):
                yield got

    def _family_metas(self, family: str) -> list[dict[str, Any]]:
        """The index entries of ``family``. The cached index answers when what it holds of
        that family's files is what they are now: only its folder is read and its files
        stat'ed (a one-deck ``validate`` of a TCG deck: 24 of 166 files, 2.7M of its 224M
        instructions saved); otherwise, or once the whole index is known, the whole one."""
        got = self._family.get(family)
        if got is not None:
            return got
        if self._meta is None and _is_family_name(family):
            base = self._base()
            stats = [_stat_key(f) for f in self._family_files(family)]
            for cached in self._cached_indexes():
                key = cached.get("key")
                if (
                    isinstance(key, list)
                    and len(key) == 2
                    and key[0] == base
                    and isinstance(key[1], dict)
                    and key[1].get(family, []) == stats
                ):
                    got = [m for m in cached["lists"] if m["family"] == family]
                    break
        if got is None:
            got = [m for m in self._index() if m["family"] == family]
        self._family[family] = got
        return got

    def _compile(self, names: list[str], key: list[Any]) -> list[dict[str, Any]]:
        # Incremental: each file's compiled body is cached under its own (path, mtime, size)
        # and the database stat, so only new or changed files go through yaml + pydantic.
        from pathlib import Path  # a cold cache only

        by_slot: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
        store = self.cache_dir / "lists"
        writable = True
        for f in map(Path, names):
            blob = blob_name(f)
            body = self._read_blob(blob) if blob else None
            if not isinstance(body, dict):
                from deckcheck.formats.compile import list_dict

                body = list_dict(f, self.resolvers()())
                if blob and writable:
                    try:
                        _write_cache(store / f"{blob}{SUFFIX}", body)
                    except OSError:
                        writable = False  # read-only home: keep the lists in memory only
            want = (f.parent.name, f.stem)
            if (body["family"], body["effective"]) != want:
                raise DataError(
                    f"family/effective say {body['family']}/{body['effective']} but the file is "
                    f"{want[0]}/{want[1]}.yaml; rename the file or fix the keys",
                    where=str(f),
                )
            by_slot[want] = (blob or "", body)  # later folders win
        meta = []
        for (_fam, _eff), (blob, body) in sorted(by_slot.items()):
            meta.append(
                {
                    "name": body["name"],
                    "family": body["family"],
                    "effective": body["effective"],
                    "path": body["path"],
                    "blob": blob,
                    "date_exact": bool(body.get("date_exact", True)),
                    "source": body.get("source", ""),
                }
            )
            self._loaded[blob or body["path"]] = banlist_from_dict(body)
        if writable:
            try:
                _write_cache(self._index_path(), {"key": key, "lists": meta})
                self._index_path().with_suffix(".json").unlink(missing_ok=True)  # an older one
                self._prune(store, {m["blob"] for m in meta})
            except OSError:
                pass
        return meta

    def _prune(self, store: Path, keep: set[str]) -> None:
        # Other stores (other dirs) share the folder; only files older than a day go.
        try:
            entries = list(os.scandir(store))
        except OSError:
            return
        cutoff = dt.datetime.now().timestamp() - 86400
        for e in entries:
            stem, dot, ext = e.name.rpartition(".")
            if dot and ext in ("json", SUFFIX[1:]) and stem not in keep:
                try:
                    if e.stat().st_mtime < cutoff:
                        os.unlink(e.path)
                except OSError:
                    pass

    def _load(self, m: dict[str, Any]) -> Banlist:
        got = self._loaded.get(m["blob"] or m["path"])
        if got is None:
            body = self._read_blob(m["blob"])
            if not isinstance(body, dict):
                # The cache lost a file under us: rebuild everything once.
                self._meta = None
                self._cached = {}
                self._family.clear()
                self._fam_cache.clear()
                idx = self._index_file()
                try:
                    os.unlink(idx)
                except OSError:
                    pass
                for mm in self._index():
                    if mm["path"] == m["path"]:
                        return self._loaded.get(mm["blob"]) or self._load(mm)
                raise DataError("list cache is damaged; remove it and retry", where=idx)
            got = banlist_from_dict(body)
            self._loaded[m["blob"]] = got
        return got

    # ---- queries

    def families(self) -> list[str]:
        return sorted({m["family"] for m in self._index()})

    def _all_metas(self, family: str) -> list[dict[str, Any]]:
        return sorted(self._family_metas(family), key=lambda m: m["effective"])

    def _metas(self, family: str) -> list[dict[str, Any]]:
        entries = self._family_metas(family)
        cached = self._fam_cache.get(family)
        if cached is not None and cached[0] is entries:
            return cached[1]
        metas = self._all_metas(family)
        got = [m for m in metas if superseded_by(m, metas) is None]
        self._fam_cache[family] = (entries, got)
        return got

    def superseded(self, family: str) -> dict[str, str]:
        """Lists of ``family`` hidden by an exact-dated one: path -> the name that wins."""
        metas = self._all_metas(family)
        out = {}
        for m in metas:
            got = superseded_by(m, metas)
            if got is not None:
                out[m["path"]] = got["name"]
        return out

    def lists(self, family: str, *, superseded: bool = False) -> list[Banlist]:
        """Every version of a family in use, oldest first (``superseded``: also those an
        official list hides, see ``superseded_by``)."""
        metas = self._all_metas(family) if superseded else self._metas(family)
        return [self._load(m) for m in metas]

    def all_lists(self) -> list[Banlist]:
        return [b for fam in self.families() for b in self.lists(fam)]

    def in_force(self, family: str, date: dt.date) -> Banlist | None:
        """The newest version of ``family`` whose effective date is not after ``date``."""
        day = date.isoformat()
        best = None
        for m in self._metas(family):
            if m["effective"] <= day:
                best = m
        return self._load(best) if best is not None else None

    def official_in_force(self, family: str, date: dt.date) -> Banlist | None:
        """The newest official list of ``family`` not after ``date`` (``is_official``)."""
        day = date.isoformat()
        best = None
        for m in self._all_metas(family):
            if m["effective"] <= day and is_official(m.get("source", "")):
                best = m
        return self._load(best) if best is not None else None

    def first_after(self, family: str, date: dt.date) -> Banlist | None:
        """The first version of ``family`` that takes effect after ``date`` (announced), or
        None; only that list is loaded (``lists`` loads them all)."""
        day = date.isoformat()
        for m in self._metas(family):
            if m["effective"] > day:
                return self._load(m)
        return None

    def get(self, family: str, date: dt.date) -> Banlist | None:
        """The version of ``family`` that takes effect exactly on ``date``."""
        day = date.isoformat()
        for m in self._metas(family):
            if m["effective"] == day:
                return self._load(m)
        return None

    def by_name(self, name: str) -> Banlist | None:
        from deckcheck.formats.listref import name_key  # a list asked for by its name only

        want = name_key(name)
        hits = [m for m in self._index() if name_key(m["name"]) == want]
        if not hits:
            return None
        return self._load(max(hits, key=lambda m: m["effective"]))

    def resolve(self, ref: str, date: dt.date | None = None) -> Banlist:
        """``family@YYYY-MM-DD``, a family (in force on ``date``), a list name, or a file path."""
        date = date or dt.date.today()
        ref = ref.strip()
        if not ref:
            raise DataError("empty list reference")
        file_part = ref.split("#", 1)[0]
        low = file_part.lower()
        if low.endswith((".yaml", ".yml", ".conf")) or os.path.isfile(file_part):
            from deckcheck.formats.listref import load_list_file

            return load_list_file(ref, date, self.resolvers())
        if "@" in ref:
            family, _, day = ref.partition("@")
            family = family.strip().lower()
            when = _parse_date(day.strip(), ref)
            got = self.in_force(family, when)
            if got is not None:
                return got
            if family not in self.families():
                raise DataError(f"no list family {family!r} installed ({self._known()})")
            first = self._metas(family)[0]
            raise DataError(
                f"no {family!r} list is in force on {when.isoformat()}: the oldest installed "
                f"one, {first['name']}, takes effect on {first['effective']}"
            )
        if ref.lower() in self.families():
            got = self.in_force(ref.lower(), date)
            if got is not None:
                return got
        got = self.by_name(ref)
        if got is not None:
            return got
        if os.path.isdir(file_part):
            raise InputError("is a folder, not a list file", where=file_part)
        if os.path.exists(file_part):  # a FIFO, a device: there, but no list file (issue 32)
            from deckcheck.formats.listref import NOT_A_LIST_FILE

            raise InputError(NOT_A_LIST_FILE, where=file_part)
        raise DataError(
            f"unknown list {ref!r}: give '<family>@YYYY-MM-DD', a list name such as "
            f"'2025.04 TCG', or a .yaml/.lflist.conf path ({self._known()})"
        )

    def _known(self) -> str:
        fams = self.families()
        if not fams:
            return "no lists installed; see `deckcheck banlist import`"
        return "installed families: " + ", ".join(fams)


#: Sources whose lists carry Konami's real days (see ``formats.official``).
OFFICIAL_SOURCES = ("DawnbrandBots/yaml-yugi-limit-regulation", "falsepopsky/forbidden-duel-links")


def is_official(source: str) -> bool:
    """True for a list read from an official dated source."""
    return source.startswith(OFFICIAL_SOURCES)


def superseded_by(m: dict[str, Any], metas: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The official list that hides the lflist-derived (or other non-official) list ``m``.

    Official lists (yaml-yugi-limit-regulation, Duel Links dev.db) carry Konami's real day; an
    lflist header mostly gives only the month, so its list starts on the 1st. Where a family
    has official lists, any other list from the month of the first official list up to the
    month of the newest one is not used: the official list covering that period wins (TCG
    2025-04-07, not 2025-04-01). Lists before that span or after it still fill the gaps
    (Rush before 2023, a TCG list newer than the official data).
    """
    if is_official(m.get("source", "")):
        return None
    exact = [o for o in metas if o.get("date_exact", True) and is_official(o.get("source", ""))]
    if not exact:
        return None
    eff = m["effective"][:7]
    if eff < exact[0]["effective"][:7] or eff > exact[-1]["effective"][:7]:
        return None
    return next(o for o in exact if o["effective"][:7] >= eff)


def default_resolvers() -> Resolvers:
    """Card resolvers over the installed card database (``deckcheck.cardnames``)."""
    from deckcheck.cardnames import installed_resolvers

    return installed_resolvers()
