"""Reading data files safely: bounded UTF-8 text, and YAML without aliases, deep nesting or a
crash, with errors that name the file and line.

Shared by the list and format files (``deckcheck.formats``) and the nickname file
(``deckcheck.lookup``). yaml is imported only when a YAML file is read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from deckcheck import fsio
from deckcheck.errors import InputError

MAX_YAML_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 20  # list and format files are at most four levels deep

# An anchor or alias token (&x / *x) at the start of a node; quoted text can trip it, so a hit
# only sends the file through the slower alias-refusing loader, which decides exactly.
_MAYBE_ALIAS = re.compile(r"(?:^|[\s\[{,:\-])[&*][^\s\]},]", re.MULTILINE)

# libyaml recurses in C once per nesting level and crashes the process (SIGSEGV) somewhere
# past 30,000 levels, before any Python check runs; refuse such text before parsing.
_DEEP_FLOW = 1000
_DASH_CHAIN = re.compile(rf"(?:[-?:][ \t]+){{{_DEEP_FLOW}}}")
_BRACKET = re.compile(r"[\[\]{}]")


#: Passcodes, Konami ids and Yugipedia page ids are 32-bit numbers in every source and client;
#: an importer refuses anything outside 0..MAX_ID before it reaches SQLite (which overflows
#: past 2**63 with an internal error) or a list (issue 32).
MAX_ID = 0xFFFFFFFF


def shown_number(value: int) -> str:
    """``value`` for a message: a number of hundreds of digits shown by its start and length."""
    text = str(value)  # a JSON int over 4300 digits never gets here: json.loads refuses it
    digits = text.lstrip("-")
    return (
        text
        if len(digits) <= 20
        else f"{text[: len(text) - len(digits) + 12]}… ({len(digits)} digits)"
    )


def checked_id(value: int, what: str, where: str) -> int:
    """``value`` when it is a possible id (0..MAX_ID); InputError naming ``what`` otherwise."""
    if not 0 <= value <= MAX_ID:
        raise InputError(f"{what}: {shown_number(value)} is not an id (0 to {MAX_ID})", where=where)
    return value


def read_text(path: Path, max_bytes: int) -> str:
    """File text (UTF-8, BOM allowed), with clear errors for missing, huge or binary files."""
    try:
        data = fsio.read_bounded(path, max_bytes)
    except fsio.TooLarge as exc:
        msg = f"file is {exc.size} bytes, more than {max_bytes}"
        raise InputError(msg, where=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=str(path)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", where=str(path)) from None


_no_alias_loader: Any = None


def _alias_refusing_loader() -> Any:
    """SafeLoader that refuses anchors/aliases: data files never need them (alias bombs)."""
    global _no_alias_loader
    if _no_alias_loader is None:
        import yaml

        class _NoAliasLoader(yaml.SafeLoader):
            def compose_node(self, parent: Any, index: Any) -> Any:
                if self.check_event(yaml.AliasEvent):
                    ev = self.peek_event()
                    raise InputError(
                        "YAML aliases (*name) are not allowed in list and format files",
                        where=f"{self.name}:{ev.start_mark.line + 1}",
                    )
                return super().compose_node(parent, index)

        _no_alias_loader = _NoAliasLoader
    return _no_alias_loader


def _depth(node: Any, limit: int) -> int:
    stack = [(node, 1)]
    deepest = 0
    while stack:
        cur, d = stack.pop()
        deepest = max(deepest, d)
        if d > limit:
            return d
        if isinstance(cur, dict):
            stack.extend((v, d + 1) for v in cur.values())
        elif isinstance(cur, list):
            stack.extend((v, d + 1) for v in cur)
    return deepest


def _too_deep(text: str) -> bool:
    if text.count("[") + text.count("{") > _DEEP_FLOW:
        depth = 0
        for m in _BRACKET.finditer(text):
            depth += 1 if m.group() in "[{" else -1
            if depth > _DEEP_FLOW:
                return True
    return _DASH_CHAIN.search(text) is not None


def load_yaml(path: Path) -> Any:
    """A YAML document, safely: size cap, no aliases, bounded nesting, errors with the line."""
    import yaml

    text = read_text(path, MAX_YAML_BYTES)
    if _too_deep(text):
        raise InputError(f"YAML nested deeper than {MAX_DEPTH} levels", where=str(path))
    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    if _MAYBE_ALIAS.search(text):
        loader = _alias_refusing_loader()
    try:
        ld = loader(text)
        ld.name = str(path)
        try:
            doc = ld.get_single_data()
        finally:
            ld.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        what = " ".join(str(exc.problem or exc.context).split())
        raise InputError(f"malformed YAML: {what}", where=where) from None
    except yaml.YAMLError as exc:
        # A ReaderError's text spans two lines; the error is printed as one.
        what = " ".join(str(exc).split())
        raise InputError(f"malformed YAML: {what}", where=str(path)) from None
    except ValueError:
        # int() refuses over 4300 digits; no number in a list or format is that long.
        raise InputError(
            "malformed YAML: a number over 4300 digits long", where=str(path)
        ) from None
    except RecursionError:
        raise InputError("YAML nested too deeply", where=str(path)) from None
    if _depth(doc, MAX_DEPTH) > MAX_DEPTH:
        raise InputError(f"YAML nested deeper than {MAX_DEPTH} levels", where=str(path))
    return doc
