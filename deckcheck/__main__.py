"""Entry point for ``python -m deckcheck``."""

from deckcheck.cli import entry

entry()
