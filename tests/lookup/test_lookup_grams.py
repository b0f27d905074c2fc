"""The n-gram filter of ``lookup.grams`` and the character-count filter of ``lookup.bag``
against brute force on made-up names: they never drop a name that reaches the cut-off, the
grams picked are the cheapest, ``containing`` is exactly "holds the substring", and the bag
lanes are exactly the bag bound."""

from __future__ import annotations

import itertools
import random
from array import array

import pytest
from rapidfuzz import fuzz

from deckcheck.lookup.grams import (
    _pick,
    build_postings,
    candidates,
    containing,
    partial_candidates,
)
from deckcheck.lookup.scan import _Scan


def _bucket(rng: random.Random, alphabet: str, count: int) -> tuple[list[str], array[int]]:
    # A small alphabet and shared stems: grams collide as in real names.
    stems = ["".join(rng.choice(alphabet) for _ in range(rng.randint(3, 6))) for _ in range(30)]
    names = set()
    while len(names) < count:
        parts = [rng.choice(stems) for _ in range(rng.randint(1, 4))]
        name = "".join(parts)
        if rng.random() < 0.5:
            i = rng.randrange(len(name))
            name = name[:i] + rng.choice(alphabet) + name[i + 1 :]
        names.add(name)
    ordered = sorted(names, key=lambda k: (len(k), k))
    return ordered, array("i", [len(k) for k in ordered])


def _typo(rng: random.Random, name: str, alphabet: str) -> str:
    chars = list(name)
    for _ in range(rng.randint(0, 3)):
        i = rng.randrange(len(chars))
        op = rng.choice("sdi")
        if op == "s":
            chars[i] = rng.choice(alphabet)
        elif op == "d" and len(chars) > 2:
            del chars[i]
        else:
            chars.insert(i, rng.choice(alphabet))
    return "".join(chars)


def test_candidates_keep_every_name_that_reaches_the_cutoff() -> None:
    rng = random.Random(5)
    narrowed = with_hits = 0
    for g, alphabet in ((3, "abcdeilnorst"), (1, "龙魔导师黑白青眼灰流丽增殖")):
        names, lens = _bucket(rng, alphabet, 600)
        postings = build_postings(names, g)
        for _ in range(150):
            key = _typo(rng, rng.choice(names), alphabet)
            for cutoff in (80.0, 85.0, 88.5, 91.0, 94.9, 97.0):
                lo, hi = _Scan(key, (names, array("i", range(len(names))), lens)).window(cutoff)
                want = [p for p in range(lo, hi) if fuzz.ratio(key, names[p], score_cutoff=cutoff)]
                got = candidates(key, postings, lens, lo, hi, cutoff)
                if got is None:
                    continue
                narrowed += 1
                with_hits += bool(want)
                assert got == sorted(set(got)), key
                assert all(lo <= p < hi for p in got), key
                missing = set(want) - set(got)
                assert not missing, (key, cutoff, [names[p] for p in missing])
    # The filter did narrow (and so was checked) for many of them, most with names to keep.
    assert narrowed >= 300 and with_hits >= 200


def test_pick_is_the_cheapest_set_of_non_overlapping_grams() -> None:
    rng = random.Random(11)
    for _ in range(300):
        g = rng.choice([1, 2, 3])
        key = "x" * rng.randint(1, 12)
        cost = [rng.randint(0, 50) for _ in range(len(key) - g + 1)]
        need = rng.randint(0, 5)
        got = _pick(key, g, need, cost)
        options = [
            c
            for c in itertools.combinations(range(len(cost)), need)
            if all(b - a >= g for a, b in itertools.pairwise(c))
        ]
        if not options:
            assert got is None
            continue
        assert got is not None and len(got) == need
        assert all(b - a >= g for a, b in itertools.pairwise(sorted(got)))
        assert sum(cost[i] for i in got) == min(sum(cost[i] for i in c) for c in options)


