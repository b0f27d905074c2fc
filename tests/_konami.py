"""A Konami id -> passcode map read straight from yaml-yugi's cards.json/rush.json, for tests
of the list side that run without the card side's importer (CardDB.passcodes_for_konami)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from deckcheck.formats.official import KonamiMap, name_map_for


def konami_map(upstream: Path, db: Any) -> KonamiMap:
    """(konami_id, kind) -> passcodes: OCG/TCG by ``password``, Rush by English name."""
    ocg: dict[int, list[int]] = {}
    for c in json.loads((upstream / "cards.json").read_text(encoding="utf-8")):
        kid, pw = c.get("konami_id"), c.get("password")
        if isinstance(kid, int) and isinstance(pw, int):
            ocg.setdefault(kid, []).append(pw)
    names = name_map_for(db)
    from deckcheck.formats.official import name_key

    rush: dict[int, list[int]] = {}
    for c in json.loads((upstream / "rush.json").read_text(encoding="utf-8")):
        kid, en = c.get("konami_id"), (c.get("name") or {}).get("en")
        if isinstance(kid, int) and isinstance(en, str):
            got = names(name_key(en), True)
            if got:
                rush[kid] = got

    def look(kid: int, kind: str) -> list[int]:
        return list((rush if kind == "rush" else ocg).get(kid, []))

    return look
