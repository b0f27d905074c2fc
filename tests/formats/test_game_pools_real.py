"""Issue 27 on the real staged data, every official file installed (``lists_home``):

* every card named on each official Master Duel and Duel Links list is in the game's pool on
  that list's own day, as ``validate`` checks it (all lists, not a sample);
* a Rush Duel reprint is refused (DC504) in every shipped non-Rush format;
* ``card show`` answers as ``validate`` does: over a seeded sample of cards in every shipped
  format, the card findings ``validate`` gives one copy of a card are those of
  ``deckcheck.cardstatus``, and ``card show``'s rows are built from the same answer.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcheck.carddb import open_db
from deckcheck.cardstatus import CardStatus, status_in
from deckcheck.engine import Engine
from deckcheck.errors import DataError
from deckcheck.formats import load_formats
from deckcheck.formats.catalog import ListStore, is_official
from deckcheck.model import Card, Deck, DeckEntry
from tests._realhome import home_env

#: the codes ``validate`` gives about a card itself (``deckcheck.cardstatus``)
CARD_CODES = {"DC104", "DC303", "DC402", "DC405", "DC409", "DC501", "DC502", "DC503", "DC504"}
POOL_CODES = {"DC405", "DC409", "DC501", "DC502", "DC503", "DC504"}
BLUE_EYES_RUSH = 160001000  # "Blue-Eyes White Dragon (Rush)", treated as 89631139
BLUE_EYES = 89631139


@pytest.fixture(scope="module")
def engine(lists_home: Path) -> Iterator[Engine]:
    """One engine over the home, as one ``validate`` run has it."""
    with home_env(lists_home):
        store = ListStore.default()
        yield Engine(open_db(lists_home / "cards.sqlite3"), store)


def one_deck(cards: list[Card], source: str = "probe") -> Deck:
    """One copy of each card, each in its own section (an Extra Deck monster in the Extra)."""
    main, extra = [], []
    for i, c in enumerate(cards, 1):
        if c.is_extra_deck_monster:
            extra.append(DeckEntry("extra", c.id, i))
        else:
            main.append(DeckEntry("main", c.id, i))
    return Deck(source, main, extra)


def game_lists(engine: Engine, family: str) -> list:
    return [b for b in engine.lists.lists(family, superseded=True) if is_official(b.source)]


@pytest.mark.parametrize(("family", "at_least"), [("master-duel", 60), ("duel-links", 50)])
def test_every_card_on_each_official_list_of_the_game_is_in_its_pool_that_day(
    engine: Engine, family: str, at_least: int
) -> None:
    lists = game_lists(engine, family)
    assert len(lists) >= at_least  # 65 Master Duel lists (2022-01-19 on), 56 Duel Links
    bad: list[str] = []
    named = 0
    for b in lists:
        ids = sorted({*b.limits, *b.points, *(c for g in b.groups for c in g.cards)})
        cards = [c for c in map(engine.cards.get, ids) if c is not None]
        assert len(cards) == len(ids), f"{b.name}: cards the database does not know"
        named += len(cards)
        target = engine.target(family, b.effective, f"{family}@{b.effective.isoformat()}")
        assert target.game is not None and target.game.installed
        report = engine.check(one_deck(cards, b.name), target)
        # no pool finding at all, not even a warning: the list naming a card settles it
        bad += [f"{b.name}: {f.message}" for f in report.findings if f.code in POOL_CODES]
    assert not bad, bad[:20]
    assert named > (10_000 if family == "master-duel" else 3_000)


def test_a_card_no_source_puts_in_the_game_is_refused_there(engine: Engine) -> None:
    """Ash Blossom is in Master Duel (at launch, whatever its first dated pack) and not in
    Duel Links: DC504 there, as an error."""
    ash = engine.cards.get(14558127)
    assert ash is not None
    md = status_in(ash, ash.id, engine.target("master-duel", dt.date(2022, 1, 19)))
    assert md.allowed and md.word == "Unlimited", md.findings
    dl = status_in(ash, ash.id, engine.target("duel-links", dt.date(2025, 5, 7)))
    assert [(f[0], f[2]) for f in dl.findings] == [("DC504", None)]
    assert "not in Duel Links: no source puts it in the game" in dl.findings[0][1]


def shipped_formats() -> list[str]:
    return sorted(load_formats())


def rush_reprints(home: Path) -> list[int]:
    """Every Rush Duel row treated as an OCG/TCG card (EDOPro ``alias`` to a non-Rush card)."""
    con = sqlite3.connect(f"file:{home / 'cards.sqlite3'}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT r.id FROM cards r JOIN cards o ON o.id = r.canonical "
            "WHERE r.alias_kind = 'treated_as' AND (r.scopes & ?) AND NOT (o.scopes & ?) "
            "ORDER BY r.id",
            (0x200, 0x200),
        ).fetchall()
    finally:
        con.close()
    return [r[0] for r in rows]


def test_rush_reprints_are_refused_in_every_non_rush_format(
    engine: Engine, lists_home: Path
) -> None:
    reprints = rush_reprints(lists_home)
    assert BLUE_EYES_RUSH in reprints and len(reprints) > 150
    cards = [c for c in map(engine.cards.get, reprints) if c is not None]
    day = dt.date(2025, 5, 10)
    checked = []
    for fid in shipped_formats():
        fmt = engine.format(fid).at(day)
        if "rush" in fmt.universe:
            continue
        try:
            target = engine.target(fid, day, upcoming=False)
        except DataError:
            continue  # no list of the family in force that day
        report = engine.check(one_deck(cards), target)
        refused = {f.card_id for f in report.findings if f.code in ("DC503", "DC504")}
        passed = [c.name for c in cards if c.id not in refused and c.canonical not in refused]
        assert not passed, (fid, passed[:10])
        checked.append(fid)
    assert {"tcg", "ocg", "goat", "speed", "master-duel", "duel-links", "legacy", "dm6"} <= set(
        checked
    )


# --------------------------------------------------------------------------- card show = validate

SAMPLE = 120
DAYS = (dt.date(2022, 6, 1), dt.date(2025, 5, 10))


def sample_cards(home: Path, n: int = SAMPLE) -> list[int]:
    """A seeded sample of passcodes, with each kind the rules tell apart: Rush cards and
    reprints, skills, tokens, video-game-only, anime and prerelease rows, alternate artworks,
    Extra Deck monsters, Pendulum and Link monsters, and plain cards."""
    con = sqlite3.connect(f"file:{home / 'cards.sqlite3'}?mode=ro", uri=True)
    try:
        ids = [r[0] for r in con.execute("SELECT id FROM cards ORDER BY id")]
    finally:
        con.close()
    rng = random.Random(27)
    return sorted({*rng.sample(ids, n), BLUE_EYES_RUSH, BLUE_EYES, 14558127, 14558128})


def validate_says(engine: Engine, card: Card, target: object) -> list[str]:
    """The card findings ``validate`` gives a deck holding one copy of ``card``."""
    report = engine.check(one_deck([card]), target)  # type: ignore[arg-type]
    return sorted(f.code for f in report.findings if f.code in CARD_CODES)


def test_card_show_answers_as_validate_in_every_shipped_format(
    engine: Engine, lists_home: Path
) -> None:
    passcodes = sample_cards(lists_home)
    cards = [c for c in map(engine.cards.get, passcodes) if c is not None]
    assert len(cards) > SAMPLE * 0.9
    differ: list[tuple[str, str, str, list[str], list[str]]] = []
    pairs = allowed = 0
    for fid in shipped_formats():
        for day in DAYS:
            try:
                target = engine.target(fid, day, upcoming=False)
            except DataError:
                continue
            for card in cards:
                st: CardStatus = status_in(card, card.id, target)
                says = validate_says(engine, card, target)
                if sorted(f[0] for f in st.findings) != says:
                    differ.append((fid, day.isoformat(), card.name, says, list(st.findings)))
                assert st.allowed == (st.word != "not in the pool" and st.limit > 0), st
                pairs += 1
                allowed += st.allowed
    assert not differ, differ[:10]
    assert pairs > 4_000 and 0 < allowed < pairs


def test_card_show_rows_come_from_the_same_answer(
    engine: Engine, lists_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckcheck.search.status import SHOW_FORMATS, statuses

    monkeypatch.setenv("DECKCHECK_HOME", str(lists_home))
    for passcode in (BLUE_EYES_RUSH, 14558127, *sample_cards(lists_home, 20)):
        card = engine.cards.get(passcode)
        if card is None:
            continue
        for day in DAYS:
            rows, _notes = statuses(engine.cards, passcode, day)
            by_format = {r["format"]: r for r in rows}
            for fid in SHOW_FORMATS:
                try:
                    target = engine.target(fid, day, upcoming=False)
                except DataError:
                    assert fid not in by_format
                    continue
                st = status_in(card, passcode, target)
                row = by_format[fid]
                assert (row["status"], row["limit"], row.get("codes", [])) == (
                    st.word,
                    st.limit,
                    [f[0] for f in st.findings],
                ), (fid, day, card.name)
    rows, _ = statuses(engine.cards, BLUE_EYES_RUSH, DAYS[1])
    got = {r["format"]: r["status"] for r in rows}
    assert got["goat"] == got["speed"] == got["tcg"] == "not in the pool"
    assert got["rush"] != "not in the pool"


def test_db_info_counts_the_cards_of_each_game(
    lists_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from deckcheck.cli import main

    monkeypatch.setenv("DECKCHECK_HOME", str(lists_home))
    assert main(["db", "info", "-o", "json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    md, dl = games["master-duel"], games["duel-links"]
    assert "missing" not in md and "missing" not in dl
    # yaml-yugi's master_duel_rarity and YGOJSON's keys and packs: over 13,000 cards in
    # Master Duel, over 9,000 in Duel Links; some known not to be in each
    assert md["cards"]["any"] > 13_000 and md["cards"]["absent"] > 0
    assert dl["cards"]["any"] > 9_000 and dl["cards"]["absent"] > 1_000
    assert md["named_by_official_lists"] > 300 and dl["named_by_official_lists"] > 200
    assert main(["db", "info"]) == 0
    text = capsys.readouterr().out.splitlines()
    i = text.index("games:")
    assert text[i + 1].startswith("  Master Duel: ") and "known not to be" in text[i + 1]
    assert text[i + 2].startswith("  Duel Links: ")


def test_card_show_tells_a_card_without_dates_from_no_release_data(engine: Engine) -> None:
    """Issue 32: with the release data installed, a card it has no date for is not "no
    release dates installed"."""
    from deckcheck.search.status import releases

    got, note = releases(engine.cards, BLUE_EYES_RUSH)
    assert got == [] and note is not None
    assert "none in the installed release data" in note and "installed (" not in note
    got, note = releases(engine.cards, 14558127)
    assert note is None and {r["region"] for r in got} >= {"ocg", "tcg"}


def test_the_staged_duel_links_history_is_stale_by_its_90_days(engine: Engine) -> None:
    """The staged Duel Links lists end 2025-05-07: 91 days on, a check says so (DC602)."""
    ash = engine.cards.get(14558127)
    assert ash is not None
    for day, stale in ((dt.date(2025, 8, 5), False), (dt.date(2025, 8, 6), True)):
        report = engine.check(one_deck([ash]), engine.target("duel-links", day))
        got = [f for f in report.findings if f.code == "DC602"]
        assert bool(got) == stale, (day, got)
    assert got[0].severity == "warning" and "2025-05-07" in got[0].message
    assert "deckcheck update" in got[0].message
