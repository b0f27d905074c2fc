"""The ``.ydk`` reader: passcode lines in ``#main`` / ``#extra`` / ``!side`` sections.

Lenient on what real files contain (BOM, any line ending, blank lines, markers in any case,
no header, leading zeros, text after the passcode) and never silent: a line that is not a
passcode, a comment or a marker becomes a DC101 finding, and reading goes on.
"""

from __future__ import annotations

import re
from itertools import repeat

from deckcheck.codes import finding
from deckcheck.decks.packed import PackedDeck
from deckcheck.model import SECTIONS, Deck, DeckEntry, Finding, Section

UINT32_MAX = 0xFFFFFFFF

# Leading passcode, then either nothing or a separator before free text
# ("89631139 -- Blue-Eyes", "60303245#created by ..."): "12x" is not a passcode line.
_PASSCODE = r"([0-9]+)(?:$|[\s#\-/;,|(\[])"


def _number(digits: str) -> int:
    """The value of ASCII digits, or UINT32_MAX + 1 for any longer run: int() refuses strings
    of over 4300 digits (ValueError), and no passcode needs more than 10."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 10 else UINT32_MAX + 1


#: How many passcode lines an ``ints`` table keeps (then it starts again).
INTS_MAX = 1 << 16
#: what ``_parse_blocks`` reads for a line not in ``ints`` (no passcode is negative)
_OTHER = -1


def _new_passcode(line: str, ints: dict[str, int]) -> int | None:
    """The int of a bare passcode line (ASCII digits, at most UINT32_MAX), remembered in
    ``ints`` when it is short; None for any other line."""
    got = ints.get(line)  # the same line earlier in this deck
    if got is not None:
        return got
    if not (line.isascii() and line.isdigit()):
        return None
    got = _number(line)
    if got > UINT32_MAX:
        return None
    if len(line) <= 10:
        ints[line] = got
    return got


# After a line's passcode: another one ("14558127 14558127", "1,2"): clients read only the
# first, so the line is reported rather than half counted.
_ANOTHER = r"[\s,;|/]+[0-9]{5,10}(?:$|[\s,;|/])"

_MARKERS: dict[str, Section] = {"main": "main", "extra": "extra", "side": "side"}
#: the marker lines as clients write them (``marker`` reads any other spelling)
_EXACT: dict[str, Section] = {"#main": "main", "#extra": "extra", "!side": "side"}


def unreadable(section: Section, line_no: int, raw: str, reason: str) -> Finding:
    """The DC101 finding for one line (shared by the text reader)."""
    # Control characters and Unicode line breaks are escaped: the message is one line.
    shown = "".join(c if c.isprintable() or c == " " else ascii(c)[1:-1] for c in raw.strip())
    if len(shown) > 80:
        shown = shown[:77] + "..."
    message = f'line {line_no} cannot be read ({reason}): "{shown}"'
    return finding("DC101", message, section=section, line=line_no)


def marker(stripped: str) -> Section | None:
    """Section a ``#main``/``#extra``/``!side`` line switches to, any case and spacing."""
    head = stripped[0]
    if head == "!":
        # Clients switch to the side deck on any "!" line ("!side#created by X" exists).
        return "side"
    word = stripped[1:].strip().lower()
    return _MARKERS.get(word)


def parse_lines(lines: list[str], source: str, ints: dict[str, int] | None = None) -> Deck:
    """A Deck from already split lines (see ``deckcheck.decks.source.split_lines``).

    ``ints``: passcode line -> its int, kept by the caller for every deck of a run (an
    ``Engine``'s ``ints``; a fresh table when None). Besides sparing ``int()`` (the str's
    hash is cheaper) and the check that a block of lines is all digits (a line found there is
    a passcode), one int object per passcode makes every dict and set lookup by passcode
    downstream (the deck's counts, the card cache, the engine's per-card memos) an identity
    match instead of a comparison of two equal ints: 18% of a batch's per-deck cost
    (docs/ARCHITECTURE.md, performance paths). Only passcodes (lines of at most 10
    digits, at most UINT32_MAX) are kept, and at most ``INTS_MAX`` of them.
    """
    deck = _parse_blocks(lines, source, {} if ints is None else ints)
    return deck if deck is not None else parse_lines_general(lines, source)


