"""Shipped format and list data: shapes, sources, cross-references, and real card identities.

Every file under banlists/ is read here (STYLE.md practice 5): formats must say what the
contract (docs/ARCHITECTURE.md "YAML data files") lets them say, lists must name real cards
under their real English names, and the seed lists must quote the seed documents they cite.
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO

BANLISTS = REPO / "banlists"
FORMATS_DIR = BANLISTS / "formats"
EXAMPLES = REPO / "examples"
SEED_IDS = REPO / "card_db" / "sample_ids_seeds.txt"

FORMAT_KEYS = {
    "id",
    "name",
    "extends",
    "description",
    "source",
    "main",
    "extra",
    "side",
    "copies",
    "list_family",
    "forbidden_as_limited",
    "pool",
    "universe",
    "game",
    "release_region",
    "release_cutoff",
    "skills",
    "legend",
    "extra_deck_types",
    "banned_types",
    "points_cap",
    "stale_after",
    "changes",
}
LIST_KEYS = {
    "name",
    "family",
    "effective",
    "date_exact",
    "announced",
    "source",
    "mode",
    "notes",
    "entries",
    "groups",
    "points",
}
SCOPES = {
    "ocg",
    "tcg",
    "anime",
    "illegal",
    "video_game",
    "custom",
    "speed",
    "prerelease",
    "rush",
    "legend",
    "simplified_chinese",
}
SUBTYPES = {
    "fusion",
    "synchro",
    "xyz",
    "link",
    "ritual",
    "pendulum",
    "normal",
    "effect",
    "spirit",
    "union",
    "gemini",
    "tuner",
    "maximum",
    "flip",
    "toon",
}

# What the brief and the seeds fix for each format, as resolved through `extends`
# (main, extra, side as (min, max); None = no upper limit).
EXPECTED: dict[str, dict[str, Any]] = {
    "tcg": {
        "main": (40, 60),
        "extra": (0, 15),
        "side": (0, 15),
        "copies": 3,
        "list_family": "tcg",
        "pool": ["tcg"],
        "universe": ["ocg-tcg"],
        "game": "paper",
        "stale_after": 200,
    },
    "ocg": {
        "main": (40, 60),
        "extra": (0, 15),
        "side": (0, 15),
        "copies": 3,
        "list_family": "ocg",
        "pool": ["ocg"],
        "stale_after": 200,
    },
    "traditional": {"list_family": "tcg", "forbidden_as_limited": True},
    "world": {"list_family": "world", "pool": ["ocg", "tcg"]},
    "goat": {
        "main": (40, 60),
        "extra": (0, 15),
        "side": (0, 15),
        "list_family": "goat",
        "stale_after": None,
    },
    "rush": {
        "main": (40, 60),
        "extra": (0, 15),
        "side": (0, 15),
        "pool": ["rush"],
        "universe": ["rush"],
        "list_family": "rush",
        "legend": "one_total",
    },
    "genesys": {
        "list_family": "genesys",
        "points_cap": 100,
        "copies": 3,
        "pool": ["tcg"],
        "banned_types": ["link", "pendulum"],
        "stale_after": 120,
    },
    "master-duel": {
        "main": (40, 60),
        "extra": (0, 15),
        "side": (0, 0),
        "list_family": "master-duel",
        "universe": ["ocg-tcg"],
        "game": "master-duel",
        "stale_after": 90,
    },
    "speed": {
        "main": (20, 30),
        "extra": (0, 5),  # at launch; 6 from 2021-01-01 (approximate), see changes
        "side": (0, 5),
        "list_family": "speed",
        "skills": (0, 1),
        "pool": [],  # the whitelist is the pool: plain OCG/TCG rows carry no Speed scope
        "universe": ["ocg-tcg"],  # Rush reprints are outside it, whatever the whitelist says
        "stale_after": None,
    },
    "duel-links-rush": {"universe": ["rush"], "game": "duel-links", "stale_after": 90},
    "speed-ocg": {
        "main": (20, 20),
        "extra": (0, 5),
        "side": (0, 0),
        "list_family": None,
        "copies": 3,
        "skills": None,
    },
    "duel-links": {
        "main": (20, 30),
        "extra": (0, 5),
        "side": (0, 0),
        "skills": (0, 1),
        "list_family": "duel-links",
        "universe": ["ocg-tcg"],
        "game": "duel-links",
        "stale_after": 90,
    },
    "duel-terminal": {"main": (10, 10), "extra": (0, 3), "side": (0, 0), "list_family": None},
    "entry-duel": {"main": (20, 20), "extra": (0, 5), "list_family": "entry-duel"},
    "legacy": {
        "main": (40, None),
        "extra": (0, None),
        "side": (0, 15),
        "copies": 3,
        "list_family": None,
        "universe": ["ocg-tcg"],
        "stale_after": None,
    },
    "legacy-80": {"main": (40, 80), "extra": (0, None), "side": (0, 15)},
    "dm5": {"main": (40, None), "extra": (0, None), "list_family": "dm5"},
    "dm6": {"main": (40, None), "extra": (0, None), "list_family": "dm6", "universe": ["ocg-tcg"]},
    "dmi": {"main": (40, None), "extra": (0, None), "list_family": "dmi"},
}


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


# Both never come back empty: a loop or a parametrization over nothing would pass.
def _format_files() -> dict[str, Path]:
    found = {p.stem: p for p in sorted(FORMATS_DIR.glob("*.yaml"))}
    assert len(found) >= len(EXPECTED), f"format files missing from {FORMATS_DIR}"
    return found


def _list_files() -> list[Path]:
    found = sorted(p for p in BANLISTS.glob("*/*.yaml") if p.parent.name != "formats")
    assert len(found) >= 4, f"list files missing from {BANLISTS}"  # dm5, dm6, dmi, entry-duel
    return found


def _resolved(fid: str, raw: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A format's keys with its `extends` chain applied (child keys win)."""
    chain: list[dict[str, Any]] = []
    seen: set[str] = set()
    cur: str | None = fid
    while cur is not None:
        assert cur not in seen, f"extends cycle through {cur}"
        seen.add(cur)
        chain.append(raw[cur])
        cur = raw[cur].get("extends")
    out: dict[str, Any] = {}
    for layer in reversed(chain):
        out.update(layer)
    return out


