"""Text output of ``banlist list`` and ``banlist show`` (their JSON is the records as they are)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deckcheck.listinfo import STATUS_WORDS
from deckcheck.render.common import one_line


def list_text(rows: Sequence[dict[str, Any]]) -> list[str]:
    """One line per list: family, effective date, name."""
    out = []
    for r in rows:
        approx = "" if r["date_exact"] else " (month only)"
        marks = ""
        if r.get("upcoming"):
            marks += "  [upcoming]"
        if r.get("superseded_by"):
            marks += f"  [not used: {r['superseded_by']} is official]"
        src = f"  ({r['source']})" if r.get("source") else ""
        name = one_line(r["name"])
        out.append(f"{r['family']:<16} {r['effective']}{approx:<13} {name}{marks}{src}")
    return out


def list_summary(rows: Sequence[dict[str, Any]], fams: Sequence[str]) -> str:
    return f"{len(rows)} list(s) in {len(fams)} famil{'y' if len(fams) == 1 else 'ies'}"


def show_text(b: Any, data: dict[str, Any], show_all: bool) -> list[str]:
    """A list by status (Unlimited cards of a whitelist only with ``show_all``), groups, points."""
    approx = "" if b.date_exact else " (only the month is known)"
    name = one_line(b.name)
    out = [f"{name} — {b.family}, effective {b.effective.isoformat()}{approx}, {b.mode}"]
    if b.source:
        out.append(f"source: {one_line(b.source)}")
    for n, word in STATUS_WORDS.items():
        cards = [e for e in data["entries"] if e["limit"] == n]
        if not cards or (n == 3 and b.mode == "whitelist" and not show_all):
            if n == 3 and cards:
                out.append(f"\n{word}: {len(cards)} cards (--all prints them)")
            continue
        out.append(f"\n{word} ({len(cards)})")
        out += [f"  {e['id']:>9}  {one_line(e['name'])}" for e in cards]
    for g in data["groups"]:
        out.append(
            f"\nGroup {one_line(g['name'])}: at most {g['limit']} in total "
            f"({len(g['cards'])} cards)"
        )
        out += [f"  {c['id']:>9}  {one_line(c['name'])}" for c in g["cards"]]
    if data["points"]:
        out.append(f"\nPoints ({len(data['points'])})")
        out += [f"  {e['points']:>3}  {e['id']:>9}  {one_line(e['name'])}" for e in data["points"]]
    return out
