"""`validate -o html`: escaping, self-containment, and what a person sees in headless chromium.

Browser tests need Debian's ``chromium`` (`.ci/run` installs it); they skip with a reason where
it is missing, and fail instead when DECKCHECK_REQUIRE_TOOLS=1 (CI).
"""

from __future__ import annotations

import io
import json
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest

from deckcheck import render
from deckcheck.cli import main
from deckcheck.model import Finding
from deckcheck.render.html import HtmlRenderer
from deckcheck.report import DeckReport, Summary
from tests import chromium
from tests.render.test_render import sample_reports

NASTY_FILE = """decks/<img src=x onerror=alert(1)> & "q" 'co'.ydk"""
NASTY_NAME = NASTY_FILE.split("/", 1)[1]
NASTY_CARD = """Maxx "C" <em>&amp; 'friends'</em>"""
META = render.Meta(
    "test",
    "Test <Advanced> & co",
    "2026.05 TEST",
    "2026-05-18",
    "2026-06-01",
    list_source='seeds/001 "quoted" <src>',
    list_date_exact=False,
)


def nasty_report() -> DeckReport:
    f = Finding(
        "DC403",
        "limited",
        "error",
        f"{NASTY_CARD}: 2 copies, but it is Limited (1)",
        "main",
        12,
        card_id=23434538,
        card_name=NASTY_CARD,
        count=2,
        limit=1,
    )
    return DeckReport(
        NASTY_FILE,
        False,
        {"main": 40, "extra": 3, "side": 1},
        (f,),
        "test",
        composition={"monster": 20, "spell": 15, "trap": 5, "other": 0, "extra": 3},
        player='<Yugi> & "Mutou"',
    )


def render_html(reports: list[DeckReport], meta: render.Meta = META) -> str:
    out, err = io.StringIO(), io.StringIO()
    r = HtmlRenderer(out, err)
    r.start(meta)
    s = Summary()
    for rep in reports:
        s.add(rep)
        r.deck(rep)
    r.finish(s)
    assert "checked" in err.getvalue()  # the summary line goes to stderr, as for every kind
    return out.getvalue()


