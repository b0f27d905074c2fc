"""``deckcheck card``: find cards by name in any language and show everything about one."""

from __future__ import annotations

from typing import Any

import click

from deckcheck.commands.options import date_option, lang_option, output_option, renamed
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, error_line, require_text
from deckcheck.render.common import to_json


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


@card.command(
    "search",
    epilog="""\b
Examples:
  deckcheck card search "ash blosom"              typo-tolerant
  deckcheck card search 増殖するＧ                 any language, full-width or not
  deckcheck card search 強欲之壺 --lang zh-CN     Traditional or Simplified
  deckcheck card search imperm --output json
  deckcheck card search blue-eyes --limit 30
  deckcheck card search "t:synchro attr:dark atk>=2500"
  deckcheck card search "t:trap -f:tcg or banned:ocg" --limit 0
  deckcheck card search 'arch:"elemental hero" t:fusion' --sort -atk
  deckcheck card search "set:LOB order:level"
  deckcheck card search 'o:"negate the activation" t:trap'

The search language (filters, 'or', '-' negation, arch:, set:, o:, order:) is in
docs/SEARCH.md.
Exit codes: 0 something matched, 1 nothing matched, 2 usage, query or data error.""",
)
@click.argument("query")
@lang_option(
    None,
    metavar="L",
    help="Show names in this language (en, ja, ko, zh-CN, zh-TW, de, fr, it, es, pt; "
    "BCP 47 tags such as ja-JP or zh-Hant too).",
)
@click.option(
    "--limit",
    default=10,
    show_default=True,
    type=click.IntRange(0, None),
    help="At most this many cards (0: all).",
)
@renamed("limit", "--limit", "-n", type=click.IntRange(0, None))
@click.option(
    "--sort",
    "sort",
    metavar="KEY",
    default=None,
    help="Sort by name, atk, def, level, released or id; -KEY or 'KEY desc' for descending "
    "(as order: in the query). A plain name with --sort is a name: term.",
)
@click.option(
    "--all-ids",
    is_flag=True,
    help="List every passcode of each card (alternate artworks, prerelease ids) beside it.",
)
@date_option(help="Date of the format and list terms (f:, banned:, limit:; default: today).")
@output_option(help="Output kind.")
def search(
    query: str,
    lang: str | None,
    limit: int,
    sort: str | None,
    all_ids: bool,
    date_text: str | None,
    output: str,
) -> int:
    """Rank the cards whose names (any language) match QUERY, or list the cards a
    search-language QUERY admits (t:synchro attr:dark atk>=2500; docs/SEARCH.md).

    A plain name ranks passcodes, exact names, nicknames, name prefixes and near misses (the
    ranking deck commands and build use to decide); a query with filters lists every card it
    admits, by name, with type, attribute, monster type, level and ATK/DEF.
    """
    from deckcheck.cardinfo import kind_of, open_lookup, search_rows
    from deckcheck.render.card import search_text
    from deckcheck.search import is_query

    require_text(query, "QUERY")
    db, index = open_lookup()
    if is_query(query) or sort is not None or all_ids:
        return _query_search(query, db, index, lang, limit, date_text, output, sort, all_ids)
    matches = index.search(query, lang=lang, limit=limit or 200)
    if output == "json":
        click.echo(to_json({"query": query, "matches": search_rows(db, matches)}))
    else:
        scopes = [_scope_word(db, m.card_id) for m in matches]
        for line in search_text(matches, [kind_of(db, m.card_id) for m in matches], scopes):
            click.echo(line)
        click.echo(f"{len(matches)} match(es) for {query!r}", err=True)
    return EXIT_OK if matches else EXIT_ILLEGAL


def _scope_word(db: Any, card_id: int) -> str:
    """What tells cards of one name apart in a table: rush, ocg/tcg, anime …"""
    from deckcheck.model import scope_names

    c = db.get(card_id)
    return ",".join(scope_names(c.scopes)) if c is not None else ""


def _query_search(
    query: str,
    db: Any,
    index: Any,
    lang: str | None,
    limit: int,
    date_text: str | None,
    output: str,
    sort: str | None = None,
    all_ids: bool = False,
) -> int:
    from deckcheck.cardinfo import query_cards, row_json
    from deckcheck.commands.options import parse_date
    from deckcheck.render.card import query_text

    date = parse_date(date_text)
    shown, total, notes = query_cards(query, db, index, lang, limit, date, sort)
    for n in notes:
        click.echo(f"deckcheck: note: {n}", err=True)
    also: dict[int, list[int]] | None = None
    if all_ids:
        from deckcheck.carddb.facts import other_ids

        also = other_ids(db)
    if output == "json":
        cards = [
            row_json(r, n, None if also is None else [r.id, *also.get(r.id, [])]) for n, r in shown
        ]
        click.echo(
            to_json({"query": query, "date": date.isoformat(), "total": total, "cards": cards})
        )
    else:
        rows = [r for _, r in shown]
        extra = None if also is None else [also.get(r.id, []) for r in rows]
        for line in query_text(rows, [n for n, _ in shown], extra):
            click.echo(line)
        more = f" ({len(shown)} shown; --limit 0 shows all)" if len(shown) < total else ""
        click.echo(f"{total} card(s) for {query!r}{more}", err=True)
    return EXIT_OK if total else EXIT_ILLEGAL


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
@lang_option(None, metavar="L", help="Language of the title line.")
@date_option(help="Date of the format statuses (default: today).")
@output_option(help="Output kind.")
def show(card_ref: str, lang: str | None, date_text: str | None, output: str) -> int:
    """Every name of one card per language, its kind, identity, scopes, release dates per
    region, alternate passcodes, "treated as" cards, and its status in every format (TCG,
    OCG, GOAT, Master Duel, Genesys points, Duel Links, Speed) on a date."""
    from deckcheck.cardinfo import card_info, not_found_json, open_lookup
    from deckcheck.render.card import not_found_text, show_text

    require_text(card_ref, "ID|NAME")
    db, index = open_lookup()
    res = index.resolve(card_ref, lang)
    if res.status != "found" or res.card_id is None:
        if output == "json":
            click.echo(to_json(not_found_json(res)))
        else:
            why, lines = not_found_text(res)
            click.echo(error_line(why), err=True)
            for line in lines:
                click.echo(line)
        return EXIT_ILLEGAL
    c, info = card_info(db, res, card_ref, lang)
    from deckcheck.commands.options import parse_date
    from deckcheck.search.status import extend_info

    extend_info(db, index, info, parse_date(date_text), lang)
    if output == "json":
        click.echo(to_json(info))
        return EXIT_OK
    for line in show_text(c, info):
        click.echo(line)
    if info.get("lists_note"):
        click.echo(f"deckcheck: note: {info['lists_note']}", err=True)
    for note in info.get("formats_notes", []):
        click.echo(f"deckcheck: note: {note}", err=True)
    return EXIT_OK
