"""deckcheck: Yu-Gi-Oh! deck builder and format-legality checker."""

__version__ = "0.1.0"
