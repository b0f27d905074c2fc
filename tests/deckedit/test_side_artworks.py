"""``deck side --out`` keeps the user's passcodes: each copy moves with its own artwork
(an alternate artwork stays that artwork in the next game's file)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from deckcheck import decks
from deckcheck.cli import main

pytestmark = pytest.mark.realdata

DM, DM_ALT = 46986414, 46986415
NIBIRU, NIBIRU_ALT = 27204311, 27204313


def _ids(deck: decks.Deck, section: str) -> Counter[int]:
    out: Counter[int] = Counter()
    for e in deck.section(section):
        out[e.card_id] += e.count
    return out


def test_side_out_writes_each_copy_under_its_own_passcode(
    deck_ydk: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = deck_ydk.read_text().splitlines()
    # one Dark Magician of the Main Deck and two Nibiru of the Side Deck in other artworks
    lines[lines.index(str(DM))] = str(DM_ALT)
    side_at = lines.index("!side")
    for i in [i for i, x in enumerate(lines) if x == str(NIBIRU) and i > side_at][:2]:
        lines[i] = str(NIBIRU_ALT)
    mine = tmp_path / "mine.ydk"
    mine.write_text("\n".join(lines) + "\n")
    before = decks.read_path(mine)
    g2 = tmp_path / "game2.ydk"
    assert (
        main(
            [
                "deck",
                "side",
                str(mine),
                "--side-in",
                "2*Nibiru",
                "--side-out",
                "2*Dark Magician",
                "--out",
                str(g2),
            ]
        )
        == 0
    ), capsys.readouterr().err
    after = decks.read_path(g2)
    everything = [_ids(d, s) for d in (before, after) for s in ("main", "extra", "side")]
    # not one passcode replaced: the same copies, only in other sections
    assert sum(everything[:3], Counter()) == sum(everything[3:], Counter())
    main_ids, side_ids = _ids(after, "main"), _ids(after, "side")
    assert main_ids[DM] + main_ids[DM_ALT] == 0 and side_ids[DM] == side_ids[DM_ALT] == 1
    # the copies named (the main passcode) go first, then the last of the section
    assert main_ids[NIBIRU] == 1 and main_ids[NIBIRU_ALT] == 1 and side_ids[NIBIRU_ALT] == 1
    assert _ids(after, "extra") == _ids(before, "extra")
