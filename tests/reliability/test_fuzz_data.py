"""Fuzzing the data readers the other fuzz file leaves out: official limit-regulation vector
JSON (``formats.official.read_vector``) and ``cards.cdb`` (``db import`` into a scratch
database). Each input gives a result or one clear error; ``-m fuzz`` runs
``DECKCHECK_FUZZ_EXAMPLES`` of each, counted per reader (tests/reliability/fuzzcount.py)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from deckcheck.carddb.importer import ImportSummary, import_files
from deckcheck.formats import official
from tests.conftest import SHARED_DATA
from tests.reliability.fuzzcount import fuzz_counts_printed  # noqa: F401 (autouse)
from tests.reliability.test_fuzz import _OPS, fresh, fuzz, mutate, reader_outcome


@pytest.fixture
def work(tmp_path: Path) -> Path:
    return tmp_path


# --------------------------------------------------------------------------- vector JSON

_REAL_VECTORS = (
    sorted((SHARED_DATA / "banlists" / "yaml-yugi-limit-regulation").glob("*/*.vector.json"))[:12]
    if SHARED_DATA is not None
    else []
)
_KEY = st.one_of(
    st.integers(-5, 2**40).map(str),
    st.integers(-(2**70), 2**70).map(str),  # past SQLite's 2**63 (issue 32)
    st.text(max_size=8),
    st.sampled_from(["4007", "16113", "0", "-1", "1e3", " 12", "١٢"]),
)
_COUNT = st.one_of(
    st.integers(-2, 200),
    st.none(),
    st.booleans(),
    st.floats(),
    st.text(max_size=4),
    st.lists(st.integers(), max_size=2),
)
_VECTOR_DOC = st.fixed_dictionaries(
    {},
    optional={
        "date": st.one_of(st.dates().map(str), st.text(max_size=12), st.integers(), st.none()),
        "regulation": st.one_of(
            st.dictionaries(_KEY, _COUNT, max_size=20),
            st.lists(_COUNT),
            st.text(max_size=5),
            st.none(),
        ),
        "x": st.text(max_size=5),
    },
).map(lambda d: json.dumps(d).encode())
_SEED_VECTOR = json.dumps({"date": "2025-04-01", "regulation": {"16113": 1, "4007": 0}}).encode()
_VECTOR_BYTES = st.one_of(
    _VECTOR_DOC,
    st.tuples(st.sampled_from(_REAL_VECTORS or [None]), _OPS).map(
        lambda t: mutate(t[0].read_bytes()[:20000] if t[0] else _SEED_VECTOR, t[1])
    ),
    st.binary(max_size=300),
)


def _konami(kid: int, kind: str) -> list[int]:
    return [] if kid % 5 == 0 else [10_000_000 + kid % 1000]


def _vector_file(work: Path, data: bytes) -> None:
    fam = ["tcg", "ocg", "rush", "genesys", "master-duel"][len(data) % 5]
    folder = work / fam
    folder.mkdir(exist_ok=True)
    p = fresh(folder, ".vector.json")
    p.write_bytes(data)
    try:
        reader_outcome(
            lambda: official.read_vector(p, _konami), (official.OfficialList,), "vector JSON"
        )
    finally:
        p.unlink()


test_vector_json, test_vector_json_long = fuzz(_VECTOR_BYTES, quick=100)(_vector_file)


def _vector_file_real_map(work: Path, cards_db: Path, data: bytes) -> None:
    """The same files read with a real database's Konami id map (SQLite answers each id)."""
    from deckcheck.carddb import open_db

    db = open_db(cards_db)
    folder = work / "tcg"
    folder.mkdir(exist_ok=True)
    p = fresh(folder, ".vector.json")
    p.write_bytes(data)
    try:
        reader_outcome(
            lambda: official.read_vector(p, db.passcodes_for_konami),
            (official.OfficialList,),
            "vector JSON (database ids)",
        )
    finally:
        p.unlink()
        db.close()


test_vector_json_db, test_vector_json_db_long = fuzz(_VECTOR_BYTES, quick=40)(_vector_file_real_map)


# --------------------------------------------------------------------------- cards.cdb

