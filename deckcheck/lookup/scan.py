"""The ``fuzz.ratio`` scan of one key over its script bucket: every name that reaches a
cut-off, best first, compared only where the character-count filter (``lookup.bag``) says a
name can reach it."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckcheck.lookup.bag import Bag
    from deckcheck.lookup.data import Bucket


def pick_names(names: list[str], positions: list[int]) -> list[str]:
    """``[names[p] for p in positions]``, gathered in C (tens of thousands at a time); a
    list, not a tuple: rapidfuzz's ``extract_iter`` goes through a list faster."""
    if len(positions) < 2:
        return [names[p] for p in positions]
    return list(itemgetter(*positions)(names))


class _Scan:
    """``fuzz.ratio`` of one key against the names of its script bucket, scored with
    ``score_cutoff=floor`` (the suggestion cut-off) as a plain scan of the bucket would.

    ``best(cutoff, n)`` after ``cover(cutoff)`` is exactly what ``process.extract`` over
    the window of ``cutoff`` with that cut-off and limit returns (by score, then position):
    a score of ``cutoff`` or more is only possible inside that window, and only for a name
    the bag filter keeps (``Bag.candidates``: lossless); ties keep the bucket order. A lower
    cut-off than any covered so far compares its own (wider) candidates afresh.
    """

    def __init__(
        self, key: str, bucket: Bucket, bag: Bag | None = None, floor: float = 60.0
    ) -> None:
        self.key = key
        self.names, self.kids, self.lens = bucket
        self.bag = bag
        self.floor = floor
        self.covered: float | None = None  # every name scoring at least this is in ``hits``
        self.hits: list[tuple[float, int]] = []  # (score, position in the bucket)
        self._lanes: bytearray | None = None
        self.returned: set[int] = set()  # key ids given to earlier passes (Ranker._fuzzy)

    def window(self, cutoff: float) -> tuple[int, int]:
        # Lossless length window for the cutoff: ratio = 2·common/(len1+len2).
        s = cutoff / 100.0
        n = len(self.key)
        lo = bisect_left(self.lens, int(n * s / (2 - s)))
        hi = bisect_right(self.lens, int(n * (2 - s) / s) + 1)
        return lo, hi

    def cover(self, cutoff: float) -> None:
        if self.covered is not None and cutoff >= self.covered:
            return
        lo, hi = self.window(cutoff)
        self.hits = self.scores(lo, hi, cutoff, self.floor) if lo < hi else []
        self.covered = cutoff

    def scores(
        self, lo: int, hi: int, cutoff: float, score_cutoff: float
    ) -> list[tuple[float, int]]:
        """(score, position) of the names in ``[lo, hi)`` with a score of at least
        ``score_cutoff`` (as rapidfuzz computes and cuts it), in bucket order: at least all
        of those reaching ``cutoff``, and those below it the filter left."""
        from rapidfuzz import fuzz, process

        where = None
        if self.bag is not None:
            if self._lanes is None:
                self._lanes = self.bag.lanes(self.key)  # the same for every cut-off
            if self._lanes is not None:
                where = self.bag.candidates(self.key, self.lens, lo, hi, cutoff, self._lanes)
        pool: Sequence[str] = self.names[lo:hi] if where is None else pick_names(self.names, where)
        # ``extract_iter``: the hits in list order, unsorted (``best`` sorts what it keeps).
        found = process.extract_iter(
            self.key,
            pool,
            scorer=fuzz.ratio,
            processor=None,  # both sides are already normalized keys
            score_cutoff=score_cutoff,
        )
        if where is None:
            return [(score, lo + i) for _name, score, i in found]
        return [(score, where[i]) for _name, score, i in found]

    def best(self, cutoff: float, n: int) -> list[tuple[int, float]]:
        """(key id, score) of the best ``n`` hits of at least ``cutoff``."""
        assert self.covered is not None and cutoff >= self.covered
        sel = sorted((h for h in self.hits if h[0] >= cutoff), key=lambda h: (-h[0], h[1]))
        return [(self.kids[pos], score) for score, pos in sel[:n]]
