"""``deckcheck card``: find cards by name in any language and show everything about one."""

from __future__ import annotations

import json
from typing import Any

import click

from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, DataError, DeckcheckError
from deckcheck.model import STATUS_NAMES as _LIMIT_WORDS

LANG_ORDER = ["en", "ja", "ja_reading", "ko", "ko_reading", "zh-CN", "zh-TW",
              "de", "fr", "it", "es", "pt"]


@click.group(
    "card",
    epilog="""\b
Examples:
  deckcheck card search "ash blossom"
  deckcheck card search 灰流麗 --lang ja
  deckcheck card show 14558127
  deckcheck card show "maxx c" --output json""",
)
def card() -> None:
    """Find cards by name in any language (typos and nicknames welcome)."""


def _open() -> tuple[Any, Any]:
    from deckcheck.carddb import open_db
    from deckcheck.lookup import Index

    db = open_db()
    return db, Index.for_db(db)


def _match_json(m: Any) -> dict[str, Any]:
    return {"id": m.card_id, "name": m.name, "matched": m.matched, "lang": m.lang,
            "score": m.score, "how": m.how}


def _kind(db: Any, card_id: int) -> str:
    c = db.get(card_id)
    return c.kind if c is not None else "?"


@card.command(
    "search",
    epilog="""\b
Examples:
  deckcheck card search "ash blosom"              typo-tolerant
  deckcheck card search 増殖するＧ                 any language, full-width or not
  deckcheck card search 強欲之壺 --lang zh-CN     Traditional or Simplified
  deckcheck card search imperm --output json
  deckcheck card search blue-eyes --limit 30

Exit codes: 0 something matched, 1 nothing matched, 2 usage or data error.""",
)
@click.argument("query")
@click.option("--lang", "-l", default=None, metavar="L",
              help="Show names in this language (en, ja, ko, zh-CN, zh-TW, de, fr, it, es, pt).")
@click.option("--limit", "-n", default=10, show_default=True, type=click.IntRange(1, 200),
              help="At most this many cards.")
