"""Announced lists (issue 15): a list dated after the event date is upcoming; ``banlist list``
marks it and ``validate`` warns (DC601) when a deck legal today breaks it."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from click.testing import CliRunner

from deckcheck.cli import cli

BEWD, DM, POT = 89631139, 46986414, 55144522


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False, standalone_mode=False)
    code = res.return_value if isinstance(res.return_value, int) else res.exit_code
    return code, res.stdout, res.stderr


def _setup(home: Path, later: str) -> tuple[Path, Path]:
    lists = home / "banlists" / "house"
    lists.mkdir(parents=True)
    (lists / "2026-01-01.yaml").write_text(
        'name: "2026.01 House"\nfamily: house\neffective: 2026-01-01\nsource: "test"\n'
        "mode: blacklist\nentries:\n  - {id: 55144522, limit: 0}\n"
    )
    (lists / f"{later}.yaml").write_text(
        f'name: "Next House"\nfamily: house\neffective: {later}\n'
        'source: "test announced"\nmode: blacklist\nentries:\n'
        "  - {id: 55144522, limit: 0}\n  - {id: 46986414, limit: 1}\n"
    )
    fmt = home / "house.yaml"
    fmt.write_text(
        'id: house\nname: "House"\nextends: null\ndescription: "test"\nsource: "test"\n'
        "main: {min: 3, max: 60}\nextra: {min: 0, max: 15}\nside: {min: 0, max: 15}\n"
        "copies: 3\nlist_family: house\npool: []\n"
    )
    deck = home / "d.ydk"
    deck.write_text("#main\n" + "\n".join([str(BEWD)] * 3 + [str(DM)] * 3) + "\n#extra\n!side\n")
    return fmt, deck


def test_validate_warns_when_the_next_list_breaks_a_legal_deck(isolated_home: Path) -> None:
    fmt, deck = _setup(isolated_home, "2026-09-01")
    code, out, err = run(
        "validate",
        "--format-file",
        str(fmt),
        "-f",
        "house",
        "--date",
        "2026-06-01",
        "-o",
        "json",
        str(deck),
    )
    assert code == 0, err  # a warning, not an error
    rep = json.loads(out)
    warn = [f for f in rep["decks"][0]["findings"] if f["code"] == "DC601"]
    assert len(warn) == 1 and warn[0]["severity"] == "warning"
    assert "Next House" in warn[0]["message"] and "2026-09-01" in warn[0]["message"]
    assert "Dark Magician" in warn[0]["message"]
    assert rep["decks"][0]["legal"] is True
    # on the day itself the list is in force: the deck is illegal, no warning
    code, out, _ = run(
        "validate",
        "--format-file",
        str(fmt),
        "-f",
        "house",
        "--date",
        "2026-09-01",
        "-o",
        "json",
        str(deck),
    )
    rep = json.loads(out)
    assert code == 1 and not [f for f in rep["decks"][0]["findings"] if f["code"] == "DC601"]


def test_no_warning_with_a_named_list_or_an_unaffected_deck(isolated_home: Path) -> None:
    fmt, deck = _setup(isolated_home, "2026-09-01")
    code, out, _ = run(
        "validate",
        "--format-file",
        str(fmt),
        "-f",
        "house",
        "--date",
        "2026-06-01",
        "--banlist",
        "house@2026-06-01",
        "-o",
        "json",
        str(deck),
    )
    assert code == 0 and "DC601" not in out
    deck.write_text("#main\n" + "\n".join([str(BEWD)] * 3) + "\n#extra\n!side\n")
    code, out, _ = run(
        "validate",
        "--format-file",
        str(fmt),
        "-f",
        "house",
        "--date",
        "2026-06-01",
        "-o",
        "json",
        str(deck),
    )
    assert code == 0 and "DC601" not in out


def test_banlist_list_marks_upcoming_and_shows_source(isolated_home: Path) -> None:
    later = (dt.date.today() + dt.timedelta(days=30)).isoformat()
    _setup(isolated_home, later)
    code, out, _ = run("banlist", "list", "-f", "house")
    assert code == 0
    lines = out.splitlines()
    assert [ln for ln in lines if later in ln and "[upcoming]" in ln]
    assert [ln for ln in lines if "2026-01-01" in ln and "[upcoming]" not in ln and "(test)" in ln]
    code, out, _ = run("banlist", "list", "-f", "house", "-o", "json")
    rows = json.loads(out)
    rows = rows["lists"] if isinstance(rows, dict) else rows
    assert {r["effective"]: r["upcoming"] for r in rows}[later] is True
    assert all("source" in r for r in rows)
