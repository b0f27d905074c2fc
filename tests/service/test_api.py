"""The JSON endpoints through FastAPI's TestClient: every endpoint and every error status,
each answer held to its documented model and to what the matching command prints."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Annotated, Any

import pytest

from deckcheck.cli import main
from tests.service._serve import DM6

pytest.importorskip("fastapi")

from fastapi import FastAPI, Query, Request
from fastapi.testclient import TestClient

from deckcheck.service.api import CheckQuery
from deckcheck.service.models import (
    CardsResult,
    CheckResult,
    ErrorBody,
    FormatInfo,
    Health,
)
from tests.service.conftest import make_client

DATE = "2026-06-01"
ILLEGAL = (DM6 / "illegal.ydk").read_bytes()
LEGAL = (DM6 / "legal.ydk").read_bytes()


def validate_json(*args: str) -> dict[str, Any]:
    out = io.StringIO()
    with redirect_stdout(out):
        main(["validate", "-o", "json", *args])
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


def same_entry(answer: dict[str, Any], report: dict[str, Any]) -> None:
    """``answer`` is the report's deck entry, its own format and list included (input and
    player aside: a request has no file), with the report's date."""
    (deck,) = report["decks"]
    strip = {"input", "player", "date"}
    assert {k: v for k, v in answer.items() if k not in strip} == {
        k: v for k, v in deck.items() if k not in strip
    }
    assert answer["date"] == report["date"]
    assert answer["input"] == "<request>"


def error(resp: Any, status: int, code: str) -> str:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/json")
    body = ErrorBody.model_validate(resp.json())
    assert (body.status, body.error) == (status, code)
    assert "Traceback" not in resp.text and 'File "' not in resp.text
    return body.message


# --------------------------------------------------------------------------- /v1/check


@pytest.mark.parametrize("deck", ["illegal.ydk", "legal.ydk"])
def test_check_answers_the_deck_entry_of_validate_json(client: Any, deck: str) -> None:
    resp = client.post(f"/v1/check?date={DATE}", content=(DM6 / deck).read_bytes())
    assert resp.status_code == 200
    answer = resp.json()
    CheckResult.model_validate(answer)
    same_entry(answer, validate_json("-f", "dm6", "-d", DATE, str(DM6 / deck)))
    assert answer["legal"] is (deck == "legal.ydk")


def test_check_takes_a_ydke_link_and_a_text_list(client: Any, tmp_path: Path) -> None:
    from deckcheck import decks
    from deckcheck.decks.write import to_ydke

    link = to_ydke(decks.read_path(DM6 / "illegal.ydk"))
    resp = client.post("/v1/check", content=link.encode(), params={"date": DATE})
    same_entry(resp.json(), validate_json("-f", "dm6", "-d", DATE, link))
    text = "Main Deck\n3 Dark Magician\n2 pot of greed\n1 Raigeki\n"
    (tmp_path / "list.txt").write_text(text)
    resp = client.post("/v1/check", content=text.encode(), params={"date": DATE})
    answer = resp.json()
    same_entry(answer, validate_json("-f", "dm6", "-d", DATE, str(tmp_path / "list.txt")))
    assert {f["code"] for f in answer["findings"]} >= {"DC201", "DC403"}


def test_check_as_json_and_its_parameters(client: Any) -> None:
    body = {"deck": ILLEGAL.decode(), "format": "dm5", "date": "2010-01-01"}
    answer = client.post("/v1/check", json=body).json()
    same_entry(answer, validate_json("-f", "dm5", "-d", "2010-01-01", str(DM6 / "illegal.ydk")))
    assert answer["format"]["id"] == "dm5"
    # the query says the same; a JSON field wins over it
    by_query = client.post("/v1/check?format=dm5&date=2010-01-01", content=ILLEGAL).json()
    assert by_query == answer
    mixed = client.post("/v1/check?format=dm6&date=2010-01-01", json=body).json()
    assert mixed == answer
    listed = client.post(
        "/v1/check", params={"banlist": "dm5@2001-07-01", "date": DATE}, content=ILLEGAL
    ).json()
    assert listed["banlist"]["name"] == "2001.07 DM5"
    same_entry(
        listed,
        validate_json("-f", "dm6", "-b", "dm5@2001-07-01", "-d", DATE, str(DM6 / "illegal.ydk")),
    )


