"""Card knowledge on small hand-made files (issue 30): strings.conf setnames and setcode
membership as the simulators test it, yaml-yugi series, printings and text, the read side
(carddb.facts), hostile input, and the schema 2 -> 3 migration."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.carddb import _common, archetypes, facts, open_db
from deckcheck.carddb.importer import import_files
from deckcheck.cli import main
from deckcheck.errors import DataError, InputError
from tests.conftest import FIXTURES

KN = FIXTURES / "knowledge"
MONSTER = 0x21


def signed64(value: int) -> int:
    """How SQLite stores a 64-bit setcode with its top bit set (cards.cdb does the same)."""
    return value - (1 << 64) if value >= 1 << 63 else value


# id: (alias, setcode, English name, desc)
CARDS: dict[int, tuple[int, int, str, str]] = {
    100: (0, 0x3008, "Elemental HERO Alpha", ""),
    101: (0, 0x5008, "Vision HERO Beta", ""),
    102: (0, 0x8, "Plain HERO", ""),
    103: (0, 0x1008, "Odd Shapes", ""),  # a HERO (0x8), not an Elemental HERO (0x3008)
    104: (0, (0xDD << 16) | 0x3008, "Blue-Eyes Elemental", ""),  # two archetypes, two parts
    105: (0, signed64(0x9008 << 48), "Top Part HERO", ""),  # fourth part, stored negative
    106: (0, 0x0108, "Near Miss", "Ｎｅｇａｔｅ　ＡＬＬ　ｅｆｆｅｃｔｓ"),  # 0x108: not 0x8
    107: (0, 0, "No Archetype", "破壊する"),
    108: (100, 0x3008, "Elemental HERO Alpha", ""),  # an alternate artwork of 100
}


def knowledge_cdb(path: Path, cards: dict[int, tuple[int, int, str, str]] = CARDS) -> Path:
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot, alias, setcode, type, atk, def, level, "
        "race, attribute, category)"
    )
    conn.execute("CREATE TABLE texts (id INTEGER PRIMARY KEY, name, desc)")
    for cid, (alias, setcode, name, desc) in cards.items():
        conn.execute(
            "INSERT INTO datas VALUES (?, 3, ?, ?, ?, 0, 0, 4, 0, 0, 0)",
            (cid, alias, setcode, MONSTER),
        )
        conn.execute("INSERT INTO texts VALUES (?, ?, ?)", (cid, name, desc))
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def kn_db(tmp_path: Path) -> Path:
    """A database of CARDS with the fixture strings.conf (English and Japanese) imported."""
    db = tmp_path / "db.sqlite3"
    import_files(
        [
            knowledge_cdb(tmp_path / "cards.cdb"),
            KN / "strings.conf",
            KN / "locales" / "ja-JP" / "strings.conf",
        ],
        db_path=db,
    )
    return db


def naive_member(setcode: int, code: int) -> bool:
    """EDOPro's Card::IsSetCard for one archetype code, written out from its C++."""
    setcode &= (1 << 64) - 1
    for i in range(4):
        part = (setcode >> (16 * i)) & 0xFFFF
        if part and (part & 0xFFF) == (code & 0xFFF) and (part & code) == code:
            return True
    return False


# --------------------------------------------------------------------------- strings.conf


def test_strings_conf_names_codes_and_skipped_lines_are_counted() -> None:
    got = archetypes.read_strings(KN / "strings.conf")
    assert (0x3008, "Elemental HERO") in got.names
    assert (0x46, "Polymerization") in got.names and (0x46, "Fusion") in got.names
    assert (12345, "Decimal Code") in got.names  # a decimal code is a code too
    assert {code for code, _ in got.names} == {0x8, 0x3008, 0x5008, 0xDD, 0x46, 12345}
    reasons = sorted(s.split(": ", 1)[1] for s in got.skipped)
    assert len(got.skipped) == 5, got.skipped  # too big, not hex, huge, no name, zero
    assert "no code and name" in reasons
    assert any("not a number" in r for r in reasons)
    assert sum("not a 16-bit archetype code" in r for r in reasons) == 3


