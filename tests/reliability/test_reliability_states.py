"""Issue 20, "Not atomic across files": the installed state (database + lists) switches in one
step (``current -> state-N``). Real SIGKILL at random points of `update` and of a multi-list
`banlist import`, checked at once (no later command repairs anything); reader processes
looping during updates; older homes migrated; the old state a reader holds is kept;
stale temp files in --out folders cleaned. Real processes, real files."""

from __future__ import annotations

import fcntl
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from deckcheck.cli import main
from tests.builders import child_env, killed_after
from tests.reliability.test_reliability_data import _run, lflist_text, old_and_new, tiny_mirror

NEW_CARD = 99999002


def installed(home: Path) -> Path:
    """The folder the home's link names (resolved once, as a command does)."""
    link = home / "current"
    return home / os.readlink(link) if link.is_symlink() else home


def state_of(home: Path) -> tuple[bool, str]:
    """(the new card is in the database, the limit the TCG 2026.01 list gives it)."""
    st = installed(home)
    db = sqlite3.connect(f"file:{st / 'cards.sqlite3'}?mode=ro", uri=True)
    try:
        has_new = bool(
            db.execute("SELECT count(*) FROM cards WHERE id = ?", (NEW_CARD,)).fetchone()[0]
        )
    finally:
        db.close()
    text = (st / "banlists" / "tcg" / "2026-01-01.yaml").read_text()
    return has_new, "limit: 1" if "limit: 1" in text else "limit: 0"


def two_mirrors(tmp_path: Path) -> tuple[Path, Path]:
    """Old: Pot of Greed at 0, no new card. New: Pot of Greed at 1 and a new card. A state
    mixing the two shows as (True, "limit: 0") or (False, "limit: 1")."""
    old = tiny_mirror(tmp_path / "old")
    new = tiny_mirror(tmp_path / "new")
    for lf in (new / "ProjectIgnis" / "LFLists").glob("*.conf"):
        lf.write_text(lf.read_text().replace("55144522 0", "55144522 1"))
    conn = sqlite3.connect(new / "ProjectIgnis" / "BabelCDB" / "cards.cdb")
    conn.execute(f"INSERT INTO datas VALUES ({NEW_CARD}, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0)")
    conn.execute(f"INSERT INTO texts VALUES ({NEW_CARD}, 'New Card', '')")
    conn.commit()
    conn.close()
    return old, new


OLD_STATE, NEW_STATE = (False, "limit: 0"), (True, "limit: 1")


def _timed(argv: list[str]) -> float:
    t0 = time.perf_counter()
    r = _run(argv)
    assert r.returncode == 0, r.stderr
    return time.perf_counter() - t0


def test_killed_update_is_exactly_old_or_new_at_once(tmp_path: Path, isolated_home: Path) -> None:
    rng = random.Random(2026)
    old, new = two_mirrors(tmp_path)
    _timed(["update", "--source", str(old)])
    assert state_of(isolated_home) == OLD_STATE
    whole = _timed(["update", "--source", str(new)])
    assert state_of(isolated_home) == NEW_STATE
    seen = set()
    trials = 30
    for i in range(trials):
        src = new if i % 2 else old
        before = state_of(isolated_home)
        # kills anywhere, half of them in the last third (where the switch is)
        delay = rng.uniform(0.05, whole) if i % 3 else rng.uniform(0.6 * whole, 1.1 * whole)
        killed_after(delay, "update", "--source", str(src), "--force")
        got = state_of(isolated_home)  # at once: nothing has finished or repaired it
        assert got in (OLD_STATE, NEW_STATE), (i, got)
        seen.add("switched" if got != before else "kept")
    print(f"{trials} killed updates: outcomes {sorted(seen)}")
    # the next writer removes what the kills left: one state, the link, the two names
    r = _run(["update", "--source", str(old), "--force"])
    assert r.returncode == 0, r.stderr
    states = {p.name for p in isolated_home.glob("state-*")}
    # the current one, and the one it replaced (a reader may still be in it) until the next
    # writer: nothing of the 30 killed runs
    assert installed(isolated_home).name in states and len(states) == 2, states
    assert os.readlink(isolated_home / "cards.sqlite3") == "current/cards.sqlite3"
    assert os.readlink(isolated_home / "banlists") == "current/banlists"
    litter = sorted(p.name for p in isolated_home.iterdir() if p.name.startswith("."))
    assert litter == [".lock"]
    assert list((isolated_home / "cache").glob(".update-*")) == []


