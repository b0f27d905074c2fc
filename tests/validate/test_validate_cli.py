"""`deckcheck validate` end to end: inputs, options, outputs and exit codes (built-in data)."""

from __future__ import annotations

import base64
import json
import shutil
import struct
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from deckcheck.cli import cli, main
from deckcheck.errors import EXIT_ERROR, EXIT_ILLEGAL, EXIT_OK
from tests.builders import run_deckcheck
from tests.conftest import FIXTURES, REPO

DM6 = REPO / "examples" / "dm6"
TEXT = REPO / "examples" / "text"
CLI_FIXTURES = FIXTURES / "rules" / "cli"


class Run:
    """A CliRunner result whose ``exit_code`` is the command's returned code.

    (click's standalone mode drops a command's return value, so the runner is used with
    ``standalone_mode=False``, as ``deckcheck.cli.main`` does.)
    """

    def __init__(self, result: Result):
        self.result = result
        self.stdout = result.stdout
        self.stderr = result.stderr
        self.exit_code = result.return_value


def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Run:
    res = CliRunner().invoke(
        cli,
        ["validate", *args],
        input=input,
        env=env,
        catch_exceptions=False,
        standalone_mode=False,
    )
    return Run(res)


def dm6_json(*args: str, input: str | None = None) -> tuple[int, dict[str, Any]]:
    res = invoke("--format", "dm6", "--output", "json", *args, input=input)
    return res.exit_code, json.loads(res.stdout)


def ydke_of(path: Path) -> str:
    ids = [int(x) for x in path.read_text().splitlines() if x.strip().isdigit()]
    text = path.read_text()
    main_part, _, rest = text.partition("#extra")
    main_ids = [int(x) for x in main_part.splitlines() if x.strip().isdigit()]
    extra_ids = [int(x) for x in rest.splitlines() if x.strip().isdigit()]
    assert len(main_ids) + len(extra_ids) == len(ids)

    def enc(xs: list[int]) -> str:
        return base64.b64encode(struct.pack(f"<{len(xs)}I", *xs)).decode()

    return f"ydke://{enc(main_ids)}!{enc(extra_ids)}!!"


def test_legal_deck_exit_0_and_text_output() -> None:
    res = invoke("--format", "dm6", str(DM6 / "legal.ydk"))
    assert res.exit_code == EXIT_OK
    assert res.stdout == f"{DM6 / 'legal.ydk'}: legal (main 40, extra 2, side 0)\n"
    assert "1 deck checked (Duel Monsters 6" in res.stderr
    assert "2002.07 DM6 (effective 2002-07-01)" in res.stderr


def test_illegal_deck_names_card_count_limit_and_list() -> None:
    code, doc = dm6_json(str(DM6 / "illegal.ydk"))
    assert code == EXIT_ILLEGAL
    findings = doc["decks"][0]["findings"]
    pot = next(f for f in findings if f["code"] == "DC403")
    assert pot["message"] == (
        "Pot of Greed (55144522): 2 copies, but it is Limited (1) on 2002.07 DM6 "
        "(effective 2002-07-01)"
    )
    assert (pot["count"], pot["limit"], pot["card"]) == (
        2,
        1,
        {"id": 55144522, "name": "Pot of Greed"},
    )
    assert {k: doc["banlist"][k] for k in ("name", "effective")} == {
        "name": "2002.07 DM6",
        "effective": "2002-07-01",
    }
    # issue 15: the list's provenance (the shipped DM6 list: a month-only date from the seeds)
    assert doc["banlist"]["date_exact"] is False and doc["banlist"]["source"].startswith("seeds/")
    assert doc["summary"] == {"decks": 1, "legal": 0, "illegal": 1}


def test_folder_is_recursive_sorted_and_reads_every_deck_kind(tmp_path: Path) -> None:
    shutil.copy(DM6 / "legal.ydk", tmp_path / "b.ydk")
    (tmp_path / "sub").mkdir()
    shutil.copy(DM6 / "illegal.ydk", tmp_path / "sub" / "a.ydk")
    shutil.copy(TEXT / "dm6-ja.txt", tmp_path / "a-text.txt")
    (tmp_path / "c.ydke").write_text(ydke_of(DM6 / "legal.ydk") + "\n")
    (tmp_path / "notes.md").write_text("not a deck")
    (tmp_path / "z.ydk").write_bytes(b"\x00\x01binary")
    # text decklists are checked in a folder walk when configured (--include / include)
    code, doc = dm6_json("--include", "*.txt", str(tmp_path))
    inputs = [Path(d["input"]).relative_to(tmp_path).as_posix() for d in doc["decks"]]
    assert inputs == ["a-text.txt", "b.ydk", "c.ydke", "z.ydk", "sub/a.ydk"]
    legal = {Path(d["input"]).name: d["legal"] for d in doc["decks"]}
    assert legal == {
        "a-text.txt": True,
        "b.ydk": True,
        "c.ydke": True,
        "z.ydk": False,
        "a.ydk": False,
    }
    # The unreadable deck is one DC101 finding; the run went on.
    broken = next(d for d in doc["decks"] if d["input"].endswith("z.ydk"))
    assert [f["code"] for f in broken["findings"]] == ["DC101"]
    assert code == EXIT_ILLEGAL


def test_ydke_url_and_stdin() -> None:
    code, doc = dm6_json(ydke_of(DM6 / "legal.ydk"))
    assert code == EXIT_OK and doc["decks"][0]["counts"] == {"main": 40, "extra": 2, "side": 0}
    code, doc = dm6_json("-", input=(DM6 / "illegal.ydk").read_text())
    assert code == EXIT_ILLEGAL and doc["decks"][0]["input"] == "<stdin>"


