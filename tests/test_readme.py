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
