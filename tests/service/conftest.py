"""The service's tests share one data home (the built-in sample, built once) and one app per
module where they can: building an engine costs a few tenths of a second."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.service._serve import TOKEN


@pytest.fixture(scope="session")
def service_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("service-home")


@pytest.fixture(autouse=True)
def isolated_home(service_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """(Overrides the suite's per-test home: the sample home is shared, never written.)"""
    monkeypatch.setenv("DECKCHECK_HOME", str(service_home))
    monkeypatch.delenv("DECKCHECK_CACHE", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return service_home


def make_client(tmp: Path, **settings: Any) -> Any:
    """A TestClient of a fresh app (not started: use it in a ``with``)."""
    from fastapi.testclient import TestClient

    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings

    token = tmp / "token"
    token.write_text(TOKEN + "\n")
    options: dict[str, Any] = {
        "format_id": "dm6",
        "submissions": str(tmp / "subs"),
        "token_file": str(token),
        "access_log": False,
    }
    options.update(settings)
    return TestClient(create_app(Settings(**options)), raise_server_exceptions=False)


@pytest.fixture(scope="module")
def client(service_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One app for a module's tests, over the sample (format dm6)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("DECKCHECK_HOME", str(service_home))
    try:
        with make_client(tmp_path_factory.mktemp("service")) as c:
            yield c
    finally:
        mp.undo()
