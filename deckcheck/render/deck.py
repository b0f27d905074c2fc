"""Text and JSON output of ``deck show`` and ``deck stats``: every name and path on one line
(``one_line``), JSON keeping them exact."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from deckcheck.render.common import one_line
from deckcheck.render.table import table

SECTIONS = ("main", "extra", "side")
SECTION_LABEL = {"main": "Main Deck", "extra": "Extra Deck", "side": "Side Deck"}


def finding_line(f: Any) -> str:
    """One finding as one line: where, code, rule, message (its lines joined, escaped)."""
    where = f.section or "deck"
    if f.line is not None:
        where += f":{f.line}"
    return one_line(f"{where} {f.code} [{f.rule}] {' '.join(f.message.splitlines())}")


def legality_lines(chk: Any, fmt: Any, date: dt.date) -> list[str]:
    """The verdict in the format on ``date``, then a note and the findings, one line each."""
    r = chk.report
    under = fmt.name + (f", {r.list_label}" if r.list_label else "")
    verdict = "legal" if r.legal else f"illegal ({r.errors} problem{'s' * (r.errors != 1)})"
    out = [one_line(f"{verdict} in {under} on {date.isoformat()}")]
    if chk.skipped:
        out.append(one_line(f"note: {chk.skipped}"))
    out.extend("  " + finding_line(f) for f in r.findings)
    return out


def show_json(
    path: str,
    kind: str,
    fmt: Any,
    chk: Any,
    date: dt.date,
    counts: dict[str, int],
    groups: dict[str, Any],
) -> str:
    doc = {
        "schema_version": 1,
        "input": path,
        "kind": kind,
        "format": {"id": fmt.id, "name": fmt.name},
        "banlist": (
            {"name": chk.banlist.name, "effective": chk.banlist.effective.isoformat()}
            if chk.banlist
            else None
        ),
        "list_skipped": chk.skipped,
        "date": date.isoformat(),
        "counts": counts,
        "sections": {
            sec: [
                {
                    "kind": g.kind,
                    "count": g.count,
                    "cards": [
                        {"id": ln.card_id, "name": ln.name, "count": ln.count, "line": ln.line}
                        for ln in g.lines
                    ],
                }
                for g in groups[sec]
            ]
            for sec in SECTIONS
        },
        "legal": chk.report.legal,
        "findings": [f.to_json() for f in chk.report.findings],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2)


def show_text(
    path: str,
    kind: str,
    fmt: Any,
    chk: Any,
    date: dt.date,
    counts: dict[str, int],
    groups: dict[str, Any],
) -> str:
    out = [f"{one_line(path)} ({kind})"]
    for sec in SECTIONS:
        if sec != "main" and not counts[sec]:
            continue
        out.append(f"{SECTION_LABEL[sec]} ({counts[sec]})")
        for g in groups[sec]:
            out.append(f"  {one_line(g.kind.capitalize())} ({g.count})")
            for ln in g.lines:
                tag = f"  [{ln.card_id}]" if ln.card_id is not None else "  [unresolved]"
                out.append(f"    {ln.count} {one_line(ln.name)}{tag}")
    out.extend(legality_lines(chk, fmt, date))
    return "\n".join(out)


def _odds_json(o: Any) -> dict[str, Any]:
    return {
        "name": o.label,
        "ids": o.ids,
        "copies": o.copies,
        "p_at_least_one": o.p_any,
        "p_exactly": o.exactly,
    }


def stats_json(
    path: str,
    hand: int,
    n_main: int,
    comp: dict[str, Any],
    per_card: list[Any],
    groups: list[Any],
    p_each: float | None,
) -> str:
    doc: dict[str, Any] = {
        "schema_version": 1,
        "input": path,
        "hand": hand,
        "main": n_main,
        "composition": comp,
        "cards": [_odds_json(o) for o in per_card],
        "groups": [_odds_json(o) for o in groups],
    }
    if p_each is not None:  # P(at least one of each group), beside each group's own odds
        doc["p_each"] = p_each
    return json.dumps(doc, ensure_ascii=False, indent=2)


def groups_text(
    hand: int, n_main: int, groups: list[Any], p_each: float | None, exact_table: bool = False
) -> str:
    """Cards named with --card: only their odds (at least one of each group; with
    ``exact_table``, P(exactly k) of the group's copies too)."""
    rows: list[list[object]] = []
    for o in groups:
        row: list[object] = [f"{o.p_any * 100:.2f}%", o.copies, o.label]
        if exact_table:
            row.append(_exactly(o))
        rows.append(row)
    heads = ["P(≥1)", "COPIES", "CARDS"] + (["P(exactly k)"] if exact_table else [])
    out = [f"Opening hand of {hand} from {n_main}:"]
    out += ["  " + line for line in table(heads, rows, right=(0, 1))]
    if p_each is not None and len(groups) > 1:
        out.append(f"  P(at least one of each of the {len(groups)}): {p_each * 100:.2f}%")
    return "\n".join(out)


def stats_text(
    path: str, hand: int, n_main: int, comp: dict[str, Any], per_card: list[Any], exact_table: bool
) -> str:
    c = comp["counts"]
    out = [f"{one_line(path)}: main {c['main']}, extra {c['extra']}, side {c['side']}"]
    avg = comp["average_level"]
    comp_rows: list[list[object]] = []
    for label, key in (
        ("Main Deck", "main"),
        ("subtypes", "subtypes"),
        ("levels", "levels"),
        ("attributes", "attributes"),
        ("types", "types"),
        ("Extra Deck", "extra"),
    ):
        items = list(comp[key].items())
        if key == "levels":
            items = [(f"level {k}", v) for k, v in items]
        for i, (k, v) in enumerate(items):
            comp_rows.append([label if i == 0 else "", k, v])
    out += ["  " + line for line in table(["GROUP", "WHAT", "COPIES"], comp_rows, right=(2,))]
    if avg:
        out.append(f"  average level {avg}")
    out.append(f"Opening hand of {hand} from {n_main}:")
    odds_rows = []
    for o in sorted(per_card, key=lambda o: -o.p_any):
        row: list[object] = [f"{o.p_any * 100:.2f}%", o.copies, o.label]
        if exact_table:
            row.append(_exactly(o))
        odds_rows.append(row)
    heads = ["P(≥1)", "COPIES", "CARD"] + (["P(exactly k)"] if exact_table else [])
    out += ["  " + line for line in table(heads, odds_rows, right=(0, 1))]
    return "\n".join(out)


def _exactly(o: Any) -> str:
    return " ".join(f"{k}:{p * 100:.2f}%" for k, p in enumerate(o.exactly))
