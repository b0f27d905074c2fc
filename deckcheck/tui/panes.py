"""What the app's panes show, as Rich text built from the services' records: the deck grouped
by kind (``deck show``'s grouping), the findings (``validate``'s), the highlighted card
(``card show``'s record) and the stats (``deck stats``' composition and odds); and the two
list widgets the keys act on."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Input, OptionList
from textual.widgets.option_list import Option

from deckcheck import deckedit
from deckcheck.deckedit import SECTION_LABEL
from deckcheck.model import SECTIONS
from deckcheck.render.common import one_line
from deckcheck.tui.checking import Status, Verdict

#: Colours of a card's status (the word is always shown too: NO_COLOR keeps the meaning).
STATUS_STYLE = {
    "forbidden": "bold red",
    "limited": "dark_orange",
    "semi": "yellow",
    "unlimited": "green",
    "outside": "magenta",
}
SEVERITY_STYLE = {"error": "red", "warning": "yellow"}
_GROUP_LABEL = {
    "monster": "Monster",
    "extra monster": "Extra Deck monster",
    "spell": "Spell",
    "trap": "Trap",
    "fusion": "Fusion",
    "synchro": "Synchro",
    "xyz": "Xyz",
    "link": "Link",
    "ritual": "Ritual",
    "skill": "Skill",
    "token": "Token",
    "other": "Other",
    "unknown": "Unknown card",
    "monster (not extra)": "Main Deck monster",
}


def status_text(status: Status) -> Text:
    return Text(status.word, style=STATUS_STYLE.get(status.kind, ""))


# --------------------------------------------------------------------------- deck


def deck_options(builder: Any, name: Any) -> list[Option]:
    """The deck pane's rows: a heading per section (count and the format's range), a
    heading per kind, then one row per card (copies, name, status when it is not
    Unlimited). A card row's id is ``section:passcode``."""
    df = builder.df
    on = builder.checking.on
    groups = deckedit.grouped(df.deck, builder.db, on, name)
    counts = df.deck.counts()
    out: list[Option] = []
    for section in SECTIONS:
        rng = getattr(on, section)
        head = Text(f"{SECTION_LABEL[section]} {counts[section]}", style="bold")
        head.append(f"  ({rng})", style="dim")
        if not rng.contains(counts[section]):
            head.append("  out of range", style="red")
        out.append(Option(head, id=f"head:{section}", disabled=True))
        for g in groups[section]:
            out.append(
                Option(
                    Text(f" {_GROUP_LABEL.get(g.kind, g.kind)} ({g.count})", style="italic"),
                    id=f"kind:{section}:{g.kind}",
                    disabled=True,
                )
            )
            for ln in g.lines:
                row = Text(f"  {ln.count} {one_line(ln.name)}")
                if ln.card_id is not None:
                    st = builder.checking.status(ln.card_id)
                    if st.kind != "unlimited":
                        row.append("  ")
                        row.append_text(status_text(st))
                    oid = f"{section}:{ln.card_id}"
                else:
                    row.stylize("red")
                    row.append("  not a known card", style="red")
                    oid = f"{section}:line{ln.line}"
                out.append(Option(row, id=oid))
    return out


def parse_option_id(option_id: str | None) -> tuple[str, int] | None:
    """(section, passcode) of a card row's id, None for a heading or an unknown card."""
    if not option_id or option_id.startswith(("head:", "kind:")):
        return None
    section, _, rest = option_id.partition(":")
    return (section, int(rest)) if rest.isdigit() else None


