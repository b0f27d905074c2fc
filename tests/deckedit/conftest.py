"""The deck command tests' deck: a Blue-Eyes list built into a .ydk on the real data."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.cli import main

LIST = """Main Deck
3 Ash Blossom & Joyous Spring
3 Maxx "C"
2 Effect Veiler
3 Pot of Desires
3 Blue-Eyes White Dragon
3 Sage with Eyes of Blue
3 The White Stone of Ancients
3 Dragon Shrine
3 Trade-In
3 Return of the Dragon Lords
3 Cards of Consonance
3 Chaos Form
2 Blue-Eyes Alternative White Dragon
2 Dark Magician
3 Infinite Impermanence
Extra Deck
1 Accesscode Talker
1 Borreload Dragon
Side Deck
3 Nibiru, the Primal Being
2 Dark Ruler No More
1 Apollousa, Bow of the Goddess
"""


@pytest.fixture
def deck_ydk(real_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """``LIST`` built (``deckcheck build``) into the test's ``deck.ydk`` over the real home."""
    src = tmp_path / "list.txt"
    src.write_text(LIST, encoding="utf-8")
    out = tmp_path / "deck.ydk"
    assert main(["build", str(src), "--out", str(out)]) == 0
    capsys.readouterr()
    return out
