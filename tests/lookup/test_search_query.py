"""The card search language: parsing and its errors (no data), and evaluation against the
real card database, with the expected sets computed straight from the cards table."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from deckcheck import search
from deckcheck.cli import cli, main
from deckcheck.search.query import And, Not, Or, QueryError, Term, is_query, parse

SYNCHRO, MONSTER, TRAP, LINK, XYZ, PENDULUM = 0x2000, 0x1, 0x4, 0x4000000, 0x800000, 0x1000000
DARK = 0x20


def test_parse_shapes() -> None:
    node = parse("t:synchro attr:dark atk>=2500")
    assert isinstance(node, And) and [t.key for t in node.nodes] == ["type", "attr", "atk"]  # type: ignore[union-attr]
    node = parse("t:spell or -t:trap")
    assert isinstance(node, Or) and isinstance(node.nodes[1], Not)
    node = parse('(lv:4 or rank:4) "blue-eyes"')
    assert isinstance(node, And) and isinstance(node.nodes[0], Or)
    t = parse("limit:tcg=1")
    assert isinstance(t, Term) and (t.key, t.op, t.value, t.arg) == ("limit", "=", 1, "tcg")
    t = parse("released:tcg<2010")
    assert isinstance(t, Term) and (t.arg, t.op, t.value) == ("tcg", "<", dt.date(2010, 1, 1))


@pytest.mark.parametrize(
    ("text", "term", "why"),
    [
        ("atk>=abc", "atk>=abc", "whole number"),
        ("t:foo", "t:foo", "unknown type"),
        ("attr:blue", "attr:blue", "unknown attribute"),
        ("zzz:1", "zzz:1", "unknown key"),
        ("(t:trap", "(", "unclosed"),
        ("limit:tcg", "limit:tcg", "limit:FAMILY=N"),
        ("released<20x", "released<20x", "not a date"),
        ("t:trap or", "or", "nothing after"),
        ("t>trap", "t>trap", "compared with"),
        ('"ash', '"ash', "unclosed quote"),
    ],
)
def test_errors_name_the_term_and_the_reason(text: str, term: str, why: str) -> None:
    with pytest.raises(QueryError) as exc:
        parse(text)
    assert exc.value.term == term and why in str(exc.value) and exc.value.exit_code == 2


def test_plain_names_are_not_queries() -> None:
    assert not is_query("ash blossom") and not is_query("Blue-Eyes White Dragon")
    assert not is_query('Maxx "C"') and not is_query("-")
    assert is_query("t:trap") and is_query("ash or veiler") and is_query("-t:spell")


def test_query_error_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["card", "search", "t:synchro atk>=x"]) == 2
    assert "search term 'atk>=x': ATK wants a whole number" in capsys.readouterr().err


pytestmark = pytest.mark.realdata


def _expected(db_path: Path, where: str) -> set[int]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        sql = f"SELECT id FROM cards WHERE name_key = id AND ({where})"
        return {r[0] for r in conn.execute(sql)}
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("query", "where"),
    [
        (
            "t:synchro attr:dark atk>=2500",
            (
                f"type_bits & {SYNCHRO} AND type_bits & {MONSTER} AND attribute = {DARK}"
                " AND atk >= 2500"
            ),
        ),
        ("t:trap", "kind = 'trap'"),
        ("link:3", f"type_bits & {MONSTER} AND type_bits & {LINK} AND (level & 65535) = 3"),
        (
            "lv:4 race:dragon",
            (
                f"type_bits & {MONSTER} AND NOT type_bits & {LINK | XYZ} "
                "AND (level & 65535) = 4 AND race & 8192"
            ),
        ),
        ("def<1000 -t:link", f"type_bits & {MONSTER} AND NOT type_bits & {LINK} AND def < 1000"),
        ("scale>=5", f"type_bits & {PENDULUM} AND ((level >> 24) & 255) >= 5"),
        ("t:trap or t:synchro", f"kind = 'trap' OR (type_bits & {SYNCHRO})"),
    ],
)
def test_query_matches_the_cards_table(
    real_db: Any,
    real_index: Any,
    query: str,
    where: str,
) -> None:
    got = {r.id for r in search.run(query, real_db, real_index, dt.date(2026, 8, 1))}
    want = _expected(real_db.path, where)
    assert want and got == want


def test_synchro_query_through_the_cli(on_real_home: Path, real_db: Any) -> None:
    res = CliRunner().invoke(
        cli,
        ["card", "search", "t:synchro attr:dark atk>=2500", "--limit", "0", "-o", "json"],
        standalone_mode=False,
    )
    assert res.return_value == 0
    data = json.loads(res.stdout)
    cards = data["cards"]
    want = _expected(
        real_db.path,
        f"type_bits & {SYNCHRO} AND type_bits & {MONSTER} AND attribute = {DARK} AND atk >= 2500",
    )
    assert {c["id"] for c in cards} == want and data["total"] == len(want)
    assert all(
        c["attribute"] == "DARK" and "synchro" in c["type"] and c["atk"] >= 2500 for c in cards
    )
    levels = [c["level"] for c in cards if "xyz" not in c["type"]]  # Z-ARC (Anime) has a rank
    assert levels and all(type(v) is int and v > 0 for v in levels)  # it was a string
    text = (
        CliRunner()
        .invoke(cli, ["card", "search", "t:synchro attr:dark atk>=2500"], standalone_mode=False)
        .stdout.splitlines()
    )
    assert text[0].split() == ["ID", "NAME", "TYPE", "ATTR", "RACE", "LV", "ATK", "DEF", "SCOPE"]
    assert len(text) == 11  # header + the default --limit of 10


def test_json_levels_ranks_and_link_ratings_are_numbers(on_real_home: Path, real_db: Any) -> None:
    # issue 32: card search -o json gave "level": "4" / "R4" / "L2"
    res = CliRunner().invoke(
        cli,
        ["card", "search", "(t:xyz or t:link) atk>=3000", "--limit", "0", "-o", "json"],
        standalone_mode=False,
    )
    assert res.return_value == 0
    cards = json.loads(res.stdout)["cards"]
    with sqlite3.connect(real_db.path) as con:
        stars = dict(con.execute("SELECT id, level & 0xff FROM cards"))
    xyz = [c for c in cards if "xyz" in c["type"]]
    link = [c for c in cards if "link" in c["type"]]
    assert xyz and link
    assert all(c["rank"] == stars[c["id"]] and "level" not in c for c in xyz)
    assert all(c["link"] == stars[c["id"]] and "level" not in c for c in link)


@pytest.fixture
def on_real_home(
    lookup_home_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> Path:
    monkeypatch.setenv("DECKCHECK_HOME", str(lookup_home_dir))
    monkeypatch.setenv("DECKCHECK_CACHE", str(tmp_path / "cache"))
    return lookup_home_dir


def test_list_and_format_terms(
    on_real_home: Path,
    real_db: Any,
    real_index: Any,
) -> None:
    from deckcheck.formats.catalog import ListStore

    day = dt.date(2026, 8, 1)
    bl = ListStore.default().in_force("ocg", day)
    assert bl is not None
    banned = {r.id for r in search.run("banned:ocg", real_db, real_index, day)}
    assert banned and all(bl.limit_of(c) == 0 for c in banned)
    limited = {r.id for r in search.run("limit:tcg=1", real_db, real_index, day)}
    tcg = ListStore.default().in_force("tcg", day)
    assert limited == {r for r in limited if tcg.limit_of(r) == 1} and limited
    pool = {r.id for r in search.run("f:tcg t:spell", real_db, real_index, day)}
    assert 55144522 in pool  # Pot of Greed: in the pool (Forbidden is a list status)
    assert 55144522 not in {r.id for r in search.run("legal:tcg t:spell", real_db, real_index, day)}
    rush = {r.id for r in search.run("f:tcg", real_db, real_index, day)}
    assert not any(c >= 160000000 and c < 170000000 for c in rush)


def test_released_without_release_data_says_so(real_db: Any, real_index: Any) -> None:
    notes: list[str] = []
    search.run("released<2010-01-01 t:trap", real_db, real_index, dt.date(2026, 8, 1), notes.append)
    if not callable(getattr(real_db, "first_release", None)):
        assert notes and "release data is not installed" in notes[0]
