"""What the ``deck`` commands share: the session they open, CARD resolution with the
candidates printed, finding lines, the date and format options."""

from __future__ import annotations

import datetime as dt
from typing import Any

import click

from deckcheck.errors import error_line
from deckcheck.render.common import one_line

SECTION_NAMES = ("main", "extra", "side")


def on_date(value: str | None) -> dt.date:
    from deckcheck.commands.options import parse_date

    return parse_date(value)


def open_session(format_id: str | None, date_text: str | None) -> Any:
    from deckcheck.carddb import open_db
    from deckcheck.deckedit import Session
    from deckcheck.lookup import Index

    db = open_db()  # before the date: its "using the sample" note comes first
    return Session(db, Index.for_db(db), on_date(date_text), format_id)


def card_or_candidates(resolve: Any, query: str) -> int | None:
    """``resolve(query)``, or None after printing the candidates (the caller exits 1)."""
    from deckcheck import deckedit

    try:
        return int(resolve(query))
    except deckedit.NotResolved as exc:
        cands = exc.candidates()
        if exc.resolution.status == "ambiguous":
            click.echo(error_line(f'"{query}" matches more than one card:'), err=True)
        else:
            hint = "; did you mean:" if cands else " (no similar name)"
            click.echo(error_line(f'unknown card "{query}"{hint}'), err=True)
        for cid, name in cands:
            click.echo(f"  {cid:>9}  {one_line(name)}", err=True)
        if cands:
            click.echo("  (give the passcode or the full name)", err=True)
        return None


def finding_line(f: Any) -> str:
    from deckcheck.render.deck import finding_line as line

    return line(f)  # one line whatever a name in the message holds


def date_format_options(f: Any) -> Any:
    f = click.option(
        "-d",
        "--date",
        "date_text",
        metavar="YYYY-MM-DD",
        help="Date the list in force is taken for (default: today).",
    )(f)
    return click.option(
        "-f",
        "--format",
        "format_id",
        metavar="ID",
        help="Format (default: the deck's '#format' line, else tcg).",
    )(f)
