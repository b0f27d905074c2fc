"""Date-dependent deck rules of the shipped formats: Speed Duel and Duel Links deck sizes by
date, and the video games' release dates in the pool rule (DC502 names the game)."""

from __future__ import annotations

import datetime as dt

import pytest

from deckcheck.engine import Engine
from deckcheck.formats import get_format
from deckcheck.model import Card, Deck, DeckEntry, Scope
from deckcheck.rules.pool import release_date
from deckcheck.validate import Target, validate_deck
from tests.rules.test_rules import CARDS, CardStub, load_cards

D = dt.date.fromisoformat
FUSIONS = (200, 207)  # Fusion monsters of tests/fixtures/rules/cards.yaml
FILLERS = range(1000, 1007)  # plain monsters


def deck(extra: int = 0, side: int = 0) -> Deck:
    d = Deck(source="x.ydk")
    for i, cid in enumerate(c for c in FILLERS for _ in range(3)):
        d.main.append(DeckEntry("main", cid, i + 1))  # 21 cards
    fusions = [c for c in FUSIONS for _ in range(3)] + [201, 202, 203]
    d.extra += [DeckEntry("extra", cid, 200 + i) for i, cid in enumerate(fusions[:extra])]
    sides = [c for c in (101, 102, 103) for _ in range(3)]
    d.side += [DeckEntry("side", cid, 300 + i) for i, cid in enumerate(sides[:side])]
    return d


def codes(fmt_id: str, day: str, d: Deck, cards: CardStub = CARDS) -> list[str]:
    fmt = get_format(fmt_id)
    rep = validate_deck(Engine(cards), d, Target(fmt, None, D(day)))
    return [f.code for f in rep.findings if f.severity == "error"]


@pytest.mark.parametrize(
    "fmt,what,n,change_day",
    [
        ("speed", "extra", 6, "2021-01-01"),  # Extra Deck 5 -> 6 (approximate day)
        ("speed", "side", 6, "2020-01-29"),  # Side Deck 5 -> 6 (edopro issue 95)
        ("duel-links", "extra", 7, "2020-01-01"),  # Extra Deck 5 -> 7 (placeholder)
        ("duel-links", "extra", 8, "2022-01-01"),  # Extra Deck 7 -> 8 (placeholder)
    ],
)
def test_a_bigger_deck_is_refused_the_day_before_and_legal_on_the_change_day(
    fmt: str, what: str, n: int, change_day: str
) -> None:
    code = {"extra": "DC202", "side": "DC203"}[what]
    d = deck(**{what: n})
    before = (D(change_day) - dt.timedelta(days=1)).isoformat()
    assert code in codes(fmt, before, d)
    assert codes(fmt, change_day, d) == []
    assert code in codes(fmt, change_day, deck(**{what: n + 1}))  # one more is still too many


@pytest.mark.parametrize("fmt", ["speed-ocg", "entry-duel", "duel-terminal", "duel-links"])
def test_the_tcg_speed_duel_side_deck_change_is_not_the_other_speed_formats(fmt: str) -> None:
    assert get_format(fmt).at(D("2026-01-01")).side.max == 0
    assert "DC203" in codes(fmt, "2026-01-01", deck(side=1))


def test_speed_extra_and_side_maxima_on_record_dates() -> None:
    speed = get_format("speed")
    sizes = {
        day: (speed.at(D(day)).extra.max, speed.at(D(day)).side.max)
        for day in ("2018-10-02", "2020-01-28", "2020-01-29", "2020-12-31", "2021-01-01")
    }
    assert sizes == {
        "2018-10-02": (5, 5),
        "2020-01-28": (5, 5),
        "2020-01-29": (5, 6),
        "2020-12-31": (5, 6),
        "2021-01-01": (6, 6),
    }


# --------------------------------------------------------------------------- game dates

GAME_CARD = 1100


def game_cards(md_date: dt.date | None = None, dl_date: dt.date | None = None) -> CardStub:
    cards = load_cards()
    cards[GAME_CARD] = Card(
        GAME_CARD,
        "Game Card",
        GAME_CARD,
        "none",
        0x21,
        Scope.OCG | Scope.TCG,
        ocg_date=D("2014-01-01"),
        tcg_date=D("2014-02-01"),
        md_date=md_date,
        dl_date=dl_date,
    )
    return CardStub(cards)


def test_release_date_reads_the_region_of_each_game() -> None:
    card = Card(
        1,
        "x",
        1,
        "none",
        0x21,
        Scope.TCG,
        ocg_date=D("2014-01-01"),
        tcg_date=D("2014-02-01"),
        md_date=D("2022-04-04"),
        dl_date=D("2018-05-01"),
    )
    assert release_date(card, "masterduel") == D("2022-04-04")
    assert release_date(card, "duellinks") == D("2018-05-01")
    assert release_date(card, "tcg") == D("2014-02-01")
    assert release_date(card.replace(md_date=None), "masterduel") is None


@pytest.mark.parametrize(
    "fmt,field,game,day",
    [
        ("master-duel", "md_date", "Master Duel", "2022-04-04"),
        ("duel-links", "dl_date", "Duel Links", "2018-05-01"),
    ],
)
def test_dc502_names_the_game_and_its_release_date(
    fmt: str, field: str, game: str, day: str
) -> None:
    cards = game_cards(**{field: D(day)})  # type: ignore[arg-type]
    fillers = [c for c in range(1000, 1014) for _ in range(3)]  # 42 plain monsters
    size = 40 if fmt == "master-duel" else 20
    d = Deck(source="x.ydk")
    d.main = [DeckEntry("main", c, i + 1) for i, c in enumerate(fillers[: size - 1])]
    d.main.append(DeckEntry("main", GAME_CARD, size))
    rep = validate_deck(
        Engine(cards), d, Target(get_format(fmt), None, D(day) - dt.timedelta(days=1))
    )
    found = [f for f in rep.findings if f.code == "DC502"]
    assert [f.message for f in found] == [
        (
            f"Game Card ({GAME_CARD}): released in {game} on {day}, after the event date "
            f"{(D(day) - dt.timedelta(days=1)).isoformat()}"
        )
    ]
    rep = validate_deck(Engine(cards), d, Target(get_format(fmt), None, D(day)))
    assert not [f for f in rep.findings if f.severity == "error"], rep.findings
    # no date for the game in the data: not judged by date (the TCG date does not stand in)
    rep = validate_deck(Engine(game_cards()), d, Target(get_format(fmt), None, D("2015-01-01")))
    assert not [f for f in rep.findings if f.code == "DC502"]
