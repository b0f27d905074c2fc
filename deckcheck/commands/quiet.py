"""Quiet by default (issue 32): the notes of a long command (``update``, ``banlist import``)
are counted by kind and said in a few lines at its end, so a CI log stays short;
``-v/--verbose`` says each one as it comes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from types import TracebackType

import click

from deckcheck import notes

#: (what a note says, how the summary counts it), first match wins; the rest is "other".
KINDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), label)
    for pattern, label in (
        (r"differ on \d+ card", "list(s) two sources disagree on (the official one kept)"),
        (r"map to no card", "list(s) with entries that map to no card (left out)"),
        (r"skipped \(optional file", "optional file(s) not in the source"),
        (r"kept the official list", "list(s) kept from the official source"),
        (r"cards\.json|rush\.json|skill\.json|YGOJSON", "card data mapping note(s)"),
        (r"imported with 'db import'; applied again", "file(s) from 'db import' applied again"),
    )
)
_WARNING = "deckcheck: warning: "
#: ``formats.official.Rejected.message``: "<family> <date> (<source>) not installed: …"
_REFUSED = re.compile(r"(\S+ \d{4}-\d\d-\d\d) \(.*?\) not installed: ")
#: other warnings are said whole, this many at most
_OTHER_WARNINGS = 3


def verbose_option(f: Callable[..., object]) -> Callable[..., object]:
    return click.option(
        "-v",
        "--verbose",
        is_flag=True,
        help="Say every note as it comes (the default counts them by kind at the end).",
    )(f)


class NoteTally:
    """While open (and not ``verbose``), the library's notes are counted instead of said;
    ``lines(details)`` gives the summary. A note that says the command waits (for another
    import's lock) is said at once: the user must know why nothing happens."""

    def __init__(self, verbose: bool):
        self.verbose = verbose
        self.notes: list[str] = []
        self._old: notes.Sink | None = None

    def __enter__(self) -> NoteTally:
        if not self.verbose:
            self._old = notes.set_sink(self.add)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not self.verbose:
            notes.set_sink(self._old)

    def add(self, text: str) -> None:
        if self.verbose or "waiting for it" in text:
            click.echo(text, err=True)
        else:
            self.notes.append(text)

    def lines(self, details: str) -> list[str]:
        """The summary of what was counted: notes by kind, the warnings with what they name
        (a list refused as an upstream fault is news: "genesys 2026-08-14"), where to look."""
        if not self.notes:
            return []
        said: Counter[str] = Counter()
        refused: list[str] = []
        other: list[str] = []
        for text in self.notes:
            if not text.startswith(_WARNING):
                said[next((label for p, label in KINDS if p.search(text)), "other note(s)")] += 1
            elif m := _REFUSED.match(text, len(_WARNING)):
                refused.append(m.group(1))
            else:
                other.append(text)
        out = []
        if said:
            out.append(f"deckcheck: {sum(said.values())} note(s): {_counts(said)}")
        if refused:
            out.append(
                f"deckcheck: warning: {len(refused)} upstream list(s) refused as faults (the "
                f"previous list stays in force): {', '.join(refused)}"
            )
        out.extend(other[:_OTHER_WARNINGS])
        if len(other) > _OTHER_WARNINGS:
            out.append(f"deckcheck: warning: and {len(other) - _OTHER_WARNINGS} more warning(s)")
        out.append(f"deckcheck: details: {details}")
        return out


def _counts(tally: Counter[str]) -> str:
    return ", ".join(f"{n} {label}" for label, n in tally.most_common())
