"""``deckcheck banlist``: list, show, import and export Forbidden/Limited lists (``diff`` and
``history`` live in ``deckcheck.commands.banlist_diff``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from deckcheck.commands.options import date_option, lang_option, out_option, output_option, renamed
from deckcheck.commands.options import parse_date as _parse_date
from deckcheck.commands.quiet import NoteTally, verbose_option
from deckcheck.errors import EXIT_OK
from deckcheck.render.common import to_json


def _date(text: str | None, hint: str) -> dt.date | None:
    return None if text is None else _parse_date(text, hint)


@click.group(
    "banlist",
    epilog="""\b
Examples:
  deckcheck banlist list --family tcg
  deckcheck banlist show tcg@2025-06-01
  deckcheck banlist show "2025.04 TCG" --output json
  deckcheck banlist import 0TCG.lflist.conf OCG.lflist.conf
  deckcheck banlist export tcg@2026-06-01 --out tcg.lflist.conf""",
)
def banlist() -> None:
    """Show, import, export and diff Forbidden/Limited lists.

    REF is "<family>@<YYYY-MM-DD>" (the list in force that day), a list name such as
    "2025.04 TCG", or a path to a .yaml or .lflist.conf file (path#name picks one list).
    """


@banlist.command(
    "list",
    epilog="""\b
Examples:
  deckcheck banlist list
  deckcheck banlist list --family ocg --output json""",
)
@click.option("--family", default=None, help="Only this family (tcg, ocg, speed …).")
@renamed("family", "--family", "-f")
@output_option()
def list_cmd(family: str | None, output: str) -> int:
    """Installed lists, oldest first per family."""
    from deckcheck.formats.catalog import ListStore
    from deckcheck.listinfo import list_rows
    from deckcheck.render.banlist import list_summary, list_text

    rows, fams = list_rows(ListStore.default(), family)
    if output == "json":
        click.echo(to_json(rows, 1))
    else:
        for line in list_text(rows):
            click.echo(line)
        click.echo(list_summary(rows, fams), err=True)
    return EXIT_OK


@banlist.command(
    "conflicts",
    epilog="""\b
Examples:
  deckcheck banlist conflicts
  deckcheck banlist conflicts --family tcg --output json""",
)
@click.option("--family", default=None, help="Only this family (tcg, ocg, rush …).")
@renamed("family", "--family", "-f")
@lang_option(help="Language of card names.")
@output_option()
def conflicts_cmd(family: str | None, lang: str, output: str) -> int:
    """Where sources disagree: each official list against the lflist list it hides (same
    family and month), card by card with the status each source gives."""
    from deckcheck.formats.catalog import ListStore
    from deckcheck.formats.sources import conflicts
    from deckcheck.listinfo import STATUS_WORDS, list_namer

    store = ListStore.default()
    namer = None
    fams = store.families()
    if family is not None and family.lower() not in fams:
        from deckcheck.errors import DataError

        raise DataError(f"no list family {family!r} installed (installed: {', '.join(fams)})")
    for f in [family.lower()] if family else fams:
        lists = store.lists(f)
        if lists:
            namer = list_namer(lists[-1], lang)
            break
    got = conflicts(store, family.lower() if family else None, namer)
    if output == "json":
        click.echo(to_json(got, 1))
        return EXIT_OK

    def word(v: int | None, points: bool) -> str:
        if v is None:
            return "not listed"
        return f"{v} points" if points else STATUS_WORDS.get(v, str(v))

    for c in got:
        o, t = c["official"], c["other"]
        click.echo(
            f"{c['family']}: {o['name']} ({o['source']}) vs {t['name']} ({t['source']}): "
            f"{len(c['cards'])} card(s)"
        )
        pts = c["family"] in ("genesys", "ocg-genesys")
        for e in c["cards"]:
            click.echo(
                f"  {e['id']:>9}  {e['name']}: official {word(e['official'], pts)}, "
                f"other {word(e['other'], pts)}"
            )
    click.echo(f"{len(got)} list pair(s) disagree", err=True)
    return EXIT_OK


@banlist.command(
    "show",
    epilog="""\b
Examples:
  deckcheck banlist show tcg@2025-06-01
  deckcheck banlist show "2025.4 TCG" --lang de
  deckcheck banlist show ./my-list.lflist.conf --output json""",
)
@click.argument("ref")
@date_option(
    help="For a family REF such as 'tcg': the list in force that day (default today).", metavar=None
)
@lang_option(help="Language of card names.")
@output_option()
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Whitelists: also print the Unlimited cards (usually the whole pool).",
)
def show(ref: str, date_text: str | None, lang: str, output: str, show_all: bool) -> int:
    """Print a list: Forbidden, Limited, Semi-Limited, groups and points, with card names."""
    from deckcheck.formats.catalog import ListStore
    from deckcheck.listinfo import list_content, list_namer
    from deckcheck.render.banlist import show_text

    b = ListStore.default().resolve(ref, _date(date_text, "--date"))
    data = list_content(b, list_namer(b, lang))
    if output == "json":
        click.echo(to_json(data, 1))
        return EXIT_OK
    click.echo("\n".join(show_text(b, data, show_all)))
    return EXIT_OK


@banlist.command(
    "import",
    epilog="""\b
Examples:
  deckcheck banlist import 0TCG.lflist.conf OCG.lflist.conf
  deckcheck banlist import lflist.conf            (YGOPro: all 102 lists)
  deckcheck banlist import house.lflist.conf --family house --effective 2026-01-15
  deckcheck banlist import Speed.lflist.conf --out banlists/
  deckcheck banlist import data/tcg/*.vector.json     (official, Konami ids; needs cards.json)
  deckcheck banlist import data/master-duel/*.json data/genesys/*.vector.json
  deckcheck banlist import prisma/dev.db              (Duel Links Speed and Rush history)""",
)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--family", default=None, help="Family of every list (else from the names).")
@renamed("family", "--family", "-f")
@click.option(
    "--effective",
    "-e",
    default=None,
    help="Effective date YYYY-MM-DD (else from the names; month-only names get the 1st).",
)
@click.option(
    "--out",
    "out_dir",
    default=None,
    type=click.Path(file_okay=False),
    help="Write <family>/<date>.yaml here instead of the user's list folder.",
)
@verbose_option
def import_cmd(
    files: tuple[str, ...],
    family: str | None,
    effective: str | None,
    out_dir: str | None,
    verbose: bool,
) -> int:
    """Import list files as one YAML file per list version.

    The kind is told by content: lflist.conf (EDOPro or YGOPro), yaml-yugi-limit-regulation
    <date>.vector.json (Konami ids; the format from the folder name tcg, ocg, ocg-ae, ocg-cn,
    master-duel, genesys, ocg-genesys, rush, else --family) and <date>.name.json (English
    names), and the Duel Links prisma/dev.db. Official lists win over lflist ones for the
    months they cover; an empty, halved or mostly unmapped official list is refused.
    """
    from deckcheck.errors import DataError
    from deckcheck.formats.importer import import_lflists

    if family is not None and not family.replace("-", "").isalnum():
        raise DataError(f"--family {family!r}: use letters, digits and '-'")
    if out_dir is not None and not Path(out_dir).is_dir():
        # A destination folder is made (family folders go inside it), but never silently:
        # a mistyped --out shows up here.
        click.echo(f"deckcheck: note: {out_dir} does not exist; creating it for --out", err=True)
    with NoteTally(verbose) as tally:
        res = import_lflists(
            [Path(f) for f in files],
            family=family.lower() if family else None,
            effective=_date(effective, "--effective"),
            out_dir=Path(out_dir) if out_dir else None,
        )
    if verbose:  # quiet by default: a folder of 300 official files wrote 300 lines here
        for p in res.written:
            click.echo(str(p))
    click.echo(
        f"{len(res.lists)} list(s): {len(res.written)} written, {len(res.unchanged)} unchanged"
        + (f", {len(res.conflicts)} conflict(s)" if res.conflicts else "")
        + (f", {len(res.rejected)} refused as upstream faults" if res.rejected else "")
        + (f", {len(res.skipped)} transient skipped" if res.skipped else "")
        + (f", {sum(u[2] for u in res.unmapped)} unmapped id(s)/name(s)" if res.unmapped else ""),
        err=True,
    )
    details = (
        "'deckcheck banlist import -v' says each note and names every file written; "
        "'deckcheck db info' shows the lists refused as upstream faults"
    )
    for line in tally.lines(details):
        click.echo(line, err=True)
    return EXIT_OK


@banlist.command(
    "export",
    epilog="""\b
Examples:
  deckcheck banlist export tcg@2026-06-01 --out tcg.lflist.conf
  deckcheck banlist export "2025.07 Speed Duel" > speed.lflist.conf""",
)
@click.argument("ref")
@date_option(
    help="For a family REF such as 'tcg': the list in force that day (default today).", metavar=None
)
@out_option(
    help="Write here (atomically) instead of stdout.",
    old=("-o", "--output-file"),
    type=click.Path(dir_okay=False),
)
def export(ref: str, date_text: str | None, out: str | None) -> int:
    """Write a list as EDOPro lflist.conf text."""
    from deckcheck.decks.write import write_atomic  # the folder must exist; errors name it
    from deckcheck.formats import lflist
    from deckcheck.formats.catalog import ListStore

    b = ListStore.default().resolve(ref, _date(date_text, "--date"))
    text = lflist.write([b])
    if out is None:
        click.echo(text, nl=False)
    else:
        write_atomic(out, text)
        click.echo(f"wrote {b.name} to {out}", err=True)
    return EXIT_OK


def _add_diff_commands() -> None:
    # diff/history are another module's; attach them when that module is present.
    try:
        from deckcheck.commands import banlist_diff
    except ImportError:
        return
    for attr in ("diff", "history"):
        cmd = getattr(banlist_diff, attr, None)
        if isinstance(cmd, click.Command):
            banlist.add_command(cmd)


_add_diff_commands()
