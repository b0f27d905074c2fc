"""The card pool rule (rules/pool.py) on the real data: GOAT's "(GOAT)" entries admitting the
real cards, the video games' own release dates, size changes by date, retro cut-offs."""

from __future__ import annotations

import base64
import datetime as dt
import json
import re
import sqlite3
import struct
from collections.abc import Iterable
from pathlib import Path

import pytest

from deckcheck.cli import main

pytestmark = pytest.mark.realdata

GOAT_LIST = Path("banlists", "projectignis-lflists", "GOAT", "2005.4 GOAT.lflist.conf")
GOAT_DAY = "2005-09-01"
# TCG Structure Decks of 2004-2005 (ProjectIgnis/Distribution), every card in the GOAT pool
GOAT_DECKS = ("Blaze of Destruction", "Dragon's Roar", "Fury from the Deep", "Zombie Madness")
# cards the GOAT list names only under their "(GOAT)" entry (504700xxx, "illegal" scope)
SANGAN, SERPENT, BLS, NOBLEMAN = 26202165, 8131171, 72989439, 71044499
TYPE_MONSTER, TYPE_SPELL, TYPE_TRAP = 0x1, 0x2, 0x4
EXTRA_OR_ODD = 0x40 | 0x80 | 0x2000 | 0x4000 | 0x800000 | 0x1000000 | 0x4000000 | 0x8000000


def ydke(main_: Iterable[int], extra: Iterable[int] = ()) -> str:
    def part(ids: Iterable[int]) -> str:
        return base64.b64encode(b"".join(struct.pack("<I", i) for i in ids)).decode()

    return f"ydke://{part(main_)}!{part(extra)}!!"


def report(capsys: pytest.CaptureFixture[str], fmt: str, day: str, deck: str) -> dict:
    capsys.readouterr()
    code = main(["validate", "-f", fmt, "--date", day, "-o", "json", deck])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return json.loads(out)["decks"][0]  # type: ignore[no-any-return]


def errors(rep: dict) -> set[tuple[str, int | None]]:
    return {
        (f["code"], (f.get("card") or {}).get("id"))
        for f in rep["findings"]
        if f["severity"] == "error"
    }


@pytest.fixture(scope="module")
def goat(shared_data: Path) -> dict[str, object]:
    """The GOAT list as EDOPro's file says (passcode -> count), the entries' cards, filler."""
    text = (shared_data / GOAT_LIST).read_text(encoding="utf-8")
    limits = {int(m[1]): int(m[2]) for m in re.finditer(r"^(\d+) (-?\d+)", text, re.MULTILINE)}
    con = sqlite3.connect(f"file:{shared_data / 'cards' / 'cards.cdb'}?mode=ro", uri=True)
    try:
        rows = {
            i: (ot, alias, t)
            for i, ot, alias, t in con.execute("SELECT id, ot, alias, type FROM datas")
        }
    finally:
        con.close()
    entry_of = {
        rows[c][1]: c
        for c in limits
        if c in rows and rows[c][1] and abs(c - rows[c][1]) >= 10 and rows[c][0] & 0x8
    }
    filler = sorted(
        c
        for c, n in limits.items()
        if n == 3
        and c in rows
        and rows[c][0] == 3
        and not rows[c][1]
        and rows[c][2] & (TYPE_MONSTER | TYPE_SPELL | TYPE_TRAP)
        and not rows[c][2] & EXTRA_OR_ODD
    )[:13]
    assert len(filler) == 13
    return {"limits": limits, "entry_of": entry_of, "filler": filler, "rows": rows}