def test_import_counts_skipped_lines_in_one_note(tmp_path: Path) -> None:
    notes: list[str] = []
    s = import_files(
        [knowledge_cdb(tmp_path / "cards.cdb"), KN / "strings.conf"],
        db_path=tmp_path / "db.sqlite3",
        note=notes.append,
    )
    res = next(f for f in s.files if f.kind == "edopro-strings")
    assert res.rows == 7 and res.unmapped == {"skipped_lines": 5}
    said = [n for n in notes if "!setname" in n]
    assert len(said) == 1 and "5 !setname line(s) skipped" in said[0]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"!setname 0x8 HERO\n\xff\xfe broken\n", "not UTF-8 text"),
        (b"!setname 0x8 HERO\n" + b"#" * (archetypes.MAX_BYTES + 10), "not a strings.conf"),
    ],
)
def test_a_strings_conf_that_is_not_text_is_one_error(
    tmp_path: Path, body: bytes, error: str
) -> None:
    bad = tmp_path / "strings.conf"
    bad.write_bytes(body)
    with pytest.raises(InputError, match=error) as exc:
        import_files([knowledge_cdb(tmp_path / "c.cdb"), bad], db_path=tmp_path / "db.sqlite3")
    assert str(bad) in str(exc.value)
    assert not (tmp_path / "db.sqlite3").exists()  # nothing half-written


