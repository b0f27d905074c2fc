"""uvicorn's HTTP protocol with the deadline it lacks on a request's head: it closes idle
keep-alive connections, but not one that trickles a head a byte at a time (slowloris).

Named by an import string in the server's config (``server.PROTOCOL``), so every worker
process finds it; importing this module imports uvicorn.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

log = logging.getLogger("deckcheck.service")

#: the lifespan state key of the head deadline in seconds (``app.lifespan`` sets it)
HEAD_TIMEOUT = "deckcheck.head_timeout"
DEFAULT_HEAD_TIMEOUT = 10.0


class GuardedProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    """From the connection's start, and from each response's end, a client has the head
    deadline to send a whole request head; then the connection is closed (a request in
    flight is never cut: its body has ``limits.Guard``'s deadline)."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        seconds = self.app_state.get(HEAD_TIMEOUT, DEFAULT_HEAD_TIMEOUT)
        self._head_timer = self.loop.call_later(seconds, self._cut)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _cut(self) -> None:
        self._head_timer = None
        cycle = self.cycle
        if (cycle is None or cycle.response_complete) and not self.transport.is_closing():
            peer = self.client[0] if self.client else "?"
            log.warning("cut off %s: no whole request head within the deadline", peer)
            self.transport.close()


__all__ = ["DEFAULT_HEAD_TIMEOUT", "HEAD_TIMEOUT", "GuardedProtocol"]
