"""Text output of ``card search`` and ``card show`` (their JSON is ``deckcheck.cardinfo``'s)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deckcheck.render.common import one_line


def search_text(matches: Sequence[Any], kinds: Sequence[str]) -> list[str]:
    """One aligned line per match: passcode, name, kind, how it matched, score."""
    if not matches:
        return []
    width = max(len(one_line(m.name)) for m in matches)
    out = []
    for m, kind in zip(matches, kinds, strict=True):
        matched = "" if m.matched == m.name else f"  ← {one_line(m.matched)} [{m.lang}]"
        out.append(
            f"{m.card_id:>9}  {one_line(m.name):<{width}}  {kind:<7} {m.how:<8} "
            f"{m.score:5.1f}{matched}"
        )
    return out


def show_text(c: Any, info: dict[str, Any]) -> list[str]:
    cid = info["id"]
    out = [f"{one_line(info['name'])}  [{cid}]"]
    out.append(f"  kind:       {c.kind}" + (f" ({', '.join(c.subtypes)})" if c.subtypes else ""))
    if info["canonical"] != cid:
        out.append(f"  counts as:  {info['canonical']} ({c.alias_kind.replace('_', ' ')})")
    if info["alternates"]:
        out.append(f"  alternates: {', '.join(str(a) for a in info['alternates'])}")
    out.append(f"  scopes:     {', '.join(info['scopes']) or '-'}")
    out.append("  names:")
    out += [f"    {lg:<11} {one_line(' / '.join(ns))}" for lg, ns in info["names"].items()]
    if info["lists"]:
        out.append("  lists (newest of each family):")
        out += [
            f"    {s['family']:<14} {s['list']} ({s['effective']}): {s['status']}"
            for s in info["lists"]
        ]
    return out


def not_found_text(res: Any) -> tuple[str, list[str]]:
    """The stderr line saying why, and the candidate lines (stdout)."""
    what = "ambiguous" if res.status == "ambiguous" else "unknown card"
    tail = "; candidates:" if res.status == "ambiguous" else (
        "; did you mean:" if res.candidates else "")  # fmt: skip
    lines = [
        f"{m.card_id:>9}  {one_line(m.name)}  ({m.how} {m.score:.0f}: {one_line(m.matched)})"
        for m in res.candidates
    ]
    return f"{one_line(repr(res.query))}: {what}{tail}", lines
