"""`deckcheck deck diff / side / draw`, `deck add` never guessing, and `deck stats` tables, on
real data through the CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deckcheck import decks
from deckcheck.cli import main
from deckcheck.deckedit.stats import p_at_least_one, p_each
from tests.deckedit.conftest import LIST

pytestmark = pytest.mark.realdata


def test_add_of_a_loose_name_changes_nothing_and_lists_candidates(
    deck_ydk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = deck_ydk.read_bytes()
    assert main(["deck", "add", str(deck_ydk), "Raye", "-n", "3"]) == 1
    err = capsys.readouterr().err
    assert deck_ydk.read_bytes() == before
    assert "23220533" in err and "Starry Knight Rayel" in err  # a candidate, not a decision
    assert main(["deck", "add", str(deck_ydk), "ash blosom"]) == 1
    err = capsys.readouterr().err
    assert deck_ydk.read_bytes() == before
    first = next(ln for ln in err.splitlines() if ln.strip()[:1].isdigit())
    assert "14558127" in first and "Ash Blossom" in first


def test_diff_names_the_changed_card_across_kinds(
    deck_ydk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.txt"
    other.write_text(
        LIST.replace('3 Maxx "C"', '2 Maxx "C"').replace("2 Dark Magician", "3 Dark Magician"),
        encoding="utf-8",
    )
    assert main(["deck", "diff", str(deck_ydk), str(other)]) == 1
    out = capsys.readouterr().out
    assert "Main Deck:" in out and 'Maxx "C"' in out and "Dark Magician" in out
    maxx = next(ln for ln in out.splitlines() if "Maxx" in ln).split()
    assert maxx[:4] == ["changed", "3", "2", "-1"]
    # The same deck as a ydke:// link: no difference.
    assert main(["convert", str(deck_ydk), "--to", "ydke"]) == 0
    link = capsys.readouterr().out.strip()
    assert main(["deck", "diff", str(deck_ydk), link]) == 0
    assert "same cards" in capsys.readouterr().out
    # JSON, names in Japanese.
    assert main(["deck", "diff", str(deck_ydk), str(other), "--lang", "ja-JP", "-o", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    names = {c["name"] for c in doc["changes"]}
    assert "ブラック・マジシャン" in names
    assert {c["change"] for c in doc["changes"]} == {"changed"}


def test_one_for_one_side_plan_passes_and_writes_game_2(
    deck_ydk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g2 = tmp_path / "game2.ydk"
    assert (
        main(
            [
                "deck",
                "side",
                str(deck_ydk),
                "--side-in",
                "2*Nibiru",
                "--side-out",
                "2*Maxx C",
                "--side-in",
                "Apollousa",
                "--side-out",
                "Borreload Dragon",
                "--out",
                str(g2),
            ]
        )
        == 0
    )
    d = decks.read_path(g2)
    main_ids = [e.card_id for e in d.main for _ in range(e.count)]
    assert main_ids.count(27204311) == 2 and main_ids.count(23434538) == 1
    assert d.counts() == decks.read_path(deck_ydk).counts()


@pytest.mark.parametrize(
    ("ins", "outs", "why"),
    [
        (["2*Nibiru"], ["Maxx C"], "Main Deck would change size"),
        (["Nibiru"], ["Accesscode Talker"], "Extra Deck would change size"),
        (["Ash Blossom"], ["Maxx C"], "the Side Deck has 0"),
    ],
)
def test_lopsided_side_plan_fails_and_writes_nothing(
    deck_ydk: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    ins: list[str],
    outs: list[str],
    why: str,
) -> None:
    g2 = tmp_path / "game2.ydk"
    args = ["deck", "side", str(deck_ydk), "--out", str(g2)]
    for c in ins:
        args += ["--side-in", c]
    for c in outs:
        args += ["--side-out", c]
    assert main(args) == 1
    assert why in capsys.readouterr().err
    assert not g2.exists()


def test_draw_is_repeatable_with_a_seed(deck_ydk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "draw", str(deck_ydk), "--seed", "7", "--hand", "6", "-o", "json"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert main(["deck", "draw", str(deck_ydk), "--seed", "7", "--hand", "6", "-o", "json"]) == 0
    b = json.loads(capsys.readouterr().out)
    assert a == b and len(a["hands"][0]) == 6
    main_ids = {e.card_id for e in decks.read_path(deck_ydk).main}
    assert {c["id"] for c in a["hands"][0]} <= main_ids


def test_stats_table_and_named_cards_only(
    deck_ydk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deck", "stats", str(deck_ydk)]) == 0
    out = capsys.readouterr().out
    assert "GROUP" in out and "level 8" in out
    assert main(["deck", "stats", str(deck_ydk), "--card", "ash", "--card", "maxx c|veiler"]) == 0
    out = capsys.readouterr().out
    assert "GROUP" not in out and "Pot of Desires" not in out
    assert "Ash Blossom" in out and "P(at least one of each of the 2)" in out
    expect = p_each(42, [3, 5], 5)
    assert f"{expect * 100:.2f}%" in out
    assert f"{p_at_least_one(42, 3, 5) * 100:.2f}%" in out


def test_p_each_by_hand_enumeration() -> None:
    import itertools

    pile = ["a"] * 2 + ["b"] * 3 + ["x"] * 5
    hands = list(itertools.combinations(range(len(pile)), 4))
    hits = sum(1 for h in hands if {"a", "b"} <= {pile[i] for i in h})
    assert p_each(10, [2, 3], 4) == pytest.approx(hits / len(hands))
