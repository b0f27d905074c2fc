"""The list store's string checks done by hand (no regex compiled at start-up) agree with
the regular expressions they stand for."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from deckcheck.formats.catalog import DATE_FILE, _is_date_file
from deckcheck.formats.listref import name_key

# digits of several scripts (all \d), look-alikes that are not (superscripts, numerals),
# the separators and suffix letters, and a newline (``$`` matches before a final one)
_CHARS = st.sampled_from(list("0129٣٠۵०𝟘²½Ⅷ-._/yamlYAMLx \n"))
_NAMES = st.lists(_CHARS, max_size=18).map("".join)


@given(st.one_of(_NAMES, _NAMES.map(lambda s: "2025-01-01.yaml"[: len(s) % 16] + s)))
def test_is_date_file_is_the_regex(name: str) -> None:
    assert _is_date_file(name) == bool(re.match(DATE_FILE, name))


def test_is_date_file_cases() -> None:
    yes = ["2025-01-01.yaml", "2025-01-01.yml", "2025-01-01.yaml\n", "٢٠٢٥-٠١-٠١.yaml"]
    no = [
        "2025-01-01.yaml\n\n",
        "2025-1-01.yaml",
        "2025-01-01.YAML",
        "2025-01-01.yamll",
        "x2025-01-01.yaml",
        "2025-01-01",
        "²025-01-01.yaml",
        ".yaml",
        "",
    ]
    assert [_is_date_file(n) for n in yes] == [True] * len(yes)
    assert [_is_date_file(n) for n in no] == [False] * len(no)
    assert [bool(re.match(DATE_FILE, n)) for n in yes + no] == [True] * 4 + [False] * 9


def test_name_key_still_folds_list_names() -> None:
    assert name_key("2025.04  TCG") == name_key("2025.4 tcg") == "2025.4 tcg"
    assert name_key("2025-04-07 OCG") == "2025.4.7 ocg"
    assert name_key("Goat 2005") == "goat 2005"
