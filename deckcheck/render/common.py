"""What every command's output shares: JSON as the commands print it."""

from __future__ import annotations

import os
from typing import Any


def to_json(data: Any, indent: int = 2) -> str:
    """``data`` as JSON text with non-ASCII names kept readable."""
    import json  # here, not at the top: text output (``validate``'s default) needs no json

    return json.dumps(data, ensure_ascii=False, indent=indent)


def _control_table() -> dict[int, str]:
    table = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c != 0x09}
    table.update({0x0A: "\\n", 0x0D: "\\r", 0x2028: "\\u2028", 0x2029: "\\u2029"})
    return table


_CONTROLS = _control_table()
# XML 1.0 also forbids these two noncharacters anywhere; tab stays itself in XML.
_XML = {**_CONTROLS, 0xFFFE: "\\ufffe", 0xFFFF: "\\uffff"}


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters shown as escapes (``\\n``,
    ``\\x1b``): a file or card name can never start a line of its own (a spoofed "legal"
    verdict, a ``::error::`` workflow command) or send terminal escapes."""
    return text.translate(_CONTROLS)


def xml_text(text: str) -> str:
    """``text`` with the characters XML 1.0 cannot hold escaped (see ``one_line``)."""
    return text.translate(_XML)


_MARKUP = {c: v for c, v in _XML.items() if c not in (0x0A, 0x0D)}


def markup_text(value: Any) -> Any:
    """A template value with the characters HTML/XML cannot hold escaped (``one_line``'s
    escapes; line breaks, which markup treats as spaces, stay): jinja2's ``finalize``."""
    return value.translate(_MARKUP) if isinstance(value, str) else value


def environment() -> Any:
    """The jinja2 environment of the report templates (autoescape on for every template)."""
    import jinja2

    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
    return jinja2.Environment(
        finalize=markup_text,  # control characters in a file or card name: not valid HTML
        loader=jinja2.FileSystemLoader(here),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
