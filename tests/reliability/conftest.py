"""The reliability tests' shared home: one small TCG list over the built-in sample cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import FIXTURES


@pytest.fixture
def tiny_home(isolated_home: Path) -> Path:
    """The isolated home with one small TCG list installed (the sample card database)."""
    from deckcheck.formats.importer import import_lflists

    import_lflists([FIXTURES / "hostile" / "tiny.lflist.conf"], dest=isolated_home / "banlists")
    return isolated_home
