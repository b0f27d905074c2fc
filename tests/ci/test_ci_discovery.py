"""Issue 16: linter-style discovery, project config, waivers, warnings under --strict, the
player and the deck's own "#format" line, through the real CLI on the real data."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from deckcheck.cli import cli
from deckcheck.config import find_config, load
from deckcheck.errors import InputError
from deckcheck.inputs import Discovery

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
DM6 = EXAMPLES / "dm6"
# 14 common monsters printed in both regions, and one OCG-only monster (real passcodes)
BOTH = [
    32864,
    549481,
    732302,
    1184620,
    1761063,
    1784619,
    1929294,
    2118022,
    2311603,
    2468169,
    2483611,
    2830619,
    2863439,
    2906250,
]
OCG_ONLY = 756652  # Doron


def deck_text(ids: list[int], header: str = "") -> str:
    return header + "#main\n" + "\n".join(str(i) for i in ids) + "\n#extra\n!side\n"


def forty(extra: list[int] = ()) -> list[int]:  # type: ignore[assignment]
    ids = [i for i in BOTH[:13] for _ in range(3)] + list(extra)
    return ids + [BOTH[13]] * (40 - len(ids))


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, standalone_mode=False)


def run_main(*args: str) -> tuple[int, str, str]:
    from deckcheck.cli import main

    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        code = main(list(args))
    return code, out.getvalue().decode(), err.getvalue().decode()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A submissions folder: two decks, a .git/ with a stray deck, requirements.txt, README."""
    root = tmp_path / "subs"
    (root / "decks").mkdir(parents=True)
    shutil.copy(DM6 / "legal.ydk", root / "decks" / "alice.ydk")
    shutil.copy(DM6 / "illegal.ydk", root / "bob.ydk")
    (root / ".git" / "objects").mkdir(parents=True)
    shutil.copy(DM6 / "illegal.ydk", root / ".git" / "objects" / "stray.ydk")
    (root / "requirements.txt").write_text("click>=8\npydantic\n")
    (root / "README.md").write_text("# decks\n")
    monkeypatch.chdir(root)
    return root


def test_a_folder_walk_checks_exactly_the_two_decks(repo: Path) -> None:
    code, out, err = run_main("validate", "--format", "dm6", "-o", "json", ".")
    doc = json.loads(out)
    assert sorted(Path(d["input"]).as_posix() for d in doc["decks"]) == [
        "bob.ydk",
        "decks/alice.ydk",
    ]
    assert code == 1 and "2 decks checked" in err
    assert {d["player"] for d in doc["decks"]} == {"alice", "bob"}


def test_gitignore_hidden_and_include_exclude(repo: Path) -> None:
    (repo / ".gitignore").write_text("old/\n*.bak.ydk\n")
    (repo / "old").mkdir()
    shutil.copy(DM6 / "legal.ydk", repo / "old" / "x.ydk")
    shutil.copy(DM6 / "legal.ydk", repo / "keep.bak.ydk")
    (repo / ".hidden").mkdir()
    shutil.copy(DM6 / "legal.ydk", repo / ".hidden" / "h.ydk")
    shutil.copy(EXAMPLES / "text" / "dm6-ja.txt", repo / "decks" / "list.txt")
    got = [Path(p).as_posix() for p in Discovery().walk(".")]
    assert got == ["bob.ydk", "decks/alice.ydk"]
    got = [Path(p).as_posix() for p in Discovery(["decks/*.txt"], ["bob.ydk"]).walk(".")]
    assert got == ["decks/alice.ydk", "decks/list.txt"]
    # A file named explicitly is always checked, ignored or not, text or not.
    code, out, _ = run_main(
        "validate", "--format", "dm6", "-o", "json", "old/x.ydk", "decks/list.txt"
    )
    assert code == 0 and len(json.loads(out)["decks"]) == 2


def test_an_empty_folder_fails_and_allow_empty_accepts_it(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("x\n")
    code, out, err = run_main("validate", "--format", "dm6", str(tmp_path))
    assert code == 2 and out == ""
    assert err.startswith(f"deckcheck: error: no decks found in {tmp_path} (")
    assert len(err.splitlines()) == 1
    code, _, err = run_main("validate", "--format", "dm6", "--allow-empty", str(tmp_path))
    assert code == 0 and "no decks found" in err


def test_pyproject_format_makes_validation_ocg_and_command_line_wins(
    real_home: Path, repo: Path
) -> None:
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "subs"\n\n[tool.deckcheck]\nformat = "ocg"\ndate = "2026-07-15"\n'
    )
    (repo / "d.ydk").write_text(deck_text(forty()))
    (repo / "sub").mkdir()
    doc = json.loads(invoke("validate", "-o", "json", "d.ydk").stdout)
    assert doc["format"]["id"] == "ocg" and doc["date"] == "2026-07-15"
    assert doc["banlist"]["name"].endswith("OCG")
    doc = json.loads(invoke("validate", "-o", "json", "-f", "tcg", "d.ydk").stdout)
    assert doc["format"]["id"] == "tcg"
    # `deckcheck config` shows each setting and where it came from (also from a sub-folder)
    assert find_config(repo / "sub") == repo / "pyproject.toml"
    res = invoke("config")
    lines = res.stdout.splitlines()
    assert lines[0] == f"config file: {repo / 'pyproject.toml'}"
    fmt_line = next(x for x in lines if x.startswith("format "))
    assert "ocg" in fmt_line and fmt_line.endswith("pyproject.toml [tool.deckcheck])")
    assert next(x for x in lines if x.startswith("banlist ")).endswith("(default)")
    data = json.loads(invoke("config", "-o", "json").stdout)
    assert data["settings"]["format"] == {
        "value": "ocg",
        "from": f"{repo / 'pyproject.toml'} [tool.deckcheck]",
    }