class DeckList(OptionList):
    """The deck pane. Its keys: ``-`` remove, ``m`` move, ``s`` add to the Side Deck (the
    screen's bindings), ``enter``/``+`` one more copy where the card is. A click only
    highlights: nothing is edited by the mouse alone."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,plus", "screen.more", "+1 copy", show=False),
    ]

    def action_select(self) -> None:  # a click or enter must not "select" (edit)
        return

    def update_options(self, options: list[Option]) -> None:
        """Show ``options``: when they are the same rows (ids) as shown, only the rows
        whose text changed are replaced (an edit changes a count or two); else all."""
        old = self.options
        if [o.id for o in old] != [o.id for o in options]:
            # rows came or went (a card's first copy in a section, its last out of one): all
            # rows again, but the unchanged ones as the same options, whose drawn text the
            # list keeps (issue 29: half the cost of the new list)
            kept = {o.id: o for o in old}
            self.set_options([_same(kept.get(o.id), o) for o in options])
            return
        for i, (was, now) in enumerate(zip(old, options, strict=True)):
            if was.prompt != now.prompt:  # rich Text: same text and same styles
                self.replace_option_prompt_at_index(i, now.prompt)


def _same(was: Option | None, now: Option) -> Option:
    """``was`` when it shows what ``now`` shows, else ``now``."""
    if was is not None and was.prompt == now.prompt and was.disabled == now.disabled:
        return was
    return now


def update_keeping_height(widget: Any, content: Text) -> None:
    """``Static.update`` without a layout of the whole screen when the content keeps the
    widget's height (the usual edit: a count in a message changes)."""
    width = widget.content_size.width
    if not width:
        widget.update(content)
        return
    widget.update(content, layout=False)
    size = widget.content_size
    if widget.get_content_height(size, size, width) != size.height:
        widget.refresh(layout=True)


class ResultsTable(DataTable[Any]):
    """The search results: ``enter`` (or a click on the highlighted row) adds the card.

    Wide, one row a card: name, kind, ATK/DEF or Spell/Trap type, status. Narrower than
    ``WIDE`` cells (an 80-column terminal), two lines a card as deck builders show them:
    the name, then kind and ATK/DEF or type; the status beside it."""

    WIDE = 64

    def __init__(self, **kw: Any) -> None:
        super().__init__(cursor_type="row", **kw)
        self.results: list[Any] = []
        self.statuses: Any = None
        self._wide: bool | None = None

    def fill(self, results: list[Any], status: Any) -> None:
        """Show ``results``; ``status(card_id)`` gives each one's ``Status``."""
        self.results, self.statuses = results, status
        wide = self.size.width >= self.WIDE or self.size.width == 0
        if wide != self._wide:
            self._wide = wide
            self.clear(columns=True)
            if wide:
                self.add_column("Name", key="name")
                self.add_column("Kind", key="kind")
                self.add_column("ATK/DEF·Type", key="detail")
            else:
                self.add_column("Card", key="name")
            self.add_column("Status", key="status")
        else:
            self.clear()
        for r in results:
            st = status_text(status(r.card_id))
            if wide:
                self.add_row(one_line(r.name), r.kind, r.detail, st, key=str(r.card_id))
            else:
                card = Text(one_line(r.name), style="bold")
                card.append(f"\n{r.kind}" + (f" · {r.detail}" if r.detail else ""), style="dim")
                self.add_row(card, st, key=str(r.card_id), height=2)

    def restatus(self) -> None:
        """The status column again (the format or date changed)."""
        for r in self.results:
            self.update_cell(str(r.card_id), "status", status_text(self.statuses(r.card_id)))

    def on_resize(self) -> None:
        if self._wide is not None and (self.size.width >= self.WIDE) != self._wide:
            row = self.cursor_row
            self.fill(self.results, self.statuses)
            if self.results:
                self.move_cursor(row=min(row, len(self.results) - 1))