def test_db_import_of_a_broken_strings_conf_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "import", str(knowledge_cdb(tmp_path / "cards.cdb"))]) == 0
    capsys.readouterr()
    bad = tmp_path / "strings.conf"
    bad.write_bytes(b"!system 1 x\n!setname 0x8 \xc3\x28HERO\n")
    assert main(["db", "import", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not UTF-8" in err[0] and "Traceback" not in err[0]


def test_binary_junk_named_strings_conf_is_not_taken_for_one(tmp_path: Path) -> None:
    junk = tmp_path / "strings.conf"
    junk.write_bytes(b"!setname 0x8 HERO\n\0\0\0\x01binary")
    with pytest.raises((InputError, DataError)):
        import_files([knowledge_cdb(tmp_path / "c.cdb"), junk], db_path=tmp_path / "db.sqlite3")


@pytest.mark.parametrize(("value", "kind"), [("HERO", "text"), (1.5e30, "a real number")])
def test_a_setcode_that_is_not_an_integer_is_one_error(
    tmp_path: Path, value: object, kind: str
) -> None:
    cdb = knowledge_cdb(tmp_path / "cards.cdb", {1: (0, 0, "A", ""), 2: (0, 0, "B", "")})
    conn = sqlite3.connect(cdb)
    conn.execute("UPDATE datas SET setcode = ? WHERE id = 2", (value,))
    conn.commit()
    conn.close()
    with pytest.raises(InputError, match=f"datas.setcode of card 2 is {kind}") as exc:
        import_files([cdb], db_path=tmp_path / "db.sqlite3")
    assert exc.value.where == str(cdb)
    assert not (tmp_path / "db.sqlite3").exists()


# --------------------------------------------------------------------------- membership


def test_membership_is_the_simulators_test_on_each_16_bit_part(kn_db: Path) -> None:
    db = open_db(kn_db)
    members = {
        code: {
            int(r[0])
            for r in db.rows(
                "SELECT card_id FROM archetype_cards WHERE arch = ? AND how = 'setcode'",
                (archetypes.arch_key(code),),
            )
        }
        for code in (0x8, 0x3008, 0x5008, 0xDD)
    }
    assert members[0x8] == {100, 101, 102, 103, 104, 105, 108}  # every HERO sub-archetype
    assert members[0x3008] == {100, 104, 108}  # 0x1008 is not an Elemental HERO
    assert members[0x5008] == {101}
    assert members[0xDD] == {104}  # the second 16-bit part
    for code, got in members.items():
        want = {c for c, (_a, sc, _n, _d) in CARDS.items() if naive_member(sc, code)}
        assert got == want, hex(code)


@settings(max_examples=300, deadline=None)
@given(
    setcode=st.integers(min_value=0, max_value=(1 << 64) - 1),
    code=st.integers(min_value=1, max_value=0xFFFF),
)
def test_matches_is_the_simulators_test(setcode: int, code: int) -> None:
    assert archetypes.matches(signed64(setcode), code) == naive_member(setcode, code)
    assert archetypes.matches(setcode, code) == naive_member(setcode, code)


def test_arch_names_in_any_language_and_folded(kn_db: Path) -> None:
    db = open_db(kn_db)
    assert facts.find_archetypes(db, "Elemental HERO") == ["0x3008"]
    assert facts.find_archetypes(db, "elemental hero") == ["0x3008"]
    assert facts.find_archetypes(db, "E・HERO") == ["0x3008"]  # ja, full-width folded
    assert facts.find_archetypes(db, "ブルーアイズ") == ["0xdd"]
    assert facts.find_archetypes(db, "Fusion") == facts.find_archetypes(db, "Polymerization")
    # cards as lookup shows them: the artwork 108 is card 100
    assert facts.archetype_cards(db, ["0x3008"]) == {100, 104}
    assert facts.archetype_label(db, "0x3008", "ja") == "Ｅ・ＨＥＲＯ"
    assert facts.archetype_label(db, "0x3008", "de") == "Elemental HERO"


def test_unknown_archetype_names_the_closest(kn_db: Path) -> None:
    db = open_db(kn_db)
    with pytest.raises(DataError, match="unknown archetype 'Elemntal HERO'") as exc:
        facts.find_archetypes(db, "Elemntal HERO")
    assert "closest: Elemental HERO" in str(exc.value)


def test_archetypes_of_a_card_most_specific_first(kn_db: Path) -> None:
    db = open_db(kn_db)
    got = facts.archetypes_of(db, 104)
    assert [a["name"] for a in got] == ["Elemental HERO", "HERO", "Blue-Eyes"]
    assert {a["how"] for a in got} == {"setcode"}
    assert [a["name"] for a in facts.archetypes_of(db, 108)] == ["Elemental HERO", "HERO"]
    assert facts.archetypes_of(db, 107) == []


def test_archetype_table_is_archetypes_of_for_every_card(kn_db: Path) -> None:
    # meta reads every card's archetypes at once; the answer must be archetypes_of's
    db = open_db(kn_db)
    table = facts.archetype_table(db, "ja")
    ids = [int(r[0]) for r in db.rows("SELECT id FROM cards")]
    assert any(table.get(db.name_key(i)) for i in ids)
    for cid in ids:
        assert table.get(db.name_key(cid), []) == facts.archetypes_of(db, cid, "ja"), cid


def test_no_archetype_source_says_which_to_install(tmp_path: Path) -> None:
    db_path = tmp_path / "db.sqlite3"
    import_files([knowledge_cdb(tmp_path / "cards.cdb")], db_path=db_path)
    with pytest.raises(facts.Missing, match=r"strings\.conf") as exc:
        facts.find_archetypes(open_db(db_path), "HERO")
    assert "update" in str(exc.value)


def test_the_sample_has_no_archetypes_and_says_so() -> None:
    from deckcheck.carddb import sample

    with pytest.raises(facts.Missing, match=r"strings\.conf"):
        facts.find_archetypes(sample.open_sample(), "HERO")


# --------------------------------------------------------------------------- yaml-yugi


@pytest.fixture
def yy_db(kn_db: Path) -> tuple[Path, list[str]]:
    notes: list[str] = []
    import_files([KN / "cards.json"], db_path=kn_db, note=notes.append)
    return kn_db, notes


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=30),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=20,
)
_KEYS = st.sampled_from(["series", "sets", "text", "pendulum_effect", "effect", "requirement"])


@settings(max_examples=300, deadline=None)
@given(
    obj=st.dictionaries(_KEYS, _JSON, max_size=4)
    | st.fixed_dictionaries({"sets": st.dictionaries(st.sampled_from(["en", "ja"]), _JSON)}),
    kind=st.sampled_from(["cards", "rush", "skill"]),
)
def test_any_json_value_is_kept_or_counted_never_an_error(
    obj: dict[str, object], kind: str
) -> None:
    from deckcheck.carddb import knowledge

    ex = knowledge.extra_of(obj, kind)
    assert all(isinstance(s, str) and s for s in ex.series)
    assert all(isinstance(c, str) and len(c) <= 40 for c, _n, _r, _lg in ex.printings)
    assert all(isinstance(t, str) and len(t) <= 20_000 for _lg, t in ex.texts)
    series = obj.get("series")
    if isinstance(series, list) and all(isinstance(x, str) for x in series):
        assert list(ex.series) == list(
            dict.fromkeys(" ".join(x.split()) for x in series if x.strip())
        )
    elif series is not None:
        assert "series" in ex.bad and not ex.series


