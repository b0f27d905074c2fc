"""The cyclic garbage collector held off while a command starts (the console script only).

Start-up builds tens of thousands of long-lived objects: modules, the compiled list, card
rows, the rule table. Every automatic collection during start-up traverses all of them again,
and so does the one at interpreter exit: together about a tenth of a one-deck ``validate``.
``hold`` (by the console script) turns automatic collection off; ``resume`` (by a command when
its per-item work begins, or by the group before any other command) moves what start-up built
into the permanent generation (``gc.freeze``: never traversed again, and fork workers share it
unwritten) and turns collection back on. A process that did not call ``hold``, such as a test
or a library caller running ``cli.main`` in-process, is left exactly as it is.
"""

from __future__ import annotations

import gc

_held = False


def hold() -> None:
    """Automatic collection off until ``resume`` (the console script calls this first)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def resume() -> None:
    """Start-up is over: its objects are frozen out of later collections, collection is on."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()


def finish() -> None:
    """The process is about to exit: nothing it built needs the final collection's traversal."""
    gc.freeze()
