"""``deckcheck validate --jobs N``: the same reports, in the same order, as ``--jobs 1``."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck.batch import Request, reports, walk
from deckcheck.cli import cli
from deckcheck.validate import Target
from tests.builders import run_deckcheck
from tests.conftest import REPO

KINDS = ["text", "json", "github", "junit", "csv", "html"]
EXAMPLES = REPO / "examples"


def run(*args: str) -> tuple[object, str, str]:
    """Exit code, stdout and stderr (less the sample note, which a process gives only once)."""
    res = CliRunner().invoke(
        cli, ["validate", *args], catch_exceptions=False, standalone_mode=False
    )
    err = "".join(x for x in res.stderr.splitlines(True) if "built-in sample" not in x)
    # JUnit times are measured: the one part of the output that differs between runs.
    out = re.sub(r' time="[0-9.]+"', ' time="T"', res.stdout)
    return res.return_value, out, err


@pytest.fixture
def mixed_folder(tmp_path: Path) -> Path:
    """Hand-made decks: legal, illegal, text lists, unreadable and empty files, sub-folders.

    Many more decks than one chunk per worker, so a run that returned reports as workers
    finish them (not in input order) would shuffle the output.
    """
    sources = [
        EXAMPLES / "dm6" / "legal.ydk",
        EXAMPLES / "dm6" / "illegal.ydk",
        EXAMPLES / "text" / "dm6-ja.txt",
        EXAMPLES / "text" / "dm6-zh-CN.txt",
    ]
    for i in range(120):
        sub = tmp_path / f"s{i % 3}" / ("deep" if i % 7 == 0 else "")
        sub.mkdir(parents=True, exist_ok=True)
        src = sources[i % len(sources)]
        shutil.copy(src, sub / f"d{i:03d}{src.suffix}")
    (tmp_path / "s0" / "binary.ydk").write_bytes(b"\x00\xff" * 64)
    (tmp_path / "s1" / "empty.ydk").write_bytes(b"")
    (tmp_path / "s2" / "broken.ydk").write_text("#main\n55144522\nnot a card\n#extra\n")
    return tmp_path


DM6 = ["--format", "dm6", "--date", "2026-06-01"]


@pytest.mark.parametrize("kind", KINDS)
def test_hand_made_decks_same_output_with_jobs(mixed_folder: Path, kind: str) -> None:
    args = [*DM6, "-o", kind, "--include", "*.txt", str(mixed_folder)]
    one = run("--jobs", "1", *args)
    two = run("--jobs", "2", *args)
    three = run("--jobs", "3", *args)
    assert "binary.ydk" in one[1] and "123 decks checked" in one[2]
    assert one == two == three


@pytest.mark.parametrize("kind", KINDS)
def test_real_decks_same_output_with_jobs(real_home: Path, shared_data: Path, kind: str) -> None:
    args = ["--date", "2026-06-01", "-o", kind, str(shared_data / "decks")]
    one = run("--jobs", "1", *args)
    two = run("--jobs", "2", *args)
    assert "209 decks checked" in one[2]
    assert one == two


def test_reports_stream_in_input_order(mixed_folder: Path) -> None:
    from deckcheck.formats import ListStore, get_format

    date = dt.date(2026, 6, 1)
    fmt = get_format("dm6")
    banlist = ListStore.default().in_force("dm6", date)
    items = list(walk([str(mixed_folder)]))
    request = Request((str(mixed_folder),), items, Target(fmt, banlist, date), jobs=1)
    serial = list(reports(request))
    parallel = reports(request.replace(items=iter(items), jobs=2))  # a generator in and out
    assert next(parallel).input == items[0]
    rest = list(parallel)
    assert [r.input for r in serial] == items
    assert [serial[0], *rest] == serial
    assert any(not r.legal for r in serial) and any(r.legal for r in serial)


def test_workers_do_not_repeat_the_sample_note(tmp_path: Path) -> None:
    env = {**os.environ, "DECKCHECK_HOME": str(tmp_path)}
    proc = run_deckcheck(
        "validate",
        "--format",
        "dm6",
        "--jobs",
        "2",
        "-o",
        "csv",
        "--csv-decks",
        str(EXAMPLES / "dm6"),
        env=env,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.count("using the built-in sample") == 1, proc.stderr
    assert len(proc.stdout.splitlines()) == 3
