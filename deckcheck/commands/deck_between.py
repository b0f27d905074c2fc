"""``deckcheck deck diff``, ``deck side`` and ``deck draw``: two decks compared, a side plan
between games checked, sample opening hands (logic in ``deckcheck.deckedit.between``)."""

from __future__ import annotations

import json
import re
from typing import Any

import click

from deckcheck.commands.deck_common import SECTION_NAMES as _SECTIONS
from deckcheck.commands.deck_common import card_or_candidates as _card
from deckcheck.commands.deck_common import date_format_options as _common
from deckcheck.commands.deck_common import finding_line as _finding_line
from deckcheck.commands.deck_common import open_session as _session
from deckcheck.commands.options import lang_option, output_option
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, DeckcheckError, error_line


class _Unresolved(DeckcheckError):
    exit_code = EXIT_ILLEGAL

    def __init__(self, arg: str):
        super().__init__("names not resolved (candidates above); nothing compared", where=arg)


def lang_code(value: str) -> str:
    from deckcheck.lookup.langs import canonical_lang

    return canonical_lang(value) or "en"


def load_any(arg: str, lang: str) -> tuple[Any, Any, Any]:
    """(deck, db, index) of a .ydk, a text list, a ydke:// link or ``-``; a name that does
    not resolve is listed and the command exits 1."""
    from deckcheck.deckout import load_deck
    from deckcheck.decks.cli_support import format_finding

    got = load_deck(arg, lang=lang, want_db=True, want_index=True)
    if got.problems:
        for f in got.problems:
            click.echo(format_finding(got.deck.source, f), err=True)
        raise _Unresolved(arg)
    return got.deck, got.db, got.index


@click.command(
    "diff",
    epilog="""\b
Examples:
  deckcheck deck diff before.ydk after.ydk
  deckcheck deck diff my.ydk "ydke://…" --lang ja
  deckcheck deck diff list.txt my.ydk --output json

Decks may be .ydk files, text lists (any language) or ydke:// links, mixed.
Exit codes: 0 the decks are the same, 1 they differ (or a name is not
resolved), 2 usage or input error.""",
)
@click.argument("deck_a", metavar="A")
@click.argument("deck_b", metavar="B")
@lang_option(short=False, callback=None, metavar="L", help="Language of names.")
@output_option(help="Output kind.")
def diff_cmd(deck_a: str, deck_b: str, lang: str, output: str) -> int:
    """Per section: the cards added, removed and changed in count from deck A to deck B."""
    from deckcheck.deckedit.between import diff
    from deckcheck.deckedit.cards import SECTION_LABEL
    from deckcheck.render.table import table

    lang = lang_code(lang)
    a, db, _ = load_any(deck_a, lang)
    b, _, _ = load_any(deck_b, lang)
    lines = diff(a, b, db)
    if output == "json":
        doc = {
            "a": deck_a,
            "b": deck_b,
            "same": not lines,
            "changes": [
                {
                    "section": d.section,
                    "id": d.card_id,
                    "name": db.name(d.card_id, lang),
                    "change": d.change,
                    "before": d.before,
                    "after": d.after,
                }
                for d in lines
            ],
        }
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return EXIT_ILLEGAL if lines else EXIT_OK
    if not lines:
        click.echo("the decks have the same cards")
        return EXIT_OK
    for sec in _SECTIONS:
        rows = [d for d in lines if d.section == sec]
        if not rows:
            continue
        click.echo(f"{SECTION_LABEL[sec]}:")
        body = [
            [
                d.change,
                d.before,
                d.after,
                f"{d.after - d.before:+d}",
                db.name(d.card_id, lang),
                d.card_id,
            ]
            for d in rows
        ]
        for line in table(["CHANGE", "A", "B", "±", "NAME", "ID"], body, right=(1, 2, 3, 5)):
            click.echo("  " + line)
    ca, cb = a.counts(), b.counts()
    click.echo(
        f"A: main {ca['main']}, extra {ca['extra']}, side {ca['side']}; "
        f"B: main {cb['main']}, extra {cb['extra']}, side {cb['side']}",
        err=True,
    )
    return EXIT_ILLEGAL


def _pairs(s: Any, specs: tuple[str, ...]) -> list[tuple[int, int]] | None:
    """``[N*]CARD`` specs ("2*Ash Blossom", "Nibiru") as (passcode, copies); None after
    listing the candidates of a name that does not resolve."""
    out = []
    for spec in specs:
        m = re.match(r"^\s*(\d+)\s*[*x×]\s*(.+)$", spec)
        n, q = (int(m.group(1)), m.group(2)) if m else (1, spec)
        cid = _card(s.card, q)
        if cid is None:
            return None
        out.append((cid, n))
    return out


