"""The cyclic garbage collector held off while a command starts (the console script only).

Start-up builds tens of thousands of long-lived objects: modules, the compiled list, card
rows, the rule table. Every automatic collection during start-up traverses all of them again,
and so does the one at interpreter exit: together about a tenth of a one-deck ``validate``.
``hold`` (by the console script) turns automatic collection off; ``resume`` (by a command when
its per-item work begins, or by the group before any other command) moves what start-up built
into the permanent generation (``gc.freeze``: never traversed again, and fork workers share it
unwritten) and turns collection back on. A process that did not call ``hold``, such as a test
or a library caller running ``cli.main`` in-process, is left exactly as it is.

At the end, ``leave`` ends the console script. After a command that said its work is all
written (``done``: ``validate``), the interpreter's teardown of every module and object
(about 10 ms after a one-deck ``validate``, invisible to anyone) is skipped: what a normal
exit does that can be seen (the atexit callbacks, flushing stdout and stderr, the exit code)
is done, then ``os._exit``. Anything that could see the difference gets the normal
``sys.exit``: another thread running, a profiler or tracer (cProfile, coverage, a debugger),
``python -i``, a flush that fails, or ``entry`` called from a program rather than as the
program (its caller is not ``__main__``).
"""

from __future__ import annotations

import gc
import os
import sys
from typing import NoReturn

_held = False
_done = False


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


def done() -> None:
    """The command has written everything (its files are closed, its output is in
    sys.stdout/sys.stderr): ``leave`` may skip the interpreter's teardown."""
    global _done
    _done = True


def leave(code: int, caller: str | None) -> NoReturn:
    """End the process with ``code`` as ``sys.exit(code)`` would; without the teardown when
    the command said ``done`` and nothing could tell (see the module docstring).
    ``caller``: the ``__name__`` of the module that called the console script's entry."""
    if _done and caller == "__main__" and _unobserved():
        import atexit

        try:
            atexit._run_exitfuncs()  # what Py_Finalize runs first (they are then cleared)
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001 - a failed flush: the normal exit reports it
            sys.exit(code)
        os._exit(code)
    sys.exit(code)


def _unobserved() -> bool:
    threading = sys.modules.get("threading")
    return (
        (threading is None or threading.active_count() == 1)
        and sys.getprofile() is None
        and sys.gettrace() is None
        and not sys.flags.inspect
        and not os.environ.get("PYTHONINSPECT")
    )