def test_a_decks_own_format_line_is_used_unless_format_is_given(client: Any) -> None:
    deck = b"#format dm5\n" + ILLEGAL
    assert client.post("/v1/check", content=deck).json()["format"]["id"] == "dm5"
    assert client.post("/v1/check?format=dm6", content=deck).json()["format"]["id"] == "dm6"


def test_names_in_another_language(client: Any) -> None:
    en = client.post("/v1/check", content=ILLEGAL).json()
    assert client.post("/v1/check?lang=en", content=ILLEGAL).json() == en
    assert error(client.post("/v1/check?lang=xx", content=ILLEGAL), 422, "bad-parameter")


def test_check_errors(client: Any) -> None:
    assert "NUL" in error(client.post("/v1/check", content=b"\x00\x01\x02"), 400, "unreadable")
    assert "empty" in error(client.post("/v1/check", content=b"  \n"), 400, "unreadable")
    assert "ydke" in error(client.post("/v1/check", content=b"ydke://abc!!!"), 400, "unreadable")
    json_header = {"content-type": "application/json"}
    assert "JSON" in error(
        client.post("/v1/check", content=b"{deck", headers=json_header), 400, "bad-request"
    )
    assert "deck" in error(client.post("/v1/check", json={"format": "dm6"}), 422, "bad-parameter")
    assert (
        "extra"
        in error(
            client.post("/v1/check", json={"deck": "x", "colour": 1}), 422, "bad-parameter"
        ).lower()
    )
    assert "13" in error(
        client.post("/v1/check?date=2026-13-01", content=LEGAL), 422, "bad-parameter"
    )
    assert "known formats" in error(
        client.post("/v1/check?format=nope", content=LEGAL), 422, "bad-parameter"
    )
    assert error(
        client.post("/v1/check?banlist=nope@2020-01-01", content=LEGAL), 422, "bad-parameter"
    )
    assert error(client.post("/v1/check?format=tcg", content=LEGAL), 422, "bad-parameter")
    assert "over the cap" in error(
        client.post("/v1/check", content=b"1" * 300_000), 413, "too-large"
    )
    assert error(client.get("/v1/check"), 405, "method-not-allowed")


@pytest.mark.parametrize(
    "ref", ["/etc/passwd", "../x.yaml", "README.md", "pyproject.toml", "x.lflist.conf", "a\\b"]
)
def test_a_banlist_never_names_a_file(client: Any, ref: str) -> None:
    message = error(
        client.post("/v1/check", params={"banlist": ref}, content=LEGAL), 422, "bad-parameter"
    )
    assert "reads no files" in message


# --------------------------------------------------------------------------- the rest


def test_health(client: Any) -> None:
    resp = client.get("/health")
    got = Health.model_validate(resp.json())
    assert got.status == "ok" and got.data.cards.sample and got.data.state is None
    assert got.data.lists["dm6"].name == "2002.07 DM6"


def test_formats_as_the_formats_command(client: Any) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        main(["formats", "-o", "json", "-d", DATE])
    resp = client.get("/v1/formats", params={"date": DATE})
    assert resp.json() == json.loads(out.getvalue())
    [FormatInfo.model_validate(row) for row in resp.json()]
    assert error(client.get("/v1/formats?date=yesterday"), 422, "bad-parameter")


@pytest.mark.parametrize("q", ["dark magican", "atk>=2500 t:monster"])
def test_cards_as_card_search(client: Any, q: str) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        main(["card", "search", q, "-o", "json", "-d", DATE, "--limit", "5"])
    resp = client.get("/v1/cards", params={"q": q, "date": DATE, "limit": 5})
    assert resp.status_code == 200
    assert resp.json() == json.loads(out.getvalue())
    CardsResult.model_validate(resp.json())


