"""The JSON endpoints: ``POST /v1/check``, ``GET /v1/cards``, ``GET /v1/formats`` and
``GET /health`` (SPEC.md §8). Each asks the worker's engine (``host.EngineHost``, injected
with ``Depends``) and answers what the matching command prints with ``-o json``."""

from __future__ import annotations

import datetime as dt
import os
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from deckcheck import __version__, dates
from deckcheck.errors import DataError, DeckcheckError, InputError
from deckcheck.model import Deck
from deckcheck.service.checking import Checked, Checks, ParamError
from deckcheck.service.errors import BadParameter, BadRequest, Unavailable, Unreadable, describe
from deckcheck.service.host import BUSY, EngineHost
from deckcheck.service.models import (
    ERRORS,
    CardsResult,
    CheckRequest,
    CheckResult,
    FormatInfo,
    Health,
)
from deckcheck.service.settings import Settings

router = APIRouter()


# (async: FastAPI runs a plain ``def`` dependency on a thread, a hop per request)
async def get_host(request: Request) -> EngineHost:
    """The worker's engine host (built once, at start-up)."""
    host: EngineHost = request.app.state.host
    return host


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


HostDep = Annotated[EngineHost, Depends(get_host)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
DateQuery = Annotated[str | None, Query(description="YYYY-MM-DD (default: today).")]


def parse_day(text: str | None, what: str = "date") -> dt.date | None:
    """A request's date, or None; a bad one is a 422 naming the parameter."""
    if text is None or text == "":
        return None
    try:
        return dates.parse_date(text)
    except ValueError:
        raise BadParameter(f"{what}: {text!r} is not a date (YYYY-MM-DD)") from None


def parse_lang(text: str | None) -> str | None:
    if not text:
        return None
    from deckcheck.lookup.langs import canonical_lang

    try:
        return canonical_lang(text)
    except DeckcheckError as exc:
        raise BadParameter(f"lang: {exc.message}") from None


def engine_errors(exc: DeckcheckError) -> Exception:
    """An engine error as the service answers it: a deck that cannot be read is a 400, a
    parameter that names nothing a 422, missing or broken data a 503."""
    if isinstance(exc, ParamError):
        return BadParameter(str(exc))
    if isinstance(exc, InputError):
        return Unreadable(f"cannot read the deck: {exc.message}")
    if isinstance(exc, DataError):
        return Unavailable(f"the card data cannot be used: {exc}")
    return Unavailable(str(exc))


def _check(engine: Checks, *args: Any) -> Checked:
    try:
        return engine.check(*args)
    except DeckcheckError as exc:
        raise engine_errors(exc) from None


def _check_passcodes(engine: Checks, data: bytes | str, *args: Any) -> Checked | Deck:
    """A deck of passcodes checked (the inline path); a deck with names to look up is
    handed back read, for the engine's thread."""
    try:
        deck = engine.read(data)
        if not engine.needs_names(deck):
            return engine.check(deck, *args)
        return deck
    except DeckcheckError as exc:
        raise engine_errors(exc) from None


#: the query of ``POST /v1/check``: (name, description), as ``/docs`` lists them
CHECK_QUERY = (
    ("format", "Format id (default: the service's, or the deck's own '#format' line)."),
    ("date", "Event date, YYYY-MM-DD (default: the service's, or today)."),
    ("banlist", '"<family>@<YYYY-MM-DD>", a family or a list name (default: in force).'),
    ("lang", "Language of card names in messages (en, ja, de, …)."),
)
_CHECK_DOCS = {
    "parameters": [
        {
            "name": n,
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": d,
        }
        for n, d in CHECK_QUERY
    ],
    "requestBody": {
        "required": True,
        "content": {
            "text/plain": {
                "schema": {"type": "string"},
                "example": "#main\n14558127\n14558127\n#extra\n!side\n",
            },
            "application/json": {"schema": CheckRequest.model_json_schema()},
        },
    },
}


class CheckQuery:
    """The query of ``POST /v1/check`` (``CHECK_QUERY``), read by hand: declared as FastAPI
    ``Query`` parameters they cost 0.12 ms a request, a quarter of a whole check's
    (benchmarks/bench_service.py); tests/service/test_api.py holds it to a ``Query`` twin."""

    __slots__ = ("format", "date", "banlist", "lang")

    def __init__(self, request: Request):
        q = request.query_params
        self.format = q.get("format") or None
        self.date = q.get("date") or None
        self.banlist = q.get("banlist") or None
        self.lang = q.get("lang") or None


@router.post(
    "/v1/check",
    response_model=CheckResult,
    responses=ERRORS,  # type: ignore[arg-type]
    openapi_extra=_CHECK_DOCS,
    summary="Check one deck",
)
async def check(request: Request, host: HostDep) -> Response:
    """The deck in the body (.ydk text, a ydke:// link or a text list in any language; or
    JSON ``{"deck": …, "format": …, "date": …}``) checked as ``deckcheck validate -o json``
    checks it: its deck entry (same codes and messages), with the format, the list and the
    date it was checked against. An illegal deck is a 200 with ``"legal": false``."""
    query = CheckQuery(request)
    format_id, date, banlist, lang = query.format, query.date, query.banlist, query.lang
    body = await request.body()
    data: bytes | str = body
    if _is_json(request.headers.get("content-type")):
        try:
            req = CheckRequest.model_validate_json(body)
        except ValidationError as exc:
            if any(e.get("type") == "json_invalid" for e in exc.errors()):
                raise BadRequest("the body is not valid JSON") from None
            raise BadParameter(describe(exc.errors())) from None
        data = req.deck
        format_id = req.format or format_id
        date = req.date or date
        banlist = req.banlist or banlist
        lang = req.lang or lang
    if not data.strip():
        raise Unreadable("the body is empty: send the deck (.ydk text, ydke:// or a list)")
    args = (format_id or None, parse_day(date), banlist or None, parse_lang(lang))
    got = host.now(_check_passcodes, data, *args)
    if not isinstance(got, Checked):  # names to look up (or the engine is busy): its thread
        deck = data if got is BUSY else got
        got = await host.call(_check, deck, *args)
    assert isinstance(got, Checked)
    return Response(got.entry.encode(), media_type="application/json")


def _is_json(content_type: str | None) -> bool:
    if not content_type:
        return False
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json")


@router.get("/v1/cards", response_model=CardsResult, responses=ERRORS, summary="Find cards")  # type: ignore[arg-type]
async def cards(
    host: HostDep,
    q: Annotated[
        str,
        Query(
            min_length=1,
            max_length=500,
            description="A name in any language, or a query (docs/SEARCH.md): t:synchro atk>=2500",
        ),
    ],
    lang: Annotated[str | None, Query(description="Language of the names shown.")] = None,
    limit: Annotated[int, Query(ge=0, le=1000, description="At most this many (0: all).")] = 10,
    date: DateQuery = None,
) -> JSONResponse:
    """``deckcheck card search Q -o json``: the ranked matches of a name (typos, nicknames,
    any language), or the cards a search-language query admits."""
    got = await host.call(_search, q, parse_lang(lang), limit, parse_day(date))
    return JSONResponse(got)


def _search(engine: Checks, *args: Any) -> dict[str, Any]:
    try:
        return engine.cards(*args)
    except DeckcheckError as exc:
        raise engine_errors(exc) from None


@router.get("/v1/formats", response_model=list[FormatInfo], summary="The formats")
async def formats(host: HostDep, date: DateQuery = None) -> JSONResponse:
    """``deckcheck formats -o json``: every format, its sizes and the list in force."""
    got = await host.call(Checks.formats, parse_day(date))
    return JSONResponse(got)


@router.get("/health", response_model=Health, summary="Liveness and data versions")
async def health(host: HostDep) -> dict[str, Any]:
    """The worker is up; which card data and lists it serves (they change when ``deckcheck
    update`` installs new data: the service picks it up without a restart)."""
    data = await host.call(Checks.health)
    return {
        "status": "ok",
        "version": __version__,
        "pid": os.getpid(),
        "swaps": host.swaps,
        "data": data,
    }


__all__ = ["get_host", "get_settings", "parse_day", "router"]
