"""A real ``deckcheck serve`` on a free loopback port: the checks end to end, and what slow
and hostile clients get (a body over the cap, binary, a trickled body or head)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from tests.service._serve import (
    DM6,
    TOKEN,
    Server,
    env_for,
    raw,
    read_all,
    serving,
    split_response,
)

ILLEGAL = (DM6 / "illegal.ydk").read_bytes()
CAP = 64 * 1024


@pytest.fixture(scope="module")
def server(service_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("server")
    (tmp / "token").write_text(TOKEN)
    args = ["-f", "dm6", "--timeout", "1", "--max-body", "64K"]
    args += ["--submissions", str(tmp / "subs"), "--token-file", str(tmp / "token")]
    with serving(service_home, tmp, *args) as s:
        yield s


def post_head(length: int | None, path: str = "/v1/check", extra: str = "") -> bytes:
    size = (
        f"Content-Length: {length}\r\n" if length is not None else "Transfer-Encoding: chunked\r\n"
    )
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n{size}{extra}\r\n"
    ).encode()


def test_a_check_end_to_end(server: Server) -> None:
    status, body = server.post("/v1/check?date=2026-06-01", ILLEGAL)
    assert status == 200
    answer = json.loads(body)
    assert answer["legal"] is False and answer["format"]["id"] == "dm6"
    assert {f["code"] for f in answer["findings"]} == {"DC402", "DC403", "DC502"}
    status, body = server.get("/health")
    assert status == 200 and json.loads(body)["data"]["cards"]["sample"] is True


def test_keep_alive_serves_many_requests_on_one_connection(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        for _ in range(5):
            sock.sendall(post_head(len(ILLEGAL)) + ILLEGAL)
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(65536)
            status, headers, rest = split_response(head)
            while len(rest) < int(headers["content-length"]):
                rest += sock.recv(65536)
            assert status == 200 and json.loads(rest)["legal"] is False


def test_a_20_mb_body_is_413_before_it_is_read(server: Server) -> None:
    t = time.monotonic()
    status, headers, body = split_response(raw(server.port, post_head(20 * 1024 * 1024)))
    assert status == 413 and json.loads(body)["error"] == "too-large"
    assert headers["connection"] == "close" and time.monotonic() - t < 5


def test_a_20_mb_body_sent_whole_gets_its_413(server: Server) -> None:
    # a client that sends everything before it reads (no length: chunked) still gets the
    # answer, not a reset: the rest of the body is read and dropped (bounded)
    chunk = b"1\n" * 32768
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:

        def send() -> None:
            try:
                sock.sendall(post_head(None))
                for _ in range(20 * 1024 * 1024 // len(chunk)):
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sock.sendall(b"0\r\n\r\n")
            except OSError:
                pass  # the server closed once it had answered

        sender = threading.Thread(target=send)
        sender.start()
        got = read_all(sock)
        sender.join()
    status, _, body = split_response(got)
    assert status == 413 and f"{CAP:,}" in json.loads(body)["message"]


def test_binary_is_400(server: Server) -> None:
    junk = bytes(range(256)) * 8
    status, _, body = split_response(
        raw(server.port, post_head(len(junk), extra="Connection: close\r\n") + junk)
    )
    assert status == 400 and json.loads(body)["error"] == "unreadable"


def test_a_trickled_body_is_cut_off_with_408(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(post_head(1000) + b"#main\n")
        t = time.monotonic()
        got = b""
        for _ in range(20):  # a byte every 0.2 s: never the whole body within the second
            try:
                sock.sendall(b"1")
            except OSError:
                break
            time.sleep(0.2)
            sock.setblocking(False)
            try:
                got += sock.recv(65536)
            except BlockingIOError:
                pass
            finally:
                sock.setblocking(True)
            if got:
                break
        got += read_all(sock)
    status, _headers, body = split_response(got)
    assert status == 408 and json.loads(body)["error"] == "timeout"
    assert time.monotonic() - t < 4


def test_a_trickled_head_is_cut_off(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        t = time.monotonic()
        closed = False
        for byte in b"POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            sock.settimeout(0.2)
            try:
                if sock.recv(1) == b"":
                    closed = True
                    break
            except TimeoutError:
                pass
        assert closed, "the server kept a connection that trickled its head"
    assert time.monotonic() - t < 4


def test_an_idle_connection_is_closed(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        t = time.monotonic()
        assert sock.recv(1) == b""
    assert time.monotonic() - t < 4


def test_access_lines_are_json(server: Server) -> None:
    server.get("/health")
    time.sleep(0.2)
    lines = server.access_lines()
    assert lines, "no access line"
    health = [x for x in lines if x["path"] == "/health"][-1]
    assert health["method"] == "GET" and health["status"] == 200 and health["ms"] >= 0
    assert set(health) >= {"ts", "pid", "client", "in", "out"}
    big = [x for x in lines if x["status"] == 413]
    assert big and big[-1]["error"] == "too-large"
    assert "Traceback" not in server.err.read_text()


def test_without_the_extra_it_says_which_to_install(tmp_path: Path) -> None:
    # fastapi hidden: importing it fails as it would where the extra is not installed
    code = "import sys; sys.modules['fastapi'] = None\nfrom deckcheck.cli import main\n"
    code += "sys.exit(main(['serve']))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env_for(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "deckcheck[serve]" in done.stderr and "fastapi" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_start_is_one_line(tmp_path: Path, service_home: Path) -> None:
    (tmp_path / "short").write_text("abc")
    for args, says in (
        (["--token-file", str(tmp_path / "short")], "at least 16"),
        (["--token-file", str(tmp_path / "missing")], "token file"),
        (["-f", "nope"], "unknown format"),
        (["-d", "2026-02-30"], "not a date"),
        (["--max-body", "lots"], "not a size"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "deckcheck", "serve", "--port", "1", *args],
            env=env_for(service_home),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 2, (args, done.stderr)
        assert says in done.stderr and "Traceback" not in done.stderr, done.stderr
