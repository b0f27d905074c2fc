"""``deckcheck deck edit``: parse the options and start the interactive builder
(``deckcheck.tui``), in this terminal or served to a browser."""

from __future__ import annotations

import click

from deckcheck.commands.deck_common import on_date
from deckcheck.commands.options import lang_option
from deckcheck.render.common import one_line


@click.command(
    "edit",
    epilog="""\b
Examples:
  deckcheck deck edit my.ydk
  deckcheck deck edit new.ydk --format dm6 --date 2002-08-01
  deckcheck deck edit list.txt --lang ja
  deckcheck deck edit my.ydk --serve              (open http://127.0.0.1:8000/)

\b
Keys: / search (names in any language, typos, the query language), enter add
the highlighted result (Extra Deck monsters go to the Extra Deck), s add it
to the Side Deck, tab results <-> deck, - remove one copy, m move main <-> side,
ctrl+z undo, ctrl+y redo, ctrl+s save, f format and date, q quit.

\b
The findings pane shows validate's findings after every edit. Saving keeps
the file's format (.ydk comments, text list, ydke:// link), is all or nothing
and never writes over a change made to the file meanwhile (reload or overwrite).
A new DECK is created on the first save. Needs the extra: pip install "deckcheck[tui]".""",
)
@click.argument("path", metavar="DECK")
@click.option(
    "-f",
    "--format",
    "format_id",
    metavar="ID",
    help="Format (default: the deck's '#format' line, else tcg).",
)
@click.option(
    "-d", "--date", "date_text", metavar="YYYY-MM-DD", help="Event date (default: today)."
)
@lang_option(
    short=False, metavar="L", help="Language of card names (search results, deck, messages)."
)
@click.option("--serve", is_flag=True, help="Serve the app to a browser instead (textual-serve).")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    metavar="HOST",
    help="With --serve: the address to listen on.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    metavar="N",
    help="With --serve: the port to listen on.",
)
def edit_cmd(
    path: str,
    format_id: str | None,
    date_text: str | None,
    lang: str,
    serve: bool,
    host: str,
    port: int,
) -> int:
    """Build DECK interactively: search, add, remove, see its legality live."""
    from deckcheck import tui

    ctx = click.get_current_context()
    for name in ("host", "port"):
        src = ctx.get_parameter_source(name)
        if not serve and src not in (None, click.core.ParameterSource.DEFAULT):
            raise click.UsageError(f"--{name} goes with --serve")
    date = on_date(date_text)
    tui.require(serve=serve)  # one line naming the extra, before anything is read
    if format_id is not None:
        from deckcheck.formats import get_format

        format_id = get_format(format_id).id  # unknown: exit 2 before the database opens
    from deckcheck.tui import start

    builder = start.open_builder(path, format_id, date, lang)
    if not serve:
        return start.run(builder)
    if not start.is_loopback(host):
        click.echo(
            one_line(
                f"deckcheck: warning: serving on {host}, which is not a loopback address: "
                "anyone who can reach it can open the editor and save this deck; use "
                "--host 127.0.0.1 unless you mean to share it"
            ),
            err=True,
        )
    return start.serve(builder, host, port)