def test_cards_errors(client: Any) -> None:
    assert "q" in error(client.get("/v1/cards"), 422, "bad-parameter")
    assert "ATK" in error(client.get("/v1/cards", params={"q": "atk>=lots"}), 422, "bad-parameter")
    assert error(client.get("/v1/cards", params={"q": "x", "limit": -1}), 422, "bad-parameter")


def test_docs_and_unknown_paths(client: Any) -> None:
    assert client.get("/docs").status_code == 200
    spec = client.get("/openapi.json").json()
    assert {"/v1/check", "/v1/cards", "/v1/formats", "/health", "/submit", "/report"} <= set(
        spec["paths"]
    )
    params = {p["name"] for p in spec["paths"]["/v1/check"]["post"]["parameters"]}
    assert params == {"format", "date", "banlist", "lang"}
    assert error(client.get("/nothing/here"), 404, "not-found")


def test_the_hand_read_query_is_the_query_parameters_would_be() -> None:
    # CheckQuery reads the query by hand (speed); a twin declared with FastAPI's Query
    # parameters must read every query the same way
    app = FastAPI()

    @app.get("/hand")
    async def hand(request: Request) -> list[str | None]:
        q = CheckQuery(request)
        return [q.format, q.date, q.banlist, q.lang]

    @app.get("/declared")
    async def declared(
        format_id: Annotated[str | None, Query(alias="format")] = None,
        date: str | None = None,
        banlist: str | None = None,
        lang: str | None = None,
    ) -> list[str | None]:
        return [format_id or None, date or None, banlist or None, lang or None]

    queries = [
        "",
        "format=tcg",
        "format=&date=2026-01-01",
        "banlist=2025.04%20TCG&lang=ja&format=ocg",
        "format=a&format=b",
        "date=x&other=1",
        "lang=%E6%97%A5",
    ]
    with TestClient(app) as c:
        for q in queries:
            assert c.get(f"/hand?{q}").json() == c.get(f"/declared?{q}").json(), q


# --------------------------------------------------------------------------- 5xx


@pytest.fixture
def broken(tmp_path: Path) -> Iterator[Any]:
    with make_client(tmp_path) as c:
        yield c


def test_a_bug_is_a_json_500_without_a_trace(broken: Any) -> None:
    from deckcheck.service.api import get_host

    class Boom:
        def now(self, *args: Any) -> Any:
            raise RuntimeError("secret internals /srv/x.py line 3")

    broken.app.dependency_overrides[get_host] = Boom
    resp = broken.post("/v1/check", content=LEGAL)
    message = error(resp, 500, "internal")
    assert "secret" not in resp.text and "RuntimeError" not in resp.text
    assert "internal error" in message


def test_busy_and_too_slow_are_503(broken: Any) -> None:
    import threading

    host = broken.app.state.host
    release = threading.Event()
    host.max_pending = 1
    host.timeout = 0.5

    def slow(engine: Any) -> None:
        release.wait(10)

    import asyncio

    async def both() -> tuple[Any, Any]:
        first = asyncio.ensure_future(host.call(slow))
        await asyncio.sleep(0.05)
        try:
            second = await host.call(slow)
        except Exception as exc:  # noqa: BLE001 - the busy error, checked below
            second = exc
        try:
            got = await first
        except Exception as exc:  # noqa: BLE001 - the time cap
            got = exc
        return got, second

    timed_out, busy = asyncio.run(both())
    release.set()
    assert (timed_out.status, timed_out.code) == (503, "timeout")
    assert (busy.status, busy.code) == (503, "busy")
    # through HTTP: the engine's thread is held, and a text list (names: the thread) waits
    release.clear()
    host.max_pending = 8
    holder = threading.Thread(target=lambda: asyncio.run(host.call(slow, timeout=5)))
    holder.start()
    try:
        resp = broken.post("/v1/check", content=b"3 Dark Magician\n")
        assert "longer than 0.5 s" in error(resp, 503, "timeout")
    finally:
        release.set()
        holder.join()
