"""The top-level entry point: exit codes and one-line errors, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from deckcheck import cli


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["no-such-command"]) == 2
    assert "No such command" in capsys.readouterr().err


# What a fresh interpreter has imported after `deckcheck ARGS` (this process has imported
# everything already, so only a new one can tell).
_PROBE = (
    "import json, sys\n"
    "from deckcheck import cli\n"
    "code = cli.main(sys.argv[1:])\n"
    "print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)\n"
)
HEAVY = ("yaml", "pydantic", "rapidfuzz")


def _imported_by(*args: str) -> tuple[int, str, set[str]]:
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                          text=True, timeout=120, check=False)
    code, modules = json.loads(proc.stderr.strip().splitlines()[-1])
    return code, proc.stdout, set(modules)


def test_help_imports_no_subcommand() -> None:
    code, out, modules = _imported_by("--help")
    assert code == 0 and "validate" in out
    assert not {m for m in modules if m.startswith("deckcheck.commands")}
    assert not {m for m in modules if m.split(".")[0] in HEAVY}
    # --help reads no installed state: the paths module (and its pathlib) stays unloaded
    # (issue 18 P1: `--help` within 1.1x a bare click CLI)
    assert "deckcheck.paths" not in modules
    # The probe does see a subcommand that is run: the check above can fail.
    code, _, modules = _imported_by("formats", "--help")
    assert code == 0 and "deckcheck.commands.formats" in modules


def test_unexpected_exception_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.delenv("DECKCHECK_DEBUG", raising=False)
    monkeypatch.setattr(cli.cli, "main", boom)
    assert cli.main(["formats"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("deckcheck: internal error: RuntimeError: kaboom")


def test_debug_env_reraises(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setenv("DECKCHECK_DEBUG", "1")
    monkeypatch.setattr(cli.cli, "main", boom)
    with pytest.raises(RuntimeError):
        cli.main(["formats"])
