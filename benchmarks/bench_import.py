"""Measures issue 18 P5: importing every upstream file, and an `update` with nothing changed.

    python benchmarks/bench_import.py [--data ../shared/data] [--runs 3] [--zip]
                                      [--only import|update]

``import``: median of N, wall and CPU seconds, of (a) cards.cdb + the 10 locale files,
(b) the same plus the official card data (yaml-yugi cards/rush/skill.json, EDOPro's
strings.conf and YGOJSON: the folder, or with ``--zip`` its release zip built once,
untimed; series, printings, card text and archetype membership are built with them), and
(c) **everything**:
(b) and then every list file — the lflist history (169 ProjectIgnis + 105 YGOPro lists), all
354 yaml-yugi-limit-regulation files and the Duel Links dev.db — into the same home, the
lists named through that database. Goal: (c) <= 30 s.

``update``: a loopback mirror on 127.0.0.1 (``tests/_realhome.upstream_mirror``: every file
`update` fetches, the two zips built untimed; served by ``python -m http.server`` in its own
process) and a fresh home; the first ``python -m deckcheck update --source URL`` (every
download and import, timed once), then the same with nothing changed, as a user runs it
(median of N, wall, a new process each). Goal: <= 2 s.
The load average is printed beside the figures: on this shared 2-core machine wall time
counts the other users' work too (CPU seconds do not).

Prints a table and writes benchmarks/results/import.json.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _common import DEFAULT_DATA, REPO, _realhome, home_env, write_result  # noqa: E402

TARGETS = {
    "cdb+locales": 15.0,
    "cdb+locales+official": 30.0,
    "everything": 30.0,
    "update unchanged": 2.0,
}  # issue 18 P5


def _zip(src: Path, dest: Path) -> Path:
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for f in sorted(src.rglob("*.json")):
            z.write(f, f.relative_to(src).as_posix())
    return dest


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _list_files(data: Path) -> list[Path]:
    rh = _realhome()
    lr = data / "banlists" / "yaml-yugi-limit-regulation"
    return [
        *rh.projectignis_lists(data),
        *rh.ygopro_lists(data, "TCG"),
        *rh.ygopro_lists(data, "OCG"),
        *sorted(lr.glob("*/*.json")),
        data / "upstream/falsepopsky__forbidden-duel-links/prisma/dev.db",
    ]


def _measure(files: list[Path], runs: int, lists: list[Path] | None = None) -> dict[str, Any]:
    from deckcheck.carddb.importer import import_files
    from deckcheck.formats.importer import import_lflists

    times, cpu, list_times, loads = [], [], [], []
    summary = None
    size = n_lists = 0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp)
            db_path = home / "cards.sqlite3"
            loads.append(_load())
            t0, c0 = time.perf_counter(), time.process_time()
            summary = import_files(files, db_path=db_path)
            if lists is not None:
                t1 = time.perf_counter()
                # unmapped-id notes go to stderr
                with home_env(home), contextlib.redirect_stderr(io.StringIO()):
                    res = import_lflists(lists, dest=home / "banlists")
                n_lists = len(res.lists)
                list_times.append(time.perf_counter() - t1)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            size = db_path.stat().st_size
    assert summary is not None
    out: dict[str, Any] = {
        "files": len(files) + len(lists or []),
        "cards": summary.cards,
        "names": sum(summary.names_by_lang.values()),
        "db_bytes": size,
        "runs_s": [round(t, 3) for t in times],
        "median_s": round(statistics.median(times), 3),
        # CPU time of this process: on a shared machine wall time also counts the others
        "cpu_median_s": round(statistics.median(cpu), 3),
        "load": loads,
    }
    if lists is not None:
        out["lists_median_s"] = round(statistics.median(list_times), 3)
        out["lists"] = n_lists
    return out


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(root: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m http.server`` on the mirror (Last-Modified, If-Modified-Since -> 304), in
    its own process so that serving does not share this process's interpreter lock."""
    import socket

    port = _free_port()
    srv = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "http.server",
            str(port),
            "--bind",
            "127.0.0.1",
            "--directory",
            str(root),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return srv, f"http://127.0.0.1:{port}"
        time.sleep(0.1)
    srv.kill()
    raise SystemExit("the mirror server did not start")


