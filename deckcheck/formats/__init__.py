"""Forbidden/Limited lists and formats as data: YAML files, lflist.conf, the installed store.

``load_formats`` and ``get_format`` are re-exported here; they need only ``json`` when the
compiled cache is warm (``deckcheck.formats.store``).
"""

from __future__ import annotations

from deckcheck.formats.select import list_for
from deckcheck.formats.store import ListStore, get_format, load_formats

__all__ = ["ListStore", "get_format", "list_for", "load_formats"]
