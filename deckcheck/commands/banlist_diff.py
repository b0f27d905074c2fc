"""``deckcheck banlist diff`` and ``deckcheck banlist history``: what a list update changes,
which decks it touches, and a card's status through a family's history.

Options are parsed here; the comparing is ``deckcheck.listdiff``. Rendering (text, json,
markdown) is local to these two commands, one function per output kind.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from deckcheck import dates
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, DataError, InputError

if TYPE_CHECKING:
    from deckcheck.listdiff import CardChange, DeckImpact, GroupChange, HistoryEntry, ListDiff
    from deckcheck.model import Banlist, Deck, Format

SCHEMA_VERSION = 1
DECK_SUFFIXES = (".ydk", ".txt")


# --------------------------------------------------------------------------- names


class Namer:
    """Card names in one language, from the card database when there is one, else from the
    names written in the lists; the database is opened only when a name is asked for."""

    def __init__(self, lang: str, fallback: dict[int, str] | None = None):
        self.lang = lang
        self.fallback = dict(fallback or {})
        self._db: Any = None
        self._cache: dict[int, str] = {}

    @property
    def db(self) -> Any:
        if self._db is None:
            from deckcheck.carddb import open_db

            self._db = open_db()
        return self._db

    def __call__(self, card_id: int, hint: str = "") -> str:
        got = self._cache.get(card_id)
        if got is not None:
            return got
        name = str(self.db.name(card_id, self.lang))
        if name == str(card_id):  # the database does not know the card
            name = ""
        name = name or hint or self.fallback.get(card_id, "") or f"#{card_id}"
        self._cache[card_id] = name
        return name


def _list_names(*lists: Banlist) -> dict[int, str]:
    out: dict[int, str] = {}
    for b in reversed(lists):
        out.update(b.names)
    return out


def _store() -> Any:
    from deckcheck.formats.store import ListStore

    return ListStore.default()


# --------------------------------------------------------------------------- diff


@click.command("diff")
@click.argument("old_ref", metavar="OLD")
@click.argument("new_ref", metavar="NEW")
@click.option("--lang", "-l", default="en", show_default=True, help="Language of card names.")
@click.option(
    "--output",
    "-o",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
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
@click.option(
    "--format",
    "-f",
    "format_id",
    default=None,
    help="Format the decks are checked in (default: the one whose list family is the lists').",
)
@click.option(
    "--date",
    "-d",
    "date_text",
    default=None,
    metavar="YYYY-MM-DD",
    help="Event date for the deck checks (default: today, or the new list's date if later).",
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

    today = dt.date.today()
    store = _store()
    old = store.resolve(old_ref, today)
    new = store.resolve(new_ref, today)
    result = diff_lists(old, new)
    namer = Namer(lang, _list_names(old, new))

    impacts: list[DeckImpact] = []
    fmt: Format | None = None
    if decks:
        when = _parse_date(date_text) if date_text else max(today, new.effective)
        fmt = _pick_format(format_id, new.family, old.family)
        impacts = check_decks(result, decks, fmt, namer.db, when)

    if output == "json":
        click.echo(json.dumps(diff_json(result, namer, impacts, fmt), ensure_ascii=False, indent=2))
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


def _pick_format(format_id: str | None, family: str, other_family: str) -> Format:
    from deckcheck import formats

    if format_id:
        return formats.get_format(format_id)
    known = formats.load_formats()
    for fam in dict.fromkeys([family, other_family]):
        matching = [f for f in known.values() if f.list_family == fam]
        if matching:
            # A format named after its family (tcg, ocg) is the family's plain format.
            matching.sort(key=lambda f: (f.id != fam, f.id))
            return matching[0]
    raise DataError(f"no format uses the list family {family!r}; choose one with --format")


def deck_paths(inputs: Iterable[Path]) -> list[Path]:
    """Deck files named by ``inputs``: files as given, folders searched recursively."""
    out: list[Path] = []
    for p in inputs:
        if p.is_dir():
            found = sorted(
                q for q in p.rglob("*") if q.is_file() and q.suffix.lower() in DECK_SUFFIXES
            )
            if not found:
                raise InputError("no deck files (.ydk, .txt) in this folder", where=str(p))
            out.extend(found)
        elif p.is_file():
            out.append(p)
        else:
            raise InputError("no such file or folder", where=str(p))
    return out


def check_decks(
    result: ListDiff, inputs: Iterable[Path], fmt: Format, db: Any, when: dt.date
) -> list[DeckImpact]:
    """The impact of ``result`` on every deck named by ``inputs``."""
    from deckcheck.listdiff import deck_impact

    return [deck_impact(result, _read_deck(p, db), fmt, db, date=when) for p in deck_paths(inputs)]


def _read_deck(path: Path, db: Any) -> Deck:
    from deckcheck import decks

    deck = decks.read_path(path)
    if any(e.card_id is None for e in deck.entries()):
        # A text list: names become ids (or DC102/DC103 findings) before checking.
        from deckcheck.decks.resolve import resolve_deck
        from deckcheck.lookup import Index

        deck = resolve_deck(deck, db, Index.for_db(db))
    return deck


# --------------------------------------------------------------------------- diff renderers


def _sections(result: ListDiff) -> list[tuple[str, list[CardChange]]]:
    """(heading, changes) in announcement order; moves get one section per (from, to)."""
    from deckcheck.listdiff import KIND_ORDER, KIND_TITLES

    out: list[tuple[str, list[CardChange]]] = []
    for kind in KIND_ORDER:
        if kind == "moved":
            for group in result.moves().values():
                out.append((group[0].label, group))
            continue
        got = result.by_kind(kind)
        if got:
            out.append((KIND_TITLES[kind], got))
    return out


def _sorted(changes: Sequence[CardChange], namer: Namer) -> list[CardChange]:
    return sorted(changes, key=lambda c: (namer(c.card_id, c.name).casefold(), c.card_id))


def _summary(result: ListDiff) -> str:
    # "4 newly Forbidden, 1 Limited → Semi-Limited, 9 no longer on the list"
    words = {
        "Newly ": "newly ",
        "No longer on the list (Unlimited)": "no longer on the list",
        "Added ": "added ",
        "Removed ": "removed ",
    }
    parts = []
    for title, cs in _sections(result):
        for old, new in words.items():
            title = title.replace(old, new)
        parts.append(f"{len(cs)} {title}")
    if result.points:
        parts.append(f"{len(result.points)} points changes")
    if result.groups:
        parts.append(f"{len(result.groups)} group changes")
    return ", ".join(parts) if parts else "no changes"


def _points_text(n: int | None) -> str:
    return "—" if n is None else str(n)


def _mode_note(result: ListDiff) -> str:
    return (
        f"Note: {result.old.name} is a {result.old.mode} and {result.new.name} a "
        f"{result.new.mode}; only the cards either list names are compared."
    )


def _group_limit(g: GroupChange) -> str:
    if g.old_limit == g.new_limit:
        return f"limit {g.new_limit}"
    return f"limit {_points_text(g.old_limit)} → {_points_text(g.new_limit)}"


def _by_name(ids: Iterable[int], namer: Namer) -> list[int]:
    return sorted(ids, key=lambda i: (namer(i).casefold(), i))


def diff_text(result: ListDiff, namer: Namer, impacts: Sequence[DeckImpact] = ()) -> str:
    from deckcheck.listdiff import status_name

    old, new = result.old, result.new
    lines = [f"{old.label} → {new.label}", f"{_summary(result)}", ""]
    if result.mode_changed:
        lines[-1:-1] = [_mode_note(result)]
    for title, changes in _sections(result):
        lines.append(f"{title} ({len(changes)})")
        for c in _sorted(changes, namer):
            was = "" if c.kind == "moved" else f"  (was {status_name(c.old)})"
            now = f" as {status_name(c.new)}" if c.kind == "added" else ""
            lines.append(f"  {namer(c.card_id, c.name)} [{c.card_id}]{now}{was}")
        lines.append("")
    if result.points:
        lines.append(f"Points ({len(result.points)})")
        for p in result.points:
            lines.append(
                f"  {namer(p.card_id, p.name)} [{p.card_id}]: "
                f"{_points_text(p.old)} → {_points_text(p.new)}"
            )
        lines.append("")
    for g in result.groups:
        lines.append(f"Group {g.name}: {g.kind}, {_group_limit(g)}")
        for cid in _by_name(g.cards_added, namer):
            lines.append(f"  + {namer(cid)} [{cid}]")
        for cid in _by_name(g.cards_removed, namer):
            lines.append(f"  - {namer(cid)} [{cid}]")
        lines.append("")
    for imp in impacts:
        lines.extend(_impact_text(imp, namer))
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _impact_text(imp: DeckImpact, namer: Namer) -> list[str]:
    lines = [f"Deck {imp.source}: {imp.verdict}"]
    if not imp.cards:
        lines.append("  no card of this deck changed status")
    for dc in imp.cards:
        c = dc.change
        lines.append(f"  {dc.count}x {namer(c.card_id, c.name)} [{c.card_id}]: {c.label}")
    for f in imp.reasons:
        lines.append(f"  {f.code} {f.message}")
    for f in imp.resolved:
        lines.append(f"  lifted: {f.code} {f.message}")
    if not imp.legal_after and not imp.reasons:
        # Illegal under both lists: say why, or the verdict reads like a list problem.
        lines += [f"  {f.code} {f.message}" for f in imp.findings_after if f.severity == "error"]
    return lines


def _md(text: str) -> str:
    """Escape text for a markdown table cell or a line (card names hold | * _ < > [ ])."""
    out = text.replace("\\", "\\\\")
    for ch in "`*_|<>[]#":
        out = out.replace(ch, "\\" + ch)
    return out


def diff_markdown(result: ListDiff, namer: Namer, impacts: Sequence[DeckImpact] = ()) -> str:
    from deckcheck.listdiff import status_name

    old, new = result.old, result.new
    lines = [
        f"## Forbidden & Limited list changes: {_md(new.name)}",
        "",
        f"**{_md(old.name)}** (effective {old.effective.isoformat()}) → "
        f"**{_md(new.name)}** (effective {new.effective.isoformat()}): {_summary(result)}.",
        "",
    ]
    if result.mode_changed:
        lines += [f"> {_mode_note(result)}", ""]
    for title, changes in _sections(result):
        lines += [
            f"### {title} ({len(changes)})",
            "",
            "| Card | Passcode | Was | Now |",
            "|---|---:|---|---|",
        ]
        for c in _sorted(changes, namer):
            lines.append(
                f"| {_md(namer(c.card_id, c.name))} | {c.card_id} | "
                f"{status_name(c.old)} | {status_name(c.new)} |"
            )
        lines.append("")
    if result.points:
        lines += [
            f"### Points ({len(result.points)})",
            "",
            "| Card | Passcode | Was | Now |",
            "|---|---:|---:|---:|",
        ]
        for p in result.points:
            lines.append(
                f"| {_md(namer(p.card_id, p.name))} | {p.card_id} | "
                f"{_points_text(p.old)} | {_points_text(p.new)} |"
            )
        lines.append("")
    if result.groups:
        lines += [f"### Groups ({len(result.groups)})", ""]
        for g in result.groups:
            added = ", ".join(_md(namer(i)) for i in _by_name(g.cards_added, namer)) or "—"
            removed = ", ".join(_md(namer(i)) for i in _by_name(g.cards_removed, namer)) or "—"
            lines.append(
                f"- **{_md(g.name)}** ({g.kind}): {_group_limit(g)}; "
                f"added: {added}; removed: {removed}"
            )
        lines.append("")
    if result.empty:
        lines += ["No card changed status.", ""]
    if impacts:
        lines += [
            "### Impact on decks",
            "",
            "| Deck | Cards that changed | Legality |",
            "|---|---|---|",
        ]
        for imp in impacts:
            cards = (
                "<br>".join(
                    f"{dc.count}× {_md(namer(dc.change.card_id, dc.change.name))} "
                    f"({dc.change.label})"
                    for dc in imp.cards
                )
                or "—"
            )
            verdict = imp.verdict.replace("→ illegal", "→ **illegal**")
            lines.append(f"| `{imp.source}` | {cards} | {verdict} |")
        lines.append("")
        for imp in impacts:
            if imp.reasons:
                lines.append(f"**`{imp.source}`** under {_md(new.name)}:")
                lines += [f"- {f.code}: {_md(f.message)}" for f in imp.reasons]
                lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _list_json(b: Banlist) -> dict[str, Any]:
    return {
        "name": b.name,
        "family": b.family,
        "effective": b.effective.isoformat(),
        "mode": b.mode,
        "source": b.source,
    }


def _status_json(limit: int | None) -> dict[str, Any]:
    from deckcheck.listdiff import status_name

    return {"limit": limit, "status": status_name(limit)}


def diff_json(
    result: ListDiff, namer: Namer, impacts: Sequence[DeckImpact] = (), fmt: Format | None = None
) -> dict[str, Any]:
    def card(cid: int, hint: str = "") -> dict[str, Any]:
        return {"id": cid, "name": namer(cid, hint)}

    out: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "old": _list_json(result.old),
        "new": _list_json(result.new),
        "lang": namer.lang,
        "changes": [
            {
                "kind": c.kind,
                "card": card(c.card_id, c.name),
                "old": _status_json(c.old),
                "new": _status_json(c.new),
            }
            for c in result.changes
        ],
        "points": [
            {"kind": p.kind, "card": card(p.card_id, p.name), "old": p.old, "new": p.new}
            for p in result.points
        ],
        "groups": [
            {
                "name": g.name,
                "kind": g.kind,
                "old_limit": g.old_limit,
                "new_limit": g.new_limit,
                "cards_added": [card(i) for i in g.cards_added],
                "cards_removed": [card(i) for i in g.cards_removed],
            }
            for g in result.groups
        ],
        "summary": result.counts(),
        "mode_changed": result.mode_changed,
    }
    if fmt is not None:
        out["format"] = {"id": fmt.id}
    if impacts:
        out["decks"] = [
            {
                "input": imp.source,
                "legal_before": imp.legal_before,
                "legal_after": imp.legal_after,
                "becomes_illegal": imp.becomes_illegal,
                "cards": [
                    {
                        "card": card(dc.change.card_id, dc.change.name),
                        "count": dc.count,
                        "kind": dc.change.kind,
                        "old": _status_json(dc.change.old),
                        "new": _status_json(dc.change.new),
                    }
                    for dc in imp.cards
                ],
                "reasons": [f.to_json() for f in imp.reasons],
                "lifted": [f.to_json() for f in imp.resolved],
                "findings_after": [f.to_json() for f in imp.findings_after],
            }
            for imp in impacts
        ]
    return out


# --------------------------------------------------------------------------- history


@dataclass(frozen=True, slots=True)
class FamilyHistory:
    family: str
    lists: int  # list versions installed
    timeline: list[HistoryEntry]


@click.command("history")
@click.argument("card")
@click.option("--family", "family", default=None, help="Only this list family (e.g. tcg, ocg).")
@click.option("--lang", "-l", default="en", show_default=True, help="Language of the card name.")
@click.option(
    "--output", "-o", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def history(card: str, family: str | None, lang: str, output: str) -> int:
    """Show CARD's status in every installed list version, as a timeline of changes.

    CARD is a passcode or a name in any language. Without --family, every family whose
    lists name the card is shown. Exit codes: 0 shown, 1 the name is unknown or ambiguous
    (candidates on stderr), 2 usage or data error.
    """
    namer = Namer(lang)
    card_id = _resolve_card(card, namer)
    if card_id is None:
        return EXIT_ILLEGAL
    also = _same_card(namer, card_id)
    store = _store()
    histories = card_histories(store, card_id, family=family, also=also)
    name = namer(card_id, _name_in_lists(store, card_id, histories))
    if output == "json":
        click.echo(json.dumps(history_json(card_id, name, histories), ensure_ascii=False, indent=2))
    else:
        click.echo(history_text(card_id, name, histories, family), nl=False)
    return EXIT_OK


def _same_card(namer: Namer, card_id: int) -> list[int]:
    db = namer.db
    try:
        return [i for i in db.same_card(card_id) if i != card_id]
    except AttributeError:
        return []


def _resolve_card(query: str, namer: Namer) -> int | None:
    """The canonical passcode the user means, or None after listing candidates on stderr."""
    text = query.strip()
    db = namer.db
    if text.isdigit():
        cid = int(text)
        # A passcode the database does not know is still looked up in the lists.
        return int(db.canonical(cid)) if cid in db else cid
    from deckcheck.lookup import Index

    res = Index.for_db(db).resolve(text)
    if res.status == "found" and res.card_id is not None:
        return int(db.canonical(res.card_id))
    if res.status == "ambiguous":
        click.echo(f"deckcheck: {query!r} is ambiguous; did you mean:", err=True)
    else:
        click.echo(f"deckcheck: no card named {query!r}", err=True)
        if res.candidates:
            click.echo("closest names:", err=True)
    for m in res.candidates[:10]:
        click.echo(f"  {m.card_id}  {namer(m.card_id, m.name)}", err=True)
    return None


def card_histories(
    store: Any, card_id: int, *, family: str | None = None, also: Sequence[int] = ()
) -> list[FamilyHistory]:
    """The card's timeline in ``family``, or in every family whose lists name it."""
    from deckcheck.listdiff import appears_in, card_history, timeline

    families = list(store.families())
    if family is not None:
        family = family.lower()
        if family not in families:
            known = ", ".join(sorted(families)) or "none installed"
            raise DataError(f"no list family {family!r} (installed: {known})", where="--family")
        families = [family]
    out: list[FamilyHistory] = []
    for fam in families:
        lists = list(store.lists(fam))
        if not lists or (family is None and not appears_in(lists, [card_id, *also])):
            continue
        full = card_history(lists, card_id, also=also)
        out.append(FamilyHistory(fam, len(lists), timeline(full)))
    return out


