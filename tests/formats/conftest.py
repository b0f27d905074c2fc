"""The real-data home with every official list imported, shared by the modules of tests/formats
that need it (built once per session)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from deckcheck.formats.importer import import_lflists
from tests._realhome import home_env


@pytest.fixture(scope="session")
def lists_home(official_import: tuple[Path, object], shared_data: Path, tmp_path_factory) -> Path:
    """The session's real home with yaml-yugi (cards.json, rush.json, skill.json) and YGOJSON
    imported (``official_import``: the importer `db import` runs), plus every official list
    and the Duel Links dev.db, Konami ids mapped through that database as for a user.
    Tests must treat it as read-only."""
    home = tmp_path_factory.mktemp("official-lists-home")
    shutil.copytree(official_import[0], home, dirs_exist_ok=True)
    lr = shared_data / "banlists" / "yaml-yugi-limit-regulation"
    files = sorted(p for p in lr.glob("*/*.json"))
    dl = shared_data / "upstream" / "falsepopsky__forbidden-duel-links" / "prisma" / "dev.db"
    files.append(dl)
    with home_env(home):
        res = import_lflists(files, dest=home / "banlists")
    (home / "import-result.json").write_text(
        json.dumps(
            {
                "rejected": [[r.family, r.effective.isoformat(), r.reason] for r in res.rejected],
                "unmapped": res.unmapped,
                "lists": len(res.lists),
            }
        )
    )
    return home
