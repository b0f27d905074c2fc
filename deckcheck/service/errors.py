"""The service's errors: each one status, one short code and one message a client can show,
always as the same JSON body (``{"status": 413, "error": "too-large", "message": "…"}``),
never a stack trace.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from starlette.exceptions import HTTPException


class ServiceError(HTTPException):
    """An error answered as JSON with ``status``. An ``HTTPException``, so the framework
    hands it on as it is when it comes up while a body is parsed (a form over the cap)."""

    status = 500
    code = "internal"
    #: headers the answer carries (``connection: close``: the rest of the body was not read)
    sends: ClassVar[dict[str, str]] = {}

    def __init__(self, message: str, *, status: int | None = None, code: str | None = None):
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code
        self.message = message
        super().__init__(self.status, message, dict(self.sends))

    def __str__(self) -> str:
        return self.message

    def body(self) -> bytes:
        return error_body(self.status, self.code, self.message)


class Unreadable(ServiceError):
    status, code = 400, "unreadable"


class BadRequest(ServiceError):
    status, code = 400, "bad-request"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"
    sends: ClassVar[dict[str, str]] = {"www-authenticate": 'Bearer realm="deckcheck"'}


class NotFound(ServiceError):
    status, code = 404, "not-found"


class SlowBody(ServiceError):
    status, code = 408, "timeout"
    sends: ClassVar[dict[str, str]] = {"connection": "close"}


class TooLarge(ServiceError):
    status, code = 413, "too-large"
    sends: ClassVar[dict[str, str]] = {"connection": "close"}


class BadParameter(ServiceError):
    status, code = 422, "bad-parameter"


class Busy(ServiceError):
    status, code = 503, "busy"
    sends: ClassVar[dict[str, str]] = {"retry-after": "1"}


class TimedOut(ServiceError):
    status, code = 503, "timeout"


class Unavailable(ServiceError):
    status, code = 503, "unavailable"


def error_body(status: int, code: str, message: str) -> bytes:
    return json.dumps(
        {"status": status, "error": code, "message": message}, ensure_ascii=False
    ).encode()


#: a status the framework answers by itself (routing, methods) -> the code of its JSON body
STATUS_CODES: dict[int, str] = {
    400: "bad-request",
    401: "unauthorized",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    413: "too-large",
    415: "unsupported-media-type",
    422: "bad-parameter",
    500: "internal",
}


def describe(errors: Any) -> str:
    """pydantic/FastAPI validation errors as one sentence: ``where: what; …``."""
    parts = []
    for e in errors:
        loc = [str(x) for x in e.get("loc", ()) if x not in ("query", "body", "path", "header")]
        parts.append(f"{'.'.join(loc) or 'request'}: {e.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


__all__ = [
    "STATUS_CODES",
    "BadParameter",
    "BadRequest",
    "Busy",
    "NotFound",
    "ServiceError",
    "SlowBody",
    "TimedOut",
    "TooLarge",
    "Unauthorized",
    "Unavailable",
    "Unreadable",
    "describe",
    "error_body",
]
