"""The old home of the list store, kept so existing imports work: the store is
``deckcheck.formats.catalog`` now, the compiled shapes ``deckcheck.formats.codec``."""

from __future__ import annotations

from deckcheck.formats.catalog import (
    CACHE_VERSION,
    ListStore,
    blob_name,
    get_format,
    load_formats,
    load_list_file,
    name_key,
    seed_cache,
    write_atomic,
)
from deckcheck.formats.codec import banlist_from_dict, banlist_to_dict, format_from_dict

__all__ = [
    "CACHE_VERSION",
    "ListStore",
    "banlist_from_dict",
    "banlist_to_dict",
    "blob_name",
    "format_from_dict",
    "get_format",
    "load_formats",
    "load_list_file",
    "name_key",
    "seed_cache",
    "write_atomic",
]
