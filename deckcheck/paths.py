"""Where deckcheck finds its built-in data and keeps the user's database, lists and caches."""

from __future__ import annotations

import os
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _builtin(name: str) -> Path:
    # Installed wheel: data is force-included under deckcheck/_data/.
    # Source checkout / editable install: the folders sit at the repository top.
    packaged = _PKG / "_data" / name
    if packaged.is_dir():
        return packaged
    return _PKG.parent / name


def builtin_banlists_dir() -> Path:
    """The shipped ``banlists/`` folder (lists per family, ``formats/``)."""
    return _builtin("banlists")


def builtin_card_db_dir() -> Path:
    """The shipped ``card_db/`` folder (schema, sample card set, nicknames)."""
    return _builtin("card_db")


def data_home() -> Path:
    """The user data directory; ``$DECKCHECK_HOME`` overrides the platform default."""
    env = os.environ.get("DECKCHECK_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("deckcheck", appauthor=False))


def database_path() -> Path:
    """The installed card database (may not exist yet)."""
    return data_home() / "cards.sqlite3"


def lists_dir() -> Path:
    """Installed lists, same layout as ``banlists/``: ``<family>/<YYYY-MM-DD>.yaml``."""
    return data_home() / "banlists"


def formats_dir() -> Path:
    """The user's own format files (``*.yaml``), merged over the shipped ones."""
    return data_home() / "formats"


def cache_dir() -> Path:
    """Derived, rebuildable files (compiled lists and formats, lookup index, the built sample,
    downloads and update state).

    ``$DECKCHECK_CACHE`` overrides; with ``$DECKCHECK_HOME`` set the cache stays inside that
    home (``$DECKCHECK_HOME/cache``, so a test's or a CI job's home is self-contained);
    otherwise the platform's user cache folder (platformdirs ``user_cache_dir``), not the
    data folder: deleting it loses nothing.
    """
    env = os.environ.get("DECKCHECK_CACHE")
    if env:
        return Path(env).expanduser()
    home = os.environ.get("DECKCHECK_HOME")
    if home:
        return Path(home).expanduser() / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir("deckcheck", appauthor=False))


def lock_path() -> Path:
    """Lock file that serialises imports and updates."""
    return data_home() / ".lock"