# "id PRIMARY KEY" without a type: any value fits, as in a cdb some other tool wrote
_DATAS = (
    "CREATE TABLE datas (id PRIMARY KEY, ot INTEGER, alias INTEGER, "
    "setcode INTEGER, type INTEGER, atk INTEGER, def INTEGER, level INTEGER, "
    "race INTEGER, attribute INTEGER, category INTEGER)"
)
_TEXTS = "CREATE TABLE texts (id PRIMARY KEY, name TEXT, desc TEXT)"
_CELL = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.integers(0, 2**32),
    st.none(),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.binary(max_size=8),
)
_ROW = st.tuples(st.one_of(st.integers(0, 2**33), _CELL), *([_CELL] * 10))
_CDB_SPEC = st.tuples(
    st.lists(_ROW, max_size=6),
    st.lists(st.tuples(st.one_of(st.integers(0, 2**33), _CELL), _CELL, _CELL), max_size=6),
    st.sampled_from(["both", "no texts", "texts as view", "extra table"]),
)


def _build_cdb(path: Path, spec: tuple[Any, ...]) -> None:
    datas, texts, shape = spec
    conn = sqlite3.connect(path)
    try:
        conn.execute(_DATAS)
        conn.executemany("INSERT OR IGNORE INTO datas VALUES (?,?,?,?,?,?,?,?,?,?,?)", datas)
        if shape == "texts as view":
            conn.execute("CREATE VIEW texts AS SELECT id, 'x' AS name, '' AS desc FROM datas")
        elif shape != "no texts":
            conn.execute(_TEXTS)
            conn.executemany("INSERT OR IGNORE INTO texts VALUES (?,?,?)", texts)
        if shape == "extra table":
            conn.execute("CREATE TABLE other (x)")
        conn.commit()
    finally:
        conn.close()


def _seed_cdb(work: Path) -> bytes:
    p = work / "seed.cdb"
    if not p.exists():
        _build_cdb(
            p,
            (
                [
                    (55144522, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0),
                    (14558127, 3, 0, 0, 33, 0, 1800, 3, 8192, 8, 0),
                ],
                [
                    (55144522, "Pot of Greed", "Draw 2."),
                    (14558127, "Ash Blossom & Joyous Spring", ""),
                ],
                "both",
            ),
        )
    return p.read_bytes()


_CDB_INPUT = st.one_of(
    _CDB_SPEC.map(lambda s: ("spec", s)),
    _OPS.map(lambda ops: ("mutated", ops)),
)


def _cdb_file(work: Path, case: tuple[str, Any]) -> None:
    p = fresh(work, ".cdb")
    kind, what = case
    if kind == "spec":
        _build_cdb(p, what)
    else:
        p.write_bytes(mutate(_seed_cdb(work), what))
    db = work / "scratch" / f"{p.stem}.sqlite3"
    try:
        reader_outcome(
            lambda: import_files([p], db_path=db, lock=False, replace=True), (ImportSummary,), "cdb"
        )
    finally:
        p.unlink(missing_ok=True)
        db.unlink(missing_ok=True)


test_cdb_import, test_cdb_import_long = fuzz(_CDB_INPUT, quick=60)(_cdb_file)


def test_cdb_with_a_table_name_that_is_not_utf8_is_refused(work: Path) -> None:
    # found by the long run (one flipped bit in sqlite_master): UnicodeDecodeError before
    p = work / "flipped.cdb"
    p.write_bytes(mutate(_seed_cdb(work), [("flip", 3723, 7)]))
    from deckcheck.errors import InputError

    with pytest.raises(InputError, match="unreadable SQLite database"):
        import_files([p], db_path=work / "x.sqlite3", lock=False, replace=True)


# --------------------------------------------------------------------------- official JSON
# yaml-yugi cards/rush/skill arrays and YGOJSON trees imported into a scratch database that
# holds a few cards (official data needs cards), with huge, negative and odd numbers (issue
# 32: a passcode over 2**63 was an OverflowError out of SQLite).