def _range(value: Any) -> tuple[int, int | None] | None:
    if value is None:
        return None
    return (value["min"], value["max"])


# --------------------------------------------------------------------------- formats


@pytest.fixture(scope="module")
def raw_formats() -> dict[str, dict[str, Any]]:
    return {fid: _load(p) for fid, p in _format_files().items()}


def test_every_named_format_is_shipped(raw_formats: dict[str, dict[str, Any]]) -> None:
    missing = sorted(set(EXPECTED) - set(raw_formats))
    assert not missing, f"formats missing from banlists/formats/: {missing}"


@pytest.mark.parametrize("fid", sorted(_format_files()))
def test_format_file_shape(fid: str, raw_formats: dict[str, dict[str, Any]]) -> None:
    d = raw_formats[fid]
    assert isinstance(d, dict)
    assert d["id"] == fid, "id must match the file name"
    unknown = set(d) - FORMAT_KEYS
    assert not unknown, f"keys outside the format contract: {sorted(unknown)}"
    assert d.get("name") and d.get("description") and d.get("source"), "name/description/source"
    if d.get("extends") is not None:
        assert d["extends"] in raw_formats, f"extends unknown format {d['extends']!r}"
    for key in ("main", "extra", "side", "skills"):
        r = d.get(key)
        if r is not None:
            assert set(r) == {"min", "max"}, key
            assert r["min"] >= 0 and (r["max"] is None or r["max"] >= r["min"]), key
    assert set(d.get("pool") or []) <= SCOPES
    assert set(d.get("extra_deck_types") or []) <= SUBTYPES
    assert set(d.get("banned_types") or []) <= SUBTYPES
    assert d.get("legend", "none") in {"none", "one_total", "one_per_type"}
    changes = d.get("changes") or []
    dates = [c["since"] for c in changes]
    assert all(isinstance(x, dt.date) for x in dates) and dates == sorted(dates)
    for c in changes:
        assert set(c) == {"since", "set"} and set(c["set"]) <= FORMAT_KEYS - {"id", "changes"}


