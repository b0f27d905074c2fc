"""``deckcheck card``: find cards by name in any language and show everything about one."""

from __future__ import annotations

import click

from deckcheck.commands.options import lang_option, output_option, renamed
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, require_text
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

Exit codes: 0 something matched, 1 nothing matched, 2 usage or data error.""",
)
@click.argument("query")
@lang_option(
    None,
    metavar="L",
    help="Show names in this language (en, ja, ko, zh-CN, zh-TW, de, fr, it, es, pt).",
)
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200),
              help="At most this many cards.")  # fmt: skip
@renamed("limit", "--limit", "-n", type=click.IntRange(1, 200))
@output_option(help="Output kind.")
def search(query: str, lang: str | None, limit: int, output: str) -> int:
    """Rank the cards whose names (any language) match QUERY.

    Passcodes, exact names, nicknames, name prefixes and near misses all match; the table
    shows passcode, name (in --lang, else English), the name that matched, and the score.
    """
    from deckcheck.cardinfo import kind_of, open_lookup, search_rows
    from deckcheck.render.card import search_text

    require_text(query, "QUERY")
    db, index = open_lookup()
    matches = index.search(query, lang=lang, limit=limit)
    if output == "json":
        click.echo(to_json({"query": query, "matches": search_rows(db, matches)}))
    else:
        for line in search_text(matches, [kind_of(db, m.card_id) for m in matches]):
            click.echo(line)
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
@lang_option(None, metavar="L", help="Language of the title line.")
@output_option(help="Output kind.")
def show(card_ref: str, lang: str | None, output: str) -> int:
    """Every name of one card per language, its kind, identity, scopes and list status."""
    from deckcheck.cardinfo import card_info, not_found_json, open_lookup
    from deckcheck.render.card import not_found_text, show_text

    require_text(card_ref, "ID|NAME")
    db, index = open_lookup()
    res = index.resolve(card_ref)
    if res.status != "found" or res.card_id is None:
        if output == "json":
            click.echo(to_json(not_found_json(res)))
        else:
            why, lines = not_found_text(res)
            click.echo(why, err=True)
            for line in lines:
                click.echo(line)
        return EXIT_ILLEGAL
    c, info = card_info(db, res, card_ref, lang)
    if output == "json":
        click.echo(to_json(info))
        return EXIT_OK
    for line in show_text(c, info):
        click.echo(line)
    if info.get("lists_note"):
        click.echo(f"deckcheck: note: {info['lists_note']}", err=True)
    return EXIT_OK
