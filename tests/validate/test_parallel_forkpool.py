"""``deckcheck.forkpool``: answers in chunk order, a worker's error raised in the parent, a
dead worker an error (not a hang), no worker left behind however the map ends."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deckcheck import forkpool

pytestmark = pytest.mark.skipif(not forkpool.usable(), reason="the fork pool is Linux-only")

_STATE: dict[str, int] = {}


def _setup(bonus: int) -> None:
    _STATE["bonus"] = bonus


def _squares(chunk: list[int]) -> list[int]:
    return [x * x + _STATE["bonus"] for x in chunk]


def _fails_on_13(chunk: list[int]) -> list[int]:
    if 13 in chunk:
        raise ValueError(f"no 13 please ({chunk[0]}..{chunk[-1]})")
    return chunk


def _dies_on_13(chunk: list[int]) -> list[int]:
    if 13 in chunk:
        os._exit(3)  # killed, out of memory: no answer
    return chunk


def _big(chunk: list[int]) -> str:
    return "".join(str(x) * 50_000 for x in chunk)  # answers far over a pipe's buffer


def children() -> set[int]:
    """This process's child processes (Linux's /proc)."""
    got: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        kids = task / "children"
        if kids.exists():
            got.update(int(p) for p in kids.read_text().split())
    return got


@pytest.mark.parametrize(
    ("n", "chunk", "workers"), [(1000, 7, 2), (5, 64, 2), (64, 8, 3), (1, 1, 2)]
)
def test_answers_in_chunk_order(n: int, chunk: int, workers: int) -> None:
    before = children()
    items = list(range(n))
    got = list(forkpool.imap_chunks(_squares, items, chunk, workers, _setup, (5,)))
    assert got == [_squares_local(items[i : i + chunk]) for i in range(0, n, chunk)]
    assert children() == before  # every worker waited for


def _squares_local(chunk: list[int]) -> list[int]:
    return [x * x + 5 for x in chunk]


def test_big_answers_arrive_whole() -> None:
    items = list(range(40))
    got = list(forkpool.imap_chunks(_big, items, 3, 2, _setup, (0,), in_flight=2))
    assert got == [_big(items[i : i + 3]) for i in range(0, 40, 3)]


def test_a_workers_exception_is_raised_here() -> None:
    before = children()
    answers = forkpool.imap_chunks(_fails_on_13, list(range(100)), 4, 2, _setup, (0,))
    with pytest.raises(ValueError, match=r"no 13 please \(12..15\)"):
        list(answers)
    assert children() == before


@pytest.mark.parametrize("workers", [1, 2])
def test_a_dead_worker_is_an_error_not_a_hang(workers: int) -> None:
    before = children()
    answers = forkpool.imap_chunks(_dies_on_13, list(range(100)), 4, workers, _setup, (0,))
    got: list[list[int]] = []
    with pytest.raises(forkpool.WorkerDied):
        for part in answers:
            got.append(part)  # noqa: PERF402 (list(answers) would lose the parts before the death)
    assert got == [list(range(i, i + 4)) for i in range(0, len(got) * 4, 4)]
    assert len(got) <= 3  # the chunks before it, at most
    assert children() == before


def test_stopping_early_ends_the_workers() -> None:
    before = children()
    answers = forkpool.imap_chunks(_squares, list(range(10_000)), 10, 2, _setup, (0,))
    assert next(answers) == [x * x for x in range(10)]
    assert children() - before  # the workers are running
    answers.close()
    assert children() == before
