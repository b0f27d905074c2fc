"""Candidates (issue 32 item 7): a whole-word match of the query ranks above fuzzy prefixes
("Raye" -> Sky Striker Ace - Raye first), the OCG name of a card is a candidate for its
English words ("Cyclone" -> Mystical Space Typhoon, サイクロン), anime and unofficial cards rank
after official ones. None of it decides."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from deckcheck.lookup import Index
from deckcheck.lookup.ranking import MARGIN, UNOFFICIAL_PENALTY
from deckcheck.model import Card, Scope

OFFICIAL = Scope.OCG | Scope.TCG
# id: (scopes, {lang: name})
CARDS: dict[int, tuple[Scope, dict[str, str]]] = {
    1: (OFFICIAL, {"en": "Rayel", "fr": "Rayel, Chevalier"}),
    2: (OFFICIAL, {"en": "Sky Striker Ace - Raye", "ja": "閃刀姫－レイ"}),
    3: (OFFICIAL, {"en": "Betrayer"}),
    10: (OFFICIAL, {"en": "Mystical Space Typhoon", "ja": "サイクロン"}),
    11: (OFFICIAL, {"en": "Double Cyclone", "ja": "ダブル・サイクロン"}),
    12: (OFFICIAL, {"en": "Cyclone Boomerang", "ja": "サイクロン・ブーメラン"}),
    13: (OFFICIAL, {"en": "Space Cyclone", "ja": "スペース・サイクロン"}),
    14: (OFFICIAL, {"en": "Cosmic Cyclone", "ja": "コズミック・サイクロン"}),
    15: (Scope.ANIME, {"en": "Cyclone Wing"}),  # anime: the best coverage, still after
    16: (OFFICIAL, {"en": "Cyclone Laser Dragon"}),
}


class DB:
    fingerprint = "candidates-1"

    def iter_names(self) -> Iterator[tuple[int, str, str, str]]:
        for cid, (_s, names) in CARDS.items():
            for lang, name in names.items():
                yield cid, lang, name, "name"

    def get(self, card_id: int) -> Card | None:
        got = CARDS.get(card_id)
        if got is None:
            return None
        return Card(card_id, got[1]["en"], card_id, "none", 0x2, got[0])

    def name_key(self, card_id: int) -> int:
        return card_id


@pytest.fixture(scope="module")
def ix() -> Index:
    return Index.build(DB())


def test_whole_word_match_ranks_above_a_fuzzy_prefix(ix: Index) -> None:
    got = ix.search("Raye")
    # before: Rayel (prefix 98) first, Sky Striker Ace - Raye a "contains" match at 67
    assert [(m.card_id, m.how) for m in got[:2]] == [(2, "word"), (1, "prefix")]
    assert got[0].score > 95.0 > got[1].score
    r = ix.resolve("Raye")
    assert r.status != "found" and r.candidates[0].card_id == 2  # suggested, never decided


def test_a_prefix_ending_on_a_word_ranks_above_one_ending_inside_a_word(ix: Index) -> None:
    got = {m.card_id: m for m in ix.search("Cyclone")}
    assert got[12].how == "prefix" and got[12].score >= 95.0  # Cyclone Boomerang
    assert ix.search("Rayel")[0].card_id == 1  # exact stays first


def test_ocg_name_in_katakana_is_a_candidate(ix: Index) -> None:
    assert ix._katakana["cyclone"] == "サイクロン"  # learnt from the four Cyclone cards
    got = ix.search("Cyclone")
    assert (got[0].card_id, got[0].how, got[0].matched) == (10, "word", "サイクロン")
    assert got[0].name == "Mystical Space Typhoon"  # shown in English, matched in Japanese
    assert ix.resolve("Cyclone").status == "ambiguous"


def test_anime_cards_rank_after_official_ones(ix: Index) -> None:
    got = ix.search("Cyclone")
    ids = [m.card_id for m in got]
    wing = ids.index(15)
    # Cyclone Wing covers more of its name than any other prefix yet ranks after them all
    assert all(CARDS[c][0] == OFFICIAL for c in ids[:wing])
    assert got[wing].score > max(m.score for m in got if m.card_id in (12, 16))
    assert min(MARGIN.values()) > UNOFFICIAL_PENALTY  # so no verdict changes for it


RAYE, RAYEL, MST, CYCLONE_WING = 26077387, 23220533, 5318639, 511000147


@pytest.mark.realdata
def test_real_raye_and_cyclone(real_index: Index) -> None:
    # issue 32: "Raye" gave Sky Striker Ace - Raye third after Starry Knight Rayel; "Cyclone"
    # had no Mystical Space Typhoon and the anime Cyclone Wing first
    got = real_index.search("Raye")
    assert got[0].card_id == RAYE and RAYEL in {m.card_id for m in got}
    assert real_index.resolve("Raye").status != "found"
    got = real_index.search("Cyclone")
    assert got[0].card_id == MST and got[0].matched == "サイクロン"
    ranked = real_index.rank("Cyclone")
    wing = [m.card_id for m in ranked].index(CYCLONE_WING)  # anime, 98.2 before the penalty
    official = real_index._official
    after = [m for m in ranked[wing:] if m.card_id in official and m.how in ("prefix", "word")]
    assert after == [], after  # after every official card named with the word Cyclone
    assert CYCLONE_WING not in {m.card_id for m in got}
    assert real_index.resolve("Cyclone").status == "ambiguous"
    assert real_index.resolve("サイクロン").card_id == MST
