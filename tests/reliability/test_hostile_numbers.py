"""Hostile numbers in every importer (issue 32): a passcode over 2**63, a negative Konami id,
a count of 10**30 … are refused in one line naming the file and the key, before SQLite (an
OverflowError there was an internal error), and nothing is written."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from deckcheck.cli import main
from deckcheck.errors import EXIT_ERROR
from tests.conftest import FIXTURES

OFF = FIXTURES / "official"
HUGE = 2**64
NUMBERS = [HUGE, 10**30, 2**63, -1, -(2**70)]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _refused(capsys: pytest.CaptureFixture[str], args: list[str], where: str, key: str) -> str:
    assert main(args) == EXIT_ERROR
    err = capsys.readouterr().err
    (line,) = [x for x in err.splitlines() if not x.startswith("deckcheck: note: ")]
    assert line.startswith(f"deckcheck: error: {where}"), line
    assert key in line and "internal error" not in line and len(line) < 300, line
    return line


@pytest.mark.parametrize("value", NUMBERS)
@pytest.mark.parametrize(
    ("kind", "key"),
    [
        ("cards", "password"),
        ("cards", "fake_password"),
        ("cards", "konami_id"),
        ("cards", "yugipedia_page_id"),
        ("rush", "konami_id"),
        ("skill", "yugipedia_page_id"),
    ],
)
def test_yaml_yugi_numbers_out_of_range(
    kind: str,
    key: str,
    value: int,
    tiny_card_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    records: list[dict[str, Any]] = json.loads((OFF / f"{kind}.json").read_text("utf-8"))
    if key == "fake_password":
        records[0].pop("password", None)
    records[0][key] = value
    bad = tmp_path / f"{kind}.json"
    bad.write_text(json.dumps(records), encoding="utf-8")
    before = _sha(tiny_card_db)
    line = _refused(capsys, ["db", "import", str(bad)], f"{bad}: [0].{key}: ", "is not an id")
    assert "(0 to 4294967295)" in line
    assert _sha(tiny_card_db) == before


def test_a_number_of_5000_digits_is_one_short_line(
    tiny_card_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad = tmp_path / "cards.json"
    text = (OFF / "cards.json").read_text("utf-8")
    bad.write_text(text.replace('"password": ', '"password": ' + "9" * 5000 + ', "x": ', 1))
    _refused(capsys, ["db", "import", str(bad)], f"{bad}: ", "a number over 4300 digits long")
    # 300 digits: within json's limit, shown by its start and length
    bad.write_text(text.replace('"password": ', '"password": ' + "9" * 300 + ', "x": ', 1))
    line = _refused(capsys, ["db", "import", str(bad)], f"{bad}: ", "is not an id")
    assert "999999999999… (300 digits)" in line


def _ygojson_tree(tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    tree = tmp_path / "tree"
    shutil.copytree(OFF / "ygojson", tree)
    card = min((tree / "cards").glob("*.json"))
    return tree, card, json.loads(card.read_text("utf-8"))


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("passwords", str(2**32), "passwords[0]: 4294967296 is not an id"),
        ("passwords", str(HUGE), "passwords[0]: 184467440737… (20 digits) is not a passcode"),
        ("passwords", "9" * 5000, "passwords[0]: 999999999999… (5000 digits) is not a passcode"),
        ("images", str(HUGE), "images[0].password: 184467440737… (20 digits) is not a passcode"),
        ("dbID", HUGE, "externalIDs.dbID: 18446744073709551616 is not an id"),
    ],
)
def test_ygojson_numbers_out_of_range(
    where: str,
    value: Any,
    message: str,
    tiny_card_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tree, card, doc = _ygojson_tree(tmp_path)
    if where == "passwords":
        doc["passwords"] = [value]
    elif where == "images":
        doc["images"][0]["password"] = value
    else:
        doc["externalIDs"]["dbID"] = value
    card.write_text(json.dumps(doc), encoding="utf-8")
    before = _sha(tiny_card_db)
    _refused(capsys, ["db", "import", str(tree)], f"{card}: ", message)
    assert _sha(tiny_card_db) == before


def _konami_ids_known(tmp_path: Path) -> None:
    """yaml-yugi card data imported, Blue-Eyes (Konami id 4007, the importer's probe) too."""
    records = json.loads((OFF / "cards.json").read_text("utf-8"))
    bewd = {"name": {"en": "Blue-Eyes White Dragon"}, "yugipedia_page_id": 1, "konami_id": 4007}
    records.append({**bewd, "password": 89631139})
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps(records), encoding="utf-8")
    assert main(["db", "import", str(cards), str(OFF / "rush.json")]) == 0


