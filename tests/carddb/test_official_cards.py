"""Official card data: yaml-yugi and YGOJSON importers, the CardDB API over them, and the
pool rules (DC501/DC502) that follow real printings and release dates."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
import sqlite3
import zipfile
from pathlib import Path
from typing import Any

import pytest

from deckcheck.carddb import open_db
from deckcheck.carddb.importer import import_files
from deckcheck.carddb.yamlyugi import split_ruby
from deckcheck.cli import main
from deckcheck.errors import EXIT_ERROR, InputError
from deckcheck.model import Scope
from tests.builders import tiny_cdb
from tests.conftest import FIXTURES

OFF = FIXTURES / "official"


def zip_tree(src: Path, dest: Path, top: str | None) -> Path:
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(src.rglob("*")):
            if f.is_file():
                rel = f.relative_to(src).as_posix()
                z.write(f, f"{top}/{rel}" if top else rel)
    return dest


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --------------------------------------------------------------------------- yaml-yugi


def test_ruby_markup_splits_into_name_and_reading() -> None:
    assert split_ruby("<ruby>灰<rt>は</rt></ruby><ruby>流<rt>る</rt></ruby>うらら") == (
        "灰流うらら",
        "はるうらら",
    )
    assert split_ruby("SPYRAL－<ruby>ボルテックス<rt>vortex</rt></ruby>") == (
        "SPYRAL－ボルテックス",
        "SPYRAL－vortex",
    )
    assert split_ruby("하루 우라라") == ("하루 우라라", None)


def test_yaml_yugi_cards_map_konami_ids_names_and_prerelease_ids(tiny_card_db: Path) -> None:
    notes: list[str] = []
    s = import_files([OFF / "cards.json"], db_path=tiny_card_db, note=notes.append)
    (res,) = s.files
    assert (res.kind, res.rows, res.mapped) == ("yaml-yugi-cards", 9, 7)
    assert res.unmapped == {
        "konami_id_without_passcode": 1,
        "passcode_not_in_db": 1,
        "no_identity": 1,
    }
    assert s.notes == tuple(notes) and len(notes) == 4
    assert any("1 Konami id(s) without a passcode" in n and "23428" in n for n in notes)
    assert any("87654321 Missing Everywhere" in n for n in notes)
    assert any("Nameless Zeta" in n and "neither passcode nor Konami id" in n for n in notes)
    assert any("1 official English name(s) differ" in n and "10000080" in n for n in notes)
    db = open_db(tiny_card_db)
    # the cdb's English name stays the one English name (display and lookup unchanged)
    assert db.names(10000080)["en"] == ["The Winged Dragon of Ra (Sphere Mode)"]
    assert db.passcodes_for_konami(4837) == [24094653, 27847700]
    assert db.passcodes_for_konami(10000) == [10000]  # no leading zeros in yaml-yugi
    assert db.passcodes_for_konami(11927) == [10000080]  # fake_password: YGOPro placeholder
    assert db.passcodes_for_konami(23428) == []
    assert db.passcodes_for_konami(12950, kind="rush") == []
    with pytest.raises(ValueError):
        db.passcodes_for_konami(12950, kind="speed")
    assert db.konami_id(14558127) == 12950
    assert db.konami_id(14558128) == 12950  # an alternate artwork is the same Konami card
    # official names, ruby stripped, readings kept as readings (kana and romanizations)
    names = db.names(14558127)
    assert names["ja"] == ["灰流うらら"]
    assert set(names["ja_reading"]) == {"はるうらら", "Haru Urara"}
    assert names["ko"] == ["하루 우라라"] and names["zh-CN"] == ["灰流丽"]
    assert names["de"] == ["Aschenblüte & Freudiger Frühling"]
    # EDOPro's prerelease row stands for the official passcode it does not have yet
    assert db.official_passcode(100200001) == 12345678
    assert db.prerelease_passcodes(12345678) == [100200001]
    assert db.konami_id(100200001) == 22000
    assert db.official_passcode(14558127) is None
    assert "Prerelease Only" in db.names(100200002)["en"]


def test_rush_and_skill_objects_link_by_english_name(tiny_card_db: Path) -> None:
    notes: list[str] = []
    s = import_files(
        [OFF / "rush.json", OFF / "skill.json"], db_path=tiny_card_db, note=notes.append
    )
    rush, skill = s.files
    assert (rush.kind, rush.rows, rush.mapped, rush.unmapped) == (
        "yaml-yugi-rush",
        3,
        2,
        {"no_name_match": 1},
    )
    assert (skill.kind, skill.rows, skill.mapped) == ("yaml-yugi-skill", 2, 1)
    assert any("No Such Rush Card (Konami id 19999)" in n for n in notes)
    assert any("Unknown Skill" in n for n in notes)
    db = open_db(tiny_card_db)
    # EDOPro adds " (Rush)" where an OCG card has the name; both Rush printings map
    assert db.passcodes_for_konami(15184, kind="rush") == [160001000, 160205001]
    assert db.passcodes_for_konami(15213, kind="rush") == [160001015]
    assert db.names(160001000)["ja"] == ["青眼の白龍"]
    assert db.names(160001000)["en"] == ["Blue-Eyes White Dragon (Rush)"]  # not ambiguous
    assert db.names(300000001)["de"] == ["Ruf der Gejagten"]


def test_kind_is_detected_by_content_not_by_file_name(tiny_card_db: Path, tmp_path: Path) -> None:
    odd = tmp_path / "download.bin"
    shutil.copy(OFF / "rush.json", odd)
    zipped = zip_tree(OFF / "ygojson", tmp_path / "whatever.dat", None)
    s = import_files([zipped, odd], db_path=tiny_card_db)
    assert [f.kind for f in s.files] == ["yaml-yugi-rush", "ygojson"]  # dependency order


# --------------------------------------------------------------------------- YGOJSON


@pytest.mark.parametrize("layout", ["folder", "zip", "zip-top-folder"])
def test_ygojson_earliest_release_per_region(
    layout: str, tiny_card_db: Path, tmp_path: Path
) -> None:
    src = OFF / "ygojson"
    if layout == "zip":
        src = zip_tree(src, tmp_path / "individual.zip", None)
    elif layout == "zip-top-folder":
        src = zip_tree(src, tmp_path / "individual.zip", "YGOJSON-v1-individual")
    notes: list[str] = []
    s = import_files([src], db_path=tiny_card_db, note=notes.append)
    assert s.files[0].kind == "ygojson"
    db = open_db(tiny_card_db)
    ash = db.releases(14558127)
    # OCG = jp; TCG = earliest TCG locale with a date (pt before de; en has none); the kr
    # locale has no date, so no Korean release; Master Duel from the virtual set's date
    assert ash == {
        "ocg": (dt.date(2017, 1, 14), "Maximum Crisis"),
        "tcg": (dt.date(2017, 5, 4), "Maximum Crisis"),
        "masterduel": (dt.date(2024, 2, 7), "Name of Champions"),
    }
    assert db.first_release(14558127, "jp") == dt.date(2017, 1, 14)
    assert db.first_release(14558127, "kr") is None
    assert db.first_release_set(14558127, "tcg") == "Maximum Crisis"
    assert db.release_regions(14558127) == ["ocg", "tcg", "masterduel"]
    # images[].password with an HTML comment glued on: leading digits
    assert db.releases(14558128) == ash
    # "00010000": leading zeros; the later reprint does not move the first TCG date
    assert db.first_release(10000, "tcg") == dt.date(2017, 5, 4)
    assert db.first_release(10000, "ocg") is None
    with pytest.raises(ValueError):
        db.first_release(10000, "mars")
    assert notes == []  # every passcode of the tree is in the tiny cdb


def test_card_records_follow_real_printings(tiny_card_db: Path) -> None:
    import_files([OFF / "ygojson"], db_path=tiny_card_db)
    db = open_db(tiny_card_db)
    ten = db.get(10000)
    assert ten is not None
    assert ten.scopes & Scope.TCG and ten.scopes & Scope.OCG  # printed in the TCG: not stale
    assert ten.tcg_date == dt.date(2017, 5, 4) and ten.ocg_date is None
    ash = db.get(14558127)
    assert ash is not None and ash.tcg_date == dt.date(2017, 5, 4)
    speed = db.get(44444444)
    assert speed is not None and speed.scopes == Scope.SPEED  # not made an Advanced card
    # another OCG/TCG row of the same card shares its releases; a Rush reprint does not
    tcg_row = db.get(14558137)
    assert tcg_row is not None and tcg_row.alias_kind == "treated_as"
    assert tcg_row.scopes & Scope.OCG and tcg_row.ocg_date == dt.date(2017, 1, 14)
    rush = db.get(160009999)
    assert rush is not None and rush.ocg_date is None and db.releases(160009999) == {}
    assert db.releases(14558137) == db.releases(14558127)


def test_sample_and_databases_without_official_data_answer_empty(tiny_card_db: Path) -> None:
    from deckcheck.carddb import sample

    for db in (sample.open_sample(), open_db(tiny_card_db)):
        assert db.first_release(14558127, "tcg") is None
        assert db.releases(14558127) == {}
        assert db.release_regions(14558127) == []
        assert db.passcodes_for_konami(12950) == []
        assert db.konami_id(14558127) is None
        assert db.official_passcode(100200001) is None


def test_a_cdb_imported_later_keeps_the_official_data(tiny_card_db: Path, tmp_path: Path) -> None:
    first = import_files([OFF / "cards.json", OFF / "ygojson"], db_path=tiny_card_db)
    again = import_files([tiny_cdb(tmp_path / "again.cdb")], db_path=tiny_card_db)
    assert again.fingerprint != first.fingerprint  # a new cdb source
    db = open_db(tiny_card_db)
    assert db.passcodes_for_konami(4837) == [24094653, 27847700]
    assert db.first_release(14558127, "ocg") == dt.date(2017, 1, 14)


def test_official_import_changes_the_fingerprint(tiny_card_db: Path) -> None:
    before = open_db(tiny_card_db).fingerprint
    after = import_files([OFF / "skill.json"], db_path=tiny_card_db).fingerprint
    assert after != before


def test_db_import_command_prints_counts_and_notes(
    tiny_card_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "import", str(OFF / "cards.json"), str(OFF / "ygojson")]) == 0
    out, err = capsys.readouterr()
    assert "yaml-yugi-cards: 9 records, 7 mapped, 3 not mapped" in out
    assert "ygojson:" in out
    assert "deckcheck: note:" in err and "87654321" in err
    assert main(["db", "info", "-o", "json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["official"]["konami_ids"] == {"ocg_tcg": 7}
    assert {s["kind"] for s in info["official"]["sources"]} == {"yaml-yugi-cards", "ygojson"}
    assert info["official"]["releases"]["tcg"] == 4
    assert main(["db", "info"]) == 0
    assert "official: releases" in capsys.readouterr().out


# --------------------------------------------------------------------------- refusals


def test_official_data_into_an_empty_home_is_refused(
    isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "import", str(OFF / "cards.json")]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        (
            f"deckcheck: error: {OFF / 'cards.json'}: import a cards.cdb first: official data is "
            "attached to the cards of an installed database"
        )
    ]
    assert not (isolated_home / "cards.sqlite3").exists()


def test_cdb_and_official_data_in_one_import_into_an_empty_home(
    isolated_home: Path, tmp_path: Path
) -> None:
    db = isolated_home / "cards.sqlite3"
    import_files([OFF / "cards.json", tiny_cdb(tmp_path / "c.cdb")], db_path=db)
    assert open_db(db).passcodes_for_konami(12950) == [14558127]


@pytest.mark.parametrize(
    ("name", "where", "message"),
    [
        ("syntax.json", "syntax.json:3", "malformed JSON"),
        (
            "string_password.json",
            "string_password.json",
            "[0].password: expected an integer or null, got '00000001'",
        ),
        (
            "name_not_object.json",
            "name_not_object.json",
            "[1].name: expected an object of names by language",
        ),
        ("object.json", "object.json", "a JSON object: expected a yaml-yugi array"),
        ("other_array.json", "other_array.json", "not yaml-yugi cards/rush/skill objects"),
    ],
)
def test_malformed_official_files_are_one_clear_error(
    name: str, where: str, message: str, tiny_card_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sha(tiny_card_db)
    assert main(["db", "import", str(OFF / "cards.json"), str(OFF / "bad" / name)]) == EXIT_ERROR
    err = capsys.readouterr().err
    (line,) = err.strip().splitlines()
    assert line.startswith(f"deckcheck: error: {OFF / 'bad'}/{where}: ")
    assert message in line
    assert sha(tiny_card_db) == before  # nothing written, not even the good file


def test_broken_ygojson_trees_name_the_file_and_key(tiny_card_db: Path, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(OFF / "ygojson", tree)
    bad = tree / "sets" / "5e700000-0000-0000-0000-000000000003.json"
    doc = json.loads(bad.read_text())
    doc["locales"]["en"]["date"] = "08/10/2015"
    bad.write_text(json.dumps(doc))
    with pytest.raises(InputError) as exc:
        import_files([tree], db_path=tiny_card_db)
    assert exc.value.where == str(bad)
    assert "locales.en.date: expected a YYYY-MM-DD date" in exc.value.message
    bad.write_text('{"id": "x", "contents": [}')
    with pytest.raises(InputError) as exc:
        import_files([zip_tree(tree, tmp_path / "t.zip", "top")], db_path=tiny_card_db)
    assert exc.value.where == f"{tmp_path / 't.zip'}/top/sets/{bad.name}:1"
    # a zip or folder of something else
    other = tmp_path / "other"
    (other / "x").mkdir(parents=True)
    (other / "x" / "a.json").write_text("[]")
    with pytest.raises(InputError, match="not the YGOJSON individual layout"):
        import_files([other], db_path=tiny_card_db)
    with pytest.raises(InputError, match="not the YGOJSON individual layout"):
        import_files([zip_tree(other, tmp_path / "o.zip", None)], db_path=tiny_card_db)


# --------------------------------------------------------------------------- real data

REAL = pytest.mark.realdata


def _staged(shared: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of the staging tables of ../shared/data/cards/cards.cdb: an independent build of
    the same data (README 1.2), used here as the oracle, never as an input."""
    conn = sqlite3.connect(f"file:{shared / 'cards' / 'cards.cdb'}?mode=ro", uri=True)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def _db(official_import: tuple[Path, Any]) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{official_import[0] / 'cards.sqlite3'}?mode=ro", uri=True)


