"""``deckcheck banlist``: list, show, import and export Forbidden/Limited lists (``diff`` and
``history`` live in ``deckcheck.commands.banlist_diff``)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import click

from deckcheck.errors import EXIT_OK
from deckcheck.model import STATUS_NAMES as _WORDS


def _date(text: str | None, hint: str) -> dt.date | None:
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a date (YYYY-MM-DD)", param_hint=hint) from None


@click.group(
    "banlist",
    epilog="""\b
Examples:
  deckcheck banlist list --family tcg
  deckcheck banlist show tcg@2025-06-01
  deckcheck banlist show "2025.04 TCG" --output json
  deckcheck banlist import 0TCG.lflist.conf OCG.lflist.conf
  deckcheck banlist export tcg@2026-06-01 -o tcg.lflist.conf""",
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
@click.option("--family", "-f", default=None, help="Only this family (tcg, ocg, speed …).")
@click.option("--output", "-o", type=click.Choice(["text", "json"]), default="text",
              show_default=True)  # fmt: skip
def list_cmd(family: str | None, output: str) -> int:
    """Installed lists, oldest first per family."""
    from deckcheck.errors import DataError
    from deckcheck.formats.store import ListStore

    store = ListStore.default()
    fams = store.families()
    if family is not None:
        if family.lower() not in fams:
            raise DataError(f"no list family {family!r} installed (installed: {', '.join(fams)})")
        fams = [family.lower()]
    rows = [
        {"family": b.family, "effective": b.effective.isoformat(), "name": b.name,
         "mode": b.mode, "entries": len(b.limits), "groups": len(b.groups),
         "points": len(b.points), "date_exact": b.date_exact, "path": b.path}
        for f in fams for b in store.lists(f)
    ]  # fmt: skip
    if output == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        for r in rows:
            approx = "" if r["date_exact"] else " (month only)"
            click.echo(f"{r['family']:<16} {r['effective']}{approx:<13} {r['name']}")
        click.echo(f"{len(rows)} list(s) in {len(fams)} famil{'y' if len(fams) == 1 else 'ies'}",
                   err=True)  # fmt: skip
    return EXIT_OK


def _namer(b: Any, lang: str) -> Any:
    from deckcheck import paths

    db: Any = None
    if paths.database_path().is_file() or lang != "en":
        from deckcheck.carddb import open_db

        db = open_db()

    def name(card: int) -> str:
        if db is not None and card in db:
            return str(db.name(card, lang))
        return b.names.get(card) or str(card)

    return name


def show_json(b: Any, name: Any) -> dict[str, Any]:
    return {
        "name": b.name,
        "family": b.family,
        "effective": b.effective.isoformat(),
        "date_exact": b.date_exact,
        "mode": b.mode,
        "source": b.source,
        "entries": [{"id": c, "name": name(c), "limit": lim}
                    for c, lim in sorted(b.limits.items(), key=lambda kv: (kv[1], name(kv[0])))],
        "groups": [{"name": g.name, "limit": g.limit,
                    "cards": [{"id": c, "name": name(c)} for c in sorted(g.cards)]}
                   for g in b.groups],
        "points": [{"id": c, "name": name(c), "points": p}
                   for c, p in sorted(b.points.items(), key=lambda kv: (-kv[1], name(kv[0])))],
    }  # fmt: skip


@banlist.command(
    "show",
    epilog="""\b
