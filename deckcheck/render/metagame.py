"""Output of ``deckcheck meta``: the metagame breakdown (``metagame.Breakdown``) as text,
JSON, CSV or a self-contained HTML page; the HTML section is the same one ``validate -o html``
shows (``templates/metagame.html.j2``). Renderers get the breakdown, never the database."""

from __future__ import annotations

from typing import Any

from deckcheck.archetype import MIXED, THRESHOLD
from deckcheck.render.common import environment, one_line, to_json
from deckcheck.render.table import table

SECTIONS = ("main", "extra", "side")
#: the rule as every output states it
RULE = (
    "a deck's archetype is the one with the most Main Deck copies (ties: more different "
    f"cards, then the more specific archetype, then the name); below {THRESHOLD:.0%} of the "
    f"Main Deck it is '{MIXED}'"
)


def _pct(x: float) -> str:
    return f"{x:.1f}%"


def _avg(x: float | None) -> str:
    return "" if x is None else f"{x:.2f}"


def card_label(c: Any) -> str:
    return f"{c.name if c.name is not None else 'unknown card'} ({c.card_id})"


def headline(b: Any) -> str:
    """One line: decks counted, unreadable ones, legality against the format."""
    n = b.counted
    line = f"{n} deck{'s' * (n != 1)} counted"
    if b.unreadable:
        u = len(b.unreadable)
        line += f", {u} unreadable (not counted, listed below)"
    if b.target is not None:
        t = b.target
        under = t.fmt.name + (f", {t.banlist.name}" if t.banlist else "")
        line += f"; {under} on {t.date.isoformat()}: {b.legal} legal, {b.illegal} illegal"
    return line


def text(b: Any, top: int = 25) -> str:
    """The breakdown as aligned text: archetypes, the ``top`` cards (0: every card), the
    unreadable decks."""
    out = [one_line(f"Metagame: {headline(b)}")]
    out.append("")
    if b.archetypes_missing is not None:
        out.append(one_line(f"Archetypes: not available: {b.archetypes_missing}"))
    else:
        out.append(f"Archetypes ({RULE}):")
        legality = b.target is not None
        heads = ["decks", "share", *(["legal", "illegal"] if legality else []), "archetype"]
        rows = [
            [
                a.decks,
                _pct(a.share),
                *([a.legal, a.illegal] if legality else []),
                a.name + (f" ({a.code})" if a.code else ""),
            ]
            for a in b.archetypes
        ]
        out += ["  " + line for line in table(heads, rows, right=range(len(heads) - 1))]
    out.append("")
    shown = b.cards if top <= 0 else b.cards[:top]
    what = "every card" if len(shown) == len(b.cards) else f"the top {len(shown)}"
    out.append(
        f"Cards ({what} of {len(b.cards)} played, by decks playing them; share = % of decks; "
        "avg = copies when played; main/extra/side = decks playing it there):"
    )
    heads = ["decks", "share", "avg", "main", "extra", "side", "card"]
    rows = [
        [
            c.use.decks,
            _pct(c.use.share),
            _avg(c.use.average),
            *(c.sections[s].decks for s in SECTIONS),
            card_label(c),
        ]
        for c in shown
    ]
    out += ["  " + line for line in table(heads, rows, right=range(6))]
    if b.unreadable:
        out.append("")
        out.append("Unreadable (not counted):")
        out += [one_line(f"  {src}: {why}") for src, why in b.unreadable]
    lost = [d for d in b.decks if d.unresolved]
    if lost:
        out.append("")
        out.append(
            f"{len(lost)} deck{'s' * (len(lost) != 1)} with lines not read or names not "
            "resolved (those copies are not counted; `deckcheck validate` lists them):"
        )
        out += [
            one_line(f"  {d.input}: {d.unresolved} cop{'ies' if d.unresolved != 1 else 'y'}")
            for d in lost
        ]
    return "\n".join(out)


def _use(u: Any) -> dict[str, Any]:
    return {"decks": u.decks, "share": u.share, "average": u.average}


def document(b: Any) -> dict[str, Any]:
    """The JSON document (docs/META.md): ``archetypes``, ``cards``, ``decks``, ``unreadable``."""
    t = b.target
    return {
        "schema_version": 1,
        "summary": {
            "inputs": b.counted + len(b.unreadable),
            "decks": b.counted,
            "unreadable": len(b.unreadable),
            "legal": b.legal,
            "illegal": b.illegal,
        },
        "format": {"id": t.fmt.id, "name": t.fmt.name} if t is not None else None,
        "banlist": (
            {"name": t.banlist.name, "effective": t.banlist.effective.isoformat()}
            if t is not None and t.banlist is not None
            else None
        ),
        "date": t.date.isoformat() if t is not None else None,
        "rule": {"threshold": THRESHOLD, "mixed": MIXED, "text": RULE},
        "archetypes_missing": b.archetypes_missing,
        "archetypes": [
            {
                "name": a.name,
                "code": a.code,
                "decks": a.decks,
                "share": a.share,
                "legal": a.legal,
                "illegal": a.illegal,
                "inputs": list(a.inputs),
            }
            for a in b.archetypes
        ],
        "cards": [
            {
                "id": c.card_id,
                "name": c.name,
                **_use(c.use),
                "sections": {s: _use(c.sections[s]) for s in SECTIONS},
            }
            for c in b.cards
        ],
        "decks": [
            {
                "input": d.input,
                "archetype": d.archetype,
                "archetype_code": d.pick.code if d.pick is not None else None,
                "archetype_copies": d.pick.copies if d.pick is not None else None,
                "nearest": d.pick.nearest if d.pick is not None else None,
                **d.counts,
                "unresolved": d.unresolved,
                "legal": d.legal,
                "errors": d.errors if t is not None else None,
            }
            for d in b.decks
        ],
        "unreadable": [{"input": src, "reason": why} for src, why in b.unreadable],
    }


