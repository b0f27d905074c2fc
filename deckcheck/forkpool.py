"""A small pool of forked worker processes that maps a function over the chunks of a list,
answers in chunk order (``--jobs`` on Linux): no ``multiprocessing`` import, no helper threads.

The workers are forked with the list already in memory, so a task is a chunk's number: the
parent writes 4-byte numbers into one pipe that every worker reads (a pipe hands out whole
writes of up to ``PIPE_BUF`` bytes, so each number goes to one worker: whichever is free).
Each worker answers on its own pipe, a header (chunk, ok, length) and the pickled answer; the
parent keeps at most ``in_flight`` chunks asked and not yet yielded (memory stays flat). A
worker's exception is raised in the parent; a worker that dies is an error, not a hang.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from deckcheck.errors import DeckcheckError

_TASK = struct.Struct("=I")  # a chunk number
_HEAD = struct.Struct("=IBQ")  # chunk number, 1 = answer / 0 = exception, pickled length
_STOP = 0xFFFFFFFF


def usable() -> bool:
    """Whether this platform forks and hands out pipe writes whole (Linux)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


class WorkerDied(DeckcheckError):
    """A worker process ended without answering (killed, out of memory): one line, exit 2."""


def imap_chunks(
    func: Callable[[list[Any]], Any],
    items: Sequence[Any],
    chunk: int,
    workers: int,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...] = (),
    in_flight: int | None = None,
) -> Iterator[Any]:
    """``func(items[i:i + chunk])`` for each chunk, in order, computed in ``workers`` forked
    processes, each set up once by ``initializer(*initargs)``."""
    n = -(-len(items) // chunk)
    in_flight = max(1, in_flight or 2 * workers)
    task_r, task_w = os.pipe()
    finished = False
    pids: list[int] = []
    reads: list[int] = []
    try:
        for _ in range(workers):
            res_r, res_w = os.pipe()
            pid = os.fork()
            if pid == 0:  # the worker: never returns
                for fd in (task_w, res_r, *reads):
                    os.close(fd)
                _serve(func, items, chunk, initializer, initargs, task_r, res_w)
            os.close(res_w)
            pids.append(pid)
            reads.append(res_r)
        os.close(task_r)
        task_r = -1
        asked = 0
        while asked < min(n, in_flight):
            _ask(task_w, asked)
            asked += 1
        done: dict[int, bytes] = {}
        readers = {fd: _Reader(fd) for fd in reads}
        for want in range(n):
            while want not in done:
                ready, _, _ = select.select(list(readers), [], [])
                for fd in ready:
                    got = readers[fd].feed()
                    if got is None:  # a worker ends only when told to: this one died
                        raise WorkerDied(_DIED)
                    for index, ok, payload in got:
                        if not ok:
                            raise _error(payload)
                        done[index] = payload
            payload = done.pop(want)
            if asked < n:
                _ask(task_w, asked)
                asked += 1
            yield pickle.loads(payload)
        finished = True
    finally:
        if task_r >= 0:
            os.close(task_r)
        try:
            for _ in pids:
                os.write(task_w, _TASK.pack(_STOP))
        except OSError:
            pass
        os.close(task_w)
        for fd in reads:
            os.close(fd)
        for pid in pids:
            _reap(pid, wait=finished)


def _ask(task_w: int, index: int) -> None:
    try:
        os.write(task_w, _TASK.pack(index))
    except BrokenPipeError:  # no worker reads any more: they all died
        raise WorkerDied(_DIED) from None


_DIED = "a --jobs worker process ended without answering (killed? out of memory?); try --jobs 1"


class _Reader:
    """One worker's answers as they come (an answer may take several reads)."""

    __slots__ = ("fd", "buf")

    def __init__(self, fd: int):
        self.fd = fd
        self.buf = bytearray()

    def feed(self) -> list[tuple[int, int, bytes]] | None:
        """Read what the pipe holds (it is readable); the answers now whole, None at end
        of file."""
        data = os.read(self.fd, 1 << 20)
        if not data:
            return None
        buf = self.buf
        buf += data
        got = []
        while len(buf) >= _HEAD.size:
            index, ok, size = _HEAD.unpack_from(buf)
            end = _HEAD.size + size
            if len(buf) < end:
                break
            got.append((index, ok, bytes(buf[_HEAD.size : end])))
            del buf[:end]
        return got


def _error(payload: bytes) -> BaseException:
    try:
        exc = pickle.loads(payload)
    except Exception as err:  # noqa: BLE001  # an exception that pickles but does not load
        return RuntimeError(f"a --jobs worker failed ({err})")
    return exc if isinstance(exc, BaseException) else RuntimeError(str(exc))


def _serve(
    func: Callable[[list[Any]], Any],
    items: Sequence[Any],
    chunk: int,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...],
    task_r: int,
    res_w: int,
) -> None:
    """A worker's life: set up, then answer chunk numbers until told to stop; then leave
    without running the parent's exit handlers or flushing its inherited buffers."""
    code = 0
    try:
        initializer(*initargs)
        while True:
            data = os.read(task_r, _TASK.size)
            if len(data) < _TASK.size:
                break  # the parent is gone
            (index,) = _TASK.unpack(data)
            if index == _STOP:
                break
            try:
                payload = pickle.dumps(
                    func(list(items[index * chunk : (index + 1) * chunk])), pickle.HIGHEST_PROTOCOL
                )
                ok = 1
            except Exception as exc:  # noqa: BLE001  # raised again in the parent
                payload, ok = _pickled_error(exc), 0
            _write_all(res_w, _HEAD.pack(index, ok, len(payload)) + payload)
    except BaseException:  # noqa: BLE001  # interrupted, or the parent went away
        code = 1
    finally:
        os._exit(code)


def _pickled_error(exc: Exception) -> bytes:
    try:
        return pickle.dumps(exc, pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001  # an exception that does not pickle: its text
        return pickle.dumps(RuntimeError(f"{type(exc).__name__}: {exc}"))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _reap(pid: int, wait: bool) -> None:
    """Wait for a worker (told to stop, it ends at once); when the parent stopped early
    (an error, or its reader went away), end it first: it may be mid-chunk."""
    try:
        if not wait:
            import signal

            os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass
