"""The formats: every format YAML (shipped, the user's, ``--format-file``), merged after
``extends`` and kept compiled in the cache folder beside the lists' caches (``catalog``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from deckcheck import paths
from deckcheck.errors import DataError, InputError, did_you_mean
from deckcheck.formats import catalog
from deckcheck.formats.catalog import SUFFIX
from deckcheck.formats.codec import format_from_dict
from deckcheck.fsio import name_hash

if TYPE_CHECKING:
    from pathlib import Path

    from deckcheck.model import Format


def _format_files(extra_files: Sequence[str | Path]) -> list[str]:
    # plain strings, as the cache key holds them (no Path per file on the warm path)
    files: list[str] = []
    for d in (paths.join(paths.builtin_banlists_folder(), "formats"), paths.formats_folder()):
        try:
            files.extend(
                e.path
                for e in sorted(os.scandir(d), key=lambda e: e.name)
                if e.name.endswith((".yaml", ".yml")) and e.is_file()
            )
        except (FileNotFoundError, NotADirectoryError):
            continue
    for f in extra_files:
        from pathlib import Path  # --format-file only

        p = Path(f).expanduser()
        if not p.is_file():
            raise InputError("format file not found", where=str(p))
        files.append(str(p.resolve()))
    return files


def load_formats(extra_files: Sequence[str | Path] = ()) -> dict[str, Format]:
    """Every format by id: shipped, the user's ``formats_dir()``, then ``extra_files``
    (later files win)."""
    return {fid: format_from_dict(d) for fid, d in sorted(_compiled_formats(extra_files).items())}


def _compiled_formats(extra_files: Sequence[str | Path]) -> dict[str, dict[str, Any]]:
    """Every format by id in the cache's JSON shape (``extends`` merged), compiled when the
    cache is cold."""
    files = _format_files(extra_files)
    key = [catalog.CACHE_VERSION, catalog.RUNTIME, [catalog._stat_key(f) for f in files]]
    # Named by the set of files (which install, which --format-file) and then by their
    # stats: a cache goes stale only within its own set, so two installs sharing a home
    # (a venv and a pre-commit environment) or a run with --format-file do not remove each
    # other's cache and compile again at every alternate run.
    group = name_hash(repr([catalog.RUNTIME, *files]).encode())[:8]
    cache = paths.join(
        paths.cache_folder(),
        f"formats-{group}-" + name_hash(repr(key).encode())[:12] + SUFFIX,
    )
    merged = catalog._read_cache(cache)
    if not (isinstance(merged, dict) and merged.get("key") == key):
        # a read-only home: what was compiled in its own cache folder (issue 32)
        ro = paths.read_only_cache_folder()
        if ro is not None and ro != paths.cache_folder():
            merged = catalog._read_cache(paths.join(ro, os.path.basename(cache)))
    if not (isinstance(merged, dict) and merged.get("key") == key):
        from pathlib import Path  # a cold cache only

        from deckcheck.formats.compile import format_file, merge_formats

        raw: dict[str, dict[str, Any]] = {}
        for f in files:
            d = format_file(Path(f))
            raw[d["id"]] = d
        merged = {"key": key, "formats": merge_formats(raw)}
        try:
            catalog._write_cache(cache, merged)
            from deckcheck import fsio

            kept = Path(cache)
            fsio.remove_others(kept, f"formats-{group}-*{SUFFIX}")  # those files, since changed
            fsio.remove_others(kept, f"formats-{'[0-9a-f]' * 12}{SUFFIX}")  # an older naming
            fsio.remove_others(kept, "formats-*.json")  # an older deckcheck's
        except OSError:
            pass  # a read-only home still validates; it just compiles every time
    formats: dict[str, dict[str, Any]] = merged["formats"]
    return formats


def get_format(format_id: str, extra_files: Sequence[str | Path] = ()) -> Format:
    """One format by id, with a clear error listing the known ids (only that one is
    decoded from the cache)."""
    known = _compiled_formats(extra_files)
    got = known.get(format_id.strip().lower())
    if got is None:
        hint = did_you_mean(format_id.strip().lower(), known)
        raise DataError(
            f"unknown format {format_id!r}{hint}; known formats: {', '.join(sorted(known))} "
            "(`deckcheck formats` describes them)"
        )
    return format_from_dict(got)
