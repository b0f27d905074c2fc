"""Ranked search over the lookup index data, best first (STYLE.md practice 3: fuzzy
suggests; ``lookup.decision`` decides only when one card is clearly ahead):

1. ``id``: the query is a passcode of the database (alternate artworks report their main card).
2. ``exact``: the normalized query equals a normalized name in any language (or a reading).
3. ``nickname``: ``card_db/nicknames.yaml`` (ash, imperm, nibiru, …).
4. ``prefix``: a name starts with the query: 95–100 when it ends on a word of the name
   (Cyclone Blade for "Cyclone"), 90–95 inside one (Rayel for "Raye"), higher the more of
   the name it covers; ``word``: the query's words are whole words later in a name (Sky
   Striker Ace - Raye), scored alike, or a card's Japanese name is them in katakana (99:
   "Cyclone" is Mystical Space Typhoon's OCG name サイクロン, ``IndexData.katakana``). Neither
   decides; a whole-word match ranks above every fuzzy prefix (issue 32).
5. ``fuzzy``: rapidfuzz ``fuzz.ratio`` over normalized names of the same script (score
   0–100, cut off at ``SUGGEST_CUTOFF``), plus names that contain the query inside a word
   (score 60–90 by the share of the name the query covers).

In steps 4 and 5 a card that is not official (anime, unofficial, Rush, Speed Duel skills)
ranks as if it scored ``UNOFFICIAL_PENALTY`` less (its score is shown as is), below every
``MARGIN``: no verdict changes, and the anime Cyclone Wing comes after the real cards.
"""

from __future__ import annotations

import math
import pickle
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from deckcheck.lookup import grams
from deckcheck.lookup.bag import Bag, BagData
from deckcheck.lookup.data import Bucket, IndexData
from deckcheck.lookup.langs import preferred_langs
from deckcheck.lookup.normalize import normalize, normalize_words, raw_key, script_of
from deckcheck.lookup.records import Match
from deckcheck.lookup.scan import _Scan
from deckcheck.lookup.scan import pick_names as _pick_names

#: Lowest fuzzy score that is shown as a suggestion.
SUGGEST_CUTOFF = 60.0
#: Lowest fuzzy score that may decide, per script class (0 Latin, 1 Han/kana, 2 Hangul).
#: CJK names are short (2–8 characters) and one wrong character often names another card
#: (双子恶魔 is not 电子恶魔, 75): a Han/Hangul typo decides only in names of 7+ characters.
DECIDE = {0: 85.0, 1: 85.0, 2: 85.0}
#: How far ahead of the next card the best fuzzy match must be to decide.
MARGIN = {0: 6.0, 1: 8.0, 2: 8.0}
#: Partial matches (search only): cut-off of ``fuzz.partial_ratio`` and the weight that
#: keeps them below whole-name matches.
PARTIAL_CUTOFF = 80.0
PARTIAL_WEIGHT = 0.85
#: Shortest query (in key characters) for which a unique prefix decides.
MIN_PREFIX = {0: 4, 1: 2, 2: 2}
#: Shortest query for substring ("contains") suggestions.
MIN_INFIX = {0: 4, 1: 2, 2: 2}

#: How much lower a match of a card that is not official ranks in steps 4 and 5 (below every
#: ``MARGIN``: a verdict never changes for it).
UNOFFICIAL_PENALTY = 5.0

_TIER = {"id": 0, "exact": 1, "nickname": 2, "prefix": 3, "word": 3, "fuzzy": 3}
_MAX_SCAN = 400  # prefix / substring hits examined per query (short queries hit thousands)


