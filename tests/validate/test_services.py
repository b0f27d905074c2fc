"""The library services the commands call: the deck-input walker and loader, the list
choice, the batch engine used in-process, the deck writer service, and the renamed flags."""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck import render
from deckcheck.batch import Output, Request, plan, reports, stream, walk
from deckcheck.cli import cli
from deckcheck.errors import DataError, InputError
from deckcheck.formats import get_format, list_for
from deckcheck.inputs import (
    DeckLoader,
    check_paths,
    deck_paths,
    read_item,
    walk_folder,
)
from deckcheck.validate import Target
from tests.conftest import REPO

EXAMPLES = REPO / "examples"
DATE = dt.date(2026, 6, 1)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    shutil.copy(EXAMPLES / "dm6" / "legal.ydk", tmp_path / "z.ydk")
    shutil.copy(EXAMPLES / "dm6" / "illegal.ydk", tmp_path / "b" / "x.YDK")
    shutil.copy(EXAMPLES / "text" / "dm6-ja.txt", tmp_path / "a" / "deep" / "list.txt")
    (tmp_path / "a" / "url.ydke").write_text("ydke://!!!\n")
    (tmp_path / "a" / "notes.md").write_text("not a deck\n")
    return tmp_path


# --------------------------------------------------------------------------- inputs


def test_walker_recurses_in_sorted_order_and_filters_suffixes(folder: Path) -> None:
    got = [Path(p).relative_to(folder).as_posix() for p in walk_folder(folder)]
    # os.walk order: a folder's own files before its sub-folders, both sorted
    # text decklists only when configured (issue 16): a folder walk takes .ydk and .ydke
    assert got == ["z.ydk", "a/url.ydke", "b/x.YDK"]
    items = list(walk(["-", "ydke://abc", str(folder / "z.ydk"), str(folder / "b")]))
    assert items == ["-", "ydke://abc", str(folder / "z.ydk"), str(folder / "b" / "x.YDK")]


def test_check_paths_names_the_missing_input(tmp_path: Path) -> None:
    check_paths(["-", "ydke://abc", str(tmp_path)])
    with pytest.raises(InputError, match="no such file or directory"):
        check_paths([str(tmp_path / "gone.ydk")])


def test_deck_paths_sorted_without_ydke_and_refuses_empty_or_missing(
    folder: Path, tmp_path: Path
) -> None:
    got = [p.relative_to(folder).as_posix() for p in deck_paths([folder])]
    assert got == ["a/deep/list.txt", "b/x.YDK", "z.ydk"]
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match=r"no deck files \(.ydk, .txt\)"):
        deck_paths([empty])
    with pytest.raises(InputError, match="no such file or folder"):
        deck_paths([tmp_path / "gone"])


def test_loader_resolves_text_lists_only(folder: Path) -> None:
    from deckcheck.carddb import open_db

    loader = DeckLoader(open_db())
    ydk = loader.load(str(folder / "z.ydk"))
    assert loader._index is None  # a .ydk needs no name lookup
    text = loader.load(str(folder / "a" / "deep" / "list.txt"))
    assert loader._index is not None
    assert all(e.card_id is not None for e in text.entries())
    assert ydk.counts()["main"] > 0
    with pytest.raises(InputError, match="stdin went away"):
        read_item(("!", b"stdin went away"))


# --------------------------------------------------------------------------- list_for


def test_list_for_picks_the_list_in_force_a_named_one_or_none() -> None:
    fmt = get_format("dm6")
    got = list_for(fmt, DATE)
    assert got is not None and got.name == "2002.07 DM6"
    named = list_for(fmt, DATE, "2001.07 DM5")
    assert named is not None and named.family == "dm5"
    assert list_for(get_format("legacy"), DATE) is None


def test_list_for_without_a_list_in_force_is_a_data_error() -> None:
    with pytest.raises(DataError, match=r"no 'dm6' list is in force on 1999-01-01"):
        list_for(get_format("dm6"), dt.date(1999, 1, 1))


# --------------------------------------------------------------------------- batch


def test_a_request_checks_inputs_in_order_in_process(folder: Path) -> None:
    inputs = (str(folder),)
    request, engine = plan(inputs, walk(inputs), format_id="dm6", date=DATE, jobs=1)
    meta = request.meta()
    assert (meta.format_id, meta.list_name, meta.date) == ("dm6", "2002.07 DM6", "2026-06-01")
    got = list(reports(request, engine))
    # a folder walk leaves text decklists out unless configured (issue 16)
    assert [Path(r.input).name for r in got] == ["z.ydk", "url.ydke", "x.YDK"]
    legal = {Path(r.input).name: r.legal for r in got}
    assert legal["z.ydk"] and not legal["x.YDK"] and not legal["url.ydke"]
    # the same engine without the request gives the same verdicts
    target = Target(request.target.fmt, request.target.banlist, DATE)
    again = [engine.check_item(i, target) for i in walk([str(folder)])]
    assert again == got
    # and a request built by hand, with a fresh engine
    assert list(reports(Request(inputs, walk(inputs), target))) == got


