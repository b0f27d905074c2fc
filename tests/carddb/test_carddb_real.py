"""The card database built from the real reference data (../shared/data), and the sample."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import deckcheck.carddb as carddb
from deckcheck import paths
from deckcheck.carddb import importer, open_db
from deckcheck.carddb._common import EDOPRO_SCOPE_MASK
from deckcheck.cli import main
from deckcheck.model import Scope, kind_of, scope_bits

pytestmark = pytest.mark.realdata

DARK_MAGICIAN = 46986414
HARPIE_LADY, HARPIE_LADY_1 = 76812113, 91932350


@pytest.fixture(scope="module")
def real_db_path(real_home_dir: Path) -> Path:
    """cards.cdb + every locale file, imported once per session (read-only for tests)."""
    return real_home_dir / "cards.sqlite3"


@pytest.fixture(scope="module")
def cdb(shared_data: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{shared_data / 'cards' / 'cards.cdb'}?mode=ro", uri=True)


def test_dark_magician_artworks_count_as_dark_magician(
    real_db_path: Path, cdb: sqlite3.Connection
) -> None:
    db = open_db(real_db_path)
    expected = [
        r[0]
        for r in cdb.execute(
            "SELECT id FROM datas WHERE alias = ? AND abs(id - alias) < 10 ORDER BY id",
            (DARK_MAGICIAN,),
        )
    ]
    assert len(expected) >= 10
    assert db.alternates(DARK_MAGICIAN) == expected
    for art in expected:
        card = db.get(art)
        assert card is not None and card.alias_kind == "artwork"
        assert card.canonical == DARK_MAGICIAN and card.name == "Dark Magician"
        assert db.name(art, "ja") == db.name(DARK_MAGICIAN, "ja") != "Dark Magician"


def test_harpie_lady_1_is_treated_as_harpie_lady(real_db_path: Path) -> None:
    db = open_db(real_db_path)
    card = db.get(HARPIE_LADY_1)
    assert card is not None
    assert (card.alias_kind, card.canonical, card.name) == (
        "treated_as",
        HARPIE_LADY,
        "Harpie Lady 1",
    )
    assert HARPIE_LADY_1 in db.same_card(HARPIE_LADY)
    assert HARPIE_LADY_1 not in db.alternates(HARPIE_LADY)


def test_tokens_and_skills_classified(real_db_path: Path, cdb: sqlite3.Connection) -> None:
    db = open_db(real_db_path)
    info = db.info()
    tokens = cdb.execute("SELECT count(*) FROM datas WHERE type & 0x4000").fetchone()[0]
    skills = cdb.execute(
        "SELECT count(*) FROM datas WHERE type & 0x8000000 AND NOT type & 0x4000"
    ).fetchone()[0]
    assert info["by_kind"]["token"] == tokens > 0
    assert info["by_kind"]["skill"] == skills > 0
    assert db.get(946).kind == "token"  # type: ignore[union-attr]
    skill = db.get(300101001)
    assert skill is not None and skill.kind == "skill" and skill.scopes & Scope.SPEED


def test_scopes_and_counts_match_the_cdb(real_db_path: Path, cdb: sqlite3.Connection) -> None:
    db = open_db(real_db_path)
    assert len(db) == cdb.execute("SELECT count(*) FROM datas").fetchone()[0]
    top = "SELECT ot FROM datas GROUP BY ot ORDER BY count(*) DESC LIMIT 8"
    for (ot,) in cdb.execute(top):
        some = cdb.execute("SELECT id FROM datas WHERE ot = ? LIMIT 3", (ot,)).fetchall()
        for (cid,) in some:
            assert int(db.get(cid).scopes) == ot & EDOPRO_SCOPE_MASK  # type: ignore[union-attr]
    rush_legend = db.get(160001000)
    assert rush_legend is not None and rush_legend.scopes & Scope.LEGEND


def test_japanese_and_chinese_names(real_db_path: Path, shared_data: Path) -> None:
    db = open_db(real_db_path)
    names = db.names(14558127)
    for lang, folder in (("ja", "ja-JP"), ("zh-CN", "zh-CN"), ("zh-TW", "zh-TW"), ("ko", "ko-KR")):
        loc = sqlite3.connect(
            f"file:{shared_data / 'locales' / folder / 'cards.cdb'}?mode=ro", uri=True
        )
        want = loc.execute("SELECT name FROM texts WHERE id = 14558127").fetchone()[0]
        assert names[lang] == [want]
        assert db.name(14558127, lang) == want
    per_lang = dict.fromkeys(("ja", "zh-CN", "zh-TW"), 0)
    for _cid, lang, _name, kind in db.iter_names():
        if lang in per_lang and kind == "name":
            per_lang[lang] += 1
    assert all(n > 10000 for n in per_lang.values()), per_lang


def test_reimport_of_real_data_is_idempotent(
    real_db_path: Path, shared_data: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "cards.sqlite3"
    copy.write_bytes(real_db_path.read_bytes())
    before = open_db(copy).info()
    files = [shared_data / "cards" / "cards.cdb", shared_data / "locales/ja-JP/cards.cdb"]
    importer.import_files(files, db_path=copy)
    after = open_db(copy).info()
    for key in ("cards", "by_kind", "by_scope", "names", "fingerprint"):
        assert before[key] == after[key], key
    assert [s["sha256"] for s in before["sources"]] == [s["sha256"] for s in after["sources"]]


def test_db_info_text_and_json(real_db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = paths.database_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(real_db_path.read_bytes())
    assert main(["db", "info", "--output", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sample"] is False and data["path"] == str(target)
    assert data["cards"] == 24787 or data["cards"] == len(open_db(target))
    assert {"ocg", "tcg", "speed", "rush", "legend"} <= set(data["by_scope"])
    assert set(data["names"]) >= {"en", "ja", "ko", "zh-CN", "zh-TW", "de", "fr", "it", "es", "pt"}
    assert len(data["sources"]) == 11 and all(len(s["sha256"]) == 64 for s in data["sources"])
    assert main(["db", "info"]) == 0
    text = capsys.readouterr().out
    assert str(target) in text and f"cards: {data['cards']}" in text
    assert data["sources"][0]["sha256"] in text and "built-in sample" not in text


def test_corrupt_installed_database_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    target = paths.database_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"garbage" * 100)
    assert main(["db", "info"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(target) in err[0] and "not a deckcheck card database" in err[0]


# --------------------------------------------------------------------------- the sample


def test_sample_fallback_note_printed_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(carddb, "_sample_noted", False)
    db1 = open_db()
    db2 = open_db()
    err = capsys.readouterr().err
    assert db1.is_sample and db2.is_sample
    assert err.count("deckcheck: note: no card database installed") == 1
    assert f"built-in sample of {len(db1)} cards" in err
    assert db1.get(55144522).name == "Pot of Greed"  # type: ignore[union-attr]
    assert db1.fingerprint == db2.fingerprint and db1.fingerprint.startswith("sample-")


def test_sample_info_via_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(carddb, "_sample_noted", False)
    assert main(["db", "info", "-o", "json"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["sample"] is True and "built-in sample" in out.err
    assert data["sources"][0]["kind"] == "sample"


def test_every_sample_entry_matches_the_shared_data(
    shared_data: Path, cdb: sqlite3.Connection
) -> None:
    doc = yaml.safe_load((paths.builtin_card_db_dir() / "sample.yaml").read_text("utf-8"))
    cards = doc["cards"]
    assert 100 <= len(cards) <= 300
    locales = {
        lang: sqlite3.connect(f"file:{shared_data / 'locales' / f / 'cards.cdb'}?mode=ro", uri=True)
        for lang, f in (("ja", "ja-JP"), ("ko", "ko-KR"), ("zh-CN", "zh-CN"), ("zh-TW", "zh-TW"))
    }
    listed: set[int] = set()
    for f in paths.builtin_card_db_dir().glob("sample_ids*.txt"):
        for line in f.read_text("utf-8").splitlines():
            text = line.split("#", 1)[0].strip()
            if text:
                listed.add(int(text))
    assert {c["id"] for c in cards} == listed
    db = open_db()  # the sample itself, as the program reads it
    for c in cards:
        row = cdb.execute(
            "SELECT d.ot, d.alias, d.type, d.level, d.atk, d.def, t.name FROM datas d "
            "JOIN texts t USING (id) WHERE id = ?",
            (c["id"],),
        ).fetchone()
        assert row is not None, c["id"]
        ot, alias, typ, level, atk, df, name = row
        assert (c["name"], c.get("alias", 0), c["type"]) == (name, alias, typ), c["id"]
        assert (c["level"], c["atk"], c["def"]) == (level, atk, df), c["id"]
        assert c["kind"] == kind_of(typ)
        assert scope_bits(c["scopes"]) == ot & EDOPRO_SCOPE_MASK, c["id"]
        for lang, conn in locales.items():
            got = conn.execute("SELECT name FROM texts WHERE id = ?", (c["id"],)).fetchone()
            assert c.get("names", {}).get(lang) == (got[0] if got else None), (c["id"], lang)
        readings = dict(
            cdb.execute(
                "SELECT substr(lang, 1, 2), name FROM names WHERE id = ? "
                "AND lang IN ('ja_reading', 'ko_reading')",
                (c["id"],),
            ).fetchall()
        )
        assert c.get("readings", {}) == readings, c["id"]
        card = db.get(c["id"])
        assert card is not None and card.kind == kind_of(typ) and card.name == name
        for lang, reading in readings.items():
            assert db.names(c["id"])[f"{lang}_reading"] == [reading]
    kinds = {c["kind"] for c in cards}
    assert {"monster", "spell", "trap", "token", "skill"} <= kinds
    assert db.canonical(46986409) == DARK_MAGICIAN and db.canonical(HARPIE_LADY_1) == HARPIE_LADY


def test_help_does_not_open_the_database() -> None:
    code = (
        "import sys\n"
        "from deckcheck.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('deckcheck.carddb') "
        "or m in ('yaml', 'sqlite3')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