@pytest.mark.parametrize(
    ("obj", "bad"),
    [
        ({"sets": {"en": [{"set_number": "A" * 41}]}}, "sets.en"),
        ({"sets": {"en": [{"set_number": 2**70}]}}, "sets.en"),
        ({"sets": [1, 2]}, "sets"),
        ({"series": [1, 2]}, "series"),
        ({"text": {"en": 5}}, "text.en"),
        ({"text": {"en": "x" * 20_001}}, "text.en (too long)"),
    ],
)
def test_hostile_values_are_named_in_the_count(obj: dict[str, object], bad: str) -> None:
    from deckcheck.carddb import knowledge

    ex = knowledge.extra_of(obj, "cards")
    assert bad in ex.bad and not ex.printings and not ex.texts


def test_series_join_the_setcode_archetypes_or_stand_alone(yy_db: tuple[Path, list[str]]) -> None:
    db = open_db(yy_db[0])
    hero = facts.find_archetypes(db, "HERO")
    assert hero == ["0x8"]  # the series HERO is the setcode archetype of that name
    warrior = facts.find_archetypes(db, "Warrior")
    assert warrior == ["series:warrior"]  # a series no strings.conf names
    assert facts.archetype_cards(db, warrior) == {102}
    hows = {a["name"]: a["how"] for a in facts.archetypes_of(db, 100)}
    assert hows == {"Elemental HERO": "series+setcode", "HERO": "series+setcode"}


def test_wrong_shapes_are_counted_and_numberless_sets_kept(yy_db: tuple[Path, list[str]]) -> None:
    db_path, notes = yy_db
    bad = [n for n in notes if "wrong shape" in n]
    assert len(bad) == 1 and "1 object(s)" in bad[0]  # only "Odd Shapes" ([2])
    assert "[2]: series, sets.en, text" in bad[0]
    db = open_db(db_path)
    got = facts.printings_of(db, 108)  # the artwork shows its card's printings
    assert {(p["code"], p["set"]) for p in got} == {
        ("LOB-EN001", "Legend of Testing"),
        ("LOB-001", "Legend of Testing"),
        ("", "Booster 7"),  # the first OCG sets printed no numbers
        ("LB-01", "Legend of Testing (Japanese)"),
    }
    lob = next(p for p in got if p["code"] == "LOB-001")
    assert lob["rarities"] == ["Ultra Rare", "Secret Rare"] and lob["lang"] == "en"
    # the good printing of the odd object is kept, its rarity (not a list) left empty
    assert [(p["code"], p["rarities"]) for p in facts.printings_of(db, 103)] == [("SDK-EN003", [])]


def test_set_by_code_prefix_printing_or_name(yy_db: tuple[Path, list[str]]) -> None:
    db = open_db(yy_db[0])
    assert facts.set_cards(db, "LOB") == {100, 102}
    assert facts.set_cards(db, "lob-en") == {100, 102}
    assert facts.set_cards(db, "LOB-EN001") == {100}
    assert facts.set_cards(db, "Booster 7") == {100}
    assert facts.set_cards(db, "LB") == {100}
    assert "" not in facts.set_codes(db)
    with pytest.raises(DataError, match="unknown set 'LOX'") as exc:
        facts.set_cards(db, "LOX")
    assert "LOB" in str(exc.value)


def test_text_is_folded_for_o_in_every_language(yy_db: tuple[Path, list[str]]) -> None:
    db = open_db(yy_db[0])
    assert facts.text_cards(db, "NEGATE the activation") == {100}
    assert facts.text_cards(db, "negate all") == {106}  # full-width cdb desc, NFKC folded
    assert facts.text_cards(db, "破壊") == {100, 107}  # two characters of Japanese
    assert facts.text_cards(db, "gain 500 lp") == {102}  # the pendulum effect too
    assert facts.text_cards(db, "no such words") == set()
    texts = facts.texts_of(db, 100)
    assert texts["ja"] == "魔法カードの発動を無効にし破壊する。"
    assert texts["en"].startswith("Negate the activation")


