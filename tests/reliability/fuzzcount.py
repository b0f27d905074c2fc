"""How many inputs each reader was really given in a fuzz run (not the max_examples setting):
counted per call, printed at the end of the module's tests and, with
``DECKCHECK_FUZZ_STATS=FILE``, added to a JSON file (reader -> inputs, one-line errors)."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

INPUTS: Counter[str] = Counter()
ERRORS: Counter[str] = Counter()  # inputs the reader refused with one clear line


def count(reader: str, refused: bool) -> None:
    INPUTS[reader] += 1
    if refused:
        ERRORS[reader] += 1


def report() -> str | None:
    if not INPUTS:
        return None
    stats = os.environ.get("DECKCHECK_FUZZ_STATS")
    if stats:
        p = Path(stats)
        old = json.loads(p.read_text()) if p.is_file() else {}
        for r, n in INPUTS.items():
            cur = old.get(r, {"inputs": 0, "refused": 0})
            old[r] = {"inputs": cur["inputs"] + n, "refused": cur["refused"] + ERRORS[r]}
        p.write_text(json.dumps(old, indent=2, sort_keys=True) + "\n")
    text = ", ".join(f"{r} {n} ({ERRORS[r]} refused)" for r, n in sorted(INPUTS.items()))
    INPUTS.clear()
    ERRORS.clear()
    return f"fuzz inputs per reader: {text}; 0 internal errors"


@pytest.fixture(scope="module", autouse=True)
def fuzz_counts_printed() -> Iterator[None]:
    """Autouse in a module that imports it: the module's counts printed after its tests."""
    yield
    line = report()
    if line:
        print("\n" + line)
