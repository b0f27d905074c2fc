"""Pydantic models of the list and format YAML files: what each key may hold.

Only the cold path imports this module (``formats.compile`` checks files with it when the
compiled cache is stale).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from deckcheck.datafile import MAX_ID

# --------------------------------------------------------------------------- lists


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _CardRef(BaseModel):
    """A card named by exactly one of ``id`` (passcode) or ``card`` (name)."""

    # Extra keys (seed_name, seed_line, notes …) are for humans and are kept out of the model.
    model_config = ConfigDict(extra="allow")

    id: int | None = Field(default=None, gt=0, le=MAX_ID)  # checked before SQLite (issue 32)
    card: str | None = None
    name: str | None = None

    @model_validator(mode="after")
    def _one_key(self) -> _CardRef:
        if (self.id is None) == (self.card is None):
            raise ValueError("give exactly one of 'id' (passcode) or 'card' (name)")
        return self


class Entry(_CardRef):
    limit: int

    @field_validator("limit")
    @classmethod
    def _limit(cls, v: int) -> int:
        if not 0 <= v <= 3:
            raise ValueError("must be 0–3")
        return v


class PointsEntry(_CardRef):
    points: int = Field(ge=0)


class GroupModel(_Strict):
    name: str
    limit: int = Field(ge=0)
    cards: list[Annotated[int, Field(gt=0, le=MAX_ID)] | str]


class ListFile(_Strict):
    name: str = Field(min_length=1)
    family: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    effective: dt.date
    date_exact: bool = True
    #: the day Konami announced the list, where a source gives it (DC601)
    announced: dt.date | None = None
    source: str = ""
    mode: Literal["blacklist", "whitelist"] = "blacklist"
    notes: list[str] = []
    entries: list[Entry] = []
    groups: list[GroupModel] = []
    points: list[PointsEntry] = []

    @model_validator(mode="after")
    def _announced_first(self) -> ListFile:
        if self.announced is not None and self.announced > self.effective:
            raise ValueError(
                f"announced {self.announced.isoformat()} is after effective "
                f"{self.effective.isoformat()}"
            )
        return self


# --------------------------------------------------------------------------- formats


class Size(_Strict):
    min: int = Field(default=0, ge=0)
    max: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _order(self) -> Size:
        if self.max is not None and self.max < self.min:
            raise ValueError("max is smaller than min")
        return self


_TYPES = Literal[
    "fusion",
    "synchro",
    "xyz",
    "link",
    "ritual",
    "pendulum",
    "effect",
    "normal",
    "spirit",
    "union",
    "gemini",
    "tuner",
    "toon",
    "flip",
    "maximum",
    "token",
    "quick-play",
    "continuous",
    "equip",
    "field",
    "counter",
    "monster",
    "spell",
    "trap",
    "skill",
]


class FormatBody(_Strict):
    """The keys a format file, or one of its ``changes[].set`` blocks, may set."""

    name: str | None = None
    description: str | None = None
    source: str | None = None
    main: Size | None = None
    extra: Size | None = None
    side: Size | None = None
    copies: int | None = Field(default=None, ge=1, le=99)
    list_family: str | None = None
    forbidden_as_limited: bool | None = None
    pool: list[str] | None = None
    universe: list[Literal["ocg-tcg", "rush"]] | None = Field(default=None, min_length=1)
    game: Literal["paper", "master-duel", "duel-links"] | None = None
    release_region: str | None = None
    release_cutoff: dt.date | None = None
    skills: Size | None = None
    legend: Literal["none", "one_total", "one_per_type"] | None = None
    extra_deck_types: list[_TYPES] | None = None
    banned_types: list[_TYPES] | None = None
    points_cap: int | None = Field(default=None, ge=0)
    stale_after: int | None = Field(default=None, ge=1)


class Change(_Strict):
    since: dt.date
    set: FormatBody


class FormatFile(FormatBody):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    extends: str | None = None
    changes: list[Change] = []

    @field_validator("pool")
    @classmethod
    def _pool(cls, v: list[str] | None) -> list[str] | None:
        from deckcheck.model import SCOPES

        for s in v or ():
            if s.lower() not in SCOPES:
                known = ", ".join(SCOPES)
                raise ValueError(f"unknown scope {s!r} (known: {known})")
        return v
