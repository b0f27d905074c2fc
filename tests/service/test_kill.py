"""SIGKILL a worker, then the server, while players submit: every submission answered 2xx
is on disk and whole, and no file under a submission's name is ever a part of one."""

from __future__ import annotations

import http.client
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from tests.service._serve import DM6, multipart, request, serving

DECK = (DM6 / "illegal.ydk").read_bytes()


def test_killed_worker_and_server_lose_no_answered_submission(
    service_home: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "subs"
    answered: dict[str, bytes] = {}  # file name -> what was sent
    sent: list[bytes] = []
    stop = threading.Event()
    with serving(service_home, tmp_path, "-f", "dm6", "--submissions", str(folder), workers=2) as s:

        def player(n: int) -> None:
            i = 0
            while not stop.is_set():
                i += 1
                deck = f"#created by player {n} try {i}\n".encode() + DECK
                sent.append(deck)
                body, ctype = multipart(f"Player {n}", "deck.ydk", deck)
                try:
                    status, got = request(
                        s.url + "/submit", body, {"Content-Type": ctype}, timeout=10
                    )
                except (OSError, http.client.HTTPException):
                    time.sleep(0.05)  # killed mid-answer, restarting, or gone: try again
                    continue
                if 200 <= status < 300:
                    answered[json.loads(got)["file"]] = deck

        players = [threading.Thread(target=player, args=(n,)) for n in range(4)]
        for t in players:
            t.start()
        try:
            _wait(lambda: len(answered) >= 15)
            worker = s.workers()[0]
            os.kill(worker, signal.SIGKILL)  # one worker, mid-stream
            before = len(answered)
            _wait(lambda: len(answered) >= before + 15)  # the other (and a new one) go on
            os.kill(s.proc.pid, signal.SIGKILL)  # the server
            os.killpg(s.proc.pid, signal.SIGKILL)  # and every worker left
            time.sleep(0.3)
        finally:
            stop.set()
            for t in players:
                t.join(30)
    assert len(answered) >= 30
    names = {p.name: p for p in folder.iterdir() if not p.name.startswith(".")}
    for file in answered:
        assert file in names, f"{file} was answered 2xx but is not on disk"
    decks = set(sent)
    for name, p in names.items():  # answered or not: a whole submission, never a part
        head, rest = p.read_bytes().split(b"\n", 1)
        assert head.startswith(b"#player Player ") and rest in decks, name
        if name in answered:
            assert rest == answered[name]


def _wait(done: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the submissions did not go on"
        time.sleep(0.02)
