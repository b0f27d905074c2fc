"""The tree is `ruff format`ted and passes `ruff check` with pyproject.toml's rule set: CI runs
the README's test command, so this is where the formatter and the linter are checked."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.builders import run_process
from tests.conftest import REPO


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    # the ruff of this interpreter (the `test` extra pins it); --no-cache: tests write no
    # files into the checkout
    try:
        import ruff  # noqa: F401
    except ImportError:
        pytest.fail("ruff is not installed: pip install '.[test]' (it pins the version)")
    return run_process(
        [sys.executable, "-m", "ruff", *args, "--no-cache", "."], cwd=REPO, timeout=300
    )


def test_ruff_checks_the_whole_tree() -> None:
    listed = _ruff("check", "--show-files")
    assert listed.returncode == 0, listed.stderr
    seen = {line.strip() for line in listed.stdout.splitlines()}
    for rel in ("deckcheck/cli.py", "tests/test_style.py", "benchmarks/bench_goals.py"):
        assert str(REPO / rel) in seen, f"ruff does not look at {rel}"


def test_tree_is_ruff_formatted() -> None:
    got = _ruff("format", "--check")
    assert got.returncode == 0, f"run `ruff format .`:\n{got.stdout}{got.stderr}"


def test_tree_passes_ruff_check() -> None:
    got = _ruff("check", "--output-format", "concise")
    assert got.returncode == 0, (
        f"run `ruff check .` (--fix for the fixable):\n{got.stdout}{got.stderr}"
    )
