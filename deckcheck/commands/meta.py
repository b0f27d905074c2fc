"""``deckcheck meta``: the metagame of a folder of decks (logic in ``deckcheck.metagame``,
output in ``deckcheck.render.metagame``)."""

from __future__ import annotations

import click

from deckcheck.commands.options import date_option, lang_option, output_option, parse_date
from deckcheck.errors import EXIT_OK, InputError

KINDS = ("text", "json", "csv", "html")


@click.command(
    "meta",
    epilog="""\b
Examples:
  deckcheck meta submissions/
  deckcheck meta submissions/ --format tcg --date 2026-08-01
  deckcheck meta submissions/ -o json > meta.json
  deckcheck meta submissions/ -o html --out meta.html
  deckcheck meta a.ydk b.ydk list.txt -o csv --out meta.csv

\b
A folder is walked as `validate` walks it (.ydk and .ydke files; text lists
when named). Each deck's archetype is the archetype with the most Main Deck
copies (ties: more different cards, then the more specific archetype, then
the name); below a fifth of the Main Deck it is "mixed / no archetype"
(docs/META.md). Card usage counts Main + Extra + Side: decks playing a card,
their share, the average copies when played, and the same per section; a
card's alternate artworks count as the card. Decks that cannot be read are
counted apart and listed. Archetypes need EDOPro's strings.conf or yaml-yugi
installed (`deckcheck update`); without them, card usage is still reported.

\b
Exit codes: 0 the breakdown was written (however many decks are illegal or
unreadable), 2 usage or data error (no deck found or none readable, unknown
format).""",
)
@click.argument("inputs", nargs=-1, required=True, metavar="PATH...")
@output_option(KINDS, help="Output kind.")
@click.option(
    "--out", "out_file", metavar="FILE", help="Write here, all or nothing (default: stdout)."
)
@click.option(
    "-f",
    "--format",
    "format_id",
    metavar="ID",
    help="Also check each deck in this format: legal and illegal counts.",
)
@date_option(help="Event date the format is checked on (default: today; needs --format).")
@lang_option(help="Language of card and archetype names.")
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=25,
    show_default=True,
    help="Cards the text output lists (0: all; json, csv and html list all).",
)
def meta(
    inputs: tuple[str, ...],
    output: str,
    out_file: str | None,
    format_id: str | None,
    date_text: str | None,
    lang: str,
    top: int,
) -> int:
    """Archetypes and card usage of a folder of decks (a metagame breakdown)."""
    from deckcheck import batch, metagame
    from deckcheck.engine import Engine
    from deckcheck.render import metagame as render

    if date_text is not None and format_id is None:
        raise click.UsageError("--date is the date a format is checked on: give --format too")
    items = batch.walk(inputs)
    if not items:
        raise InputError(
            "no decks found in " + ", ".join(inputs) + " (a walk reads .ydk and .ydke files; "
            "name text decklists)"
        )
    engine = Engine.open()
    target = engine.target(format_id, parse_date(date_text)) if format_id else None
    engine.cards  # noqa: B018 - opened now: its note comes before the run
    got = metagame.breakdown(items, engine, target=target, lang=lang)
    if not got.decks:
        reasons = "; ".join(f"{src}: {why}" for src, why in got.unreadable[:3])
        raise InputError(f"no deck could be read ({reasons})")
    if got.unreadable:
        u = len(got.unreadable)
        click.echo(
            f"deckcheck: note: {u} input{'s' * (u != 1)} could not be read and "
            f"{'are' if u != 1 else 'is'} not counted (listed in the output)",
            err=True,
        )
    if got.archetypes_missing is not None:
        click.echo(f"deckcheck: note: no archetypes: {got.archetypes_missing}", err=True)
    if output == "json":
        text = render.json_text(got) + "\n"
    elif output == "csv":
        text = render.csv_text(got)
    elif output == "html":
        text = render.html_page(got)
    else:
        text = render.text(got, top) + "\n"
    if out_file is None:
        click.echo(text, nl=False)
    else:
        from deckcheck.decks.write import write_atomic

        write_atomic(out_file, text)
        click.echo(f"{render.headline(got)}; written to {out_file}")
    return EXIT_OK