_NUMBER = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(0, 2**32 + 5),
    st.sampled_from([0, -1, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64, 10**30, -(2**63)]),
    st.floats(),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
)
_YY_NAMES = st.dictionaries(
    st.sampled_from(["en", "ja", "ko", "zh-CN", "ja_romaji", "xx"]),
    st.one_of(
        st.sampled_from(
            ["Pot of Greed", "Ash Blossom & Joyous Spring", "<ruby>灰<rt>は</rt></ruby>"]
        ),
        st.text(max_size=8),
        st.none(),
        _NUMBER,
    ),
    max_size=4,
)
_YY_RECORD = st.fixed_dictionaries(
    {"name": st.one_of(_YY_NAMES, _NUMBER), "yugipedia_page_id": _NUMBER},
    optional={
        "password": _NUMBER,
        "fake_password": _NUMBER,
        "konami_id": _NUMBER,
        "type_line": st.just("Skill"),
        "limit_regulation": st.just({}),
    },
)
_YY_BYTES = st.one_of(
    st.lists(_YY_RECORD, min_size=1, max_size=6).map(lambda d: json.dumps(d).encode()),
    st.tuples(st.sampled_from(["cards", "rush", "skill"]), _OPS).map(
        lambda t: mutate((_FIXTURE_OFFICIAL / f"{t[0]}.json").read_bytes(), t[1])
    ),
    st.integers(4300, 4400).map(
        lambda n: b'[{"name": {}, "yugipedia_page_id": ' + b"9" * n + b"}]"
    ),
)
_FIXTURE_OFFICIAL = Path(__file__).resolve().parent.parent / "fixtures" / "official"


@pytest.fixture(scope="module")
def cards_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch card database of the tiny cdb of the official-data tests (built once)."""
    from tests.builders import tiny_cdb

    work = tmp_path_factory.mktemp("official-fuzz")
    db = work / "cards.sqlite3"
    import_files([tiny_cdb(work / "tiny.cdb")], db_path=db, lock=False)
    return db


def _official_import(work: Path, cards_db: Path, src: Path, reader: str) -> None:
    db = fresh(work, ".sqlite3")
    shutil.copyfile(cards_db, db)
    try:
        reader_outcome(
            lambda: import_files([src], db_path=db, lock=False), (ImportSummary,), reader
        )
    finally:
        db.unlink(missing_ok=True)


def _yaml_yugi_file(work: Path, cards_db: Path, data: bytes) -> None:
    p = fresh(work, ".json")
    p.write_bytes(data)
    try:
        _official_import(work, cards_db, p, "yaml-yugi JSON")
    finally:
        p.unlink()


test_yaml_yugi_json, test_yaml_yugi_json_long = fuzz(_YY_BYTES, quick=60)(_yaml_yugi_file)

_PASSWORD = st.one_of(
    _NUMBER.map(lambda v: str(v) if isinstance(v, int) and not isinstance(v, bool) else v),
    st.integers(0, 10**40).map(str),
    st.integers(4290, 4400).map(lambda n: "9" * n),
    st.text(alphabet="0123456789 <>-x١", max_size=14),
)
_YGOJSON_CARD = st.fixed_dictionaries(
    {},
    optional={
        "passwords": st.one_of(st.lists(_PASSWORD, max_size=3), _NUMBER),
        "images": st.lists(st.fixed_dictionaries({}, optional={"password": _PASSWORD}), max_size=2),
        "externalIDs": st.one_of(st.fixed_dictionaries({}, optional={"dbID": _NUMBER}), _NUMBER),
    },
)


def _ygojson_tree(work: Path, cards_db: Path, card: dict[str, Any]) -> None:
    tree = fresh(work, "-ygojson")
    shutil.copytree(_FIXTURE_OFFICIAL / "ygojson", tree)
    first = min((tree / "cards").glob("*.json"))
    doc = json.loads(first.read_text("utf-8"))
    doc.update(card)
    first.write_text(json.dumps(doc), encoding="utf-8")
    try:
        _official_import(work, cards_db, tree, "YGOJSON")
    finally:
        shutil.rmtree(tree)


test_ygojson_tree, test_ygojson_tree_long = fuzz(_YGOJSON_CARD, quick=40)(_ygojson_tree)