Examples:
  deckcheck banlist show tcg@2025-06-01
  deckcheck banlist show "2025.4 TCG" --lang de
  deckcheck banlist show ./my-list.lflist.conf --output json""",
)
@click.argument("ref")
@click.option("--date", "-d", "date_text", default=None,
              help="For a family REF such as 'tcg': the list in force that day (default today).")
@click.option("--lang", "-l", default="en", show_default=True, help="Language of card names.")
@click.option("--output", "-o", type=click.Choice(["text", "json"]), default="text",
              show_default=True)  # fmt: skip
@click.option("--all", "show_all", is_flag=True,
              help="Whitelists: also print the Unlimited cards (usually the whole pool).")
def show(ref: str, date_text: str | None, lang: str, output: str, show_all: bool) -> int:
    """Print a list: Forbidden, Limited, Semi-Limited, groups and points, with card names."""
    from deckcheck.formats.store import ListStore

    b = ListStore.default().resolve(ref, _date(date_text, "--date"))
    name = _namer(b, lang)
    data = show_json(b, name)
    if output == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return EXIT_OK
    approx = "" if b.date_exact else " (only the month is known)"
    click.echo(f"{b.name} — {b.family}, effective {b.effective.isoformat()}{approx}, {b.mode}")
    if b.source:
        click.echo(f"source: {b.source}")
    for n, word in _WORDS.items():
        cards = [e for e in data["entries"] if e["limit"] == n]
        if not cards or (n == 3 and b.mode == "whitelist" and not show_all):
            if n == 3 and cards:
                click.echo(f"\n{word}: {len(cards)} cards (--all prints them)")
            continue
        click.echo(f"\n{word} ({len(cards)})")
        for e in cards:
            click.echo(f"  {e['id']:>9}  {e['name']}")
    for g in data["groups"]:
        click.echo(f"\nGroup {g['name']}: at most {g['limit']} in total ({len(g['cards'])} cards)")
        for c in g["cards"]:
            click.echo(f"  {c['id']:>9}  {c['name']}")
    if data["points"]:
        click.echo(f"\nPoints ({len(data['points'])})")
        for e in data["points"]:
            click.echo(f"  {e['points']:>3}  {e['id']:>9}  {e['name']}")
    return EXIT_OK


@banlist.command(
    "import",
    epilog="""\b
Examples:
  deckcheck banlist import 0TCG.lflist.conf OCG.lflist.conf
  deckcheck banlist import lflist.conf            (YGOPro: all 102 lists)
  deckcheck banlist import house.lflist.conf --family house --effective 2026-01-15
  deckcheck banlist import Speed.lflist.conf --out banlists/""",
)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--family", "-f", default=None, help="Family of every list (else from the names).")
@click.option("--effective", "-e", default=None,
              help="Effective date YYYY-MM-DD (else from the names; month-only names get the 1st).")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Write <family>/<date>.yaml here instead of the user's list folder.")
def import_cmd(files: tuple[str, ...], family: str | None, effective: str | None,
               out_dir: str | None) -> int:  # fmt: skip
    """Import lflist.conf files (EDOPro or YGOPro) as one YAML file per list version."""
    from deckcheck.errors import DataError
    from deckcheck.formats.importer import import_lflists

    if family is not None and not family.replace("-", "").isalnum():
        raise DataError(f"--family {family!r}: use letters, digits and '-'")
    res = import_lflists(
        [Path(f) for f in files],
        family=family.lower() if family else None,
        effective=_date(effective, "--effective"),
        out_dir=Path(out_dir) if out_dir else None,
    )
    for p in res.written:
        click.echo(str(p))
    click.echo(
        f"{len(res.lists)} list(s): {len(res.written)} written, {len(res.unchanged)} unchanged"
        + (f", {len(res.conflicts)} conflict(s)" if res.conflicts else ""),
        err=True,
    )
    return EXIT_OK


@banlist.command(
    "export",
    epilog="""\b
Examples:
  deckcheck banlist export tcg@2026-06-01 -o tcg.lflist.conf
  deckcheck banlist export "2025.07 Speed Duel" > speed.lflist.conf""",
)
@click.argument("ref")
@click.option("--date", "-d", "date_text", default=None,
              help="For a family REF such as 'tcg': the list in force that day (default today).")
@click.option("--output-file", "-o", "out", default=None, type=click.Path(dir_okay=False),
              help="Write here (atomically) instead of stdout.")
def export(ref: str, date_text: str | None, out: str | None) -> int:
    """Write a list as EDOPro lflist.conf text."""
    from deckcheck.formats import lflist
    from deckcheck.formats.store import ListStore, write_atomic

    b = ListStore.default().resolve(ref, _date(date_text, "--date"))
    text = lflist.write([b])
    if out is None:
        click.echo(text, nl=False)
    else:
        write_atomic(Path(out), text)
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
