"""The README's promises: its --help block is the real one and its commands exist."""

from __future__ import annotations

import re

from click.testing import CliRunner

from deckcheck.cli import COMMANDS, cli
from tests.conftest import REPO


def _readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def test_help_block_matches_real_output() -> None:
    m = re.search(r"<!-- help:deckcheck -->\n```text\n(.*?)```", _readme(), re.DOTALL)
    assert m, "README lacks the '<!-- help:deckcheck -->' block"
    result = CliRunner(env={"COLUMNS": "100"}).invoke(cli, ["--help"], prog_name="deckcheck")
    assert result.exit_code == 0
    assert m.group(1) == result.output


def test_readme_mentions_every_command() -> None:
    text = _readme()
    for name in COMMANDS:
        assert f"deckcheck {name}" in text, name


def test_readme_documents_exit_codes() -> None:
    text = _readme()
    for code in ("0", "1", "2"):
        assert re.search(rf"\|\s*{code}\s*\|", text), f"exit code {code} missing from the table"


def test_the_quick_subset_states_its_measured_time() -> None:
    # the fifth shift's README landed with a placeholder ("about QUICK_FIGURE") for this figure
    text = " ".join(_readme().split())
    m = re.search(r"the quick subset.*?\(about (\d+(?:\.\d+)?)[–-]?(\d+)? ?(s|min)\b", text)
    assert m, "README's quick-subset sentence gives no measured time"


def test_the_dev_extra_holds_everything_the_tests_need() -> None:
    # the Development section's `pip install -e '.[dev]'` then `python -m pytest`: with only
    # pytest and ruff (as the dev extra once was), tests/tui could not even be collected
    import tomllib

    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert "deckcheck[test]" in extras["dev"]
    assert "pip install -e '.[dev]'" in _readme()
