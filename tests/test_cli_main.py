"""The top-level entry point: exit codes and one-line errors, never a traceback."""

from __future__ import annotations

import pytest

from deckcheck import cli


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["no-such-command"]) == 2
    assert "No such command" in capsys.readouterr().err


def test_help_imports_no_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    assert "validate" in capsys.readouterr().out


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
