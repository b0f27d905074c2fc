"""The JSON report of SPEC.md §6, written as a stream (one deck object at a time)."""

from __future__ import annotations

import json
from typing import Any

from deckcheck.render.base import Meta, Renderer
from deckcheck.report import DeckReport, Summary

SCHEMA_VERSION = 1
#: ``json.dumps(obj, ensure_ascii=False)`` without building an encoder per deck (same bytes)
_dumps = json.JSONEncoder(ensure_ascii=False).encode


def deck_json(report: DeckReport) -> dict[str, Any]:
    return {
        "input": report.input,
        "legal": report.legal,
        "counts": dict(report.counts),
        "findings": [f.to_json() for f in report.findings],
        **({"player": report.player} if report.player else {}),
    }


class JsonRenderer(Renderer):
    _first = True

    def start(self, meta: Meta) -> None:
        super().start(meta)
        banlist = (
            {"name": meta.list_name, "effective": meta.list_effective,
             "source": meta.list_source, "date_exact": meta.list_date_exact}
            if meta.list_name else None
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
        data = deck_json(report)
        if self.meta is not None and report.format_id != self.meta.format_id:
            # checked as the deck's own "#format" line says, not as the run's format
            data["format"] = {"id": report.format_id}
        self.out.write(sep + _dumps(data))

    def finish(self, summary: Summary) -> None:
        self.out.write('],\n"summary": ' + json.dumps(summary.to_json()) + "}\n")
        super().finish(summary)