@REAL
def test_real_yaml_yugi_identity_counts(
    official_import: tuple[Path, Any], shared_data: Path
) -> None:
    conn = _db(official_import)
    by_how = dict(
        conn.execute(
            "SELECT how, count(*) FROM konami_ids WHERE kind = 'ocg_tcg' GROUP BY how"
        ).fetchall()
    )
    assert by_how["password"] == 14_210  # README 5.1: password and Konami id
    assert by_how["fake_password"] == 8
    db = open_db(official_import[0] / "cards.sqlite3")
    assert db.passcodes_for_konami(4837) == [24094653, 27847700]
    assert db.passcodes_for_konami(4041) == [36996508, 46986414]
    summary = official_import[1]
    cards = next(f for f in summary.files if f.kind == "yaml-yugi-cards")
    assert cards.rows == 14_276
    assert cards.unmapped["konami_id_without_passcode"] == 1  # 9 id-only, 8 with fake_password
    rush = next(f for f in summary.files if f.kind == "yaml-yugi-rush")
    assert rush.rows == 3_147 and rush.mapped + rush.unmapped["no_name_match"] == 3_147
    # README 1.2: 3,093 matched by name, 54 not; our match is the same rule within a few
    assert rush.mapped >= 3_080
    assert any("Rush row of the same English name" in n for n in summary.notes)
    staged = {
        tuple(r)
        for r in _staged(shared_data, "SELECT konami_id, id FROM konami_ids WHERE kind = 'rush'")
    }
    mine = set(conn.execute("SELECT konami_id, card_id FROM konami_ids WHERE kind = 'rush'"))
    assert len(mine & staged) >= 0.99 * len(staged)


