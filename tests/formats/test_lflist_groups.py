"""A Duel Links list's Limited 1/2/3 groups survive export to lflist.conf and import back
(issue 32: the members came back with copy limits of their own, so two copies of a Limited 1
card were a DC403 beside the group's DC406)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.formats import lflist
from deckcheck.model import Banlist, Group

FIX = Path(__file__).parent.parent / "fixtures" / "formats" / "duel-links"
RAIGEKI, DARK_HOLE, POT = 12580477, 53129443, 55144522


def _back(b: Banlist, text: str) -> Banlist:
    (lf,) = lflist.parse(text)
    return lflist.to_banlist(lf, family=b.family, effective=b.effective)


def test_groups_round_trip_without_copy_limits() -> None:
    # as the Duel Links dev.db gives it: the group limits its members, no copy limit
    b = Banlist(
        name="2025-07-01 Duel Links",
        family="duel-links",
        effective=dt.date(2025, 7, 1),
        limits={POT: 0},
        groups=(Group("Limited 1", 1, frozenset({RAIGEKI, DARK_HOLE})),),
    )
    text = lflist.write([b])
    assert f"#Limited 1\n{RAIGEKI} 1\n{DARK_HOLE} 1\n" in text  # what EDOPro's files write
    got = _back(b, text)
    assert got.limits == {POT: 0}  # before: Raigeki and Dark Hole Limited (1) each
    assert got.groups == b.groups
    assert lflist.write([got]) == text


def test_whitelist_group_member_is_admitted_and_a_lower_own_limit_is_kept() -> None:
    text = (
        "!2025.07 Speed Duel\n$whitelist\n#Unlimited\n55144522 3\n#Limited 2\n"
        f"{RAIGEKI} 2\n{DARK_HOLE} 1\n"
    )
    b = _back(Banlist(name="x", family="speed", effective=dt.date(2025, 7, 1)), text)
    assert b.limits == {POT: 3, RAIGEKI: 3, DARK_HOLE: 1}  # Dark Hole: its own limit 1
    assert b.groups == (Group("Limited 2", 2, frozenset({RAIGEKI, DARK_HOLE})),)
    again = lflist.write([b])
    assert f"#Limited 2\n{RAIGEKI} 2\n{DARK_HOLE} 1\n" in again
    assert _back(b, again).limits == b.limits


def test_exported_list_reports_the_group_once(
    tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "l.conf"
    assert main(["banlist", "export", str(FIX / "banlist.yaml"), "--out", str(out)]) == 0
    src = (FIX / "illegal" / "group.ydk").read_text().replace(str(DARK_HOLE), str(RAIGEKI))
    deck = tmp_path / "d.ydk"
    deck.write_text(src)
    capsys.readouterr()
    args = ["validate", "-f", "duel-links", "--date", "2023-01-01", "-o", "json", str(deck)]
    for banlist in (FIX / "banlist.yaml", out):
        main([*args[:-1], "--banlist", str(banlist), str(deck)])
        report = json.loads(capsys.readouterr().out)
        codes = [f["code"] for f in report["decks"][0]["findings"]]
        assert codes.count("DC406") == 1 and "DC403" not in codes, (banlist, codes)
