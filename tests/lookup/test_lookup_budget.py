"""Past the fuzzy budget of a text list (``decks.resolve.MAX_FUZZY``), names that are exact,
nicknames or passcodes still resolve through ``Index.resolve_exact``; only the rest are
"not looked up"."""

from __future__ import annotations

from typing import Any

import pytest

from deckcheck.lookup import Index

ASH, POT = 14558127, 55144522


def test_resolve_exact_answers_only_exact_names(real_index: Index) -> None:
    got = real_index.resolve_exact("Ash Blossom & Joyous Spring")
    assert got is not None and got.card_id == ASH and got.candidates[0].how == "exact"
    nick = real_index.resolve_exact("ash")
    assert nick is not None and nick.card_id == ASH
    assert real_index.resolve_exact("Ash Blosom & Joyous Spring") is None  # a typo
    assert real_index.resolve_exact("Raye") is None  # a prefix
    for q in ("Pot of Greed", "ash", "55144522"):
        assert real_index.resolve_exact(q) == real_index.resolve(q)


def test_exact_names_after_the_budget_still_resolve(
    real_index: Index, real_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckcheck import decks
    from deckcheck.decks import resolve

    monkeypatch.setattr(resolve, "MAX_FUZZY", 3)
    text = (
        "".join(f"1 Qzxv{i} Wyrm\n" for i in range(4))
        + "3 Ash Blossom & Joyous Spring\n1 ash\n2 Pot of Greed\n1 Pot of Greeed\n"
    )
    d = resolve.resolve_deck(decks.read_string(text, "l.txt"), real_db, real_index)
    by_line = {e.line: e.card_id for e in d.entries()}
    assert by_line[5] == ASH and by_line[6] == ASH and by_line[7] == POT
    assert by_line[8] is None  # a typo past the budget is not searched ...
    msgs = {f.line: f.message for f in d.findings}
    assert "not looked up" in msgs[8] and "not looked up" in msgs[4]  # ... and says so
    assert set(msgs) == {1, 2, 3, 4, 8}  # every line that did not resolve is reported
