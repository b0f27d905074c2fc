"""The name index: every name of every card in every language, with ranked search and
resolution, cached on disk per database.

The parts: ``lookup.data`` (the typed index data, built from the database), ``lookup.cache``
(the on-disk pickle), ``lookup.nicknames`` (``card_db/nicknames.yaml``), ``lookup.ranking``
(the search steps, best first), ``lookup.scan`` (its ``fuzz.ratio`` passes) with the lossless
filters ``lookup.grams`` (n-gram postings) and ``lookup.bag`` (character counts),
``lookup.decision`` (found / ambiguous / unknown).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import ClassVar

from deckcheck.lookup import cache
from deckcheck.lookup.cache import FORMAT_VERSION
from deckcheck.lookup.data import CardSource, IndexData, build_data
from deckcheck.lookup.decision import decide
from deckcheck.lookup.langs import preferred_langs
from deckcheck.lookup.nicknames import load_nicknames, nicknames_path
from deckcheck.lookup.normalize import normalize, normalize_words, script_of
from deckcheck.lookup.ranking import (
    DECIDE,
    MARGIN,
    MIN_INFIX,
    MIN_PREFIX,
    PARTIAL_WEIGHT,
    SUGGEST_CUTOFF,
    Ranker,
    _kth,
    _offer,
)
from deckcheck.lookup.records import Match, Resolution

__all__ = [
    "DECIDE",
    "FORMAT_VERSION",
    "MARGIN",
    "MIN_PREFIX",
    "SUGGEST_CUTOFF",
    "Index",
    "load_nicknames",
    "nicknames_path",
]


class Index(Ranker):
    """Every name of every card, normalized, with the structures each ranking step needs."""

    _memo: ClassVar[dict[str, Index]] = {}

    @classmethod
    def for_db(
        cls, db: CardSource, *, cache_dir: Path | None = None, nick_path: Path | None = None
    ) -> Index:
        """The index of ``db``: from memory, from the on-disk cache, or built (and cached)."""
        nick_path = nick_path or nicknames_path()
        key = cache.cache_key(db.fingerprint, nick_path)
        got = cls._memo.get(key)
        if got is not None:
            return got
        extra: list[Path] = []
        if cache_dir is None:
            from deckcheck.paths import cache_dir as default_cache_dir
            from deckcheck.paths import read_only_cache_dir

            cache_dir = default_cache_dir()
            # A read-only home: the index ``db import`` built there is still read.
            ro = read_only_cache_dir()
            if ro is not None and ro != cache_dir:
                extra.append(ro)
        path = cache.cache_path(cache_dir, key)
        index = cls._load(path, key)
        for folder in extra:
            if index is None:
                index = cls._load(cache.cache_path(folder, key), key)
        if index is None:
            index = cls.build(db, nick_path=nick_path, key=key)
            index._save(path)
        cls._memo.clear()  # one database per process in practice; keep memory bounded
        cls._memo[key] = index
        return index

    @classmethod
    def _load(cls, path: Path, key: str) -> Index | None:
        data = cache.read(path, key)
        if data is None:
            return None
        try:
            return cls(data)  # type: ignore[arg-type]
        except KeyError:  # written by another layout under the same key: rebuild
            return None

    def cache_to(self, cache_dir: Path) -> None:
        """Write this index's on-disk cache into ``cache_dir`` (a note when it cannot)."""
        self._save(cache.cache_path(cache_dir, self._d["key"]))

    def _save(self, path: Path) -> None:
        cache.write(path, dict(self._d))

    @classmethod
    def build(cls, db: CardSource, *, nick_path: Path | None = None, key: str = "") -> Index:
        """Build the index from ``db.iter_names()`` (and the nicknames file, when present)."""
        data: IndexData = build_data(db, nick_path=nick_path, key=key)
        return cls(data)

    def search(self, query: str, lang: str | None = None, limit: int = 10) -> list[Match]:
        """Ranked matches for ``query``, one per card, best first (see ``lookup.ranking``)."""
        return self._ranked(query, lang, limit, stop_early=False)[:limit]

    def rank(self, query: str, lang: str | None = None) -> list[Match]:
        """The whole ranking of ``query`` (every step), best first: what ``resolve`` decides
        on and ``search`` shows the start of. Matches that cannot reach the first ten nor
        change the verdict may be left out (the wide and partial passes start at the tenth
        score so far)."""
        return self._ranked(query, lang, 10, stop_early=False)

    def resolve_exact(self, query: str, lang: str | None = None) -> Resolution | None:
        """The verdict of ``resolve`` when ``query`` is a passcode, an exact name (after
        normalization) or a nickname, else None: no prefix or fuzzy step runs (microseconds,
        for callers out of fuzzy budget)."""
        quick = self._ranked(query, lang, 10, stop_early=True)
        return decide(query, quick, self._official) if quick else None

    def resolve(self, query: str, lang: str | None = None) -> Resolution:
        """Found, ambiguous or unknown (with suggestions); see ``lookup.decision``.

        The verdict is the one ``decide`` gives on the whole ranking (``rank``), and so are
        the candidates of an ambiguous or unknown query. A found one may stop the ranking
        early, once a clear winner is ahead of everything the later steps could add: its
        candidates are then the first of the whole ranking's (the winner, then the matches
        above that bound), not all ten.
        """
        quick = self._ranked(query, lang, 10, stop_early=True)
        if quick:
            # Those tiers rank above every prefix or fuzzy match: the steps skipped could not
            # change the verdict nor the first candidates.
            return decide(query, quick, self._official)
        clear = self._clear_ranking(query, lang)
        if clear is not None:
            got = self._clear_winner(query, clear[0], clear[1], True)
            if got is not None:
                return got
        early: list[Resolution] = []

        def probe(ranked: list[Match], bound: float, decided: bool) -> bool:
            got = self._clear_winner(query, ranked, bound, decided)
            if got is not None:
                early.append(got)
            return got is not None

        ranked = self._ranked(query, lang, 10, stop_early=False, probe=probe)
        if early:
            return early[0]
        # Otherwise decide on, and suggest from, the very ranking ``search`` shows.
        return decide(query, ranked, self._official)

    def _clear_ranking(self, query: str, lang: str | None) -> tuple[list[Match], float] | None:
        """``resolve``'s fastest path (a typo of a longer name): when no name starts with
        the query and a fuzzy match scores at least ``DECIDE + MARGIN``, every match of the
        whole ranking (``rank``) that scores above ``bound`` (the best fuzzy score minus the
        margin), found through the n-gram filter; with that bound. None: the usual path.

        Why the whole ranking holds nothing else above ``bound``: there are no id, exact,
        nickname (``resolve`` tried them) nor prefix matches; the substring matches are
        computed as there (whole-word ones may score up to 100); its
        first fuzzy pass, at the cut-off computed as there, which must not exceed ``cut``,
        keeps the best 40 hits, so every one of the fewer than 40 at or above ``cut``; the
        best one (at least ``DECIDE``) decides, so the partial pass does not run; and every
        fuzzy score not seen is below ``cut``, below ``bound`` once rounded.
        """
        key = normalize(query)
        if not key:
            return None
        script = script_of(key)
        lo = bisect_right(self._keys, key)
        if bisect_left(self._keys, key + "\U0010ffff", lo) > lo:
            return None  # a prefix never decides: the whole ranking is the suggestion list
        margin = MARGIN[script]
        top = self._hits_at_least(key, DECIDE[script] + margin)
        if not top:
            return None
        # The winner's score as ``Match`` rounds it, minus the margin (and a hair, so that
        # float subtraction cannot make the winner fall short of the margin).
        bound = round(top[0][1], 1) - margin - 1e-9
        cut = bound - 0.1  # a score below it stays below ``bound`` once rounded
        hits = self._hits_at_least(key, cut)
        limit = 10
        if len(hits) >= max(limit * 4, 20):
            return None
        best: dict[int, Match] = {}
        if len(key) >= MIN_INFIX[script]:
            _offer(best, self._infix(key, lang, f" {normalize_words(query)} "))
        if max(DECIDE[script] - margin, min(_kth(best, limit, self._rank_score), 100.0)) > cut:
            return None
        for kid, score in hits:
            _offer(best, self._matches(kid, lang, score, "fuzzy"))
        return self._order(best, preferred_langs(query, lang)), bound

    def _clear_winner(
        self, query: str, ranked: list[Match], bound: float, decided: bool
    ) -> Resolution | None:
        """The verdict of the whole ranking when ``ranked`` (the ranking so far) already
        shows a fuzzy winner at least the margin above ``bound``, else None.

        Everything a later step could add scores at most ``bound`` (and the partial pass,
        up to 100 * PARTIAL_WEIGHT, runs only when nothing ``decided``)."""
        res = decide(query, ranked, self._official)
        if res.status != "found" or res.candidates[0].how != "fuzzy":
            return None
        winner = res.candidates[0]
        script = script_of(normalize(query))
        if winner.score - bound < MARGIN[script]:
            return None  # a later match could come within the margin (or be close)
        if not decided and bound < 100.0 * PARTIAL_WEIGHT:
            return None
        cands = [winner, *[m for m in ranked if m is not winner and m.score > bound]]
        return Resolution("found", query, winner.card_id, tuple(cands[:10]))
