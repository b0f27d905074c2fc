"""The whole-request deadline of every download (issue 32): connect, response headers and body
together end within the per-file limit. Before, the limit and the stall check started after
the headers and the socket timeout counted per read, so a loopback mirror sending one header
byte a second kept `update` running 201 s."""

from __future__ import annotations

import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests._http import serving
from tests.reliability.test_reliability_bounds import _one_error, _snapshot, run


class _Slow(BaseHTTPRequestHandler):
    mode = "headers"
    requests = 0

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        type(self).requests += 1
        try:
            if self.mode == "headers":  # the status line, then one header byte at a time
                self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
                for _ in range(600):
                    self.wfile.write(b"a")
                    self.wfile.flush()
                    time.sleep(0.25)
            else:  # headers at once, then a body that never comes (under the socket timeout)
                self.send_response(200)
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.flush()
                time.sleep(120)
        except OSError:
            pass


@pytest.fixture
def slow() -> Iterator[tuple[str, type[_Slow]]]:
    handler = type("S", (_Slow,), {})
    with serving(handler) as url:
        yield url, handler


@pytest.mark.parametrize("mode", ["headers", "silent body"])
def test_a_server_holding_the_response_is_cut_at_the_file_deadline(
    mode: str, slow: tuple[str, type[_Slow]], isolated_home: Path, tmp_path: Path
) -> None:
    url, handler = slow
    handler.mode = mode
    conf = tmp_path / "l.conf"
    conf.write_text("!2026.01 TCG\n55144522 0\n")
    assert run(["banlist", "import", str(conf)]).returncode == 0
    before = _snapshot(isolated_home)
    t0 = time.monotonic()
    r = run(
        ["update", "--source", url],
        timeout=90,
        DECKCHECK_UPDATE_FILE_SECONDS="3",
        DECKCHECK_UPDATE_STALL_SECONDS="1000",  # the stall rule off: the deadline alone
    )
    took = time.monotonic() - t0
    _one_error(r, "gave up after 3 s on this file")
    # the first file's 3 s, plus start-up; the socket timeout (30 s) never got its turn
    assert took < 12, took
    assert handler.requests == 1  # no retry past the deadline
    assert _snapshot(isolated_home) == before
