"""Text, markdown and JSON output of ``banlist diff`` and ``banlist history``, one function
per output kind, fed the results of ``deckcheck.listdiff``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckcheck.listdiff import CardChange, DeckImpact, GroupChange, HistoryEntry, ListDiff
    from deckcheck.listreport import FamilyHistory, Namer
    from deckcheck.model import Banlist, Format

SCHEMA_VERSION = 1


class _OneLineNamer:
    """A namer whose names are ``one_line``: a card name from a hostile database or list
    never splits a text or markdown line."""

    def __init__(self, namer: Namer):
        self._namer = namer
        self.lang = namer.lang

    def __call__(self, card_id: int, hint: str = "") -> str:
        from deckcheck.render.common import one_line

        return one_line(self._namer(card_id, hint))


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

    namer = _OneLineNamer(namer)  # type: ignore[assignment]
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
    from deckcheck.render.common import one_line

    lines = [f"Deck {one_line(imp.source)}: {imp.verdict}"]
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
    from deckcheck.render.common import one_line

    out = one_line(text).replace("\\", "\\\\")
    for ch in "`*_|<>[]#":
        out = out.replace(ch, "\\" + ch)
    return out


def _md_code(text: str) -> str:
    """Text for inside a markdown code span: one line, no backtick to end it early."""
    from deckcheck.render.common import one_line

    return one_line(text).replace("`", "'")


def diff_markdown(result: ListDiff, namer: Namer, impacts: Sequence[DeckImpact] = ()) -> str:
    from deckcheck.listdiff import status_name

    old, new = result.old, result.new
    lines = [
        f"## Forbidden & Limited list changes: {_md(new.name)}",
        "",
        (
            f"**{_md(old.name)}** (effective {old.effective.isoformat()}) → "
            f"**{_md(new.name)}** (effective {new.effective.isoformat()}): {_summary(result)}."
        ),
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
            lines.append(f"| `{_md_code(imp.source)}` | {cards} | {verdict} |")
        lines.append("")
        for imp in impacts:
            if imp.reasons:
                lines.append(f"**`{_md_code(imp.source)}`** under {_md(new.name)}:")
                lines += [f"- {f.code}: {_md(f.message)}" for f in imp.reasons]
                lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _list_json(b: Banlist) -> dict[str, Any]:
    from deckcheck.formats.codec import banlist_to_dict

    d = banlist_to_dict(b)
    return {k: d[k] for k in ("name", "family", "effective", "mode", "source")}


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