@REAL
def test_real_ygojson_coverage_matches_readme(official_import: tuple[Path, Any]) -> None:
    conn = _db(official_import)
    pw = "(SELECT card_id FROM konami_ids WHERE kind = 'ocg_tcg' AND how = 'password')"
    per = dict(
        conn.execute(
            f"SELECT region, count(*) FROM releases WHERE card_id IN {pw} GROUP BY region"
        ).fetchall()
    )
    # README 5.2 "Coverage, using the 14,210 yaml-yugi passwords"
    assert per["ocg"] == 13_622 and per["tcg"] == 13_335
    assert (per["masterduel"], per["duellinks"]) == (9_551, 7_194)
    assert (per["kr"], per["sc"], per["ae"]) == (13_124, 6_638, 5_186)
    either = conn.execute(
        f"SELECT count(DISTINCT card_id) FROM releases WHERE card_id IN {pw} "
        "AND region IN ('ocg', 'tcg')"
    ).fetchone()[0]
    assert either == 13_734


@REAL
def test_real_games_are_known_without_reading_every_game_row(
    official_import: tuple[Path, Any],
) -> None:
    conn = _db(official_import)
    rows = conn.execute("SELECT count(*) FROM game_cards").fetchone()[0]
    assert rows > 10_000  # the real table: what `SELECT DISTINCT game` read on every command
    db = open_db(official_import[0] / "cards.sqlite3")
    steps = [0]

    def step() -> int:
        steps[0] += 1
        return 0  # go on

    db._conn.set_progress_handler(step, 100)  # called every 100 SQLite VM instructions
    assert db.games == {"masterduel", "duellinks"}
    assert steps[0] < 5, steps  # two index lookups; a scan of the rows takes thousands
    db._conn.set_progress_handler(None, 0)
    # the handler counts a scan: the check above can fail
    conn.set_progress_handler(step, 100)
    conn.execute("SELECT DISTINCT game FROM game_cards").fetchall()
    assert steps[0] > rows // 100


