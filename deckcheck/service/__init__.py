"""The check service, ``deckcheck serve``: deck checks, card search and tournament submissions
over HTTP (FastAPI on uvicorn, the optional extra ``deckcheck[serve]``).

The top floor beside ``deckcheck.commands``: it calls the services the commands call (the
batch engine, the deck readers, search, the renderers) and nothing below imports it.
Importing this package needs none of the extra; ``require_extra`` says what is missing.
"""

from __future__ import annotations

import importlib

from deckcheck.errors import DataError

#: the optional extra that installs what the service needs (pyproject.toml)
EXTRA = "serve"
#: the modules of that extra, by the distribution that provides each
_NEEDS = (("fastapi", "fastapi"), ("uvicorn", "uvicorn"), ("multipart", "python-multipart"))


def require_extra() -> None:
    """Raise one clear DataError naming the extra when a package of it is missing."""
    missing = []
    for module, dist in _NEEDS:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(dist)
    if missing:
        raise DataError(
            f"`deckcheck serve` needs the optional extra [{EXTRA}] ({', '.join(missing)} "
            f"missing): pip install 'deckcheck[{EXTRA}]'"
        )


__all__ = ["EXTRA", "require_extra"]
