"""A list named by its file, not installed (``--banlist deck-night.lflist.conf``,
``banlist diff a.yaml b.yaml``): ``load_list_file``; and list names compared loosely
(``name_key``), as ``--banlist "2025.4 TCG"`` names an installed one. Apart from
``formats.catalog`` so that its warm path (the installed lists, picked by family and date)
stays as small as it is.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from deckcheck.errors import InputError
from deckcheck.formats.codec import banlist_from_dict
from deckcheck.model import Banlist

__all__ = ["NOT_A_LIST_FILE", "load_list_file", "name_key"]

#: What ``--banlist`` says of a path that is not a regular file (no FIFO is opened).
NOT_A_LIST_FILE = "not a regular file (a .yaml or .lflist.conf file is)"

# compiled on first use (re's own cache): only a list asked for by name needs it
_NAME_DATE = r"^(\d{4})[.\-/](\d{1,2})(?:[.\-/](\d{1,2}))?(?!\d)"


def name_key(name: str) -> str:
    """List names compared loosely: case, spacing, and "2025.04" == "2025.4" (YGOPro style)."""
    s = " ".join(name.split()).casefold()
    m = re.match(_NAME_DATE, s)
    if m:
        parts = [m.group(1), str(int(m.group(2)))] + ([str(int(m.group(3)))] if m.group(3) else [])
        s = ".".join(parts) + s[m.end() :]
    return s


def load_list_file(
    ref: str, date: dt.date | None = None, resolvers: Callable[[], Any] | None = None
) -> Banlist:
    """A list straight from a ``.yaml`` or lflist.conf file (``path#name`` picks one list)."""
    from pathlib import Path  # a list named by its file only

    file_part, _, pick = ref.partition("#")
    path = Path(file_part).expanduser()
    if not path.is_file():
        what = (
            "is a folder, not a list file"
            if path.is_dir()
            else NOT_A_LIST_FILE  # a FIFO or device: never opened (no hang), not "not found"
            if path.exists()
            else "list file not found"
        )
        raise InputError(what, where=str(path))
    if resolvers is None:  # the installed card database's (catalog.default_resolvers)
        from deckcheck.cardnames import installed_resolvers

        resolvers = installed_resolvers()
    if path.suffix.lower() in (".yaml", ".yml"):
        from deckcheck.formats.compile import list_dict

        return banlist_from_dict(list_dict(path, resolvers()))
    from deckcheck.formats import lflist

    lists = lflist.parse_file(path)
    if not lists:
        raise InputError("no '!name' list in this file", where=str(path))
    if pick:
        chosen = [lf for lf in lists if name_key(lf.name) == name_key(pick)]
        if not chosen:
            names = ", ".join(lf.name for lf in lists[:20])
            raise InputError(f"no list named {pick!r} here (lists: {names})", where=str(path))
        lf = chosen[0]
    elif len(lists) > 1:
        names = ", ".join(lf.name for lf in lists[:10])
        more = f" and {len(lists) - 10} more" if len(lists) > 10 else ""
        raise InputError(
            f"holds {len(lists)} lists ({names}{more}); pick one as '{path}#<name>'",
            where=str(path),
        )
    else:
        lf = lists[0]
    got = lflist.date_of(lf.name)
    effective, exact = got or (date or dt.date.today(), False)
    family = lflist.family_of(lf.name, path) or "custom"
    b = lflist.to_banlist(
        lf, family=family, effective=effective, date_exact=exact, source=str(path), path=str(path)
    )
    from deckcheck.formats.compile import canonicalize

    return canonicalize(b, resolvers().list_key)
