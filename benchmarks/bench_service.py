"""Issue 31's load goals for ``deckcheck serve``, side by side with the peer in one run.

    python benchmarks/bench_service.py [--data ../shared/data] [--home H] [--workers 1,2]
                                       [--requests 3000] [--concurrency 16] [--runs 3]

A real ``deckcheck serve`` process on 127.0.0.1 (a free port) and a bounded asyncio client
in this process: ``--concurrency`` keep-alive connections, ``POST /v1/check`` with the real
decks of ``../shared/data/decks`` (round-robin, as sent by a deck site: the file's bytes),
``--requests`` requests after a warm-up of 300, every answer checked (status 200, a deck
entry). Bounded in count and time (``--max-seconds`` a run).

* peer: the in-process per-deck rate of ``deckcheck validate --jobs 1 -o json`` on the same
  decks (a folder of copies of them, 15 each; ``cli.main`` timed in a process of its own
  after a warm-up run), measured before and after the load runs; the median is the peer.
* goals: throughput >= 0.33x the peer's decks/s (0.5x stretch); p99 <= 10x p50; 0 errors;
  server memory (RSS of the server and its workers) grows <= 100 MB over the requests.

Writes benchmarks/results/service.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from _common import DEFAULT_DATA, machine, ready_home, write_result  # noqa: E402

DATE = "2026-06-01"  # the 2026.05 TCG list in force (as bench_goals)
WARMUP = 300
COPIES = 15

_PEER = """
import contextlib, os, sys, time
from deckcheck.cli import main
args = ["validate", "--jobs", "1", "-o", "json", "--date", sys.argv[1], sys.argv[2]]
out = open(os.devnull, "w")
times = []
for i in range(int(sys.argv[3]) + 1):
    t = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        main(args)
    if i:
        times.append(time.perf_counter() - t)
