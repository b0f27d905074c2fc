"""`deckcheck meta` on the real decks of ../shared/data/decks (209 .ydk files), the real card
database and EDOPro's real strings.conf: every card's usage is checked against a count made
here by reading the .ydk files directly, every deck's archetype against the setcodes of
cards.cdb with the simulators' test, the legal counts against `validate -o json`."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from deckcheck.archetype import THRESHOLD
from tests.builders import run_cli

pytestmark = pytest.mark.realdata

Cap = pytest.CaptureFixture[str]
SECTIONS = ("main", "extra", "side")
DATE = "2024-01-01"


def _read_ydk(path: Path) -> dict[str, Counter[int]]:
    """Copies per passcode in each section, read from the file's lines (not deckcheck's reader)."""
    out: dict[str, Counter[int]] = {s: Counter() for s in SECTIONS}
    section = None
    for line in path.read_bytes().decode("utf-8", "replace").splitlines():
        s = line.strip().lower()
        if s.startswith("#main"):
            section = "main"
        elif s.startswith("#extra"):
            section = "extra"
        elif s.startswith("!side"):
            section = "side"
        elif section is not None and s.isdigit():
            out[section][int(s)] += 1
    return out


def _independent(decks: list[Path], home: Path) -> dict[int, Any]:
    """Per card (its name key, from the database's own table): decks playing it, average
    copies when played, and the same per section."""
    con = sqlite3.connect(home / "cards.sqlite3")
    key = {int(i): int(k) for i, k in con.execute("SELECT id, name_key FROM cards")}
    con.close()
    use: dict[int, dict[str, list[int]]] = {}
    for path in decks:
        anywhere: Counter[int] = Counter()
        for s, got in _read_ydk(path).items():
            folded: Counter[int] = Counter()
            for cid, n in got.items():
                folded[key.get(cid, cid)] += n
            for cid, n in folded.items():
                cell = use.setdefault(cid, {}).setdefault(s, [0, 0])
                cell[0] += 1
                cell[1] += n
                anywhere[cid] += n
        for cid, n in anywhere.items():
            cell = use.setdefault(cid, {}).setdefault("all", [0, 0])
            cell[0] += 1
            cell[1] += n

    def one(cell: list[int] | None) -> tuple[int, float | None]:
        return (cell[0], round(cell[1] / cell[0], 2)) if cell else (0, None)

    return {
        cid: (one(u.get("all")), {s: one(u.get(s)) for s in SECTIONS}) for cid, u in use.items()
    }


@pytest.fixture(scope="module")
def meta_doc(meta_home_dir: Path, decks_dir: Path) -> dict[str, Any]:
    """`deckcheck meta DECKS --format tcg --date DATE -o json`, run once for the module."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "DECKCHECK_HOME": str(meta_home_dir)}
    args = ["meta", str(decks_dir), "--format", "tcg", "--date", DATE, "-o", "json"]
    got = subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert got.returncode == 0, got.stderr
    return dict(json.loads(got.stdout))


def test_every_cards_usage_matches_a_count_of_the_files(
    meta_doc: dict[str, Any], decks_dir: Path, meta_home_dir: Path
) -> None:
    decks = sorted(decks_dir.rglob("*.ydk"))
    assert len(decks) > 200
    assert meta_doc["summary"]["decks"] == len(decks)
    assert meta_doc["summary"]["unreadable"] == 0
    want = _independent(decks, meta_home_dir)
    got = {
        c["id"]: (
            (c["decks"], c["average"]),
            {s: (c["sections"][s]["decks"], c["sections"][s]["average"]) for s in SECTIONS},
        )
        for c in meta_doc["cards"]
    }
    assert got == want
    n = len(decks)
    for c in meta_doc["cards"]:
        assert c["share"] == round(100 * c["decks"] / n, 2)
    # most played first; Ash Blossom is the most played card of these decks
    assert [c["decks"] for c in meta_doc["cards"]] == sorted(
        (c["decks"] for c in meta_doc["cards"]), reverse=True
    )
    assert meta_doc["cards"][0]["name"] == "Ash Blossom & Joyous Spring"


def test_alternate_artworks_are_folded_into_their_card(meta_doc: dict[str, Any]) -> None:
    ids = {c["id"] for c in meta_doc["cards"]}
    # Dark Magician's artworks (46986409, 46986410, ...) count as 46986414
    assert 46986414 in ids
    assert not ids & {46986409, 46986410, 46986411, 46986412, 46986413}


def _setnames(conf: Path) -> dict[int, str]:
    out: dict[int, str] = {}
    for line in conf.read_text(encoding="utf-8").splitlines():
        if line.startswith("!setname "):
            code, _, name = line[len("!setname ") :].partition(" ")
            out[int(code, 16)] = name.split("\t")[0].strip()
    return out


def _member(setcode: int, code: int) -> bool:
    """The simulators' IsSetCard on each 16-bit part of a card's setcode."""
    for shift in (0, 16, 32, 48):
        part = (setcode >> shift) & 0xFFFF
        if part and (part & 0xFFF) == (code & 0xFFF) and (part & code) == code:
            return True
    return False


def test_each_decks_archetype_holds_the_most_main_deck_copies(
    meta_doc: dict[str, Any], decks_dir: Path, shared_data: Path
) -> None:
    from tests._realhome import card_files

    setcode: dict[int, int] = {}
    for f in card_files(shared_data):
        con = sqlite3.connect(f)
        for cid, sc in con.execute("SELECT id, setcode FROM datas"):
            setcode.setdefault(int(cid), int(sc))
        con.close()
    names = _setnames(
        shared_data / "upstream" / "ProjectIgnis__Distribution" / "config" / "strings.conf"
    )
    by_input = {d["input"]: d for d in meta_doc["decks"]}
    picked = 0
    for path in sorted(decks_dir.rglob("*.ydk")):
        d = by_input[str(path)]
        main = _read_ydk(path)["main"]
        total = sum(main.values())
        copies = {
            code: sum(n for cid, n in main.items() if _member(setcode.get(cid, 0), code))
            for code in names
        }
        best = max(copies.values())
        assert d["main"] == total
        if best == 0:
            assert d["archetype"] == "mixed / no archetype" and d["nearest"] is None
            continue
        assert d["archetype_copies"] == best, path.name
        if best < THRESHOLD * total:
            assert d["archetype"] == "mixed / no archetype", path.name
            continue
        picked += 1
        code = int(d["archetype_code"], 16)
        assert copies[code] == best and names[code] == d["archetype"], path.name
    assert picked > 80
    arch = meta_doc["archetypes"]
    assert sum(a["decks"] for a in arch) == len(meta_doc["decks"])
    assert arch[-1]["name"] == "mixed / no archetype"
    n = len(meta_doc["decks"])
    for a in arch:
        assert a["share"] == round(100 * a["decks"] / n, 2)
        assert sorted(a["inputs"]) == sorted(
            d["input"] for d in meta_doc["decks"] if d["archetype"] == a["name"]
        )


def test_the_legal_counts_are_validates(
    meta_doc: dict[str, Any], meta_home: Path, decks_dir: Path, capsys: Cap
) -> None:
    rc, out, err = run_cli(
        capsys, "validate", decks_dir, "--format", "tcg", "--date", DATE, "-o", "json"
    )
    assert rc in (0, 1), err
    doc = json.loads(out)
    legal = {d["input"]: d["legal"] for d in doc["decks"]}
    assert {d["input"]: d["legal"] for d in meta_doc["decks"]} == legal
    assert meta_doc["summary"]["legal"] == sum(legal.values())
    assert meta_doc["summary"]["illegal"] == len(legal) - sum(legal.values())
    for a in meta_doc["archetypes"]:
        assert a["legal"] + a["illegal"] == a["decks"]
    assert meta_doc["format"]["id"] == "tcg" and meta_doc["date"] == DATE
