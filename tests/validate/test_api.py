"""docs/API.md stays true: its example runs, on the built-in sample and on the real data."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.builders import run_process
from tests.conftest import REPO

DOC = REPO / "docs" / "API.md"


def example_code() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 2, "API.md lost its signature or its example"
    return blocks[-1]


def run_example(tmp_path: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "example.py"
    script.write_text(example_code(), encoding="utf-8")
    env = {**os.environ, "DECKCHECK_HOME": str(home)}
    return run_process([sys.executable, str(script), *args], cwd=REPO, env=env, timeout=300)


def test_signature_in_the_doc_is_the_real_one() -> None:
    import inspect

    from deckcheck.engine import Engine
    from deckcheck.validate import validate_deck

    params = list(inspect.signature(validate_deck).parameters)
    assert params == ["engine", "deck", "target", "player"]
    doc = DOC.read_text(encoding="utf-8")
    assert "report = validate_deck(engine, deck, target)" in doc
    target = list(inspect.signature(Engine.target).parameters)
    assert target[:4] == ["self", "format_id", "date", "banlist_ref"]
    assert "engine.target(format_id, date, banlist_ref=None, points_cap=None, lang=None)" in doc


def test_example_on_the_built_in_sample(tmp_path: Path, isolated_home: Path) -> None:
    proc = run_example(tmp_path, isolated_home)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0] == "examples/dm6/illegal.ydk: illegal {'main': 40, 'extra': 2, 'side': 0}"
    assert any(x.startswith("  DC402 forbidden [main line 42] Obelisk the Tormentor") for x in out)
    assert any(x.startswith("  DC403 limited [main line 31] Pot of Greed") for x in out)
    assert "examples/dm6/legal.ydk: legal {'main': 40, 'extra': 2, 'side': 0}" in out
    assert out[-1] == "2 decks, 1 legal; exit code 1"


def test_example_on_text_lists(tmp_path: Path, isolated_home: Path) -> None:
    proc = run_example(tmp_path, isolated_home, "examples/text", "dm6")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("2 decks, ")


def test_example_on_the_real_decks(tmp_path: Path, real_home: Path, shared_data: Path) -> None:
    proc = run_example(tmp_path, real_home, str(shared_data / "decks"), "tcg")
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.splitlines()[-1]
    assert last.startswith("209 decks, ") and last.endswith("exit code 1"), last
