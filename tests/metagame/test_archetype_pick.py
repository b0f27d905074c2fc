"""How a deck's archetype is picked (deckcheck.archetype, docs/META.md), on hand-written
Main Decks (the tie-breaks with no threshold, the threshold on its own): most copies, then
more different cards, then the more specific archetype (a sub-archetype over its parent),
then the name; below the threshold "mixed / no archetype"."""

from __future__ import annotations

from collections import Counter

from deckcheck.archetype import MIXED, THRESHOLD, Arch, Picker, pick

HERO = Arch("0x8", "HERO", 0x8)
EHERO = Arch("0x3008", "Elemental HERO", 0x3008)
VHERO = Arch("0x5008", "Vision HERO", 0x5008)
BE = Arch("0xdd", "Blue-Eyes", 0xDD)
DRAGON = Arch("series:Dragon Series", "Dragon Series")  # a series no strings.conf names

#: card -> its archetypes (as carddb.facts gives them: a sub-archetype's card is its parent's)
OF = {
    1: [EHERO, HERO],
    2: [EHERO, HERO],
    3: [VHERO, HERO],
    4: [HERO],
    5: [BE],
    6: [BE, DRAGON],
    7: [DRAGON],
}


def _pick(main: dict[int, int], threshold: float = 0.0) -> tuple[str, str | None, int]:
    got = pick(Counter(main), lambda c: OF.get(c, []), threshold)
    return got.name, got.code, got.copies


def test_the_archetype_with_the_most_main_deck_copies() -> None:
    # 40 cards: Blue-Eyes 6 copies, the Dragon series 3, HERO 2
    assert _pick({5: 3, 6: 3, 4: 2, 99: 32}) == ("Blue-Eyes", "0xdd", 6)
    # HERO 6 copies in two cards (a Vision HERO among them), Blue-Eyes 3
    assert _pick({4: 3, 3: 3, 5: 3, 99: 31}) == ("HERO", "0x8", 6)


def test_a_sub_archetype_wins_its_tie_with_its_parent() -> None:
    # every HERO in the deck is an Elemental HERO: 6 copies each, the more specific wins
    assert _pick({1: 3, 2: 3, 99: 14}) == ("Elemental HERO", "0x3008", 6)
    # with a Vision HERO and a plain HERO beside them, HERO holds more copies
    assert _pick({1: 3, 2: 3, 3: 2, 4: 1, 99: 11}) == ("HERO", "0x8", 9)


def test_a_tie_in_copies_goes_to_more_different_cards_then_to_the_name() -> None:
    # 6 copies each: Blue-Eyes in two cards, Elemental HERO (and HERO) in one
    assert _pick({5: 3, 6: 3, 1: 6, 99: 8}) == ("Blue-Eyes", "0xdd", 6)
    # 3 copies of one card each, neither more specific: by name (Blue-Eyes < Dragon Series)
    assert _pick({5: 3, 7: 3, 99: 6}) == ("Blue-Eyes", "0xdd", 3)
    assert _pick({7: 3, 5: 3, 99: 6}) == ("Blue-Eyes", "0xdd", 3)  # whatever the order


def test_below_the_threshold_the_deck_is_mixed_and_keeps_the_nearest() -> None:
    got = pick(Counter({5: 3, 6: 2, 99: 35}), lambda c: OF.get(c, []))  # 5 of 40 < 20 %
    assert (got.name, got.code, got.nearest, got.copies, got.main) == (
        MIXED,
        None,
        "Blue-Eyes",
        5,
        40,
    )
    # exactly at the threshold: the archetype (8 of 40)
    assert THRESHOLD == 0.20
    assert _pick({5: 4, 6: 4, 99: 32}, THRESHOLD) == ("Blue-Eyes", "0xdd", 8)
    assert _pick({5: 4, 6: 3, 99: 33}, THRESHOLD)[0] == MIXED  # 7 of 40


def test_no_card_with_an_archetype() -> None:
    got = pick(Counter({98: 20, 99: 20}), lambda c: OF.get(c, []))
    assert (got.name, got.nearest, got.copies, got.main) == (MIXED, None, 0, 40)
    assert pick(Counter(), lambda c: []).name == MIXED  # an empty Main Deck


def test_the_picker_reads_each_card_once() -> None:
    asked: list[int] = []

    def of(c: int) -> list[Arch]:
        asked.append(c)
        return OF.get(c, [])

    picker = Picker(of)
    assert picker(Counter({5: 3, 6: 3, 99: 4})).name == "Blue-Eyes"
    # 3 copies of one card each: Elemental HERO is the more specific of the three
    assert picker(Counter({5: 3, 1: 3, 99: 4})).name == "Elemental HERO"
    assert sorted(asked) == [1, 5, 6, 99]
