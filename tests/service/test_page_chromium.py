"""The submission page in headless Chromium (Debian's ``/usr/bin/chromium``, over DevTools):
a player fills in a name, picks a deck file, submits, and reads the verdict; the page and
the answer load nothing from elsewhere, and work with JavaScript off."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from tests import chromium
from tests.service._serve import DM6, Server, serving


@pytest.fixture(scope="module")
def browser() -> Iterator[chromium.Browser]:
    chromium.require()
    b = chromium.Browser()
    yield b
    b.close()


@pytest.fixture(scope="module")
def server(service_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("page")
    args = ["-f", "dm6", "-d", "2026-06-01", "--submissions", str(tmp / "subs")]
    with serving(service_home, tmp, *args) as s:
        yield s


def navigate(b: chromium.Browser, url: str) -> None:
    b.events.clear()
    b.call("Page.navigate", url=url)
    b.wait_event("Page.loadEventFired")


def upload(b: chromium.Browser, server: Server, player: str, deck: Path) -> str:
    navigate(b, server.url + "/submit")
    root = b.call("DOM.getDocument")["root"]["nodeId"]
    node = b.call("DOM.querySelector", nodeId=root, selector="#deck")["nodeId"]
    b.call("DOM.setFileInputFiles", nodeId=node, files=[str(deck)])
    b.call(
        "DOM.focus", nodeId=b.call("DOM.querySelector", nodeId=root, selector="#player")["nodeId"]
    )
    b.call("Input.insertText", text=player)
    b.events.clear()
    button = b.call("DOM.querySelector", nodeId=root, selector="button[type=submit]")["nodeId"]
    box = b.call("DOM.getBoxModel", nodeId=button)["model"]["content"]
    x, y = (box[0] + box[4]) / 2, (box[1] + box[5]) / 2
    for kind in ("mousePressed", "mouseReleased"):
        b.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
    b.wait_event("Page.loadEventFired")
    return str(b.js("document.body.innerText"))


@pytest.mark.parametrize("scripts", [True, False])
def test_a_player_uploads_a_deck_and_sees_the_verdict(
    browser: chromium.Browser, server: Server, scripts: bool
) -> None:
    browser.call("Emulation.setScriptExecutionDisabled", value=not scripts)
    try:
        text = upload(browser, server, "Téa <b>Gardner</b>", DM6 / "illegal.ydk")
    finally:
        browser.call("Emulation.setScriptExecutionDisabled", value=False)
    assert "Deck received" in text and "Téa <b>Gardner</b>" in text  # shown as text, escaped
    assert "Not legal: 3 problems" in text and "DC402" in text and "line 42" in text
    urls = browser.requests()
    assert all(u.startswith(server.url) for u in urls), urls  # nothing from elsewhere
    text = upload(browser, server, "Joey", DM6 / "legal.ydk")
    assert "Legal: your deck can be played." in text


def test_a_file_that_is_no_deck_gets_a_page_not_json(
    browser: chromium.Browser, server: Server, tmp_path: Path
) -> None:
    junk = tmp_path / "photo.ydk"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    text = upload(browser, server, "Joey", junk)
    assert "Not submitted" in text and "binary" in text and "Nothing was stored" in text
