"""Issue 20: a read-only home does not rebuild the lookup index on every command. The index
``db import`` built is read from the read-only cache (even where a private cache folder is
at hand); with no index and nowhere to write one, lookups still work from memory (a note
says the index is not cached). Real read-only folders: as root, the commands run with the
capabilities that let root write anywhere dropped."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.builders import child_env, numbered_cards, run_process, write_cdb

REPO = Path(__file__).resolve().parent.parent.parent
DROP_WRITE_CAPS = [
    "setpriv",
    "--bounding-set=-dac_override,-dac_read_search",
    "--inh-caps=-dac_override,-dac_read_search",
]


def _prefix() -> list[str]:
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.fail("running as root: setpriv (util-linux) is needed to drop CAP_DAC_OVERRIDE")
    return DROP_WRITE_CAPS


def _run(
    *argv: str, prefix: list[str] | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    cmd = [*(prefix or []), sys.executable, "-m", "deckcheck", *argv]
    return run_process(cmd, env=child_env(**env), timeout=120)


def _read_only(root: Path) -> None:
    for p in [root, *root.rglob("*")]:
        p.chmod(0o555 if p.is_dir() else 0o444)


def _writable(root: Path) -> None:
    for p in [root, *root.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)


@pytest.fixture
def ro_home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    cards = write_cdb(tmp_path / "cards.cdb", numbered_cards(60, "Warm Card"))
    r = _run("db", "import", str(cards), DECKCHECK_HOME=str(home))
    assert r.returncode == 0, r.stderr
    assert list((home / "cache").glob("lookup-*.pickle"))  # built by the import
    _read_only(home)
    yield home
    _writable(home)


def test_read_only_home_reads_the_index_the_import_built(ro_home: Path, tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {"DECKCHECK_HOME": str(ro_home), "TMPDIR": str(tmp), "XDG_RUNTIME_DIR": ""}
    probe = _run("db", "info", prefix=_prefix(), **env)
    assert probe.returncode == 0, probe.stderr
    for _ in range(2):
        r = _run("card", "search", "Warm Card 7", prefix=_prefix(), **env)
        assert r.returncode == 0, r.stderr
        assert "Warm Card 7" in r.stdout and "not cached" not in r.stderr
    # a private cache folder was at hand, yet no index was built (nor written) there
    assert not list(tmp.rglob("lookup-*.pickle"))


def test_no_index_and_nowhere_to_write_one_still_looks_up(ro_home: Path, tmp_path: Path) -> None:
    _writable(ro_home)
    shutil.rmtree(ro_home / "cache")
    _read_only(ro_home)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    tmp.chmod(0o555)  # no private cache folder either
    env = {"DECKCHECK_HOME": str(ro_home), "TMPDIR": str(tmp), "XDG_RUNTIME_DIR": ""}
    try:
        for _ in range(2):
            r = _run("card", "search", "Warm Crad 7", prefix=_prefix(), **env)
            assert r.returncode == 0, r.stderr
            assert "Warm Card 7" in r.stdout
            assert "lookup index not cached" in r.stderr  # in memory, and it says so
        assert not (ro_home / "cache").exists() and not list(tmp.iterdir())
    finally:
        tmp.chmod(0o755)


def test_read_only_home_reads_the_lists_and_formats_compiled_there(
    ro_home: Path, tmp_path: Path
) -> None:
    # issue 32: a read-only home compiled every list and format again on every command
    # (validate 3.5 s instead of 0.3 s with the real lists, 11–15 s measured before)
    deck = REPO / "examples" / "dm6" / "legal.ydk"
    _writable(ro_home)
    warm = _run("validate", "-f", "dm6", str(deck), DECKCHECK_HOME=str(ro_home))
    assert warm.returncode in (0, 1), warm.stderr
    compiled = sorted(p.name for p in (ro_home / "cache").rglob("*.marshal"))
    assert any(n.startswith("lists-") for n in compiled), compiled
    assert any(n.startswith("formats-") for n in compiled), compiled
    _read_only(ro_home)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {"DECKCHECK_HOME": str(ro_home), "TMPDIR": str(tmp), "XDG_RUNTIME_DIR": ""}
    for _ in range(2):
        r = _run("validate", "-f", "dm6", str(deck), prefix=_prefix(), **env)
        assert (r.returncode, r.stdout) == (warm.returncode, warm.stdout), r.stderr
    # a private cache folder was at hand, yet nothing was compiled (nor written) there
    assert not [p for p in tmp.rglob("*") if p.is_file()], list(tmp.rglob("*"))