def test_deckcheck_toml_wins_and_bad_config_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.deckcheck]\nformat = "ocg"\n')
    (tmp_path / "deckcheck.toml").write_text('format = "dm6"\nignore = ["DC402"]\n')
    cfg = load(tmp_path)
    assert cfg.get("format") == "dm6" and cfg.origin("ignore") == str(tmp_path / "deckcheck.toml")
    (tmp_path / "deckcheck.toml").write_text('formt = "dm6"\n')
    with pytest.raises(InputError, match="unknown key 'formt'"):
        load(tmp_path)
    (tmp_path / "deckcheck.toml").write_text("format = [\n")
    with pytest.raises(InputError, match="not valid TOML"):
        load(tmp_path)


def test_ignore_dc501_waives_the_region_rule(real_home: Path, tmp_path: Path) -> None:
    deck = tmp_path / "carol.ydk"
    deck.write_text(deck_text(forty([OCG_ONLY]), header="#player Carol Ng\n"))
    base = ["validate", "-f", "tcg", "-d", "2026-06-01", "-o", "json", str(deck)]
    plain = json.loads(invoke(*base).stdout)["decks"][0]
    assert not plain["legal"] and [f["code"] for f in plain["findings"]] == ["DC501"]
    code, out, _ = run_main(*base, "--ignore", "DC501")
    waived = json.loads(out)["decks"][0]
    assert code == 0 and waived["legal"] and waived["findings"][0]["waived"] is True
    assert waived["player"] == "Carol Ng"
    # the same through config, and --select: only selected codes count
    (tmp_path / "deckcheck.toml").write_text('select = ["DC4"]\n')
    code, out, _ = run_main(*base, "--config", str(tmp_path / "deckcheck.toml"))
    assert code == 0 and json.loads(out)["decks"][0]["findings"][0]["waived"] is True
    code, _, err = run_main(*base, "--ignore", "DC999")
    assert code == 2 and "DC999: no such code" in err
    res = invoke("validate", "-f", "tcg", "-d", "2026-06-01", "--ignore", "DC501", str(deck))
    assert "waived error DC501 [not-in-region]" in res.stdout
    assert "[player Carol Ng]" in res.stdout


def test_warnings_fail_only_under_strict_and_only_illegal(real_home: Path, tmp_path: Path) -> None:
    # TCG Speed Duel: 20 cards, no Skill (exports leave it out) -> DC304 warning
    speed = tmp_path / "speed.ydk"
    speed.write_text(deck_text([i for i in BOTH[:7] for _ in range(3)][:20]))
    legal = tmp_path / "fine.ydk"
    legal.write_text(deck_text(forty()))
    code, out, _ = run_main("validate", "-f", "speed", "-d", "2026-06-01", "-o", "json", str(speed))
    doc = json.loads(out)["decks"][0]
    warn = [f for f in doc["findings"] if f["severity"] == "warning"]
    assert [f["code"] for f in warn] == ["DC304"]
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    if not errors:  # the cards may be outside the Speed pool; the warning alone never fails
        assert code == 0
        code, _, _ = run_main("validate", "-f", "speed", "-d", "2026-06-01", "--strict", str(speed))
        assert code == 1
    only_illegal = ["-f", "tcg", "-d", "2026-06-01", "--only-illegal", "-o", "csv"]
    csv_run = ["validate", *only_illegal, "--csv-decks", str(legal)]
    code, out, _ = run_main(*csv_run, str(tmp_path / "x.ydk"))
    assert code == 2  # x.ydk does not exist: before any output
    (tmp_path / "bad.ydk").write_text(deck_text(forty([OCG_ONLY])))
    code, out, err = run_main(*csv_run, str(tmp_path / "bad.ydk"))
    rows = out.splitlines()
    assert code == 1 and len(rows) == 2 and rows[1].startswith(str(tmp_path / "bad.ydk"))
    assert "2 decks checked" in err  # the summary still counts every deck


def test_the_decks_own_format_line_is_honoured_with_a_note(real_home: Path, tmp_path: Path) -> None:
    d = tmp_path / "d.ydk"
    d.write_text(deck_text(forty([OCG_ONLY]), header="#format ocg\n"))
    code, out, err = run_main("validate", "-d", "2026-07-15", "-o", "json", str(d))
    deck = json.loads(out)["decks"][0]
    assert code == 0 and deck["format"] == {"id": "ocg", "name": "OCG Advanced"} and deck["legal"]
    assert deck["banlist"]["name"] != json.loads(out)["banlist"]["name"]  # the OCG list
    assert "checked as" in err and "'#format ocg' line" in err
    code, out, _ = run_main("validate", "-f", "tcg", "-d", "2026-07-15", "-o", "json", str(d))
    deck = json.loads(out)["decks"][0]
    assert code == 1 and deck["format"]["id"] == "tcg"  # --format overrides the line


def test_pre_commit_mode_filters_named_files_like_a_walk(tmp_path: Path) -> None:
    (tmp_path / "lists").mkdir()
    for name in ("a.ydk", "b.ydke", "requirements.txt", "lists/x.txt", ".hid/c.ydk"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("#main\n")
    (tmp_path / ".gitignore").write_text("b.ydke\n")
    named = [
        str(tmp_path / n)
        for n in ("a.ydk", "b.ydke", "requirements.txt", "lists/x.txt", ".hid/c.ydk")
    ]
    d = Discovery(["lists/*.txt"], base=tmp_path)
    assert [
        Path(p).relative_to(tmp_path).as_posix() for p in d.expand(named, filter_files=True)
    ] == ["a.ydk", "lists/x.txt"]
    assert list(Discovery(base=tmp_path).expand(named)) == named  # named: always checked
