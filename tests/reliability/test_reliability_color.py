"""Issue 20: colour follows --color, then NO_COLOR (only a non-empty value, no-color.org),
then FORCE_COLOR, then whether the output is a terminal."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.render import use_color
from tests.conftest import FIXTURES, REPO

DECK = FIXTURES / "hostile" / "ok.ydk"


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("choice", "env", "tty", "want"),
    [
        ("auto", {}, True, True),
        ("auto", {}, False, False),
        ("auto", {"NO_COLOR": ""}, True, True),  # empty NO_COLOR does not disable
        ("auto", {"NO_COLOR": "1"}, True, False),
        ("auto", {"FORCE_COLOR": "1"}, False, True),
        ("auto", {"FORCE_COLOR": ""}, False, False),
        ("auto", {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False, False),
        ("always", {"NO_COLOR": "1"}, False, True),
        ("never", {"FORCE_COLOR": "1"}, True, False),
    ],
)
def test_use_color(monkeypatch, choice: str, env: dict[str, str], tty: bool, want: bool) -> None:
    for var in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(var, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert use_color(Tty() if tty else io.StringIO(), choice) is want


def _validate(capsys, monkeypatch, *args: str, env: dict[str, str] | None = None) -> str:
    from deckcheck.formats.importer import import_lflists

    import_lflists(
        [FIXTURES / "hostile" / "tiny.lflist.conf"],
        dest=Path(os.environ["DECKCHECK_HOME"]) / "banlists",
    )
    for var in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(var, raising=False)
    for k, v in (env or {}).items():
        monkeypatch.setenv(k, v)
    capsys.readouterr()
    main([*args, "validate", "--date", "2021-01-01", str(DECK)])
    return capsys.readouterr().out


def test_global_color_option(capsys, monkeypatch) -> None:
    assert "\x1b[" in _validate(capsys, monkeypatch, "--color", "always")
    assert "\x1b[" not in _validate(
        capsys, monkeypatch, "--color", "never", env={"FORCE_COLOR": "1"}
    )
    assert "\x1b[" in _validate(capsys, monkeypatch, env={"FORCE_COLOR": "1"})
    assert "\x1b[" not in _validate(capsys, monkeypatch)  # captured: not a terminal


def test_empty_no_color_on_a_real_terminal(isolated_home: Path) -> None:
    from deckcheck.formats.importer import import_lflists

    import_lflists([FIXTURES / "hostile" / "tiny.lflist.conf"], dest=isolated_home / "banlists")
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": ""}
    env.pop("FORCE_COLOR", None)

    def on_tty(extra: dict[str, str]) -> bytes:
        master, slave = pty.openpty()
        p = subprocess.Popen(
            [sys.executable, "-m", "deckcheck", "validate", "--date", "2021-01-01", str(DECK)],
            stdout=slave,
            stderr=subprocess.DEVNULL,
            env={**env, **extra},
        )
        os.close(slave)
        chunks = []
        while True:
            try:
                b = os.read(master, 4096)
            except OSError:
                break
            if not b:
                break
            chunks.append(b)
        p.wait(timeout=60)
        os.close(master)
        return b"".join(chunks)

    assert b"\x1b[" in on_tty({})
    assert b"\x1b[" not in on_tty({"NO_COLOR": "1"})
