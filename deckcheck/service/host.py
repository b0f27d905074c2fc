"""The engine of one worker process, used by one call at a time.

``call`` runs a call on the engine's own thread within a time cap, while the event loop
keeps serving connections (a name search or a report never stalls another request's
parsing nor a slow client's cut-off). ``now`` runs a call at once on the event loop when
the engine is free: a ``.ydk`` or ``ydke://`` check, bounded by the deck limits (about a
millisecond); through a thread and back it costs twice as much (measured in process: 0.58
ms a check through ``call``, 0.25 ms inline), and the threads then contend for the GIL.

Before each call the host looks at the installed data (``Checks.current``: two system
calls); when ``deckcheck update`` has switched the ``current`` link, that call builds an
engine over the new state and drops the old one. A call sees one engine from start to end
(the lock), so a request sees the old data or the new, never a mix.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from deckcheck import paths
from deckcheck.service.checking import Checks
from deckcheck.service.errors import Busy, TimedOut

T = TypeVar("T")
#: ``now``'s answer when the engine is in use on its thread (then ``call`` it)
BUSY = object()
log = logging.getLogger("deckcheck.service")


class EngineHost:
    """Runs calls ``fn(engine, *args)`` on the engine's thread, at most ``max_pending`` at
    once (503 beyond), each within a time cap (503 when it runs over)."""

    def __init__(
        self, factory: Callable[[], Checks], *, max_pending: int = 64, timeout: float = 10.0
    ):
        self._factory = factory
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="deckcheck-engine")
        self._engine: Checks | None = None
        self._lock = threading.Lock()  # one call at a time, on the thread or the loop
        self.max_pending = max_pending
        self.timeout = timeout  # a call's time cap unless it names its own
        self.pending = 0
        self.swaps = 0  # engines built after the first (data updates picked up)

    def start(self) -> None:
        """Build the engine now (a data error is raised here, before serving)."""
        self._pool.submit(self._run, lambda engine: None, ()).result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        if self._engine is not None:
            self._engine.close()
            self._engine = None
            paths.forget_state()  # the state it read is no longer held

    async def call(self, fn: Callable[..., T], *args: Any, timeout: float | None = None) -> T:
        if self.pending >= self.max_pending:
            raise Busy(f"{self.pending} requests are waiting for a check; try again shortly")
        self.pending += 1
        timeout = self.timeout if timeout is None else timeout
        try:
            future = self._pool.submit(self._run, fn, args)
            try:
                return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
            except TimeoutError:
                raise TimedOut(f"the request took longer than {timeout:g} s") from None
        finally:
            self.pending -= 1

    def now(self, fn: Callable[..., T], *args: Any) -> T | object:
        """``fn(engine, *args)`` here and now when the engine is free, else ``BUSY``."""
        if not self._lock.acquire(blocking=False):
            return BUSY
        try:
            return fn(self._current(), *args)
        finally:
            self._lock.release()

    def _run(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        with self._lock:
            return fn(self._current(), *args)

    def _current(self) -> Checks:
        engine = self._engine
        if engine is not None and engine.current():
            return engine
        paths.forget_state()  # the next reads resolve the state the link names now
        new = self._factory()
        if engine is not None:
            self.swaps += 1
            log.info("data changed: now serving %s", new.state)
            engine.close()
        self._engine = new
        return new


__all__ = ["BUSY", "EngineHost"]
