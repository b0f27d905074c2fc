"""Over the real card database and lists: every real deck checked by the service answers
what ``validate -o json`` says of it (issue 31: same codes, messages, list and date)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from deckcheck.cli import main
from tests.service.conftest import make_client

pytestmark = pytest.mark.realdata
DATE = "2026-06-01"


def test_every_real_deck_as_validate_json(
    real_home: Path, shared_data: Path, tmp_path: Path
) -> None:
    folder = shared_data / "decks"
    out = io.StringIO()
    with redirect_stdout(out):
        main(["validate", "-o", "json", "--jobs", "1", "-d", DATE, str(folder)])
    report = json.loads(out.getvalue())
    assert len(report["decks"]) > 200
    with make_client(tmp_path, format_id="tcg", date=DATE) as c:
        health = c.get("/health").json()
        assert health["data"]["cards"]["count"] > 20000 and not health["data"]["cards"]["sample"]
        for deck in report["decks"]:
            resp = c.post("/v1/check", content=Path(deck["input"]).read_bytes())
            assert resp.status_code == 200, (deck["input"], resp.text)
            got: dict[str, Any] = resp.json()
            assert got.pop("date") == report["date"]
            deck = {k: v for k, v in deck.items() if k not in ("input", "player")}
            got.pop("player", None)
            assert got.pop("input") == "<request>"
            assert got == deck
        # a text list in two languages resolves through the real name index
        resp = c.post("/v1/check", content="3 灰流うらら\n3 Maxx C\n".encode())
        codes = {f["code"] for f in resp.json()["findings"]}
        assert codes and not codes & {"DC102", "DC103"}  # both names found
        assert resp.json()["counts"]["main"] == 6