def list_versions_now(home: Path) -> set[str]:
    got = set()
    for p in sorted((installed(home) / "banlists" / "tcg").glob("*.yaml")):
        text = p.read_text()
        got.add("limit: 0" if "limit: 0" in text else "limit: 1" if "limit: 1" in text else "?")
    return got


def test_killed_multi_list_import_is_exactly_old_or_new_at_once(
    tmp_path: Path, isolated_home: Path
) -> None:
    rng = random.Random(7)
    old, new = old_and_new(tmp_path, lists=8, entries=400)
    _timed(["banlist", "import", str(old)])
    whole = _timed(["banlist", "import", str(new)])
    trials = 40
    outcomes = []
    for i in range(trials):
        src = old if i % 2 else new
        delay = rng.uniform(0.05, whole) if i % 2 else rng.uniform(0.6 * whole, 1.1 * whole)
        killed_after(delay, "banlist", "import", str(src))
        got = list_versions_now(isolated_home)
        assert len(got) == 1 and "?" not in got, (i, got)
        outcomes.append(got.pop())
        assert len(list((installed(isolated_home) / "banlists" / "tcg").glob("*.yaml"))) == 8
    print(
        f"{trials} killed imports: {outcomes.count('limit: 0')} at 0, "
        f"{outcomes.count('limit: 1')} at 1"
    )
    assert _run(["banlist", "import", str(old)]).returncode == 0
    litter = [p.name for p in isolated_home.rglob("*") if p.name.endswith(".tmp")]
    assert litter == []


# A reader process: like every command, it resolves the installed state once, then reads the
# database and (after a pause, to widen the window) the lists; prints what it saw per round.
_READER = """
import sqlite3, sys, time
from deckcheck import paths
stop = sys.argv[1]
import os
rounds = 0
while not os.path.exists(stop):
    getattr(paths, 'forget_state', lambda: None)()  # a new command
    db = paths.database_path()
    if not db.is_file():
        continue
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    has_new = conn.execute("SELECT count(*) FROM cards WHERE id = NEW_CARD").fetchone()[0]
    conn.close()
    time.sleep(0.01)
    text = (paths.lists_dir() / "tcg" / "2026-01-01.yaml").read_text()
    print(int(bool(has_new)), "limit: 1" in text, flush=True)
    rounds += 1
""".replace("NEW_CARD", str(NEW_CARD))


def test_readers_never_see_a_mix_during_updates(tmp_path: Path, isolated_home: Path) -> None:
    old, new = two_mirrors(tmp_path)
    _timed(["update", "--source", str(old)])
    stop = tmp_path / "stop"
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", _READER, str(stop)],
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for i in range(6):
            r = _run(["update", "--source", str(new if i % 2 == 0 else old), "--force"])
            assert r.returncode == 0, r.stderr
    finally:
        stop.touch()
    seen: list[tuple[str, str]] = []
    for rd in readers:
        out, err = rd.communicate(timeout=60)
        assert rd.returncode == 0, err
        seen += [tuple(line.split()) for line in out.splitlines()]  # type: ignore[misc]
    mixed = [s for s in seen if s not in (("0", "False"), ("1", "True"))]
    both = {s for s in seen if s not in mixed}
    print(f"{len(seen)} reads during 6 updates: {len(mixed)} mixed, states seen {sorted(both)}")
    assert len(seen) > 20 and mixed == []
    assert both == {("0", "False"), ("1", "True")}  # the readers did run across switches


