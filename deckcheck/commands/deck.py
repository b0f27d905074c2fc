"""``deckcheck deck``: create, show, edit and measure a deck file from the command line.

The logic lives in ``deckcheck.deckedit`` (``Session``, ``add``/``remove``/``move``, ``stats``);
each command here parses its options, calls it, prints the result and returns the exit code.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import click

from deckcheck.commands.deck_common import (
    SECTION_NAMES as _SECTIONS,
)
from deckcheck.commands.deck_common import (
    card_or_candidates as _card,
)
from deckcheck.commands.deck_common import (
    date_format_options as _common,
)
from deckcheck.commands.deck_common import (
    finding_line as _finding_line,
)
from deckcheck.commands.deck_common import (
    open_session as _session,
)
from deckcheck.commands.options import lang_option, output_option
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, DeckcheckError
from deckcheck.render.common import one_line  # names never split an output line


def _section(main: bool, extra: bool, side: bool) -> Any:
    picked = [s for s, on in zip(_SECTIONS, (main, extra, side), strict=True) if on]
    if len(picked) > 1:
        raise click.UsageError("give at most one of --main, --extra, --side")
    return picked[0] if picked else None


def _section_opts(f: Any) -> Any:
    """``--main``/``--extra``/``--side``, given to the command as one ``section`` (None: the
    section the card belongs in)."""

    @functools.wraps(f)
    def command(*args: Any, to_main: bool, to_extra: bool, to_side: bool, **kw: Any) -> Any:
        return f(*args, section=_section(to_main, to_extra, to_side), **kw)

    command = click.option("--side", "to_side", is_flag=True, help="The Side Deck.")(command)
    command = click.option("--extra", "to_extra", is_flag=True, help="The Extra Deck.")(command)
    return click.option("--main", "to_main", is_flag=True, help="The Main Deck.")(command)


class _EditOpts(NamedTuple):
    """The options every edit command shares (``_edit_opts``)."""

    strict: bool
    lang: str
    format_id: str | None
    date_text: str | None


def _edit_opts(f: Any) -> Any:
    """``--strict``, ``--lang``, ``-f`` and ``-d``, given to the command as one ``opts``."""

    @functools.wraps(f)
    def command(
        *args: Any,
        strict: bool,
        lang: str,
        format_id: str | None,
        date_text: str | None,
        **kw: Any,
    ) -> Any:
        return f(*args, opts=_EditOpts(strict, lang, format_id, date_text), **kw)

    strict_opt = click.option(
        "--strict", is_flag=True, help="Exit 1 when the deck is illegal after the edit."
    )
    lang_opt = lang_option(short=False, metavar="L", help="Language of card names in messages.")
    return _common(lang_opt(strict_opt(command)))


@click.group(
    "deck",
    epilog="""\b
Examples:
  deckcheck deck new my.ydk --format tcg
  deckcheck deck add my.ydk "Ash Blossom" -n 3
  deckcheck deck add my.ydk 灰流丽 --side
  deckcheck deck move my.ydk "Nibiru" --to side -n 1
  deckcheck deck remove my.ydk 14558127 -n 1
  deckcheck deck show my.ydk --lang ja
  deckcheck deck stats my.ydk --hand 5 --card "Ash Blossom|Effect Veiler"
  deckcheck deck diff my.ydk "ydke://…"
  deckcheck deck side my.ydk --side-in "2*Nibiru" --side-out "2*Maxx C"
  deckcheck deck draw my.ydk --hand 6 --seed 42
  deckcheck deck edit my.ydk                   (the interactive builder)
  deckcheck deck missing my.ydk --have binder.txt --have box.ydk

Edits keep the file's format (.ydk with its comments, text list, ydke:// link)
and are written all or nothing. Exit codes: 0 done (an edit exits 0 even when
the deck becomes illegal, unless --strict), 1 a card name is unknown or
ambiguous (candidates on stderr, file untouched), 2 usage or input error.""",
)
def deck() -> None:
    """Create and edit decks from the command line."""


# --------------------------------------------------------------------------- new


@deck.command(
    "new",
    epilog="""\b
