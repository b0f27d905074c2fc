"""Notes from library code (``deckcheck: note: …`` lines), handed to one replaceable sink.

Library code never prints: it calls ``note(text)``. The CLI installs its sink (stderr through
click); a library user installs their own (``set_sink(notes.stderr_sink())`` gives the CLI's
lines). Until a sink is installed, notes are dropped: the library is silent, as a library
should be.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = [
    "Sink",
    "note",
    "progress",
    "set_progress_sink",
    "set_sink",
    "stderr_progress_sink",
    "stderr_sink",
]

Sink = Callable[[str], None]


def _stderr(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


_sink: Sink | None = None


def stderr_sink() -> Sink:
    """The default sink: one line on the current ``sys.stderr``."""
    return _stderr


def set_sink(sink: Sink | None) -> Sink | None:
    """Route notes to ``sink`` (None: drop them); returns the sink in place before."""
    global _sink
    old, _sink = _sink, sink
    return old


def _stderr_raw(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


_progress: Sink | None = None


def stderr_progress_sink() -> Sink:
    """The CLI's progress sink: the text as is on the current ``sys.stderr``."""
    return _stderr_raw


def set_progress_sink(sink: Sink | None) -> Sink | None:
    """Route progress text (``\r``-overwritten status lines) to ``sink``; returns the old one."""
    global _progress
    old, _progress = _progress, sink
    return old


def progress(text: str) -> None:
    """Hand progress text (as is, no newline added) to the progress sink, if any."""
    if _progress is not None:
        _progress(text)


def note(text: str) -> None:
    """Hand one line (``deckcheck: note: …``) to the installed sink, if any."""
    if _sink is not None:
        _sink(text)