@click.option("--output", "-o", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output kind.")
def search(query: str, lang: str | None, limit: int, output: str) -> int:
    """Rank the cards whose names (any language) match QUERY.

    Passcodes, exact names, nicknames, name prefixes and near misses all match; the table
    shows passcode, name (in --lang, else English), the name that matched, and the score.
    """
    db, index = _open()
    matches = index.search(query, lang=lang, limit=limit)
    if output == "json":
        rows = [{**_match_json(m), "kind": _kind(db, m.card_id)} for m in matches]
        click.echo(json.dumps({"query": query, "matches": rows}, ensure_ascii=False, indent=2))
    else:
        if matches:
            width = max(len(m.name) for m in matches)
            for m in matches:
                matched = "" if m.matched == m.name else f"  ← {m.matched} [{m.lang}]"
                click.echo(
                    f"{m.card_id:>9}  {m.name:<{width}}  {_kind(db, m.card_id):<7} "
                    f"{m.how:<8} {m.score:5.1f}{matched}"
                )
        click.echo(f"{len(matches)} match(es) for {query!r}", err=True)
    return EXIT_OK if matches else EXIT_ILLEGAL


@card.command(
    "show",
    epilog="""\b
Examples:
  deckcheck card show 14558127
  deckcheck card show "Ash Blossom"
  deckcheck card show 灰流うらら --lang ja
  deckcheck card show imperm --output json

Exit codes: 0 shown, 1 the name is ambiguous or unknown (candidates listed), 2 error.""",
)
@click.argument("card_ref", metavar="ID|NAME")
@click.option("--lang", "-l", default=None, metavar="L", help="Language of the title line.")
@click.option("--output", "-o", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output kind.")
def show(card_ref: str, lang: str | None, output: str) -> int:
    """Every name of one card per language, its kind, identity, scopes and list status."""
    db, index = _open()
    res = index.resolve(card_ref)
    if res.status != "found" or res.card_id is None:
        return _not_found(res, output)
    cid = res.card_id
    ref = card_ref.strip()
    if ref.isascii() and ref.isdigit() and db.get(int(ref)) is not None:
        cid = int(ref)  # a passcode asked for is shown as itself (the index reports its card)
    c = db.get(cid)
    if c is None:  # pragma: no cover - the index is built from this database
        raise DataError(f"card {cid} is in the lookup index but not in the database")
    canonical = c.canonical
    names = db.names(cid)
    ordered = {lg: names[lg] for lg in LANG_ORDER if lg in names}
    ordered.update({lg: v for lg, v in names.items() if lg not in ordered})
    statuses, note = _statuses(canonical, cid)
    info: dict[str, Any] = {
        "id": cid,
        "name": db.name(cid, lang or "en"),
        "canonical": canonical,
        "alias_kind": c.alias_kind,
        "alternates": db.alternates(canonical),
        "kind": c.kind,
        "subtypes": c.subtypes,
        "scopes": c.scopes.names(),
        "names": ordered,
        "lists": statuses,
        "matched": _match_json(res.candidates[0]) if res.candidates else None,
    }
    if note:
        info["lists_note"] = note
    if output == "json":
        click.echo(json.dumps(info, ensure_ascii=False, indent=2))
        return EXIT_OK
    click.echo(f"{info['name']}  [{cid}]")
    click.echo(f"  kind:       {c.kind}" + (f" ({', '.join(c.subtypes)})" if c.subtypes else ""))
    if canonical != cid:
        click.echo(f"  counts as:  {canonical} ({c.alias_kind.replace('_', ' ')})")
    if info["alternates"]:
        click.echo(f"  alternates: {', '.join(str(a) for a in info['alternates'])}")
    click.echo(f"  scopes:     {', '.join(info['scopes']) or '-'}")
    click.echo("  names:")
    for lg, ns in ordered.items():
        click.echo(f"    {lg:<11} {' / '.join(ns)}")
    if statuses:
        click.echo("  lists (newest of each family):")
        for s in statuses:
            click.echo(f"    {s['family']:<14} {s['list']} ({s['effective']}): {s['status']}")
    if note:
        click.echo(f"deckcheck: note: {note}", err=True)
    return EXIT_OK


def _not_found(res: Any, output: str) -> int:
    if output == "json":
        click.echo(json.dumps({"query": res.query, "status": res.status,
                               "candidates": [_match_json(m) for m in res.candidates]},
                              ensure_ascii=False, indent=2))
    else:
        what = "ambiguous" if res.status == "ambiguous" else "unknown card"
        click.echo(f"{res.query!r}: {what}" + (
            "; candidates:" if res.status == "ambiguous" else
            ("; did you mean:" if res.candidates else "")), err=True)
        for m in res.candidates:
            click.echo(f"{m.card_id:>9}  {m.name}  ({m.how} {m.score:.0f}: {m.matched})")
    return EXIT_ILLEGAL


def _statuses(
    canonical: int, passcode: int | None = None
) -> tuple[list[dict[str, Any]], str | None]:
    """The card's status in the newest installed list of each family (or why there is none).

    Lists keep a "treated as" card (a GOAT entry, a Rush reprint) under its own passcode, so
    that passcode is read first, then the canonical card (EDOPro's order).
    """
    try:
        from deckcheck.formats.store import ListStore
    except ImportError:
        return [], "list status unavailable: the list store is not installed"
    try:
        store = ListStore.default()
        out: list[dict[str, Any]] = []
        for family in store.families():
            lists = store.lists(family)
            if not lists:
                continue
            bl = lists[-1]
            key = passcode if passcode is not None and passcode in bl.limits else canonical
            limit = bl.limit_of(key)
            status = "not listed (unlimited)" if limit is None else _LIMIT_WORDS.get(
                limit, f"limit {limit}")
            if limit == 0 and bl.mode == "whitelist" and key not in bl.limits:
                status = "not in the pool (whitelist)"
            out.append({"family": family, "list": bl.name,
                        "effective": bl.effective.isoformat(), "limit": limit,
                        "status": status})
        return out, None
    except DeckcheckError as exc:  # a broken list file must not hide the card itself
        return [], f"list status unavailable: {exc}"
