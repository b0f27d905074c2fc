"""The on-disk cache of the lookup index: one pickle per (database fingerprint, nickname file,
layout version), written atomically; older ones are removed, damaged ones rebuilt."""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

#: Bump when the cached layout changes.
FORMAT_VERSION = 6


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return "none"


def cache_key(fingerprint: Any, nick_path: Path) -> str:
    """What the cached index depends on: the database, the nickname file, the layout."""
    return hashlib.sha256(
        f"{fingerprint}|{_file_digest(nick_path)}|{FORMAT_VERSION}".encode()
    ).hexdigest()[:24]


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
    # Atomic: write beside the target, then replace.
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".lookup-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        for old in path.parent.glob("lookup-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError as exc:
        # A read-only data home still works, only without the cache.
        print(f"deckcheck: note: lookup index not cached ({exc})", file=sys.stderr)
