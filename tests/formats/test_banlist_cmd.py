"""``deckcheck banlist list|show|import|export`` and ``deckcheck formats`` through the CLI."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck.cli import cli, main
from deckcheck.formats import lflist
from tests.conftest import FIXTURES

LF = FIXTURES / "lflist"


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False, standalone_mode=False)
    code = res.return_value if isinstance(res.return_value, int) else res.exit_code
    return code, res.stdout, res.stderr


def test_import_list_show_export_round_trip(isolated_home: Path, tmp_path: Path) -> None:
    code, out, err = run(  # -v names the files written (quiet by default, issue 32)
        "banlist", "import", "-v", str(LF / "two-lists.lflist.conf"), str(LF / "speed.lflist.conf")
    )
    assert code == 0
    lists = isolated_home / "banlists"
    written = sorted(Path(p).relative_to(lists).as_posix() for p in out.split())
    assert written == ["ocg/2024-04-01.yaml", "speed/2025-07-01.yaml", "tcg/2024-09-01.yaml"]
    assert "3 list(s): 3 written" in err

    code, out, _ = run("banlist", "list", "--family", "tcg", "--output", "json")
    assert [r["name"] for r in json.loads(out)] == ["2024.09 TCG"]

    code, out, _ = run("banlist", "show", "tcg@2024-10-01")
    assert code == 0
    forbidden = out.split("Forbidden (2)")[1].split("Limited (1)")[0]
    assert "Pot of Greed" in forbidden and 'Maxx "C"' in forbidden
    assert "Ash Blossom & Joyous Spring" in out.split("Limited (1)")[1]

    code, out, _ = run("banlist", "show", "2025.7 speed duel", "-o", "json")
    data = json.loads(out)
    assert data["mode"] == "whitelist"
    assert {g["name"]: g["limit"] for g in data["groups"]} == {
        "Limited 1": 1,
        "Limited 2": 2,
        "Limited 3": 3,
    }

    target = tmp_path / "out.lflist.conf"
    assert run("banlist", "export", "2024.09 TCG", "-o", str(target))[0] == 0
    (again,) = lflist.parse_file(target)
    b = lflist.to_banlist(again, family="tcg", effective=dt.date(2024, 9, 1))
    assert b.limits == {23434538: 0, 55144522: 0, 14558127: 1, 83764718: 2}

    code, out, _ = run("banlist", "export", "speed@2025-07-01")
    assert "$whitelist" in out and "#Limited 1\n5318639 1" in out

    # Idempotent: a second import writes nothing.
    code, out, err = run("banlist", "import", str(LF / "two-lists.lflist.conf"))
    assert out == "" and "0 written, 2 unchanged" in err


def test_import_needs_a_date_or_family_when_names_lack_them(tmp_path: Path) -> None:
    f = tmp_path / "house.lflist.conf"
    f.write_text("!House rules\n55144522 0 --Pot of Greed\n", encoding="utf-8")
    assert main(["banlist", "import", str(f)]) == 2
    assert main(["banlist", "import", str(f), "--family", "house"]) == 2
    code, _out, _ = run(
        "banlist",
        "import",
        str(f),
        "--family",
        "house",
        "--effective",
        "2026-01-15",
        "--out",
        str(tmp_path / "lists"),
    )
    assert code == 0
    text = (tmp_path / "lists" / "house" / "2026-01-15.yaml").read_text(encoding="utf-8")
    assert "family: house" in text and "date_exact: true" in text


def test_import_reports_the_same_list_differing_between_sources(tmp_path: Path) -> None:
    a = tmp_path / "a.lflist.conf"
    b = tmp_path / "b.lflist.conf"
    a.write_text("!2024.09 TCG\n55144522 0\n14558127 1\n", encoding="utf-8")
    b.write_text("!2024.9 TCG\n55144522 0\n14558127 2\n", encoding="utf-8")
    code, out, err = run("banlist", "import", "-v", str(a), str(b))
    assert code == 0
    assert "differ on 1 card(s): 14558127 (1 vs 2)" in err
    assert len(out.split()) == 1


def test_errors_are_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["banlist", "show", "tcg@2024-01-01"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no list family 'tcg' installed" in err
    assert main(["banlist", "list", "--family", "nope"]) == 2
    assert main(["banlist", "import", "/no/such.conf"]) == 2


def test_formats_command(isolated_home: Path) -> None:
    _code, out, _ = run("formats", "--output", "json")
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["tcg"]["list"] is None and rows["tcg"]["main"] == "40-60"
    assert rows["dm6"]["list"]["name"] == "2002.07 DM6"
    _code, out, _ = run("formats", "--date", "2025-01-01")
    tcg = next(line for line in out.splitlines() if line.startswith("tcg "))
    assert tcg.endswith("none installed")
    run("banlist", "import", str(LF / "two-lists.lflist.conf"))
    _code, out, _ = run("formats", "--date", "2025-01-01")
    tcg = next(line for line in out.splitlines() if line.startswith("tcg "))
    assert tcg.endswith("2024.09 TCG (2024-09-01)")


# --------------------------------------------------------------------------- real data


@pytest.mark.realdata
def test_show_the_tcg_list_in_force_on_a_day(real_home: Path, shared_data: Path) -> None:
    day = dt.date(2025, 6, 1)
    # Expected: the newest TCG file of the shared history whose name-date is not after the day.
    tcg = shared_data / "banlists" / "projectignis-lflists" / "TCG"
    dated = []
    for p in tcg.glob("*.lflist.conf"):
        (lf,) = lflist.parse_file(p)
        got = lflist.date_of(lf.name)
        if got and got[0] <= day:
            dated.append((got[0], lf))
    effective, expected = max(dated, key=lambda t: t[0])
    code, out, _ = run("banlist", "show", f"tcg@{day.isoformat()}", "-o", "json")
    assert code == 0
    data = json.loads(out)
    assert (data["name"], data["effective"]) == (expected.name, effective.isoformat())
    forbidden = {e["id"] for e in data["entries"] if e["limit"] == 0}
    source_forbidden = {e.id for e in expected.entries if e.count == 0}
    from deckcheck.carddb import open_db

    db = open_db()
    # Keyed by canonical passcode: alternate artworks collapse onto their card.
    assert forbidden == {db.canonical(c) for c in source_forbidden} and forbidden
    code, text, _ = run("banlist", "show", f"tcg@{day.isoformat()}")
    assert text.startswith(f"{expected.name} — tcg, effective {effective.isoformat()}")
    # Names come from the real card database.
    first = next(e for e in data["entries"] if e["limit"] == 0)
    assert f"{first['id']:>9}  {first['name']}" in text and first["name"] != str(first["id"])


@pytest.mark.realdata
def test_show_in_another_language_and_imported_names(real_home: Path) -> None:
    from deckcheck.carddb import open_db

    db = open_db()
    _code, out, _ = run("banlist", "show", "tcg@2025-06-01", "-o", "json", "--lang", "de")
    data = json.loads(out)
    entries = data["entries"]
    german = [e for e in entries if db.names(e["id"]).get("de")]
    assert german and all(e["name"] == db.name(e["id"], "de") for e in german)
    assert any(e["name"] != db.name(e["id"], "en") for e in german)
    # The imported YAML carries the database's English names beside the passcodes.
    path = real_home / "banlists" / "tcg" / f"{data['effective']}.yaml"
    text = path.read_text(encoding="utf-8")
    first = entries[0]["id"]
    assert f"{{id: {first}, name: {json.dumps(db.name(first), ensure_ascii=False)}," in text


def test_effective_with_several_lists_of_a_family_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    conf = str(LF / "two-lists.lflist.conf")
    assert main(["banlist", "import", conf, "--family", "tcg", "--effective", "2024-01-01"]) == 2
    assert "several 'tcg' lists" in capsys.readouterr().err
    code, out, _ = run("banlist", "import", "-v", f"{conf}#2024.4 OCG", "--effective", "2024-04-15")
    assert code == 0 and out.strip().endswith("ocg/2024-04-15.yaml")
    assert main(["banlist", "import", f"{conf}#1999 X"]) == 2
