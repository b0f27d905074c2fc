"""``card search`` with ``arch:``, ``set:``, ``o:``, ``--sort`` / ``order:`` and ``--all-ids``,
and ``card show``'s archetypes and printings (issue 30 items 2-4): on the staged real data
(cards.cdb setcodes, strings.conf, yaml-yugi, YGOJSON) and, for card text (the staged data has
none), on the hand-written fixtures of tests/carddb/test_knowledge.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from deckcheck.carddb import facts, open_db
from deckcheck.lookup import Index
from tests.builders import run_cli
from tests.carddb.test_knowledge import kn_db, naive_member, yy_db  # noqa: F401 (fixtures)

Cap = pytest.CaptureFixture[str]


@pytest.fixture
def kn_home(
    official_import: tuple[Path, Any],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    """DECKCHECK_HOME at the real home with the official data (strings.conf, yaml-yugi,
    YGOJSON), its name index warmed from a private cache (the shared home stays as it is)."""
    home = official_import[0]
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    Index.for_db(open_db(), cache_dir=tmp_path_factory.mktemp("kn-cache"))
    return home


def search(capsys: Cap, *args: str) -> tuple[int, Any, str]:
    rc, out, err = run_cli(capsys, "card", "search", *args, "--limit", "0", "-o", "json")
    return rc, (json.loads(out) if out.strip() else None), err


def ids(got: Any) -> list[int]:
    return [c["id"] for c in got["cards"]]


# --------------------------------------------------------------------------- arch:


@pytest.mark.realdata
def test_arch_is_the_setcode_membership_sub_archetype_within_parent(
    kn_home: Path, capsys: Cap
) -> None:
    db = open_db()
    wants: dict[int, set[int]] = {}
    for name, code in (("HERO", 0x8), ('"Elemental HERO"', 0x3008), ("sky-striker", 0x115)):
        rc, got, _ = search(capsys, f"arch:{name}")
        assert rc == 0, name
        found = set(ids(got))
        assert len(found) == len(ids(got))  # each card once
        # every card whose cards.cdb setcode has the code (the simulators' test) is found,
        # under the passcode lookup shows it as
        want = {
            int(db.name_key(int(cid)))
            for cid, sc in db.rows("SELECT id, setcode FROM cards WHERE setcode != 0")
            if naive_member(int(sc) & 0xFFFFFFFFFFFFFFFF, code)
        }
        assert want <= found and want, name
        wants[code] = want
    _, hero, _ = search(capsys, "arch:hero")
    _, ehero, _ = search(capsys, 'arch:"elemental hero"')
    assert wants[0x3008] < wants[0x8] and wants[0x3008] < set(ids(hero))  # within HERO
    assert 89943723 in ids(ehero)  # Elemental HERO Neos
    _, fusion, _ = search(capsys, 'arch:"elemental hero" t:fusion')
    assert 35809262 in ids(fusion)  # Elemental HERO Flame Wingman


@pytest.mark.realdata
def test_unknown_archetype_is_exit_2_with_the_closest(kn_home: Path, capsys: Cap) -> None:
    rc, out, err = run_cli(capsys, "card", "search", "arch:elementalhro")
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "unknown archetype 'elementalhro'" in err
    assert "Elemental HERO" in err


@pytest.mark.realdata
def test_arch_without_strings_conf_names_the_source(real_home: Path, capsys: Cap) -> None:
    # the real cards.cdb and lists, no strings.conf or yaml-yugi: never an empty success
    Index.for_db(open_db(), cache_dir=real_home.parent / "kn-plain-cache")
    rc, out, err = run_cli(capsys, "card", "search", "arch:HERO")
    assert rc == 2 and out == ""
    assert "strings.conf" in err and "deckcheck update" in err


# --------------------------------------------------------------------------- set:


@pytest.mark.realdata
def test_set_prefix_and_full_printing(kn_home: Path, capsys: Cap) -> None:
    db = open_db()
    rc, lob, _ = search(capsys, "set:LOB")
    assert rc == 0
    want = {
        int(r[0])
        for r in db.rows(
            "SELECT DISTINCT c.name_key FROM printings p JOIN cards c ON c.id = p.card_id "
            "WHERE p.code LIKE 'LOB-%'"
        )
    }
    assert set(ids(lob)) == want and 89631139 in want and len(want) > 100
    rc, one, _ = search(capsys, "set:lob-en001")
    assert rc == 0 and ids(one) == [89631139]  # Blue-Eyes White Dragon
    rc, _out, err = run_cli(capsys, "card", "search", "set:LOBX")
    assert rc == 2 and "unknown set 'LOBX'" in err and "LOB" in err


# --------------------------------------------------------------------------- sorting, once


@pytest.mark.realdata
def test_sort_and_order_descending_and_ascending(kn_home: Path, capsys: Cap) -> None:
    _, desc, _ = search(capsys, "set:LOB t:monster", "--sort", "-atk")
    atks = [c.get("atk") for c in desc["cards"]]
    assert desc["cards"][0]["id"] == 89631139  # 3000 ATK first
    assert [a for a in atks if a is not None] == sorted(
        (a for a in atks if a is not None), reverse=True
    )
    _, same, _ = search(capsys, "set:LOB t:monster order:atk-desc")
    _, words, _ = search(capsys, "set:LOB t:monster", "--sort", "atk desc")
    assert ids(same) == ids(desc) == ids(words)
    _, asc, _ = search(capsys, "set:LOB t:monster order:atk")
    got = [c["atk"] for c in asc["cards"] if c.get("atk") is not None]
    assert got == sorted(got)
    _, lv, _ = search(capsys, "set:LOB order:-level")
    levels = [c.get("level") for c in lv["cards"] if c["kind"] == "monster"]
    assert levels == sorted(levels, reverse=True)
    assert lv["cards"][-1]["kind"] != "monster"  # no Level: last either way
    _, names, _ = search(capsys, "set:LOB", "--sort", "name")
    assert [c["name"].casefold() for c in names["cards"]] == sorted(
        c["name"].casefold() for c in names["cards"]
    )
    _, rel, _ = search(capsys, "arch:blue-eyes t:monster", "--sort", "released")
    assert rel["cards"][0]["id"] == 89631139  # the first Blue-Eyes


@pytest.mark.realdata
@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["set:LOB", "--sort", "power"], "cannot sort by 'power'"),
        (["set:LOB order:atk", "--sort", "-atk"], "disagree"),
        (["(set:LOB or order:atk)"], "top level"),
    ],
)
def test_bad_sort_is_exit_2(kn_home: Path, capsys: Cap, args: list[str], why: str) -> None:
    rc, out, err = run_cli(capsys, "card", "search", *args)
    assert rc == 2 and out == "" and why in err


@pytest.mark.realdata
def test_each_card_once_and_all_ids(kn_home: Path, capsys: Cap) -> None:
    # Adamancipator Risen - Tiamite: official 89913287 and EDOPro's prerelease 101402041
    rc, got, _ = search(capsys, "tiamite", "--sort", "name")
    assert rc == 0 and 89913287 in ids(got) and 101402041 not in ids(got)
    rc, out, _ = run_cli(capsys, "card", "search", "tiamite", "-o", "json")  # ranked
    ranked = [m["id"] for m in json.loads(out)["matches"]]
    assert rc == 0 and ranked[0] == 89913287 and 101402041 not in ranked
    _, every, _ = search(capsys, "tiamite", "--all-ids")
    risen = next(c for c in every["cards"] if c["id"] == 89913287)
    assert risen["ids"] == [89913287, 101402041]
    rc, out, _ = run_cli(capsys, "card", "search", "Blue-Eyes White Dragon", "--all-ids")
    line = next(x for x in out.splitlines() if x.split()[0] == "89631139")
    assert out.splitlines()[0].split()[-1] == "ALSO" and "89631140" in line


# --------------------------------------------------------------------------- card show


@pytest.mark.realdata
def test_card_show_lists_archetypes_and_printings(kn_home: Path, capsys: Cap) -> None:
    rc, out, _ = run_cli(capsys, "card", "show", "89631139", "-o", "json")
    info = json.loads(out)
    assert rc == 0
    assert "Blue-Eyes" in [a["name"] for a in info["archetypes"]]
    lob = next(p for p in info["printings"] if p["code"] == "LOB-EN001")
    assert lob["set"] == "Legend of Blue Eyes White Dragon"
    assert "Ultra Rare" in lob["rarities"]
    first = next(p for p in info["printings"] if p["code"] == "LOB-001")  # the first print
    assert first["date"] == "2002-03-08"  # YGOJSON's North American release of LOB-
    rc, out, _ = run_cli(capsys, "card", "show", "Elemental HERO Neos")
    assert rc == 0
    arch = next(x for x in out.splitlines() if x.strip().startswith("archetypes:"))
    assert arch.index("Elemental HERO (0x3008)") < arch.index("HERO (0x8)")
    assert any(x.strip().startswith("printings (") for x in out.splitlines())


# --------------------------------------------------------------------------- o: (fixtures)


@pytest.fixture
def text_home(
    yy_db: tuple[Path, list[str]],  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Path:
    home = tmp_path / "text-home"
    home.mkdir()
    shutil.copy2(yy_db[0], home / "cards.sqlite3")
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    return home


def test_o_words_phrases_width_and_cjk(text_home: Path, capsys: Cap) -> None:
    rc, got, _ = search(capsys, 'o:"NEGATE the activation"')
    assert rc == 0 and ids(got) == [100]
    _, got, _ = search(capsys, "o:negate")
    assert set(ids(got)) == {100, 106}  # 106: full-width cdb text, NFKC folded
    _, got, _ = search(capsys, "o:破壊")
    assert set(ids(got)) == {100, 107}
    _, got, _ = search(capsys, "o:negate -o:all arch:hero")
    assert ids(got) == [100]
    rc, got, _ = search(capsys, 'o:"no such words"')
    assert rc == 1 and got["total"] == 0
    rc, _out, err = run_cli(capsys, "card", "search", 'o:"!!"')
    assert rc == 2 and "no letters or digits" in err


def test_o_without_text_names_the_source(
    kn_db: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Cap,
) -> None:
    from deckcheck.carddb.importer import import_files
    from tests.carddb.test_knowledge import knowledge_cdb

    home = tmp_path / "plain-home"
    home.mkdir()
    import_files(
        [knowledge_cdb(tmp_path / "p.cdb", {1: (0, 0, "A", "")})], db_path=home / "cards.sqlite3"
    )
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    rc, out, err = run_cli(capsys, "card", "search", "o:draw")
    assert rc == 2 and out == "" and "no card text installed" in err and "yaml-yugi" in err
    assert facts.status(open_db(home / "cards.sqlite3"))["texts"] == 0
