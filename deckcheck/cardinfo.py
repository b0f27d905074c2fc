"""What ``card search`` and ``card show`` report about cards, as plain records: the ranked
matches of a query, and everything about one card (names per language, identity, scopes,
list status)."""

from __future__ import annotations

from typing import Any

from deckcheck.errors import DataError
from deckcheck.model import TYPE_LINK, TYPE_XYZ, scope_names

LANG_ORDER = [
    "en",
    "ja",
    "ja_reading",
    "ko",
    "ko_reading",
    "zh-CN",
    "zh-TW",
    "de",
    "fr",
    "it",
    "es",
    "pt",
]


def open_lookup() -> tuple[Any, Any]:
    """The installed card database and its lookup index."""
    from deckcheck.carddb import open_db
    from deckcheck.lookup import Index

    db = open_db()
    return db, Index.for_db(db)


def resolve_card(query: str, db: Any) -> tuple[int | None, Any]:
    """The canonical passcode ``query`` names, or (None, the lookup result with candidates).

    A passcode the database does not know is kept as it is: the lists may still name it.
    """
    text = query.strip()
    if text.isdigit():
        cid = int(text)
        return (int(db.canonical(cid)) if cid in db else cid), None
    from deckcheck.lookup import Index

    res = Index.for_db(db).resolve(text)
    if res.status == "found" and res.card_id is not None:
        return int(db.canonical(res.card_id)), res
    return None, res


def match_json(m: Any) -> dict[str, Any]:
    return {
        "id": m.card_id,
        "name": m.name,
        "matched": m.matched,
        "lang": m.lang,
        "score": m.score,
        "how": m.how,
    }


def kind_of(db: Any, card_id: int) -> str:
    c = db.get(card_id)
    return c.kind if c is not None else "?"


def search_rows(db: Any, matches: Any) -> list[dict[str, Any]]:
    return [{**match_json(m), "kind": kind_of(db, m.card_id)} for m in matches]


def query_cards(
    query: str,
    db: Any,
    index: Any,
    lang: str | None,
    limit: int,
    date: Any,
    sort: str | None = None,
) -> tuple[list[tuple[str, Any]], int, list[str]]:
    """The cards a search-language ``query`` admits on ``date``, each once (its canonical
    passcode): (name, row) pairs sorted by ``sort`` / the query's ``order:`` / name (at most
    ``limit``; 0: all), how many there are in all, and the query's notes."""
    from deckcheck import search as searching

    notes: list[str] = []
    named = searching.run_sorted(query, db, index, date, notes.append, sort=sort, lang=lang)
    return (named[:limit] if limit else named), len(named), notes  # type: ignore[return-value]


def row_json(r: Any, name: str, ids: list[int] | None = None) -> dict[str, Any]:
    """One card of a search-language query, as ``card search -o json`` lists it (``ids``:
    with ``--all-ids``, every passcode of the card, its own first)."""
    out: dict[str, Any] = {"id": r.id, "name": name, "kind": r.kind, "type": r.type_text()}
    if ids is not None:
        out["ids"] = ids
    if r.is_monster:
        out.update(
            attribute=r.attr_text(),
            race=r.race_text(),
            atk=r.atk if r.atk >= 0 else None,
        )
        # a number, under the name the search terms use for it (issue 32: it was "4", "R4")
        out[
            "link" if r.type_bits & TYPE_LINK else "rank" if r.type_bits & TYPE_XYZ else "level"
        ] = r.stars
        if r.def_text():
            out["def"] = r.defense if r.defense >= 0 else None
        if r.scale is not None:
            out["scale"] = r.scale
    return out


def search_json(
    query: str, db: Any, index: Any, lang: str | None, limit: int, date: Any
) -> dict[str, Any]:
    """What ``card search QUERY -o json`` prints: the ranked matches of a name, or the
    cards of a search-language query (``search.QueryError`` when it does not parse)."""
    from deckcheck.search import is_query

    if not is_query(query):
        matches = index.search(query, lang=lang, limit=limit or 200)
        return {"query": query, "matches": search_rows(db, matches)}
    shown, total, notes = query_cards(query, db, index, lang, limit, date)
    out: dict[str, Any] = {
        "query": query,
        "date": date.isoformat(),
        "total": total,
        "cards": [row_json(r, n) for n, r in shown],
    }
    if notes:
        out["notes"] = notes
    return out


def card_info(db: Any, res: Any, ref: str, lang: str | None) -> tuple[Any, dict[str, Any]]:
    """The card ``res`` (a found lookup of ``ref``) names, and everything shown about it."""
    from deckcheck.listinfo import card_statuses

    cid = res.card_id
    ref = ref.strip()
    if ref.isascii() and ref.isdigit() and db.get(int(ref)) is not None:
        cid = int(ref)  # a passcode asked for is shown as itself (the index reports its card)
    c = db.get(cid)
    if c is None:  # pragma: no cover - the index is built from this database
        raise DataError(f"card {cid} is in the lookup index but not in the database")
    canonical = c.canonical
    names = db.names(cid)
    ordered = {lg: names[lg] for lg in LANG_ORDER if lg in names}
    ordered.update({lg: v for lg, v in names.items() if lg not in ordered})
    statuses, note = card_statuses(canonical, cid)
    info: dict[str, Any] = {
        "id": cid,
        "name": db.name(cid, lang or "en"),
        "canonical": canonical,
        "alias_kind": c.alias_kind,
        "alternates": db.alternates(canonical),
        "kind": c.kind,
        "subtypes": c.subtypes,
        "scopes": scope_names(c.scopes),
        "names": ordered,
        "lists": statuses,
        "matched": match_json(res.candidates[0]) if res.candidates else None,
    }
    if note:
        info["lists_note"] = note
    if callable(getattr(db, "rows", None)):  # the card knowledge (issue 30; a CardDB has it)
        from deckcheck.carddb import facts

        info["archetypes"] = facts.archetypes_of(db, cid, lang or "en")
        info["printings"] = facts.printings_of(db, cid)
        info["texts"] = facts.texts_of(db, cid)
    return c, info


def not_found_json(res: Any) -> dict[str, Any]:
    return {
        "query": res.query,
        "status": res.status,
        "candidates": [match_json(m) for m in res.candidates],
    }
