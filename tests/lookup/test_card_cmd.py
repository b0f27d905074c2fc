"""``deckcheck card search`` and ``card show`` through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from deckcheck.cli import cli
from deckcheck.lookup import Index

pytestmark = pytest.mark.realdata


class Ran:
    def __init__(self, res: Any):
        self.exit_code: int = res.return_value
        self.stdout: str = res.stdout
        self.stderr: str = res.stderr


def run(*args: str) -> Ran:
    res = CliRunner().invoke(cli, ["card", *args], standalone_mode=False, catch_exceptions=False)
    return Ran(res)


def test_search_table_and_exit_code(home: Path) -> None:
    r = run("search", "ash blossom")
    assert r.exit_code == 0
    header, first = r.stdout.splitlines()[:2]
    assert header.split()[:3] == ["ID", "NAME", "KIND"]
    assert first.split()[0] == "14558127" and "Ash Blossom & Joyous Spring" in first
    assert "match(es)" in r.stderr and "match(es)" not in r.stdout


def test_search_json_other_script_and_lang(home: Path) -> None:
    r = run("search", "強欲之壺", "--lang", "ja", "--output", "json", "--limit", "3")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    top = data["matches"][0]
    got = (top["id"], top["name"], top["how"], top["kind"])
    assert got == (55144522, "強欲な壺", "exact", "spell")
    assert len(data["matches"]) <= 3


def test_search_without_matches_exits_1(home: Path) -> None:
    r = run("search", "qqqqzzzzxxxx")
    assert r.exit_code == 1 and r.stdout == ""


def test_show_by_passcode_of_an_alternate(home: Path) -> None:
    r = run("show", "14558128", "--output", "json")
    assert r.exit_code == 0
    info = json.loads(r.stdout)
    # The passcode asked for is shown as itself, with the card it counts as.
    assert (info["id"], info["canonical"], info["alias_kind"]) == (14558128, 14558127, "artwork")
    assert 14558128 in info["alternates"]
    assert info["kind"] == "monster" and "tuner" in info["subtypes"]
    assert info["names"]["zh-TW"] == ["灰流麗"] and info["names"]["ja"] == ["灰流うらら"]
    assert "tcg" in info["scopes"]


def test_show_text_by_nickname(home: Path) -> None:
    r = run("show", "imperm")
    assert r.exit_code == 0
    assert r.stdout.startswith("Infinite Impermanence  [10045474]")
    assert "무한포영" in r.stdout


class FakeStore:
    """Two families: a blacklist naming Maxx "C", and a whitelist that does not."""

    def __init__(self) -> None:
        import datetime as dt

        from deckcheck.model import Banlist

        self._lists = {
            "tcg": [
                Banlist("old TCG", "tcg", dt.date(2020, 1, 1), limits={23434538: 1}),
                Banlist("new TCG", "tcg", dt.date(2026, 5, 1), limits={23434538: 0}),
            ],
            "speed": [
                Banlist(
                    "Speed", "speed", dt.date(2025, 7, 1), mode="whitelist", limits={55144522: 3}
                )
            ],
            "empty": [],
        }

    def families(self) -> list[str]:
        return list(self._lists)

    def lists(self, family: str) -> list[Any]:
        return self._lists[family]


def test_show_status_in_the_newest_list_of_each_family(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckcheck.formats import catalog as store

    monkeypatch.setattr(store.ListStore, "default", classmethod(lambda cls: FakeStore()))
    info = json.loads(run("show", "Maxx C", "--output", "json").stdout)
    got = {s["family"]: (s["list"], s["limit"], s["status"]) for s in info["lists"]}
    assert got == {
        "tcg": ("new TCG", 0, "Forbidden"),
        "speed": ("Speed", 0, "not in the pool (whitelist)"),
    }
    text = run("show", "Maxx C").stdout
    assert "new TCG (2026-05-01): Forbidden" in text


def test_a_broken_list_store_is_a_note_not_a_failure(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckcheck.errors import DataError
    from deckcheck.formats import catalog as store

    def broken(cls: Any) -> Any:
        raise DataError("entries[3]: bad limit", where="ocg/2023-01-01.yaml")

    monkeypatch.setattr(store.ListStore, "default", classmethod(broken))
    r = run("show", "Maxx C")
    assert r.exit_code == 0 and "Maxx" in r.stdout
    assert "list status unavailable" in r.stderr and "ocg/2023-01-01.yaml" in r.stderr


def test_show_ambiguous_lists_candidates_and_exits_1(home: Path) -> None:
    r = run("show", "岩浆龙")
    assert r.exit_code == 1
    assert "ambiguous" in r.stderr
    ids = {line.split()[0] for line in r.stdout.splitlines()}
    assert {"41741922", "95833645"} <= ids
    data = json.loads(run("show", "岩浆龙", "-o", "json").stdout)
    assert data["status"] == "ambiguous" and len(data["candidates"]) == 2


def test_show_unknown_suggests_and_exits_1(home: Path) -> None:
    r = run("show", "ash blosom")  # a typo too far to decide: suggestions only, the right one first
    assert r.exit_code == 1
    assert "did you mean" in r.stderr
    assert r.stdout.split()[0] == "14558127"


def test_main_returns_codes_without_tracebacks(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deckcheck.cli import main

    assert main(["card", "show", "Pot of Greed"]) == 0
    assert main(["card", "show", "qqqqzzzz"]) == 1
    assert main(["card", "search", "x", "--limit", "-1"]) == 2  # 0 means all
    assert "Traceback" not in capsys.readouterr().err


def test_works_on_the_builtin_sample() -> None:
    # isolated_home: nothing installed, the sample card set answers.
    Index._memo.clear()
    r = run("search", "Pot of Greed", "-o", "json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["matches"][0]["id"] == 55144522
    Index._memo.clear()
