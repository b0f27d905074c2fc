"""The top-level entry point: exit codes and one-line errors, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


DM6 = Path(__file__).resolve().parent.parent / "examples" / "dm6"

# The console script holds the cyclic garbage collector off while a command starts
# (deckcheck.startup). A fresh interpreter reports what it saw at three points.
_GC_PROBE = (
    "import atexit, gc, json, sys\n"
    "import click\n"
    "import deckcheck.batch as batch\n"
    "seen = {}\n"
    "init, run, invoke = batch.Checker.__init__, batch.run_output, click.Command.invoke\n"
    "def spy_init(self, *a, **k):\n"
    "    seen['setup'] = gc.isenabled()\n"
    "    init(self, *a, **k)\n"
    "def spy_run(*a, **k):\n"
    "    seen['decks'] = gc.isenabled()\n"
    "    seen['frozen'] = gc.get_freeze_count() > 0\n"
    "    return run(*a, **k)\n"
    "def spy_invoke(self, ctx):\n"
    "    seen.setdefault('command', gc.isenabled())\n"
    "    return invoke(self, ctx)\n"
    "batch.Checker.__init__, batch.run_output, click.Command.invoke = (\n"
    "    spy_init, spy_run, spy_invoke)\n"
    "atexit.register(lambda: print(json.dumps(seen), file=sys.stderr))\n"
    "from deckcheck.cli import entry\n"
    "sys.argv = ['deckcheck', *sys.argv[1:]]\n"
    "entry()\n"
)


def _gc_seen(*args: str) -> tuple[int, dict[str, bool]]:
    proc = subprocess.run([sys.executable, "-c", _GC_PROBE, *args], capture_output=True,
                          text=True, timeout=120, check=False)
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


def test_main_in_process_leaves_the_collector_as_it_was() -> None:
    import gc

    frozen = gc.get_freeze_count()
    assert cli.main(["validate", "--format", "dm6", str(DM6 / "legal.ydk")]) == 0
    assert cli.main(["formats"]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen
