"""Measures batch validation: the 209 real decks and a 100,000-deck synthetic corpus.

    python benchmarks/bench_batch.py [--data ../shared/data] [--decks 100000] [--seed 9]
                                     [--sizes 10000,50000,100000] [--jobs 2]

Builds a temporary data home (full card database, ProjectIgnis lists), then writes a corpus
of synthetic .ydk decks to a temporary folder: each is a real deck with one to three card
lines replaced by passcodes drawn from the real database (fixed seed), 1,000 decks per
sub-folder. It runs ``deckcheck validate --jobs N --output csv`` as a fresh process on the
real decks and on the first 10k / 50k / 100k synthetic decks, and reports for each the wall
time, the CPU seconds of the process tree (the machine may be shared) and the peak memory of
the whole tree (sum of RSS sampled from /proc every 20 ms; the largest single process from
``getrusage(RUSAGE_CHILDREN)``). Goals: 100k decks under 30 s, tree peak
under 200 MB and flat in the number of decks. It also times ``run_batch`` in one process
after start-up (goal: at least 5,000 decks/s). Writes benchmarks/results/batch.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import DEFAULT_DATA, build_full_home, machine, write_result  # noqa: E402

PER_FOLDER = 1000
#: runs the CLI and prints the largest single-process RSS (KiB) of its tree on stderr
WRAPPER = (
    "import resource, subprocess, sys; "
    "rc = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], 'wb')).returncode; "
    "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print('maxrss', u.ru_maxrss, u.ru_utime + u.ru_stime, file=sys.stderr); "
    "sys.exit(rc)"
)


def make_corpus(data: Path, dest: Path, n: int, seed: int) -> list[Path]:
    """``n`` synthetic decks in ``dest``/NNN/; returns the sub-folders in order."""
    rng = random.Random(seed)
    con = sqlite3.connect(f"file:{data / 'cards' / 'cards.cdb'}?mode=ro", uri=True)
    pool = [str(r[0]) for r in con.execute("SELECT id FROM datas ORDER BY id")]
    con.close()
    bases = [
        p.read_text(encoding="utf-8", errors="replace").splitlines()
        for p in sorted((data / "decks").rglob("*.ydk"))
    ]
    card_lines = [[i for i, s in enumerate(lines) if s.strip().isdigit()] for lines in bases]
    folders = []
    for i in range(n):
        if i % PER_FOLDER == 0:
            folder = dest / f"{i // PER_FOLDER:03d}"
            folder.mkdir(parents=True)
            folders.append(folder)
        k = i % len(bases)
        lines = list(bases[k])
        for j in rng.sample(card_lines[k], min(len(card_lines[k]), rng.randint(1, 3))):
            lines[j] = rng.choice(pool)
        (folder / f"deck{i:06d}.ydk").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folders


def _tree_rss_kib(root: int) -> tuple[int, int]:
    """(sum of RSS over ``root`` and its descendants, number of processes), from /proc."""
    total, count, todo = 0, 0, [root]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            count += 1
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return total, count


def run_cli(args: list[str], env: dict[str, str], out: Path) -> dict[str, float]:
    """One fresh ``deckcheck validate`` run: wall seconds, tree peak MiB, largest process MiB."""
    cmd = [
        sys.executable,
        "-c",
        WRAPPER,
        str(out),
        sys.executable,
        "-m",
        "deckcheck",
        "validate",
        *args,
    ]
    peak, procs = 0, 0
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak, procs
        while not stop.is_set():
            rss, n = _tree_rss_kib(proc.pid)
            if rss > peak:
                peak, procs = rss, n
            stop.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    secs = time.perf_counter() - t0
    stop.set()
    sampler.join()
    stat = next((x.split() for x in err.splitlines() if x.startswith("maxrss")), ["", 0, 0])
    maxrss, cpu = int(stat[1]), float(stat[2])
    # The tree's peak includes the small wrapper interpreter (~10 MiB): an upper bound.
    # CPU seconds (user + sys of the tree) tell the cost apart from load by other users.
    return {
        "seconds": round(secs, 2),
        "cpu_s": round(cpu, 2),
        "tree_peak_mib": round(peak / 1024, 1),
        "tree_procs_at_peak": procs,
        "largest_process_mib": round(maxrss / 1024, 1),
        "exit": proc.returncode,
    }


def in_process_rate(folders: list[Path], home: Path) -> dict[str, float]:
    """Decks/s of ``batch.reports`` (read + validate + csv render) after start-up, one
    process."""
    os.environ["DECKCHECK_HOME"] = str(home)
    from deckcheck import render
    from deckcheck.batch import Request, reports, walk
    from deckcheck.engine import Engine
    from deckcheck.formats import ListStore, get_format
    from deckcheck.validate import Target

    date = dt.date(2026, 6, 1)
    fmt = get_format("tcg")
    banlist = ListStore.default().in_force("tcg", date)
    engine = Engine.open()
    items = list(walk([str(f) for f in folders]))
    request = Request((), items, Target(fmt, banlist, date), jobs=1)
    for _ in reports(request.replace(items=items[:500]), engine):  # warm-up: card cache
        pass
    sink = io.StringIO()
    renderer = render.make("csv", sink, io.StringIO())
    renderer.start(
        render.Meta(
            format_id=fmt.id,
            format_name=fmt.name,
            list_name=None,
            list_effective=None,
            date=date.isoformat(),
            strict=False,
        )
    )
    t0 = time.perf_counter()
    n = 0
    for report in reports(request, engine):
        renderer.deck(report)
        n += 1
        if n % 2000 == 0:
            sink.seek(0)
            sink.truncate()
    secs = time.perf_counter() - t0
    return {"decks": n, "seconds": round(secs, 2), "decks_per_s": round(n / secs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--decks", type=int, default=100_000)
    ap.add_argument("--sizes", default="10000,50000,100000")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=9)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if int(s) <= args.decks]
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-") as tmp:
        home, corpus = Path(tmp) / "home", Path(tmp) / "corpus"
        home.mkdir()
        t0 = time.perf_counter()
        build_full_home(args.data, home)
        build_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        folders = make_corpus(args.data, corpus, args.decks, args.seed)
        gen_s = time.perf_counter() - t0
        env = {**os.environ, "DECKCHECK_HOME": str(home)}
        env.pop("GITHUB_ACTIONS", None)
        common = ["--jobs", str(args.jobs), "--output", "csv", "--date", "2026-06-01"]
        out = Path(tmp) / "out.csv"
        run_cli([*common, str(args.data / "decks")], env, out)  # warm-up: caches, OS files
        runs = [("real decks", 209, [str(args.data / "decks")])]
        runs += [
            (f"synthetic {n:,}", n, [str(f) for f in folders[: n // PER_FOLDER]]) for n in sizes
        ]
        runs.append(
            (
                f"synthetic {sizes[0]:,} --jobs 1",
                sizes[0],
                [str(f) for f in folders[: sizes[0] // PER_FOLDER]],
            )
        )
        for name, n, inputs in runs:
            opts = common if "--jobs 1" not in name else ["--jobs", "1", *common[2:]]
            got = run_cli([*opts, *inputs], env, out)
            with out.open("rb") as fh:
                lines = sum(1 for _ in fh)
            rows.append(
                {
                    "run": name,
                    "decks": n,
                    "csv_lines": lines,
                    **got,
                    "decks_per_s": round(n / got["seconds"]),
                }
            )
        rate = in_process_rate(folders[: sizes[0] // PER_FOLDER], home)
    print(f"home built in {build_s:.1f} s; {args.decks:,} decks generated in {gen_s:.1f} s")
    print(
        f"{'run':<28} {'decks':>7} {'s':>7} {'cpu s':>7} {'decks/s':>8} {'tree MiB':>9} "
        f"{'procs':>5} "
        f"{'max proc MiB':>12} {'exit':>4}"
    )
    for r in rows:
        print(
            f"{r['run']:<28} {r['decks']:>7} {r['seconds']:>7} {r['cpu_s']:>7} "
            f"{r['decks_per_s']:>8} "
            f"{r['tree_peak_mib']:>9} {r['tree_procs_at_peak']:>5} "
            f"{r['largest_process_mib']:>12} {r['exit']:>4}"
        )
    print(
        f"in one process after start-up: {rate['decks']} decks in {rate['seconds']} s = "
        f"{rate['decks_per_s']} decks/s (goal >= 5000)"
    )
    out_json = write_result(
        "batch",
        {
            "jobs": args.jobs,
            "seed": args.seed,
            "generate_s": round(gen_s, 1),
            "goals": {"seconds_100k": 30, "tree_peak_mib": 200, "decks_per_s": 5000},
            "runs": rows,
            "in_process": rate,
            "machine_nproc": machine()["nproc"],
        },
    )
    print(f"wrote {out_json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
