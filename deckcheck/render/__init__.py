"""Output kinds for validation reports, one class per kind, all fed the same ``DeckReport``s.

A renderer is streamed (``batch.stream``): ``start(meta)``, then ``deck(report)`` once per deck
as it is checked (or ``write_decks`` of what a worker rendered), then ``finish(summary)``;
nothing is kept per deck, so memory stays flat as a folder grows.
"""

from __future__ import annotations

import importlib
import os
from typing import IO, Any

from deckcheck.render.base import Meta, Renderer

KINDS: dict[str, tuple[str, str]] = {
    "text": ("deckcheck.render.text", "TextRenderer"),
    "json": ("deckcheck.render.json", "JsonRenderer"),
    "github": ("deckcheck.render.github", "GithubRenderer"),
    "junit": ("deckcheck.render.junit", "JunitRenderer"),
    "csv": ("deckcheck.render.csv", "CsvRenderer"),
    "html": ("deckcheck.render.html", "HtmlRenderer"),  # issue 17
}


def make(kind: str, out: IO[str], err: IO[str], *, color: bool = False) -> Renderer:
    """The renderer for ``kind`` writing machine output to ``out`` and notes to ``err``."""
    module, attr = KINDS[kind]
    cls = getattr(importlib.import_module(module), attr)
    renderer: Renderer = cls(out, err, color=color)
    return renderer


def default_kind() -> str:
    """text, or github inside GitHub Actions."""
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def use_color(stream: Any, choice: str = "auto") -> bool:
    """Whether text output to ``stream`` gets colour: ``choice`` is ``--color`` (always,
    never, auto). For auto: a non-empty NO_COLOR turns it off (no-color.org: an empty value
    does not), else a non-empty FORCE_COLOR turns it on, else only a terminal gets colour."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def escaping(stream: Any) -> Any:
    """``stream`` set to escape what it cannot encode (click's get_text_stream is deprecated).

    A file name that is not UTF-8 reaches Python as lone surrogates: they are printed escaped
    (as Python's own stderr does) rather than fail with UnicodeEncodeError mid-report.
    """
    try:
        stream.reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError, OSError):
        pass  # not a TextIOWrapper (or already in use): write to it as it is
    return stream


__all__ = ["KINDS", "Meta", "Renderer", "default_kind", "escaping", "make", "use_color"]
