"""The JSON report of SPEC.md §6, written as a stream (one deck object at a time)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from json.encoder import encode_basestring
from typing import Any

from deckcheck.model import Finding
from deckcheck.render.base import Meta, Renderer
from deckcheck.report import DeckReport, Summary

SCHEMA_VERSION = 1
#: ``json.dumps(obj, ensure_ascii=False)`` without building an encoder per deck (same bytes)
_dumps = json.JSONEncoder(ensure_ascii=False).encode


def deck_json(report: DeckReport) -> dict[str, Any]:
    """A deck's object in the report (SPEC.md §6), with the format and the list it was
    checked against (§8: a "#format" line may change them; the report's top-level ones are
    the run's defaults)."""
    return {
        "input": report.input,
        "legal": report.legal,
        "counts": dict(report.counts),
        "findings": [f.to_json() for f in report.findings],
        **({"player": report.player} if report.player else {}),
        "format": {"id": report.format_id, "name": report.format_name},
        "banlist": list_json(
            report.list_name, report.list_effective, report.list_source, report.list_date_exact
        ),
    }


def list_json(
    name: str | None, effective: str | None, source: str | None, date_exact: bool | None
) -> dict[str, Any] | None:
    """A list as the report names it (None: checked without a list)."""
    if name is None:
        return None
    return {"name": name, "effective": effective, "source": source, "date_exact": date_exact}


class _Other(Exception):
    """A value the hand-written encoder does not write: the report goes through ``json``."""


def _v(value: Any) -> str:
    """A str, int, bool or None as ``json.dumps(..., ensure_ascii=False)`` writes it."""
    t = type(value)
    if t is str:
        return encode_basestring(value)  # type: ignore[no-any-return]
    if t is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if t is bool:
        return "true" if value else "false"
    raise _Other


#: (code, rule, severity, section) -> the finding's JSON around its message and line: a
#: batch's findings come from a few dozen such keys (a renderer keeps its own, capped)
Heads = dict[tuple[Any, Any, Any, Any], tuple[str, str]]
_PLAIN = (str, type(None))


def finding_json(f: Finding, heads: Heads | None = None) -> str:
    """``_dumps(f.to_json())`` written directly (the same bytes; tests/render compare them).
    ``heads``: the text around the message kept for the next findings (a renderer's own)."""
    if f.candidates:
        return _dumps(f.to_json())  # type: ignore[no-any-return]
    key = (f.code, f.rule, f.severity, f.section)
    head = heads.get(key) if heads is not None else None
    if head is None:
        head = (
            (
                f'{{"code": {_v(f.code)}, "rule": {_v(f.rule)}, '
                f'"severity": {_v(f.severity)}, "message": '
            ),
            f', "section": {_v(f.section)}, "line": ',
        )
        if heads is not None and len(heads) < 4096 and all(type(x) in _PLAIN for x in key):
            heads[key] = head  # (only str/None keys: True == 1 would mix bool and int)
    message, line = f.message, f.line
    if type(message) is not str:
        raise _Other
    out = (
        head[0]
        + encode_basestring(message)
        + head[1]
        + (int.__repr__(line) if type(line) is int else _v(line))
    )
    cid, name, count, limit = f.card_id, f.card_name, f.count, f.limit
    if cid is not None:  # (an int and a str, nearly always: written without ``_v``)
        out += (
            f', "card": {{"id": {int.__repr__(cid) if type(cid) is int else _v(cid)}, '
            f'"name": {encode_basestring(name) if type(name) is str else _v(name)}}}'
        )
    if count is not None:
        out += f', "count": {int.__repr__(count) if type(count) is int else _v(count)}'
    if limit is not None:
        out += f', "limit": {int.__repr__(limit) if type(limit) is int else _v(limit)}'
    if f.waived:
        out += ', "waived": true'
    return out + "}"


def deck_text(report: DeckReport, heads: Heads | None = None) -> str:
    """``_dumps`` of a deck's JSON object (``deck_json``), built from strings: one dict per
    deck and per finding less, same bytes. Written by hand because it pays: 8% of a batch's per-deck
    cost (docs/ARCHITECTURE.md, performance paths; tests/render/test_json_fast.py holds it to
    ``json.dumps``)."""
    try:
        c = report.counts
        if (
            len(c) == 3
            and type(m := c.get("main")) is int
            and type(e := c.get("extra")) is int
            and type(sd := c.get("side")) is int
            and tuple(c) == _SECTIONS
        ):
            counts = f'"main": {m}, "extra": {e}, "side": {sd}'  # nearly every report
        else:
            counts = ", ".join(f"{_key(k)}: {_v(n)}" for k, n in c.items())
        out = (
            f'{{"input": {_v(report.input)}, "legal": {_v(report.legal)}, '
            f'"counts": {{{counts}}}, '
            f'"findings": [{", ".join([finding_json(f, heads) for f in report.findings])}]'
        )
        if report.player:
            out += f', "player": {_v(report.player)}'
        out += f', "format": {{"id": {_v(report.format_id)}, "name": {_v(report.format_name)}}}'
        if report.list_name is None:
            return out + ', "banlist": null}'
        return (
            out + f', "banlist": {{"name": {_v(report.list_name)}, '
            f'"effective": {_v(report.list_effective)}, "source": {_v(report.list_source)}, '
            f'"date_exact": {_v(report.list_date_exact)}}}}}'
        )
    except _Other:
        return _dumps(deck_json(report))  # type: ignore[no-any-return]


_SECTIONS = ("main", "extra", "side")


def _key(k: Any) -> str:
    if type(k) is not str:
        raise _Other  # json turns other keys into strings its own way
    return encode_basestring(k)  # type: ignore[no-any-return]


class JsonRenderer(Renderer):
    _first = True
    text_per_deck = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._heads: Heads = {}  # ``finding_json``'s texts, this renderer's own

    def start(self, meta: Meta) -> None:
        super().start(meta)
        banlist = list_json(
            meta.list_name, meta.list_effective, meta.list_source, meta.list_date_exact
        )
        head = {
            "schema_version": SCHEMA_VERSION,
            "format": {"id": meta.format_id, "name": meta.format_name},
            "banlist": banlist,
            "date": meta.date,
        }
        # Open the document by hand so decks can be streamed into its "decks" array.
        self.out.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "decks": [')
        self._first = True

    def deck(self, report: DeckReport) -> None:
        sep = "\n" if self._first else ",\n"
        self._first = False
        self.out.write(sep + deck_text(report, self._heads))

    def decks_text(self, reports: Iterable[DeckReport]) -> str:
        # each deck as one after the first: the parent's ``write_decks`` fixes the first
        heads = self._heads
        return "".join([",\n" + deck_text(r, heads) for r in reports])

    def write_decks(self, text: str) -> None:
        if not text:
            return
        if self._first:  # the array's first deck: "\n", not ",\n", before it
            self._first = False
            text = "\n" + text[2:]
        self.out.write(text)

    def finish(self, summary: Summary) -> None:
        self.out.write('],\n"summary": ' + json.dumps(summary.to_json()) + "}\n")
        super().finish(summary)