def _update(url: str, env: dict[str, str]) -> tuple[float, float, dict[str, Any]]:
    """One `deckcheck update` as a user runs it: wall and CPU seconds (children), report."""
    import json

    c0 = os.times()
    t0 = time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-m", "deckcheck", "update", "--source", url, "-o", "json"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - t0
    c1 = os.times()
    if p.returncode != 0:
        raise SystemExit(f"update failed: {p.stderr}")
    cpu = (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
    return wall, cpu, json.loads(p.stdout)


def _measure_update(data: Path, runs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        root = _realhome().upstream_mirror(data, Path(tmp) / "mirror")
        srv, url = _serve(root)
        env = dict(os.environ, DECKCHECK_HOME=str(Path(tmp) / "home"), PYTHONPATH=str(REPO))
        try:
            load_first = _load()
            first_s, first_cpu, first = _update(url, env)
            again: list[float] = []
            loads = []
            last: dict[str, Any] = {}
            for _ in range(runs):
                loads.append(_load())
                wall, _cpu, last = _update(url, env)
                again.append(wall)
        finally:
            srv.terminate()
            srv.wait()
    return {
        "files": len(first["files"]),
        "first_update_s": round(first_s, 3),
        "first_update_cpu_s": round(first_cpu, 3),
        "first_load": load_first,
        "runs_s": [round(x, 3) for x in again],
        "median_s": round(statistics.median(again), 3),
        "load": loads,
        "second_statuses": sorted({f["status"] for f in last["files"]}),
        "second_rebuilt": bool(last["cards_updated"] or last["lists_updated"]),
        "second_requests": last["requests"],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--zip", action="store_true", help="YGOJSON as the release zip")
    ap.add_argument("--only", choices=("import", "update"))
    args = ap.parse_args()
    data: Path = args.data
    base = [data / "cards" / "cards.cdb", *sorted(data.glob("locales/*/cards.cdb"))]
    up = data / "upstream"
    result: dict[str, dict[str, Any]] = {}
    if args.only != "update":
        with tempfile.TemporaryDirectory() as ztmp:
            ygojson = up / "iconmaster5326__YGOJSON"
            if args.zip:
                ygojson = _zip(ygojson, Path(ztmp) / "individual.zip")
            official = [
                *(
                    up / "DawnbrandBots__yaml-yugi" / n
                    for n in ("cards.json", "rush.json", "skill.json")
                ),
                up / "ProjectIgnis__Distribution/config/strings.conf",  # archetypes (issue 30)
            ]
            result["cdb+locales"] = _measure(base, args.runs)
            result["cdb+locales+official"] = _measure([*base, *official, ygojson], args.runs)
            result["everything"] = _measure(
                [*base, *official, ygojson], args.runs, lists=_list_files(data)
            )
    if args.only != "import":
        result["update unchanged"] = _measure_update(data, args.runs)
    print(
        f"{'measure':>22} {'files':>6} {'median s':>9} {'cpu s':>6} {'target s':>9} "
        f"{'runs s':>20}  load"
    )
    for name, r in result.items():
        r["target_s"] = TARGETS[name]
        runs = " ".join(f"{t:.2f}" for t in r["runs_s"])
        cpu = f"{r['cpu_median_s']:>6.2f}" if "cpu_median_s" in r else f"{'':>6}"
        print(
            f"{name:>22} {r['files']:>6} {r['median_s']:>9.2f} {cpu} {r['target_s']:>9.1f} "
            f"{runs:>20}  {' '.join(str(x) for x in r['load'])}"
        )
    if "everything" in result:
        e = result["everything"]
        print(
            f"everything: {e['cards']} cards, {e['names']} names, {e['lists']} lists "
            f"(lists step {e['lists_median_s']:.2f} s of it)"
        )
    if "update unchanged" in result:
        u = result["update unchanged"]
        print(
            f"update: first (downloads and imports everything) {u['first_update_s']:.2f} s "
            f"wall / {u['first_update_cpu_s']:.2f} s CPU (load {u['first_load']}); "
            f"unchanged: {u['second_requests']} requests, statuses {u['second_statuses']}, "
            f"rebuilt {u['second_rebuilt']}"
        )
    out = write_result("import", {**result, "ygojson": "zip" if args.zip else "folder"})
    print(f"wrote {out.relative_to(REPO)}")
    met = all(r["median_s"] <= TARGETS[k] for k, r in result.items())
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
