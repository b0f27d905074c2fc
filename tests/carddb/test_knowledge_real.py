"""Card knowledge on the staged real data (issue 30): archetype membership recomputed from the
cards.cdb setcodes, LOB printings counted from yaml-yugi's cards.json, the import's notes,
and each prerelease passcode shown as its official card."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from deckcheck.carddb import facts, open_db
from tests.carddb.test_knowledge import naive_member

REAL = pytest.mark.usefixtures("shared_data")

#: (code, name) of strings.conf archetypes checked card by card, parents and children
ARCHETYPES = (
    (0x8, "HERO"),
    (0x3008, "Elemental HERO"),
    (0xC008, "Destiny HERO"),
    (0x115, "Sky Striker"),
    (0x1115, "Sky Striker Ace"),
    (0xDD, "Blue-Eyes"),
    (0x46, "Fusion"),
)


def _setcodes(shared: Path) -> dict[int, int]:
    conn = sqlite3.connect(f"file:{shared / 'cards' / 'cards.cdb'}?mode=ro", uri=True)
    try:
        return {int(i): int(s) for i, s in conn.execute("SELECT id, setcode FROM datas")}
    finally:
        conn.close()


@pytest.fixture(scope="module")
def db(official_import: tuple[Path, Any]) -> Any:
    return open_db(official_import[0] / "cards.sqlite3")


@REAL
def test_real_membership_is_the_simulators_test_on_the_cdb_setcodes(
    db: Any, shared_data: Path
) -> None:
    setcodes = _setcodes(shared_data)
    got: dict[int, set[int]] = {}
    for code, name in ARCHETYPES:
        assert f"0x{code:x}" in facts.find_archetypes(db, name), name
        got[code] = {
            int(r[0])
            for r in db.rows(
                "SELECT card_id FROM archetype_cards WHERE arch = ? AND how = 'setcode'",
                (f"0x{code:x}",),
            )
        }
        want = {cid for cid, sc in setcodes.items() if naive_member(sc, code)}
        assert got[code] == want, name
    assert len(got[0x3008]) >= 80 and len(got[0x8]) > len(got[0x3008]) + len(got[0xC008])
    assert got[0x3008] | got[0xC008] <= got[0x8]  # every Elemental/Destiny HERO is a HERO
    assert got[0x1115] < got[0x115]
    assert 89943723 in got[0x3008]  # Elemental HERO Neos
    assert 26077387 in got[0x1115]  # Sky Striker Ace - Raye
    neos = [a["name"] for a in facts.archetypes_of(db, 89943723)]
    assert neos.index("Elemental HERO") < neos.index("HERO")


@REAL
def test_real_series_add_members_under_the_same_name(db: Any) -> None:
    hero = facts.archetype_cards(db, facts.find_archetypes(db, "HERO"))
    by_code = facts.archetype_cards(db, ["0x8"])
    assert by_code <= hero
    raye = {a["name"]: a["how"] for a in facts.archetypes_of(db, 26077387)}
    assert raye["Sky Striker Ace"] == "series+setcode"


@REAL
def test_real_lob_printings(db: Any, shared_data: Path) -> None:
    objs = json.loads(
        (shared_data / "upstream/DawnbrandBots__yaml-yugi/cards.json").read_text("utf-8")
    )
    want = {
        db.name_key(o["password"])
        for o in objs
        if o.get("password")
        and any(
            str(e.get("set_number", "")).upper().startswith("LOB-")
            for entries in (o.get("sets") or {}).values()
            for e in entries
        )
    }
    assert len(want) >= 126
    assert facts.set_cards(db, "LOB") == want
    assert facts.set_cards(db, "LOB-EN001") == {89631139}  # Blue-Eyes White Dragon
    bewd = facts.printings_of(db, 89631139)
    first = next(p for p in bewd if p["code"] == "LOB-001")
    assert first["set"] == "Legend of Blue Eyes White Dragon"
    assert first["rarities"] == ["Ultra Rare"] and first["date"] == "2002-03-08"  # YGOJSON's day
    assert bewd[0]["date"] is not None and bewd[0]["date"] <= "2002-03-08"  # oldest first
    with pytest.raises(facts.DataError, match="unknown set") as exc:
        facts.set_cards(db, "LOBB")
    assert "LOB" in str(exc.value)


@REAL
def test_real_import_notes_no_wrong_shapes_for_numberless_sets(
    official_import: tuple[Path, Any], db: Any
) -> None:
    notes = official_import[1].notes  # type: ignore[attr-defined]
    assert not [n for n in notes if "wrong shape" in n], notes
    numberless = db.rows("SELECT count(*) FROM printings WHERE code = ''")[0][0]
    assert numberless >= 900  # yaml-yugi writes "" for the first OCG sets' cards
    strings = next(f for f in official_import[1].files if f.kind == "edopro-strings")  # type: ignore[attr-defined]
    assert strings.rows >= 757 and strings.unmapped == {"skipped_lines": 0}


@REAL
def test_real_prerelease_passcodes_are_shown_as_their_official_card(db: Any) -> None:
    pairs = db.rows("SELECT edopro_id, official_id FROM official_ids")
    assert len(pairs) >= 80
    for pre, official in pairs:
        assert db.name_key(pre) == db.name_key(official), (pre, official)
    assert db.name_key(101402041) == 89913287  # Adamancipator Risen - Tiamite
    assert facts.same_card(db, 89913287) == [89913287, 101402041]
