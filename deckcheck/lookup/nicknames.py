"""The nickname file ``card_db/nicknames.yaml`` (ash, imperm, nibiru, …), read with the
hardened YAML loader and checked entry by entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def nicknames_path() -> Path:
    from deckcheck.paths import builtin_card_db_dir

    return builtin_card_db_dir() / "nicknames.yaml"


def load_nicknames(path: Path | None = None) -> list[dict[str, Any]]:
    """The entries of ``nicknames.yaml``: ``{nick: [...], id: passcode, name: English}``."""
    from deckcheck.datafile import load_yaml
    from deckcheck.errors import DataError, InputError

    path = path or nicknames_path()
    try:
        data = load_yaml(path)
    except InputError as exc:
        # The nickname file ships with deckcheck: a problem with it is a data error.
        raise DataError(f"cannot read nicknames: {exc.message}", where=exc.where) from exc
    if not isinstance(data, list):
        raise DataError("expected a list of {nick, id, name} entries", where=str(path))
    out: list[dict[str, Any]] = []
    for i, item in enumerate(data, 1):
        ok = isinstance(item, dict) and isinstance(item.get("id"), int) and item.get("nick")
        if not ok:
            msg = f"entry {i}: needs nick (text or list) and id (passcode)"
            raise DataError(msg, where=str(path))
        nicks = item["nick"] if isinstance(item["nick"], list) else [item["nick"]]
        name = str(item.get("name", ""))
        out.append({"nick": [str(n) for n in nicks], "id": item["id"], "name": name})
    return out
