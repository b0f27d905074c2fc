"""``resolve``'s fast path on the real database: the verdict of every query is the one
``decide`` gives on the whole ranking (``Index.rank``), the candidates of an ambiguous or
unknown one are the whole ranking's, and a found one's are the start of them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from deckcheck.lookup import Index
from deckcheck.lookup.decision import decide

pytestmark = pytest.mark.realdata


def _typo(rng: random.Random, name: str, edits: int) -> str:
    chars = list(name)
    for _ in range(edits):
        if len(chars) < 4:
            break
        i = rng.randrange(1, len(chars) - 1)
        op = rng.choice("sdt")
        if op == "s":
            chars[i] = rng.choice("aeioulnrst") if chars[i].isascii() else rng.choice(chars)
        elif op == "d":
            del chars[i]
        else:
            chars[i], chars[i - 1] = chars[i - 1], chars[i]
    return "".join(chars)


def _queries(db: Any, n: int, seed: int) -> list[str]:
    """Real names of every language with one or two typos, and halves of names."""
    rng = random.Random(seed)
    rows = [r for r in db.iter_names() if r[3] == "name"]
    out: list[str] = []
    for _card, _lang, name, _kind in rng.sample(rows, n):
        kind = rng.choice(["typo1", "typo1", "typo2", "half"])
        if kind == "half":
            words = name.split()
            out.append(
                " ".join(words[: max(1, len(words) // 2)])
                if len(words) > 1
                else name[: max(2, len(name) // 2)]
            )
        else:
            out.append(_typo(rng, name, 1 if kind == "typo1" else 2))
    # Hand-picked: a clear typo, a near tie, a prefix, CJK typos.
    return [
        *out,
        "ash blosom",
        "Blue-Eyes Whte Dragon",
        "blue-eyes",
        "Raye",
        "灰流うらr",
        "增殖的G",
        "Pot of Greeed",
        "Dark Magican",
        "Monster Reborm",
        "Elemental HERO",
    ]


def test_fast_resolve_gives_the_verdict_and_candidates_of_the_whole_ranking(
    real_index: Index,
    real_db: Any,
) -> None:
    shortened = 0
    for query in _queries(real_db, 150, 19):
        fast = real_index.resolve(query)
        full = decide(query, real_index.rank(query), real_index._official)
        assert (fast.status, fast.card_id) == (full.status, full.card_id), query
        if fast.status == "found":
            assert fast.candidates, query
            assert fast.candidates == full.candidates[: len(fast.candidates)], query
            shortened += len(fast.candidates) < len(full.candidates)
        else:
            assert fast.candidates == full.candidates, query
    # The fast path was taken (found before the wide passes) for part of the queries.
    assert shortened >= 10


def _long_typos(db: Any, n: int, seed: int) -> list[str]:
    """One or two typos in names of 8+ characters of every language (the n-gram path),
    and CJK, Hangul and near-tie typos picked by hand."""
    rng = random.Random(seed)
    rows = [r for r in db.iter_names() if r[3] == "name" and len(r[2]) >= 8]
    out = [_typo(rng, name, rng.choice([1, 1, 2])) for _c, _l, name, _k in rng.sample(rows, n)]
    return [
        *out,
        "ブルーアイズ・ホワイト・ドラゴソ",
        "ブラック・マジシャン・ガーノレ",
        "하루 우라러",
        "푸른 눈의 백룡룡",
        "青眼白龍龍",
        "增殖的GG",
        "Elemental HERO Neos Alus",
        "Blue-Eyes White Dragoon",
        "Dark Magician Girll",
        "Destiny HERO Plasmaa",
        "Number 39: Utopiaa",
        "Red-Eyes Black Dragom",
    ]


def test_ngram_path_gives_the_verdict_and_candidates_of_the_whole_ranking(
    real_index: Index,
    real_db: Any,
) -> None:
    """``_clear_ranking`` (a clear typo winner proved from the n-gram filter's names):
    the same verdict as ``decide`` on the whole ranking, candidates a start of its own."""
    taken = 0
    for query in _long_typos(real_db, 150, 31):
        fast = real_index.resolve(query)
        full = decide(query, real_index.rank(query), real_index._official)
        assert (fast.status, fast.card_id) == (full.status, full.card_id), query
        if fast.status == "found":
            assert fast.candidates == full.candidates[: len(fast.candidates)], query
        else:
            assert fast.candidates == full.candidates, query
        clear = real_index._clear_ranking(query, None)
        if clear is not None and real_index._clear_winner(query, *clear, True) is not None:
            taken += 1
            assert fast.status == "found", query
    assert taken >= 60  # most clear typos of long names are proved on the n-gram path


def test_filtered_hits_equal_a_scan_of_the_whole_window(
    real_index: Index,
    real_db: Any,
) -> None:
    from rapidfuzz import fuzz, process

    from deckcheck.lookup.normalize import normalize, script_of
    from deckcheck.lookup.ranking import _Scan

    compared = 0
    for query in _long_typos(real_db, 40, 37) + _queries(real_db, 40, 41):
        key = normalize(query)
        bucket = real_index._buckets[script_of(key)]
        for cutoff in (85.0, 88.9, 91.0, 93.0, 96.3):
            lo, hi = _Scan(key, bucket).window(cutoff)
            ref = process.extract(
                key,
                bucket[0][lo:hi],
                scorer=fuzz.ratio,
                processor=None,
                score_cutoff=cutoff,
                limit=None,
            )
            want = sorted(
                ((score, lo + pos) for _n, score, pos in ref), key=lambda h: (-h[0], h[1])
            )
            got = real_index._hits_at_least(key, cutoff)
            assert got == [(bucket[1][pos], score) for score, pos in want], (query, cutoff)
            compared += bool(want)
    assert compared >= 60


def test_substring_matches_from_postings_equal_a_scan_of_every_key(
    real_index: Index,
    real_db: Any,
) -> None:
    rng = random.Random(43)
    from deckcheck.lookup.normalize import normalize

    keys = real_index._keys
    queries = [normalize(q) for q in _queries(real_db, 60, 47)]
    queries += [
        k[i : i + n]
        for k in rng.sample(keys, 200)
        for i, n in [(rng.randrange(max(1, len(k) - 2)), rng.choice([2, 3, 4, 7]))]
    ]
    queries += ["dark", "dragon", "hero", "龙", "魔导", "ドラ", "드래곤", "eb", "ehero"]
    many = 0
    for key in queries:
        if not key:
            continue
        words = f" {key} "  # a one-word query (keys hold no spaces)
        got = real_index._infix(key, None, words)
        assert got == real_index._infix_scan(key, None, words), key
        many += len(got) >= 100
    assert many >= 3  # the 400-name cap and key order were checked too


def test_partial_prefilter_keeps_every_partial_match(
    real_index: Index,
    real_db: Any,
) -> None:
    """The LCS prefilter of the partial pass gives what ``partial_ratio`` against every
    longer name gives (the pass as it was before the prefilter)."""
    from bisect import bisect_left

    from rapidfuzz import fuzz, process

    from deckcheck.lookup.normalize import normalize, script_of
    from deckcheck.lookup.ranking import PARTIAL_CUTOFF, PARTIAL_WEIGHT

    checked = 0
    for query in _queries(real_db, 25, 23):
        key = normalize(query)
        names, kids, lens = real_index._buckets[script_of(key)]
        lo = bisect_left(lens, len(key) + 1)
        if len(key) < 4 or lo >= len(names):
            continue
        ref = process.extract(
            key,
            names[lo:],
            scorer=fuzz.partial_ratio,
            processor=None,
            score_cutoff=PARTIAL_CUTOFF,
            limit=40,
        )
        want = [
            m
            for _n, score, pos in ref
            for m in real_index._matches(kids[lo + pos], None, score * PARTIAL_WEIGHT, "fuzzy")
        ]
        assert real_index._partial(key, None, 10) == want, query
        checked += 1
    assert checked >= 12


def _tie_typos(db: Any, n: int, seed: int) -> list[str]:
    """Short names with a typo (their suggestions are full of equal scores: many names of
    a length share as many characters), in every language."""
    rng = random.Random(seed)
    rows = [r for r in db.iter_names() if r[3] == "name" and 4 <= len(r[2]) <= 9]
    return [_typo(rng, name, 1) for _c, _l, name, _k in rng.sample(rows, n)]


def test_filtered_search_equals_the_plain_scan(
    real_index: Index,
    real_db: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``search`` and ``resolve`` with the character-count filter (``lookup.bag``) give
    exactly what they give when every name of the length window is compared (brute force):
    names, order, scores, for typos of every language and near ties, at two limits."""
    from deckcheck.lookup.bag import Bag

    queries = _queries(real_db, 80, 53) + _long_typos(real_db, 40, 59) + _tie_typos(real_db, 60, 61)
    narrowed = 0
    real_candidates = Bag.candidates

    def counting(self: Bag, *args: Any, **kwargs: Any) -> list[int] | None:
        nonlocal narrowed
        got = real_candidates(self, *args, **kwargs)
        narrowed += got is not None
        return got

    monkeypatch.setattr(Bag, "candidates", counting)
    fast = [
        (real_index.search(q), real_index.search(q, limit=3), real_index.resolve(q))
        for q in queries
    ]
    monkeypatch.setattr(Bag, "candidates", lambda self, *a, **k: None)  # compare them all
    ties = 0
    for query, (top10, top3, res) in zip(queries, fast, strict=True):
        assert top10 == real_index.search(query), query
        assert top3 == real_index.search(query, limit=3), query
        assert res == real_index.resolve(query), query
        scores = [m.score for m in real_index.rank(query)]
        ties += len(scores) > 10 and scores[9] == scores[10]  # a tie across the tenth place
    assert narrowed >= 300  # the filter was used (on the Latin, Han/kana and Hangul buckets)
    assert ties >= 20  # and equal scores at the tenth place were compared too
