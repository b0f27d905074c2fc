"""The FastAPI application of ``deckcheck serve``: its routers, the engine injected into
them, the limits around them and the JSON every error is answered with.

``create_app(settings)`` builds one (the engine is loaded before it returns, so a data error
stops the service before it serves); ``from_environment`` is the factory each uvicorn
worker process calls (``--workers N``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException

from deckcheck import __version__
from deckcheck.decks.source import Limits
from deckcheck.service import api, submit
from deckcheck.service.checking import Checks
from deckcheck.service.errors import (
    STATUS_CODES,
    ServiceError,
    describe,
    error_body,
)
from deckcheck.service.host import EngineHost
from deckcheck.service.limits import ERROR_KEY, Guard
from deckcheck.service.pages import Pages
from deckcheck.service.protocol import HEAD_TIMEOUT
from deckcheck.service.settings import Settings
from deckcheck.service.submissions import Submissions

DESCRIPTION = """\
Yu-Gi-Oh! deck legality checks with every rule of `deckcheck validate`, its stable codes
(DC101…) and any event date; card search in any language; tournament submissions.

Every error is JSON: `{"status": 422, "error": "bad-parameter", "message": "…"}`.
"""


def engine_factory(settings: Settings) -> Callable[[], Checks]:
    """How the worker builds its engine (again whenever the installed data changes)."""
    limits = Limits(settings.max_body, settings.max_lines)
    date = settings.event_date()

    def make() -> Checks:
        return Checks(event_format=settings.format_id, event_date=date, limits=limits)

    return make


def create_app(settings: Settings, host: EngineHost | None = None) -> FastAPI:
    """The application, its engine loaded (DataError/InputError here, before serving)."""
    host = host or EngineHost(
        engine_factory(settings),
        max_pending=settings.max_pending,
        timeout=settings.request_timeout,
    )
    token = settings.token()
    store = Submissions(settings.submissions) if settings.submissions else None
    if store is not None:
        store.open()
    host.start()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        # the lifespan state reaches uvicorn's protocol (its deadline on a request's head)
        yield {HEAD_TIMEOUT: settings.head_timeout}
        host.close()

    app = FastAPI(
        title="deckcheck",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.host = host
    app.state.token = token
    app.state.store = store
    app.state.pages = Pages()
    app.include_router(api.router, tags=["checks"])
    app.include_router(submit.router, tags=["submissions"])
    _install_errors(app)
    app.add_middleware(
        Guard,
        max_body=settings.max_body,
        body_timeout=settings.body_timeout,
        log_requests=settings.access_log,
    )

    @app.get("/", include_in_schema=False)
    async def index() -> dict[str, Any]:
        return {
            "service": "deckcheck",
            "version": __version__,
            "docs": "/docs",
            "submit": "/submit" if store is not None else None,
        }

    return app


def _install_errors(app: FastAPI) -> None:
    """Every error as the same JSON body (a page for a browser's submission)."""

    def answer(request: Request, status: int, code: str, message: str, headers: Any) -> Response:
        request.scope[ERROR_KEY] = code  # for the access line
        if request.url.path.endswith("/submit") and submit.wants_html(request):
            page = request.app.state.pages.problem(message)
            return HTMLResponse(page, status_code=status, headers=headers)
        return Response(
            error_body(status, code, message),
            status_code=status,
            media_type="application/json",
            headers=headers,
        )

    async def service_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ServiceError)
        return answer(request, exc.status, exc.code, exc.message, exc.headers)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        code = STATUS_CODES.get(exc.status_code, "error")
        return answer(request, exc.status_code, code, str(exc.detail), exc.headers)

    async def invalid(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return answer(request, 422, "bad-parameter", describe(exc.errors()), None)

    async def internal(request: Request, exc: Exception) -> Response:
        # the framework's last resort (its own logging says what failed): no trace here
        return answer(request, 500, "internal", "internal error (logged by the service)", None)

    app.add_exception_handler(ServiceError, service_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(Exception, internal)


def from_environment() -> FastAPI:
    """The factory a uvicorn worker process calls: the settings ``deckcheck serve`` put in
    the environment."""
    return create_app(Settings.from_env())


__all__ = ["create_app", "engine_factory", "from_environment"]