@REAL
def test_real_release_dates_agree_with_the_staged_build(
    official_import: tuple[Path, Any], shared_data: Path
) -> None:
    conn = _db(official_import)
    for region in ("ocg", "tcg", "kr", "masterduel", "duellinks"):
        theirs = dict(
            _staged(
                shared_data, "SELECT id, first_date FROM release_dates WHERE region = ?", (region,)
            )
        )
        mine = dict(
            conn.execute(
                "SELECT card_id, first_date FROM releases WHERE region = ?", (region,)
            ).fetchall()
        )
        assert set(theirs) <= set(mine), region
        assert {k: mine[k] for k in theirs} == theirs, region


@REAL
def test_real_prerelease_mapping(official_import: tuple[Path, Any], shared_data: Path) -> None:
    staged = {
        tuple(r)
        for r in _staged(
            shared_data,
            "SELECT to_id, from_id FROM id_map WHERE kind = 'official_to_edopro_prerelease'",
        )
    }
    mine = set(_db(official_import).execute("SELECT edopro_id, official_id FROM official_ids"))
    assert len(mine) >= 80 and len(mine & staged) >= len(staged) - 2


def _deck(tmp_path: Path, *ids: int) -> Path:
    p = tmp_path / "deck.ydk"
    p.write_text("#main\n" + "".join(f"{i}\n" for i in ids) + "#extra\n!side\n")
    return p


