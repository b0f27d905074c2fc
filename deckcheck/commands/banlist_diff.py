"""``deckcheck banlist diff`` and ``deckcheck banlist history``: what a list update changes,
which decks it touches, and a card's status through a family's history.

Options are parsed here; the services are ``deckcheck.listreport`` (over
``deckcheck.listdiff``), the output ``deckcheck.render.listdiff``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import click

from deckcheck import dates
from deckcheck.commands.options import date_option, format_option, lang_option, output_option
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, InputError, error_line
from deckcheck.render.common import to_json
from deckcheck.render.listdiff import (
    diff_json,
    diff_markdown,
    diff_text,
    history_json,
    history_text,
)


@click.command("diff")
@click.argument("old_ref", metavar="OLD")
@click.argument("new_ref", metavar="NEW")
@lang_option(help="Language of card names.")
@output_option(
    ["text", "json", "markdown"],
    help="markdown: for a tournament announcement or a pull-request comment.",
)
@click.option(
    "--deck",
    "decks",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A deck file or folder (recursive): which of its cards change, and its legality "
    "under both lists. Repeatable.",
)
@format_option(
    default=None,
    help="Format the decks are checked in (default: the one whose list family is the lists').",
)
@date_option(
    help="Event date for the deck checks (default: today, or the new list's date if later)."
)
@click.option(
    "--fail-on-impact",
    is_flag=True,
    help="Exit 1 when a deck that is legal under OLD is illegal under NEW.",
)
def diff(
    old_ref: str,
    new_ref: str,
    lang: str,
    output: str,
    decks: tuple[Path, ...],
    format_id: str | None,
    date_text: str | None,
    fail_on_impact: bool,
) -> int:
    """Show what changed from list OLD to list NEW.

    OLD and NEW are "<family>@<YYYY-MM-DD>", a list name (e.g. "2025.04 TCG"), or a path
    to a .yaml or .lflist.conf file. Changes are grouped as an announcement is: newly
    Forbidden, Limited, Semi-Limited; moved (e.g. Limited → Semi-Limited); no longer on the
    list; for whitelists, cards added to or removed from the pool; points and groups.

    Exit codes: 0 (also when decks are affected), 1 with --fail-on-impact when a deck
    becomes illegal, 2 usage or data error.
    """
    from deckcheck.listdiff import diff_lists
    from deckcheck.listreport import Namer, check_decks, default_store, format_for_lists, list_names

    today = dt.date.today()
    store = default_store()
    old = store.resolve(old_ref, today)
    new = store.resolve(new_ref, today)
    result = diff_lists(old, new)
    namer = Namer(lang, list_names(old, new))

    impacts = []
    fmt = None
    if decks:
        when = _parse_date(date_text) if date_text else max(today, new.effective)
        fmt = format_for_lists(format_id, new.family, old.family)
        impacts = check_decks(result, decks, fmt, namer.db, when)

    if output == "json":
        click.echo(to_json(diff_json(result, namer, impacts, fmt), 2))
    elif output == "markdown":
        click.echo(diff_markdown(result, namer, impacts), nl=False)
    else:
        click.echo(diff_text(result, namer, impacts), nl=False)
    if fail_on_impact and any(i.becomes_illegal for i in impacts):
        return EXIT_ILLEGAL
    return EXIT_OK


def _parse_date(text: str) -> dt.date:
    try:
        return dates.parse_date(text)
    except ValueError:
        raise InputError(f"not a date (YYYY-MM-DD): {text!r}", where="--date") from None


@click.command("history")
@click.argument("card")
@click.option("--family", "family", default=None, help="Only this list family (e.g. tcg, ocg).")
@lang_option(help="Language of the card name.")
@output_option()
def history(card: str, family: str | None, lang: str, output: str) -> int:
    """Show CARD's status in every installed list version, as a timeline of changes.

    CARD is a passcode or a name in any language. Without --family, every family whose
    lists name the card is shown. Exit codes: 0 shown, 1 the name is unknown or ambiguous
    (candidates on stderr), 2 usage or data error.
    """
    from deckcheck.cardinfo import resolve_card
    from deckcheck.listreport import (
        Namer,
        card_histories,
        default_store,
        name_in_lists,
        same_card,
    )

    namer = Namer(lang)
    card_id, res = resolve_card(card, namer.db)
    if card_id is None:
        _candidates(card, res, namer)
        return EXIT_ILLEGAL
    also = same_card(namer.db, card_id)
    store = default_store()
    histories = card_histories(store, card_id, family=family, also=also)
    name = namer(card_id, name_in_lists(store, card_id, histories))
    if output == "json":
        click.echo(to_json(history_json(card_id, name, histories), 2))
    else:
        click.echo(history_text(card_id, name, histories, family), nl=False)
    return EXIT_OK


def _candidates(query: str, res: Any, namer: Any) -> None:
    """Say on stderr why ``query`` names no one card, with the closest candidates."""
    if res.status == "ambiguous":
        click.echo(error_line(f"{query!r} is ambiguous; did you mean:"), err=True)
    else:
        tail = "; closest names:" if res.candidates else ""
        click.echo(error_line(f"no card named {query!r}{tail}"), err=True)
    for m in res.candidates[:10]:
        click.echo(f"  {m.card_id}  {namer(m.card_id, m.name)}", err=True)
