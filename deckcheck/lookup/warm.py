"""Building the card-name index as soon as the card database changes (``db import``,
``update``), so that the first ``card search`` or text list afterwards loads it from the
cache instead of building it unannounced (issue 18, P4)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def index_cached(db: Any, cache_dir: Path | None = None) -> bool:
    """The on-disk index of ``db`` is there already (nothing to build)."""
    from deckcheck.lookup import cache
    from deckcheck.lookup.nicknames import nicknames_path

    if cache_dir is None:
        from deckcheck.paths import cache_dir as default_cache_dir

        cache_dir = default_cache_dir()
    key = cache.cache_key(db.fingerprint, nicknames_path())
    return cache.cache_path(cache_dir, key).is_file()


def build_index_cache(
    db: Any = None,
    *,
    cache_dir: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> float | None:
    """Build the lookup index of ``db`` (the installed database when None) and write its
    on-disk cache, unless it is cached already (then None). ``progress`` gets one line
    before the build and one after. Returns the seconds the build took."""
    from deckcheck.lookup.index import Index

    if db is None:
        from deckcheck.carddb import open_db

        db = open_db()
    if index_cached(db, cache_dir):
        return None
    if progress is not None:
        progress("deckcheck: building the card name index (card search, text decklists) …")
    t0 = time.perf_counter()
    index = Index.for_db(db, cache_dir=cache_dir)
    if not index_cached(db, cache_dir):  # it was in this process's memory already
        from deckcheck.paths import cache_dir as default_cache_dir

        index.cache_to(cache_dir or default_cache_dir())
    seconds = time.perf_counter() - t0
    if progress is not None:
        progress(f"deckcheck: card name index ready ({seconds:.1f} s)")
    return seconds
