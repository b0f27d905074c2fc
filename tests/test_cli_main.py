"""The top-level entry point: exit codes and one-line errors, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck import cli
from deckcheck.rules import NEEDED
from tests.builders import run_process


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["no-such-command"]) == 2
    assert "no such command" in capsys.readouterr().err


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
    proc = run_process([sys.executable, "-c", _PROBE, *args], timeout=120)
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


#: what the one-deck validate path must not import (issue 18 P1): pathlib alone pulled
#: fnmatch, ntpath, urllib, urllib.parse and ipaddress, about 8 ms of a 150 ms command
_NOT_ON_VALIDATE = ("pathlib", "urllib", "urllib.parse", "fnmatch", "ipaddress")


def _state_home(home: Path, real_home_dir: Path) -> None:
    """``home`` in the installed-state layout (``current`` -> ``state-1``) over the real
    database and lists (linked, not copied)."""
    state = home / "state-1"
    state.mkdir()
    (state / "cards.sqlite3").symlink_to(real_home_dir / "cards.sqlite3")
    (state / "banlists").symlink_to(real_home_dir / "banlists", target_is_directory=True)
    (home / "current").symlink_to("state-1")


@pytest.mark.parametrize("layout", ["state", "flat"])
def test_one_deck_validate_imports_no_pathlib(
    layout: str,
    real_home_dir: Path,
    shared_data: Path,
    isolated_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if layout == "state":
        _state_home(isolated_home, real_home_dir)
    else:
        monkeypatch.setenv("DECKCHECK_HOME", str(real_home_dir))
        monkeypatch.setenv("DECKCHECK_CACHE", str(isolated_home / "cache"))
    deck = str(min((shared_data / "decks").rglob("*.ydk")))
    args = ("validate", "--date", "2026-06-01", deck)
    cold, cold_out, _ = _imported_by(*args)  # compiles the caches (yaml, pathlib and all)
    code, out, modules = _imported_by(*args)
    assert code == cold and code in (0, 1) and out == cold_out
    assert out.startswith(deck + ": ") and "(effective 2026-05-01)" in out  # the real list
    assert "deckcheck.carddb.db" in modules and "sqlite3" in modules  # the real database
    assert "yaml" not in modules  # warm: the compiled caches were read
    assert not set(_NOT_ON_VALIDATE) & modules
    # the rule families an Advanced format never needs are not imported (rules.NEEDED) ...
    assert not {f"deckcheck.rules.{n}" for n in NEEDED} & modules
    # ... and are where a format needs them (Genesys: points and banned types)
    code, _, modules = _imported_by("validate", "--format", "genesys", *args[1:])
    assert {"deckcheck.rules.points", "deckcheck.rules.types"} <= modules
    # The probe sees pathlib where a run needs it (a format file named on the command line):
    # the check above can fail.
    fmt = isolated_home / "mine.yaml"
    fmt.write_text("id: mine\nname: Mine\nextends: tcg\n", encoding="utf-8")
    code, out, modules = _imported_by(*args[:-1], "--format-file", str(fmt), deck)
    assert code == cold and "pathlib" in modules


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


DM6 = Path(__file__).resolve().parent.parent / "examples" / "dm6"

# The console script holds the cyclic garbage collector off while a command starts
# (deckcheck.startup). A fresh interpreter reports what it saw at three points.
_GC_PROBE = (
    "import atexit, gc, json, sys\n"
    "import click\n"
    "import deckcheck.batch as batch\n"
    "seen = {}\n"
    "init, run, invoke = batch.plan, batch.execute, click.Command.invoke\n"
    "def spy_init(*a, **k):\n"
    "    seen['setup'] = gc.isenabled()\n"
    "    return init(*a, **k)\n"
    "def spy_run(*a, **k):\n"
    "    seen['decks'] = gc.isenabled()\n"
    "    seen['frozen'] = gc.get_freeze_count() > 0\n"
    "    return run(*a, **k)\n"
    "def spy_invoke(self, ctx):\n"
    "    seen.setdefault('command', gc.isenabled())\n"
    "    return invoke(self, ctx)\n"
    "batch.plan, batch.execute, click.Command.invoke = (\n"
    "    spy_init, spy_run, spy_invoke)\n"
    "atexit.register(lambda: print(json.dumps(seen), file=sys.stderr))\n"
    "from deckcheck.console import main\n"
    "sys.argv = ['deckcheck', *sys.argv[1:]]\n"
    "main()\n"
)


def _gc_seen(*args: str) -> tuple[int, dict[str, bool]]:
    proc = run_process([sys.executable, "-c", _GC_PROBE, *args], timeout=120)
    return proc.returncode, json.loads(proc.stderr.strip().splitlines()[-1])


def test_console_script_collects_only_once_validate_reaches_the_decks() -> None:
    code, seen = _gc_seen("validate", "--format", "dm6", str(DM6 / "legal.ydk"))
    assert code == 0
    # start-up (the list, the cards, the rule table) without collections; the decks with
    # them, the start-up objects frozen out of their traversal
    assert seen == {"command": False, "setup": False, "decks": True, "frozen": True}


def test_console_script_collects_during_every_other_command() -> None:
    code, seen = _gc_seen("formats")
    assert code == 0
    assert seen == {"command": True}


def test_card_query_runs_with_collection_held() -> None:
    # one short query after loading the name index: nothing to gain from collections
    code, seen = _gc_seen("card", "search", "dark magician")
    assert code == 0
    assert seen == {"command": False}


def _start_env(*, plain: bool) -> dict[str, str]:
    """This process's environment for a console script started held (``plain=False``) or
    with ``DECKCHECK_PLAIN_START=1``."""
    env = {k: v for k, v in os.environ.items() if k != "DECKCHECK_PLAIN_START"}
    if plain:
        env["DECKCHECK_PLAIN_START"] = "1"
    return env


def test_the_console_script_holds_the_collector_before_click_is_imported() -> None:
    from importlib.metadata import entry_points

    # what pip writes as the `deckcheck` script, and `python -m deckcheck`, run console.main
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "deckcheck"]
    assert script.value == "deckcheck.console:main"
    main = (Path(cli.__file__).parent / "__main__.py").read_text(encoding="utf-8")
    assert "from deckcheck.console import main" in main
    # console.main: the collector is off when click (and typing) are first imported (their
    # import is most of start-up's collections); with DECKCHECK_PLAIN_START=1 it is left on
    probe = (
        "import gc, sys\n"
        "class Spy:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name in ('click', 'typing'):\n"
        "            print(name.upper() + '-IMPORTED-WITH-GC', gc.isenabled(), file=sys.stderr)\n"
        "sys.meta_path.insert(0, Spy())\n"
        "from deckcheck.console import main\n"
        "sys.argv = ['deckcheck', '--version']\n"
        "main()\n"
    )
    held = run_process([sys.executable, "-c", probe], timeout=120, env=_start_env(plain=False))
    plain = run_process([sys.executable, "-c", probe], timeout=120, env=_start_env(plain=True))
    assert held.returncode == plain.returncode == 0 and held.stdout == plain.stdout
    assert "CLICK-IMPORTED-WITH-GC False" in held.stderr
    assert "CLICK-IMPORTED-WITH-GC True" in plain.stderr
    # typing too (console.py imports nothing before the hold): its import set off collections
    assert "TYPING-IMPORTED-WITH-GC False" in held.stderr
    assert "TYPING-IMPORTED-WITH-GC True" in plain.stderr


def test_main_in_process_leaves_the_collector_as_it_was() -> None:
    import gc

    frozen = gc.get_freeze_count()
    assert cli.main(["validate", "--format", "dm6", str(DM6 / "legal.ydk")]) == 0
    assert cli.main(["formats"]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen


# DECKCHECK_PLAIN_START=1: the console script leaves the collector alone (the plain path of
# deckcheck.startup): every command gives the same output and exit code as with the hold.
_CONSOLE = "from deckcheck.console import main; import sys; sys.argv[0] = 'deckcheck'; main()"


def _console(*args: str, plain: bool) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-c", _CONSOLE, *args]
    return run_process(cmd, timeout=120, env=_start_env(plain=plain))


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "--format", "dm6", str(DM6 / "legal.ydk"), str(DM6 / "illegal.ydk")),
        ("validate", "--format", "dm6", "-o", "json", str(DM6)),
        ("validate", "/no/such/deck.ydk"),
        ("card", "search", "dark magician"),
        ("formats",),
    ],
    ids=["validate", "validate-json", "validate-missing", "card", "formats"],
)
def test_plain_start_gives_the_same_output_and_exit_code(args: tuple[str, ...]) -> None:
    held, plain = _console(*args, plain=False), _console(*args, plain=True)
    assert held.returncode == plain.returncode and held.returncode in (0, 1, 2)
    assert held.stdout == plain.stdout and held.stderr == plain.stderr
    assert "Traceback" not in held.stderr


def test_plain_start_leaves_the_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKCHECK_PLAIN_START", "1")
    code, seen = _gc_seen("validate", "--format", "dm6", str(DM6 / "legal.ydk"))
    assert code == 0
    assert seen == {"command": True, "setup": True, "decks": True, "frozen": False}


def test_every_command_declares_how_long_the_collector_is_held() -> None:
    from deckcheck.cli import HELD, RESUMED

    assert {name: spec[3] for name, spec in cli.COMMANDS.items() if spec[3] != RESUMED} == {
        "validate": HELD,
        "card": HELD,
    }
    assert all(spec[3] in (HELD, RESUMED) for spec in cli.COMMANDS.values())


def test_plain_start_writes_the_same_report_file(tmp_path: Path) -> None:
    got = {}
    for plain in (False, True):
        out = tmp_path / f"report-{plain}.json"
        args = ("validate", "--format", "dm6", "-o", "json", "--out", str(out), str(DM6))
        proc = _console(*args, plain=plain)
        assert proc.returncode == 1, proc.stderr
        got[plain] = (proc.stdout, proc.stderr, json.loads(out.read_text(encoding="utf-8")))
    assert got[False] == got[True]
    assert sorted(d["legal"] for d in got[False][2]["decks"]) == [False, True]


def _end_with_a_reader_gone(target: Path, read: int, *, plain: bool) -> tuple[int, bytes]:
    cmd = [sys.executable, "-c", _CONSOLE, "validate", "--format", "dm6", "--jobs", "1"]
    proc = subprocess.Popen(
        [*cmd, str(target)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_start_env(plain=plain),
    )
    assert proc.stdout is not None and proc.stderr is not None
    if read:
        assert proc.stdout.read(read)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    return proc.wait(timeout=120), err


@pytest.mark.parametrize("read", [10, 0], ids=["mid-report", "before-any-output"])
def test_a_reader_that_goes_away_ends_a_plain_start_the_same_way(tmp_path: Path, read: int) -> None:
    # mid-report: more output than a pipe holds, so the writes after the reader closed fail
    # (EPIPE); before any output: the first write fails
    target = tmp_path / "decks"
    target.mkdir()
    body = (DM6 / "legal.ydk").read_bytes()
    for i in range(1500 if read else 1):
        (target / f"deck-{i:04}.ydk").write_bytes(body)
    held = _end_with_a_reader_gone(target, read, plain=False)
    assert held == _end_with_a_reader_gone(target, read, plain=True)
    assert b"Traceback" not in held[1]
