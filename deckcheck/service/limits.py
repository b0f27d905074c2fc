"""What keeps the service answering whatever its clients do: a cap on the body (413), a
deadline for the body (408), one access log line per request (JSON), and the last word on
errors (JSON, never a stack trace). ``Guard`` is the outermost ASGI layer; the deadline on
a request's head is ``protocol.GuardedProtocol``'s.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from deckcheck.service.errors import ServiceError, SlowBody, TooLarge

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: where the app's error handlers leave the error's code for the access line (the scope)
ERROR_KEY = "deckcheck.error"

access_log = logging.getLogger("deckcheck.service.access")
log = logging.getLogger("deckcheck.service")

#: after a body over the cap, the rest is read and dropped for at most this long and this
#: much, so a client that sends its whole body before reading gets the 413, not a reset
DRAIN_SECONDS = 2.0
DRAIN_BYTES = 32 * 1024 * 1024


class Guard:
    """The outermost layer: limits, the access log line, and errors nobody else caught."""

    def __init__(
        self, app: ASGIApp, *, max_body: int, body_timeout: float, log_requests: bool = True
    ):
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout
        self.log_requests = log_requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ex = _Exchange(time.perf_counter())

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                ex.status = message["status"]
            else:
                ex.sent += len(message.get("body", b""))
            await send(message)

        try:
            length = _content_length(scope)
            if length is not None and length > self.max_body:
                raise TooLarge(self._too_large())
            await self.app(scope, self._receiver(receive, ex), sending)
        except ServiceError as exc:  # raised before the app answered (the size check)
            ex.error = exc
            if ex.status is None:
                await _answer(sending, exc)
        except Exception as exc:  # noqa: BLE001  # a bug: logged here, a JSON 500 to the client
            log.error("internal error on %s %s: %r", scope["method"], scope["path"], exc)
            if ex.status is None:
                await _answer(sending, ServiceError("internal error (logged by the service)"))
        finally:
            if ex.drain:
                await _drain(receive)
            if self.log_requests:
                _log(scope, ex)

    def _too_large(self) -> str:
        return f"the request body is over the cap of {self.max_body:,} bytes"

    def _receiver(self, receive: Receive, ex: _Exchange) -> Receive:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout
        cap = self.max_body

        async def receiving() -> Message:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                ex.drain = False
                raise SlowBody(
                    f"the request body did not arrive within {self.body_timeout:g} s"
                ) from None
            if message["type"] == "http.request":
                ex.received += len(message.get("body", b""))
                if ex.received > cap:
                    ex.drain = message.get("more_body", False)
                    raise TooLarge(self._too_large())
            return message

        return receiving


class _Exchange:
    """One request as the guard sees it."""

    __slots__ = ("start", "status", "sent", "received", "error", "drain")

    def __init__(self, start: float):
        self.start = start
        self.status: int | None = None
        self.sent = 0
        self.received = 0
        self.error: ServiceError | None = None
        self.drain = False


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server refuses a malformed length before we see it
    return None


async def _answer(send: Send, exc: ServiceError) -> None:
    body = exc.body()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    headers += [(k.encode(), v.encode()) for k, v in (exc.headers or {}).items()]
    await send({"type": "http.response.start", "status": exc.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _drain(receive: Receive) -> None:
    """Read and drop what is left of a body over the cap (bounded in time and bytes)."""
    got = 0
    try:
        async with asyncio.timeout(DRAIN_SECONDS):
            while got < DRAIN_BYTES:
                message = await receive()
                if message["type"] != "http.request":
                    return
                got += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return
    except TimeoutError:
        return


def _log(scope: Scope, ex: _Exchange) -> None:
    now = time.time()
    client = scope.get("client")
    line = {
        "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z",
        "pid": os.getpid(),
        "client": client[0] if client else None,
        "method": scope["method"],
        "path": scope["path"],
        "status": ex.status,
        "ms": round((time.perf_counter() - ex.start) * 1000, 2),
        "in": ex.received,
        "out": ex.sent,
    }
    code = ex.error.code if ex.error is not None else scope.get(ERROR_KEY)
    if code is not None:
        line["error"] = code
    access_log.info(json.dumps(line, ensure_ascii=False))


__all__ = ["ERROR_KEY", "Guard"]
