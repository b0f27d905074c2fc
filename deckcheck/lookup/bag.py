"""Character counts of a fuzzy bucket: a lossless filter for ``fuzz.ratio`` at any cut-off,
the low suggestion cut-off included, where the n-gram postings of ``lookup.grams`` cannot
narrow.

Why it is lossless: ``fuzz.ratio(q, s)`` = 100·2L/(n + m) with ``L`` = LCS(q, s), and the
characters of a common subsequence are common characters, so ``L`` is at most the bag bound
``B(q, s)`` = Σ over the characters ``c`` of ``q`` of min(count of c in q, count in s). A
score of at least ``c`` needs ``L >= c(n + m)/200``, so ``B`` must reach the same integer.

``B`` of a query against every name of the bucket is computed at once, one byte lane per
name in a Python integer (SWAR: adding lanes of at most ``n < 256`` in total never carries
into the next lane): per character of the query one integer addition of its lanes
(``min(count in q, count in s)``, precomputed per name for the common characters, built from
the postings for the rare ones). Then each length of the window keeps the lanes that reach
its bound (``bytes.translate``), and the positions of those come from splitting the bytes.
"""

from __future__ import annotations

import math
import re
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from functools import cache
from itertools import accumulate
from typing import TypedDict

#: A character in at least this share of the names (occurrences) gets its count per name.
_DENSE_SHARE = 0.01
#: Rare characters (and the single-character postings of a Han/kana or Hangul bucket): their
#: lanes are built per query from the positions, or kept built when they hold this many.
_KEEP_LANES = 512
#: Lanes kept built per bucket (each one byte a name: 91 KB for the Latin bucket), the least
#: recently used dropped first: the common letters once or twice in a query stay.
_KEPT = 96
#: Longest key the lanes can add up (a lane holds at most 255).
MAX_KEY = 200


class BagData(TypedDict):
    size: int  # names in the bucket
    dense: dict[str, bytes]  # common character -> its count in each name (one byte a name)
    sparse: dict[str, tuple[array[int], bytes]]  # other characters -> (positions, counts)


def build_bag(names: list[str]) -> BagData:
    """The character counts of ``names`` (a bucket, sorted by length; normalized keys, so
    without line breaks)."""
    size = len(names)
    joined = "\n".join(names)
    dense: dict[str, bytes] = {}
    rare: list[str] = []
    longest = max(map(len, names), default=0)
    # Counts by lines need one name a line (and a byte a count): else every character is
    # kept by position, as rare ones are.
    by_lines = longest <= 255 and joined.count("\n") == max(size - 1, 0)
    encoded = joined.encode("ascii", "replace")  # only ASCII characters are counted here
    for ch in sorted(set(joined) - {"\n"}):
        if not (by_lines and ch.isascii()) or encoded.count(ch.encode()) < _DENSE_SHARE * size:
            rare.append(ch)
            continue
        # Everything but the character and the line breaks deleted: a name's count is the
        # length of its line (bytes.translate and split, in C; str.count per name was
        # most of the build).
        kept = encoded.translate(None, _all_but(ch))
        dense[ch] = bytes(map(len, kept.split(b"\n")))
    sparse: dict[str, tuple[array[int], bytes]] = {}
    if rare:
        # One pass over the occurrences of the rare characters in the joined names.
        pattern = re.compile("[" + "".join(re.escape(ch) for ch in rare) + "]")
        starts = list(accumulate((len(k) + 1 for k in names[:-1]), initial=0))
        found: dict[str, dict[int, int]] = {}
        for m in pattern.finditer(joined):
            pos = bisect_right(starts, m.start()) - 1
            per = found.setdefault(m.group(), {})
            per[pos] = per.get(pos, 0) + 1
        sparse = {
            ch: (array("i", per), bytes(min(c, 255) for c in per.values()))
            for ch, per in found.items()
        }
    return {"size": size, "dense": dense, "sparse": sparse}


def _all_but(ch: str) -> bytes:
    """Every byte but ``ch``'s (ASCII) and the line break's: what ``translate`` deletes."""
    keep = {ord(ch), ord("\n")}
    return bytes(b for b in range(256) if b not in keep)


@cache
def _min_table(k: int) -> bytes:
    return bytes(min(v, k) for v in range(256))


@cache
def _at_least(v: int) -> bytes:
    """The ``bytes.translate`` table of "at least ``v``": a line break (10), else 0."""
    return bytes(10 if b >= v else 0 for b in range(256))