def json_text(b: Any) -> str:
    return to_json(document(b))


#: CSV columns: one table, a ``kind`` column telling the rows apart (archetype, card, deck,
#: unreadable), so that a spreadsheet filters on it; a row fills the columns of its kind
CSV_HEADER = [
    "kind",
    "name",
    "id",
    "input",
    "archetype",
    "decks",
    "share",
    "average",
    *(f"{s}_{m}" for s in SECTIONS for m in ("decks", "share", "average")),
    *SECTIONS,
    "legal",
    "illegal",
    "reason",
]


def _csv_rows(b: Any) -> Any:
    for a in b.archetypes:
        yield {
            "kind": "archetype",
            "name": a.name,
            "id": a.code,
            "decks": a.decks,
            "share": a.share,
            "legal": a.legal,
            "illegal": a.illegal,
        }
    for c in b.cards:
        row = {"kind": "card", "name": c.name, "id": c.card_id, **_use(c.use)}
        for s in SECTIONS:
            row.update({f"{s}_{k}": v for k, v in _use(c.sections[s]).items()})
        yield row
    for d in b.decks:
        yield {
            "kind": "deck",
            "input": d.input,
            "archetype": d.archetype,
            **d.counts,
            "legal": None if d.legal is None else str(d.legal).lower(),
        }
    for src, why in b.unreadable:
        yield {"kind": "unreadable", "input": src, "reason": why}


def csv_text(b: Any) -> str:
    """The breakdown as one CSV table (``CSV_HEADER``); every cell neutralised against
    formula injection (``render.csv.cell``: a file or card name that starts like a formula)."""
    import csv
    import io

    from deckcheck.render.csv import cell

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for row in _csv_rows(b):
        w.writerow([cell("" if row.get(k) is None else row[k]) for k in CSV_HEADER])
    return buf.getvalue()


#: bars the archetype chart draws at most (the table lists every archetype)
MAX_BARS = 25
_BAR_W = 400


def _short(name: str, n: int = 34) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


def html_view(b: Any, href: Any = None) -> dict[str, Any]:
    """What ``templates/metagame.html.j2`` shows of ``b``; ``href(input)``: the link of a
    deck (None: not linked)."""
    link = href or (lambda _input: None)
    top = max((a.decks for a in b.archetypes), default=0)
    bars = [
        {
            "name": a.name,
            "short": _short(a.name),
            "decks": a.decks,
            "share": _pct(a.share),
            "mixed": a.name == MIXED,
            "w": round(_BAR_W * a.decks / top, 1) if top else 0,
        }
        for a in b.archetypes[:MAX_BARS]
    ]
    archetypes = [
        {
            "name": a.name,
            "code": a.code,
            "decks": a.decks,
            "share": _pct(a.share),
            "legal": a.legal,
            "illegal": a.illegal,
            "decks_linked": [{"label": i, "href": link(i)} for i in a.inputs],
        }
        for a in b.archetypes
    ]
    cards = [
        {
            "id": c.card_id,
            "name": c.name if c.name is not None else "unknown card",
            "decks": c.use.decks,
            "share": _pct(c.use.share),
            "average": _avg(c.use.average),
            "sections": [
                {"decks": c.sections[s].decks, "average": _avg(c.sections[s].average)}
                for s in SECTIONS
            ],
        }
        for c in b.cards
    ]
    more = len(b.archetypes) - len(bars)
    return {
        "headline": headline(b),
        "counted": b.counted,
        "rule": RULE[0].upper()
        + RULE[1:]
        + (f"; the chart shows the top {len(bars)} ({more} more in the table)" if more > 0 else ""),
        "archetypes_missing": b.archetypes_missing,
        "legality": b.target is not None,
        "bars": bars,
        "archetypes": archetypes,
        "cards": cards,
        "cards_note": (
            f"{len(cards)} cards, by decks playing them (Main + Extra + Side); share = % of the "
            f"{b.counted} decks; avg = copies when played; per section the same"
        ),
        "sections": SECTIONS,
        "unreadable": [{"input": src, "reason": why} for src, why in b.unreadable],
        "decks": [
            {
                "anchor": f"mg-deck-{i}",
                "input": d.input,
                "archetype": d.archetype or "",
                **d.counts,
                "legal": d.legal,
            }
            for i, d in enumerate(b.decks, 1)
        ],
    }


def macros() -> Any:
    """The macros of ``templates/metagame.html.j2`` (the report's jinja2 environment)."""
    return environment().get_template("metagame.html.j2").module


def html_page(b: Any) -> str:
    """The whole page of ``deckcheck meta -o html``: the section, then every deck (each
    archetype links to its decks' rows)."""
    at = {d.input: f"#mg-deck-{i}" for i, d in enumerate(b.decks, 1)}
    return str(macros().page(html_view(b, at.get)))