def test_containing_is_exactly_the_names_holding_the_substring() -> None:
    rng = random.Random(2)
    for g, alphabet in ((3, "abcdeilnorst"), (1, "龙魔导师黑白青眼灰流丽增殖")):
        names, _lens = _bucket(rng, alphabet, 400)
        postings = build_postings(names, g)
        for _ in range(300):
            name = rng.choice(names)
            i = rng.randrange(len(name))
            key = name[i : i + rng.randint(1, 7)]
            if rng.random() < 0.3:
                key = _typo(rng, key, alphabet)
            got = containing(key, postings, names)
            if len(key) < g:
                assert got is None
                continue
            assert got is not None
            assert sorted(got) == [p for p, n in enumerate(names) if key in n], key


def test_partial_candidates_keep_every_name_that_reaches_the_cutoff() -> None:
    rng = random.Random(8)
    narrowed = with_hits = 0
    for g, alphabet in ((2, "abcdeilnorst"), (1, "龙魔导师黑白青眼灰流丽增殖")):
        names, lens = _bucket(rng, alphabet, 600)
        postings = build_postings(names, g)
        for _ in range(150):
            name = rng.choice(names)
            i = rng.randrange(len(name))
            key = _typo(rng, name[i : i + rng.randint(3, 12)], alphabet)
            lo = next((p for p, m in enumerate(lens) if m > len(key)), len(names))
            for cutoff in (80.0, 82.4, 85.0, 90.0):
                want = [
                    p
                    for p in range(lo, len(names))
                    if fuzz.partial_ratio(key, names[p], score_cutoff=cutoff)
                ]
                got = partial_candidates(key, postings, lo, len(names), cutoff)
                if got is None:
                    continue
                narrowed += 1
                with_hits += bool(want)
                assert got == sorted(set(got)) and all(lo <= p for p in got), key
                missing = set(want) - set(got)
                assert not missing, (key, cutoff, [names[p] for p in missing])
    assert narrowed >= 300 and with_hits >= 150


def _latin_bucket(rng: random.Random, count: int) -> tuple[list[str], array[int]]:
    # Common letters (counted per name) and a few rare ones in a handful of names (kept by
    # position), as accents and digits are in the real Latin bucket.
    names, lens = _bucket(rng, "abcdeilnorst", count)
    for i in rng.sample(range(len(names)), 8):
        k = names[i]
        j = rng.randrange(len(k))
        names[i] = k[:j] + rng.choice("éñ1") + k[j + 1 :]
    return names, lens


def test_bag_lanes_are_the_bag_bound_of_every_name() -> None:
    """``Bag.lanes``: per name, the sum over the key's characters of min(count in the key,
    count in the name) (counts kept); from single-character postings, the key's count of
    every character the name holds (no counts kept: a looser bound)."""
    from collections import Counter

    from deckcheck.lookup.bag import Bag, build_bag

    rng = random.Random(13)
    names, _lens = _latin_bucket(rng, 600)
    data = build_bag(names)
    assert data["sparse"] and data["dense"]  # both kinds of characters are exercised
    for ch, counts in data["dense"].items():
        assert list(counts) == [k.count(ch) for k in names], ch
    for ch, (pos, counts) in data["sparse"].items():
        assert [(p, c) for p, c in zip(pos, counts, strict=True)] == [
            (p, k.count(ch)) for p, k in enumerate(names) if ch in k
        ], ch
    bag = Bag(len(names), data)
    cjk, _ = _bucket(rng, "龙魔导师黑白青眼灰流丽增殖", 300)
    post = build_postings(cjk, 1)
    by_postings = Bag(len(cjk), postings=(post["slot"], post["start"], post["post"]))
    for _ in range(100):
        key = _typo(rng, rng.choice(names), "abcdeilnorstéñ1x")
        lanes = bag.lanes(key)
        assert lanes is not None
        q = Counter(key)
        assert list(lanes[: len(names)]) == [
            sum(min(c, k.count(ch)) for ch, c in q.items()) for k in names
        ], key
        key = _typo(rng, rng.choice(cjk), "龙魔导师黑白青眼灰流丽增殖猫")
        lanes = by_postings.lanes(key)
        assert lanes is not None
        q = Counter(key)
        assert list(lanes[: len(cjk)]) == [sum(c for ch, c in q.items() if ch in k) for k in cjk], (
            key
        )
    assert bag.lanes("a" * 201) is None  # a lane holds at most 255


