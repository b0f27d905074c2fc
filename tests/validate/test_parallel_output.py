"""``validate --jobs 2`` over the pool writes what ``--jobs 1`` writes, byte for byte, for every
output kind and every option that changes what a deck shows (waivers, ``--only-illegal``,
``--strict``, ``--csv-decks``), the step summary and ``--sheets``; for the kinds the workers
render (text, json, csv, github) the parent renders no deck itself (``batch.stream``)."""

from __future__ import annotations

import datetime as dt
import io
import itertools
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from deckcheck import batch, runners
from deckcheck.batch import Output, Request, reports
from deckcheck.engine import Engine
from deckcheck.report import RunTally, Waivers
from deckcheck.validate import Target
from tests.conftest import REPO
from tests.validate.test_jobs import KINDS, run

EXAMPLES = REPO / "examples"
#: options that change what a deck shows, or whether it is shown
OPTIONS = [
    [],
    ["--only-illegal"],
    ["--ignore", "DC4"],
    ["--select", "DC5"],
    ["--strict", "--only-illegal", "--ignore", "DC402"],
]


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool of two even on a one-core machine: these tests are about the pool's output."""
    monkeypatch.setattr(runners, "cores", lambda: 2)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Legal, illegal, text-list and unreadable decks, many more than one chunk a worker."""
    sources = [
        EXAMPLES / "dm6" / "legal.ydk",
        EXAMPLES / "dm6" / "illegal.ydk",
        EXAMPLES / "text" / "dm6-ja.txt",
        EXAMPLES / "speed-ocg" / "illegal.ydk",
    ]
    root = tmp_path / "decks"
    for i in range(150):
        sub = root / f"s{i % 3}"
        sub.mkdir(parents=True, exist_ok=True)
        src = sources[i % len(sources)]
        shutil.copy(src, sub / f"d{i:03d}{src.suffix}")
    (root / "s0" / "binary.ydk").write_bytes(b"\x00\xff" * 64)
    (root / "s2" / "broken.ydk").write_text("#main\n55144522\nnot a card\n#extra\n")
    return root


def both(*args: str) -> tuple[Any, Any]:
    return run("--jobs", "1", *args), run("--jobs", "2", *args)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: " ".join(o) or "plain")
@pytest.mark.parametrize("kind", KINDS)
def test_pool_writes_what_one_process_writes(folder: Path, kind: str, options: list[str]) -> None:
    dm6 = ["--format", "dm6", "--date", "2026-06-01"]
    one, two = both(*dm6, "-o", kind, "--include", "*.txt", *options, str(folder))
    assert "152 decks checked" in one[2]
    assert one == two


@pytest.mark.parametrize(
    "options", [["--csv-decks"], ["--csv-decks", "--strict", "--ignore", "DC40"]]
)
def test_csv_per_deck_rows_from_the_pool(folder: Path, options: list[str]) -> None:
    one, two = both("--format", "dm6", "-o", "csv", "--include", "*.txt", *options, str(folder))
    assert one[1].count("\n") == 153  # a header and one row per deck
    assert one == two


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "options",
    [
        ["-f", "speed", "--select", "DC304"],
        ["-f", "speed", "--select", "DC304", "--strict"],
        ["--ignore", "DC40", "--only-illegal"],
    ],
    ids=["warnings", "strict", "ignore-only-illegal"],
)
def test_real_decks_with_warnings_and_waivers(
    real_home: Path, shared_data: Path, kind: str, options: list[str]
) -> None:
    one, two = both("--date", "2026-06-01", "-o", kind, *options, str(shared_data / "decks"))
    assert "209 decks checked" in one[2]
    if "--select" in options:  # every deck warns: legal with warnings, failing under --strict
        assert "209 legal, 0 illegal, 209 with warnings" in one[2]
        assert one[0] == (1 if "--strict" in options else 0)
    assert one == two


@pytest.mark.parametrize("options", [[], ["--strict", "--ignore", "DC5"], ["--only-illegal"]])
def test_step_summary_from_the_pool(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[str]
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    got = []
    for jobs in ("1", "2"):
        path = tmp_path / f"summary-{jobs}.md"
        monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(path))
        res = run("--jobs", jobs, "--format", "dm6", "--include", "*.txt", *options, str(folder))
        got.append((res, path.read_text(encoding="utf-8")))
    assert got[0][1].count("\n| ") == 2 + 152  # head, rule, a row per deck (shown or not)
    assert got[0] == got[1]


def test_sheets_from_the_pool(tmp_path: Path) -> None:
    folder = tmp_path / "few"  # few decks: a sheet takes a while to write
    folder.mkdir()
    for i, name in enumerate(["legal", "illegal", "illegal", "legal", "illegal", "illegal"]):
        shutil.copy(EXAMPLES / "dm6" / f"{name}.ydk", folder / f"d{i}.ydk")
    names = []
    for jobs in ("1", "2"):
        out = tmp_path / f"sheets-{jobs}"
        out.mkdir()
        res = run(
            "--jobs", jobs, "--format", "dm6", "-o", "json", "--sheets", str(out), str(folder)
        )
        names.append((res[0], sorted(p.name for p in out.iterdir())))
    assert names[0][1] == ["d0.pdf", "d3.pdf"]
    assert names[0] == names[1]


def _target() -> Target:
    from deckcheck.formats import ListStore, get_format

    date = dt.date(2026, 6, 1)
    banlist = ListStore.default().in_force("dm6", date)
    assert banlist is not None
    return Target(get_format("dm6"), banlist, date)


@pytest.mark.parametrize("kind", ["text", "json", "csv", "github"])
def test_workers_render_and_the_parent_only_writes(folder: Path, kind: str) -> None:
    """Over the pool the parent's renderer gets the workers' text, never a report (its
    ``deck`` fails here), and the tally merged from the workers' parts is the one a single
    process keeps; in process the same renderer writes deck by deck."""
    items = list(batch.walk([str(folder)]))
    # --sheets and a step summary given: the tally keeps the passing decks and the rows
    spec = Output(
        kind, waivers=Waivers(["DC403"]), strict=True, sheets="sheets/", step_summary="s.md"
    )

    def write(jobs: int, parent_renders: bool) -> tuple[str, RunTally]:
        out = io.StringIO()
        request = Request((str(folder),), items, _target(), spec, jobs)
        renderer = spec.renderer(out, io.StringIO())
        renderer.start(request.meta())
        if not parent_renders:
            renderer.deck = _no_deck  # type: ignore[method-assign]  # the parent's only
        tally = batch.stream(request, Engine.open(), renderer)
        renderer.finish(tally.summary)
        return out.getvalue(), tally

    text1, tally1 = write(1, True)
    text2, tally2 = write(2, False)
    assert text1 == text2 and "d001" in text1
    assert vars_of(tally1) == vars_of(tally2)
    assert tally1.summary.decks == len(items) > 100 and tally1.passed and tally1.rows


def _no_deck(report: Any) -> None:
    raise AssertionError(f"the parent rendered {report.input}")


def vars_of(tally: RunTally) -> tuple[Any, ...]:
    s = tally.summary
    return (
        s.decks,
        s.legal,
        s.illegal,
        s.warnings,
        s.failed,
        list(s.codes.items()),
        tally.passed,
        tally.rows,
    )


def test_tally_parts_merged_in_order_equal_one_tally(folder: Path) -> None:
    """Split anywhere, the parts' merge keeps the counts, the codes in first-seen order, the
    passing inputs and the rows of one tally over all the reports."""
    checked = list(reports(Request((), batch.walk([str(folder)]), _target())))
    waivers = Waivers(["DC402"])
    whole = RunTally(waivers, strict=True, sheets=True, rows=True)
    shown = [r for r in map(whole.take, checked) if r is not None]
    assert len(shown) == len(checked)
    for cuts in ([1], [2, 3, 77], [len(checked) - 1], list(range(0, len(checked), 10))):
        merged = RunTally(waivers, strict=True, sheets=True, rows=True)
        part = RunTally(waivers, strict=True, sheets=True, rows=True)
        bounds = [0, *cuts, len(checked)]
        for lo, hi in itertools.pairwise(bounds):
            for r in checked[lo:hi]:
                part.take(r)
            merged.merge(part.part())
        assert vars_of(merged) == vars_of(whole)
    assert list(whole.summary.codes) != sorted(whole.summary.codes)  # the order is tested


def _killed(items: list[Any]) -> Any:
    os._exit(9)  # a worker killed mid-run (the OOM killer, a signal)


def test_a_killed_worker_is_one_error_line_and_exit_2(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from deckcheck.cli import main

    monkeypatch.setattr(runners, "_work", _killed)  # forked workers inherit it
    assert main(["validate", "--jobs", "2", "--format", "dm6", "-o", "json", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "deckcheck: error: a --jobs worker process ended without answering" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("pool", ["forkpool", "multiprocessing"])
def test_notes_of_the_decks_come_back_from_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pool: str
) -> None:
    """What a deck makes ``validate`` say (its "#format" line used or not, a legacy encoding
    detected) is said with ``--jobs 2`` as with ``--jobs 1``: each "#format" note once, for
    the first deck in input order, and every encoding note; over either pool."""
    if pool == "multiprocessing":
        from deckcheck import forkpool

        monkeypatch.setattr(forkpool, "usable", lambda: False)
    root = tmp_path / "decks"
    root.mkdir()
    legal = (EXAMPLES / "dm6" / "legal.ydk").read_text(encoding="utf-8")
    ja = (EXAMPLES / "text" / "dm6-ja.txt").read_text(encoding="utf-8")
    for i in range(200):
        if i % 50 == 7:
            (root / f"d{i:03d}.txt").write_bytes(ja.encode("cp932"))  # a legacy encoding
        elif i % 3 == 0:
            (root / f"d{i:03d}.ydk").write_text("#format dm5\n" + legal, encoding="utf-8")
        elif i % 3 == 1 and i > 60:  # first met in a later chunk than the dm6 ones
            (root / f"d{i:03d}.ydk").write_text("#format nosuch\n" + legal, encoding="utf-8")
        else:
            (root / f"d{i:03d}.ydk").write_text(legal, encoding="utf-8")
    # the run's format from a config file: no --format, so the decks' own lines count
    config = tmp_path / "deckcheck.toml"
    config.write_text('format = "dm6"\n', encoding="utf-8")
    one, two = both(
        "--config", str(config), "--date", "2026-06-01", "--include", "*.txt", str(root)
    )
    err = one[2]
    assert err.count("checked as Duel Monsters 5") == 1 and "d000.ydk: checked as Duel" in err
    assert err.count("'#format nosuch' line not used") == 1 and "d061.ydk: '#format" in err
    assert err.count("read as cp932") == 4
    assert one == two
