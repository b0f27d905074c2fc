"""Where P1's instructions go: a one-deck ``validate`` cut off after each phase, in callgrind.

    python benchmarks/bench_p1_phases.py [--data ../shared/data] [--home H]

P1 (``bench_goals.py``) is a ratio of wall times; this script says what the difference to the
peer is made of, in instructions, which are repeatable whatever else the machine does. Each
row runs the console script's path (``deckcheck.console``: the collector held, then the CLI)
on the same deck as ``bench_goals.py``, under ``valgrind --tool=callgrind``, with the function
that ends the phase wrapped so that the process leaves with ``os._exit(0)`` as soon as it
returns: the row is everything up to that point, interpreter start included, exit excluded.
The last row is the whole run, exit included. The peer (``peer_click.py``) is measured
whole and with ``import click`` alone. Rows:

* ``cli imported``: ``deckcheck.cli`` and click, nothing of ``validate`` yet
* ``command line parsed``: ``deckcheck.commands.validate`` imported, its options parsed
* ``inputs walked``: ``batch.walk`` (with ``batch`` and what it imports)
* ``engine opened``: ``Engine.open`` (the rule table: the rule modules a deck may need)
* ``request planned``: ``batch.plan`` (the card database opened, the format and the list
  in force chosen)
* ``decks checked and written``: ``batch.execute``
* ``whole run``: the process as a user starts it, exit included

Writes benchmarks/results/p1_phases.json. Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from _common import DEFAULT_DATA, one_deck, ready_home, write_result  # noqa: E402
from bench_goals import DATE  # noqa: E402

#: how a cut-off process leaves: the modules it has imported on stderr, then no exit work
LEAVE = 'os.write(2, b"modules %d\\n" % len(sys.modules)); os._exit(0)'

#: the program each row runs: ``argv[1]`` names the function ending the phase
#: (``module:attribute``, ``module:Class.attribute``; ``-`` for the whole run)
DRIVER = f"""
import os, sys
from deckcheck import startup
startup.hold()  # first, as the console script: the imports below run with the collector held
from deckcheck.console import main
where = sys.argv.pop(1)
if where != "-":
    import importlib
    module, _, name = where.partition(":")
    owner = importlib.import_module(module)
    *path, attr = name.split(".")
    for part in path:
        owner = getattr(owner, part)
    plain = owner.__dict__[attr]
    def leave():
        {LEAVE}
    if attr == "callback":  # a click command's callback: the command line is parsed
        def cut(*a, **k):
            leave()
    else:
        func = getattr(plain, "__func__", plain)
        def cut(*a, **k):
            func(*a, **k)
            leave()
    setattr(owner, attr, classmethod(cut) if isinstance(plain, classmethod) else cut)
main()
"""

PHASES = [
    ("command line parsed", "deckcheck.commands.validate:validate.callback"),
    ("inputs walked", "deckcheck.batch:walk"),
    ("engine opened", "deckcheck.engine:Engine.open"),
    ("request planned", "deckcheck.batch:plan"),
    ("decks checked and written", "deckcheck.batch:execute"),
    ("whole run", "-"),
]


def instructions(cmd: list[str], env: dict[str, str]) -> tuple[int, int | None]:
    """Instructions callgrind counts for ``cmd`` (its output thrown away), and the modules it
    had imported when it was cut off (None for a whole run)."""
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if found is None:
        raise SystemExit(f"callgrind gave no count for {cmd}:\n{proc.stderr[-2000:]}")
    modules = re.search(r"^modules (\d+)$", proc.stderr, re.MULTILINE)
    return int(found.group(1)), int(modules.group(1)) if modules else None


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--home", type=Path, help="reuse this data home instead of building one")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("bench_p1_phases: needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    deck = str(one_deck(args.data))
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        home = ready_home(args.data, args.home, Path(tmp))
        env = {**os.environ, "DECKCHECK_HOME": str(home), "PYTHONPATH": str(REPO)}
        env.pop("DECKCHECK_PLAIN_START", None)
        held = "import os, sys; from deckcheck import startup; startup.hold()"
        rows = [
            ("python -c pass", instructions([py, "-P", "-c", "pass"], env)),
            (
                "peer: import click",
                instructions([py, "-P", "-c", f"import os, sys, click; {LEAVE}"], env),
            ),
            (
                "peer: whole run",
                instructions([py, "-P", str(HERE / "peer_click.py"), "validate", deck], env),
            ),
            (
                "cli imported",
                instructions([py, "-P", "-c", f"{held}; import deckcheck.cli; {LEAVE}"], env),
            ),
        ]
        run = ["validate", "--date", DATE, deck]
        for label, where in PHASES:
            rows.append((label, instructions([py, "-P", "-c", DRIVER, where, *run], env)))
    peer = dict(rows)["peer: whole run"][0]
    print(
        f"{'phase (cumulative)':28} {'M instr':>8} {'step':>7} {'modules':>8} {'new':>4}  of peer"
    )
    out: dict[str, Any] = {"deck": deck, "peer_instructions": peer, "rows": []}
    last: tuple[int, int | None] | None = None
    for label, (n, modules) in rows:
        step = new = ""
        if last is not None and not label.startswith("peer"):
            step = f"{(n - last[0]) / 1e6:+7.2f}"
            if modules is not None and last[1] is not None:
                new = f"{modules - last[1]:+d}"
        shown = "" if modules is None else str(modules)
        print(f"{label:28} {n / 1e6:8.2f} {step:>7} {shown:>8} {new:>4}  {n / peer:.3f}")
        out["rows"].append(
            {"phase": label, "instructions": n, "modules": modules, "of_peer": round(n / peer, 4)}
        )
        if not label.startswith("peer"):
            last = (n, modules)
    write_result("p1_phases", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
