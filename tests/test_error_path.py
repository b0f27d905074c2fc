"""One error path (issue 32): every failure is one ``deckcheck: error: …`` line on stderr,
click's usage errors included, with "did you mean" for commands, options, choices and
format ids, the documented exit codes, and the traceback only under DECKCHECK_DEBUG."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck import cli
from deckcheck.errors import DataError

DM6 = Path(__file__).resolve().parent.parent / "examples" / "dm6" / "legal.ydk"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = cli.main(list(args))
    return code, capsys.readouterr().err


def _one_error_line(err: str) -> str:
    """The stderr of a failure: notes may come first, then exactly one error line."""
    lines = [line for line in err.splitlines() if not line.startswith("deckcheck: note: ")]
    assert len(lines) == 1, err
    assert lines[0].startswith("deckcheck: error: "), err
    assert "Usage:" not in err and "Error:" not in err and "Try '" not in err
    return lines[0]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("valdate", "x"), "no such command 'valdate' (did you mean 'validate'"),
        (("db", "imprt"), "no such command 'imprt' (did you mean 'import'?)"),
        (("card", "shw", "x"), "no such command 'shw' (did you mean 'show'?)"),
        (
            ("validate", "--outptu", "x"),
            "no such option '--outptu' (did you mean '--out' or '--output'?)",
        ),
        (("--colr", "never", "formats"), "no such option '--colr' (did you mean '--color'?)"),
        (("validate", "-o", "htm", "x"), "'htm' is not one of"),
        (("validate",), "missing argument 'INPUT...'"),
        (("validate", "--jobs", "-3", "x"), "invalid value for '--jobs'"),
    ],
)
def test_usage_errors_are_one_line_with_a_suggestion(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], expected: str
) -> None:
    code, err = _run(capsys, *args)
    assert code == 2
    line = _one_error_line(err)
    assert expected in line
    assert "; see 'deckcheck" in line and line.endswith(" --help'")


def test_a_mistyped_choice_names_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(capsys, "validate", "-o", "htm", "x")
    assert code == 2 and "(did you mean 'html'?)" in _one_error_line(err)


def test_an_unknown_command_without_a_near_one_lists_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, err = _run(capsys, "zzzzzz")
    line = _one_error_line(err)
    assert code == 2 and "(commands: validate, formats, banlist" in line


def test_a_mistyped_format_id_names_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(capsys, "validate", "--format", "tcgg", str(DM6))
    line = _one_error_line(err)
    assert code == 2 and "unknown format 'tcgg' (did you mean 'tcg'?)" in line
    code, err = _run(capsys, "validate", "--format", "qqqqq", str(DM6))
    assert code == 2 and "did you mean" not in _one_error_line(err)


def test_card_search_lone_parenthesis_is_a_query_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # docs/SEARCH.md: a query that cannot be read is exit 2 with one line naming the term
    for query in ("(", ")", "ash ("):
        code, err = _run(capsys, "card", "search", query)
        assert code == 2, (query, err)
        assert "search term" in _one_error_line(err)
    # a name with balanced parentheses ("… (Pre-Errata)") is still a name search
    code, err = _run(capsys, "card", "search", "Pot of Greed (Rush)")
    assert code in (0, 1) and "error" not in err


def test_unknown_card_is_an_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(capsys, "card", "show", "zzqxzzqx")
    assert code == 1  # documented: 1 the name is ambiguous or unknown
    assert "unknown card" in _one_error_line(err)


def test_failing_commands_of_every_kind_say_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("3 Zzqx Not A Card\n", encoding="utf-8")
    deck = tmp_path / "deck.ydk"
    deck.write_bytes(DM6.read_bytes())
    for args, code in [
        (("build", str(listing), "--out", str(tmp_path / "o.ydk")), 1),
        (("convert", str(listing), "--to", "ydk"), 1),
        (("deck", "add", str(deck), "zzqxzzqx"), 1),
        (("banlist", "history", "zzqxzzqx"), 1),
    ]:
        got, err = _run(capsys, *args)
        assert got == code, (args, err)
        errors = [line for line in err.splitlines() if line.startswith("deckcheck: error: ")]
        assert len(errors) == 1, (args, err)
        assert not [
            line
            for line in err.splitlines()
            if line.startswith("deckcheck: ")
            and not line.startswith(("deckcheck: error: ", "deckcheck: note: "))
        ], err
    assert deck.read_bytes() == DM6.read_bytes()


def test_debug_shows_the_traceback_of_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise DataError("the data is gone")

    monkeypatch.setattr(cli.cli, "main", boom)
    monkeypatch.delenv("DECKCHECK_DEBUG", raising=False)
    code, err = _run(capsys, "formats")
    assert code == 2 and err == "deckcheck: error: the data is gone\n"
    monkeypatch.setenv("DECKCHECK_DEBUG", "1")
    code, err = _run(capsys, "formats")
    assert code == 2 and "Traceback (most recent call last)" in err
    assert err.endswith("deckcheck: error: the data is gone\n")
    monkeypatch.setenv("DECKCHECK_DEBUG", "0")  # 0 means off
    code, err = _run(capsys, "formats")
    assert "Traceback" not in err
