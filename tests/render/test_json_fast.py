"""The JSON renderer writes each deck object by hand (issue 18): the same bytes as
``json.dumps(deck_json(report), ensure_ascii=False)`` on real reports of several formats and
on generated findings (quotes, control characters, non-ASCII, big and negative numbers,
waived, candidates, odd counts)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.batch import plan, reports, walk
from deckcheck.model import Finding
from deckcheck.render.json import deck_json, deck_text, finding_json
from deckcheck.report import DeckReport


def _reference(report: DeckReport) -> str:
    return json.dumps(deck_json(report), ensure_ascii=False)


def test_real_reports_in_several_formats(real_home: Path, shared_data: Path) -> None:
    decks = str(shared_data / "decks")
    seen = 0
    heads: dict = {}  # one renderer's, kept over every report
    for fmt in ("tcg", "ocg", "goat", "rush", "speed", "genesys"):
        request, engine = plan((decks,), walk((decks,)), format_id=fmt, date=dt.date(2026, 6, 1))
        for report in reports(request, engine):
            assert deck_text(report, heads) == _reference(report)
            seen += len(report.findings)
    assert seen > 1000


_ODD = ['"', "\\", "\x00\x1f\x7f", "é – 灰流うらら", "\ud800"]
_TEXT = st.one_of(st.text(), st.sampled_from(_ODD))
_INT = st.one_of(st.none(), st.integers(-(2**70), 2**70))


@st.composite
def _findings(draw: st.DrawFn) -> Finding:
    return Finding(
        draw(st.sampled_from(["DC402", "DC102"])),
        draw(_TEXT),
        draw(st.sampled_from(["error", "warning"])),
        draw(_TEXT),
        draw(st.sampled_from([None, "main", "extra", "side"])),
        draw(_INT),
        draw(_INT),
        draw(st.one_of(st.none(), _TEXT)),
        draw(_INT),
        draw(_INT),
        draw(st.lists(st.tuples(st.integers(0, 2**32), _TEXT), max_size=2).map(tuple)),
        draw(st.booleans()),
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_findings(), max_size=4),
    _TEXT,
    st.booleans(),
    st.dictionaries(
        st.one_of(_TEXT, st.integers()), st.one_of(st.integers(), st.floats()), max_size=3
    ),
    st.one_of(st.none(), _TEXT),
    st.sampled_from(["tcg", "ocg"]),
    st.one_of(st.none(), _TEXT),
    st.one_of(
        st.none(),
        st.tuples(_TEXT, _TEXT, st.one_of(st.none(), _TEXT), st.one_of(st.none(), st.booleans())),
    ),
)
def test_generated_reports(
    findings: list[Finding],
    source: str,
    legal: bool,
    counts: dict[object, object],
    player: str | None,
    format_id: str,
    format_name: str | None,
    listed: tuple[str, str, str | None, bool | None] | None,
) -> None:
    name, effective, src, exact = listed or (None, None, None, None)
    report = DeckReport(
        source,
        legal,
        counts,  # type: ignore[arg-type]
        tuple(findings),
        format_id,
        name,
        effective,
        player=player,
        format_name=format_name,
        list_source=src,
        list_date_exact=exact,
    )
    for f in findings:
        assert finding_json(f) == json.dumps(f.to_json(), ensure_ascii=False)
    assert deck_text(report) == _reference(report)


def test_odd_typed_fields_and_counts_are_never_written_from_a_remembered_head() -> None:
    # finding_json remembers the text around the message per (code, rule, severity,
    # section), and deck_text writes the usual counts directly: neither may stand in for a
    # value of another type that compares equal (1 == True == 1.0) or another key order.
    counts_cases: list[dict[object, object]] = [
        {"main": 40, "extra": 15, "side": 0},
        {"main": True, "extra": 0, "side": 0},
        {"extra": 0, "main": 40, "side": 0},
        {"main": 40.0, "extra": 0, "side": 0},
        {"main": 40, "extra": 0},
    ]
    heads: dict = {}  # one renderer's, kept over every case
    for code in ("DC402", 1, True, 1.0):
        for section in ("main", None, 1, True):
            for counts in counts_cases:
                f = Finding(
                    code,
                    "copies",
                    "error",
                    "msg",
                    section,
                    3,
                    None,
                    None,
                    None,  # type: ignore[arg-type]
                    None,
                    (),
                    False,
                )
                report = DeckReport("d.ydk", False, counts, (f,), "tcg")  # type: ignore[arg-type]
                assert deck_text(report, heads) == _reference(report)
