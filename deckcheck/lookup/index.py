"""The name index: every name of every card in every language, ranked search and resolution.

Ranking, best first (STYLE.md practice 3: fuzzy suggests, it decides only when clearly ahead):

1. ``id``: the query is a passcode of the database (alternate artworks report their main card).
2. ``exact``: the normalized query equals a normalized name in any language (or a reading).
3. ``nickname``: ``card_db/nicknames.yaml`` (ash, imperm, nibiru, …).
4. ``prefix``: a name starts with the query (score 90–100, longer coverage scores higher).
5. ``fuzzy``: rapidfuzz ``fuzz.ratio`` over normalized names of the same script (score
   0–100, cut off at ``SUGGEST_CUTOFF``), plus names that contain the query (score 60–90 by
   the share of the name the query covers).

``resolve`` decides:

* id, exact or nickname naming one card: found. Several cards with that exact name: the one
  whose name is written exactly as typed (only case, width and spacing folded), else when
  exactly one of them is an official OCG/TCG card (the others being prerelease copies,
  anime/custom versions, Rush reprints), that one; otherwise ambiguous.
* prefix: found when every name starting with the query belongs to one card (queries of at
  least ``MIN_PREFIX`` characters; same official-card rule), ambiguous when several do.
* fuzzy: found when the best score is at least ``DECIDE[script]`` and the next card scores at
  least ``MARGIN[script]`` less; ambiguous when two or more cards reach ``DECIDE`` within the
  margin; otherwise unknown, with the best candidates as suggestions.
"""

from __future__ import annotations

import pickle
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from deckcheck import fsio, notes
from deckcheck.lookup.normalize import normalize, script_of
from deckcheck.lookup.records import Match, Resolution
from deckcheck.model import UNOFFICIAL, Scope

#: Bump when the cached layout changes.
FORMAT_VERSION = 6

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

_TIER = {"id": 0, "exact": 1, "nickname": 2, "prefix": 3, "fuzzy": 3}
_MAX_SCAN = 400  # prefix / substring hits examined per query (short queries hit thousands)


class _CardSource(Protocol):
    """What the index needs from ``deckcheck.carddb.CardDB``."""

    fingerprint: Any

    def iter_names(self) -> Iterable[tuple[int, str, str, str]]: ...

    def get(self, card_id: int) -> Any: ...

    def name_key(self, card_id: int) -> int: ...


def nicknames_path() -> Path:
    from deckcheck.paths import builtin_card_db_dir

    return builtin_card_db_dir() / "nicknames.yaml"


def load_nicknames(path: Path | None = None) -> list[dict[str, Any]]:
    """The entries of ``nicknames.yaml``: ``{nick: [...], id: passcode, name: English}``."""
    import yaml

    from deckcheck.errors import DataError

    path = path or nicknames_path()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise DataError(f"cannot read nicknames: {exc}", where=str(path)) from exc
    if not isinstance(data, list):
        raise DataError("expected a list of {nick, id, name} entries", where=str(path))
    out: list[dict[str, Any]] = []
    for i, item in enumerate(data, 1):
        ok = isinstance(item, dict) and isinstance(item.get("id"), int) and item.get("nick")
        if not ok:
            msg = f"entry {i}: needs nick (text or list) and id (passcode)"
            raise DataError(msg, where=str(path))
        nicks = item["nick"] if isinstance(item["nick"], list) else [item["nick"]]
        name = str(item.get("name", ""))
        out.append({"nick": [str(n) for n in nicks], "id": item["id"], "name": name})
    return out


def _file_digest(path: Path) -> str:
    try:
        return fsio.sha256_file(path)[:16]
    except OSError:
        return "none"


