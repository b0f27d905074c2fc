"""Forbidden/Limited lists and formats as data: YAML files, lflist.conf, the installed store.

``load_formats`` and ``get_format`` are re-exported here; they need only ``json`` when the
compiled cache is warm (``deckcheck.formats.catalog``).
"""

from __future__ import annotations

from deckcheck.formats.catalog import ListStore
from deckcheck.formats.formatfiles import get_format, load_formats
from deckcheck.formats.select import list_for

__all__ = ["ListStore", "get_format", "list_for", "load_formats"]