def test_format_sources_cite_seed_lines_that_exist(
    raw_formats: dict[str, dict[str, Any]], shared_seeds: Path
) -> None:
    seeds = {p.name[:3]: p for p in shared_seeds.glob("00*.txt")}
    cited = 0
    for fid, d in raw_formats.items():
        for doc, start, end in re.findall(r"seeds/(00\d) l\.(\d+)(?:-(\d+))?", d["source"]):
            n_lines = len(seeds[doc].read_text(encoding="utf-8").splitlines())
            assert int(end or start) <= n_lines, f"{fid}: seeds/{doc} has {n_lines} lines"
            cited += 1
    assert cited >= 10


@pytest.mark.parametrize("fid", sorted(EXPECTED))
def test_format_rules_as_specified(fid: str, raw_formats: dict[str, dict[str, Any]]) -> None:
    d = _resolved(fid, raw_formats)
    for key, want in EXPECTED[fid].items():
        got = d.get(key)
        if key in ("main", "extra", "side", "skills"):
            got = _range(got)
        assert got == want, f"{fid}.{key}: {got!r} != {want!r}"


def test_date_dependent_rules(raw_formats: dict[str, dict[str, Any]]) -> None:
    def at(fid: str, day: str) -> dict[str, Any]:
        out = _resolved(fid, raw_formats)
        for c in raw_formats[fid].get("changes") or []:
            if c["since"] <= dt.date.fromisoformat(day):
                out.update(c["set"])
        return out

    assert at("rush", "2022-12-31")["legend"] == "one_total"
    assert at("rush", "2023-01-01")["legend"] == "one_per_type"
    assert "ritual" not in at("rush", "2025-04-25")["extra_deck_types"]
    assert "ritual" in at("rush", "2025-04-26")["extra_deck_types"]
    assert [
        at("duel-links", d)["extra"]["max"] for d in ("2017-01-11", "2020-06-01", "2024-01-01")
    ] == [5, 7, 8]
    assert [at("speed", d)["extra"]["max"] for d in ("2019-06-01", "2020-12-31", "2021-01-01")] == [
        5,
        5,
        6,
    ]
    # the TCG Speed Duel's change is not the other Speed-based formats'
    assert at("speed-ocg", "2024-01-01")["extra"]["max"] == 5
    assert at("duel-terminal", "2024-01-01")["extra"]["max"] == 3
    assert at("duel-links", "2021-06-01")["extra"]["max"] == 7


def test_formats_through_the_loader() -> None:
    from deckcheck.formats import load_formats

    loaded = load_formats()
    assert set(EXPECTED) <= set(loaded)
    dl = loaded["duel-links"]
    assert dl.at(dt.date(2018, 1, 1)).extra.max == 5
    assert dl.at(dt.date(2023, 1, 1)).extra.max == 8
    assert loaded["legacy"].main.max is None and loaded["legacy"].extra.max is None
    assert loaded["rush"].at(dt.date(2025, 5, 1)).legend == "one_per_type"
    assert "ritual" in loaded["rush"].at(dt.date(2025, 5, 1)).extra_deck_types
    assert loaded["genesys"].banned_types == frozenset({"link", "pendulum"})
    assert loaded["speed-ocg"].list_family is None


# --------------------------------------------------------------------------- lists


