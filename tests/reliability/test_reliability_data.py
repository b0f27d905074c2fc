"""Issue 20, "Data lost": concurrent edits, imports during updates, user imports kept by an
update, silent drops in the readers, unreadable folders, locale-only imports. Real processes,
real SIGKILL, real files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck import decks
from deckcheck.cli import main
from tests.builders import (
    MONSTER_ROW,
    child_env,
    killed_after,
    run_deckcheck,
    run_process,
    write_cdb,
)

REPO = Path(__file__).resolve().parent.parent.parent
ASH = 14558127

# A process that imports deckcheck, then waits for the go file: N of them start their edit
# within a millisecond or so of each other (a barrier across real processes).
_BARRIER = (
    "import os, sys, time\n"
    "from deckcheck.cli import main\n"
    "go = sys.argv[1]\n"
    "while not os.path.exists(go):\n"
    "    time.sleep(0.0005)\n"
    "sys.exit(main(sys.argv[2:]))\n"
)


def run_together(argvs: list[list[str]], go: Path, timeout: float = 120) -> list[int]:
    """Start one process per argv, release them at once, return their exit codes."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _BARRIER, str(go), *argv],
            env=child_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for argv in argvs
    ]
    import time

    time.sleep(1.5)  # every process has imported deckcheck and is polling
    go.touch()
    codes = []
    for p in procs:
        _, err = p.communicate(timeout=timeout)
        codes.append(p.returncode)
        assert b"Traceback" not in err, err.decode()
        if p.returncode:
            print(err.decode())
    return codes


def copies(path: Path, card: int) -> int:
    """Copies of ``card`` (a text list's names resolved through the sample database)."""
    from deckcheck.carddb import open_db
    from deckcheck.decks.resolve import resolve_deck
    from deckcheck.lookup import Index

    d = decks.read_path(path)
    db = open_db()
    d = resolve_deck(d, db, Index.for_db(db))
    return sum(e.count for e in d.entries() if e.card_id == card)


@pytest.mark.parametrize("suffix", [".ydk", ".txt"])
def test_concurrent_deck_add_keeps_every_edit(tmp_path: Path, suffix: str) -> None:
    deck = tmp_path / f"d{suffix}"
    assert main(["deck", "new", str(deck)]) == 0
    assert main(["deck", "add", str(deck), str(ASH)]) == 0  # warms the lookup cache
    n = 6
    codes = run_together(
        [["deck", "add", str(deck), str(ASH), "--force"] for _ in range(n)], tmp_path / "go"
    )
    # every process that said it added its copy has it in the file
    assert copies(deck, ASH) == 1 + codes.count(0)
    assert codes.count(0) == n, codes


def test_edit_refused_when_the_file_changed_since_it_was_read(tmp_path: Path) -> None:
    from deckcheck import deckedit
    from deckcheck.carddb import open_db
    from deckcheck.errors import InputError
    from deckcheck.lookup import Index

    deck = tmp_path / "d.ydk"
    deck.write_text("#main\n14558127\n#extra\n!side\n")
    db = open_db()
    df = deckedit.load(deck, db, Index.for_db(db))
    df.lines.append("14558127")
    df.lock.release() if df.lock else None  # another program ignores the lock…
    deck.write_text("#main\n55144522\n#extra\n!side\n")  # …and writes the file meanwhile
    with pytest.raises(InputError, match="changed while it was being edited"):
        deckedit.save(df)
    assert deck.read_text() == "#main\n55144522\n#extra\n!side\n"


# --------------------------------------------------------------------------- lists


def lflist_text(version: int, lists: int = 6, entries: int = 300) -> str:
    """``lists`` TCG lists (2026.01 …), every entry at limit ``version`` (0, 1 or 2)."""
    out = []
    for m in range(1, lists + 1):
        out.append(f"!2026.{m:02d} TCG")
        out.extend(f"{10_000_000 + i} {version} -- Card {i}" for i in range(entries))
    return "\n".join(out) + "\n"


