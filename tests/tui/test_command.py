"""``deckcheck deck edit`` before the app starts: bad options and data exit 2 with one line
and create nothing; without Textual one line names the extra; ``--serve`` binds loopback
unless told, and warns for any other address."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from deckcheck.cli import cli
from deckcheck.tui import start
from tests.conftest import REPO

#: Textual and textual-serve hidden from the interpreter, as when the extra is not installed
HIDE = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("textual", "textual_serve"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Hide())
from deckcheck.cli import entry
sys.argv = ["deckcheck", *sys.argv[1:]]
entry()
"""


def run(args: list[str], cwd: Path, hide: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-c", HIDE, *args] if hide else [sys.executable, "-m", "deckcheck"]
    if not hide:
        cmd += args
    return subprocess.run(
        cmd, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--format", "nope"], "unknown format 'nope'"),
        (["--date", "2020-13-01"], "is not a date"),
        (["--host", "0.0.0.0"], "--host goes with --serve"),
        (["--serve", "--port", "0"], "--port"),
    ],
)
def test_bad_options_exit_2_before_the_app(args: list[str], said: str, workdir: Path) -> None:
    got = run(["deck", "edit", "new.ydk", *args], workdir)
    assert got.returncode == 2, got.stderr
    assert said in got.stderr and got.stdout == ""
    assert len(got.stderr.strip().splitlines()) == 1
    assert not (workdir / "new.ydk").exists()


@pytest.mark.parametrize("serve", [False, True])
def test_without_textual_one_line_names_the_extra(serve: bool, workdir: Path) -> None:
    got = run(["deck", "edit", "new.ydk", *(["--serve"] if serve else [])], workdir, hide=True)
    assert got.returncode == 2, got.stderr
    (line,) = got.stderr.strip().splitlines()
    assert line.startswith("deckcheck: error: the deck editor needs textual")
    assert 'pip install "deckcheck[tui]"' in line


def test_the_rest_of_deckcheck_runs_without_textual(workdir: Path) -> None:
    got = run(
        ["validate", "-f", "dm6", str(REPO / "examples" / "dm6" / "legal.ydk")], workdir, True
    )
    assert got.returncode == 0, got.stderr


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("192.168.1.4", False),
        ("::", False),
        ("example.org", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert start.is_loopback(host) is loopback


def _serve(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> tuple[Any, list[Any]]:
    calls: list[Any] = []
    monkeypatch.setattr(start, "serve", lambda b, host, port: calls.append((host, port)) or 0)
    result = CliRunner().invoke(cli, ["deck", "edit", "new.ydk", "-f", "dm6", "--serve", *args])
    return result, calls


def test_serve_binds_loopback_by_default(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result, calls = _serve(monkeypatch, [])
    assert result.exit_code == 0, result.output
    assert calls == [("127.0.0.1", 8000)] and "warning" not in result.stderr


def test_serve_warns_for_a_non_loopback_host(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, calls = _serve(monkeypatch, ["--host", "0.0.0.0", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert calls == [("0.0.0.0", 8123)]
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("deckcheck: warning: serving on 0.0.0.0") and "loopback" in line


def test_the_app_command_opens_the_same_deck_format_date_and_language(workdir: Path) -> None:
    from tests.tui.conftest import DATE, open_builder

    b = open_builder("new.ydk")
    cmd = start.app_command(b)
    assert cmd[:5] == [sys.executable, "-m", "deckcheck", "deck", "edit"]
    assert cmd[5] == str((workdir / "new.ydk").resolve())
    assert cmd[6:] == ["--format", "dm6", "--date", DATE.isoformat(), "--lang", "en"]