def _vector(tmp_path: Path, regulation: dict[str, Any], folder: str = "tcg") -> Path:
    d = tmp_path / "lr" / folder
    d.mkdir(parents=True, exist_ok=True)
    p = d / "2025-04-07.vector.json"
    p.write_text(json.dumps({"date": "2025-04-07", "regulation": regulation}), encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("regulation", "message"),
    [
        ({str(2**32): 1}, "Konami id '4294967296': 4294967296 is not an id"),
        ({str(HUGE): 1}, "'18446744073709551616' is not a Konami id"),
        ({"9" * 5000: 1}, "is not a Konami id"),
        ({"-4007": 1}, "'-4007' is not a Konami id"),
        ({"4007": HUGE}, "entry '4007': 18446744073709551616 is not a count"),
        ({"4007": -1}, "entry '4007': -1 is not a count"),
        ({"4007": 10**30}, "entry '4007': 100000000000… (31 digits) is not a count"),
    ],
)
def test_limit_regulation_numbers_out_of_range(
    regulation: dict[str, Any],
    message: str,
    tiny_card_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _konami_ids_known(tmp_path)
    capsys.readouterr()
    p = _vector(tmp_path, regulation)
    _refused(capsys, ["banlist", "import", str(p)], f"{p}: ", message)


def test_limit_regulation_name_list_count_out_of_range(
    tiny_card_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    d = tmp_path / "lr" / "master-duel"
    d.mkdir(parents=True)
    p = d / "2025-04-07.name.json"
    p.write_text(json.dumps({"Ash Blossom & Joyous Spring": HUGE}), encoding="utf-8")
    _refused(capsys, ["banlist", "import", str(p)], f"{p}: ", "is not a count")


def _devdb(path: Path, date: Any, name: Any) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE RestrictionType (id INTEGER PRIMARY KEY, name TEXT);"
        "INSERT INTO RestrictionType VALUES (1, 'Forbidden');"
    )
    for prefix in ("Speed", "Rush"):
        conn.executescript(
            f"CREATE TABLE {prefix}Banlist (id INTEGER PRIMARY KEY, date);"
            f"CREATE TABLE {prefix}Card (id INTEGER PRIMARY KEY, name);"
            f"CREATE TABLE {prefix}Restriction (banlistId, cardId, typeId);"
        )
    conn.execute("INSERT INTO SpeedBanlist VALUES (1, ?)", (date,))
    conn.execute("INSERT INTO SpeedCard VALUES (1, ?)", (name,))
    conn.execute("INSERT INTO SpeedRestriction VALUES (1, 1, 1)")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize(
    ("date", "name", "message"),
    [
        (2**62, "Ash Blossom & Joyous Spring", "list date 4611686018427387904 is not a date"),
        (-(2**62), "Ash Blossom & Joyous Spring", "is not a date"),
        (float("nan"), "Ash Blossom & Joyous Spring", "is not a date"),
        ("20x5-01-01", "Ash Blossom & Joyous Spring", "list date '20x5-01-01' is not a date"),
        (1_700_000_000_000, 12345, "card name 12345 is not text"),
    ],
)
def test_duel_links_devdb_hostile_values(
    date: Any,
    name: Any,
    message: str,
    tiny_card_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    p = _devdb(tmp_path / "dev.db", date, name)
    _refused(capsys, ["banlist", "import", str(p)], f"{p}: ", message)


def test_yaml_list_ids_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "d.ydk"
    deck.write_text("#main\n55144522\n", encoding="utf-8")
    for body in (
        f"entries:\n  - {{id: {HUGE}, limit: 1}}\n",
        f"groups:\n  - {{name: g, limit: 1, cards: [{10**30}]}}\n",
        f"points:\n  - {{id: {2**63}, points: 1}}\n",
    ):
        p = tmp_path / "big.yaml"
        p.write_text(f"name: Big\nfamily: tcg\neffective: 2025-01-01\n{body}", encoding="utf-8")
        _refused(
            capsys, ["validate", "--banlist", str(p), str(deck)], f"{p}: ", "less than or equal"
        )


def test_ygojson_negative_db_id_means_none(
    tiny_card_db: Path,
    tmp_path: Path,
) -> None:
    # the real YGOJSON writes dbID -7 (and 70 more) for cards Konami's database lacks
    from deckcheck.carddb import ygojson

    tree, card, doc = _ygojson_tree(tmp_path)
    doc["externalIDs"]["dbID"] = -7
    card.write_text(json.dumps(doc), encoding="utf-8")
    got = ygojson.read(tree)
    assert got.passcodes and -7 not in got.konami_ids.values()
