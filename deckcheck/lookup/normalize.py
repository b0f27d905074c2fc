"""Folding of card names and queries into one comparable key, across scripts and languages.

What is folded, and why (players type names every which way):

* Unicode NFKC: full-width ``ＡＢＣ１`` and half-width katakana become their usual forms.
* Case folding (``casefold``: German ``ß`` = ``ss``).
* Traditional Chinese to Simplified, character by character (OpenCC's ``TSCharacters``
  table, via the ``opencc-purepy`` package's data file): a query in either script finds a
  name stored in the other. Japanese kanji fold the same way, so ``強欲な壺`` and
  ``强欲之壶`` end up close.
* Quotes of every kind (``" “ ” „ « » 「 」 『 』 ' ’``), ``! ? ! ? . , : ;`` are dropped;
  ``&`` and ``＆`` read as ``and``; dashes and middle dots (``- － ‐ – — · ・``) are word
  separators.
* The possessive particles 之 的 の are dropped from the key: fan translations and official
  names swap them freely (抹殺的使徒 = 抹殺の使徒).
* Spaces are dropped in the key: "Blue-Eyes", "Blue Eyes" and "BlueEyes" are one key, and a
  Korean or Japanese name matches with or without its spaces.

``normalize`` gives the key; ``normalize_words`` keeps single spaces between words (used for
display of what was matched and for word-level checks).
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

# Characters removed outright (quotes, sentence punctuation, brackets used as quotes).
_DROP = "\"'“”„‟«»‹›「」『』〈〉《》‘’‚‛`´!?¡¿.,:;、。"
# Characters that separate words.
_SPACE = "-‐‑‒–—―−·・･⋅•_/\\~〜～()[]{}（）【】［］＜＞<>"

_SPACES_RE = re.compile(r"\s+")


def _opencc_table_path() -> Path | None:
    # Locate the data file without importing opencc_purepy (its import costs ~20 ms).
    spec = importlib.util.find_spec("opencc_purepy")
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        p = Path(loc) / "dicts" / "TSCharacters.txt"
        if p.is_file():
            return p
    return None


@lru_cache(maxsize=1)
def t2s_table() -> dict[int, str]:
    """Traditional -> Simplified character table (empty if opencc-purepy is missing)."""
    path = _opencc_table_path()
    table: dict[int, str] = {}
    if path is None:
        return table
    with path.open(encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 2 or len(parts[0]) != 1:
                continue
            target = parts[1].split(" ")[0]
            if len(target) == 1:
                table[ord(parts[0])] = target
    return table


@lru_cache(maxsize=1)
def _table() -> dict[int, str | None]:
    table: dict[int, str | None] = dict(t2s_table())
    for ch in _DROP:
        table[ord(ch)] = None
    for ch in _SPACE:
        table[ord(ch)] = " "
    table[ord("&")] = " and "
    return table


def normalize_words(text: str) -> str:
    """Folded text with single spaces between words (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    # NFKC may leave a few full-width forms the table above does not list; second pass is cheap.
    text = text.translate(_table())
    return _SPACES_RE.sub(" ", text).strip()


# Possessive particles that Chinese fan names and Japanese names swap freely
# (强引之番兵 / 強引な番兵 ... 抹殺的使徒 / 抹殺の使徒): not part of the key.
_PARTICLES = str.maketrans("", "", "之的の")


def normalize(text: str) -> str:
    """The comparison key of a name or query: folded, without spaces (nor 之 的 の)."""
    key = normalize_words(text).replace(" ", "").translate(_PARTICLES)
    # Dropping a space can bring a combining mark next to a letter (NFKC of "¯" is
    # space + macron): compose again so the key is stable.
    return unicodedata.normalize("NFC", key)


def script_of(key: str) -> int:
    """Coarse script class of a key: 0 Latin/other, 1 Han/kana, 2 Hangul.

    Fuzzy matching compares a query only with names of the same class (a Latin typo never
    looks like a Japanese name), which also keeps each comparison set small.
    """
    cjk = hangul = 0
    for ch in key:
        o = ord(ch)
        if 0xAC00 <= o <= 0xD7A3 or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F:
            hangul += 1
        elif 0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF:
            cjk += 1
        elif o >= 0x20000:  # CJK extension planes
            cjk += 1
    if hangul and hangul >= cjk:
        return 2
    if cjk:
        return 1
    return 0
