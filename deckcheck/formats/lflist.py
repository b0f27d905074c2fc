"""Reading and writing ``lflist.conf`` text (EDOPro and YGOPro dialects) and naming its lists.

Reader rules (../shared/data/README.md §3.1): ``!name`` starts a list, ``#`` lines are
comments, ``$whitelist`` / ``$genesys`` switch the current list's mode, an entry is
``<passcode> <count>`` followed by anything. Decisions made here:

* count ``-1`` (a few EDOPro Rush lists) is read as 0, Forbidden: EDOPro refuses the card too;
* passcode 0 is ignored, as EDOPro does;
* in a ``$genesys`` list the number is the card's points, not a copy limit;
* a comment line ``#Limited 1`` / ``#Limited 2`` / ``#Limited 3`` opens a Speed Duel group
  section (at most N cards in total from it); any other comment line closes it. A member
  written with the group's number has no copy limit of its own (the group limits it).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from deckcheck import datafile
from deckcheck.errors import InputError
from deckcheck.model import Banlist, Group
from deckcheck.records import Record, field, record

MAX_BYTES = 16 * 1024 * 1024  # the YGOPro combined file is 0.7 MB; this is a sanity bound

_FULLWIDTH = {c: unicodedata.normalize("NFKC", chr(c)) for c in range(0xFF01, 0xFF5F)} | {
    0x3000: " "
}
_LINES = re.compile(r"\r\n|\n|\r")
#: The copies a card may have when a list does not limit it.
UNLIMITED = 3
_GROUP_RE = re.compile(r"^#\s*limited\s+([123])\b", re.IGNORECASE)


@record(frozen=False, slots=True)
class LfEntry(Record):
    id: int
    count: int  # as written (-1 kept here; converted to 0 in to_banlist)
    comment: str  # the "--name" part, stripped
    line: int
    group: str | None = None  # "Limited 1" … when inside a Speed group section


@record(frozen=False, slots=True)
class LfList(Record):
    name: str
    line: int
    whitelist: bool = False
    genesys: bool = False
    entries: list[LfEntry] = field(default_factory=list)
    groups: dict[str, int] = field(default_factory=dict)  # group name -> total limit


_MAX_ID_DIGITS = 10  # UINT32_MAX has 10
_MAX_COUNT_DIGITS = 6


def _cut(digits: str) -> str:
    return digits if len(digits) <= 20 else f"{digits[:12]}… ({len(digits):,} digits)"


# "<passcode> <count>" then anything; real files also have "35371948 2--Name" (no space).
_ENTRY_RE = re.compile(r"^(\d+)\s+(-?\d+)(?!\d)(.*)$")


def parse(text: str, source: str = "<string>") -> list[LfList]:
    """Every list of an lflist.conf text, in file order. Bad lines raise InputError."""
    text = text.removeprefix("\ufeff")
    lists: list[LfList] = []
    cur: LfList | None = None
    group: str | None = None
    # Only CR/LF end a line (as in EDOPro's reader); str.splitlines would also split a name
    # comment at U+0085 or U+2028.
    for no, raw in enumerate(_LINES.split(text), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("!"):
            # YGOPro full-width digits/letters: "２０２６.７" reads as "2026.7". Only the
            # full-width forms are folded (NFKC's folding of those); other text is kept as is.
            name = line[1:].translate(_FULLWIDTH).strip()
            cur = LfList(name=name, line=no)
            lists.append(cur)
            group = None
            continue
        if line.startswith("--"):
            continue  # a "-- name" comment line (set headings in Rush lists)
        if line.startswith("#"):
            m = _GROUP_RE.match(line)
            group = f"Limited {m.group(1)}" if m else None
            if m and group and cur is not None:
                cur.groups[group] = int(m.group(1))
            continue
        if line.startswith("$"):
            if cur is None:
                where = f"{source}:{no}"
                raise InputError(f"{line.split()[0]} before any '!name' list", where=where)
            if line.startswith("$whitelist"):
                cur.whitelist = True
            elif line.startswith("$genesys"):
                cur.genesys = True
            continue  # unknown directives are ignored, as EDOPro does
        m = _ENTRY_RE.match(line)
        if m is None:
            raise InputError(
                f"not an entry '<passcode> <count>': {line[:60]!r}", where=f"{source}:{no}"
            )
        if cur is None:
            raise InputError("entry before any '!name' list", where=f"{source}:{no}")
        digits, number = m.group(1).lstrip("0"), m.group(2).lstrip("-").lstrip("0")
        # int() refuses over 4,300 digits (an internal error); a passcode is 32-bit, and a
        # count or Genesys points value has a few digits: longer is a broken line.
        if len(digits) > _MAX_ID_DIGITS:
            raise InputError(
                f"passcode {_cut(m.group(1))} is not a card's passcode (over "
                f"{_MAX_ID_DIGITS} digits)",
                where=f"{source}:{no}",
            )
        if len(number) > _MAX_COUNT_DIGITS:
            raise InputError(
                f"count {_cut(m.group(2))} is too large (over {_MAX_COUNT_DIGITS} digits)",
                where=f"{source}:{no}",
            )
        card = int(m.group(1))
        if card == 0:
            continue
        comment = m.group(3).strip()
        if comment.startswith("--"):
            comment = comment[2:].strip()
        cur.entries.append(LfEntry(card, int(m.group(2)), comment, no, group))
    return lists


def read_text(path: Path) -> str:
    """File text (UTF-8, BOM allowed), with clear errors for missing, huge or binary files."""
    return datafile.read_text(path, MAX_BYTES)


def parse_file(path: Path) -> list[LfList]:
    """The lists of an lflist.conf file; InputError when it holds none (an empty file, or
    entries with no '!name' line), which an import would otherwise take as "0 lists"."""
    lists = parse(read_text(path), str(path))
    if not lists:
        raise InputError(
            "no list in this file: an lflist.conf starts each list with a "
            "'!name' line (e.g. '!2026.05 TCG')",
            where=str(path),
        )
    return lists


# --------------------------------------------------------------------------- naming

# Checked in order: the first keyword found in the lower-cased name decides the family.
_FAMILY_WORDS: tuple[tuple[str, str], ...] = (
    ("rush prerelease", "rush-prerelease"),
    ("rush", "rush"),
    ("speed", "speed"),
    ("genesys", "genesys"),
    ("ocg-korea", "ocg-korea"),
    ("ocg korea", "ocg-korea"),
    ("korea", "ocg-korea"),
    ("ocg-ae", "ocg-ae"),
    ("traditional", "traditional"),
    ("world", "world"),
    ("goat", "goat"),
    ("master duel", "master-duel"),
    ("edison", "edison"),
    ("tcg", "tcg"),
    ("ocg", "ocg"),
)

# Folder names of ../shared/data/banlists/<source>/<kind>/ used as a hint.
_KIND_FAMILY = {
    "tcg": "tcg",
    "ocg": "ocg",
    "world": "world",
    "traditional": "traditional",
    "ocg-korea": "ocg-korea",
    "speed": "speed",
    "goat": "goat",
    "rush": "rush",
    "rush-prerelease": "rush-prerelease",
    "genesys": "genesys",
    "masterduel": "master-duel",
    "edison": "edison",
    "hat": "hat",
    "toss": "toss",
    "ocg-ae": "ocg-ae",
}

_DATE_RE = re.compile(r"^\s*(\d{4})[.\-/](\d{1,2})(?:[.\-/](\d{1,2}))?(?!\d)")


def family_of(name: str, hint_path: Path | None = None) -> str | None:
    """The list family a list name implies ("2024.09 TCG" → tcg), else the folder hint."""
    low = name.lower().replace("’", "'")
    for word, fam in _FAMILY_WORDS:
        if word in low:
            return fam
    m = _DATE_RE.match(name)
    if m and not name[m.end() :].strip():
        return "ocg"  # YGOPro names its OCG lists by date only ("2026.7", "2011.3.1")
    if hint_path is not None:
        got = _KIND_FAMILY.get(hint_path.parent.name.lower())
        if got:
            return got
    return None


def date_of(name: str) -> tuple[dt.date, bool] | None:
    """Effective date from a list name and whether the day was known ("2024.09" → 1st, False)."""
    m = _DATE_RE.match(name)
    if not m:
        return None
    y, mo = int(m.group(1)), int(m.group(2))
    day = int(m.group(3)) if m.group(3) else None
    try:
        return dt.date(y, mo, day or 1), day is not None
    except ValueError:
        return None


def to_banlist(
    lf: LfList,
    *,
    family: str,
    effective: dt.date,
    date_exact: bool = True,
    source: str = "",
    path: str = "",
) -> Banlist:
    """The list as a model.Banlist (passcodes as written; no card database involved)."""
    limits: dict[int, int] = {}
    points: dict[int, int] = {}
    names: dict[int, str] = {}
    members: dict[str, set[int]] = {g: set() for g in lf.groups}
    for e in lf.entries:
        if e.comment:
            names.setdefault(e.id, e.comment)
        if lf.genesys:
            points[e.id] = e.count
            continue
        if e.group is not None:
            members[e.group].add(e.id)
            if e.count == lf.groups[e.group]:
                # "#Limited 1 / <id> 1": the group limits the card (at most 1 card of the
                # group in all), not a copy limit of its own: two copies are DC406 only,
                # never DC403 beside it (issue 32). A whitelist still admits the card.
                if lf.whitelist:
                    limits[e.id] = UNLIMITED
                continue
        limits[e.id] = max(e.count, 0)
    groups = tuple(
        Group(g, lim, frozenset(members[g])) for g, lim in lf.groups.items() if members[g]
    )
    return Banlist(
        name=lf.name,
        family=family,
        effective=effective,
        mode="whitelist" if lf.whitelist else "blacklist",
        limits=limits,
        names=names,
        groups=groups,
        points=points,
        source=source,
        path=path,
        date_exact=date_exact,
    )


# --------------------------------------------------------------------------- writer

_SECTIONS = ((0, "#Forbidden"), (1, "#Limited"), (2, "#Semi-limited"), (3, "#Unlimited"))


def _line(card: int, n: int, name: str) -> str:
    return f"{card} {n} --{name}" if name else f"{card} {n}"


def write(lists: Iterable[Banlist], names: dict[int, str] | None = None) -> str:
    """EDOPro-dialect text for one or more lists (LF line endings, final newline)."""
    lists = list(lists)
    names = names or {}
    out = ["#" + "".join(f"[{b.name}]" for b in lists)]
    for b in lists:

        def nm(card: int, b: Banlist = b) -> str:
            return names.get(card) or b.names.get(card, "")

        out.append(f"!{b.name}")
        if b.mode == "whitelist":
            out.append("$whitelist")
        if b.points:
            out.append("$genesys")
            for card, pts in sorted(b.points.items(), key=lambda kv: (kv[1], kv[0])):
                out.append(_line(card, pts, nm(card)))
        in_group = {c for g in b.groups for c in g.cards}
        for n, header in _SECTIONS:
            cards = sorted(c for c, lim in b.limits.items() if lim == n and c not in in_group)
            if cards:
                out.append(header)
                out.extend(_line(c, n, nm(c)) for c in cards)
        for g in b.groups:
            out.append(f"#Limited {g.limit}" if g.name == f"Limited {g.limit}" else f"#{g.name}")
            # a member's line holds the group's limit (what EDOPro's files write), or its own
            # lower one; read back, the list is the same (group, and no copy limit)
            out.extend(
                _line(c, min(b.limits.get(c, g.limit), g.limit), nm(c)) for c in sorted(g.cards)
            )
    return "\n".join(out) + "\n"
