"""Announced lists (issue 15): a list dated after the event date is upcoming; ``banlist list``
marks it and ``validate`` warns (DC601) when a deck legal today breaks it."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck.cli import cli

BEWD, DM, POT = 89631139, 46986414, 55144522


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False, standalone_mode=False)
    code = res.return_value if isinstance(res.return_value, int) else res.exit_code
    return code, res.stdout, res.stderr


def _setup(home: Path, later: str, announced: str | None = None) -> tuple[Path, Path]:
    lists = home / "banlists" / "house"
    lists.mkdir(parents=True)
    (lists / "2026-01-01.yaml").write_text(
        'name: "2026.01 House"\nfamily: house\neffective: 2026-01-01\nsource: "test"\n'
        "mode: blacklist\nentries:\n  - {id: 55144522, limit: 0}\n"
    )
    (lists / f"{later}.yaml").write_text(
        f'name: "Next House"\nfamily: house\neffective: {later}\n'
        + (f"announced: {announced}\n" if announced else "")
        + 'source: "test announced"\nmode: blacklist\nentries:\n'
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


def _validate(fmt: Path, deck: Path, day: str, *extra: str) -> tuple[int, str, str]:
    """``validate -o json`` of ``deck`` in the house format on ``day``."""
    house = ["--format-file", str(fmt), "-f", "house"]
    return run("validate", *house, "--date", day, "-o", "json", *extra, str(deck))


def test_validate_warns_when_the_next_list_breaks_a_legal_deck(isolated_home: Path) -> None:
    fmt, deck = _setup(isolated_home, "2026-09-01")
    # 21 days before: the list counts as announced (no announcement date)
    code, out, err = _validate(fmt, deck, "2026-08-11")
    assert code == 0, err  # a warning, not an error
    rep = json.loads(out)
    warn = [f for f in rep["decks"][0]["findings"] if f["code"] == "DC601"]
    assert len(warn) == 1 and warn[0]["severity"] == "warning"
    assert "Next House" in warn[0]["message"] and "2026-09-01" in warn[0]["message"]
    assert "Dark Magician" in warn[0]["message"]
    assert rep["decks"][0]["legal"] is True
    # on the day itself the list is in force: the deck is illegal, no warning
    code, out, _ = _validate(fmt, deck, "2026-09-01")
    rep = json.loads(out)
    assert code == 1 and not [f for f in rep["decks"][0]["findings"] if f["code"] == "DC601"]


def test_no_warning_with_a_named_list_or_an_unaffected_deck(isolated_home: Path) -> None:
    fmt, deck = _setup(isolated_home, "2026-09-01", announced="2026-05-20")
    code, out, _ = _validate(fmt, deck, "2026-06-01", "--banlist", "house@2026-06-01")
    assert code == 0 and "DC601" not in out
    deck.write_text("#main\n" + "\n".join([str(BEWD)] * 3) + "\n#extra\n!side\n")
    code, out, _ = _validate(fmt, deck, "2026-06-01")
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


def _dc601(fmt: Path, deck: Path, day: str) -> list[dict]:
    code, out, err = _validate(fmt, deck, day)
    assert code == 0, err
    return [f for f in json.loads(out)["decks"][0]["findings"] if f["code"] == "DC601"]


def test_a_list_counts_as_announced_21_days_ahead_when_no_announcement_is_known(
    isolated_home: Path,
) -> None:
    # issue 27: decks checked for 2024-12-10 or 2025-02-01 were warned about the 2025-04-07
    # TCG list, weeks before Konami announced it
    fmt, deck = _setup(isolated_home, "2026-09-01")
    assert _dc601(fmt, deck, "2026-06-01") == []
    assert _dc601(fmt, deck, "2026-08-10") == []  # 22 days before
    assert len(_dc601(fmt, deck, "2026-08-11")) == 1
    assert len(_dc601(fmt, deck, "2026-08-31")) == 1


def test_a_known_announcement_date_decides(isolated_home: Path) -> None:
    fmt, deck = _setup(isolated_home, "2026-09-01", announced="2026-07-01")
    assert _dc601(fmt, deck, "2026-06-30") == []
    assert len(_dc601(fmt, deck, "2026-07-01")) == 1  # 62 days ahead: known, so it counts


def test_next_list_and_the_announcement_rule() -> None:
    from deckcheck.model import Banlist
    from deckcheck.rules.upcoming import NOTICE_DAYS, announced_on, next_list

    later = Banlist("Next", "f", dt.date(2026, 9, 1))
    store = type("S", (), {"lists": lambda self, family: [later]})()
    assert NOTICE_DAYS == 21 and announced_on(later) == dt.date(2026, 8, 11)
    assert next_list(store, "f", dt.date(2026, 8, 10)) is None
    assert next_list(store, "f", dt.date(2026, 8, 11)) is later
    early = later.replace(announced=dt.date(2026, 6, 1))
    store = type("S", (), {"lists": lambda self, family: [early]})()
    assert next_list(store, "f", dt.date(2026, 5, 31)) is None
    assert next_list(store, "f", dt.date(2026, 6, 1)) is early


def test_an_announcement_after_the_effective_date_is_refused(isolated_home: Path) -> None:
    from deckcheck.errors import DataError
    from deckcheck.formats.listref import load_list_file

    bad = isolated_home / "bad.yaml"
    bad.write_text(
        'name: "X"\nfamily: house\neffective: 2026-01-01\nannounced: 2026-02-01\nentries: []\n'
    )
    with pytest.raises(DataError, match="announced 2026-02-01 is after effective 2026-01-01"):
        load_list_file(str(bad))