@pytest.mark.parametrize("path", _list_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_list_file_shape(path: Path) -> None:
    d = _load(path)
    unknown = set(d) - LIST_KEYS
    assert not unknown, f"keys outside the list contract: {sorted(unknown)}"
    assert d["family"] == path.parent.name
    assert isinstance(d["effective"], dt.date) and d["effective"].isoformat() == path.stem
    assert d["name"] and d["source"] and d.get("mode", "blacklist") in {"blacklist", "whitelist"}
    ids = [e["id"] for e in d["entries"]]
    assert len(ids) == len(set(ids)), "a passcode is listed twice"
    for e in d["entries"]:
        assert isinstance(e["id"], int) and e["limit"] in (0, 1, 2, 3) and e["name"]
        assert e["seed_name"], "seed lists keep the seed's spelling beside each card"


def test_lists_exist_for_families_of_builtin_formats(
    raw_formats: dict[str, dict[str, Any]],
) -> None:
    families = {p.parent.name for p in _list_files()}
    assert {"dm5", "dm6", "dmi", "entry-duel"} <= families
    for fid in ("dm5", "dm6", "dmi", "entry-duel"):
        assert _resolved(fid, raw_formats)["list_family"] in families


def test_list_cards_exist_in_real_database_under_that_name(shared_data: Path) -> None:
    db = sqlite3.connect(f"file:{shared_data / 'cards' / 'cards.cdb'}?mode=ro", uri=True)
    checked = 0
    for path in _list_files():
        for e in _load(path)["entries"]:
            row = db.execute(
                "SELECT t.name, d.alias, d.ot FROM texts t JOIN datas d USING(id) WHERE id = ?",
                (e["id"],),
            ).fetchone()
            assert row is not None, f"{path.name}: {e['id']} not in cards.cdb"
            assert row[0] == e["name"], f"{path.name}: {e['id']} is {row[0]!r}, not {e['name']!r}"
            assert row[1] == 0, f"{e['id']} is an alternate/alias id; list the canonical one"
            assert row[2] & 0x3, f"{e['id']} is not an OCG/TCG card"
            checked += 1
    assert checked >= 100


def test_seed_names_are_quoted_from_the_cited_seed_line(shared_seeds: Path) -> None:
    seed = (shared_seeds / "001_40b3a369326313b4.txt").read_text(encoding="utf-8")
    seed_lines = seed.splitlines()
    checked = 0
    for fam in ("dm5", "dm6", "dmi"):
        (path,) = (BANLISTS / fam).glob("*.yaml")  # one shipped list per seed family
        entries = _load(path)["entries"]
        assert entries, path
        for e in entries:
            line = seed_lines[e["seed_line"] - 1]
            assert line.startswith(fam.upper()), f"{e['seed_line']} is not a {fam} line"
            assert e["seed_name"] in re.split(r"[：、。]", line), (fam, e)
            checked += 1
    assert checked == 38 + 39 + 40  # the sizes test_seed_list_contents pins
    text = (shared_seeds / "004_020f870f596f678f.txt").read_text(encoding="utf-8")
    text_lines = text.splitlines()
    entries = _load(BANLISTS / "entry-duel" / "2015-05-01.yaml")["entries"]
    assert entries
    for e in entries:
        assert f"《{e['seed_name']}》" in text_lines[e["seed_line"] - 1]


def test_seed_list_contents() -> None:
    """Spot checks of the resolution (docs/FORMATS.md has the full table)."""

    def limits(fam: str) -> dict[str, int]:
        (path,) = (BANLISTS / fam).glob("*.yaml")
        return {e["name"]: e["limit"] for e in _load(path)["entries"]}

    dm5, dm6, dmi = limits("dm5"), limits("dm6"), limits("dmi")
    gods = {"Obelisk the Tormentor", "Slifer the Sky Dragon", "The Winged Dragon of Ra"}
    exodia = {"Exodia the Forbidden One"} | {
        f"{side} {part} of the Forbidden One"
        for side in ("Right", "Left")
        for part in ("Arm", "Leg")
    }
    for lst in (dm5, dm6):
        assert all(lst[g] == 0 for g in gods)
        assert all(lst[p] == 1 for p in exodia)
    assert all(dmi[p] == 1 for p in exodia) and not gods & set(dmi)
    assert dm5["Morphing Jar #2"] == 1 and dm6["Morphing Jar #2"] == 2
    assert dm5["Cyber Jar"] == dm6["Cyber Jar"] == dmi["Cyber Jar"] == 1
    assert dmi["Riryoku"] == 2 and dmi["Upstart Goblin"] == 1
    assert (len(dm5), len(dm6), len(dmi)) == (38, 39, 40)
    notes = " ".join(_load(next((BANLISTS / "dm6").glob("*.yaml")))["notes"])
    assert "比赛邀请卡" in notes and "未来壶" in notes
    assert "力托" in " ".join(_load(next((BANLISTS / "dmi").glob("*.yaml")))["notes"])


def test_lists_through_the_store() -> None:
    from deckcheck.formats.catalog import ListStore
    from deckcheck.paths import builtin_banlists_dir

    store = ListStore([builtin_banlists_dir()])
    for fam, day in (
        ("dm5", "2001-07-01"),
        ("dm6", "2002-07-01"),
        ("dmi", "2002-04-01"),
        ("entry-duel", "2015-05-01"),
    ):
        got = store.in_force(fam, dt.date(2026, 1, 1))
        assert got is not None and got.effective == dt.date.fromisoformat(day)
    dm6 = store.in_force("dm6", dt.date(2026, 1, 1))
    assert dm6 is not None and dm6.limit_of(55144522) == 1
    assert store.in_force("entry-duel", dt.date(2015, 4, 30)) is None


# --------------------------------------------------------------------------- sample ids, examples


def _ids_in(path: Path) -> set[int]:
    """Passcodes of an id file (``id  # name``) or of a .ydk (bare digit lines)."""
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if text.isdigit():
            out.add(int(text))
    return out


def test_sample_ids_cover_lists_and_examples() -> None:
    listed = _ids_in(SEED_IDS)
    for path in _list_files():
        missing = {e["id"] for e in _load(path)["entries"]} - listed
        assert not missing, f"{path.name}: add {sorted(missing)} to {SEED_IDS.name}"
    examples = sorted(EXAMPLES.rglob("*.ydk"))
    assert len(examples) >= 4  # dm6 and speed-ocg, legal and illegal
    for deck in examples:
        missing = _ids_in(deck) - listed
        assert not missing, f"{deck.name}: add {sorted(missing)} to {SEED_IDS.name}"
    sample = _load(REPO / "card_db" / "sample.yaml")
    in_sample = {c["id"] for c in sample["cards"]}
    assert listed <= in_sample, f"rerun tools/make_sample.py: {sorted(listed - in_sample)}"


def test_text_examples_name_the_legal_dm6_deck(shared_data: Path) -> None:
    """The Chinese and Japanese text lists are the DM6 example deck, card for card."""
    want: dict[int, int] = {}
    for i in _ids_in(EXAMPLES / "dm6" / "legal.ydk"):
        want[i] = 0
    for line in (EXAMPLES / "dm6" / "legal.ydk").read_text().splitlines():
        if line.isdigit():
            want[int(line)] += 1
    for lang, file in (("zh-CN", "dm6-zh-CN.txt"), ("ja-JP", "dm6-ja.txt")):
        db = sqlite3.connect(
            f"file:{shared_data / 'locales' / lang / 'cards.cdb'}?mode=ro", uri=True
        )
        got: dict[int, int] = {}
        for line in (EXAMPLES / "text" / file).read_text(encoding="utf-8").splitlines():
            m = re.fullmatch(r"(\d+) (.+)", line)
            if m:
                rows = db.execute(
                    "SELECT DISTINCT CASE WHEN alias != 0 THEN alias ELSE id END"
                    " FROM datas JOIN texts USING(id) WHERE name = ?",
                    (m.group(2),),
                ).fetchall()  # alternate artworks and reprints count as their card (SPEC §2)
                assert len(rows) == 1, f"{file}: {m.group(2)!r} is not one card"
                got[rows[0][0]] = got.get(rows[0][0], 0) + int(m.group(1))
        assert got == want, file


def test_every_format_has_legal_and_illegal_fixtures() -> None:
    """tests/formats/test_format_data_validate.py runs these through `deckcheck validate`."""
    fixtures = REPO / "tests" / "fixtures" / "formats"
    for fid in _format_files():
        for kind in ("legal", "illegal"):
            decks = list((fixtures / fid / kind).glob("*.ydk"))
            assert decks, f"no {kind} fixture deck for {fid}"
            for deck in decks:
                first = deck.read_text(encoding="utf-8").splitlines()[0]
                assert (first == "#expect: legal") == (kind == "legal"), deck
                assert re.fullmatch(r"#expect: (legal|(DC\d{3} ?)+)", first), deck
