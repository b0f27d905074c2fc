"""What this install knows of a video game's card pool (Master Duel, Duel Links): the card
data's verdicts (``carddb.games``, read into each ``Card``) and the cards the game's official
lists name, with the first list naming each; the ``rules.pool.GamePool`` a run checks with.

    game = game_pool(fmt, db, store)      # None for a paper format
    game.installed                        # False: no data on the game, the pool check is off
    warning(fmt, game)                    # the one note a run gives when it is off

Where it comes from is said in docs/RULES.md ("Video-game card pools").
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.model import Format
from deckcheck.rules.pool import GAME_NAMES, GamePool

#: the card data's region code of each game (``carddb.games.GAMES``)
GAME_CODES = {"master-duel": "masterduel", "duel-links": "duellinks"}
#: the card data that says which cards are in each game, for messages and notes
CARD_SOURCES = {
    "master-duel": "yaml-yugi cards.json (master_duel_rarity), YGOJSON",
    "duel-links": "YGOJSON",
}
#: how a user installs that data
HOW = "`deckcheck update`, or `deckcheck db import` of yaml-yugi's cards.json / YGOJSON"


def game_pool(fmt: Format, db: Any, store: Any) -> GamePool | None:
    """The ``GamePool`` of ``fmt``'s video game (None for ``game: paper``): installed when
    the card data covers the game and the format's universe (it knows OCG/TCG cards only, not
    Rush cards); ``named`` from every official list of the format's list family."""
    if fmt.game not in GAME_CODES:
        return None
    code = GAME_CODES[fmt.game]
    has = code in getattr(db, "games", frozenset())
    installed = has and "ocg-tcg" in fmt.universe
    named = official_names(store, fmt.list_family) if installed else {}
    sources = CARD_SOURCES[fmt.game]
    if named:
        sources += f", the official {GAME_NAMES[fmt.game]} lists"
    return GamePool(fmt.game, installed, named, sources)


def official_names(store: Any, family: str | None) -> dict[int, dt.date]:
    """List key -> the first official list of ``family`` naming it (an entry, a group or
    points), over every installed official list of the family."""
    if store is None or not family:
        return {}
    from deckcheck.formats.catalog import is_official

    out: dict[int, dt.date] = {}
    try:
        lists = store.lists(family, superseded=True)
    except TypeError:  # a store without superseded lists (tests' stubs)
        lists = store.lists(family)
    for b in lists:  # oldest first: the first list naming a card stays
        if not is_official(b.source):
            continue
        day = b.effective
        for cid in (*b.limits, *b.points, *(c for g in b.groups for c in g.cards)):
            out.setdefault(cid, day)
    return out


def warning(fmt: Format, game: GamePool | None) -> str | None:
    """The note of a run whose game pool check is off (None when it is on)."""
    if game is None or game.installed:
        return None
    name = GAME_NAMES[game.game]
    if "ocg-tcg" not in fmt.universe:
        return (
            f"{fmt.name}: which Rush Duel cards are in {name} is in no installed data (the card "
            "data covers OCG/TCG cards only): the game's card pool is not checked, the Rush "
            "card universe and the list still are"
        )
    return (
        f"{fmt.name}: no card data on {name} is installed ({CARD_SOURCES[game.game]}): the "
        f"game's card pool is not checked (no DC504 for cards outside the game); install it "
        f"with {HOW}"
    )


def info(counts: dict[str, dict[str, int]], store: Any) -> dict[str, Any]:
    """``db info``'s part on the games: ``counts`` (``CardDB.info()["official"]["games"]``:
    cards per game and source) with, per game, the cards its official lists name and, where
    the card data has nothing on it, what to install (``missing``)."""
    out: dict[str, Any] = {}
    for fid, code in GAME_CODES.items():
        named = official_names(store, fid)  # the games' list families carry the format ids
        row: dict[str, Any] = {"cards": counts.get(code, {}), "named_by_official_lists": len(named)}
        if not counts.get(code):
            row["missing"] = (
                f"no card data on {GAME_NAMES[fid]} ({CARD_SOURCES[fid]}): its card pool is not "
                f"checked; install it with {HOW}"
            )
        out[fid] = row
    return out
