"""Which cards are in each video game (Master Duel, Duel Links), from the official card data:
the ``game_cards`` table, one row per (card, game, source) for every card a source knows.

* yaml-yugi ``cards.json``: ``master_duel_rarity`` puts a card in Master Duel; a card without
  one is known not to be there (yaml-yugi says nothing about Duel Links).
* YGOJSON card files: the ``masterDuel`` / ``duelLinks`` keys (the card's rarity in that game)
  put it in the game; YGOJSON's Master Duel and Duel Links packs (virtual sets) do too
  (source ``ygojson-sets``). Every card file is a card YGOJSON knows.

A card is in a game when any source says so (``CardDB.get`` reads it into ``Card.in_md`` /
``Card.in_dl``); the official lists of the game add the cards they name at check time
(``deckcheck.gamepool``). Rows keep the source's passcode, like ``releases``: an EDOPro
prerelease row or an alternate artwork reads its card's rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from deckcheck.carddb._common import GAMES

#: sources of the table, in the order ``db info`` lists them
SOURCES: tuple[str, ...] = ("yaml-yugi", "ygojson", "ygojson-sets")

_INSERT = "INSERT OR REPLACE INTO game_cards (card_id, game, source, present) VALUES (?, ?, ?, ?)"


def _replace(
    conn: sqlite3.Connection, sources: Iterable[str], rows: list[tuple[int, str, str, int]]
) -> None:
    """The rows of ``sources`` replaced by ``rows`` (a re-import of a source starts afresh)."""
    for source in sources:
        conn.execute("DELETE FROM game_cards WHERE source = ?", (source,))
    conn.executemany(_INSERT, rows)


def write_yamlyugi(conn: sqlite3.Connection, cards: Iterable[tuple[int, str | None]]) -> int:
    """Master Duel rows from yaml-yugi ``cards.json``: (passcode, ``master_duel_rarity``) per
    card; the number of cards put in the game."""
    rows = [(code, "masterduel", "yaml-yugi", 1 if rarity else 0) for code, rarity in cards]
    _replace(conn, ["yaml-yugi"], rows)
    return sum(r[3] for r in rows)


def write_ygojson(
    conn: sqlite3.Connection,
    games: dict[int, set[str]],
    first: dict[int, dict[str, tuple[str, str]]],
) -> int:
    """Rows from a YGOJSON tree: ``games`` (passcode -> the games its card file names) and
    ``first`` (passcode -> region -> first release, the games' packs among them); the number
    of (card, game) pairs put in a game."""
    rows: list[tuple[int, str, str, int]] = []
    for code, named in games.items():
        rows.extend((code, game, "ygojson", 1 if game in named else 0) for game in GAMES)
    for code, regions in first.items():
        rows.extend((code, game, "ygojson-sets", 1) for game in GAMES if game in regions)
    _replace(conn, ["ygojson", "ygojson-sets"], rows)
    return len({(r[0], r[1]) for r in rows if r[3]})


def counts(conn: sqlite3.Connection) -> dict[str, dict[str, int]]:
    """``db info``'s figures per game: cards put in it by each source and by any (``any``),
    and cards some source knows but none puts in it (``absent``)."""
    out: dict[str, dict[str, int]] = {}
    try:
        rows = conn.execute(
            "SELECT game, source, count(*) FROM game_cards WHERE present = 1 GROUP BY game, source"
        ).fetchall()
        totals = dict(
            conn.execute(
                "SELECT game, count(DISTINCT card_id) FROM game_cards WHERE present = 1 "
                "GROUP BY game"
            ).fetchall()
        )
        absent = dict(
            conn.execute(
                "SELECT game, count(*) FROM (SELECT card_id, game FROM game_cards "
                "GROUP BY card_id, game HAVING max(present) = 0) GROUP BY game"
            ).fetchall()
        )
    except sqlite3.OperationalError:  # a database built before the table existed
        return out
    for game, source, n in rows:
        out.setdefault(game, {})[source] = n
    for game in list(out):
        out[game]["any"] = totals.get(game, 0)
        out[game]["absent"] = absent.get(game, 0)
    return {g: out[g] for g in GAMES if g in out}
