"""Multilingual, typo-tolerant card-name lookup: names in any language -> canonical passcodes.

``Index.for_db(db)`` loads (or builds and caches) one index over every name of every card;
``.search(query)`` ranks matches, ``.resolve(query)`` decides found / ambiguous / unknown.
"""

from __future__ import annotations

from deckcheck.lookup.index import Index
from deckcheck.lookup.normalize import normalize
from deckcheck.lookup.records import Match, Resolution

__all__ = ["Index", "Match", "Resolution", "normalize"]
