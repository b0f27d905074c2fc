"""The official lists an import refused, remembered beside the installed lists
(``official-faults.json``) so that ``db info`` can show them after the import."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from deckcheck.formats.official import Rejected

FAULTS_FILE = "official-faults.json"


def record(target: Path, bad: Sequence[Rejected]) -> None:
    """Refused lists are remembered beside the lists (``db info`` shows them)."""
    path = target / FAULTS_FILE
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = []
    if not isinstance(old, list):
        old = []
    seen = {(r.get("family"), r.get("effective"), r.get("source")) for r in old}
    new = list(old)
    for r in bad:
        key = (r.family, r.effective.isoformat(), r.source)
        if key not in seen:
            new.append(
                {"family": key[0], "effective": key[1], "source": key[2], "reason": r.reason}
            )
    if new != old:
        from deckcheck.formats.catalog import write_atomic

        write_atomic(path, json.dumps(new, ensure_ascii=False, indent=1))


def read_faults(target: Path) -> list[dict[str, str]]:
    """The refused official lists recorded in a list folder (for ``db info``)."""
    try:
        got = json.loads((target / FAULTS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [r for r in got if isinstance(r, dict)] if isinstance(got, list) else []