def _parse_blocks(lines: list[str], source: str, ints: dict[str, int]) -> PackedDeck | None:
    """``parse_lines_general`` for the common file, a block of passcode lines at a time (38% of
    a batch's per-deck cost, docs/ARCHITECTURE.md, performance paths), or None for a file it
    does not take. Taken: every line is a marker or a comment (it starts with "#" or "!",
    read as the general reader reads it), empty (skipped) or a bare passcode of ASCII digits
    (no space, at most UINT32_MAX). Every line is looked up in ``ints`` by one C loop; the
    passcodes between two other lines are moved by slices. Anything unusual is left to the
    line-by-line reader, which reports it. The deck is a ``PackedDeck``: its entries are
    built only when something reads them (the engine's tally reads the arrays).
    """
    if len(ints) > INTS_MAX:
        ints.clear()
    end = len(lines)
    got = list(map(ints.get, lines, repeat(_OTHER, end)))
    got.append(_OTHER)  # so that the search below always stops: at the end
    # per section: (passcodes, 0-based rows), as a PackedDeck holds them
    arrays: dict[Section, tuple[list[int], list[int]]] = {s: ([], []) for s in SECTIONS}
    comments: list[str] = []
    ids_to, rows_to = arrays["main"]
    seen_content = False
    start = at = 0  # the block of passcode lines from ``start``; looked at up to ``at``
    while True:
        stop = got.index(_OTHER, at)  # the first line from ``at`` not a passcode read before
        line = lines[stop] if stop < end else ""
        if stop < end and line[:1] not in ("#", "!", ""):
            n = _new_passcode(line, ints)
            if n is None:
                return None  # not a passcode line: the general reader reports it
            got[stop] = n
            at = stop + 1
            continue
        if stop > start:
            ids_to.extend(got[start:stop])
            rows_to.extend(range(start, stop))
            seen_content = True
        if stop == end:
            break
        if line:  # a marker or a comment (a blank line is skipped)
            sec = _EXACT.get(line)
            if sec is None:
                line = line.strip()
                sec = marker(line)
            if sec is not None:
                ids_to, rows_to = arrays[sec]
                seen_content = True
            elif not seen_content:
                comments.append(line)
        start = at = stop + 1
    return PackedDeck(source, lines, (arrays["main"], arrays["extra"], arrays["side"]), comments)


def parse_lines_general(lines: list[str], source: str) -> Deck:
    """``parse_lines`` line by line: any content, every unreadable line reported (DC101)."""
    deck = Deck(source=source, kind="ydk")
    # compiled here (re's own cache keeps them), not at import: only this reader needs them
    passcode, another = re.compile(_PASSCODE), re.compile(_ANOTHER)
    section: Section = "main"
    target = deck.main
    seen_content = False
    append = target.append
    for no, raw in enumerate(lines, 1):
        s = raw.strip()
        if not s:
            continue
        # Fast path: the line is a bare passcode (nearly every line of a real deck); up to 10
        # ASCII digits int() reads directly (leading zeros included).
        if s.isdigit() and s.isascii():
            n = int(s) if len(s) <= 10 else _number(s)
            if n <= UINT32_MAX:
                append(DeckEntry(section, n, no, 1, None, raw))
                seen_content = True
                continue
            deck.findings.append(unreadable(section, no, raw, "passcode too large"))
            continue
        head = s[0]
        if head in {"#", "!"}:
            sec = marker(s)
            if sec is not None:
                section = sec
                target = deck.section(sec)
                append = target.append
                seen_content = True
            elif not seen_content:
                deck.comments.append(s)
            continue
        m = passcode.match(s)
        if m is None:
            reason = "not a passcode" if not head.isdigit() else "text glued to the passcode"
            deck.findings.append(unreadable(section, no, raw, reason))
            continue
        n = _number(m.group(1))
        if n > UINT32_MAX:
            deck.findings.append(unreadable(section, no, raw, "passcode too large"))
            continue
        if another.match(s, m.end(1)):
            deck.findings.append(unreadable(section, no, raw, "several passcodes on one line"))
            continue
        append(DeckEntry(section, n, no, 1, None, raw))
        seen_content = True
    return deck


def parse(text: str, source: str = "<string>") -> Deck:
    """A Deck from ``.ydk`` text (no size limits; use ``decks.read_string`` for those)."""
    from deckcheck.decks.source import Limits, split_lines

    return parse_lines(split_lines(text, source, Limits(max_bytes=2**62, max_lines=2**62)), source)
