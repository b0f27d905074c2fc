"""The language codes names are stored under, and BCP 47 tags (``ja``, ``JA``, ``ja-JP``,
``zh-Hans``, ``zh-Hant``, ``ko-KR`` …) read as one of them; an unknown tag is an error, never a
silent fall-back to English."""

from __future__ import annotations

from deckcheck.errors import InputError

#: The languages of the card database, in display order.
KNOWN = ("en", "ja", "ko", "zh-CN", "zh-TW", "de", "fr", "it", "es", "pt")

# Script and region subtags that pick the Chinese variant.
_ZH_TRAD = {"hant", "tw", "hk", "mo"}
_ZH_SIMP = {"hans", "cn", "sg", "my"}


class UnknownLanguage(InputError):
    """A ``--lang`` value that names none of the database's languages (exit 2)."""


def canonical_lang(tag: str | None) -> str | None:
    """The stored language code a BCP 47 tag means (None stays None).

    Case and ``_``/``-`` are folded; region and script subtags are dropped except for
    Chinese, where ``Hant``/``TW``/``HK``/``MO`` mean Traditional (zh-TW) and ``Hans``/``CN``/
    ``SG`` (or no subtag) Simplified (zh-CN). Raises ``UnknownLanguage`` listing the known
    languages.
    """
    if tag is None:
        return None
    text = tag.strip().replace("_", "-")
    parts = [p.lower() for p in text.split("-") if p]
    if not parts:
        raise UnknownLanguage(_unknown(tag), where="--lang")
    primary = parts[0]
    if primary in ("zh", "cmn"):
        if any(p in _ZH_TRAD for p in parts[1:]):
            return "zh-TW"
        return "zh-CN"
    if primary in ("jp", "jpn"):
        primary = "ja"
    if primary in ("kr", "kor"):
        primary = "ko"
    if primary in KNOWN:
        return primary
    raise UnknownLanguage(_unknown(tag), where="--lang")


def _unknown(tag: str) -> str:
    return (
        f"unknown language {tag!r}; known: {', '.join(KNOWN)} "
        "(BCP 47 tags such as ja-JP, zh-Hans, zh-Hant also work)"
    )


def preferred_langs(query: str, lang: str | None) -> frozenset[str]:
    """The languages a query's matches are preferred in: ``lang``, else by the script typed
    (kana: Japanese; Hangul: Korean; Han only: Chinese and Japanese; Latin: English)."""
    if lang:
        return frozenset({lang, f"{lang}_reading", "nickname", "id"})
    kana = hangul = han = 0
    for ch in query:
        o = ord(ch)
        if 0x3040 <= o <= 0x30FF or 0xFF66 <= o <= 0xFF9F:
            kana += 1
        elif 0xAC00 <= o <= 0xD7A3:
            hangul += 1
        elif 0x3400 <= o <= 0x9FFF:
            han += 1
    if kana:
        return frozenset({"ja", "ja_reading", "nickname", "id"})
    if hangul:
        return frozenset({"ko", "ko_reading", "nickname", "id"})
    if han:
        return frozenset({"zh-CN", "zh-TW", "ja", "nickname", "id"})
    return frozenset({"en", "nickname", "id"})
