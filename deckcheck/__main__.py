"""Entry point for ``python -m deckcheck``: what the console script runs."""

from deckcheck.console import main

main()
