"""The typed data of the lookup index, built from a card database: every name of every card,
normalized, in the sorted arrays and buckets each ranking step reads (and the cache stores)."""

from __future__ import annotations

import pickle
import re
from array import array
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol, TypedDict

from deckcheck.lookup.bag import build_bag
from deckcheck.lookup.grams import GRAM, PARTIAL_GRAM, build_postings
from deckcheck.lookup.nicknames import load_nicknames
from deckcheck.lookup.normalize import normalize, normalize_words, script_of
from deckcheck.model import UNOFFICIAL, Scope


class CardSource(Protocol):
    """What the index needs from ``deckcheck.carddb.CardDB``."""

    fingerprint: Any

    def iter_names(self) -> Iterable[tuple[int, str, str, str]]: ...

    def get(self, card_id: int) -> Any: ...

    def name_key(self, card_id: int) -> int: ...


#: One script class (0 Latin, 1 Han/kana, 2 Hangul): keys sorted by length, their key ids,
#: their lengths.
Bucket = tuple[list[str], "array[int]", "array[int]"]


class IndexData(TypedDict):
    key: str
    fingerprint: str
    langs: list[str]  # language code -> name ("en", "ja", "ja_reading", …)
    ent_card: array[int]  # entry -> card it names (entries sorted by card)
    ent_lang: array[int]  # entry -> language code
    ent_name: list[str]  # entry -> the name as written
    keys: list[str]  # distinct normalized names, sorted
    post_start: array[int]  # key id -> start of its entries in ``post``
    post: array[int]  # entries of each key, key after key
    buckets: list[Bucket]  # per script class, for fuzzy matching
    # Per script class, the n-gram postings of its bucket (``lookup.grams``, "ratio" and
    # "partial") and its character counts (``lookup.bag``, "bag"), pickled: read as bytes
    # with the index, unpickled at the first fuzzy query
    # (exact lookups never pay).
    grams: bytes
    nick: dict[str, tuple[int, str]]  # normalized nickname -> (card, nickname)
    ids: dict[int, int]  # passcode -> card it is indexed under
    official: set[int]  # cards with an OCG/TCG scope and no unofficial one
    cards: array[int]  # distinct cards, sorted
    card_start: array[int]  # card -> start of its entries (one past the end last)
    # English word -> the katakana word the Japanese names write for it ("cyclone" ->
    # サイクロン), learnt from the names themselves: the OCG name of a card ("Cyclone", サイクロン,
    # for Mystical Space Typhoon) is then a candidate for its English words
    katakana: dict[str, str]


def is_official(card: Any) -> bool:
    scopes = card.scopes
    return bool(scopes & (Scope.OCG | Scope.TCG)) and not scopes & UNOFFICIAL


def index_target(db: CardSource, card_id: int) -> tuple[int, Any]:
    """The card a name of ``card_id`` is indexed under, and the card record (None if unknown)."""
    card = db.get(card_id)
    # What lookup shows is decided by the card database (carddb's name key), nowhere else.
    t = db.name_key(card_id) if card is not None else card_id
    return t, card


