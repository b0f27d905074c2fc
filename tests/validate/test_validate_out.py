"""``validate --out FILE`` (issue 32): every ``-o`` kind written to the file, byte for byte what
stdout would carry, all or nothing; stdout then carries only the summary line."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.validate.test_jobs import KINDS, run

EXAMPLES = REPO / "examples"


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir()
    for i in range(5):
        src = EXAMPLES / "dm6" / ("legal.ydk" if i % 2 else "illegal.ydk")
        shutil.copy(src, folder / f"d{i}.ydk")
    return folder


def _times(text: str) -> str:
    return re.sub(r' time="[0-9.]+"', ' time="T"', text)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_out_file_holds_what_stdout_would(
    decks: Path, tmp_path: Path, kind: str, jobs: str
) -> None:
    args = ["--format", "dm6", "--date", "2026-06-01", "-o", kind, "--jobs", jobs, str(decks)]
    code, stdout, stderr = run(*args)
    target = tmp_path / f"report.{kind}"
    code2, stdout2, stderr2 = run("--out", str(target), *args)
    assert code == code2 == 1
    assert _times(target.read_text(encoding="utf-8")) == stdout and stdout
    # the report went to the file; stdout carries the summary line stderr had
    summary = [x for x in stderr.splitlines() if "decks checked" in x]
    assert stdout2.splitlines() == summary and len(summary) == 1
    assert "decks checked" not in stderr2


def test_html_out_is_a_page(decks: Path, tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    code, stdout, _err = run("--format", "dm6", "-o", "html", "--out", str(page), str(decks))
    assert code == 1 and "5 decks checked" in stdout
    text = page.read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith("<!doctype html") and "d3.ydk" in text


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from deckcheck.cli import main

    code = main(["validate", *args])
    out, err = capsys.readouterr()
    err = "".join(x for x in err.splitlines(True) if "built-in sample" not in x)
    return code, out, err


def test_a_failed_run_leaves_the_file_as_it_was(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "kept.json"
    kept.write_text("old report\n")
    code, out, err = _main(
        capsys, "--format", "nosuch", "-o", "json", "--out", str(kept), str(decks)
    )
    assert code == 2 and "nosuch" in err and out == ""
    assert kept.read_text() == "old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["decks", "kept.json"]  # no temp left


def test_an_unwritable_folder_is_one_error_line(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = tmp_path / "no" / "such" / "r.txt"
    code, out, err = _main(capsys, "--format", "dm6", "--out", str(where), str(decks))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("deckcheck: error: ") and "r.txt" in lines[0]
    assert "does not exist (deckcheck creates no folders)" in lines[0]


def test_out_is_not_a_folder(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = _main(capsys, "--format", "dm6", "--out", str(tmp_path), str(decks))
    assert code == 2 and "--out" in err and os.path.isdir(tmp_path)
