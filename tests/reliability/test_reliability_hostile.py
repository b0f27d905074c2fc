"""Hostile input files: each gives a clear one-line error or a DC101 report, in bounded time
and memory, and `deckcheck validate` goes on with the other inputs."""

from __future__ import annotations

import builtins
import os
import pathlib
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deckcheck.cli import main
from deckcheck.errors import EXIT_ERROR, EXIT_ILLEGAL, EXIT_OK
from tests.builders import run_deckcheck, run_process
from tests.conftest import FIXTURES

HOSTILE = FIXTURES / "hostile"
OK_DECK = HOSTILE / "ok.ydk"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`deckcheck validate ARGS` in process: (exit code, stdout, stderr)."""
    capsys.readouterr()
    rc = main(["validate", "--date", "2021-01-01", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def assert_outcome(rc: int, err: str) -> None:
    """A report (0/1) or exactly one `deckcheck: error:` line (2); never a traceback."""
    assert "Traceback" not in err and "internal error" not in err, err
    errors = [ln for ln in err.splitlines() if ln.startswith("deckcheck: error:")]
    if rc == EXIT_ERROR:
        assert len(errors) == 1, err
    else:
        assert rc in (EXIT_OK, EXIT_ILLEGAL), (rc, err)
        assert errors == [], err


def assert_one_error(rc: int, err: str, *words: str) -> str:
    assert rc == EXIT_ERROR, err
    assert_outcome(rc, err)
    line = next(ln for ln in err.splitlines() if ln.startswith("deckcheck: error:"))
    for w in words:
        assert w in line, line
    return line


# --------------------------------------------------------------------------- lists and formats


def _deep_flow(tmp: Path) -> Path:
    p = tmp / "deep-flow.yaml"
    p.write_text("[" * 50000 + "]" * 50000 + "\n")  # libyaml used to crash (SIGSEGV) on this
    return p


def _deep_dash(tmp: Path) -> Path:
    p = tmp / "deep-dash.yaml"
    p.write_text("entries:\n" + "- " * 40000 + "x\n")
    return p


YAML_CASES = {
    "alias-bomb": (lambda tmp: HOSTILE / "alias-bomb.yaml", "aliases"),
    "deep-flow": (_deep_flow, "nested deeper"),
    "deep-dash": (_deep_dash, "nested deeper"),
    "deep-map": (lambda tmp: HOSTILE / "deep-map.yaml", "nested deeper"),
    "python-tag": (lambda tmp: HOSTILE / "python-tag.yaml", "malformed YAML"),
    "nul": (lambda tmp: HOSTILE / "nul.yaml", "malformed YAML"),
    "not-utf8": (lambda tmp: HOSTILE / "not-utf8.yaml", "not UTF-8"),
}


@pytest.mark.parametrize("option", ["--format-file", "--banlist"])
@pytest.mark.parametrize("case", sorted(YAML_CASES))
def test_hostile_yaml_is_one_clear_error(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, case: str
) -> None:
    make, words = YAML_CASES[case]
    path = make(tmp_path)
    rc, out, err = run(capsys, option, str(path), str(OK_DECK))
    line = assert_one_error(rc, err, words)
    assert path.name in line  # names the file
    assert out == ""  # no half report


def test_deep_yaml_does_not_crash_the_process(tiny_home: Path, tmp_path: Path) -> None:
    # The crash was a SIGSEGV inside libyaml: only a real process shows it.
    path = _deep_flow(tmp_path)
    proc = run_deckcheck("validate", "--format-file", str(path), str(OK_DECK), timeout=60)
    assert proc.returncode == EXIT_ERROR, proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("deckcheck: error:")


def test_huge_integers_in_yaml(tiny_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(
        capsys, "--format-file", str(HOSTILE / "huge-int-format.yaml"), "-f", "huge", str(OK_DECK)
    )
    assert_one_error(rc, err, "huge-int-format.yaml", "number")
    # A 77-digit passcode in a list is a hostile number: refused in one line naming the
    # file, the key and the range (issue 32 item 5; it used to load and name no card).
    rc, _out, err = run(capsys, "--banlist", str(HOSTILE / "huge-id.yaml"), str(OK_DECK))
    assert_one_error(rc, err, "huge-id.yaml", "entries[0].id", "4294967295")


def test_huge_integers_in_fast_layout_list(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The importer's own layout goes through the fast reader first.
    p = tmp_path / "fast.yaml"
    p.write_text(
        'name: "x"\nfamily: tcg\neffective: 2020-01-01\nsource: "x"\nmode: blacklist\n'
        "entries:\n  - {id: " + "9" * 5000 + ", limit: 0}\n"
    )
    rc, _, err = run(capsys, "--banlist", str(p), str(OK_DECK))
    assert_one_error(rc, err, "fast.yaml", "number")


@pytest.mark.parametrize("suffix", [".yaml", ".lflist.conf"])
def test_two_gigabyte_sparse_list(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    p = tmp_path / f"sparse{suffix}"
    with p.open("wb") as f:
        f.truncate(2 * 1024**3)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rc, _, err = run(capsys, "--banlist", str(p), str(OK_DECK))
    assert_one_error(rc, err, p.name, "bytes")
    # Refused by size, not read: peak memory grew by far less than the file (ru_maxrss in KiB).
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 256 * 1024


def test_two_gigabyte_sparse_format_file(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "sparse.yaml"
    with p.open("wb") as f:
        f.truncate(2 * 1024**3)
    rc, _, err = run(capsys, "--format-file", str(p), str(OK_DECK))
    assert_one_error(rc, err, "sparse.yaml", "bytes")


@pytest.mark.parametrize("suffix", [".yaml", ".lflist.conf"])
def test_empty_list_file(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    p = tmp_path / f"empty{suffix}"
    p.write_bytes(b"")
    rc, _, err = run(capsys, "--banlist", str(p), str(OK_DECK))
    assert_one_error(rc, err, p.name)


def test_empty_format_file(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "empty.yaml"
    p.write_bytes(b"")
    rc, _, err = run(capsys, "--format-file", str(p), str(OK_DECK))
    assert_one_error(rc, err, "empty.yaml", "mapping")


@pytest.mark.parametrize("name", ["folder", "folder.yaml", "folder.lflist.conf"])
def test_directory_as_banlist(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    d = tmp_path / name
    d.mkdir()
    rc, out, err = run(capsys, "--banlist", str(d), str(OK_DECK))
    assert_one_error(rc, err, str(d), "is a folder")
    assert out == ""


def test_list_file_permission_denied(
    tiny_home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = tmp_path / "locked.lflist.conf"
    shutil.copy(HOSTILE / "tiny.lflist.conf", p)
    _deny(monkeypatch, p)
    rc, _, err = run(capsys, "--banlist", str(p), str(OK_DECK))
    assert_one_error(rc, err, "locked.lflist.conf")


# --------------------------------------------------------------------------- deck inputs


def _deck_report(rc: int, out: str, err: str, *names: str) -> None:
    """Every named input got its own report line and the run ended normally."""
    assert_outcome(rc, err)
    assert rc == EXIT_ILLEGAL, err
    for n in names:
        assert any(ln.startswith(n) for ln in out.splitlines()), (n, out)
    assert any(ln.startswith(str(OK_DECK)) for ln in out.splitlines()), out


@pytest.mark.parametrize(
    "name, finding",
    [
        ("huge.ydk", "passcode too large"),
        ("nul.ydk", "DC101"),
        ("not-utf8.ydk", "DC101"),
        ("empty.ydk", "DC201"),
    ],
)
def test_hostile_deck_files_are_reported_and_the_run_goes_on(
    tiny_home: Path, capsys: pytest.CaptureFixture[str], name: str, finding: str
) -> None:
    rc, out, err = run(capsys, str(HOSTILE / name), str(OK_DECK))
    _deck_report(rc, out, err, str(HOSTILE / name))
    assert finding in out


def test_huge_passcodes_are_dc101_not_values(
    tiny_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deckcheck import decks

    deck = decks.read_path(HOSTILE / "huge.ydk")
    # The 6000 leading zeros still name a real passcode; the two overlong numbers are DC101.
    assert [e.card_id for e in deck.main] == [89631139]
    assert [f.line for f in deck.findings] == [2, 4]


def test_two_gigabyte_sparse_deck(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "sparse.ydk"
    with p.open("wb") as f:
        f.truncate(2 * 1024**3)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rc, out, err = run(capsys, str(p), str(OK_DECK))
    _deck_report(rc, out, err, str(p))
    assert "DC101" in out and "cannot read the deck" in out
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 256 * 1024


def test_symlink_loops_in_an_input_folder(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "decks"
    (d / "sub").mkdir(parents=True)
    shutil.copy(OK_DECK, d / "sub" / "a.ydk")
    os.symlink("..", d / "sub" / "up")  # directory loop
    os.symlink("self.ydk", d / "self.ydk")  # a file link pointing at itself
    rc, out, err = run(capsys, str(d), str(OK_DECK))
    assert_outcome(rc, err)
    reported = [ln.split(":")[0] for ln in out.splitlines() if not ln.startswith(" ")]
    # Each real deck once (the loop is not followed), the broken link reported, not dropped.
    assert reported.count(str(d / "sub" / "a.ydk")) == 1
    assert str(d / "self.ydk") in reported
    assert len(reported) == 3


def _deny(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """Opening ``target`` fails with EACCES (tests run as root, where chmod 000 does not)."""
    real_path_open = pathlib.Path.open
    real_os_open = os.open
    real_open = builtins.open  # what fsio.read_bounded opens a list file with

    def path_open(self: pathlib.Path, *a: Any, **k: Any) -> Any:
        if os.path.abspath(self) == str(target):
            raise PermissionError(13, "Permission denied", str(self))
        return real_path_open(self, *a, **k)

    def os_open(path: Any, *a: Any, **k: Any) -> int:
        if os.path.abspath(path) == str(target):
            raise PermissionError(13, "Permission denied", str(path))
        return real_os_open(path, *a, **k)

    def open_(file: Any, *a: Any, **k: Any) -> Any:
        if isinstance(file, (str, os.PathLike)) and os.path.abspath(file) == str(target):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *a, **k)

    monkeypatch.setattr(pathlib.Path, "open", path_open)
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", open_)


def test_unreadable_deck_simulated(
    tiny_home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = tmp_path / "locked.ydk"
    shutil.copy(OK_DECK, p)
    _deny(monkeypatch, p)
    rc, out, err = run(capsys, str(p), str(OK_DECK))
    _deck_report(rc, out, err, str(p))
    assert "permission denied" in out


# Root reads a file whatever its mode (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): as root the
# check runs in a process that has dropped both capabilities, so it is a real EACCES too.
DROP_FILE_READ_CAPS = [
    "setpriv",
    "--bounding-set=-dac_override,-dac_read_search",
    "--inh-caps=-dac_override,-dac_read_search",
]


def test_unreadable_deck_chmod(tiny_home: Path, tmp_path: Path) -> None:
    p = tmp_path / "locked.ydk"
    shutil.copy(OK_DECK, p)
    p.chmod(0)
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.fail(
                "running as root: setpriv (util-linux) is needed to drop the "
                "capability that lets root read a mode-0 file"
            )
        prefix = DROP_FILE_READ_CAPS
    cmd = [sys.executable, "-m", "deckcheck", "validate", "--date", "2021-01-01"]
    proc = run_process([*prefix, *cmd, str(p), str(OK_DECK)], timeout=120)
    _deck_report(proc.returncode, proc.stdout, proc.stderr, str(p))
    assert "permission denied" in proc.stdout
    p.chmod(0o644)  # the same run on the readable file: the denial above was the mode's
    proc = run_process([*prefix, *cmd, str(p)], timeout=120)
    assert "permission denied" not in proc.stdout, proc.stdout


def test_file_names_that_are_not_utf8(tiny_home: Path, tmp_path: Path) -> None:
    # Real process and real stdout: the name must reach the report, escaped, for every kind.
    folder = os.fsencode(tmp_path / "decks")
    os.mkdir(folder)
    for raw in (b"bad\xffname.ydk", b"caf\xe9.ydk"):
        with open(os.path.join(folder, raw), "wb") as f:
            f.write(OK_DECK.read_bytes())
    single = os.fsdecode(os.path.join(folder, b"bad\xffname.ydk"))
    for kind in ("text", "json", "csv", "junit", "github"):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "deckcheck",
                "validate",
                "-d",
                "2021-01-01",
                "-o",
                kind,
                os.fsdecode(folder),
                single,
            ],
            capture_output=True,
            timeout=60,
            check=False,
        )
        err = proc.stderr.decode()
        assert_outcome(proc.returncode, err)
        assert proc.returncode == EXIT_ILLEGAL, err
        out = proc.stdout.decode("utf-8")  # stdout stays valid UTF-8
        assert out.count("bad\\udcffname.ydk") >= 2 and "caf\\udce9.ydk" in out, out
        if kind == "json":
            import json

            assert len(json.loads(out)["decks"]) == 3


def test_fifo_in_a_deck_folder_does_not_hang(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A named pipe with no writer used to block open() for ever.
    d = tmp_path / "decks"
    d.mkdir()
    os.mkfifo(d / "pipe.ydk")
    shutil.copy(OK_DECK, d / "real.ydk")
    rc, out, err = run(capsys, str(d))
    assert_outcome(rc, err)
    reported = [ln.split(":")[0] for ln in out.splitlines() if not ln.startswith(" ")]
    assert reported == [str(d / "pipe.ydk"), str(d / "real.ydk")]


def test_process_substitution_pipe_is_read(tiny_home: Path, tmp_path: Path) -> None:
    # The non-blocking open must not lose a pipe that has a writer (`validate <(cat deck)`).
    proc = run_process(
        [
            "bash",
            "-c",
            f'"{sys.executable}" -m deckcheck validate -d 2021-01-01 <(cat "{OK_DECK}")',
        ],
        timeout=60,
    )
    assert_outcome(proc.returncode, proc.stderr)
    assert "main 3" in proc.stdout, proc.stdout


def test_line_breaks_in_keys_and_references_stay_on_one_line(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Found by the long fuzzing run: a YAML key with a newline split the error in two lines.
    p = tmp_path / "nl.yaml"
    p.write_text('id: nl\nname: NL\nextends: tcg\nmain: {"a\\nb": 1, "c\\u2028d": 2}\n')
    rc, _, err = run(capsys, "--format-file", str(p), "-f", "nl", str(OK_DECK))
    line = assert_one_error(rc, err, "nl.yaml", "unknown key")
    assert "'a\\nb'" in line and "'c\\u2028d'" in line
    rc, _, err = run(capsys, "--banlist", "tcg@2020-01\n-01\u2028x", str(OK_DECK))
    assert_one_error(rc, err)
    assert "\u2028" not in err


@pytest.mark.parametrize("name", ["sparse.cdb", "empty.cdb", "folder.cdb", "link-loop.cdb"])
def test_hostile_card_database_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_home: Path, name: str
) -> None:
    p = tmp_path / name
    if name == "sparse.cdb":
        with p.open("wb") as f:
            f.truncate(2 * 1024**3)
    elif name == "empty.cdb":
        p.write_bytes(b"")
    elif name == "folder.cdb":
        p.mkdir()
    else:
        os.symlink(name, p)
    capsys.readouterr()
    rc = main(["db", "import", str(p)])
    _, err = capsys.readouterr()
    assert_one_error(rc, err, name)
    assert not (isolated_home / "cards.sqlite3").exists()  # nothing half-written
    assert not list(isolated_home.glob(".cards-*"))


@pytest.mark.parametrize("maker", ["sparse", "yaml-bomb"])
def test_hostile_files_to_banlist_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_home: Path, maker: str
) -> None:
    if maker == "sparse":
        p = tmp_path / "sparse.lflist.conf"
        with p.open("wb") as f:
            f.truncate(2 * 1024**3)
    else:
        p = HOSTILE / "alias-bomb.yaml"
    capsys.readouterr()
    rc = main(["banlist", "import", str(p)])
    _, err = capsys.readouterr()
    assert_one_error(rc, err, p.name)
    assert not (isolated_home / "banlists").exists() or not list(
        (isolated_home / "banlists").rglob("*")
    )
