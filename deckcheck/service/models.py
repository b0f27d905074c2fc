"""The typed shapes of the service's requests and answers (pydantic), as ``/docs`` shows them.

The check's answer is written by the engine's JSON renderer (the deck entry of ``validate
-o json``) and handed out as it is; ``CheckResult`` is its documented shape, and the tests
hold every answer to it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class CheckRequest(BaseModel):
    """``POST /v1/check`` as JSON; a field given here wins over the query parameter."""

    model_config = ConfigDict(extra="forbid")

    deck: str = Field(description="The deck: .ydk text, a ydke:// link or a text decklist.")
    format: str | None = Field(None, description="Format id (`GET /v1/formats`).")
    date: str | None = Field(None, description="Event date, YYYY-MM-DD (default: today).")
    banlist: str | None = Field(
        None, description='A list: "<family>@<YYYY-MM-DD>", a family or a list name.'
    )
    lang: str | None = Field(None, description="Language of card names in messages.")


class CardRef(BaseModel):
    id: int
    name: str | None


class Candidate(BaseModel):
    id: int
    name: str


class Finding(BaseModel):
    """One finding, as ``validate -o json`` writes it (SPEC.md §5, §6)."""

    code: str = Field(examples=["DC403"])
    rule: str = Field(examples=["limited"])
    severity: Literal["error", "warning"]
    message: str
    section: str | None
    line: int | None
    card: CardRef | None = None
    count: int | None = None
    limit: int | None = None
    candidates: list[Candidate] | None = None
    waived: bool | None = None


class FormatRef(BaseModel):
    id: str
    name: str


class BanlistRef(BaseModel):
    name: str
    effective: str
    source: str | None
    date_exact: bool | None


class CheckResult(BaseModel):
    """The deck entry of ``validate -o json`` with the format, list and date it was checked
    against."""

    input: str = Field(examples=["<request>"])
    legal: bool
    counts: dict[str, int] = Field(examples=[{"main": 40, "extra": 15, "side": 15}])
    findings: list[Finding]
    player: str | None = None
    format: FormatRef
    banlist: BanlistRef | None
    date: str


class ErrorBody(BaseModel):
    """Every error: its status, a short code and a message to show."""

    status: int = Field(examples=[422])
    error: str = Field(examples=["bad-parameter"])
    message: str


class CardsData(BaseModel):
    count: int
    fingerprint: str
    built_at: str | None
    sample: bool


class ListRef(BaseModel):
    name: str
    effective: str


class DataVersions(BaseModel):
    state: str | None = Field(description="The installed state (state-N), None before any.")
    cards: CardsData
    lists: dict[str, ListRef] = Field(description="The newest list of each family.")


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    pid: int
    swaps: int = Field(description="Data updates this worker has picked up since it started.")
    data: DataVersions


class FormatInfo(BaseModel):
    """One format as ``deckcheck formats -o json`` lists it."""

    id: str
    name: str
    main: str
    extra: str
    side: str
    copies: int
    list_family: str | None
    list: ListRef | None


class Match(BaseModel):
    id: int
    name: str
    matched: str
    lang: str
    score: float
    how: str
    kind: str


class QueryCard(BaseModel):
    id: int
    name: str
    kind: str
    type: str
    attribute: str | None = None
    race: str | None = None
    level: int | None = None
    rank: int | None = None
    link: int | None = None
    atk: int | None = None
    # "def" is a Python keyword: the JSON key is "def"
    def_: int | None = Field(None, alias="def")
    scale: int | None = None


class CardsResult(BaseModel):
    """``card search -o json``: ``matches`` for a name, ``cards`` for a query."""

    query: str
    matches: list[Match] | None = None
    date: str | None = None
    total: int | None = None
    cards: list[QueryCard] | None = None
    notes: list[str] | None = None


class Submitted(BaseModel):
    """A stored submission and its verdict."""

    id: str = Field(description="The submission's id (its file name without the suffix).")
    player: str
    file: str
    check: CheckResult


ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorBody, "description": what}
    for status, what in (
        (400, "Unreadable deck or malformed request"),
        (408, "The body did not arrive in time"),
        (413, "Body over the size cap"),
        (422, "Bad parameters"),
        (503, "Busy, timed out or data unavailable"),
    )
}
REPORT_ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorBody, "description": what}
    for status, what in (
        (401, "No token, or the wrong one"),
        (404, "The report is off (no --token-file) or submissions are (no --submissions)"),
        (503, "Busy, timed out or data unavailable"),
    )
}

__all__ = [
    "ERRORS",
    "REPORT_ERRORS",
    "CardsResult",
    "CheckRequest",
    "CheckResult",
    "ErrorBody",
    "FormatInfo",
    "Health",
    "Submitted",
]
