"""The records the lookup layer hands out: one ranked match, and the verdict on a query."""

from __future__ import annotations

from typing import Literal

from deckcheck.records import Record, record

Status = Literal["found", "ambiguous", "unknown"]


@record
class Match(Record):
    """One card that a query matched, with the name that matched and how."""

    card_id: int  # canonical passcode (artwork alternates collapse to one card)
    name: str  # display name (requested language, else English)
    matched: str  # the name (any language) that matched
    lang: str  # language of `matched` ("en", "ja", "zh-CN", …, "nickname", "id")
    score: float  # 0–100
    how: str  # "id" | "exact" | "nickname" | "prefix" | "word" | "fuzzy"


@record
class Resolution(Record):
    """The verdict on one query: a card, several too close to call, or none."""

    status: Status
    query: str
    card_id: int | None
    candidates: tuple[Match, ...]  # best first; for ambiguous/unknown: the suggestions

    @property
    def found(self) -> bool:
        return self.status == "found"