def _raw(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _is_official(card: Any) -> bool:
    scopes = Scope(int(card.scopes))
    return bool(scopes & (Scope.OCG | Scope.TCG)) and not scopes & UNOFFICIAL


class Index:
    """Every name of every card, normalized, with the structures each ranking step needs."""

    _memo: dict[str, Index] = {}

    def __init__(self, data: dict[str, Any]):
        self._d = data
        self.fingerprint: str = data["fingerprint"]
        self._langs: list[str] = data["langs"]
        self._ent_card: array[int] = data["ent_card"]
        self._ent_lang: array[int] = data["ent_lang"]
        self._ent_name: list[str] = data["ent_name"]
        self._keys: list[str] = data["keys"]
        self._post_start: array[int] = data["post_start"]
        self._post: array[int] = data["post"]
        self._buckets: list[tuple[list[str], array[int], array[int]]] = data["buckets"]
        self._nick: dict[str, tuple[int, str]] = data["nick"]
        self._ids: dict[int, int] = data["ids"]
        self._official: set[int] = data["official"]
        self._cards: array[int] = data["cards"]  # distinct cards, sorted
        self._card_start: array[int] = data["card_start"]  # entries sorted by card
        self._joined: str | None = None
        self._offsets: array[int] | None = None

    # ------------------------------------------------------------------ building / caching

    @classmethod
    def for_db(
        cls, db: _CardSource, *, cache_dir: Path | None = None, nick_path: Path | None = None
    ) -> Index:
        """The index of ``db``: from memory, from the on-disk cache, or built (and cached)."""
        nick_path = nick_path or nicknames_path()
        key = fsio.sha256_bytes(
            f"{db.fingerprint}|{_file_digest(nick_path)}|{FORMAT_VERSION}".encode()
        )[:24]
        got = cls._memo.get(key)
        if got is not None:
            return got
        if cache_dir is None:
            from deckcheck.paths import cache_dir as default_cache_dir

            cache_dir = default_cache_dir()
        path = cache_dir / f"lookup-{key}.pickle"
        index = cls._load(path, key)
        if index is None:
            index = cls.build(db, nick_path=nick_path, key=key)
            index._save(path)
        cls._memo.clear()  # one database per process in practice; keep memory bounded
        cls._memo[key] = index
        return index

    @classmethod
    def _load(cls, path: Path, key: str) -> Index | None:
        try:
            with path.open("rb") as f:
                data = pickle.load(f)
        except FileNotFoundError:
            return None
        except Exception:  # noqa: BLE001 - a damaged cache is rebuilt, never fatal
            return None
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        try:
            return cls(data)
        except KeyError:  # written by another layout under the same key: rebuild
            return None

    def _save(self, path: Path) -> None:
        # Atomic: write beside the target, then replace; stale indexes of older databases go.
        try:
            data = pickle.dumps(self._d, protocol=pickle.HIGHEST_PROTOCOL)
            fsio.write_atomic(path, data, mkdir=True, fsync=False)
            fsio.remove_others(path, "lookup-*.pickle")
        except OSError as exc:
            # A read-only data home still works, only without the cache.
            notes.note(f"deckcheck: note: lookup index not cached ({exc})")

    @classmethod
    def build(cls, db: _CardSource, *, nick_path: Path | None = None, key: str = "") -> Index:
        """Build the index from ``db.iter_names()`` (and the nicknames file, when present)."""
        target_of: dict[int, int] = {}
        official: set[int] = set()

        def target(card_id: int) -> int:
            got = target_of.get(card_id)
            if got is not None:
                return got
            card = db.get(card_id)
            t = card_id
            if card is not None:
                t = db.name_key(card_id)  # the card lookup shows (carddb decides)
                if _is_official(card):
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

        buckets: list[tuple[list[str], array[int], array[int]]] = []
        grouped: list[list[tuple[int, str, int]]] = [[], [], []]
        for kid, k in enumerate(keys):
            grouped[script_of(k)].append((len(k), k, kid))
        for items in grouped:
            items.sort()
            buckets.append(
                ([k for _, k, _ in items], array("i", [kid for _, _, kid in items]),
                 array("i", [n for n, _, _ in items]))
            )

        nick: dict[str, tuple[int, str]] = {}
        if nick_path is not None and nick_path.is_file():
            for item in load_nicknames(nick_path):
                if db.get(item["id"]) is None:
                    continue  # e.g. the built-in sample lacks most cards
                t = target(item["id"])
                for n in item["nick"]:
                    nick[normalize(n)] = (t, n)

        ids = {cid: t for cid, t in target_of.items()}
        data = {
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
            "nick": nick,
            "ids": ids,
            "official": official,
            "cards": cards,
            "card_start": card_start,
        }
        return cls(data)

    # ------------------------------------------------------------------ helpers

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
        rng = self._entries_of_card(card)
        want = [lang, "en"] if lang and lang != "en" else ["en"]
        for w in want:
            for e in rng:
                if self._langs[self._ent_lang[e]] == w:
                    return self._ent_name[e]
        return self._ent_name[rng[0]] if rng else str(card)

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
            r = 2 if raw is not None and _raw(self._ent_name[e]) == raw else (
                1 if lang and self._langs[self._ent_lang[e]] == lang else 0)
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
        raw = _raw(query)
        return [self._match(e, lang, 100.0, "exact")
                for e in self._best_entry(i, lang, raw).values()]

    def _nickname(self, key: str, lang: str | None) -> Match | None:
        got = self._nick.get(key)
        if got is None:
            return None
        card, nick = got
        return Match(card, self.display_name(card, lang), nick, "nickname", 100.0, "nickname")

    def _prefix(self, key: str, lang: str | None) -> list[Match]:
        lo = bisect_right(self._keys, key)  # the exact key itself is step 2
        hi = bisect_left(self._keys, key + "\U0010ffff", lo)
        out: list[Match] = []
        for kid in range(lo, min(hi, lo + _MAX_SCAN)):
            score = 90.0 + 10.0 * len(key) / len(self._keys[kid])
            out.extend(self._matches(kid, lang, score, "prefix"))
        return out

    def _infix(self, key: str, lang: str | None) -> list[Match]:
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
                k = self._keys[kid]
                score = 60.0 + 30.0 * len(key) / len(k)
                out.extend(self._matches(kid, lang, score, "fuzzy"))
                n += 1
            nxt = joined.find("\n", pos)
            pos = joined.find(key, nxt)
        return out

    def _fuzzy(self, key: str, lang: str | None, limit: int, cutoff: float) -> list[Match]:
        from rapidfuzz import fuzz, process

        names, kids, lens = self._buckets[script_of(key)]
        # Lossless length window for the cutoff: ratio = 2·common/(len1+len2).
        s = cutoff / 100.0
        n = len(key)
        lo = bisect_left(lens, int(n * s / (2 - s)))
        hi = bisect_right(lens, int(n * (2 - s) / s) + 1)
        if lo >= hi:
            return []
        hits = process.extract(
            key,
            names[lo:hi],
            scorer=fuzz.ratio,
            processor=None,  # both sides are already normalized keys
            score_cutoff=cutoff,
            limit=max(limit * 4, 20),
        )
        out: list[Match] = []
        for _name, score, pos in hits:
            kid = kids[lo + pos]
            out.extend(self._matches(kid, lang, score, "fuzzy"))
        return out

    def _partial(self, key: str, lang: str | None, limit: int) -> list[Match]:
        """A misspelt start or piece of a longer name ("ash blosom"): search only, as it
        compares against every longer name of the script (tens of milliseconds)."""
        from rapidfuzz import fuzz, process

        names, kids, lens = self._buckets[script_of(key)]
        lo = bisect_left(lens, len(key) + 1)
        if len(key) < MIN_INFIX[script_of(key)] or lo >= len(names):
            return []
        hits = process.extract(
            key, names[lo:], scorer=fuzz.partial_ratio, processor=None,
            score_cutoff=PARTIAL_CUTOFF, limit=max(limit * 4, 20),
        )
        out: list[Match] = []
        for _name, score, pos in hits:
            kid = kids[lo + pos]
            # Below a full-name match of the same quality: the query covers only part.
            out.extend(self._matches(kid, lang, score * PARTIAL_WEIGHT, "fuzzy"))
        return out

    # ------------------------------------------------------------------ public API

    def search(self, query: str, lang: str | None = None, limit: int = 10) -> list[Match]:
        """Ranked matches for ``query``, one per card, best first (see the module docstring)."""
        return self._ranked(query, lang, limit, stop_early=False)[:limit]

    def _ranked(self, query: str, lang: str | None, limit: int, *, stop_early: bool) -> list[Match]:
        """Matches of every step, one per card; ``stop_early`` skips steps that cannot change
        what ``resolve`` decides (an exact hit makes prefix and fuzzy moot)."""
        key = normalize(query)
        best: dict[int, Match] = {}

        def offer(ms: Iterable[Match]) -> None:
            for m in ms:
                old = best.get(m.card_id)
                if old is None or (_TIER[m.how], -m.score) < (_TIER[old.how], -old.score):
                    best[m.card_id] = m

        def ranked() -> list[Match]:
            return sorted(
                best.values(),
                key=lambda m: (min(_TIER[m.how], 3), -m.score, m.card_id not in self._official,
                               m.card_id),
            )

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
        if stop_early and best:
            return ranked()
        script = script_of(key)
        offer(self._prefix(key, lang))
        if stop_early and best and len(key) >= MIN_PREFIX[script]:
            return ranked()
        if len(key) >= MIN_INFIX[script]:
            offer(self._infix(key, lang))
        # Fuzzy in widening passes; a higher cut-off means a narrower length window (faster).
        # 1. cut-off DECIDE: a best score of DECIDE + MARGIN or more decides already, since
        #    any rival within the margin scores DECIDE or more and is in this pass;
        # 2. cut-off DECIDE - MARGIN: every rival that could block a decision;
        # 3. the wide suggestion pass only when nothing decides (or search wants more).
        decide, margin = DECIDE[script], MARGIN[script]
        first = self._fuzzy(key, lang, limit, decide) if stop_early else []
        if max((f.score for f in first), default=0.0) < decide + margin:
            first = self._fuzzy(key, lang, limit, decide - margin)
        offer(first)
        decided = any(f.score >= decide for f in first)
        if not decided or (not stop_early and len(best) < limit):
            offer(self._fuzzy(key, lang, limit, SUGGEST_CUTOFF))
        if not stop_early and not decided:
            offer(self._partial(key, lang, limit))
        return ranked()

    def resolve(self, query: str, lang: str | None = None) -> Resolution:
        """Found, ambiguous or unknown (with suggestions); see the module docstring."""
        key = normalize(query)
        ranked = self._ranked(query, lang, 10, stop_early=True)
        script = script_of(key)

        def done(status: str, card: int | None, cands: list[Match]) -> Resolution:
            return Resolution(status, query, card, tuple(cands[:10]))  # type: ignore[arg-type]

        def found(winner: Match) -> Resolution:
            return done("found", winner.card_id, [winner, *[m for m in ranked if m is not winner]])

        if not ranked:
            return done("unknown", None, [])
        top = ranked[0]
        if top.how == "id":
            return found(top)
        for how in ("exact", "nickname"):
            tier = [m for m in ranked if m.how == how]
            if len(tier) > 1:
                # Names equal only after folding (黑魔导 vs 黑・魔・导, Raimei vs Rai-Mei):
                # the one written exactly as typed, when there is exactly one such card.
                raw = _raw(query)
                literal = [m for m in tier if _raw(m.matched) == raw]
                if len(literal) == 1:
                    return found(literal[0])
            if tier:
                winner = self._tiebreak(tier)
                return found(winner) if winner is not None else done("ambiguous", None, tier)
        prefix = [m for m in ranked if m.how == "prefix"]
        if prefix and len(key) >= MIN_PREFIX[script]:
            winner = self._tiebreak(prefix)
            return found(winner) if winner is not None else done("ambiguous", None, prefix)
        if prefix:
            return done("ambiguous", None, ranked)
        # Fuzzy (including "contains") only: decide when clearly ahead.
        decide, margin = DECIDE[script], MARGIN[script]
        second = ranked[1].score if len(ranked) > 1 else 0.0
        if top.score >= decide and top.score - second >= margin:
            return found(top)
        close = [m for m in ranked if m.score >= decide and top.score - m.score < margin]
        if len(close) > 1:
            winner = self._tiebreak(close)
            nxt = [m for m in ranked if m not in close]
            if winner is not None and (not nxt or winner.score - nxt[0].score >= margin):
                return found(winner)
            return done("ambiguous", None, ranked)
        return done("unknown", None, ranked)

    def _tiebreak(self, tier: list[Match]) -> Match | None:
        """One card from a tier of equally good matches, or None (ambiguous).

        The only card; else the one official (OCG/TCG) card when every other one is not
        official: prerelease copies under another passcode, anime/custom versions, Rush
        reprints and Speed skills that share the name. A player writing the name of a
        tournament card means that card; two official cards stay ambiguous.
        """
        cards = {m.card_id for m in tier}
        if len(cards) == 1:
            return tier[0]
        official = [m for m in tier if m.card_id in self._official]
        if len(official) == 1:
            return official[0]
        return None