@pytest.mark.parametrize("name", GOAT_DECKS)
def test_goat_structure_decks_are_legal(
    real_home: Path, shared_data: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = shared_data / "decks" / "ProjectIgnis__Distribution" / f"Structure Deck - {name}.ydk"
    rep = report(capsys, "goat", GOAT_DAY, str(deck))
    assert rep["legal"] and not errors(rep), rep["findings"]


def test_goat_real_passcodes_take_their_entry_limit(
    real_home: Path, goat: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    from deckcheck.formats import ListStore

    lst = ListStore.default().in_force("goat", dt.date.fromisoformat(GOAT_DAY))
    assert lst is not None and lst.mode == "whitelist"
    limits, entry_of, filler = goat["limits"], goat["entry_of"], goat["filler"]
    want = {SANGAN: 1, SERPENT: 1, BLS: 1, NOBLEMAN: 2}
    for card, n in want.items():
        assert card not in limits  # EDOPro's file names only the "(GOAT)" entry
        assert limits[entry_of[card]] == n
        assert lst.limit_of(card) == n, card
    base = [c for c in filler for _ in range(3)]  # 39 cards
    for card, n in want.items():
        rep = report(capsys, "goat", GOAT_DAY, ydke([*base[: 40 - n], *[card] * n]))
        assert rep["legal"], (card, rep["findings"])
        if n < 3:  # one copy over the entry's limit is over the card's limit
            rep = report(capsys, "goat", GOAT_DAY, ydke([*base[: 39 - n], *[card] * (n + 1)]))
            code = {1: "DC403", 2: "DC404"}[n]  # over Limited / over Semi-Limited
            assert (code, card) in errors(rep), (card, rep["findings"])


def test_goat_card_on_no_entry_is_still_out_of_the_pool(
    real_home: Path, goat: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    limits, entry_of, rows = goat["limits"], goat["entry_of"], goat["rows"]
    ash = 14558127  # Ash Blossom (2015): neither on the list nor under an entry
    assert ash not in limits and ash not in entry_of and rows[ash][0] & 3
    base = [c for c in goat["filler"] for _ in range(3)]
    rep = report(capsys, "goat", GOAT_DAY, ydke([*base, ash]))
    assert ("DC405", ash) in errors(rep), rep["findings"]


# --------------------------------------------------------------------------- video-game pools

CHAIN_DISPEL = 3171055  # TCG 2014; Master Duel 2022-04-04; Duel Links 2018-05-01 (YGOJSON)
MD_LIST = Path("banlists", "yaml-yugi-limit-regulation", "master-duel", "2022-01-19.vector.json")
DL_DB = Path("upstream", "falsepopsky__forbidden-duel-links", "prisma", "dev.db")


@pytest.fixture(scope="module")
def games_home(
    official_import: tuple[Path, object],
    shared_data: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    """The real home with the official card data (release dates) plus the Master Duel list of
    2022-01-19 and the Duel Links lists, imported as a user would."""
    import shutil

    from deckcheck.formats.importer import import_lflists
    from tests._realhome import home_env

    home = tmp_path_factory.mktemp("games-home")
    shutil.copy2(official_import[0] / "cards.sqlite3", home / "cards.sqlite3")
    shutil.copytree(official_import[0] / "banlists", home / "banlists")
    with home_env(home):
        import_lflists([shared_data / MD_LIST, shared_data / DL_DB], dest=home / "banlists")
    return home


def game_filler(home: Path, n: int) -> list[int]:
    """Normal monsters in Master Duel from its launch and in Duel Links before Chain Dispel."""
    con = sqlite3.connect(f"file:{home / 'cards.sqlite3'}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT c.id FROM cards c "
            "JOIN releases m ON m.card_id = c.id AND m.region = 'masterduel' "
            "JOIN releases d ON d.card_id = c.id AND d.region = 'duellinks' "
            "WHERE c.type_bits = 17 AND c.canonical = c.id AND m.first_date = '2022-01-19' "
            "AND d.first_date < '2018-05-01' ORDER BY c.id LIMIT ?",
            (n,),
        ).fetchall()
    finally:
        con.close()
    assert len(rows) == n
    return [r[0] for r in rows]


def test_card_records_carry_the_games_release_dates(games_home: Path) -> None:
    from deckcheck.carddb import open_db

    db = open_db(games_home / "cards.sqlite3")
    card = db.get(CHAIN_DISPEL)
    assert card is not None
    assert card.md_date == db.first_release(CHAIN_DISPEL, "masterduel") == dt.date(2022, 4, 4)
    assert card.dl_date == db.first_release(CHAIN_DISPEL, "duellinks") == dt.date(2018, 5, 1)
    assert card.tcg_date is not None and card.tcg_date < dt.date(2018, 5, 1)


@pytest.mark.parametrize(
    "fmt,game,released,copies",
    [
        ("master-duel", "Master Duel", "2022-04-04", 13),
        ("duel-links", "Duel Links", "2018-05-01", 7),
    ],
)
def test_a_card_first_seen_in_a_later_pack_is_only_a_warning(
    games_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    game: str,
    released: str,
    copies: int,
) -> None:
    """Chain Dispel: TCG since 2014, first in a dated pack of the game later; the game may
    have had it earlier (undated ways in), so the pack date warns and never refuses."""
    monkeypatch.setenv("DECKCHECK_HOME", str(games_home))
    deck = ydke([CHAIN_DISPEL, *[c for c in game_filler(games_home, copies) for _ in range(3)]])
    day = dt.date.fromisoformat(released)
    before = report(capsys, fmt, (day - dt.timedelta(days=1)).isoformat(), deck)
    found = [f for f in before["findings"] if f["code"] == "DC502"]
    assert [(f["card"]["id"], f["severity"]) for f in found] == [(CHAIN_DISPEL, "warning")]
    assert (
        f"first seen in {game} in a pack of {released}, after the event date"
        in (found[0]["message"])
    )
    assert before["legal"], before["findings"]
    on = report(capsys, fmt, released, deck)
    assert on["legal"] and not [f for f in on["findings"] if f["code"] == "DC502"]


# --------------------------------------------------------------------------- retro cut-offs

ASH = 14558127


@pytest.mark.parametrize(
    "fmt,day",
    [
        ("dm5", "2001-08-01"),
        ("dm6", "2002-08-01"),
        ("dmi", "2002-05-01"),
        ("legacy", "2008-01-01"),
        ("entry-duel", "2015-06-01"),
    ],
)
def test_ash_blossom_is_out_of_the_retro_pools_with_release_data(
    official_import: tuple[Path, object],
    real_home_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    day: str,
) -> None:
    deck = ydke([ASH] * 3 + [c for c in (89631139, 46986414, 38033121) for _ in range(3)])
    monkeypatch.setenv("DECKCHECK_HOME", str(official_import[0]))
    rep = report(capsys, fmt, day, deck)
    found = [f for f in rep["findings"] if f["code"] == "DC502"]
    assert [f["card"]["id"] for f in found] == [ASH], rep["findings"]
    # without the release data (EDOPro's cards.cdb has no dates) nothing catches it
    monkeypatch.setenv("DECKCHECK_HOME", str(real_home_dir))
    rep = report(capsys, fmt, day, deck)
    assert not [f for f in rep["findings"] if f["code"] == "DC502"]
