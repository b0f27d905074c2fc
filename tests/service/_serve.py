"""A real ``deckcheck serve`` process on a free loopback port, and raw HTTP over a socket
(what a slow or hostile client does: the HTTP libraries do not let a test trickle bytes)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.conftest import REPO

DM6 = REPO / "examples" / "dm6"
TOKEN = "t0k3n-" + "x" * 26


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def env_for(home: Path) -> dict[str, str]:
    env = {**os.environ, "DECKCHECK_HOME": str(home)}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("DECKCHECK_CACHE", None)
    return env


class Server:
    """A started ``deckcheck serve``: its URL, port, process and what it logged."""

    def __init__(self, proc: subprocess.Popen[bytes], port: int, out: Path, err: Path):
        self.proc = proc
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.out = out
        self.err = err

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        return request(self.url + path, headers=headers)

    def post(
        self, path: str, body: bytes, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        return request(self.url + path, body, headers)

    def access_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.out.read_text().splitlines() if line.strip()]

    def workers(self) -> list[int]:
        """The worker processes of a ``--workers N`` server (its children)."""
        kids: list[int] = []
        for task in Path(f"/proc/{self.proc.pid}/task").glob("*"):
            try:
                kids += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
        return kids


def request(
    url: str, body: bytes | None = None, headers: dict[str, str] | None = None, timeout: float = 30
) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@contextmanager
def serving(home: Path, tmp: Path, *args: str, workers: int = 1) -> Iterator[Server]:
    """``deckcheck serve ARGS`` on a free port until the block ends (stopped with SIGTERM,
    or its process group killed when it does not stop)."""
    port = free_port()
    out, err = tmp / f"serve-{port}.out", tmp / f"serve-{port}.err"
    cmd = [sys.executable, "-m", "deckcheck", "serve", "--port", str(port)]
    cmd += ["--workers", str(workers), *args]
    with open(out, "wb") as fo, open(err, "wb") as fe:
        proc = subprocess.Popen(
            cmd, env=env_for(home), stdout=fo, stderr=fe, start_new_session=True
        )
    server = Server(proc, port, out, err)
    try:
        _wait_ready(server)
        yield server
    finally:
        stop(proc)


def _wait_ready(server: Server, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise AssertionError(
                f"deckcheck serve exited {server.proc.returncode}: {server.err.read_text()}"
            )
        try:
            status, _ = request(server.url + "/health", timeout=2)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"deckcheck serve did not start: {server.err.read_text()}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
    try:  # whatever is left of its group (workers of a killed server)
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()


def raw(port: int, data: bytes, *, timeout: float = 10) -> bytes:
    """Send ``data`` on a new connection and read until the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        return read_all(sock)


def read_all(sock: socket.socket) -> bytes:
    chunks = []
    while True:
        try:
            got = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not got:
            break
        chunks.append(got)
    return b"".join(chunks)


def split_response(data: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return int(lines[0].split()[1]), headers, body


def multipart(player: str, name: str, deck: bytes) -> tuple[bytes, str]:
    """A form post as a browser sends it: ``player`` and the ``deck`` file."""
    boundary = "----deckcheck" + os.urandom(8).hex()
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="player"\r\n\r\n'.encode()
        + player.encode()
        + b"\r\n",
        f'--{boundary}\r\nContent-Disposition: form-data; name="deck"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
        + deck
        + b"\r\n",
        f"--{boundary}--\r\n".encode(),
    ]
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"