print(min(times), sorted(times)[len(times) // 2])
"""


def env_for(home: Path) -> dict[str, str]:
    extra = os.environ.get("BENCH_EXTRA_PATH")  # (a folder of other packages to try)
    path = f"{REPO}{os.pathsep}{extra}" if extra else str(REPO)
    env = {**os.environ, "DECKCHECK_HOME": str(home), "PYTHONPATH": path}
    for var in ("GITHUB_ACTIONS", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"):
        env.pop(var, None)
    return env


def corpus(decks: list[Path], root: Path) -> Path:
    """``COPIES`` copies of each deck in one folder (the peer's input)."""
    out = root / "corpus"
    out.mkdir(exist_ok=True)
    for i in range(len(decks) * COPIES):
        shutil.copyfile(decks[i % len(decks)], out / f"{i:06d}.ydk")
    return out


def peer(folder: Path, n: int, env: dict[str, str], runs: int) -> float:
    """Decks a second of ``validate --jobs 1 -o json`` in process (the median run)."""
    done = subprocess.run(
        [sys.executable, "-c", _PEER, DATE, str(folder), str(runs)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    _best, median = map(float, done.stdout.split())
    return n / median


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tree_rss_mib(pid: int) -> float:
    """RSS of ``pid`` and its descendants (the server and its workers), MiB."""
    kib = 0
    for p in _tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    kib += int(line.split()[1])
        except OSError:
            pass
    return kib / 1024


def tree_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its descendants so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / tick


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
    return pids


def start_server(env: dict[str, str], workers: int) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    cmd = [sys.executable, "-m", "deckcheck", "serve", "--port", str(port), "-d", DATE]
    cmd += ["--workers", str(workers), "--no-access-log"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"the server exited {proc.returncode}: {err[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                if r.status == 200:
                    return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not answer /health in 120 s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stderr:
        proc.stderr.close()


class Load:
    """A bounded client: ``concurrency`` keep-alive connections sending ``n`` requests."""

    def __init__(self, port: int, bodies: list[bytes], concurrency: int, max_seconds: float):
        self.port = port
        self.bodies = bodies
        self.concurrency = concurrency
        self.max_seconds = max_seconds

    async def run(self, n: int) -> dict[str, Any]:
        self.next = 0
        self.n = n
        self.latencies: list[float] = []
        self.errors: list[str] = []
        t0 = time.perf_counter()
        try:
            await asyncio.wait_for(
                asyncio.gather(*(self._connection() for _ in range(self.concurrency))),
                self.max_seconds,
            )
        except TimeoutError:
            self.errors.append(f"run cut at {self.max_seconds} s")
        wall = time.perf_counter() - t0
        lat = sorted(self.latencies)
        p50 = lat[len(lat) // 2] if lat else float("nan")
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")
        return {
            "requests": len(lat),
            "seconds": round(wall, 3),
            "rps": round(len(lat) / wall, 1),
            "p50_ms": round(p50 * 1000, 3),
            "p99_ms": round(p99 * 1000, 3),
            "p99_over_p50": round(p99 / p50, 2) if lat else None,
            "errors": len(self.errors),
            "error_examples": self.errors[:5],
        }

    async def _connection(self) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            while self.next < self.n:
                i = self.next
                self.next += 1
                body = self.bodies[i % len(self.bodies)]
                head = (
                    "POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n\r\n"
                ).encode()
                t = time.perf_counter()
                writer.write(head + body)
                status, answer = await _response(reader)
                self.latencies.append(time.perf_counter() - t)
                if (
                    status != 200
                    or not answer.startswith(b'{"input": ')
                    or b'"legal": ' not in answer
                ):
                    self.errors.append(f"{status}: {answer[:200]!r}")
                elif i % 97 == 0:
                    json.loads(answer)  # every so often, the whole answer parsed
        except (OSError, asyncio.IncompleteReadError) as exc:
            self.errors.append(f"connection: {exc!r}")
        finally:
            writer.close()


async def _response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    return status, await reader.readexactly(length)


def load_run(port: int, pid: int, bodies: list[bytes], args: argparse.Namespace) -> dict[str, Any]:
    load = Load(port, bodies, args.concurrency, args.max_seconds)
    asyncio.run(load.run(WARMUP))
    rss0 = tree_rss_mib(pid)
    cpu0, mine0 = tree_cpu_s(pid), time.process_time()
    got = asyncio.run(load.run(args.requests))
    # where the time went: the server's CPU and the client's (the two share the cores)
    got["server_cpu_ms_per_request"] = round((tree_cpu_s(pid) - cpu0) / args.requests * 1000, 3)
    got["client_cpu_ms_per_request"] = round(
        (time.process_time() - mine0) / args.requests * 1000, 3
    )
    got["rss_mib_before"] = round(rss0, 1)
    got["rss_mib_after"] = round(tree_rss_mib(pid), 1)
    got["rss_growth_mib"] = round(got["rss_mib_after"] - rss0, 1)
    return got


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--home", type=Path, help="reuse this data home instead of building one")
    ap.add_argument("--workers", default="1,2", help="server worker counts to run, e.g. 1,2")
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--runs", type=int, default=3, help="peer runs (a median)")
    ap.add_argument("--max-seconds", type=float, default=120.0)
    args = ap.parse_args()
    decks = sorted((args.data / "decks").rglob("*.ydk"))
    if not decks:
        ap.error(f"no decks in {args.data / 'decks'} (--data names ../shared/data)")
    bodies = [p.read_bytes() for p in decks]
    out: dict[str, Any] = {"load_before": os.getloadavg(), "date": DATE}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = env_for(ready_home(args.data, args.home, root))
        folder = corpus(decks, root)
        n = len(decks) * COPIES
        peers = [peer(folder, n, env, args.runs)]
        print(f"peer: validate --jobs 1 in process: {peers[0]:.0f} decks/s", flush=True)
        runs: dict[str, Any] = {}
        for w in [int(x) for x in args.workers.split(",")]:
            proc, port = start_server(env, w)
            try:
                runs[f"workers_{w}"] = got = load_run(port, proc.pid, bodies, args)
            finally:
                stop_server(proc)
            print(f"workers {w}: {got}", flush=True)
        peers.append(peer(folder, n, env, args.runs))
        rate = statistics.median(peers)
        out["peer_decks_per_s"] = [round(p, 1) for p in peers]
        for got in runs.values():
            got["ratio_to_peer"] = round(got["rps"] / rate, 3)
            got["goals_met"] = {
                "throughput_0.33": got["ratio_to_peer"] >= 0.33,
                "stretch_0.5": got["ratio_to_peer"] >= 0.5,
                "p99_10x_p50": (got["p99_over_p50"] or 99) <= 10,
                "no_errors": got["errors"] == 0,
                "memory_100mb": got["rss_growth_mib"] <= 100,
            }
        out["runs"] = runs
    out["load_after"] = os.getloadavg()
    out["machine"] = machine()
    print(json.dumps({k: v for k, v in out.items() if k != "machine"}, indent=1))
    write_result("service", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
