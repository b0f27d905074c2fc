"""The cyclic garbage collector held off while a command starts (the console script only).

Start-up builds tens of thousands of long-lived objects: modules, the compiled list, card
rows, the rule table. Every automatic collection during start-up traverses all of them again,
and so does the one at interpreter exit: together about 15% of a one-deck ``validate``
(measured: benchmarks/README.md, "P1"). ``hold`` (by the console script) turns automatic
collection off; ``resume`` (by a command when its per-item work begins, or by the group
before any command the command table, ``cli.COMMANDS``, does not mark ``HELD``) moves what
start-up built into the permanent generation (``gc.freeze``: never traversed again, and fork
workers share it unwritten) and turns collection back on; ``finish`` (before the exit)
freezes what is left, so the collection at exit traverses nothing. A process that did not call
``hold``, such as a test or a library caller running ``cli.main`` in-process, is left exactly
as it is; so is every process with ``DECKCHECK_PLAIN_START=1`` in its environment (the plain
path, for a profiler or a doubt: the same output and exit code, tests/test_cli_main.py).
"""

from __future__ import annotations

import gc
import os

#: set (to 1) in the environment: the console script starts as a plain Python program
PLAIN_ENV = "DECKCHECK_PLAIN_START"

_held = False


def plain() -> bool:
    """The collector is left alone (``DECKCHECK_PLAIN_START=1``)."""
    return os.environ.get(PLAIN_ENV, "") not in ("", "0")


def hold() -> None:
    """Automatic collection off until ``resume`` (the console script calls this first)."""
    global _held
    if gc.isenabled() and not plain():
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
    """The console script is about to exit: nothing it built needs the final collection's
    traversal."""
    if not plain():
        gc.freeze()