def test_text_list_unknown_name_is_reported_not_dropped(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(
        (TEXT / "dm6-ja.txt").read_text(encoding="utf-8") + "1 存在しないカード名ですよ\n"
    )
    code, doc = dm6_json(str(deck))
    assert code == EXIT_ILLEGAL
    codes = [f["code"] for f in doc["decks"][0]["findings"]]
    assert "DC102" in codes or "DC103" in codes


def test_missing_path_is_exit_2_before_any_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nope.ydk")
    code = main(["validate", "--format", "dm6", "-o", "json", str(DM6), missing])
    out, err = capsys.readouterr()
    assert code == EXIT_ERROR
    assert out == ""
    assert err == f"deckcheck: error: {missing}: no such file or directory\n"


def test_no_list_in_force_is_exit_2_with_install_hint(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["validate", "--format", "tcg", str(DM6 / "legal.ydk")])
    err = capsys.readouterr().err
    assert code == EXIT_ERROR
    assert "no 'tcg' list is in force" in err
    assert "deckcheck update" in err and "deckcheck banlist import FILE" in err
    assert "Traceback" not in err


def test_list_before_its_effective_date_is_not_in_force(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["validate", "--format", "dm6", "--date", "2002-06-30", str(DM6 / "legal.ydk")])
    assert code == EXIT_ERROR
    assert "no 'dm6' list is in force on 2002-06-30" in capsys.readouterr().err


def test_bad_date_and_unknown_format_are_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--date", "2026-13-01", str(DM6)]) == EXIT_ERROR
    assert main(["validate", "--format", "nope", str(DM6)]) == EXIT_ERROR
    assert "unknown format 'nope'" in capsys.readouterr().err


def test_format_without_list_validates_without_one() -> None:
    res = invoke("--format", "speed-ocg", "-o", "json", str(REPO / "examples" / "speed-ocg"))
    doc = json.loads(res.stdout)
    assert doc["banlist"] is None
    assert {Path(d["input"]).name: d["legal"] for d in doc["decks"]} == {
        "illegal.ydk": False,
        "legal.ydk": True,
    }
    assert res.exit_code == EXIT_ILLEGAL


def test_banlist_by_name_and_by_file() -> None:
    code, doc = dm6_json("--banlist", "2002.07 DM6", str(DM6 / "legal.ydk"))
    assert code == EXIT_OK and doc["banlist"]["name"] == "2002.07 DM6"
    own = CLI_FIXTURES / "pot-forbidden.yaml"
    code, doc = dm6_json("--banlist", str(own), str(DM6 / "legal.ydk"))
    assert code == EXIT_ILLEGAL
    (forbidden,) = [f for f in doc["decks"][0]["findings"] if f["code"] == "DC402"]
    assert forbidden["card"]["id"] == 55144522 and "Pot Test List" in forbidden["message"]


def test_format_file_and_points_cap() -> None:
    fmt = CLI_FIXTURES / "points-format.yaml"
    pts = CLI_FIXTURES / "points-list.yaml"
    args = [
        "--format-file",
        str(fmt),
        "--format",
        "dm6-points",
        "--banlist",
        str(pts),
        "-o",
        "json",
    ]
    res = invoke(*args, str(DM6 / "legal.ydk"))
    doc = json.loads(res.stdout)
    (over,) = doc["decks"][0]["findings"]
    assert over["code"] == "DC407" and over["count"] == 12 and over["limit"] == 10
    res = invoke(*args, "--points-cap", "12", str(DM6 / "legal.ydk"))
    assert res.exit_code == EXIT_OK, res.stdout


def test_github_output_is_the_default_in_actions() -> None:
    res = invoke("--format", "dm6", str(DM6 / "illegal.ydk"), env={"GITHUB_ACTIONS": "true"})
    lines = res.stdout.splitlines()
    assert lines[0].startswith(f"::error file={DM6 / 'illegal.ydk'},line=31,title=DC403 limited::")
    assert res.exit_code == EXIT_ILLEGAL


@pytest.mark.parametrize("kind", ["text", "json", "github", "junit", "csv"])
def test_every_output_kind_runs(kind: str) -> None:
    res = invoke("--format", "dm6", "-o", kind, str(DM6))
    assert res.exit_code == EXIT_ILLEGAL and res.stdout
    if kind == "json":
        assert json.loads(res.stdout)["summary"]["decks"] == 2


def test_jobs_output_identical_to_one_job(tmp_path: Path) -> None:
    for i in range(6):
        shutil.copy(DM6 / ("legal.ydk" if i % 2 else "illegal.ydk"), tmp_path / f"d{i}.ydk")
    one = invoke("--format", "dm6", "-o", "json", "--jobs", "1", str(tmp_path))
    two = invoke("--format", "dm6", "-o", "json", "--jobs", "2", str(tmp_path))
    assert one.stdout == two.stdout and one.exit_code == two.exit_code == EXIT_ILLEGAL


def test_jobs_read_stdin_in_the_parent() -> None:
    res = invoke(
        "--format",
        "dm6",
        "-o",
        "csv",
        "--csv-decks",
        "--jobs",
        "2",
        str(DM6 / "legal.ydk"),
        "-",
        input=(DM6 / "illegal.ydk").read_text(),
    )
    rows = res.stdout.splitlines()
    assert rows[1].startswith(f"{DM6 / 'legal.ydk'},legal,true,legal,40,2,0,")
    # no file name: the player is the deck's "#created by" line; DC502: DM6's card pool
    # cut-off (issue 15): the sample's Obelisk was released in 2008
    assert rows[2] == "<stdin>,deckcheck examples,false,illegal,40,2,0,3,0,0,DC402 DC403 DC502"


def test_lang_names_cards_in_messages() -> None:
    res = invoke("--format", "dm6", "--lang", "ja", "-o", "json", str(DM6 / "illegal.ydk"))
    msgs = [f["message"] for f in json.loads(res.stdout)["decks"][0]["findings"]]
    assert any(m.startswith("強欲な壺 (55144522)") for m in msgs), msgs


def test_help_has_examples() -> None:
    res = CliRunner().invoke(cli, ["validate", "--help"], catch_exceptions=False)
    assert "Examples:" in res.stdout and "--points-cap" in res.stdout and "--jobs" in res.stdout


def test_python_m_deckcheck_subprocess(tmp_path: Path) -> None:
    env = {"DECKCHECK_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    proc = run_deckcheck(
        "validate", "-f", "dm6", "-o", "json", str(DM6), env=env, cwd=tmp_path, timeout=120
    )
    assert proc.returncode == EXIT_ILLEGAL, proc.stderr
    assert json.loads(proc.stdout)["summary"] == {"decks": 2, "legal": 1, "illegal": 1}
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().endswith("1 legal, 1 illegal")
