"""``deckcheck update``: fetch current cards and lists from upstream and install them atomically."""

from __future__ import annotations

from deckcheck.update.apply import UpdateResult, run_update
from deckcheck.update.sources import Component, Source, load_components, resolve_source

__all__ = ["Component", "Source", "UpdateResult", "load_components", "resolve_source", "run_update"]