Examples:
  deckcheck deck new my.ydk
  deckcheck deck new list.txt --format ocg
  deckcheck deck new link.ydke

The kind follows the name: .txt a text list, .ydke a ydke:// link, else .ydk.
--format writes a '#format ID' line that the other deck commands use.""",
)
@click.argument("path", metavar="DECK")
@click.option("-f", "--format", "format_id", metavar="ID", help="Format the deck is built for.")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def new(path: str, format_id: str | None, force: bool) -> int:
    """Create an empty deck file DECK."""
    from deckcheck import deckedit

    if format_id is not None:
        from deckcheck.formats import get_format

        format_id = get_format(format_id).id

    def note(text: str) -> None:
        click.echo(f"deckcheck: note: {text}", err=True)

    kind, written = deckedit.create(path, format_id, force=force, note=note)
    made = f"{one_line(str(path))}: new empty {kind} deck"
    click.echo(made + (f" for {written}" if written else ""))
    return EXIT_OK


# --------------------------------------------------------------------------- show


@deck.command(
    "show",
    epilog="""\b
Examples:
  deckcheck deck show my.ydk
  deckcheck deck show list.txt --lang zh-CN --format ocg
  deckcheck deck show my.ydk --output json""",
)
@click.argument("path", metavar="DECK")
@lang_option(short=False, metavar="L", help="Language of names.")
@_common
@output_option(help="Output kind.")
def show(path: str, lang: str, format_id: str | None, date_text: str | None, output: str) -> int:
    """Show DECK grouped by card kind, with its legality in the format."""
    from deckcheck import deckedit

    s = _session(format_id, date_text)
    df = s.load(path)
    fmt = s.fmt(df)

    def name(cid: int) -> str:
        return str(s.db.name(cid, lang))

    chk = s.check(df, fmt, lang)
    groups = deckedit.grouped(df.deck, s.db, fmt.at(s.date), name)
    from deckcheck.render import deck as render

    emit = render.show_json if output == "json" else render.show_text
    click.echo(emit(path, df.kind, fmt, chk, s.date, df.deck.counts(), groups))
    return EXIT_OK


# --------------------------------------------------------------------------- edits


def _edit(path: str, card: str, opts: _EditOpts, op: Any) -> int:
    """Load DECK, resolve CARD, run ``op(df, card_id, fmt_on_date, session)`` between two
    checks, save, and report the change and the findings it brought or fixed."""
    from deckcheck import deckedit

    s = _session(opts.format_id, opts.date_text)
    df = s.load(path)
    cid = _card(lambda q: s.card_in(df, q), card)
    if cid is None:
        return EXIT_ILLEGAL
    fmt = s.fmt(df)
    try:
        done = s.edit(df, fmt, lambda on: op(df, cid, on, s), opts.lang)
    except deckedit.EditError as exc:
        raise DeckcheckError(exc.message, where=exc.where) from None
    deckedit.save(df)
    change = done.change
    label = deckedit.SECTION_LABEL
    what = f"{change.count} × {one_line(change.name)} ({change.card_id})"
    if change.verb == "moved":
        msg = f"moved {what} from the {label[change.origin]} to the {label[change.section]}"
    elif change.verb == "added":
        msg = f"added {what} to the {label[change.section]}"
    else:
        msg = f"removed {what} from the {label[change.section]}"
    click.echo(f"{one_line(str(path))}: {msg}; now {change.now} in the deck")
    for f in done.added:
        click.echo(f"  new: {_finding_line(f)}")
    for f in done.fixed:
        click.echo(one_line(f"  fixed: {f.code} [{f.rule}] {' '.join(f.message.splitlines())}"))
    r = done.after.report
    c = r.counts
    under = fmt.name + (f", {r.list_label}" if r.list_label else "")
    verdict = "legal" if r.legal else f"illegal ({r.errors} problem{'s' * (r.errors != 1)})"
    click.echo(
        one_line(f"  main {c['main']}, extra {c['extra']}, side {c['side']}: {verdict} in {under}")
    )
    if done.after.skipped:
        click.echo(one_line(f"  note: {done.after.skipped}"))
    return EXIT_ILLEGAL if opts.strict and not r.legal else EXIT_OK


@deck.command(
    "add",
    epilog="""\b