class SearchInput(Input):
    """The search box: letters type into it; ``up``/``down`` move the results' highlight,
    ``enter`` adds the highlighted result, ``tab``/``esc`` leave it for the results."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "screen.results_cursor(-1)", show=False),
        Binding("down", "screen.results_cursor(1)", show=False),
    ]


# --------------------------------------------------------------------------- findings


def findings_text(builder: Any) -> Text:
    """The verdict, then ``validate``'s findings, one line each (``deck``'s finding lines)."""
    from deckcheck.render.deck import finding_line

    v: Verdict = builder.verdict
    r = v.report
    chk = builder.checking
    out = Text()
    if builder.read_only:
        out.append(f"read-only: {one_line(builder.read_only)}\n", style="bold red")
    where = f"{chk.fmt.name} on {chk.date.isoformat()} ({chk.list_label()})"
    if not r.findings:
        out.append(f"legal in {where}", style="green")
    else:
        n = r.errors
        if r.legal:
            out.append("legal, with warnings", style="bold yellow")
        else:
            out.append(f"illegal: {n} problem{'s' * (n != 1)}", style="bold red")
        out.append(f" in {where}", style="dim")
        for f in r.findings:
            out.append("\n")
            if f.severity != "error":
                out.append(f"{f.severity}: ", style=SEVERITY_STYLE.get(f.severity, ""))
            line = Text(finding_line(f))
            line.highlight_regex(r"DC\d{3}", SEVERITY_STYLE.get(f.severity, ""))
            out.append_text(line)
    if v.skipped:
        out.append(f"\nnote: {one_line(v.skipped)}", style="dim")
    return out


# --------------------------------------------------------------------------- card


def card_text(record: dict[str, Any], status: Status, kind: str) -> Text:
    """``card show``'s record of the highlighted card: names, kind, text where installed,
    and its status in every format on the date."""
    out = Text()
    out.append(one_line(str(record.get("name", ""))), style="bold")
    out.append(f"  {record.get('id')}", style="dim")
    out.append("\n")
    out.append_text(status_text(status))
    if status.reason:
        out.append(f" ({one_line(status.reason)})", style="dim")
    out.append(f" · {kind}")
    names = record.get("names") or {}
    shown = [f"{lg} {v[0]}" for lg, v in names.items() if v and lg != "en" and "_" not in lg]
    if shown:
        out.append("\n" + one_line(" · ".join(shown[:6])), style="dim")
    text = record.get("text")
    if isinstance(text, dict):
        text = text.get("en") or next(iter(text.values()), None)
    if text:
        out.append("\n" + " ".join(str(text).split()))
    rows = record.get("formats") or []
    if rows:
        out.append("\n")
        for i, row in enumerate(rows):
            if i:
                out.append(" · ")
            out.append(f"{row['format']} ")
            word = "not in pool" if row["status"] == "not in the pool" else str(row["status"])
            limit = row.get("limit", 3)
            kind = (
                "outside"
                if word == "not in pool"
                else {0: "forbidden", 1: "limited", 2: "semi"}.get(limit, "unlimited")
            )
            out.append(word, style=STATUS_STYLE[kind])
    missing = [n.split(":", 1)[0] for n in record.get("formats_notes", [])]
    if missing:
        out.append(f"\nno list installed or in force: {', '.join(missing)}", style="dim")
    return out


# --------------------------------------------------------------------------- stats


def stats_text(builder: Any, card_id: int | None, name: str | None) -> Text:
    """``deck stats``: the Main Deck's composition, the Extra Deck's summon types, and the
    odds of opening the highlighted card (5 cards going first, 6 going second)."""
    deck = builder.df.deck
    on = builder.checking.on
    comp = deckedit.composition(deck, builder.db, on)
    n_main = comp["counts"]["main"]
    out = Text()
    if card_id is not None:
        copies = deckedit.main_copies(deck, builder.db).get(deckedit.art_root(card_id, builder.db))
        k = copies or 0
        p5 = deckedit.p_at_least_one(n_main, k, 5)
        p6 = deckedit.p_at_least_one(n_main, k, 6)
        label = one_line(name or str(card_id))
        out.append(f"{label}: {k} in Main · opening hand {p5:.1%} (5), {p6:.1%} (6)\n")
    kinds = " · ".join(f"{v} {k}" for k, v in comp["main"].items()) or "empty"
    out.append(f"Main: {kinds}", style="dim")
    if comp["extra"]:
        out.append(
            " · Extra: " + " · ".join(f"{v} {k}" for k, v in comp["extra"].items()), style="dim"
        )
    return out


__all__ = [
    "DeckList",
    "ResultsTable",
    "SearchInput",
    "card_text",
    "deck_options",
    "findings_text",
    "parse_option_id",
    "stats_text",
    "status_text",
    "update_keeping_height",
]
