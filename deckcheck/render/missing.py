"""Text and JSON output of ``deck missing``: the cards and copies a deck still needs beyond
the collections (names and paths on one line in text, exact in JSON)."""

from __future__ import annotations

from typing import Any

from deckcheck.render.common import one_line, to_json


def _name(n: Any) -> str:
    return n.name if n.name is not None else f"unknown card {n.card_id}"


def missing_text(deck: str, collections: list[str], got: Any) -> str:
    """The shortfall as lines: a summary, then one "N × Name (passcode)" line per card."""
    s = "s" * (len(collections) != 1)
    where = f"collection{s} {', '.join(collections)}"
    if not got.missing:
        verb = "s" * (len(collections) == 1)
        return one_line(
            f"{deck}: nothing missing: the {where} hold{verb} every card of the deck "
            f"({got.copies} cop{'ies' if got.copies != 1 else 'y'} of {got.cards} "
            f"card{'s' * (got.cards != 1)})"
        )
    n, c = got.copies_missing, len(got.missing)
    lines = [
        one_line(
            f"{deck}: {n} cop{'ies' if n != 1 else 'y'} of {c} card{'s' * (c != 1)} still to "
            f"get (the deck has {got.copies} copies of {got.cards} cards; {where})"
        )
    ]
    width = max(len(str(m.count)) for m in got.missing)
    for m in got.missing:
        have = f", have {m.have} of {m.need}" if m.have else ""
        lines.append(one_line(f"  {m.count:>{width}} × {_name(m)} ({m.card_id}){have}"))
    return "\n".join(lines)


def missing_json(deck: str, collections: list[str], got: Any) -> str:
    """``{deck, collections, cards, copies, copies_missing, missing: [{id, name, count, need,
    have}]}`` (``name`` null for a passcode the card database does not know)."""
    return to_json(
        {
            "schema_version": 1,
            "deck": deck,
            "collections": collections,
            "cards": got.cards,
            "copies": got.copies,
            "copies_missing": got.copies_missing,
            "missing": [
                {"id": m.card_id, "name": m.name, "count": m.count, "need": m.need, "have": m.have}
                for m in got.missing
            ],
        }
    )
