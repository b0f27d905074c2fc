"""The on-disk cache of the lookup index: one pickle per (database fingerprint, nickname file,
layout version), written atomically; older ones are removed, damaged ones rebuilt."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from deckcheck import fsio, notes

#: Bump when the cached layout changes.
FORMAT_VERSION = 12


def _file_digest(path: Path) -> str:
    try:
        return fsio.sha256_file(path)[:16]
    except OSError:
        return "none"


def cache_key(fingerprint: Any, nick_path: Path) -> str:
    """What the cached index depends on: the database, the nickname file, the layout."""
    text = f"{fingerprint}|{_file_digest(nick_path)}|{FORMAT_VERSION}"
    return fsio.sha256_bytes(text.encode())[:24]


def cache_path(cache_dir: Path, key: str) -> Path:
    return cache_dir / f"lookup-{key}.pickle"


def read(path: Path, key: str) -> dict[str, Any] | None:
    """The cached index data under ``key``, or None (missing, damaged, or another key)."""
    try:
        with path.open("rb") as f:
            data = pickle.load(f)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a damaged cache is rebuilt, never fatal
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    return data


def write(path: Path, data: dict[str, Any]) -> None:
    """Cache ``data`` at ``path``; stale indexes of older databases go."""
    try:
        fsio.write_atomic(
            path, pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL), mkdir=True, fsync=False
        )
        fsio.remove_others(path, "lookup-*.pickle")
    except OSError as exc:
        # A read-only data home still works, only without the cache.
        notes.note(f"deckcheck: note: lookup index not cached ({exc})")