def test_bag_candidates_keep_every_name_that_reaches_the_cutoff() -> None:
    """The character-count filter against ``fuzz.ratio`` on every name of the window, at
    the suggestion cut-off (60) and above: never a name dropped that reaches it."""
    from deckcheck.lookup.bag import Bag, build_bag

    rng = random.Random(17)
    kept = compared = with_hits = 0
    latin, latin_lens = _latin_bucket(rng, 600)
    cjk, cjk_lens = _bucket(rng, "龙魔导师黑白青眼灰流丽增殖", 600)
    post = build_postings(cjk, 1)
    cases = [
        (latin, latin_lens, Bag(len(latin), build_bag(latin)), "abcdeilnorstéñ1"),
        (
            cjk,
            cjk_lens,
            Bag(len(cjk), postings=(post["slot"], post["start"], post["post"])),
            "龙魔导师黑白青眼灰流丽增殖",
        ),
    ]
    for names, lens, bag, alphabet in cases:
        bucket = (names, array("i", range(len(names))), lens)
        for _ in range(150):
            key = _typo(rng, rng.choice(names), alphabet)
            for cutoff in (60.0, 61.5, 66.7, 72.0, 79.0, 85.0, 93.3):
                lo, hi = _Scan(key, bucket).window(cutoff)
                want = [p for p in range(lo, hi) if fuzz.ratio(key, names[p], score_cutoff=cutoff)]
                got = bag.candidates(key, lens, lo, hi, cutoff)
                assert got is not None
                assert got == sorted(set(got)) and all(lo <= p < hi for p in got), key
                missing = set(want) - set(got)
                assert not missing, (key, cutoff, [names[p] for p in missing])
                kept += len(got)
                compared += hi - lo
                with_hits += bool(want)
    # It did narrow (what makes it worth having), and most cases held names to keep.
    assert kept < 0.5 * compared and with_hits >= 1000


def test_bag_lanes_stay_right_when_kept_lanes_are_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only ``_KEPT`` built lanes are kept per bucket (least recently used dropped): lanes
    built again, or kept, still give the bag bound."""
    from collections import Counter

    from deckcheck.lookup import bag as bag_mod

    monkeypatch.setattr(bag_mod, "_KEPT", 3)
    rng = random.Random(19)
    names, _lens = _latin_bucket(rng, 300)
    bag = bag_mod.Bag(len(names), bag_mod.build_bag(names))
    for _ in range(60):
        key = _typo(rng, rng.choice(names), "abcdeilnorst")
        lanes = bag.lanes(key)
        assert lanes is not None and len(bag._lanes) <= 3
        q = Counter(key)
        assert list(lanes[: len(names)]) == [
            sum(min(c, k.count(ch)) for ch, c in q.items()) for k in names
        ], key


def test_bag_counts_by_position_when_lines_cannot_count() -> None:
    """A name holding a line break (never a normalized key, but the counts must not break)
    or longer than 255 characters: every character is kept by position, counts still
    exact; a cut-off of 0 keeps every name."""
    from deckcheck.lookup.bag import Bag, build_bag

    for names in (["ab", "a\nb", "abc", "bbca"], ["ab", "abc", "b" * 300]):
        data = build_bag(names)
        assert not data["dense"]
        for ch, (pos, counts) in data["sparse"].items():
            assert [(p, c) for p, c in zip(pos, counts, strict=True)] == [
                (p, min(k.count(ch), 255)) for p, k in enumerate(names) if ch in k
            ], ch
        lens = array("i", [len(k) for k in names])
        assert (
            Bag(len(names), data).candidates("ab", lens, 0, len(names), 0.0)
            == [0, 1, 2, 3][: len(names)]
        )