def build_data(db: CardSource, *, nick_path: Path | None = None, key: str = "") -> IndexData:
    """The index data of ``db.iter_names()`` (and the nicknames file, when present)."""
    target_of: dict[int, int] = {}
    official: set[int] = set()

    def target(card_id: int) -> int:
        got = target_of.get(card_id)
        if got is not None:
            return got
        t, card = index_target(db, card_id)
        if card is not None and is_official(card):
            official.add(t)
        target_of[card_id] = t
        return t

    langs: list[str] = []
    lang_code: dict[str, int] = {}
    rows: list[tuple[int, int, int, str, str]] = []  # card, lang, kind order, name, key
    for card_id, lang, name, kind in db.iter_names():
        if not name:
            continue
        if kind == "reading" and "reading" not in lang:
            lang = f"{lang}_reading"
        code = lang_code.get(lang)
        if code is None:
            code = lang_code[lang] = len(langs)
            langs.append(lang)
        k = normalize(name)
        if not k:
            continue
        rows.append((target(card_id), code, 1 if kind == "reading" else 0, name, k))
    # Entries sorted by card, then by language order of first appearance, names first.
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    seen: set[tuple[int, int, str]] = set()
    ent_card = array("q")
    ent_lang = array("h")
    ent_name: list[str] = []
    ent_key: list[str] = []
    for card, code, _kind, name, k in rows:
        if (card, code, name) in seen:
            continue
        seen.add((card, code, name))
        ent_card.append(card)
        ent_lang.append(code)
        ent_name.append(name)
        ent_key.append(k)

    cards = array("q")
    card_start = array("i")
    for i, c in enumerate(ent_card):
        if not cards or cards[-1] != c:
            cards.append(c)
            card_start.append(i)
    card_start.append(len(ent_card))

    by_key: dict[str, list[int]] = {}
    for i, k in enumerate(ent_key):
        by_key.setdefault(k, []).append(i)
    keys = sorted(by_key)
    post_start = array("i", [0])
    post = array("i")
    for k in keys:
        post.extend(by_key[k])
        post_start.append(len(post))

    buckets: list[Bucket] = []
    grouped: list[list[tuple[int, str, int]]] = [[], [], []]
    for kid, k in enumerate(keys):
        grouped[script_of(k)].append((len(k), k, kid))
    for items in grouped:
        items.sort()
        buckets.append(
            (
                [k for _, k, _ in items],
                array("i", [kid for _, _, kid in items]),
                array("i", [n for n, _, _ in items]),
            )
        )

    nick: dict[str, tuple[int, str]] = {}
    if nick_path is not None and nick_path.is_file():
        for item in load_nicknames(nick_path):
            if db.get(item["id"]) is None:
                continue  # e.g. the built-in sample lacks most cards
            t = target(item["id"])
            for n in item["nick"]:
                nick[normalize(n)] = (t, n)

    return {
        "key": key,
        "fingerprint": str(getattr(db, "fingerprint", "")),
        "langs": langs,
        "ent_card": ent_card,
        "ent_lang": ent_lang,
        "ent_name": ent_name,
        "keys": keys,
        "post_start": post_start,
        "post": post,
        "buckets": buckets,
        "grams": pickle.dumps(_postings(buckets), protocol=pickle.HIGHEST_PROTOCOL),
        "nick": nick,
        "ids": dict(target_of),
        "official": official,
        "cards": cards,
        "card_start": card_start,
        "katakana": katakana_words(langs, ent_card, ent_lang, ent_name),
    }


_KATAKANA = re.compile("[\u30a0-\u30ff]+")
#: A word pair is learnt when at least this many cards hold both, and they are at least half
#: of the cards holding either (Cyclone/サイクロン: 11 of 12 and 11 of 13).
_MIN_PAIR = 3
_MIN_SHARE = 0.5


def katakana_words(
    langs: list[str], ent_card: array[int], ent_lang: array[int], ent_name: list[str]
) -> dict[str, str]:
    """English word -> katakana word, from the cards named in both languages: the katakana
    word most of the cards with the English word hold in their Japanese name, when most of
    the cards with that katakana word hold the English word too (Cyclone Boomerang サイクロン・
    ブーメラン, Double Cyclone ダブル・サイクロン, … -> "cyclone": サイクロン). Words only: a whole
    Japanese name that is one katakana word (サイクロン) is then found for the English one."""
    if "en" not in langs or "ja" not in langs:
        return {}
    en, ja = langs.index("en"), langs.index("ja")
    words: dict[int, tuple[set[str], set[str]]] = {}
    for e, code in enumerate(ent_lang):
        if code == en:
            words.setdefault(ent_card[e], (set(), set()))[0].update(
                normalize_words(ent_name[e]).split()
            )
        elif code == ja and _KATAKANA.search(ent_name[e]):
            words.setdefault(ent_card[e], (set(), set()))[1].update(
                w for w in normalize_words(ent_name[e]).split() if _KATAKANA.fullmatch(w)
            )
    pairs: Counter[tuple[str, str]] = Counter()
    of_en: Counter[str] = Counter()
    of_ja: Counter[str] = Counter()
    for en_words, ja_words in words.values():
        if en_words and ja_words:
            of_en.update(en_words)
            of_ja.update(ja_words)
            pairs.update((w, k) for w in en_words for k in ja_words)
    best: dict[str, tuple[int, str]] = {}
    for (w, k), n in pairs.items():
        shared = n >= _MIN_PAIR and n >= _MIN_SHARE * max(of_en[w], of_ja[k])
        if shared and (w not in best or (n, k) > best[w]):
            best[w] = (n, k)
    return {w: k for w, (_n, k) in best.items()}


def _postings(buckets: list[Bucket]) -> dict[str, list[Any]]:
    """Per bucket, the n-gram postings of ``lookup.grams``: "ratio" (``GRAM``) and "partial"
    (``PARTIAL_GRAM``; the same object where the gram length is the same); and "bag", the
    character counts of ``lookup.bag`` (None where the "ratio" grams are single characters:
    the filter reads those postings)."""
    ratio = [build_postings(b[0], g) for b, g in zip(buckets, GRAM, strict=True)]
    partial = [
        r if g == r["g"] else build_postings(b[0], g)
        for b, g, r in zip(buckets, PARTIAL_GRAM, ratio, strict=True)
    ]
    bag = [None if g == 1 else build_bag(b[0]) for b, g in zip(buckets, GRAM, strict=True)]
    return {"ratio": ratio, "partial": partial, "bag": bag}
