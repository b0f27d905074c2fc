"""Tournament submissions: ``GET /submit`` (the upload page), ``POST /submit`` (store a deck,
answer its verdict), and the organiser's ``GET /report`` and ``/report.csv`` (``Authorization:
Bearer TOKEN``): the HTML and CSV that ``deckcheck validate -o html|csv`` writes over the
submissions folder."""

from __future__ import annotations

import hmac
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from deckcheck.errors import DeckcheckError
from deckcheck.service.api import HostDep, SettingsDep, engine_errors
from deckcheck.service.checking import Checks
from deckcheck.service.errors import BadParameter, NotFound, Unauthorized
from deckcheck.service.models import ERRORS, REPORT_ERRORS, Submitted
from deckcheck.service.pages import Pages
from deckcheck.service.submissions import BadPlayer, Submissions, player_name, prepare

router = APIRouter()
_bearer = HTTPBearer(auto_error=False, description="The token in the --token-file file.")
#: what a report page may not do: be cached, or be framed by another site
_PRIVATE = {"cache-control": "no-store", "x-frame-options": "DENY"}


async def get_store(request: Request) -> Submissions:
    store: Submissions | None = request.app.state.store
    if store is None:
        raise NotFound("submissions are off: start the service with --submissions DIR")
    return store


async def get_pages(request: Request) -> Pages:
    pages: Pages = request.app.state.pages
    return pages


async def require_token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """The report's guard: the bearer token of ``--token-file`` (compared in constant time)."""
    token: str | None = request.app.state.token
    if token is None:
        raise NotFound("the report is off: start the service with --token-file FILE")
    given = credentials.credentials.encode() if credentials is not None else b""
    if not hmac.compare_digest(given, token.encode()):
        raise Unauthorized("the report needs the header Authorization: Bearer TOKEN")


StoreDep = Annotated[Submissions, Depends(get_store)]
PagesDep = Annotated[Pages, Depends(get_pages)]


def wants_html(request: Request) -> bool:
    """A browser's form post (it accepts HTML) gets a page; a program gets JSON."""
    return "text/html" in request.headers.get("accept", "")


@router.get("/submit", response_class=HTMLResponse, summary="The submission page")
async def submit_page(
    store: StoreDep, host: HostDep, settings: SettingsDep, pages: PagesDep
) -> HTMLResponse:
    """A page where a player uploads a deck with a name (works without JavaScript)."""
    del store  # only there to answer 404 when submissions are off
    fmt, date = await host.call(Checks.event)
    return HTMLResponse(pages.submit(fmt, date, settings.max_body))


def _submit(
    engine: Checks, store: Submissions, player: str, data: bytes, upload: str
) -> tuple[str, dict[str, Any]]:
    try:
        stored = prepare(player, data, upload, engine.limits)
        sid = store.new_id(player)
        checked = engine.check(store.read(stored, sid, engine.limits), engine.event_format)
    except DeckcheckError as exc:
        raise engine_errors(exc) from None
    store.save(stored, sid)
    return sid + stored.suffix, json.loads(checked.entry)


@router.post(
    "/submit",
    status_code=201,
    response_model=Submitted,
    responses=ERRORS,  # type: ignore[arg-type]
    summary="Submit a deck",
)
async def submit(
    request: Request,
    store: StoreDep,
    host: HostDep,
    pages: PagesDep,
    player: Annotated[str, Form(max_length=1000, description="The player's name.")],
    deck: Annotated[UploadFile, File(description=".ydk, a ydke:// link or a text list.")],
) -> Response:
    """Store the deck under the submissions folder (all or nothing, named from the player
    and a unique id) and answer its verdict for the event's format and date: a page for a
    browser, JSON for a program. Once answered 2xx, the deck is on disk, whole."""
    try:
        name = player_name(player)
    except BadPlayer as exc:
        raise BadParameter(str(exc)) from None
    data = await deck.read()
    file, check = await host.call(_submit, store, name, data, deck.filename or "")
    sid = file.rsplit(".", 1)[0]
    if wants_html(request):
        return HTMLResponse(pages.verdict(name, sid, check), status_code=201)
    return JSONResponse({"id": sid, "player": name, "file": file, "check": check}, status_code=201)


def _report(engine: Checks, store: Submissions, kind: str) -> str:
    try:
        return engine.report(kind, store.items())
    except DeckcheckError as exc:
        raise engine_errors(exc) from None


@router.get(
    "/report",
    response_class=HTMLResponse,
    responses=REPORT_ERRORS,  # type: ignore[arg-type]
    dependencies=[Depends(require_token)],
    summary="Every submission's verdict (HTML)",
)
async def report(store: StoreDep, host: HostDep, settings: SettingsDep) -> HTMLResponse:
    """The HTML report of every submission, as ``deckcheck validate -o html`` writes it
    over the submissions folder for the event's format and date."""
    page = await host.call(_report, store, "html", timeout=settings.report_timeout)
    return HTMLResponse(page, headers=_PRIVATE)


@router.get(
    "/report.csv",
    response_class=Response,
    responses=REPORT_ERRORS,  # type: ignore[arg-type]
    dependencies=[Depends(require_token)],
    summary="Every submission's findings (CSV)",
)
async def report_csv(store: StoreDep, host: HostDep, settings: SettingsDep) -> Response:
    """The CSV of ``deckcheck validate -o csv`` over the submissions folder."""
    text = await host.call(_report, store, "csv", timeout=settings.report_timeout)
    headers = {**_PRIVATE, "content-disposition": 'inline; filename="submissions.csv"'}
    return Response(text, media_type="text/csv; charset=utf-8", headers=headers)


__all__ = ["router", "wants_html"]