class Ranker:
    """The ranking steps over one ``IndexData``."""

    def __init__(self, data: IndexData):
        self._d = data
        self.fingerprint: str = data["fingerprint"]
        self._langs: list[str] = data["langs"]
        self._lang_code = {name: i for i, name in enumerate(self._langs)}
        self._ent_card: array[int] = data["ent_card"]
        self._ent_lang: array[int] = data["ent_lang"]
        self._ent_name: list[str] = data["ent_name"]
        self._keys: list[str] = data["keys"]
        self._post_start: array[int] = data["post_start"]
        self._post: array[int] = data["post"]
        self._buckets: list[Bucket] = data["buckets"]
        self._grams_pickled: bytes = data["grams"]
        self._grams_loaded: dict[str, list[Any]] | None = None
        self._bags: list[Bag] | None = None
        self._nick: dict[str, tuple[int, str]] = data["nick"]
        self._ids: dict[int, int] = data["ids"]
        self._official: set[int] = data["official"]
        self._cards: array[int] = data["cards"]  # distinct cards, sorted
        self._card_start: array[int] = data["card_start"]  # entries sorted by card
        self._joined: str | None = None
        self._printing_count: dict[int, int] | None = None
        self._offsets: array[int] | None = None
        self._display: dict[tuple[int, str | None], str] = {}  # display_name, per card and lang
        self._words: dict[int, str] = {}  # entry -> " its words " (normalize_words), on use
        self._katakana: dict[str, str] = data["katakana"]

    def _gram_postings(self, which: str) -> list[Any]:
        """Per bucket, the n-gram postings for ``fuzz.ratio`` ("ratio") or
        ``fuzz.partial_ratio`` ("partial")."""
        # Unpickled on first use: a process that only looks up exact names never pays it.
        if self._grams_loaded is None:
            self._grams_loaded = pickle.loads(self._grams_pickled)
        return self._grams_loaded[which]

    def _bag(self, script: int) -> Bag:
        """The character-count filter (``lookup.bag``) of a bucket: its stored counts, or
        its single-character postings (Han/kana, Hangul)."""
        if self._bags is None:
            stored: list[BagData | None] = self._gram_postings("bag")
            bags = []
            for b, data in enumerate(stored):
                size = len(self._buckets[b][0])
                if data is None:
                    p = self._gram_postings("ratio")[b]
                    bags.append(Bag(size, postings=(p["slot"], p["start"], p["post"])))
                else:
                    bags.append(Bag(size, data))
            self._bags = bags
        return self._bags[script]

    def __len__(self) -> int:
        return len(self._ent_name)

    def _entries_of_card(self, card: int) -> range:
        i = bisect_left(self._cards, card)
        if i == len(self._cards) or self._cards[i] != card:
            return range(0)
        return range(self._card_start[i], self._card_start[i + 1])

    def names_of(self, card: int) -> dict[str, list[str]]:
        """Every indexed name of a card, per language (readings under ``<lang>_reading``)."""
        out: dict[str, list[str]] = {}
        for e in self._entries_of_card(card):
            out.setdefault(self._langs[self._ent_lang[e]], []).append(self._ent_name[e])
        return out

    def display_name(self, card: int, lang: str | None = None) -> str:
        """The card's name in ``lang`` when it has one, else English, else any name."""
        got = self._display.get((card, lang))
        if got is None:
            if len(self._display) >= 65536:
                self._display.clear()  # bounded: a long-lived process asks for many cards
            got = self._display[(card, lang)] = self._display_name(card, lang)
        return got

    def _display_name(self, card: int, lang: str | None) -> str:
        rng = self._entries_of_card(card)
        want: list[str] = [lang, "en"] if lang and lang != "en" else ["en"]
        code = self._lang_code
        ent_lang = self._ent_lang
        for w in want:
            c = code.get(w)
            if c is None:
                continue  # no name in that language at all
            for e in rng:
                if ent_lang[e] == c:
                    return self._ent_name[e]
        return self._ent_name[rng[0]] if rng else str(card)

    def cards_with_name_containing(self, key: str) -> set[int]:
        """Cards with a name (any language, readings too) whose key contains ``key`` (a
        normalized word): the name terms of the search language."""
        out: set[int] = set()
        ent_card = self._ent_card
        for kid, k in enumerate(self._keys):
            if key in k:
                for e in self._postings(kid):
                    out.add(ent_card[e])
        return out

    def _postings(self, kid: int) -> Iterable[int]:
        return self._post[self._post_start[kid] : self._post_start[kid + 1]]

    def _match(self, e: int, lang: str | None, score: float, how: str) -> Match:
        card = self._ent_card[e]
        return Match(
            card_id=card,
            name=self.display_name(card, lang),
            matched=self._ent_name[e],
            lang=self._langs[self._ent_lang[e]],
            score=round(score, 1),
            how=how,
        )

    def _matches(self, kid: int, lang: str | None, score: float, how: str) -> list[Match]:
        return [self._match(e, lang, score, how) for e in self._best_entry(kid, lang).values()]

    def _best_entry(self, kid: int, lang: str | None, raw: str | None = None) -> dict[int, int]:
        """card -> the entry of key ``kid`` to report: the one written as typed (``raw``),
        else one in the requested language, else the first."""
        out: dict[int, int] = {}
        rank: dict[int, int] = {}
        for e in self._postings(kid):
            c = self._ent_card[e]
            r = (
                2
                if raw is not None and raw_key(self._ent_name[e]) == raw
                else (1 if lang and self._langs[self._ent_lang[e]] == lang else 0)
            )
            if c not in out or r > rank[c]:
                out[c], rank[c] = e, r
        return out

    # ------------------------------------------------------------------ the steps

    def _id_match(self, query: str) -> Match | None:
        s = unicodedata.normalize("NFKC", query).strip()  # full-width digits too
        if not (s.isascii() and s.isdigit()) or len(s) > 10:
            return None
        t = self._ids.get(int(s))
        if t is None:
            return None
        return Match(t, self.display_name(t), s, "id", 100.0, "id")

    def _exact(self, key: str, query: str, lang: str | None) -> list[Match]:
        i = bisect_left(self._keys, key)
        if i == len(self._keys) or self._keys[i] != key:
            return []
        raw = raw_key(query)
        # Exact beats normalised: a name written as typed scores 100, one equal only after
        # folding (黑・魔・导, Raimei / Rai-Mei) 99, so it ranks second in the same tier.
        out = []
        for e in self._best_entry(i, lang, raw).values():
            score = 100.0 if raw_key(self._ent_name[e]) == raw else 99.0
            out.append(self._match(e, lang, score, "exact"))
        return out

    def _nickname(self, key: str, lang: str | None) -> Match | None:
        got = self._nick.get(key)
        if got is None:
            return None
        card, nick = got
        return Match(card, self.display_name(card, lang), nick, "nickname", 100.0, "nickname")

    def _has_words(self, kid: int, words: str) -> bool:
        """Whether a name of key ``kid`` holds ``words`` (" a b ", folded) as whole words."""
        cache = self._words
        if len(cache) >= 65536:
            cache.clear()  # bounded: a long-lived process searches many names
        for e in self._postings(kid):
            got = cache.get(e)
            if got is None:
                got = cache[e] = f" {normalize_words(self._ent_name[e])} "
            if words in got:
                return True
        return False

    def _katakana_name(self, words: str, lang: str | None) -> list[Match]:
        """The cards whose Japanese name is the query's English words written in katakana
        (an OCG name: "Cyclone" -> サイクロン, Mystical Space Typhoon), as ``word`` matches."""
        got = [self._katakana.get(w) for w in words.split()]
        if not got or None in got:
            return []
        key = normalize("".join(k for k in got if k))
        i = bisect_left(self._keys, key)
        if i == len(self._keys) or self._keys[i] != key:
            return []
        # The Japanese name as the one that matched, the card shown in ``lang``.
        return [self._match(e, lang, 99.0, "word") for e in self._best_entry(i, "ja").values()]

    def _prefix(self, key: str, lang: str | None, words: str) -> list[Match]:
        lo = bisect_right(self._keys, key)  # the exact key itself is step 2
        hi = bisect_left(self._keys, key + "\U0010ffff", lo)
        out: list[Match] = []
        printings = self._printings()
        for kid in range(lo, min(hi, lo + _MAX_SCAN)):
            # The query ending on a word of the name ranks above one ending inside a word.
            whole = 95.0 if self._has_words(kid, words) else 90.0
            score = whole + 5.0 * len(key) / len(self._keys[kid])
            for m in self._matches(kid, lang, score, "prefix"):
                # Prefixes never decide; among them, the card reprinted in the most artworks
                # is the one a player most likely means ("blue-eyes" -> Blue-Eyes White
                # Dragon, 16 printings, before Blue-Eyes Jet Dragon): at most +1.
                bonus = min(printings.get(m.card_id, 1) - 1, 10) * 0.1
                out.append(m.replace(score=round(m.score + bonus, 1)) if bonus else m)
        return out

    def _printings(self) -> dict[int, int]:
        """card -> passcodes indexed under it (artworks), computed on first use."""
        if self._printing_count is None:
            self._printing_count = dict(Counter(self._ids.values()))
        return self._printing_count

    def _infix(self, key: str, lang: str | None, words: str) -> list[Match]:
        """Names that contain the query but do not start with it, the first ``_MAX_SCAN`` of
        them in key order: as whole words ``word`` (95–100), else ``fuzzy`` (60–90)."""
        kids = self._containing(key)
        if kids is None:
            return self._infix_scan(key, lang, words)
        out: list[Match] = []
        for kid in kids[:_MAX_SCAN]:
            out.extend(self._infix_matches(kid, key, lang, words))
        return out

    def _infix_matches(self, kid: int, key: str, lang: str | None, words: str) -> list[Match]:
        share = len(key) / len(self._keys[kid])
        if self._has_words(kid, words):
            return self._matches(kid, lang, 95.0 + 5.0 * share, "word")
        return self._matches(kid, lang, 60.0 + 30.0 * share, "fuzzy")

    def _containing(self, key: str) -> list[int] | None:
        """Ids of the keys that contain ``key`` after their start, ascending; through the
        n-gram postings (None when ``key`` is shorter than a bucket's grams).

        A key holding a Han, kana or Hangul character is not in the Latin bucket (see
        ``script_of``), so neither is a key that contains it."""
        out: list[int] = []
        for b, (names, kids, _lens) in enumerate(self._buckets):
            if b == 0 and script_of(key) != 0:
                continue
            got = grams.containing(key, self._gram_postings("ratio")[b], names)
            if got is None:
                return None
            out.extend(kids[p] for p in got if not names[p].startswith(key))
        out.sort()
        return out

    def _infix_scan(self, key: str, lang: str | None, words: str) -> list[Match]:
        # The same as ``_infix`` by one pass over every key (for keys shorter than a gram).
        if self._joined is None:
            self._joined = "\n" + "\n".join(self._keys) + "\n"
            offs = array("i")
            pos = 1
            for k in self._keys:
                offs.append(pos)
                pos += len(k) + 1
            self._offsets = offs
        assert self._offsets is not None
        joined, offsets = self._joined, self._offsets
        out: list[Match] = []
        pos = joined.find(key, 1)
        n = 0
        while pos != -1 and n < _MAX_SCAN:
            kid = bisect_right(offsets, pos) - 1
            if pos != offsets[kid]:  # prefixes are step 4
                out.extend(self._infix_matches(kid, key, lang, words))
                n += 1
            nxt = joined.find("\n", pos)
            pos = joined.find(key, nxt)
        return out

    def _fuzzy(
        self, scan: _Scan, lang: str | None, limit: int, cutoff: float, *, new_only: bool = False
    ) -> list[Match]:
        """``fuzz.ratio`` matches of at least ``cutoff``: the best ``max(limit * 4, 20)`` keys.
        ``new_only``: without the keys an earlier pass over ``scan`` gave (offering them again
        changes nothing: the same matches with the same scores)."""
        scan.cover(cutoff)
        out: list[Match] = []
        hits = scan.best(cutoff, max(limit * 4, 20))
        for kid, score in hits:
            if not (new_only and kid in scan.returned):
                out.extend(self._matches(kid, lang, score, "fuzzy"))
        scan.returned.update(kid for kid, _score in hits)
        return out

    def _hits_at_least(self, key: str, cutoff: float) -> list[tuple[int, float]]:
        """(key id, score) of every name of the key's script with a ``fuzz.ratio`` of at
        least ``cutoff``, best first (ties in bucket order, as ``_Scan.best``); only the
        candidates of the n-gram filter are compared when it narrows the window, else those
        of the character counts (``lookup.bag``)."""
        got = self._ratio_hits(key, cutoff, filtered_only=False)
        assert got is not None
        return got

    def _ratio_hits(
        self, key: str, cutoff: float, *, filtered_only: bool
    ) -> list[tuple[int, float]] | None:
        # ``_hits_at_least``; None with ``filtered_only`` when the filter does not narrow.
        from rapidfuzz import fuzz, process

        script = script_of(key)
        bucket = self._buckets[script]
        names, kids, lens = bucket
        lo, hi = _Scan(key, bucket).window(cutoff)
        if lo >= hi:
            return []
        cand = grams.candidates(key, self._gram_postings("ratio")[script], lens, lo, hi, cutoff)
        if cand is None:
            # Too low a cut-off for the n-grams: the character counts (``lookup.bag``).
            cand = self._bag(script).candidates(key, lens, lo, hi, cutoff)
        if cand is None and filtered_only:
            return None
        pool: Sequence[str]
        if cand is None:
            pool, where = names[lo:hi], None
        else:
            pool, where = _pick_names(names, cand), cand
        hits = [
            (score, lo + i if where is None else where[i])
            for _n, score, i in process.extract_iter(
                key, pool, scorer=fuzz.ratio, processor=None, score_cutoff=cutoff
            )
        ]
        hits.sort(key=lambda h: (-h[0], h[1]))
        return [(kids[pos], score) for score, pos in hits]

    def _partial(self, key: str, lang: str | None, limit: int, floor: float = 0.0) -> list[Match]:
        """A misspelt start or piece of a longer name ("ash blosom"): compared against every
        longer name of the script (tens of milliseconds). ``floor``: the score a match must
        reach to matter (the ``limit``-th best so far); lower ones are not looked for."""
        from rapidfuzz import fuzz, process

        names, kids, lens = self._buckets[script_of(key)]
        lo = bisect_left(lens, len(key) + 1)
        if len(key) < MIN_INFIX[script_of(key)] or lo >= len(names):
            return []
        # A weighted score rounding below ``floor`` ranks after the first ``limit`` (ties
        # included: the 0.05 keeps a score that rounds to ``floor`` in): lossless.
        cutoff = max(PARTIAL_CUTOFF, (floor - 0.05) / PARTIAL_WEIGHT)
        if cutoff > 100.0:
            return []
        # Lossless prefilter (one cheap bit-parallel pass instead of partial_ratio against
        # every name): partial_ratio >= c needs a window w (|w| <= n) of the name with
        # 2·LCS(key, w) >= c/100·(n + |w|); as LCS(key, w) <= |w|, |w| >= c·n/(200 - c) and
        # so LCS(key, name) >= LCS(key, w) >= c·n/(200 - c). Under 1% of names pass.
        from rapidfuzz.distance import LCSseq

        n = len(key)
        need = math.ceil(cutoff * n / (200.0 - cutoff) - 1e-9)
        # Before it, the n-gram filter (lossless too, see ``grams.partial_candidates``) when
        # it leaves few enough of the names: positions ascend, so does ``near``.
        got = grams.partial_candidates(
            key, self._gram_postings("partial")[script_of(key)], lo, len(names), cutoff
        )
        pool: Sequence[str] = names[lo:] if got is None else _pick_names(names, got)
        where = got
        # ``extract_iter`` yields in list order and does not sort (``extract`` sorting tens of
        # thousands of hits by score was most of this pass for short queries).
        near = [
            (i if where is None else where[i] - lo)
            for _n, _s, i in process.extract_iter(
                key,
                pool,
                scorer=LCSseq.similarity,
                processor=None,
                score_cutoff=need,
            )
        ]
        hits = process.extract(
            key,
            [names[lo + pos] for pos in near],
            scorer=fuzz.partial_ratio,
            processor=None,
            score_cutoff=cutoff,
            limit=max(limit * 4, 20),
        )  # the order of ``names[lo:]`` kept: ties still go by position
        out: list[Match] = []
        for _name, score, i in hits:
            kid = kids[lo + near[i]]
            # Below a full-name match of the same quality: the query covers only part.
            out.extend(self._matches(kid, lang, score * PARTIAL_WEIGHT, "fuzzy"))
        return out

    def _ranked(
        self,
        query: str,
        lang: str | None,
        limit: int,
        *,
        stop_early: bool,
        probe: Probe | None = None,
    ) -> list[Match]:
        """Matches of every step, one per card; ``stop_early`` skips steps that cannot change
        what ``resolve`` decides (an exact hit makes prefix and fuzzy moot).

        ``probe`` (``resolve``'s fast path) is shown the ranking so far at two points of the
        fuzzy passes with a bound: every match a later step could still add scores at most
        ``bound`` and needs ``decided`` false to come from the partial pass. When it returns
        True the ranking so far is returned (it holds everything above the bound)."""
        key = normalize(query)
        best: dict[int, Match] = {}

        def offer(ms: Iterable[Match]) -> None:
            _offer(best, ms)

        pref = preferred_langs(query, lang)

        def ranked() -> list[Match]:
            return self._order(best, pref)

        m = self._id_match(query)
        if m is not None:
            offer([m])
            if stop_early:
                return ranked()
        if not key:
            return ranked()
        offer(self._exact(key, query, lang))
        nm = self._nickname(key, lang)
        if nm is not None:
            offer([nm])
        if stop_early:
            # Only id, exact and nickname matches decide without ranking the rest; anything
            # else is decided on the whole ranking (the one ``search`` shows).
            return ranked()
        script = script_of(key)
        words = f" {normalize_words(query)} "
        if script == 0:
            offer(self._katakana_name(words, lang))
        offer(self._prefix(key, lang, words))
        if len(key) >= MIN_INFIX[script]:
            offer(self._infix(key, lang, words))
        # Fuzzy in widening passes over one scan whose length window only grows (each name
        # is compared once); a higher cut-off means a narrower window (faster).
        # 1. cut-off DECIDE - MARGIN: every rival that could block a decision;
        # 2. the wide suggestion pass only when nothing decides or fewer than ``limit`` hit;
        # 3. partial matches only when nothing decides.
        decide, margin = DECIDE[script], MARGIN[script]
        scan = _Scan(key, self._buckets[script], self._bag(script), SUGGEST_CUTOFF)

        rank_score = self._rank_score

        def full(floor: float) -> bool:
            # ``limit`` cards already rank as scoring at least ``floor``: a pass whose scores
            # all stay below it cannot change the first ``limit`` (skipping it is lossless).
            return sum(1 for m in best.values() if rank_score(m) >= floor) >= limit

        def kth() -> float:
            return _kth(best, limit, rank_score)

        # Many prefixes already (short queries): only fuzzy scores above the ``limit``-th
        # can change the first ``limit`` or the verdict; a higher cut-off is a narrower scan.
        first_cut = max(decide - margin, min(kth(), 100.0))
        if probe is not None and first_cut < decide:
            # The narrowest window first: a clear winner there decides without the rest.
            # Pass 1 keeps the same hits at or above ``decide``, so nothing seen changes.
            # (Offering them now changes nothing pass 1 does: it offers them first again.)
            # The n-gram filter gives the same hits as the scan when it narrows (a win if
            # the probe decides); else the scan, whose window pass 1 only widens.
            got = self._ratio_hits(key, decide, filtered_only=True)
            early = (
                self._fuzzy(scan, lang, limit, decide)
                if got is None
                else [
                    m
                    for kid, score in got[: max(limit * 4, 20)]
                    for m in self._matches(kid, lang, score, "fuzzy")
                ]
            )
            offer(early)
            if probe(ranked(), decide, any(f.score >= decide for f in early)):
                return ranked()
        first = self._fuzzy(scan, lang, limit, first_cut)
        offer(first)
        decided = any(f.score >= decide for f in first)
        if probe is not None and probe(ranked(), first_cut, decided):
            return ranked()

        if (not decided or len(best) < limit) and not full(decide - margin):
            # Fewer than ``limit`` cards reach ``decide - margin``, so every card the verdict
            # reads is among the first ``limit``; a hit below the ``limit``-th score so far
            # (less a rounding step) cannot enter them: a higher cut-off, a narrower scan.
            offer(self._fuzzy(scan, lang, limit, max(SUGGEST_CUTOFF, kth() - 0.1), new_only=True))
        if not decided and not full(100.0 * PARTIAL_WEIGHT):
            offer(self._partial(key, lang, limit, kth()))
        return ranked()

    def _rank_score(self, m: Match) -> float:
        """The score ``m`` ranks by: its own, ``UNOFFICIAL_PENALTY`` less for a prefix, word
        or fuzzy match of a card that is not official (anime, unofficial, Rush, skills)."""
        if _TIER[m.how] < 3 or m.card_id in self._official:
            return m.score
        return m.score - UNOFFICIAL_PENALTY

    def _order(self, best: dict[int, Match], pref: frozenset[str]) -> list[Match]:
        # Ties: official OCG/TCG cards first, then a name in the language (or script) the
        # user asked for or typed.
        rank_score = self._rank_score
        return sorted(
            best.values(),
            key=lambda m: (
                min(_TIER[m.how], 3),
                -rank_score(m),
                m.card_id not in self._official,
                m.lang not in pref,
                m.card_id,
            ),
        )


def _offer(best: dict[int, Match], ms: Iterable[Match]) -> None:
    """Keep per card its best match (higher tier, then higher score; the first on ties)."""
    for m in ms:
        old = best.get(m.card_id)
        if old is None or (_TIER[m.how], -m.score) < (_TIER[old.how], -old.score):
            best[m.card_id] = m


def _kth(best: dict[int, Match], limit: int, rank_score: Callable[[Match], float]) -> float:
    """The score a new match must reach to enter the first ``limit`` (0: room left): the
    ``limit``-th best ``rank_score``, never above a match's own score, so a pass skipped
    for scores under it is still lossless."""
    if len(best) < limit:
        return 0.0
    return sorted((rank_score(m) for m in best.values()), reverse=True)[limit - 1]


#: ``probe(ranking so far, bound, decided) -> stop here``: see ``Ranker._ranked``.
Probe = Callable[[list[Match], float, bool], bool]