def test_a_chunk_checked_at_once_is_each_deck_checked_in_turn(folder: Path) -> None:
    """``Engine.check_items`` reads every deck of a chunk before it checks any (a speed path):
    the same reports as ``check_item`` of each in turn, and the same notes in the same order
    (a legacy encoding said when a deck is read, a "#format" line when its target is chosen),
    with a deck that cannot be read and one of another format among them."""
    from deckcheck import notes
    from deckcheck.engine import Engine
    from deckcheck.runners import Worker

    legal = (folder / "z.ydk").read_text(encoding="utf-8")
    (folder / "dm5.ydk").write_text("#format dm5\n" + legal, encoding="utf-8")
    (folder / "ja.txt").write_bytes("1 ブルーアイズ・ホワイト・ドラゴン\n".encode("shift_jis"))
    (folder / "junk.ydk").write_bytes(b"\x00\x01binary")
    items = [
        str(folder / n) for n in ("z.ydk", "dm5.ydk", "ja.txt", "junk.ydk", "b/x.YDK", "z.ydk")
    ]

    def checked(each: bool) -> tuple[list[object], list[str]]:
        said: list[str] = []
        old = notes.set_sink(said.append)
        try:
            request, engine = plan(
                items,
                items,
                format_id="dm6",
                date=DATE,
                jobs=1,
                deck_formats=True,
                engine=Engine.open(),
            )
            worker = Worker(request, engine)
            if each:
                got = [engine.check_item(i, request.target, worker.target_for) for i in items]
            else:
                got = engine.check_items(items, request.target, worker.target_for)
        finally:
            notes.set_sink(old)
        return got, said

    checked(each=True)  # the built-in sample's note is said once per process: said now
    one_by_one, said_one_by_one = checked(each=True)
    at_once, said_at_once = checked(each=False)
    assert at_once == one_by_one and said_at_once == said_one_by_one
    assert [r.format_id for r in at_once] == ["dm6", "dm5", "dm6", "dm6", "dm6", "dm6"]
    assert at_once[3].findings[0].code == "DC101" and not at_once[4].legal
    assert any("dm5" in n for n in said_at_once) and any("cp932" in n for n in said_at_once)


def test_walk_refuses_a_missing_path_before_any_report(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        walk((str(tmp_path / "gone.ydk"),))


def test_stream_feeds_the_renderer_and_counts(folder: Path) -> None:
    inputs = (str(folder / "z.ydk"), str(folder / "b"))
    request, engine = plan(
        inputs, walk(inputs), format_id="dm6", date=DATE, jobs=1, output=Output("json")
    )
    out, err = io.StringIO(), io.StringIO()
    renderer = render.make("json", out, err)
    renderer.start(request.meta())
    summary = stream(request, engine, renderer).summary
    renderer.finish(summary)
    data = json.loads(out.getvalue())
    assert summary.decks == 2 and summary.illegal == 1
    assert [Path(d["input"]).name for d in data["decks"]] == ["z.ydk", "x.YDK"]


# --------------------------------------------------------------------------- deck writer


def test_load_deck_reports_every_problem_and_renders_each_kind(tmp_path: Path) -> None:
    from deckcheck.deckout import deck_text, load_deck, save

    got = load_deck(str(EXAMPLES / "text" / "dm6-ja.txt"), want_db=True)
    assert not got.problems and got.db is not None and got.index is not None
    assert deck_text(got, "ydke", names=False, lang="en").startswith("ydke://")
    assert "#main" in deck_text(got, "ydk", names=True, lang="en")
    bad = tmp_path / "bad.ydk"
    bad.write_text("#main\n999999999\n")
    problems = load_deck(str(bad), check_passcodes=True).problems
    assert [f.code for f in problems] == ["DC102"]
    assert not save("x", "-") and not save("x", None)
    assert save("text\n", str(tmp_path / "o.ydk")) and (tmp_path / "o.ydk").read_text() == "text\n"


# --------------------------------------------------------------------------- renamed flags


def _run(args: list[str]) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, args, catch_exceptions=False, standalone_mode=False)
    return res.return_value, res.stdout, res.stderr


@pytest.mark.parametrize("cmd", [["build"], ["convert", "--to", "ydk"]])
@pytest.mark.parametrize("old", ["-o", "--output"])
def test_old_output_file_spelling_still_writes_with_a_note(
    tmp_path: Path, cmd: list[str], old: str
) -> None:
    src = str(EXAMPLES / "dm6" / "legal.ydk")
    new_out, old_out = tmp_path / "new.ydk", tmp_path / "old.ydk"
    rc, _, err = _run([*cmd, src, "--out", str(new_out)])
    assert rc == 0 and "deprecated" not in err
    rc, stdout, err = _run([*cmd, src, old, str(old_out)])
    assert rc == 0 and stdout == ""
    if cmd == ["build"] and old == "-o":
        # `build LIST.txt -o DECK.ydk` is the documented spelling: no note (issue 32)
        assert "deprecated" not in err, err
    elif cmd == ["build"]:
        assert "deprecated: --output is now --out" in err
    else:
        assert "deprecated: -o/--output is now --out" in err
    assert old_out.read_text() == new_out.read_text() != ""


def test_banlist_export_old_spelling_and_family_short_flag(tmp_path: Path) -> None:
    out = tmp_path / "dm6.conf"
    rc, _, err = _run(["banlist", "export", "dm6@2026-01-01", "-o", str(out)])
    assert rc == 0 and "deprecated: -o/--output-file is now --out" in err
    assert "2002.07 DM6" in out.read_text()
    rc, stdout, err = _run(["banlist", "list", "-f", "dm5"])
    assert rc == 0 and "deprecated: -f is now --family" in err
    assert stdout.split()[0] == "dm5" and "dm6" not in stdout
    rc, stdout2, err = _run(["banlist", "list", "--family", "dm5"])
    assert stdout2 == stdout and "deprecated" not in err


def test_card_search_old_limit_flag_and_new_one_wins() -> None:
    # One header row, then one row per card.
    rc, stdout, err = _run(["card", "search", "dragon", "-n", "2"])
    assert rc == 0 and len(stdout.splitlines()) == 1 + 2
    assert "deprecated: -n is now --limit" in err
    rc, stdout, _ = _run(["card", "search", "dragon", "-n", "2", "--limit", "3"])
    assert len(stdout.splitlines()) == 1 + 3