class Bag:
    """The bag bound of a key against every name of one bucket (see the module docstring).

    ``data``: the counts of ``build_bag``; or, for a bucket whose n-gram postings are single
    characters, ``postings`` (slot, start, post of ``lookup.grams``): there a name's count
    is not kept, and a character of the key counts as often as in the key (a looser, still
    sound bound: min(k, count) <= k)."""

    def __init__(
        self,
        size: int,
        data: BagData | None = None,
        postings: tuple[dict[str, int], array[int], array[int]] | None = None,
    ) -> None:
        self.size = size
        self._dense = data["dense"] if data is not None else {}
        self._sparse = data["sparse"] if data is not None else {}
        self._postings = postings
        self._lanes: dict[tuple[str, int], int] = {}

    def _positions(self, ch: str) -> tuple[array[int] | memoryview, bytes | None] | None:
        got = self._sparse.get(ch)
        if got is not None:
            return got
        if self._postings is None:
            return None
        slot, start, post = self._postings
        s = slot.get(ch)
        if s is None:
            return None
        return memoryview(post)[start[s] : start[s + 1]], None

    def _lane_int(self, ch: str, k: int) -> int | None:
        """The lanes ``min(k, count of ch)`` of the whole bucket as one integer (kept), or
        None for a rare character (added per query)."""
        got = self._lanes.pop((ch, k), None)
        if got is not None:
            self._lanes[(ch, k)] = got  # the most recently used last
            return got
        counts = self._dense.get(ch)
        if counts is not None:
            lanes = counts.translate(_min_table(k))
        else:
            where = self._positions(ch)
            if where is None or len(where[0]) < _KEEP_LANES:
                return None
            buf = bytearray(self.size)
            pos, cnt = where
            if cnt is None:
                for p in pos:
                    buf[p] = k
            else:
                for p, c in zip(pos, cnt, strict=True):
                    buf[p] = min(k, c)
            lanes = bytes(buf)
        got = self._lanes[(ch, k)] = int.from_bytes(lanes, "little")
        if len(self._lanes) > _KEPT:
            del self._lanes[next(iter(self._lanes))]  # the least recently used
        return got

    def lanes(self, key: str) -> bytearray | None:
        """The bag bound of ``key`` against each name of the bucket, one byte a name (and one
        spare at the end); None when the key is too long for a byte."""
        if len(key) > MAX_KEY:
            return None
        total = 0
        rare: list[tuple[str, int]] = []
        counted = Counter(key)
        for ch, k in counted.items():
            whole = self._lane_int(ch, k)
            if whole is None:
                rare.append((ch, k))
            else:
                total += whole
        lanes = bytearray(total.to_bytes(self.size + 1, "little"))
        for ch, k in rare:
            where = self._positions(ch)
            if where is None:
                continue  # no name holds it: adds nothing
            pos, cnt = where
            if cnt is None:
                for p in pos:
                    lanes[p] += k
            else:
                for p, c in zip(pos, cnt, strict=True):
                    lanes[p] += min(k, c)
        return lanes

    def candidates(
        self,
        key: str,
        lens: array[int],
        lo: int,
        hi: int,
        cutoff: float,
        lanes: bytearray | None = None,
    ) -> list[int] | None:
        """Ascending positions in ``[lo, hi)`` of every name whose ``fuzz.ratio`` with
        ``key`` can be at least ``cutoff`` (a superset of them), or None (key too long).
        ``lanes``: ``self.lanes(key)``, when already computed."""
        if lanes is None:
            lanes = self.lanes(key)
            if lanes is None:
                return None
        if lo >= hi:
            return []
        if cutoff <= 0.0:
            return list(range(lo, hi))  # every name reaches it (and no bound grows with m)
        n = len(key)
        pieces: list[bytearray] = []
        i = lo
        while i < hi:
            # The names of one bound (lengths ascend, so does the bound): a run.
            need = _need(cutoff, n, lens[i])
            j = bisect_left(lens, _first_len_above(cutoff, n, need, lens[i]), i, hi)
            pieces.append(lanes[i:j].translate(_at_least(need)))
            i = j
        # Positions of the kept names (line breaks, the rest zeros): the lengths of the lines
        # up to each, added up (splitlines and accumulate run in C).
        lines = b"".join(pieces).splitlines(True)
        if lines and lines[-1][-1] != 10:
            lines.pop()  # the zeros after the last kept name
        out = list(accumulate(map(len, lines), initial=lo - 1))
        del out[0]
        return out


def _need(cutoff: float, n: int, m: int) -> int:
    """The least LCS a name of ``m`` characters needs for a ``fuzz.ratio`` of ``cutoff``
    with a key of ``n`` (minus a hair for the float arithmetic of the score)."""
    return math.ceil(cutoff * (n + m) / 200.0 - 1e-6)


def _first_len_above(cutoff: float, n: int, need: int, m: int) -> int:
    """The first length after ``m`` whose bound is above ``need``."""
    m += 1
    while _need(cutoff, n, m) == need:
        m += 1
    return m
