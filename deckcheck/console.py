"""The ``deckcheck`` console script and ``python -m deckcheck``: ``main`` holds the cyclic
garbage collector off (``deckcheck.startup.hold``) before the CLI and click are imported, then
runs ``cli.entry``.

Importing click and the command group is where most of start-up's automatic collections
happen: holding them off from this first line, not from ``cli.entry`` on, saves 4.7M of a
one-deck ``validate``'s 228M instructions (callgrind); with the rest of the start-up tricks
the console script starts in 224M instead of the plain path's 260M (``benchmarks/README.md``,
"P1"). ``DECKCHECK_PLAIN_START=1`` turns them off (the collector is left alone), and
``tests/test_cli_main.py`` holds both paths to the same output.
"""

from __future__ import annotations

# Nothing else is imported before the hold: ``typing`` alone (click imports it anyway) set off
# 15 collections, 3.4M of a one-deck validate's 221.2M instructions (callgrind, 2026-12-05).
from deckcheck import startup


def main() -> None:
    """Hold the collector, import the CLI, run it and exit with its code (never returns:
    ``cli.entry`` ends in ``sys.exit``)."""
    startup.hold()
    from deckcheck.cli import entry

    entry()
