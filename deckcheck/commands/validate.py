"""``deckcheck validate``: check decks against a format and the list in force, stream reports."""

from __future__ import annotations

import os
import sys

import click

from deckcheck import startup
from deckcheck.commands.options import (
    banlist_option,
    config_option,
    date_option,
    format_option,
    lang_option,
    output_option,
    parse_date,
)
from deckcheck.errors import DataError, DeckcheckError, InputError
from deckcheck.report import Waivers


class _Jobs(click.ParamType):
    """``--jobs``: a count of at least 1, or ``auto``."""

    name = "jobs"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int | str:
        if isinstance(value, int) and not isinstance(value, bool):
            n = value
        elif str(value).strip().lower() == "auto":
            return "auto"
        else:
            try:
                n = int(str(value))
            except ValueError:
                self.fail(f"{value!r} is not a count or 'auto'.", param, ctx)
        if n < 1:
            self.fail(f"{n} is not in the range x>=1.", param, ctx)
        return n


JOBS = _Jobs()

__all__ = ["parse_date", "validate"]  # parse_date: still imported by commands/deck.py
OUTPUT_KINDS = ("text", "json", "github", "junit", "csv", "html")


@click.command(
    "validate",
    epilog="""\b
Examples:
  deckcheck validate deck.ydk
  deckcheck validate --format ocg --date 2026-07-01 decks/
  deckcheck validate -b "2026.05 TCG" -o json decks/ > report.json
  deckcheck validate --format genesys --points-cap 120 deck.ydk
  deckcheck validate --ignore DC501 -o junit decks/ > junit.xml
  deckcheck validate "ydke://…"
  cat deck.ydk | deckcheck validate -

\b
A folder is walked like a linter does: .ydk and .ydke files, text decklists only when
`include` patterns match them (or they are named); hidden folders and what .gitignore
ignores are skipped. Settings come from [tool.deckcheck] in pyproject.toml or a
deckcheck.toml (nearest upwards; `deckcheck config` shows them); options here win.
A deck's own '#format ID' line is honoured unless --format is given.

\b
Exit codes: 0 every deck legal, 1 a deck is illegal (or warns under --strict),
2 usage or data error (missing path, no decks found, unknown format or list).""",
)
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@format_option(show_default=True)
@banlist_option(
    help='A list: "<family>@<YYYY-MM-DD>", its name ("2025.04 TCG"), or a .yaml/.lflist.conf path. '
    "Default: the format's list in force on --date.",
)
@date_option(help="Event date (default: today).")
@output_option(
    OUTPUT_KINDS, None, help="Output kind (default: text; github when GITHUB_ACTIONS=true)."
)
@click.option("--strict", is_flag=True, default=None, help="Warnings fail too.")
@click.option(
    "--format-file",
    "format_files",
    multiple=True,
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Extra format definition (YAML); may be repeated.",
)
@click.option(
    "--points-cap",
    type=click.IntRange(min=0),
    metavar="N",
    help="Points cap overriding the format's (Genesys).",
)
@lang_option(
    None, short=False, metavar="LANG", help="Language of card names in messages (en, ja, de, …)."
)
@click.option(
    "--jobs",
    type=JOBS,
    default="auto",
    show_default=True,
    metavar="N|auto",
    help="Worker processes (capped at the usable cores); auto: in process for under 1,000 "
    "decks, else one per usable core. Output is identical to --jobs 1.",
)
@click.option(
    "--ignore",
    "ignore",
    multiple=True,
    metavar="CODE",
    help="Waive a code (or prefix, DC5); may be repeated.",
)
@click.option(
    "--select",
    "select",
    multiple=True,
    metavar="CODE",
    help="Only these codes count (others waived); may be repeated.",
)
@click.option(
    "--include",
    "include",
    multiple=True,
    metavar="PATTERN",
    help="Folder walks also check files matching PATTERN ('decks/*.txt').",
)
@click.option(
    "--exclude",
    "exclude",
    multiple=True,
    metavar="PATTERN",
    help="Skip files and folders matching PATTERN in folder walks.",
)
@click.option("--only-illegal", is_flag=True, help="Report only decks that fail.")
@click.option("--allow-empty", is_flag=True, default=None, help="Finding no deck is not an error.")
@click.option("--csv-decks", is_flag=True, help="CSV: one row per deck, not per finding.")
@config_option()
@click.option(
    "--pre-commit",
    "pre_commit",
    is_flag=True,
    help="Hook mode: check named files only when a folder walk would, install the card "
    "data once when none is installed, accept no decks.",
)
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Write the report (any -o kind) to FILE, all or nothing; the summary line then goes "
    "to stdout.",
)
@click.option(
    "--sheets",
    "sheets_dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Also write a decklist sheet (PDF) per legal deck into DIR.",
)
@click.pass_context
def validate(
    ctx: click.Context,
    inputs: tuple[str, ...],
    format_id: str,
    banlist_ref: str | None,
    date_text: str | None,
    output: str | None,
    strict: bool | None,
    format_files: tuple[str, ...],
    points_cap: int | None,
    lang: str | None,
    jobs: int | str,
    ignore: tuple[str, ...],
    select: tuple[str, ...],
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    only_illegal: bool,
    allow_empty: bool | None,
    csv_decks: bool,
    config_path: str | None,
    pre_commit: bool,
    out_file: str | None = None,
    sheets_dir: str | None = None,
) -> int:
    """Check decks (files, folders, ydke:// URLs, - for stdin) against a format and its list."""
    from deckcheck import batch, render
    from deckcheck import config as config_mod
    from deckcheck.inputs import Discovery

    cfg = config_mod.load(path=config_path)

    def given(name: str) -> bool:
        src = ctx.get_parameter_source(name)
        return src is not None and src != click.core.ParameterSource.DEFAULT

    if not given("format_id"):
        format_id = cfg.get("format")
    banlist_ref = banlist_ref if banlist_ref is not None else cfg.get("banlist")
    date_text = date_text if date_text is not None else cfg.get("date")
    output = output or cfg.get("output")
    strict = bool(strict if strict is not None else cfg.get("strict"))
    allow_empty = bool(allow_empty if allow_empty is not None else cfg.get("allow-empty"))
    allow_empty = allow_empty or pre_commit
    waivers = Waivers(ignore or cfg.get("ignore"), select or cfg.get("select"))
    _check_codes(waivers)
    if output is not None and output not in OUTPUT_KINDS:
        raise InputError(
            f"output {output!r} is not one of {', '.join(OUTPUT_KINDS)}", where=cfg.label
        )
    discovery = Discovery(
        include or cfg.get("include"),
        exclude or cfg.get("exclude"),
        base=cfg.folder if not (include or exclude) else None,
    )
    items = batch.walk(inputs, discovery, filter_files=pre_commit, sheets=sheets_dir)
    if not items:
        if allow_empty:
            return _empty(inputs, pre_commit)
        raise InputError(
            "no decks found in " + ", ".join(inputs) + " (a walk checks .ydk and .ydke files; "
            "text decklists need `include` patterns or their names; --allow-empty accepts none)"
        )
    if pre_commit:
        _install_data_once()
    kind = output or render.default_kind()
    out, err = render.escaping(sys.stdout), render.escaping(sys.stderr)
    color_choice = click.get_current_context().meta.get("deckcheck.color", "auto")  # --color
    spec = batch.Output(
        kind,
        color=kind == "text" and out_file is None and render.use_color(out, color_choice),
        per_deck=csv_decks,
        strict=strict,
        only_illegal=only_illegal,
        waivers=waivers,
        sheets=sheets_dir,
        step_summary=_step_summary(),
        out=out_file,
    )
    request, engine = batch.plan(  # a usage or data error stops here, before any output
        inputs,
        items,
        format_id=format_id,
        date=parse_date(date_text),
        banlist_ref=banlist_ref,
        deck_formats=not given("format_id"),
        format_files=format_files,
        points_cap=points_cap,
        lang=lang,
        jobs=jobs,
        output=spec,
    )
    startup.resume()  # start-up done: collection on for the decks (deckcheck.startup)
    return batch.execute(request, engine, out, err)