def _list_for(fmt: str, date: str) -> list[str]:
    """``--banlist`` of the YGOPro history list in force on ``date`` (the installed
    ProjectIgnis lists start in 2020; Ash Blossom was released in 2017)."""
    from tests.conftest import SHARED_DATA

    assert SHARED_DATA is not None
    folder = SHARED_DATA / "banlists" / "fluorohydride-ygopro" / fmt.upper()
    dated = []
    for f in folder.glob("*.lflist.conf"):
        parts = f.name.split(" ")[0].removesuffix(".lflist.conf").split(".")
        y, m, d = (int(x) for x in ([*parts, "1", "1"])[:3])
        dated.append((dt.date(y, m, d), f))
    when = dt.date.fromisoformat(date)
    return ["--banlist", str(max(x for x in dated if x[0] <= when)[1])]


def _codes(
    capsys: pytest.CaptureFixture[str], deck: Path, fmt: str, date: str, old: bool = False
) -> set[tuple[str, int]]:
    capsys.readouterr()
    extra = _list_for(fmt, date) if old else []
    main(["validate", "-o", "json", "--format", fmt, "--date", date, *extra, str(deck)])
    doc = json.loads(capsys.readouterr().out)
    return {
        (f["code"], (f.get("card") or {}).get("id")) for d in doc["decks"] for f in d["findings"]
    }