def _name_in_lists(store: Any, card_id: int, histories: Sequence[FamilyHistory]) -> str:
    for h in histories:
        for b in reversed(store.lists(h.family)):
            got = b.names.get(card_id)
            if got:
                return str(got)
    return ""


def _note(e: HistoryEntry) -> str:
    if e.previous is not None and e.previous.state != e.state:
        return f"was {e.previous.status}"
    if e.first and e.last:
        return "only list"
    if e.first:
        return "first list"
    return "latest list"


def history_text(
    card_id: int, name: str, histories: Sequence[FamilyHistory], family: str | None
) -> str:
    lines = [f"{name} [{card_id}]", ""]
    if not histories:
        lines.append("not named on any installed list (Unlimited wherever lists are blacklists)")
    for h in histories:
        tl = h.timeline
        span = f"{tl[0].list_name} … {tl[-1].list_name}" if len(tl) > 1 else tl[0].list_name
        lines.append(f"{h.family}: {h.lists} list{'s' if h.lists != 1 else ''}, {span}")
        width = max(len(e.list_name) for e in tl)
        swidth = max(len(e.status) for e in tl)
        for e in tl:
            lines.append(
                f"  {e.effective.isoformat()}  {e.list_name:<{width}}  "
                f"{e.status:<{swidth}}  {_note(e)}".rstrip()
            )
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def history_json(card_id: int, name: str, histories: Sequence[FamilyHistory]) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "card": {"id": card_id, "name": name},
        "families": [
            {
                "family": h.family,
                "lists": h.lists,
                "timeline": [
                    {
                        "list": e.list_name,
                        "effective": e.effective.isoformat(),
                        "limit": e.limit,
                        "points": e.points,
                        "status": e.status,
                        "first": e.first,
                        "last": e.last,
                        "was": e.previous.status if e.previous is not None else None,
                    }
                    for e in h.timeline
                ],
            }
            for h in histories
        ],
    }
