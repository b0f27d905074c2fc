"""Character n-gram postings of the fuzzy buckets: a lossless filter that narrows a
``fuzz.ratio`` scan with a high cut-off to the few names that can reach it.

Why it is lossless (pigeonhole on an optimal alignment of query ``q``, ``n`` characters,
and name ``s``, ``m`` characters, ``L`` = LCS(q, s)): ``fuzz.ratio`` = 100·2L/(n + m), so a
score of at least ``c`` (a fraction) allows ``D = n + m - 2L <= (1 - c)(n + m)`` edits
(deleted query characters plus inserted name characters).

* Grams of length ``g >= 2`` (Latin: trigrams): pick ``D_max + 1`` non-overlapping grams of
  the query. Each deleted query character breaks at most one of them, each inserted name
  character (it sits in one gap between two matched query characters) too; so one gram is
  matched contiguously and ``s`` contains it.
* Single characters (Han, kana, Hangul: thousands of distinct characters): only deletions
  can miss a character, at most ``n - L <= n - c(n + m)/2``; one more chosen position than
  that leaves a matched one, whose character ``s`` contains.

The grams are chosen to make the union of their postings smallest; when the pieces do not
fit in the query or the union is not much smaller than the window, the caller scans it all.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import TypedDict

#: Gram length per script class (0 Latin, 1 Han/kana, 2 Hangul): for ``fuzz.ratio``, and
#: for ``fuzz.partial_ratio`` (its cut-off allows more edits per query character).
GRAM = (3, 1, 1)
PARTIAL_GRAM = (2, 1, 1)
#: A filtered scan pays off while its candidates are at most this share of the window.
_MAX_SHARE = 0.3


class Postings(TypedDict):
    g: int  # gram length
    slot: dict[str, int]  # gram -> its slot in ``start``
    start: array[int]  # slot -> start of its positions in ``post`` (one past the end last)
    post: array[int]  # bucket positions (ascending) of the names holding each gram


def build_postings(names: list[str], g: int) -> Postings:
    """The postings of every ``g``-gram in ``names`` (a bucket, sorted by length)."""
    # Positions go straight into arrays: lists would hold millions of int objects at once.
    by_gram: dict[str, array[int]] = {}
    get = by_gram.get
    cut: dict[int, Callable[[str], Iterable[str]]] = {}  # name length -> its grams, in C
    for pos, k in enumerate(names):
        n = len(k)
        grams = cut.get(n)
        if grams is None:
            if n < g:
                continue
            if g == 1:
                grams = iter
            elif n == g:
                grams = _whole
            else:
                grams = itemgetter(*[slice(i, i + g) for i in range(n - g + 1)])
            cut[n] = grams
        for gram in grams(k):
            lst = get(gram)
            if lst is None:
                by_gram[gram] = array("i", (pos,))
            elif lst[-1] != pos:  # a gram twice in one name: listed once
                lst.append(pos)
    slot: dict[str, int] = {}
    start = array("i", [0])
    post = array("i")
    for gram, positions in by_gram.items():
        slot[gram] = len(slot)
        post.extend(positions)
        start.append(len(post))
    return {"g": g, "slot": slot, "start": start, "post": post}


def _whole(k: str) -> tuple[str]:
    return (k,)


def _pick(key: str, g: int, need: int, cost: list[int]) -> list[int] | None:
    """Start positions of ``need`` non-overlapping ``g``-grams of ``key`` of least total
    ``cost`` (cost[i]: postings of the gram at i), or None when they do not fit."""
    n_pos = len(cost)
    if need <= 0:
        return []
    if g == 1:
        if need > n_pos:
            return None
        return sorted(range(n_pos), key=cost.__getitem__)[:need]
    if need * g > len(key):
        return None
    inf = math.inf
    # best[j][i]: least cost of j grams inside key[i:]; taken[j][i]: the gram at i is one.
    best = [[0.0] * (n_pos + g + 1)] + [[inf] * (n_pos + g + 1) for _ in range(need)]
    taken = [[False] * (n_pos + g + 1) for _ in range(need + 1)]
    for j in range(1, need + 1):
        row, prev, tk = best[j], best[j - 1], taken[j]
        for i in range(n_pos - 1, -1, -1):
            skip = row[i + 1]
            use = cost[i] + prev[i + g]
            if use < skip:
                row[i], tk[i] = use, True
            else:
                row[i] = skip
    if best[need][0] == inf:
        return None
    out: list[int] = []
    i, j = 0, need
    while j > 0:
        if taken[j][i]:
            out.append(i)
            i += g
            j -= 1
        else:
            i += 1
    return out


def candidates(
    key: str, postings: Postings, lens: array[int], lo: int, hi: int, cutoff: float
) -> list[int] | None:
    """Ascending positions in ``[lo, hi)`` of every name whose ``fuzz.ratio`` with ``key``
    can be at least ``cutoff`` (a superset of them), or None: scan the whole window."""
    if lo >= hi:
        return []
    n = len(key)
    c = cutoff / 100.0
    if postings["g"] == 1:
        # Deletions only; the shortest name of the window allows the most.
        need = math.floor(n - c * (n + lens[lo]) / 2.0 + 1e-6) + 1
    else:
        need = math.floor((1.0 - c) * (n + lens[hi - 1]) + 1e-6) + 1
    return _union(key, postings, need, lo, hi, _MAX_SHARE)


def partial_candidates(
    key: str, postings: Postings, lo: int, hi: int, cutoff: float
) -> list[int] | None:
    """Ascending positions in ``[lo, hi)`` of every name (longer than ``key``) whose
    ``fuzz.partial_ratio`` with ``key`` can be at least ``cutoff``, or None: scan them all.

    ``partial_ratio`` is the best ``ratio`` of ``key`` against a piece ``w`` of the name
    with ``|w| <= n``: so ``D <= (1 - c)(n + |w|) <= 2(1 - c)n`` edits, and (single
    characters) ``n - L <= n - c(n + |w|)/2`` deletions, where ``L <= |w|`` gives
    ``|w| >= cn/(2 - c)``. The grams then work as in ``candidates``, ``w`` in the name.
    """
    if lo >= hi:
        return []
    n = len(key)
    c = cutoff / 100.0
    if postings["g"] == 1:
        need = math.floor(n - c * (n + c * n / (2.0 - c)) / 2.0 + 1e-6) + 1
    else:
        need = math.floor(2.0 * (1.0 - c) * n + 1e-6) + 1
    # The LCS prefilter that follows costs more per name than a set insert: worth it longer.
    return _union(key, postings, need, lo, hi, 2 * _MAX_SHARE)


def _union(
    key: str, postings: Postings, need: int, lo: int, hi: int, share: float
) -> list[int] | None:
    """The positions in ``[lo, hi)`` of the postings of the ``need`` cheapest
    non-overlapping grams of ``key``, ascending; None when they do not fit or would hold
    more than ``share`` of the window."""
    n = len(key)
    g = postings["g"]
    slot, start, post = postings["slot"], postings["start"], postings["post"]
    spans: list[tuple[int, int]] = []
    for i in range(n - g + 1):
        s = slot.get(key[i : i + g])
        spans.append((0, 0) if s is None else (start[s], start[s + 1]))
    cost = [b - a for a, b in spans]
    picked = _pick(key, g, need, cost)
    if picked is None or sum(cost[i] for i in picked) > share * (hi - lo):
        return None
    out: set[int] = set()
    for i in picked:
        a, b = spans[i]
        # Positions ascend: cut each posting to the window first.
        out.update(post[bisect_left(post, lo, a, b) : bisect_left(post, hi, a, b)])
    return sorted(out)


def containing(key: str, postings: Postings, names: list[str]) -> list[int] | None:
    """Positions of the names that contain ``key`` (exact: the postings of its two rarest
    grams narrow, ``in`` confirms), or None when ``key`` is shorter than a gram."""
    g = postings["g"]
    if len(key) < g:
        return None
    slot, start, post = postings["slot"], postings["start"], postings["post"]
    spans: list[tuple[int, int]] = []
    for gram in {key[i : i + g] for i in range(len(key) - g + 1)}:
        s = slot.get(gram)
        if s is None:
            return []  # no name holds this gram, so none holds ``key``
        spans.append((start[s + 1] - start[s], start[s]))
    spans.sort()
    (n0, a0), *rest = spans
    pool: set[int] | array[int] = post[a0 : a0 + n0]
    if rest:
        n1, a1 = rest[0]
        pool = set(pool).intersection(post[a1 : a1 + n1])
    return [p for p in pool if key in names[p]]