Examples:
  deckcheck deck add my.ydk "Ash Blossom & Joyous Spring" -n 3
  deckcheck deck add my.ydk 灰流丽 -n 3
  deckcheck deck add my.ydk "Accesscode Talker"          (goes to the Extra Deck)
  deckcheck deck add my.ydk 14558127 --side

Extra Deck monsters go to the Extra Deck, other cards to the Main Deck. A card
asked into a deck it cannot be in (a spell into the Extra Deck, a Link monster
into the Main Deck, a token) is refused; --force places it anyway.""",
)
@click.argument("path", metavar="DECK")
@click.argument("card", metavar="CARD")
@click.option(
    "-n", "count", type=click.IntRange(min=1), default=1, show_default=True, help="Copies to add."
)
@_section_opts
@click.option("--force", is_flag=True, help="Place the card even where it does not belong.")
@_edit_opts
def add(path: str, card: str, count: int, section: Any, force: bool, opts: _EditOpts) -> int:
    """Add CARD (passcode or name in any language) to DECK."""
    from deckcheck import deckedit

    return _edit(
        path,
        card,
        opts,
        lambda df, cid, on, s: deckedit.add(
            df, cid, count, section, on, s.db, s.index, force=force, lang=opts.lang
        ),
    )


@deck.command(
    "remove",
    epilog="""\b
Examples:
  deckcheck deck remove my.ydk "Ash Blossom" -n 1
  deckcheck deck remove my.ydk 灰流丽 --side --all
  deckcheck deck remove my.ydk 14558127

The last copies in the file go first. A passcode removes that printing only;
a name removes any artwork of the card.""",
)
@click.argument("path", metavar="DECK")
@click.argument("card", metavar="CARD")
@click.option(
    "-n",
    "count",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Copies to remove.",
)
@click.option("--all", "all_", is_flag=True, help="Remove every copy in the section.")
@_section_opts
@_edit_opts
def remove(path: str, card: str, count: int, all_: bool, section: Any, opts: _EditOpts) -> int:
    """Remove copies of CARD from DECK (default: from where the card belongs)."""
    from deckcheck import deckedit

    n = None if all_ else count
    exact = deckedit.is_passcode(card)
    return _edit(
        path,
        card,
        opts,
        lambda df, cid, on, s: deckedit.remove(
            df, cid, n, section, on, s.db, s.index, exact=exact, lang=opts.lang
        ),
    )


@deck.command(
    "move",
    epilog="""\b
Examples:
  deckcheck deck move my.ydk "Nibiru, the Primal Being" --to side -n 1
  deckcheck deck move my.ydk 灰流丽 --to main --from side --all""",
)
@click.argument("path", metavar="DECK")
@click.argument("card", metavar="CARD")
@click.option("--to", "to", type=click.Choice(_SECTIONS), required=True, help="Destination.")
@click.option(
    "--from",
    "origin",
    type=click.Choice(_SECTIONS),
    default=None,
    help="Origin (default: the section holding the card).",
)
@click.option(
    "-n", "count", type=click.IntRange(min=1), default=1, show_default=True, help="Copies to move."
)
@click.option("--all", "all_", is_flag=True, help="Move every copy in the origin.")
@click.option("--force", is_flag=True, help="Place the card even where it does not belong.")
@_edit_opts
def move(
    path: str,
    card: str,
    to: str,
    origin: str | None,
    count: int,
    all_: bool,
    force: bool,
    opts: _EditOpts,
) -> int:
    """Move copies of CARD between the Main, Extra and Side Deck of DECK."""
    from deckcheck import deckedit

    n = None if all_ else count
    where: Any = origin
    to_: Any = to  # click.Choice gives one of the three section names
    exact = deckedit.is_passcode(card)
    return _edit(
        path,
        card,
        opts,
        lambda df, cid, on, s: deckedit.move(
            df, cid, n, to_, where, on, s.db, s.index, exact=exact, force=force, lang=opts.lang
        ),
    )


# --------------------------------------------------------------------------- stats


@deck.command(
    "stats",
    epilog="""\b