def test_no_text_installed_says_which_source(kn_db: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "plain.sqlite3"
    import_files([knowledge_cdb(tmp_path / "plain.cdb", {1: (0, 0, "A", "")})], db_path=db_path)
    with pytest.raises(facts.Missing, match="no card text installed"):
        facts.text_cards(open_db(db_path), "draw")
    with pytest.raises(facts.Missing, match="no printings installed"):
        facts.set_cards(open_db(db_path), "LOB")


# --------------------------------------------------------------------------- schema


def _downgrade_to_schema_2(path: Path) -> None:
    """What deckcheck wrote before issue 30: no setcode column, no knowledge tables."""
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE cards DROP COLUMN setcode")
    for table in (
        "setnames",
        "card_series",
        "archetypes",
        "archetype_cards",
        "printings",
        "set_names",
        "set_prefixes",
        "card_text",
    ):
        conn.execute(f"DROP TABLE {table}")
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def test_schema_2_database_is_read_and_says_to_import_again(kn_db: Path) -> None:
    _downgrade_to_schema_2(kn_db)
    db = open_db(kn_db)
    assert db.get(100) is not None and db.name_key(108) == 100
    assert facts.archetypes_of(db, 100) == [] and facts.printings_of(db, 100) == []
    with pytest.raises(facts.Missing, match="older deckcheck"):
        facts.find_archetypes(db, "HERO")


def test_import_extending_a_schema_2_database_migrates_it(kn_db: Path, tmp_path: Path) -> None:
    _downgrade_to_schema_2(kn_db)
    more = knowledge_cdb(tmp_path / "more.cdb", {200: (0, 0x3008, "Elemental HERO Gamma", "")})
    import_files([more, KN / "strings.conf"], db_path=kn_db)
    conn = sqlite3.connect(kn_db)
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    cols = {r[1] for r in conn.execute("PRAGMA table_info(cards)")}
    conn.close()
    assert version == str(_common.SCHEMA_VERSION) == "4" and "setcode" in cols
    db = open_db(kn_db)
    # the new card has its code; the old ones wait for their cards.cdb to be imported again
    assert facts.archetype_cards(db, facts.find_archetypes(db, "Elemental HERO")) == {200}
    import_files([tmp_path / "cards.cdb"], db_path=kn_db)  # the one kn_db was built from
    db = open_db(kn_db)
    assert facts.archetype_cards(db, ["0x3008"]) == {100, 104, 200}


# --------------------------------------------------------------------------- YGOJSON


def test_ygojson_printings_rarities_and_set_days(tmp_path: Path) -> None:
    from tests.carddb.test_official_cards import OFF, tiny_cdb

    db_path = tmp_path / "db.sqlite3"
    import_files([tiny_cdb(tmp_path / "cards.cdb"), OFF / "ygojson"], db_path=db_path)
    db = open_db(db_path)
    ash = facts.printings_of(db, 14558128)  # an artwork: its card's printings
    # oldest first; YGOJSON's "secret" named as yaml-yugi names it; the language of the
    # set's locale (jp -> ja); a locale without a release day (en, kr) last
    assert [(p["code"], p["rarities"], p["lang"], p["date"]) for p in ash] == [
        ("MACR-JP036", ["Secret Rare"], "ja", "2017-01-14"),
        ("MACR-PT036", ["Secret Rare"], "pt", "2017-05-04"),
        ("MACR-DE036", ["Secret Rare"], "de", "2017-05-05"),
        ("MACR-EN036", ["Secret Rare"], "en", None),
        ("MACR-KR036", ["Secret Rare"], "ko", None),
    ]
    assert {p["set"] for p in ash} == {"Maximum Crisis"}  # a virtual set prints no codes
    assert facts.set_cards(db, "MACR") == {14558127, 10000}
    assert facts.set_cards(db, "MACR-EN001") == {10000}
    # card text from YGOJSON's effect, folded for o:
    assert facts.text_cards(db, "YOU CAN DISCARD THIS CARD") == {14558127}
    assert facts.texts_of(db, 14558128)["en"].endswith("negate that effect.")