class _Text(HTMLParser):
    """The text a reader gets from a page (scripts and styles left out), and its tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.tags: list[str] = []
        self.names: list[str | None] = []  # data-name of each table row
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "tr" and ("data-n", None) not in attrs and dict(attrs).get("data-n"):
            self.names.append(dict(attrs).get("data-name"))
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def page_text(doc: str) -> tuple[str, list[str]]:
    return _parse(doc)[:2]  # type: ignore[return-value]


def _parse(doc: str) -> tuple[str, list[str], list[str | None]]:
    p = _Text()
    p.feed(doc)
    return "".join(p.parts), p.tags, p.names


# --------------------------------------------------------------------------- no browser


def test_names_with_markup_characters_are_escaped_everywhere() -> None:
    doc = render_html([nasty_report(), *sample_reports()])
    text, tags = page_text(doc)
    # No value became markup: the only script element is the page's own.
    assert tags.count("script") == 1 and "em" not in tags and "img" not in tags
    assert "<img" not in doc and "<Yugi>" not in doc and "<Advanced>" not in doc
    # ...and a reader sees each value exactly as it was.
    for value in (NASTY_NAME, NASTY_CARD, '<Yugi> & "Mutou"'):
        assert value in text
    assert "Test <Advanced> & co (test)" in text
    assert 'source: seeds/001 "quoted" <src>' in text
    # Attribute values are quoted and escaped too (the filter reads them back).
    assert _parse(doc)[2][0] == '<Yugi> & "Mutou" ' + NASTY_FILE


def test_header_shows_format_list_source_exactness_date_and_counts() -> None:
    doc = render_html([nasty_report(), *sample_reports()])
    text, _ = page_text(doc)
    assert "2026.05 TEST, effective 2026-05-18 (date not exact: only the month is known)" in text
    assert "Event date2026-06-01" in text
    exact = render.Meta("t", "T", "L", "2026-05-18", "2026-06-01", list_date_exact=True)
    assert "effective 2026-05-18 (exact date)" in page_text(render_html([nasty_report()], exact))[0]
    # 6 decks: sample legal, warned legal, waived legal; nasty, sample illegal, unreadable.
    assert '<b id="n-decks">6</b>' in doc
    assert '<b id="n-legal">3</b>' in doc and '<b id="n-illegal">3</b>' in doc


def test_page_is_self_contained() -> None:
    doc = render_html([nasty_report(), *sample_reports()])
    assert chromium.external_refs(doc) == []
    assert "<style>" in doc and "<script>" in doc


def test_chart_has_one_bar_per_code_with_its_count() -> None:
    reports = [nasty_report(), *sample_reports()]
    doc = render_html(reports)
    counts: dict[str, int] = {}
    for r in reports:
        for f in r.findings:
            counts[f.code] = counts.get(f.code, 0) + 1
    chart = doc[doc.index('<figure class="chart"') : doc.index("</figure>")]
    for code, n in counts.items():
        bar = chart[chart.index(f'data-code="{code}"') :]
        assert f"<title>{code} " in bar and f": {n}</title>" in bar.split("</g>")[0]
    assert chart.count('<g class="bar"') == len(counts)


def test_composition_bar_adds_up_to_the_main_deck() -> None:
    doc = render_html([nasty_report()])
    text, _ = page_text(doc)
    assert "Monster 20Spell 15Trap 5Extra 3" in text
    assert 'width="50.0"' in doc and 'width="37.5"' in doc and 'width="12.5"' in doc


def test_validate_html_writes_one_document_and_exit_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    examples = Path(__file__).resolve().parent.parent.parent / "examples" / "dm6"
    code = main(["validate", "-o", "html", "-f", "dm6", "-d", "2026-06-01", str(examples)])
    out, err = capsys.readouterr()
    assert code == 1
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    assert out.count("<html") == 1 and "2 decks checked" in err


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def browser() -> chromium.Browser:
    if chromium.find() is None:
        reason = "chromium is not installed (apt-get install chromium; .ci/run does it)"
        if os.environ.get("DECKCHECK_REQUIRE_TOOLS"):
            pytest.fail(reason)
        pytest.skip(reason)
    b = chromium.Browser()
    yield b  # type: ignore[misc]
    b.close()


VISIBLE_ROWS = """Array.from(document.querySelectorAll('#decks tbody tr'))
  .filter(tr => tr.offsetParent !== null).map(tr => tr.innerText)"""
# Sections off screen are not laid out (content-visibility: auto): scroll to each, as a
# reader does, before reading its text.
VISIBLE_SECTIONS = """Array.from(document.querySelectorAll('section.deck'))
  .filter(s => s.offsetParent !== null)
  .map(s => { s.scrollIntoView(); return s.innerText; })"""


def pick_code(browser: chromium.Browser, code: str) -> None:
    """Choose ``code`` in the code filter as a person would (the select fires "change")."""
    browser.js(
        "{ const s = document.getElementById('code-filter'); s.value = "
        + json.dumps(code)
        + "; s.dispatchEvent(new Event('change')); }"
    )


def test_filters_and_sorting_in_a_browser(browser: chromium.Browser, tmp_path: Path) -> None:
    reports = [nasty_report(), *sample_reports()]
    page = tmp_path / "report.html"
    page.write_text(render_html(reports), encoding="utf-8")
    browser.open(page)
    assert browser.requests() == [page.resolve().as_uri()]  # nothing fetched but the page
    rows = browser.js(VISIBLE_ROWS)
    assert len(rows) == len(reports) == 6
    assert browser.js("document.getElementById('shown').innerText") == "showing 6 of 6 decks"
    assert NASTY_NAME in rows[0]
    assert "illegal" in rows[0] and "2 copies, but it is Limited (1)" in rows[0]

    browser.js("document.getElementById('only-illegal').click()")
    rows = browser.js(VISIBLE_ROWS)
    sections = browser.js(VISIBLE_SECTIONS)
    illegal = [r for r in reports if not r.passes()]
    assert len(rows) == len(sections) == len(illegal)
    assert [r.split("\t")[1] for r in rows] == ["illegal"] * len(illegal)

    # Code filter on top of "only illegal": DC101 is only in the two unreadable/odd decks.
    with_101 = [r for r in illegal if any(f.code == "DC101" for f in r.findings)]
    pick_code(browser, "DC101")
    rows = browser.js(VISIBLE_ROWS)
    assert len(rows) == len(with_101) >= 1
    for s in browser.js(VISIBLE_SECTIONS):
        assert "DC101" in s

    # Back to everything, then sort by number of findings, descending (two clicks).
    browser.js("document.getElementById('only-illegal').click()")
    pick_code(browser, "")
    assert len(browser.js(VISIBLE_ROWS)) == len(reports)
    click = "document.querySelector('th[data-key=findings] button').click()"
    browser.js(click)
    browser.js(click)
    counts = browser.js(
        "Array.from(document.querySelectorAll('#decks tbody tr')).map(tr => +tr.dataset.findings)"
    )
    assert counts == sorted((len(r.findings) for r in reports), reverse=True)


@pytest.mark.realdata
@pytest.mark.slow
def test_real_decks_every_deck_verdict_and_finding_visible(
    real_home: Path,
    shared_data: Path,
    browser: chromium.Browser,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    decks = shared_data / "decks"
    args = ["--format", "tcg", "--banlist", "2026.05 TCG", "--date", "2026-06-01", str(decks)]
    capsys.readouterr()
    code_json = main(["validate", "-o", "json", *args])
    expected = json.loads(capsys.readouterr().out)
    code_html = main(["validate", "-o", "html", *args])
    doc = capsys.readouterr().out
    assert code_html == code_json
    legal = [d for d in expected["decks"] if d["legal"]]
    assert legal and len(legal) < len(expected["decks"])  # both verdicts are in the folder

    assert chromium.external_refs(doc) == []
    page = tmp_path / "report.html"
    page.write_text(doc, encoding="utf-8")
    browser.open(page)
    assert browser.requests() == [page.resolve().as_uri()]
    rows = browser.js(VISIBLE_ROWS)
    sections = browser.js(VISIBLE_SECTIONS)
    assert len(rows) == len(sections) == len(expected["decks"])
    assert browser.js("document.getElementById('n-legal').innerText") == str(len(legal))
    for d, row, sec in zip(expected["decks"], rows, sections, strict=True):
        name = os.path.basename(d["input"])
        assert name in row and name in sec
        warned = any(f["severity"] == "warning" for f in d["findings"])
        verdict = "illegal" if not d["legal"] else "legal, warnings" if warned else "legal"
        cells = row.split("\t")
        assert cells[1] == verdict, (name, cells)
        assert cells[2:6] == [str(d["counts"][k]) for k in ("main", "extra", "side")] + [
            str(len(d["findings"]))
        ]
        head = sec.split("\n")
        assert name in head[0] and verdict in head[1:3], (name, head[:3])
        for f in d["findings"]:
            assert f["message"] in sec, (name, f["message"])
            assert f["code"] in sec
            if f.get("line"):
                assert f"line {f['line']}" in sec

    browser.js("document.getElementById('only-illegal').click()")
    assert len(browser.js(VISIBLE_ROWS)) == len(expected["decks"]) - len(legal)
    browser.js("document.getElementById('only-illegal').click()")
    browser.screenshot(tmp_path / "real.png")
    browser.screenshot(tmp_path / "real-phone.png", width=390, height=844, mobile=True)
    assert (tmp_path / "real.png").stat().st_size > 10_000
    if os.environ.get("DECKCHECK_KEEP_SHOTS"):  # for a person to look at the pages
        keep = Path(os.environ["DECKCHECK_KEEP_SHOTS"])
        keep.mkdir(parents=True, exist_ok=True)
        for p in ("real.png", "real-phone.png", "report.html"):
            (keep / p).write_bytes((tmp_path / p).read_bytes())
        browser.pdf(keep / "real-print.pdf")


def test_dump_dom_after_scripts_ran(tmp_path: Path) -> None:
    if chromium.find() is None:
        if os.environ.get("DECKCHECK_REQUIRE_TOOLS"):
            pytest.fail("chromium is not installed")
        pytest.skip("chromium is not installed (apt-get install chromium; .ci/run does it)")
    page = tmp_path / "report.html"
    page.write_text(render_html([nasty_report(), *sample_reports()]), encoding="utf-8")
    dom = chromium.dump_dom(page)
    # The script ran (it fills the "showing" counter) and the escaped names stayed text.
    assert "showing 6 of 6 decks" in dom
    assert "&lt;img src=x onerror=alert(1)&gt;" in dom and "<img" not in dom
