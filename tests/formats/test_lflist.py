"""lflist.conf reading, naming and writing: hand-written dialect cases and every real list
under ../shared/data/banlists (counts checked against each folder's index.json)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from deckcheck.errors import InputError
from deckcheck.formats import lflist
from deckcheck.formats.catalog import ListStore
from deckcheck.formats.importer import import_lflists, read_lists
from tests.conftest import FIXTURES, SHARED_DATA

LF = FIXTURES / "lflist"
SOURCES = ("projectignis-lflists", "projectignis-lflists-unmerged-prs", "fluorohydride-ygopro")


def test_several_lists_with_sections_and_name_comments() -> None:
    lists = lflist.parse_file(LF / "two-lists.lflist.conf")
    assert [lf.name for lf in lists] == ["2024.09 TCG", "2024.4 OCG"]
    tcg = lists[0]
    assert [(e.id, e.count) for e in tcg.entries] == [
        (23434538, 0),
        (55144522, 0),
        (14558127, 1),
        (83764718, 2),
    ]
    assert tcg.entries[0].comment == 'Maxx "C"'
    assert not tcg.whitelist and not tcg.groups
    assert lists[1].entries[0].comment == "強欲な壺"


def test_ygopro_bom_crlf_fullwidth_header_no_final_newline_and_passcode_zero() -> None:
    (lf,) = lflist.parse_file(LF / "ygopro-crlf-bom.lflist.conf")
    assert lf.name == "2026.7"  # NFKC of the full-width header
    assert [(e.id, e.count) for e in lf.entries] == [(55144522, 0), (14558127, 2)]
    assert lflist.family_of(lf.name) == "ocg"
    assert lflist.date_of(lf.name) == (dt.date(2026, 7, 1), False)


def test_speed_limited_sections_become_groups_and_whitelist() -> None:
    (lf,) = lflist.parse_file(LF / "speed.lflist.conf")
    b = lflist.to_banlist(lf, family="speed", effective=dt.date(2025, 7, 1))
    assert b.mode == "whitelist"
    groups = {g.name: (g.limit, set(g.cards)) for g in b.groups}
    assert groups == {
        "Limited 1": (1, {5318639, 19230408}),
        "Limited 2": (2, {83764718}),
        "Limited 3": (3, {14087893}),
    }
    # Cards before the first "#Limited N" section belong to no group.
    assert b.limits[55144522] == 3 and b.limits[300307012] == 0
    assert b.limit_of(99999999) == 0  # whitelist: unlisted is out


def test_genesys_numbers_are_points_not_limits() -> None:
    (lf,) = lflist.parse_file(LF / "genesys.lflist.conf")
    b = lflist.to_banlist(lf, family="genesys", effective=dt.date(2026, 3, 1))
    assert b.points == {77202120: 1, 14558127: 100}
    assert b.limits == {}


def test_minus_one_reads_as_forbidden_and_glued_comment() -> None:
    (lf,) = lflist.parse("!2026.01.01 Rush Prereleases\n1 -1\n35371948 2--Trickstar Light Stage\n")
    assert [(e.id, e.count, e.comment) for e in lf.entries] == [
        (1, -1, ""),
        (35371948, 2, "Trickstar Light Stage"),
    ]
    b = lflist.to_banlist(lf, family="rush-prerelease", effective=dt.date(2026, 1, 1))
    assert b.limits == {1: 0, 35371948: 2}


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("!x\n123 abc\n", 2, "not an entry"),
        ("123 3\n", 1, "before any '!name'"),
        ("$whitelist\n!x\n", 1, "before any '!name'"),
        ("!x\nhello there\n", 2, "not an entry"),
    ],
)
def test_bad_lines_name_file_and_line(text: str, line: int, words: str) -> None:
    with pytest.raises(InputError) as err:
        lflist.parse(text, "f.conf")
    assert err.value.where == f"f.conf:{line}"
    assert words in err.value.message


@pytest.mark.parametrize(
    "name, family, date, exact",
    [
        ("2024.09 TCG", "tcg", dt.date(2024, 9, 1), False),
        ("2026.07 OCG", "ocg", dt.date(2026, 7, 1), False),
        ("2026.5 TCG", "tcg", dt.date(2026, 5, 1), False),
        ("2011.3.1", "ocg", dt.date(2011, 3, 1), True),
        ("2025.01 World", "world", dt.date(2025, 1, 1), False),
        ("2024.01 TRADITIONAL", "traditional", dt.date(2024, 1, 1), False),
        ("2024.01 OCG-Korea", "ocg-korea", dt.date(2024, 1, 1), False),
        ("2025.07 Speed Duel", "speed", dt.date(2025, 7, 1), False),
        ("2005.4 GOAT", "goat", dt.date(2005, 4, 1), False),
        ("2025.07.01 Rush Duel", "rush", dt.date(2025, 7, 1), True),
        ("2025.07.01 Rush Prereleases", "rush-prerelease", dt.date(2025, 7, 1), True),
        ("2026.06.08 Genesys", "genesys", dt.date(2026, 6, 8), True),
        ("2022-1-18 Master Duel", "master-duel", dt.date(2022, 1, 18), True),
    ],
)
def test_family_and_date_from_names(name: str, family: str, date: dt.date, exact: bool) -> None:
    assert lflist.family_of(name) == family
    assert lflist.date_of(name) == (date, exact)


def test_folder_name_is_a_family_hint() -> None:
    assert lflist.family_of("Untitled Banlist") is None
    assert lflist.family_of("Untitled Banlist", Path("x/World/a.lflist.conf")) == "world"


def test_writer_round_trip_keeps_entries_groups_points() -> None:
    for fixture in ("two-lists", "speed", "genesys"):
        lists = lflist.parse_file(LF / f"{fixture}.lflist.conf")
        before = [lflist.to_banlist(lf, family="x", effective=dt.date(2020, 1, 1)) for lf in lists]
        again = lflist.parse(lflist.write(before), "written")
        after = [lflist.to_banlist(lf, family="x", effective=dt.date(2020, 1, 1)) for lf in again]
        for a, b in zip(before, after, strict=True):
            assert (a.name, a.mode, a.limits, a.points) == (b.name, b.mode, b.limits, b.points)
            assert {(g.name, g.limit, g.cards) for g in a.groups} == {
                (g.name, g.limit, g.cards) for g in b.groups
            }


# --------------------------------------------------------------------------- real data


def _index_lists(source: str) -> list[dict[str, object]]:
    if SHARED_DATA is None:
        return []
    return json.loads((SHARED_DATA / "banlists" / source / "index.json").read_text())["lists"]  # type: ignore[no-any-return]


REAL = [(s, rec) for s in SOURCES for rec in _index_lists(s)]


@pytest.mark.realdata
@pytest.mark.parametrize("source, rec", REAL, ids=[f"{s}:{r['file']}" for s, r in REAL])
def test_every_real_list_parses_with_index_counts(
    shared_data: Path, source: str, rec: dict[str, object]
) -> None:
    path = shared_data / "banlists" / source / str(rec["file"])
    (lf,) = lflist.parse_file(path)
    counts = [e.count for e in lf.entries]
    got = {
        "entries": len(counts),
        "forbidden": counts.count(0),
        "limited": counts.count(1),
        "semi_limited": counts.count(2),
        "unlimited": counts.count(3),
        "other_counts": sum(c not in (0, 1, 2, 3) for c in counts),
        "whitelist": lf.whitelist,
    }
    assert got == {k: rec[k] for k in got}
    assert lflist.family_of(lf.name, path) is not None


@pytest.mark.realdata
def test_real_list_count_is_complete(shared_data: Path) -> None:
    assert len(REAL) == 169 + 23 + 105


@pytest.mark.realdata
def test_upstream_head_files(shared_data: Path) -> None:
    banlists = shared_data / "banlists"
    ygopro = lflist.parse_file(banlists / "fluorohydride-ygopro/upstream-head/lflist.conf")
    assert len(ygopro) == 102
    fams = [lflist.family_of(lf.name) for lf in ygopro]
    assert fams.count("ocg") == 55 and fams.count("tcg") == 47
    for p in sorted((shared_data / "banlists/projectignis-lflists/upstream-head").glob("*.conf")):
        assert len(lflist.parse_file(p)) == 1, p
    (speed,) = lflist.parse_file(banlists / "projectignis-lflists/upstream-head/Speed.lflist.conf")
    assert sorted(speed.groups.items()) == [("Limited 1", 1), ("Limited 2", 2), ("Limited 3", 3)]


@pytest.mark.realdata
def test_import_export_import_gives_the_same_entries(shared_data: Path, tmp_path: Path) -> None:
    pi = shared_data / "banlists" / "projectignis-lflists"
    confs = sorted(p for p in pi.glob("*/*.lflist.conf"))
    first = import_lflists(confs, dest=tmp_path / "a")
    assert len(first.lists) >= 160
    store = ListStore([tmp_path / "a"], cache_dir=tmp_path / "cache")
    exported = tmp_path / "all.lflist.conf"
    exported.write_text(lflist.write(store.all_lists()), encoding="utf-8")
    again = {(b.family, b.effective): b for b, _ in read_lists([exported])}
    for b in store.all_lists():
        c = again[(b.family, b.effective)]
        assert (c.name, c.mode, c.limits, c.points) == (b.name, b.mode, b.limits, b.points), b.name
        assert {(g.limit, g.cards) for g in c.groups} == {(g.limit, g.cards) for g in b.groups}
    # Re-importing the same files changes nothing.
    second = import_lflists(confs, dest=tmp_path / "a")
    assert second.written == [] and len(second.unchanged) == len(first.lists)


# --------------------------------------------------------------------------- properties

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from deckcheck.model import Banlist  # noqa: E402

_names = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30).map(
    lambda s: " ".join(s.split())  # a comment keeps its words, not its line breaks or padding
)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses_or_fails_with_one_input_error(text: str) -> None:
    try:
        lflist.parse(text, "fuzz")
    except InputError as exc:
        assert exc.where and exc.where.startswith("fuzz:")


@settings(max_examples=100, deadline=None)
@given(
    entries=st.dictionaries(
        st.integers(1, 999_999_999), st.tuples(st.integers(0, 3), _names), max_size=30
    ),
    whitelist=st.booleans(),
    name=_names.filter(lambda s: s != ""),
)
def test_write_then_parse_gives_the_same_list(
    entries: dict[int, tuple[int, str]], whitelist: bool, name: str
) -> None:
    b = Banlist(
        name=name,
        family="x",
        effective=dt.date(2020, 1, 1),
        mode="whitelist" if whitelist else "blacklist",
        limits={c: lim for c, (lim, _) in entries.items()},
        names={c: n for c, (_, n) in entries.items() if n},
    )
    (lf,) = lflist.parse(lflist.write([b]), "written")
    again = lflist.to_banlist(lf, family="x", effective=b.effective)
    # Headers fold YGOPro's full-width forms on read ("！２０２６.７" is "!2026.7"), by design.
    folded = b.name.translate(lflist._FULLWIDTH).strip()
    assert (again.name, again.mode, again.limits) == (folded, b.mode, b.limits)
    assert again.names == {c: n.strip() for c, n in b.names.items() if n.strip()}