def _check_codes(waivers: Waivers) -> None:
    from deckcheck.codes import REGISTRY

    bad = waivers.unknown(c.code for c in REGISTRY)
    if bad:
        raise click.BadParameter(
            f"{', '.join(bad)}: no such code (`deckcheck` codes are DCnnn; see README)",
            param_hint="--ignore/--select",
        )


def _empty(inputs: tuple[str, ...], quiet: bool) -> int:
    if not quiet:
        click.echo(f"deckcheck: note: no decks found in {', '.join(inputs)}", err=True)
    return 0


def _install_data_once() -> None:
    """pre-commit on a fresh machine: no card data installed yet, so install it once."""
    from deckcheck import paths

    if paths.exists(paths.database_file()):
        return
    from deckcheck.update import run_update

    click.echo(
        "deckcheck: note: no card data is installed: installing it once with "
        "`deckcheck update` (later commits reuse it)",
        err=True,
    )
    try:
        result = run_update(None, progress=False)
    except DeckcheckError as exc:
        raise DataError(
            f"no card data is installed and it could not be fetched ({exc}); run "
            "`deckcheck update` once with network access (or `deckcheck update --source "
            "MIRROR`), then commit again"
        ) from None
    for note in result.notes:
        click.echo(f"deckcheck: note: {note}", err=True)


def _step_summary() -> str | None:
    """The Markdown summary file GitHub Actions gives a step, when there is one."""
    if os.environ.get("GITHUB_ACTIONS") != "true":
        return None
    return os.environ.get("GITHUB_STEP_SUMMARY") or None
