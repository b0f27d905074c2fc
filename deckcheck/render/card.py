"""Text output of ``card search`` and ``card show`` (their JSON is ``deckcheck.cardinfo``'s)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deckcheck.render.common import one_line
from deckcheck.render.table import table


def search_text(
    matches: Sequence[Any], kinds: Sequence[str], scopes: Sequence[str] | None = None
) -> list[str]:
    """A header, then one aligned line per match: passcode, name, kind, scope (what tells
    two cards of one name apart: an OCG card and its Rush reprint), how, score, matched."""
    if not matches:
        return []
    scopes = scopes or [""] * len(matches)
    rows = []
    for m, kind, scope in zip(matches, kinds, scopes, strict=True):
        matched = "" if m.matched == m.name else f"{one_line(m.matched)} [{m.lang}]"
        rows.append([m.card_id, one_line(m.name), kind, scope, m.how, f"{m.score:.1f}", matched])
    return table(["ID", "NAME", "KIND", "SCOPE", "HOW", "SCORE", "MATCHED"], rows, right=(0, 5))


def query_text(
    rows: Sequence[Any], names: Sequence[str], also: Sequence[list[int]] | None = None
) -> list[str]:
    """The cards a search-language query admits: a header and aligned columns (``also``:
    ``--all-ids``, each card's other passcodes in an ALSO column)."""
    if not rows:
        return []
    body = [
        [
            r.id,
            one_line(n),
            r.type_text(),
            r.attr_text(),
            r.race_text(),
            r.level_text(),
            r.atk_text(),
            r.def_text(),
            r.scope_text(),
        ]
        for r, n in zip(rows, names, strict=True)
    ]
    head = ["ID", "NAME", "TYPE", "ATTR", "RACE", "LV", "ATK", "DEF", "SCOPE"]
    if also is not None:
        head.append("ALSO")
        for line, ids in zip(body, also, strict=True):
            line.append(",".join(str(i) for i in ids))
    return table(head, body, right=(0, 5, 6, 7))


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
    if info.get("treated_as"):
        out.append(
            "  shares copies with: "
            + ", ".join(f"{t['name']} ({t['id']})" for t in info["treated_as"])
        )
    if info.get("releases"):
        out.append("  released:")
        out += [
            f"    {r['region']:<11} {r['date']}" + (f"  {r['set']}" if r.get("set") else "")
            for r in info["releases"]
        ]
    elif info.get("releases_note"):
        out.append(f"  released:   {info['releases_note']}")
    if info.get("archetypes"):
        out.append(
            "  archetypes: "
            + ", ".join(
                one_line(a["name"]) + (f" ({a['code']})" if a.get("code") else "")
                for a in info["archetypes"]
            )
        )
    if info.get("printings"):
        out.append(f"  printings ({len(info['printings'])}):")
        rows = [
            [
                p["code"] or "-",
                one_line(p["set"]),
                one_line(", ".join(p["rarities"])) or "-",
                p["date"] or "-",
            ]
            for p in info["printings"]
        ]
        out += ["    " + line for line in table(["CODE", "SET", "RARITY", "DATE"], rows)]
    if info.get("texts"):
        lang, text = next(iter(info["texts"].items()))
        out.append(f"  text [{lang}]: {one_line(text)}")
    if info.get("formats"):
        out.append(f"  formats on {info['date']}:")
        rows = [
            [
                f["name"],
                f["status"] + (f" ({f['reason']})" if f.get("reason") else ""),
                f"{f['list']} ({f['effective']})" if f.get("list") else "-",
            ]
            for f in info["formats"]
        ]
        out += ["    " + line for line in table(["FORMAT", "STATUS", "LIST"], rows)]
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
    tail = (
        "; candidates:"
        if res.status == "ambiguous"
        else ("; did you mean:" if res.candidates else "")
    )
    lines = [
        f"{m.card_id:>9}  {one_line(m.name)}  ({m.how} {m.score:.0f}: {one_line(m.matched)})"
        for m in res.candidates
    ]
    return f"{one_line(repr(res.query))}: {what}{tail}", lines
