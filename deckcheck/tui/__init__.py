"""The interactive deck builder (``deckcheck deck edit``): a Textual app, in a terminal or
served to a browser with textual-serve.

The package sits on the top floor beside ``commands/``: it calls the services the CLI
commands call (the validation engine through ``checking``, the deck editor, search, deck
stats) and nothing below imports it. Textual and textual-serve are the optional extra
``deckcheck[tui]``; only this package imports them, and only once the app starts.

``builder`` is the deck being edited (plain Python), ``searching`` the search box's results,
``checking`` every call into the validation engine and the card status, ``app`` and
``screens`` the Textual parts, ``serve`` the browser.
"""

from __future__ import annotations

import importlib

from deckcheck.errors import DeckcheckError

#: What ``pip install`` needs for the app, named in the error when it is missing.
EXTRA = "deckcheck[tui]"


class MissingExtra(DeckcheckError):
    """Textual (or textual-serve) is not installed: one line naming the extra."""


def require(serve: bool = False) -> None:
    """Import the app's libraries (the app imports them next anyway), or raise
    ``MissingExtra`` naming the extra."""
    needed = ["textual", *(["textual_serve"] if serve else [])]
    for name in needed:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            shown = name.replace("_", "-")
            why = "is not installed" if exc.name == name else f"cannot be imported ({exc})"
            raise MissingExtra(
                f'the deck editor needs {shown}, which {why}: pip install "{EXTRA}"'
            ) from None


__all__ = ["EXTRA", "MissingExtra", "require"]