def test_an_older_home_is_moved_to_the_state_layout(tmp_path: Path, isolated_home: Path) -> None:
    mirror = tiny_mirror(tmp_path / "m")
    assert main(["update", "--source", str(mirror)]) == 0
    # rebuild the older layout from it: database and lists at the top, no link
    st = installed(isolated_home)
    for name in ("cards.sqlite3", "banlists", "current"):
        (isolated_home / name).unlink()
    os.replace(st / "cards.sqlite3", isolated_home / "cards.sqlite3")
    os.replace(st / "banlists", isolated_home / "banlists")
    shutil.rmtree(st)
    from deckcheck import paths

    paths.forget_state()
    assert paths.database_path() == isolated_home / "cards.sqlite3"  # read as it is
    conf = tmp_path / "house.conf"
    conf.write_text("!2026.02 House\n14558127 1\n")
    assert main(["banlist", "import", str(conf), "--family", "house"]) == 0
    st = installed(isolated_home)
    assert st.name.startswith("state-") and (isolated_home / "current").is_symlink()
    assert (st / "banlists" / "tcg" / "2026-01-01.yaml").is_file()  # the old lists kept
    assert (st / "banlists" / "house" / "2026-02-01.yaml").is_file()
    assert (isolated_home / "cards.sqlite3").is_symlink()
    assert paths.database_path() == st / "cards.sqlite3"
    assert main(["card", "show", "55144522"]) == 0


def test_the_old_state_a_reader_holds_is_kept_until_it_is_done(
    tmp_path: Path, isolated_home: Path
) -> None:
    conf_a, conf_b = tmp_path / "a.conf", tmp_path / "b.conf"
    conf_a.write_text(lflist_text(0, lists=2, entries=5))
    conf_b.write_text(lflist_text(1, lists=2, entries=5))
    assert _run(["banlist", "import", str(conf_a)]).returncode == 0
    first = installed(isolated_home)
    hold = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "from deckcheck import paths; import sys; "
                "print(paths.lists_dir(), flush=True); sys.stdin.read()"
            ),
        ],
        env=child_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert hold.stdout is not None
    assert hold.stdout.readline().strip() == str(first / "banlists")
    try:
        for conf in (conf_b, conf_a, conf_b):
            assert _run(["banlist", "import", str(conf)]).returncode == 0
        assert first.is_dir()  # still read by the holder: not removed
    finally:
        hold.communicate("", timeout=30)
    assert _run(["banlist", "import", str(conf_a)]).returncode == 0
    assert not first.exists()


def test_stale_temp_files_in_an_out_folder_are_cleaned(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "tcg").mkdir(parents=True)
    stale = out / "tcg" / ".dc-stage-123-0.tmp"
    fresh = out / "tcg" / ".dc-stage-124-0.tmp"
    busy = out / "tcg" / ".dc-stage-125-0.tmp"
    for p in (stale, fresh, busy):
        p.write_text("half a list")
    two_hours_ago = time.time() - 7200
    for p in (stale, busy):
        os.utime(p, (two_hours_ago, two_hours_ago))
    fd = os.open(busy, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # its writer is still at work
    try:
        conf = tmp_path / "x.conf"
        conf.write_text(lflist_text(0, lists=1, entries=3))
        assert main(["banlist", "import", str(conf), "--out", str(out)]) == 0
        assert not stale.exists()
        assert fresh.exists() and busy.exists()
        assert (out / "tcg" / "2026-01-01.yaml").is_file()
    finally:
        os.close(fd)


def test_readers_never_see_a_mix_during_list_imports_either(
    tmp_path: Path, isolated_home: Path
) -> None:
    old, new = old_and_new(tmp_path, lists=8, entries=200)
    assert _run(["banlist", "import", str(old)]).returncode == 0
    stop = tmp_path / "stop"
    code = (
        "import os, sys, time\nfrom deckcheck import paths\n"
        "while not os.path.exists(sys.argv[1]):\n"
        "    getattr(paths, 'forget_state', lambda: None)()\n"
        "    got = set()\n"
        "    for p in sorted((paths.lists_dir() / 'tcg').glob('*.yaml')):\n"
        "        got.add('limit: 1' in p.read_text())\n"
        "        time.sleep(0.002)\n"
        "    print(len(got), flush=True)\n"
    )
    rd = subprocess.Popen(
        [sys.executable, "-c", code, str(stop)],
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for i in range(6):
            assert _run(["banlist", "import", str(new if i % 2 == 0 else old)]).returncode == 0
    finally:
        stop.touch()
    out, err = rd.communicate(timeout=60)
    assert rd.returncode == 0, err
    counts = out.split()
    print(f"{len(counts)} reads of 8 lists during 6 imports: {counts.count('2')} mixed")
    assert len(counts) > 5 and set(counts) == {"1"}
