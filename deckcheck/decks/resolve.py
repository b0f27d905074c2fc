"""Names to passcodes for text decklists, with DC102 (unknown) and DC103 (ambiguous) findings.

The lookup only suggests when it is not sure (STYLE.md: fuzzy matching never decides for the
user): an unresolved entry keeps ``card_id=None`` and its finding lists the candidates.
"""

from __future__ import annotations

from typing import Any, Protocol

from deckcheck.codes import finding
from deckcheck.decks.text import whole_count, whole_name
from deckcheck.model import Deck, DeckEntry, Finding

#: Names per deck that may cost a fuzzy search (unknown, misspelled: 30–75 ms each on the
#: real database); past it, the rest are reported unlooked-up, so a 10,000-line list of
#: garbage is bounded (seconds, not minutes). Real lists have a handful.
MAX_FUZZY = 50


class Resolver(Protocol):
    """What ``resolve_deck`` needs from the lookup index (``lookup.Index`` fits)."""

    def resolve(self, query: str, lang: str | None = None) -> Any: ...


def _candidates(res: Any, limit: int = 5) -> tuple[tuple[int, str], ...]:
    seen: dict[int, str] = {}
    for m in res.candidates:
        if m.card_id not in seen:
            seen[m.card_id] = m.name
        if len(seen) >= limit:
            break
    return tuple(seen.items())


def _names(cands: tuple[tuple[int, str], ...]) -> str:
    return "; ".join(f"{name} ({cid})" for cid, name in cands)


def finding_for(entry: DeckEntry, res: Any) -> Finding:
    """The DC102/DC103 finding for an entry whose name did not resolve to one card."""
    cands = _candidates(res)
    query = entry.query or entry.raw.strip()
    if res.status == "ambiguous":
        code, message = "DC103", f'"{query}" matches more than one card: {_names(cands)}'
    else:
        hint = f"; did you mean: {_names(cands)}?" if cands else ""
        code, message = "DC102", f'unknown card "{query}"{hint}'
    return finding(
        code, message, section=entry.section, line=entry.line, count=entry.count, candidates=cands
    )


def _how(res: Any) -> str:
    return str(res.candidates[0].how) if res.candidates else ""


def resolve_entry(entry: DeckEntry, index: Resolver) -> tuple[DeckEntry, Any, Finding | None]:
    """(entry with ``card_id`` filled or unchanged, the resolution used, finding or None)."""
    if entry.card_id is not None or not entry.query:
        return entry, None, None
    res = index.resolve(entry.query)
    if res.status == "found" and entry.count <= 3:
        return entry.replace(card_id=res.card_id), res, None
    # "7 Colored Fish": the leading number may be part of the name, not a count. Only an
    # exact name wins over the count reading, so "4 Ash Blossom" stays 4 copies.
    alt = whole_name(entry.raw)
    if alt is not None and alt != entry.query:
        res2 = index.resolve(alt)
        if res2.status == "found" and _how(res2) in ("exact", "id"):
            count = whole_count(entry.raw)
            return entry.replace(card_id=res2.card_id, query=alt, count=count), res2, None
    if res.status == "found":
        return entry.replace(card_id=res.card_id), res, None
    return entry, res, finding_for(entry, res)


def _resolve_exact_only(entry: DeckEntry, exact: Any) -> tuple[DeckEntry, Finding | None] | None:
    """``resolve_entry`` with a resolver that answers only passcodes, exact names and
    nicknames (None otherwise): the entry and its finding, or None when neither the name
    nor the whole line ("7 Colored Fish") is exact."""
    res = exact.resolve(entry.query)
    if res is not None and res.status == "found" and entry.count <= 3:
        return entry.replace(card_id=res.card_id), None
    alt = whole_name(entry.raw)
    if alt is not None and alt != entry.query:
        res2 = exact.resolve(alt)
        if res2 is not None and res2.status == "found" and _how(res2) in ("exact", "id"):
            return entry.replace(
                card_id=res2.card_id, query=alt, count=whole_count(entry.raw)
            ), None
    if res is None:
        return None
    if res.status == "found":
        return entry.replace(card_id=res.card_id), None
    return entry, finding_for(entry, res)  # several cards with that exact name


def guess_note(entry: DeckEntry, res: Any) -> str | None:
    """A note for a name the lookup decided by something other than an exact match."""
    if res is None or res.status != "found" or _how(res) in ("exact", "id", "nickname"):
        return None
    top = res.candidates[0]
    return f'line {entry.line}: read "{entry.query}" as {top.name} ({top.card_id}, {top.how})'


def resolve_deck(
    deck: Deck,
    db: Any,
    index: Resolver,
    notes: list[str] | None = None,
    lang: str | None = None,
) -> Deck:
    """A copy of ``deck`` with text entries resolved to passcodes, plus DC102/DC103 findings.

    ``db`` is accepted for the layer contract (``resolve_deck(deck, db, lookup)``); ids
    already in the deck are left for validation to check (DC102 there, never twice).
    ``notes`` (when given) collects a line for each name decided by prefix or fuzzy match;
    ``lang`` is the language candidates are named in (matching is in every language).
    """
    del db
    out = deck.replace(main=[], extra=[], side=[], findings=list(deck.findings))
    out.comments = list(deck.comments)
    cache: dict[str, Any] = {}

    class _Cached:
        def resolve(self, query: str, lang_: str | None = None) -> Any:
            want = lang_ or lang
            if query not in cache:
                cache[query] = index.resolve(query, want) if want else index.resolve(query)
            return cache[query]

    cached = _Cached()
    exact = getattr(index, "resolve_exact", None)

    class _ExactOnly:
        # Past the budget: passcodes, exact names and nicknames still resolve (cheap);
        # anything else is "not looked up" (a None verdict).
        def resolve(self, query: str, lang_: str | None = None) -> Any:
            if query not in cache:
                got = exact(query, lang_ or lang)  # type: ignore[misc]
                if got is None:
                    return None
                cache[query] = got
            return cache[query]

    fuzzy = 0
    for entry in deck.entries():
        if (
            fuzzy >= MAX_FUZZY
            and entry.card_id is None
            and entry.query
            and entry.query not in cache
        ):
            got = _resolve_exact_only(entry, _ExactOnly()) if exact is not None else None
            if got is not None:
                out.section(entry.section).append(got[0])
                if got[1] is not None:
                    out.findings.append(got[1])
                continue
            out.section(entry.section).append(entry)
            out.findings.append(
                finding(
                    "DC102",
                    f'"{entry.query}" not looked up: the list already has {MAX_FUZZY} names '
                    "that are unknown or needed a fuzzy match; fix those first",
                    section=entry.section,
                    line=entry.line,
                    count=entry.count,
                )
            )
            continue
        new, res, finding_ = resolve_entry(entry, cached)
        if res is not None and (res.status != "found" or _how(res) in ("fuzzy", "prefix", "word")):
            fuzzy += 1
        out.section(entry.section).append(new)
        if notes is not None:
            note = guess_note(new, res)
            if note:
                notes.append(note)
        if finding_ is not None:
            out.findings.append(finding_)
    out.findings.sort(key=lambda f: (f.line is None, f.line or 0))
    return out
