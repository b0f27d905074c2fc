"""The verdict on a query from its ranked matches: found, ambiguous or unknown.

* id, exact or nickname naming one card: found. Several cards with that exact name: the one
  whose name is written exactly as typed (only case, width and spacing folded), else when
  exactly one of them is an official OCG/TCG card (the others being prerelease copies,
  anime/custom versions, Rush reprints), that one; otherwise ambiguous.
* prefix or word: never decides ("Raye" is not Starry Knight Rayel, a prefix of its French
  name, and need not be Sky Striker Ace - Raye, a whole word of its name): ambiguous when
  several cards start with or hold the query, unknown (with the suggestion) when one does.
* fuzzy: found when the best score is at least ``DECIDE[script]``, the next card scores at
  least ``MARGIN[script]`` less, the query has at least ``MIN_FUZZY_DECIDE[script]`` key
  characters, and no name merely starts with the query; ambiguous when two or more cards
  reach ``DECIDE`` within the margin; otherwise unknown, with the best candidates.
"""

from __future__ import annotations

from collections.abc import Set

from deckcheck.lookup.normalize import normalize, raw_key, script_of
from deckcheck.lookup.ranking import DECIDE, MARGIN
from deckcheck.lookup.records import Match, Resolution

#: Shortest query (key characters) a fuzzy match may decide for: in shorter ones one typo is
#: a large share of the name and often names another card.
MIN_FUZZY_DECIDE = {0: 6, 1: 4, 2: 4}


def decide(query: str, ranked: list[Match], official: Set[int]) -> Resolution:
    """Found, ambiguous or unknown (with suggestions) from ``ranked``, best first."""
    key = normalize(query)
    script = script_of(key)

    def done(status: str, card: int | None, cands: list[Match]) -> Resolution:
        return Resolution(status, query, card, tuple(cands[:10]))  # type: ignore[arg-type]

    def found(winner: Match) -> Resolution:
        return done("found", winner.card_id, [winner, *[m for m in ranked if m is not winner]])

    if not ranked:
        return done("unknown", None, [])
    top = ranked[0]
    if top.how == "id":
        return found(top)
    for how in ("exact", "nickname"):
        tier = [m for m in ranked if m.how == how]
        if len(tier) > 1:
            # Names equal only after folding (黑魔导 vs 黑・魔・导, Raimei vs Rai-Mei):
            # the one written exactly as typed, when there is exactly one such card.
            raw = raw_key(query)
            literal = [m for m in tier if raw_key(m.matched) == raw]
            if len(literal) == 1:
                return found(literal[0])
        if tier:
            winner = tiebreak(official, tier)
            return found(winner) if winner is not None else done("ambiguous", None, tier)
    prefix = {m.card_id for m in ranked if m.how in ("prefix", "word")}
    if prefix:
        return done("ambiguous" if len(prefix) > 1 else "unknown", None, ranked)
    # Fuzzy (including "contains") only: decide when clearly ahead.
    cutoff, margin = DECIDE[script], MARGIN[script]
    if len(key) < MIN_FUZZY_DECIDE[script]:
        close = [m for m in ranked if m.score >= cutoff]
        return done("ambiguous" if len(close) > 1 else "unknown", None, ranked)
    second = ranked[1].score if len(ranked) > 1 else 0.0
    if top.score >= cutoff and top.score - second >= margin:
        return found(top)
    close = [m for m in ranked if m.score >= cutoff and top.score - m.score < margin]
    if len(close) > 1:
        winner = tiebreak(official, close)
        nxt = [m for m in ranked if m not in close]
        if winner is not None and (not nxt or winner.score - nxt[0].score >= margin):
            return found(winner)
        return done("ambiguous", None, ranked)
    return done("unknown", None, ranked)


def tiebreak(official: Set[int], tier: list[Match]) -> Match | None:
    """One card from a tier of equally good matches, or None (ambiguous).

    The only card; else the one official (OCG/TCG) card when every other one is not
    official: prerelease copies under another passcode, anime/custom versions, Rush
    reprints and Speed skills that share the name. A player writing the name of a
    tournament card means that card; two official cards stay ambiguous.
    """
    cards = {m.card_id for m in tier}
    if len(cards) == 1:
        return tier[0]
    only = [m for m in tier if m.card_id in official]
    if len(only) == 1:
        return only[0]
    return None
