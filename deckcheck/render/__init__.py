"""Output kinds for validation reports, one class per kind, all fed the same ``DeckReport``s.

A renderer is streamed: ``start(meta)``, then ``deck(report)`` once per deck as it is checked,
then ``finish(summary)``; nothing is kept per deck, so memory stays flat as a folder grows.
"""

from __future__ import annotations

import importlib
from typing import IO

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


__all__ = ["KINDS", "Meta", "Renderer", "make"]