def old_and_new(folder: Path, lists: int, entries: int) -> tuple[Path, Path]:
    """``old.conf`` and ``new.conf`` in ``folder``: the same lists, version 0 and 1."""
    old, new = folder / "old.conf", folder / "new.conf"
    old.write_text(lflist_text(0, lists=lists, entries=entries))
    new.write_text(lflist_text(1, lists=lists, entries=entries))
    return old, new


def list_versions(home: Path) -> set[str]:
    """The limit each installed TCG list gives (a set of one value: the lists agree)."""
    got = set()
    for p in sorted((home / "banlists" / "tcg").glob("*.yaml")):
        text = p.read_text()
        got.add("limit: 0" if "limit: 0" in text else "limit: 1" if "limit: 1" in text else "?")
    return got


def _run(argv: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return run_deckcheck(*argv, env=child_env(), timeout=120, **kw)


def test_banlist_import_refuses_non_regular_files(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.conf"
    os.mkfifo(fifo)
    for arg in ("/dev/zero", str(fifo)):
        r = _run(["banlist", "import", arg])  # a FIFO without a writer used to hang for ever
        assert r.returncode == 2
        assert r.stderr.strip() == (
            f"deckcheck: error: {arg}: not a regular file (an lflist.conf file is)"
        )


def test_list_the_store_cannot_read_back_is_refused_at_import(
    tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deckcheck.datafile import MAX_YAML_BYTES

    # 190k entries: under the lflist cap, but its YAML is over the store's cap
    conf = tmp_path / "big.lflist.conf"
    conf.write_text(lflist_text(0, lists=1, entries=190_000))
    assert conf.stat().st_size < 16 * 1024 * 1024
    assert main(["banlist", "import", str(conf)]) == 2
    err = capsys.readouterr().err
    assert f"over the {MAX_YAML_BYTES}-byte cap every reader applies; nothing written" in err
    assert not (isolated_home / "banlists" / "tcg").exists() or not list(
        (isolated_home / "banlists" / "tcg").iterdir()
    )
    assert main(["banlist", "list"]) == 0  # the home still works


def test_banlist_import_waits_for_an_update_holding_the_lock(
    tmp_path: Path, isolated_home: Path
) -> None:
    import time

    from deckcheck import staging

    conf = tmp_path / "a.lflist.conf"
    conf.write_text(lflist_text(0, lists=1, entries=3))
    with staging.home_lock():  # what `deckcheck update` holds for its whole run
        p = subprocess.Popen(
            [sys.executable, "-m", "deckcheck", "banlist", "import", str(conf)],
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(3)
        assert p.poll() is None  # waiting, not writing into the folder the update swaps
        assert not (isolated_home / "banlists" / "tcg").exists()
    _out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert "waiting for it" in err
    assert (isolated_home / "banlists" / "tcg" / "2026-01-01.yaml").is_file()


def tiny_mirror(root: Path) -> Path:
    """Every required file of card_db/sources.yaml, tiny: a directory source for update."""

    from deckcheck.update.sources import load_components

    for comp in load_components():
        if not comp.required:  # optional files (official data) may be missing from a mirror
            continue
        p = root / comp.owner / comp.repo / comp.path
        p.parent.mkdir(parents=True, exist_ok=True)
        if comp.kind == "lists":
            fam = {"0TCG": "TCG", "lflist": "OCG"}.get(p.name.split(".")[0], p.name.split(".")[0])
            p.write_text(f"!2026.01 {fam}\n55144522 0 -- Pot of Greed\n")
            continue
        write_cdb(p, {55144522: "Pot of Greed", 14558127: "Ash Blossom & Joyous Spring"})
    return root


@pytest.mark.parametrize("trial", range(4))
def test_banlist_import_during_update_is_kept(
    tmp_path: Path, isolated_home: Path, trial: int
) -> None:
    mirror = tiny_mirror(tmp_path / "mirror")
    conf = tmp_path / "house.lflist.conf"
    conf.write_text("!2026.02 House\n14558127 1\n")
    codes = run_together(
        [
            ["update", "--source", str(mirror), "--force"],
            ["banlist", "import", str(conf), "--family", "house"],
        ],
        tmp_path / "go",
    )
    assert codes == [0, 0]
    assert (isolated_home / "banlists" / "house" / "2026-02-01.yaml").is_file()
    assert (isolated_home / "banlists" / "tcg").is_dir()


def _mounted_tmpfs(path: Path, size: str) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
        capture_output=True,
        check=False,
    )
    return r.returncode == 0


def test_banlist_import_on_a_full_disk_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    disk = tmp_path / "disk"
    if not _mounted_tmpfs(disk, "400k"):
        pytest.skip("mounting a tmpfs is not permitted here (needs root / CAP_SYS_ADMIN)")
    try:
        home = disk / "home"
        monkeypatch.setenv("DECKCHECK_HOME", str(home))
        monkeypatch.setenv("DECKCHECK_CACHE", str(tmp_path / "cache"))
        conf = tmp_path / "many.lflist.conf"
        conf.write_text(lflist_text(1, lists=8, entries=600))  # ~8 × 40 KB of YAML
        (disk / "filler").write_bytes(b"\0" * 200_000)
        assert main(["banlist", "import", str(conf)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "No space left on device" in err[0], err
        assert "nothing was changed" in err[0] and str(home) in err[0], err
        left = [p for p in home.rglob("*") if p.is_file() and p.name != ".lock"]
        assert left == []  # no list, no temp file
        (disk / "filler").unlink()
        assert main(["banlist", "import", str(conf)]) == 0
        assert len(list((home / "banlists" / "tcg").glob("*.yaml"))) == 8
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_killed_banlist_import_leaves_old_or_new_and_no_litter(
    tmp_path: Path, isolated_home: Path
) -> None:
    import random
    import time

    rng = random.Random(20)
    old, new = old_and_new(tmp_path, lists=8, entries=400)
    assert _run(["banlist", "import", str(old)]).returncode == 0
    # how long a whole import takes, so kills land anywhere in it
    t0 = time.perf_counter()
    assert _run(["banlist", "import", str(new)]).returncode == 0
    whole = time.perf_counter() - t0
    mixed = 0
    for _ in range(20):
        src = rng.choice([old, new])
        killed_after(rng.uniform(0.05, whole), "banlist", "import", str(src))
        got = list_versions(isolated_home)
        mixed += len(got) != 1
        assert "?" not in got
    assert mixed == 0
    assert _run(["banlist", "import", str(old)]).returncode == 0
    litter = [p.name for p in (isolated_home / "banlists").rglob("*") if p.name.endswith(".tmp")]
    assert litter == []


# --------------------------------------------------------------------------- silent drops


@pytest.mark.parametrize(
    "line",
    [
        "1500 Ash Blossom & Joyous Spring",
        "Ash Blossom & Joyous Spring x1500",
        "x1000 Ash Blossom & Joyous Spring",
        "12000x Ash Blossom & Joyous Spring",
        "灰流丽 x1500",
    ],
)
def test_text_counts_over_999_are_reported(line: str) -> None:
    d = decks.read_string(f"Main Deck\n3 Pot of Greed\n{line}\n", source="l.txt")
    assert [e.query for e in d.entries()] == ["Pot of Greed"]
    assert [(f.code, f.line) for f in d.findings] == [("DC101", 3)]
    assert "a line holds at most 999 copies" in d.findings[0].message


def test_text_counts_up_to_999_and_passcode_lines_still_read() -> None:
    d = decks.read_string("999 Ash Blossom\n46986415 Dark Magician\n12345678 (note)\n", "l.txt")
    assert [(e.count, e.query, e.card_id) for e in d.entries()] == [
        (999, "Ash Blossom", None),
        (1, "46986415 Dark Magician", None),
        (1, None, 12345678),
    ]
    assert d.findings == []


@pytest.mark.parametrize("line", ["14558127 14558127", "14558127,55144522", "1 2 3 14558127 5"])
def test_ydk_line_with_several_passcodes_is_reported(line: str) -> None:
    if line.startswith("1 2"):
        line = "14558127 55144522 23434538"
    d = decks.read_string(f"#main\n55144522\n{line}\n#extra\n!side\n", source="d.ydk")
    assert [e.card_id for e in d.entries()] == [55144522]
    assert [(f.code, f.line) for f in d.findings] == [("DC101", 3)]
    assert "several passcodes on one line" in d.findings[0].message


def test_ydk_text_after_a_passcode_is_still_a_comment() -> None:
    d = decks.read_string("#main\n89631139 -- Blue-Eyes 2024\n60303245#created\n", "d.ydk")
    assert [e.card_id for e in d.entries()] == [89631139, 60303245] and d.findings == []


def test_unreadable_sub_folder_is_a_finding_not_nothing(tmp_path: Path) -> None:
    top = tmp_path / "decks"
    (top / "locked").mkdir(parents=True)
    (top / "a.ydk").write_text("#main\n" + "55144522\n" * 40 + "#extra\n!side\n")
    (top / "locked" / "illegal.ydk").write_text("#main\n14558127\n")
    conf = tmp_path / "l.conf"
    conf.write_text("!2026.01 TCG\n23434538 0\n")
    assert _run(["banlist", "import", str(conf)]).returncode == 0
    (top / "locked").chmod(0)
    try:
        # root reads any folder: drop the capabilities that let it (the test runs as root too)
        cmd = [sys.executable, "-m", "deckcheck", "validate", str(top), "--output", "json"]
        if os.geteuid() == 0:
            cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *cmd]
        r = run_process(cmd, env=child_env(), timeout=120)
        diff = ["banlist", "diff", "tcg@2026-01-01", "tcg@2026-01-01", "--deck", str(top)]
        cmd2 = [*cmd[: cmd.index(sys.executable) + 1], "-m", "deckcheck", *diff]
        r2 = run_process(cmd2, env=child_env(), timeout=120)
    finally:
        (top / "locked").chmod(0o755)
    assert r.returncode == 1, r.stderr
    assert str(top / "locked") in r.stdout and "DC101" in r.stdout
    assert "cannot read this folder (Permission denied)" in r.stdout
    assert r2.returncode == 2 and "cannot read this folder (Permission denied)" in r2.stderr


def test_text_line_with_a_pinned_passcode_and_a_huge_count_is_reported() -> None:
    d = decks.read_string("1200 Pot of Greed (55144522)\n", "l.txt", kind="text")
    assert d.entries() == [] and [f.code for f in d.findings] == ["DC101"]


def test_convert_refuses_text_that_would_not_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "many.ydk"
    src.write_text("#main\n" + "55144522\n" * 1200 + "#extra\n!side\n")
    out = tmp_path / "out.txt"
    assert main(["convert", str(src), "--to", "text", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "would not read back as the same deck (main/extra/side 1200/0/0 vs 0/0/0)" in err
    assert not out.exists()


def test_build_refuses_a_ydk_over_the_readers_line_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "big.txt"
    src.write_text("999 Pot of Greed\n" * 12)
    out = tmp_path / "big.ydk"
    assert main(["build", str(src), "--out", str(out), "--no-names"]) == 2
    err = capsys.readouterr().err
    assert "over the 10000-line / 1048576-byte limit a deck file is read with" in err
    assert not out.exists()
    src.write_text("3 Pot of Greed\n")  # a normal list still builds
    assert main(["build", str(src), "--out", str(out)]) == 0
    assert decks.read_path(out).counts()["main"] == 3


# --------------------------------------------------------------------------- update state


def test_update_force_keeps_cards_added_with_db_import(
    tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deckcheck.carddb import open_db

    mirror = tiny_mirror(tmp_path / "mirror")
    assert main(["update", "--source", str(mirror)]) == 0
    custom = write_cdb(tmp_path / "house.cdb", {99999001: "My House Dragon"}, kind=MONSTER_ROW)
    assert main(["db", "import", str(custom)]) == 0
    capsys.readouterr()
    assert main(["update", "--source", str(mirror), "--force"]) == 0
    assert "1 file(s) from 'db import' applied again" in capsys.readouterr().err  # quiet
    assert main(["update", "--source", str(mirror), "--force", "-v"]) == 0
    err = capsys.readouterr().err
    assert f"{custom}: imported with 'db import'; applied again over the update" in err
    db = open_db()
    assert db.get(99999001) is not None and db.name(99999001) == "My House Dragon"
    assert db.get(55144522) is not None  # and the update's cards are there
    custom.unlink()  # gone: the update says so instead of dropping it unsaid
    assert main(["update", "--source", str(mirror), "--force", "-v"]) == 0
    assert f"{custom}: imported with 'db import' but gone" in capsys.readouterr().err


def test_killed_updates_leave_old_or_new_and_no_litter(tmp_path: Path, isolated_home: Path) -> None:
    import random
    import sqlite3
    import time

    rng = random.Random(2020)
    old = tiny_mirror(tmp_path / "old")
    new = tiny_mirror(tmp_path / "new")
    # the new state: another list version and one more card, so a mix of the two shows
    for lf in (new / "ProjectIgnis" / "LFLists").glob("*.conf"):
        lf.write_text(lf.read_text().replace("2026.01", "2026.03"))
    conn = sqlite3.connect(new / "ProjectIgnis" / "BabelCDB" / "cards.cdb")
    conn.execute("INSERT INTO datas VALUES (99999002, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0)")
    conn.execute("INSERT INTO texts VALUES (99999002, 'New Card', '')")
    conn.commit()
    conn.close()
    house = tmp_path / "house.conf"
    house.write_text("!2026.01 House\n55144522 1\n")

    def state() -> tuple[bool, tuple[str, ...]]:
        db = sqlite3.connect(isolated_home / "cards.sqlite3")
        try:
            has_new = db.execute("SELECT count(*) FROM cards WHERE id = 99999002").fetchone()
        finally:
            db.close()
        lists = tuple(sorted(p.name for p in (isolated_home / "banlists" / "tcg").glob("*")))
        return bool(has_new[0]), lists

    assert _run(["update", "--source", str(old)]).returncode == 0
    t0 = time.perf_counter()
    assert _run(["update", "--source", str(new)]).returncode == 0
    whole = time.perf_counter() - t0
    kinds = set()
    for _ in range(24):
        before = state()
        src = rng.choice([old, new])
        after = (
            src == new,
            tuple(sorted({*before[1], "2026-03-01.yaml"} if src == new else before[1])),
        )
        killed_after(rng.uniform(0.05, whole), "update", "--source", str(src), "--force")
        # the next command taking the home lock finishes or discards what the kill left
        r = _run(["banlist", "import", str(house), "--family", "house"])
        assert r.returncode == 0, r.stderr
        got = state()
        assert got in (before, after), (before, after, got)
        kinds.add("old" if got == before and before != after else "new")
        assert (isolated_home / "banlists" / "house" / "2026-01-01.yaml").is_file()
    r = _run(["update", "--source", str(old), "--force"])
    assert r.returncode == 0, r.stderr
    litter = [p.name for p in isolated_home.iterdir() if p.name.startswith(".")]
    litter += [p.name for p in (isolated_home / "cache").glob(".update-*")]
    assert litter == [".lock"]
