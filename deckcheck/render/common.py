"""What every command's output shares: JSON as the commands print it."""

from __future__ import annotations

import json
from typing import Any


def to_json(data: Any, indent: int = 2) -> str:
    """``data`` as JSON text with non-ASCII names kept readable."""
    return json.dumps(data, ensure_ascii=False, indent=indent)