Examples:
  deckcheck deck stats my.ydk
  deckcheck deck stats my.ydk --hand 6 --exact
  deckcheck deck stats my.ydk --card "Ash Blossom|Effect Veiler|Infinite Impermanence"
  deckcheck deck stats my.ydk --output json

Odds are exact (hypergeometric): P(at least one) = 1 - C(N-K, n) / C(N, n) for
K copies in a Main Deck of N cards and an opening hand of n (5 going first,
6 going second). A --card group joins cards with '|': at least one of any.""",
)
@click.argument("path", metavar="DECK")
@click.option(
    "--hand",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Opening hand size (5 first, 6 second).",
)
@click.option(
    "--card",
    "cards",
    multiple=True,
    metavar="CARD[|CARD…]",
    help="A card or a group of cards; may be repeated.",
)
@click.option("--exact", "exact_table", is_flag=True, help="Also P(exactly k) for each card.")
@lang_option(short=False, metavar="L", help="Language of names.")
@_common
@output_option(help="Output kind.")
def stats(
    path: str,
    hand: int,
    cards: tuple[str, ...],
    exact_table: bool,
    lang: str,
    format_id: str | None,
    date_text: str | None,
    output: str,
) -> int:
    """Composition of DECK and the odds of opening each card; with --card, only the odds
    of opening the named cards (at least one of each --card group)."""
    from deckcheck import deckedit
    from deckcheck.commands.deck_between import lang_code

    lang = lang_code(lang)

    s = _session(format_id, date_text)
    df = s.load(path)
    fmt = s.fmt(df).at(s.date)

    def name(cid: int) -> str:
        return str(s.db.name(cid, lang))

    comp = deckedit.composition(df.deck, s.db, fmt)
    n_main = comp["counts"]["main"]
    copies = deckedit.main_copies(df.deck, s.db)
    per_card = deckedit.card_odds(n_main, copies, hand, name)
    groups = []
    for spec in cards:
        ids = []
        for q in deckedit.split_group(spec):
            cid = _card(s.card, q)
            if cid is None:
                return EXIT_ILLEGAL
            root = deckedit.art_root(cid, s.db)
            if root not in copies:
                click.echo(
                    f"deckcheck: note: {one_line(name(cid))} is not in the Main Deck", err=True
                )
            ids.append(root)
        if not ids:
            raise click.UsageError(f"--card {spec!r} names no card")
        groups.append(deckedit.named_group_odds(n_main, copies, ids, hand, name))
    from deckcheck.render import deck as render

    each = deckedit.p_each(n_main, [o.copies for o in groups], hand) if groups else None
    if output == "json":
        click.echo(render.stats_json(path, hand, n_main, comp, per_card, groups, each))
    elif groups:  # cards named: only their odds
        click.echo(render.groups_text(hand, n_main, groups, each, exact_table))
    else:
        click.echo(render.stats_text(path, hand, n_main, comp, per_card, exact_table))
    return EXIT_OK


# The commands between games and files, and the interactive builder, defined beside this module.
from deckcheck.commands.deck_between import diff_cmd, draw_cmd, side_cmd  # noqa: E402
from deckcheck.commands.deck_edit import edit_cmd  # noqa: E402
from deckcheck.commands.deck_missing import missing_cmd  # noqa: E402

for _cmd in (diff_cmd, side_cmd, draw_cmd, edit_cmd, missing_cmd):
    deck.add_command(_cmd)
