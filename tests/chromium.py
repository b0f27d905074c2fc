"""A headless Debian ``chromium`` driven over the DevTools protocol, for tests and benchmarks.

Only what the HTML report's tests need: open a local file, wait for its load event, evaluate
JavaScript (clicks, reading what is visible), take screenshots, and count network requests.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

FLAGS = [
    "--headless",
    "--no-sandbox",  # tests run as root, where chromium's sandbox refuses to start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def find() -> str | None:
    """The chromium binary, or None where it is not installed."""
    for name in ("chromium", "chromium-browser"):
        got = shutil.which(name)
        if got:
            return got
    return None


def require() -> None:
    """Skip the calling test where chromium is not installed (fail in CI, which installs it:
    DECKCHECK_REQUIRE_TOOLS=1)."""
    if find() is None:
        import pytest

        reason = "chromium is not installed (apt-get install chromium; .ci/run does it)"
        if os.environ.get("DECKCHECK_REQUIRE_TOOLS"):
            pytest.fail(reason)
        pytest.skip(reason)


def dump_dom(path: Path, timeout: float = 60) -> str:
    """The DOM of a local page after its scripts ran (``chromium --dump-dom``)."""
    exe = find()
    assert exe, "chromium is not installed"
    with tempfile.TemporaryDirectory(prefix="deckcheck-chromium-") as profile:
        done = subprocess.run(
            [exe, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", path.resolve().as_uri()],
            capture_output=True,
            timeout=timeout,
            check=True,
        )
    return done.stdout.decode("utf-8")


def screenshot(path: Path, png: Path, width: int = 1280, height: int = 1600) -> None:
    """A PNG of a local page (``chromium --screenshot``)."""
    exe = find()
    assert exe, "chromium is not installed"
    with tempfile.TemporaryDirectory(prefix="deckcheck-chromium-") as profile:
        subprocess.run(
            [
                exe,
                *FLAGS,
                f"--user-data-dir={profile}",
                f"--screenshot={png}",
                f"--window-size={width},{height}",
                "--hide-scrollbars",
                path.resolve().as_uri(),
            ],
            capture_output=True,
            timeout=60,
            check=True,
        )


class _WebSocket:
    """The few bits of RFC 6455 a DevTools client needs (text frames, masked; no extensions)."""

    def __init__(self, url: str, timeout: float):
        import socket
        from urllib.parse import urlsplit

        u = urlsplit(url)
        self.sock = socket.create_connection((u.hostname, u.port or 80), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("DevTools closed the connection during the handshake")
            head += chunk
        head, self._buf = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"DevTools refused the websocket: {head[:200]!r}")

    def _read(self, n: int) -> bytes:
        while len(self._buf) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            self._buf += chunk
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def send(self, text: str) -> None:
        data = text.encode()
        n = len(data)
        head = bytearray([0x81])
        if n < 126:
            head.append(0x80 | n)
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        head += mask
        self.sock.sendall(bytes(head) + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def recv(self) -> str:
        parts: list[bytes] = []
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = int.from_bytes(self._read(2), "big")
            elif n == 127:
                n = int.from_bytes(self._read(8), "big")
            payload = self._read(n)  # the server never masks its frames
            op = b0 & 0x0F
            if op == 0x8:
                raise RuntimeError("DevTools closed the websocket")
            if op in (0x9, 0xA):  # ping/pong: chromium does not ping, ignore either
                continue
            parts.append(payload)
            if b0 & 0x80:
                return b"".join(parts).decode()

    def close(self) -> None:
        self.sock.close()


class Browser:
    """One chromium process and one page, driven over its DevTools websocket."""

    def __init__(self, timeout: float = 60):
        exe = find()
        assert exe, "chromium is not installed"
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="deckcheck-chromium-")
        self.proc = subprocess.Popen(
            [
                exe,
                *FLAGS,
                f"--user-data-dir={self.profile}",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.ws: _WebSocket | None = None
        self._ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []
        try:
            port = self._port()
            page = self._page_target(port)
            self.ws = _WebSocket(f"ws://127.0.0.1:{port}/devtools/page/{page}", timeout)
            self.call("Page.enable")
            self.call("Network.enable")
            self.call("Runtime.enable")
        except BaseException:
            self.close()
            raise

    def _port(self) -> int:
        # chromium says where it listens on stderr; the profile's DevToolsActivePort says too.
        deadline = time.monotonic() + self.timeout
        port_file = Path(self.profile) / "DevToolsActivePort"
        while time.monotonic() < deadline:
            if port_file.is_file():
                first = port_file.read_text().split("\n", 1)[0].strip()
                if first.isdigit():
                    return int(first)
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise RuntimeError(f"chromium exited {self.proc.returncode}: {err[-2000:]}")
            time.sleep(0.05)
        raise RuntimeError("chromium did not open its DevTools port")

    def _page_target(self, port: int) -> str:
        import urllib.request

        deadline = time.monotonic() + self.timeout
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as r:
                    targets = json.load(r)
                for t in targets:
                    if t.get("type") == "page":
                        return str(t["id"])
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("chromium has no page target")
            time.sleep(0.05)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and return its result (events seen meanwhile are kept)."""
        n = next(self._ids)
        assert self.ws is not None
        self.ws.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            msg = json.loads(self._ws().recv())
            if msg.get("id") == n:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})  # type: ignore[no-any-return]
            self.events.append(msg)

    def _ws(self) -> _WebSocket:
        assert self.ws is not None, "the browser is closed"
        return self.ws

    def wait_event(self, method: str) -> dict[str, Any]:
        for i, ev in enumerate(self.events):
            if ev.get("method") == method:
                return self.events.pop(i)
        while True:
            msg = json.loads(self._ws().recv())
            if msg.get("method") == method:
                return msg
            self.events.append(msg)

    def open(self, path: Path) -> None:
        """Load a local file and wait for its load event (scripts have run by then)."""
        self.events.clear()
        self.call("Page.navigate", url=path.resolve().as_uri())
        self.wait_event("Page.loadEventFired")

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression on the page (JSON-serialisable values)."""
        got = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in got:
            raise RuntimeError(f"JavaScript failed: {got['exceptionDetails']}")
        return got["result"].get("value")

    def requests(self) -> list[str]:
        """URLs of every request the page made since it was opened."""
        return [
            ev["params"]["request"]["url"]
            for ev in self.events
            if ev.get("method") == "Network.requestWillBeSent"
        ]

    def screenshot(
        self, png: Path, width: int = 1280, height: int = 900, mobile: bool = False
    ) -> None:
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        data = self.call("Page.captureScreenshot", format="png")["data"]
        png.write_bytes(base64.b64decode(data))
        self.call("Emulation.clearDeviceMetricsOverride")

    def pdf(self, out: Path) -> None:
        """The page printed (print CSS applies), as chromium's own PDF."""
        data = self.call("Page.printToPDF", printBackground=True)["data"]
        out.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            if self.ws is not None:
                self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            if self.proc.stderr:
                self.proc.stderr.close()
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: the attributes whose value a browser fetches
_FETCHING_ATTRS = ("src", "href", "action", "xlink:href", "poster", "data", "srcset")


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.refs: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("link", "iframe", "object", "embed", "img", "video", "audio", "source", "base"):
            self.refs.append(f"<{tag}>")
        for name, value in attrs:
            value = value or ""
            if name in _FETCHING_ATTRS and not value.startswith("#"):
                self.refs.append(f"{name}={value}")
            if name == "style":
                self._css(value)
        self._in = tag if tag in ("style", "script") else None

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "style":
            self._css(data)
        elif self._in == "script":
            self.refs += re.findall(r"(?i)\b(?:https?|wss?|file)://\S*", data)
            self.refs += re.findall(r"\b(?:fetch|XMLHttpRequest|WebSocket|importScripts)\b", data)

    def _css(self, css: str) -> None:
        self.refs += re.findall(r"(?i)url\(\s*['\"]?(?!#)[^)]*\)", css)
        self.refs += re.findall(r"(?i)@import\b[^;]*", css)


def external_refs(html: str) -> list[str]:
    """Every reference in ``html`` that would leave the file (tags, attributes, CSS, script).

    Text is not a reference: an escaped file name that reads ``src=x`` stays text.
    """
    p = _Refs()
    p.feed(html)
    p.close()
    return p.refs


__all__ = ["Browser", "dump_dom", "external_refs", "find", "require", "screenshot"]
