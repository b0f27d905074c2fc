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
FILLERS_42 = [c for c in range(1000, 1014) for _ in range(3)]  # plain monsters


def game_card(**fields: object) -> Card:
    base = Card(
        GAME_CARD,
        "Game Card",
        GAME_CARD,
        "none",
        0x21,
        Scope.OCG | Scope.TCG,
        ocg_date=D("2014-01-01"),
        tcg_date=D("2014-02-01"),
    )
    return base.replace(**fields)


def game_cards(**fields: object) -> CardStub:
    cards = load_cards()
    cards[GAME_CARD] = game_card(**fields)
    return CardStub(cards)


def test_release_date_reads_the_region_of_each_game() -> None:
    card = game_card(md_date=D("2022-04-04"), dl_date=D("2018-05-01"))
    assert release_date(card, "masterduel") == D("2022-04-04")
    assert release_date(card, "duellinks") == D("2018-05-01")
    assert release_date(card, "tcg") == D("2014-02-01")
    assert release_date(card.replace(md_date=None), "masterduel") is None


def game_deck(fmt: str) -> Deck:
    size = 40 if fmt == "master-duel" else 20
    d = Deck(source="x.ydk")
    d.main = [DeckEntry("main", c, i + 1) for i, c in enumerate(FILLERS_42[: size - 1])]
    d.main.append(DeckEntry("main", GAME_CARD, size))
    return d


def pool_findings(fmt: str, day: str, cards: CardStub) -> list[tuple[str, str, str]]:
    rep = validate_deck(Engine(cards), game_deck(fmt), Target(get_format(fmt), None, D(day)))
    return [(f.code, f.severity, f.message) for f in rep.findings if f.card_id == GAME_CARD]


GAMES = [
    ("master-duel", "md", "Master Duel", "the game's Master Pack"),
    ("duel-links", "dl", "Duel Links", "a reward or an event"),
]


@pytest.mark.parametrize("fmt,field,game,undated", GAMES)
def test_a_first_pack_after_the_event_date_is_only_a_warning(
    fmt: str, field: str, game: str, undated: str
) -> None:
    # issue 27: Ash Blossom, Effect Veiler, Infinite Impermanence were in Master Duel's Master
    # Pack at launch; the data dates them by a later pack, which must not make them illegal
    cards = game_cards(**{f"{field}_date": D("2022-04-04"), f"in_{field}": True})
    got = pool_findings(fmt, "2022-04-03", cards)
    assert [(c, s) for c, s, _ in got] == [("DC502", "warning")]
    assert got[0][2].startswith(
        f"Game Card ({GAME_CARD}): first seen in {game} in a pack of 2022-04-04, after the "
        "event date 2022-04-03; "
    )
    assert undated in got[0][2]
    assert pool_findings(fmt, "2022-04-04", cards) == []


@pytest.mark.parametrize("fmt,field,game,undated", GAMES)
def test_a_card_not_printed_yet_is_not_in_the_game_either(
    fmt: str, field: str, game: str, undated: str
) -> None:
    cards = game_cards(**{f"{field}_date": D("2022-04-04"), f"in_{field}": True})
    got = pool_findings(fmt, "2013-12-31", cards)
    assert got == [
        (
            "DC502",
            "error",
            (
                f"Game Card ({GAME_CARD}): not in {game} on 2013-12-31: its first printing is "
                "dated 2014-01-01"
            ),
        )
    ]
    # a pack of the game before the first printing moves the date earlier
    early = game_cards(**{f"{field}_date": D("2013-06-01"), f"in_{field}": True})
    assert [(c, s) for c, s, _ in pool_findings(fmt, "2013-05-31", early)] == [("DC502", "error")]
    assert pool_findings(fmt, "2013-06-01", early) == []


@pytest.mark.parametrize("fmt,field,game,undated", GAMES)
def test_a_card_no_source_puts_in_the_game_is_dc504(
    fmt: str, field: str, game: str, undated: str
) -> None:
    got = pool_findings(fmt, "2024-01-01", game_cards(**{f"in_{field}": False}))
    assert got == [
        ("DC504", "error", f"Game Card ({GAME_CARD}): not in {game}: no source puts it in the game")
    ]
    # no source knows the card (and no run data): not judged
    assert pool_findings(fmt, "2024-01-01", game_cards()) == []
    # in the game by its card data, no pack date: in, not judged by a pack date
    assert pool_findings(fmt, "2024-01-01", game_cards(**{f"in_{field}": True})) == []


def test_the_game_pool_of_the_run_adds_the_official_lists_and_says_what_is_unknown() -> None:
    from deckcheck.rules.pool import GamePool, judge

    fmt = get_format("master-duel")
    absent = game_card(in_md=False, ocg_date=D("2024-05-01"), tcg_date=None)
    pool = GamePool("master-duel", True, {GAME_CARD: D("2024-03-01")}, "yaml-yugi")
    # named on an official list: in the game, from that list's day (before its printing)
    assert judge(absent, GAME_CARD, fmt, None, D("2024-03-01"), pool) == []
    got = judge(absent, GAME_CARD, fmt, None, D("2024-02-29"), pool)
    assert got == [
        (
            "DC502",
            (
                f"Game Card ({GAME_CARD}): not in Master Duel on 2024-02-29: its first official "
                "Master Duel list naming it is dated 2024-03-01"
            ),
            None,
        )
    ]
    unknown = game_card(in_md=None)
    known = GamePool("master-duel", True, {}, "yaml-yugi cards.json")
    got = judge(unknown, GAME_CARD, fmt, None, D("2024-01-01"), known)
    assert [(c, s) for c, _, s in got] == [("DC504", "warning")]
    assert "not known to the installed Master Duel data (yaml-yugi cards.json)" in got[0][1]
    # no data on the game installed: off (the run says so once)
    off = GamePool("master-duel", False)
    assert judge(game_card(in_md=False), GAME_CARD, fmt, None, D("2024-01-01"), off) == []


def test_a_rush_card_is_outside_the_video_game_formats_of_the_ocg_tcg_universe() -> None:
    from deckcheck.rules.pool import judge

    rush = Card(
        160001000, "Blue-Eyes White Dragon (Rush)", 89631139, "treated_as", 0x11, Scope.RUSH
    )
    for fid in ("master-duel", "duel-links", "tcg", "speed", "goat", "legacy", "dm6"):
        got = judge(rush, rush.id, get_format(fid), None, D("2026-01-01"))
        assert [c for c, _, _ in got] == ["DC504"], fid
    assert judge(rush, rush.id, get_format("rush"), None, D("2026-01-01")) == []
