"""The list file layout deckcheck writes, and its fast reader: ``to_yaml`` writes one flow
mapping per line with JSON-quoted strings, ``fast_list_doc`` reads exactly that back without
the YAML constructor (which costs ~50 ms per big list); any other text is left to YAML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deckcheck import dates
from deckcheck.datafile import MAX_YAML_BYTES, read_text
from deckcheck.errors import InputError
from deckcheck.model import Banlist

# --------------------------------------------------------------------------- writer

# Characters YAML does not allow raw in a document (YAML 1.1 §5.1 "printable"); escaped.
# NEL and the Unicode line/paragraph separators are line breaks to YAML: escaped as well.
_NOT_PRINTABLE = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def _q(text: str) -> str:
    """A double-quoted scalar: JSON's escapes are YAML's, and other readers can json.loads it."""
    out = json.dumps(text, ensure_ascii=False)
    return _NOT_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def to_yaml(b: Banlist, notes: Sequence[str] = ()) -> str:
    """The list as a YAML file in the shape of docs/ARCHITECTURE.md (one entry per line)."""
    out = [
        f"name: {_q(b.name)}",
        f"family: {b.family}",
        f"effective: {b.effective.isoformat()}",
        f"date_exact: {'true' if b.date_exact else 'false'}",
        f"source: {_q(b.source)}",
        f"mode: {b.mode}",
    ]
    if notes:
        out.append("notes:")
        out.extend(f"  - {_q(n)}" for n in notes)

    def named(card: int) -> str:
        n = b.names.get(card)
        return f", name: {_q(n)}" if n else ""

    out.append("entries:" if b.limits else "entries: []")
    for card, lim in sorted(b.limits.items(), key=lambda kv: (kv[1], kv[0])):
        out.append(f"  - {{id: {card}{named(card)}, limit: {lim}}}")
    if b.groups:
        out.append("groups:")
        for g in b.groups:
            cards = ", ".join(str(c) for c in sorted(g.cards))
            out.append(f"  - {{name: {_q(g.name)}, limit: {g.limit}, cards: [{cards}]}}")
    if b.points:
        out.append("points:")
        for card, pts in sorted(b.points.items(), key=lambda kv: (kv[1], kv[0])):
            out.append(f"  - {{id: {card}{named(card)}, points: {pts}}}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- fast reader

_J = r'"(?:[^"\\]|\\.)*"'
_TOP = re.compile(
    r"^(name|source): (" + _J + r")$|^(family|mode): ([a-z0-9-]+)$"
    r"|^effective: (\d{4}-\d{2}-\d{2})$|^date_exact: (true|false)$"
    r"|^(notes|entries|groups|points):( \[\])?$"
)
_ITEM = re.compile(
    r"^  - \{(?:id: (\d+)(?:, name: (" + _J + r"))?, (limit|points): (\d+)"
    r"|name: (" + _J + r"), limit: (\d+), cards: \[([\d, ]*)\])\}$"
)
_NOTE = re.compile(r"^  - (" + _J + r")$")


def fast_list_doc(text: str) -> dict[str, Any] | None:
    """The document ``to_yaml`` wrote, as YAML would read it; None for any other text."""
    doc: dict[str, Any] = {}
    section: str | None = None
    for line in text.split("\n"):
        line = line.removesuffix("\r")
        if not line or line.startswith("#"):
            continue
        m = _TOP.match(line)
        if m:
            if m.group(1):
                doc[m.group(1)] = json.loads(m.group(2))
            elif m.group(3):
                doc[m.group(3)] = m.group(4)
            elif m.group(5):
                doc["effective"] = dates.parse_date(m.group(5))
            elif m.group(6):
                doc["date_exact"] = m.group(6) == "true"
            else:
                section = m.group(7)
                if section in doc:
                    return None
                doc[section] = []
            continue
        if section is None:
            return None
        if section == "notes":
            n = _NOTE.match(line)
            if n is None:
                return None
            doc["notes"].append(json.loads(n.group(1)))
            continue
        m = _ITEM.match(line)
        if m is None:
            return None
        if m.group(1):
            item: dict[str, Any] = {"id": int(m.group(1))}
            if m.group(2):
                item["name"] = json.loads(m.group(2))
            item[m.group(3)] = int(m.group(4))
        else:
            cards = [int(c) for c in m.group(7).split(",") if c.strip()]
            item = {"name": json.loads(m.group(5)), "limit": int(m.group(6)), "cards": cards}
        doc[section].append(item)
    return doc


def fast_list_file(path: Path) -> dict[str, Any] | None:
    """``fast_list_doc`` of a file; None when it cannot be read (the YAML loader says why)."""
    try:
        text = read_text(path, MAX_YAML_BYTES)
    except InputError:
        return None
    try:
        return fast_list_doc(text)
    except ValueError:
        return None
