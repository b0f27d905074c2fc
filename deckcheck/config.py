"""Project configuration: ``[tool.deckcheck]`` in ``pyproject.toml`` or a ``deckcheck.toml``,
the nearest one from the working folder upwards, and where each effective setting came from.

Public API::

    find_config(start=None) -> Path | None        # the file that applies (None: none)
    load(start=None) -> Config                    # its settings, checked (InputError otherwise)
    Config.get(key) -> value; Config.origin(key) -> "pyproject.toml [tool.deckcheck]" / ...

In a folder, ``deckcheck.toml`` wins over ``pyproject.toml``; a ``pyproject.toml`` without a
``[tool.deckcheck]`` table does not count (the search goes on upwards, as ruff's does).
``deckcheck.toml`` holds the keys at its top level (or under ``[tool.deckcheck]``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from deckcheck.errors import InputError
from deckcheck.paths import is_file, str_path
from deckcheck.records import Record, field, record

if TYPE_CHECKING:
    from pathlib import Path

#: key -> (type, default, what it means); the default is what no config means.
KEYS: dict[str, tuple[type, Any, str]] = {
    "format": (str, "tcg", "format id"),
    "date": (str, None, "event date, YYYY-MM-DD (default: today)"),
    "banlist": (str, None, "list reference (default: the format's list in force)"),
    "include": (list, [], "gitwildmatch patterns of text decklists a folder walk checks"),
    "exclude": (list, [], "gitwildmatch patterns a folder walk skips"),
    "ignore": (list, [], "codes (or prefixes) waived"),
    "select": (list, [], "codes (or prefixes) that count; every other code is waived"),
    "output": (str, None, "output kind (default: text; github in GitHub Actions)"),
    "strict": (bool, False, "warnings fail too"),
    "allow-empty": (bool, False, "finding no deck is not an error"),
}
OUTPUT_KINDS = ("text", "json", "github", "junit", "csv", "html")


@record(frozen=False)
class Config(Record):
    """The settings of one config file (or none), checked, with where they came from.

    The file is kept as a string (``str(path)``) and made a ``Path`` only when ``path`` or
    ``base`` is asked for: ``validate`` reads ``file``/``folder``/``label`` and imports no
    pathlib."""

    file: str | None = None  # the config file, None when none was found
    values: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path | None:
        """The config file, or None."""
        if self.file is None:
            return None
        from pathlib import Path

        return Path(self.file)

    @property
    def base(self) -> Path | None:
        """The folder ``include``/``exclude`` patterns are relative to."""
        return self.path.parent if self.path is not None else None

    @property
    def folder(self) -> str | None:
        """``str(base)``: the folder ``include``/``exclude`` patterns are relative to."""
        if self.file is None:
            return None
        return str_path(os.path.dirname(self.file) or ".")

    @property
    def label(self) -> str:
        if self.file is None:
            return "default"
        table = " [tool.deckcheck]" if _name(self.file) == "pyproject.toml" else ""
        return f"{self.file}{table}"

    def get(self, key: str) -> Any:
        if key in self.values:
            return self.values[key]
        return KEYS[key][1]

    def origin(self, key: str) -> str:
        return self.label if key in self.values else "default"


def _name(file: str) -> str:
    # Path(file).name of a str_path
    return os.path.basename(file) if file not in ("/", "//", ".") else ""


def find_config(start: str | Path | None = None) -> Path | None:
    """The nearest ``deckcheck.toml`` or ``pyproject.toml`` with ``[tool.deckcheck]``."""
    found = _find(start)
    if found is None:
        return None
    from pathlib import Path

    return Path(found)


def _find(start: str | Path | None) -> str | None:
    # find_config as a string: the folder and each parent, as Path(...).parents walks them
    d = str_path(os.path.abspath(start if start is not None else os.getcwd()))
    while True:
        own = os.path.join(d, "deckcheck.toml")
        if is_file(own):
            return own
        py = os.path.join(d, "pyproject.toml")
        if is_file(py) and _has_table(py):
            return py
        up = os.path.dirname(d)
        if up == d:
            return None
        d = up


def _has_table(path: str) -> bool:
    # A cheap look first: most pyproject.toml files on the way up have no such table.
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return False
    return "tool.deckcheck" in text and "deckcheck" in _parse(path).get("tool", {})


def _parse(path: str) -> dict[str, Any]:
    import tomllib

    try:
        with open(path, "rb") as fh:
            data: dict[str, Any] = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", where=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=str(path)) from None
    return data


def load(start: str | Path | None = None, path: str | Path | None = None) -> Config:
    """The config that applies in ``start`` (or the file ``path``), its values checked."""
    found = str_path(path) if path is not None else _find(start)
    if found is None:
        return Config()
    data = _parse(found)
    table = data.get("tool", {}).get("deckcheck")
    if table is None:
        table = {} if _name(found) == "pyproject.toml" else data
    where = f"{found} [tool.deckcheck]" if _name(found) == "pyproject.toml" else found
    if not isinstance(table, dict):
        raise InputError("[tool.deckcheck] must be a table", where=where)
    values: dict[str, Any] = {}
    for raw_key, value in table.items():
        key = raw_key.replace("_", "-")
        if key not in KEYS:
            known = ", ".join(KEYS)
            raise InputError(f"unknown key {raw_key!r} (known: {known})", where=where)
        kind = KEYS[key][0]
        if kind is list:
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise InputError(f"{raw_key!r} must be a list of strings", where=where)
        elif kind is str:
            if key == "date" and not isinstance(value, str):
                value = getattr(value, "isoformat", lambda v=value: v)()  # TOML date literal
            if not isinstance(value, str):
                raise InputError(f"{raw_key!r} must be a string", where=where)
        elif kind is bool and not isinstance(value, bool):
            raise InputError(f"{raw_key!r} must be true or false", where=where)
        if key == "output" and value not in OUTPUT_KINDS:
            raise InputError(
                f"output {value!r} is not one of {', '.join(OUTPUT_KINDS)}", where=where
            )
        if key == "date":
            from deckcheck.dates import parse_date

            try:
                parse_date(value)
            except ValueError as exc:
                raise InputError(f"date: {exc}", where=where) from None
        values[key] = value
    return Config(found, values)


__all__ = ["KEYS", "Config", "find_config", "load"]