@REAL
@pytest.mark.parametrize("fmt", ["tcg", "ocg"])
def test_real_dc502_fires_before_the_release_day_not_on_it(
    fmt: str,
    official_home: Path,
    shared_data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ash = 14558127
    ((day,),) = _staged(
        shared_data,
        "SELECT first_date FROM release_dates WHERE id = ? AND region = ?",
        (ash, fmt),
    )
    released = dt.date.fromisoformat(day)
    deck = _deck(tmp_path, ash, ash, ash)
    before = _codes(capsys, deck, fmt, (released - dt.timedelta(days=1)).isoformat(), old=True)
    on = _codes(capsys, deck, fmt, released.isoformat(), old=True)
    assert ("DC502", ash) in before
    assert ("DC502", ash) not in on


@REAL
def test_real_ash_blossom_in_tcg_2014_is_not_released(
    official_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ("DC502", 14558127) in _codes(
        capsys, _deck(tmp_path, *[14558127] * 3), "tcg", "2014-01-01", old=True
    )


@REAL
def test_real_norden_and_mind_master_are_tcg_cards(
    real_home_dir: Path,
    official_import: tuple[Path, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    norden, mind_master = 17412721, 96782886  # EDOPro: ot 1 (OCG only)
    deck = _deck(tmp_path, norden, mind_master)
    monkeypatch.setenv("DECKCHECK_HOME", str(real_home_dir))
    stale = _codes(capsys, deck, "tcg", "2026-06-01")
    assert {("DC501", norden), ("DC501", mind_master)} <= stale  # EDOPro's bits alone
    monkeypatch.setenv("DECKCHECK_HOME", str(official_import[0]))
    real = _codes(capsys, deck, "tcg", "2026-06-01")
    assert not {c for c in real if c[0] == "DC501"}
    # EDOPro's "TCG version" row of Norden (17412731, ot 2) is the OCG card too
    ocg = _codes(capsys, _deck(tmp_path, 17412731), "ocg", "2026-08-01")
    assert not {c for c in ocg if c[0] == "DC501"}


@REAL
def test_real_official_readings_find_cards(
    official_import: tuple[Path, Any], tmp_path: Path
) -> None:
    from deckcheck.lookup import Index

    db = open_db(official_import[0] / "cards.sqlite3")
    index = Index.for_db(db, cache_dir=tmp_path)  # the shared home stays untouched
    for query in ("はるうらら", "Haru Urara"):  # ruby reading, romanization
        r = index.resolve(query)
        assert (r.status, r.card_id) == ("found", 14558127), query
    assert db.names(14558127)["ja"] == ["灰流うらら"]
