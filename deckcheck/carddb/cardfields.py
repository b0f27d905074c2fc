"""The official release fields of each card, decided once at import.

A ``Card`` holds its first OCG and TCG dates, its scopes with the regions it was really
printed in, and its Master Duel and Duel Links dates and presence. They come from the
official rows (``releases``, ``game_cards``) of the card itself, else of the official
passcode an EDOPro prerelease id stands for, else of its card for an alternate artwork.
``rebuild`` decides them for every card at the end of each import into ``card_fields``, so
``CardDB`` reads a card in one row; a database built before schema 4 has no such table and
``CardDB`` decides them per card with the same functions (``CardDB._decide_fields``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

from deckcheck.carddb._common import PRERELEASE_IDS, RELEASE_REGIONS
from deckcheck.model import Scope

_OCG_TCG = Scope.OCG | Scope.TCG


def release_ids(
    card_id: int,
    canonical: int,
    alias_kind: str,
    scopes: int,
    official_of: Callable[[int], int | None],
) -> list[int]:
    """The passcodes whose official rows a card takes, the first with rows winning: its own,
    then the official passcode an EDOPro prerelease id stands for (``official_of``), then,
    for an alternate artwork or another OCG/TCG row of a card, the card's
    (``CardDB.releases``)."""
    ids = [card_id]
    if PRERELEASE_IDS[0] <= card_id <= PRERELEASE_IDS[1]:
        official = official_of(card_id)
        if official is not None:
            ids.append(official)
    if canonical != card_id and (alias_kind == "artwork" or scopes & _OCG_TCG):
        ids.append(canonical)
    return ids


def _first_id(ids: list[int], rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows (card id first) of the first of ``ids`` that has any."""
    if not rows:
        return []
    best = min((r[0] for r in rows), key=ids.index)
    return [r for r in rows if r[0] == best]


def releases_of(ids: list[int], rows: list[tuple[Any, ...]]) -> dict[str, tuple[str, str]]:
    """region -> (first date, set name) of release rows ``(card_id, region, first_date,
    set_name)`` of ``ids``: the first id's with rows, in ``RELEASE_REGIONS`` order."""
    got = {r[1]: (r[2], r[3]) for r in _first_id(ids, rows)}
    order = (*RELEASE_REGIONS, *sorted(set(got) - set(RELEASE_REGIONS)))
    return {region: got[region] for region in order if region in got}


def games_of(ids: list[int], rows: list[tuple[Any, ...]]) -> dict[str, bool]:
    """game -> in it, of game rows ``(card_id, game, present)`` of ``ids`` (the first id's
    with rows): in a game when any source says so."""
    present: dict[str, bool] = {}
    for _cid, game, flag in _first_id(ids, rows):
        present[game] = present.get(game, False) or bool(flag)
    return present


def decide_fields(
    scopes: int,
    ocg: Any,
    tcg: Any,
    releases: Mapping[str, tuple[Any, str]],
    games: Mapping[str, bool],
) -> tuple[Any, ...]:
    """(scopes, ocg_date, tcg_date, md_date, dl_date, in_md, in_dl) of a card with these
    scopes and dates (as its row has them), its ``releases_of`` and its ``games_of``:
    official release data decides dates and OCG/TCG printings where it has them.

    EDOPro's region bits go stale (Elder Entity Norden is "OCG only" but was printed in the
    TCG); a real printing adds the region. Only to OCG/TCG cards: Speed Duel and other
    non-Advanced rows keep their scopes whatever product printed them.
    """
    ocg = ocg or (releases["ocg"][0] if "ocg" in releases else None)
    tcg = tcg or (releases["tcg"][0] if "tcg" in releases else None)
    if scopes & _OCG_TCG:
        scopes |= (Scope.OCG if "ocg" in releases else 0) | (Scope.TCG if "tcg" in releases else 0)
    md = releases["masterduel"][0] if "masterduel" in releases else None
    dl = releases["duellinks"][0] if "duellinks" in releases else None
    return scopes, ocg, tcg, md, dl, games.get("masterduel"), games.get("duellinks")


def rebuild(conn: sqlite3.Connection) -> int:
    """Decide the release fields of every card from the official rows into ``card_fields``
    (at the end of an import, after the canonical ids are final); the rows written. The
    rows are read in one pass per table, not per card."""
    conn.execute("DELETE FROM card_fields")
    releases: dict[int, list[tuple[Any, ...]]] = {}
    for row in conn.execute("SELECT card_id, region, first_date, set_name FROM releases"):
        releases.setdefault(row[0], []).append(row)
    games: dict[int, list[tuple[Any, ...]]] = {}
    for row in conn.execute("SELECT card_id, game, present FROM game_cards"):
        games.setdefault(row[0], []).append(row)
    if not releases and not games:
        return 0
    official = dict(conn.execute("SELECT edopro_id, official_id FROM official_ids").fetchall())
    out = []
    cards = conn.execute("SELECT id, canonical, alias_kind, scopes, ocg_date, tcg_date FROM cards")
    for cid, canonical, alias_kind, scopes, ocg, tcg in cards.fetchall():
        ids = release_ids(cid, canonical, alias_kind, scopes, official.get)
        rel = releases_of(ids, [r for i in ids for r in releases.get(i, ())])
        present = games_of(ids, [r for i in ids for r in games.get(i, ())])
        if rel or present:
            got = decide_fields(scopes, ocg, tcg, rel, present)
            out.append((cid, *got[:5], *(None if v is None else int(v) for v in got[5:])))
    conn.executemany(
        "INSERT INTO card_fields (card_id, scopes, ocg_date, tcg_date, md_date, dl_date, "
        "in_md, in_dl) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        out,
    )
    return len(out)