@click.command(
    "side",
    epilog="""\b
Examples:
  deckcheck deck side my.ydk --side-in "Dark Ruler No More" --side-out "Pot of Prosperity"
  deckcheck deck side my.ydk --side-in "2*Nibiru" --side-out "2*Maxx C" --out game2.ydk

A side plan between games: Side Deck cards are exchanged one for one with Main
or Extra Deck cards, so the Side, Main and Extra Deck each keep their size
(Konami TCG and OCG policy; docs/RULES.md), and the deck must stay legal.
Exit codes: 0 the plan is fine (written with --out), 1 it breaks a rule or a
name is not resolved (nothing written), 2 usage or input error.""",
)
@click.argument("path", metavar="DECK")
@click.option(
    "--side-in",
    "ins",
    multiple=True,
    metavar="[N*]CARD",
    help="A card to bring in from the Side Deck; repeatable.",
)
@click.option(
    "--side-out",
    "outs",
    multiple=True,
    metavar="[N*]CARD",
    help="A card to take out to the Side Deck; repeatable.",
)
@click.option("--out", "out", metavar="FILE.ydk", help="Write the deck for the next game here.")
@lang_option(short=False, callback=None, metavar="L", help="Language of names.")
@_common
def side_cmd(
    path: str,
    ins: tuple[str, ...],
    outs: tuple[str, ...],
    out: str | None,
    lang: str,
    format_id: str | None,
    date_text: str | None,
) -> int:
    """Check a side plan for the next game of a match against DECK's format."""
    from deckcheck.deckedit.between import side
    from deckcheck.deckedit.check import check
    from deckcheck.decks.write import to_ydk, write_atomic

    lang = lang_code(lang)
    if not ins and not outs:
        raise click.UsageError("give --side-in and --side-out cards")
    s = _session(format_id, date_text)
    df = s.load(path)
    fmt = s.fmt(df)
    pin, pout = _pairs(s, ins), _pairs(s, outs)
    if pin is None or pout is None:
        return EXIT_ILLEGAL

    def name(cid: int) -> str:
        return str(s.db.name(cid, lang))

    plan = side(df.deck, pin, pout, s.db, fmt.at(s.date), name)
    for what, cid, n in plan.moves:
        click.echo(f"  {what:<3} {n} × {name(cid)}")
    before = check(df.deck, fmt, s.db, s.date)
    after = check(plan.deck, fmt, s.db, s.date)
    had = {(g.code, g.card_id) for g in before.report.findings}
    new = [
        f for f in after.report.findings if f.severity == "error" and (f.code, f.card_id) not in had
    ]
    for p in plan.problems:
        click.echo(f"deckcheck: side plan: {p}", err=True)
    for f in new:
        click.echo(f"deckcheck: side plan: {_finding_line(f)}", err=True)
    if plan.problems or new:
        click.echo(
            error_line(f"the plan breaks the rules of {fmt.name}; nothing written"), err=True
        )
        return EXIT_ILLEGAL
    c = plan.deck.counts()
    click.echo(
        f"next game: main {c['main']}, extra {c['extra']}, side {c['side']} "
        f"(a valid side plan in {fmt.name})"
    )
    if out:
        write_atomic(out, to_ydk(plan.deck, s.db, lang=lang))
        click.echo(f"wrote {out}", err=True)
    return EXIT_OK


@click.command(
    "draw",
    epilog="""\b
Examples:
  deckcheck deck draw my.ydk
  deckcheck deck draw my.ydk --hand 6 --seed 42
  deckcheck deck draw my.ydk --hands 5 --seed 1

Exit codes: 0 drawn, 1 a name is not resolved, 2 usage or input error.""",
)
@click.argument("path", metavar="DECK")
@click.option(
    "--hand",
    type=click.Choice(["5", "6"]),
    default="5",
    show_default=True,
    help="Opening hand size (5 going first, 6 going second).",
)
@click.option("--seed", type=int, default=None, help="Random seed (the same seed, the same hands).")
@click.option(
    "--hands",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="How many sample hands.",
)
@lang_option(short=False, callback=None, metavar="L", help="Language of names.")
@output_option(help="Output kind.")
def draw_cmd(path: str, hand: str, seed: int | None, hands: int, lang: str, output: str) -> int:
    """Sample opening hands from DECK's Main Deck."""
    import random

    from deckcheck.deckedit.between import draw

    lang = lang_code(lang)
    deck_, db, _ = load_any(path, lang)
    n = int(hand)
    size = deck_.counts()["main"]
    if size < n:
        raise DeckcheckError(
            f"the Main Deck has {size} cards, fewer than a hand of {n}", where=path
        )
    rng = random.Random(seed)
    drawn = [draw(deck_, n, rng.randrange(2**32), db) for _ in range(hands)]
    if output == "json":
        click.echo(
            json.dumps(
                {
                    "input": path,
                    "hand": n,
                    "seed": seed,
                    "hands": [[{"id": c, "name": db.name(c, lang)} for c in h] for h in drawn],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return EXIT_OK
    for i, h in enumerate(drawn, 1):
        if hands > 1:
            click.echo(f"hand {i}:")
        for c in h:
            click.echo(f"  {db.name(c, lang)}  [{c}]")
    return EXIT_OK
