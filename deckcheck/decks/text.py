"""Text decklists: "3 Ash Blossom & Joyous Spring" lines under Main/Extra/Side headers.

Reads what people paste and what deck sites export (YGOPRODeck, Dueling Nexus, DuelingBook
text exports, forum posts), with headers in English, Chinese, Japanese and Korean. Entries
keep the name as written in ``query`` (``card_id=None``); ``decks.resolve`` turns names into
passcodes. A line that is a passcode becomes an id directly.

The line grammar is public so that the reader and the deck editor (``deckcheck.deckedit``)
read a card line the same way: ``header``, ``sub_header_kinds``, ``fold``, ``strip_bullet``,
``split_pin``, ``find_count`` / ``split_count`` and ``format_line``, over the named patterns
``BULLET``, ``ID_SUFFIX`` and ``COUNT_FORMS``.
"""

from __future__ import annotations

import re
import unicodedata

from deckcheck.decks.ydk import UINT32_MAX, unreadable
from deckcheck.model import Deck, DeckEntry, Section

# Headers as written (after NFKC, lower case, counts and colons removed), "|"-separated.
_MAIN = (
    "main|main deck|maindeck|deck|main deck list|decklist|deck list|"
    "主卡组|主卡組|主牌组|主牌組|主卡|メインデッキ|メイン|메인 덱|메인덱|메인"
).split("|")
_EXTRA = (
    "extra|extra deck|extradeck|fusion deck|额外卡组|額外卡組|额外|額外|额外牌组|額外牌組|"
    "エクストラデッキ|エクストラ|엑스트라 덱|엑스트라덱|엑스트라"
).split("|")
_SIDE = (
    "side|side deck|sidedeck|sideboard|side board|副卡组|副卡組|副牌组|副牌組|备牌|"
    "サイドデッキ|サイド|사이드 덱|사이드덱|사이드"
).split("|")
# Card-kind sub-headers: they group cards but do not change the section. Not "fusion":
# three Rush Duel cards are called "Fusion".
_SUB = (
    "monster|monsters|monster cards|spell|spells|spell cards|magic|trap|traps|trap cards|"
    "spells & traps|spells and traps|fusions|synchro|synchros|xyz|xyzs|link|links|"
    "ritual|pendulum|extra deck monsters|fusion monsters|synchro monsters|xyz monsters|"
    "link monsters|怪兽|怪獸|怪兽卡|怪獸卡|魔法|魔法卡|陷阱|陷阱卡|モンスター|モンスターカード|"
    "魔法カード|罠|罠カード|몬스터|몬스터 카드|마법|마법 카드|함정|함정 카드"
).split("|")
HEADERS: dict[str, Section | None] = {
    **dict.fromkeys(_MAIN, "main"),
    **dict.fromkeys(_EXTRA, "extra"),
    **dict.fromkeys(_SIDE, "side"),
    **dict.fromkeys(_SUB),
}

#: Longest line read as a card (the longest name in the real database has 78).
MAX_LINE = 300

_COUNT_IN_HEADER = re.compile(
    r"[(\[]\s*\d+\s*(?:cards?|枚|张|張|장)?\s*[)\]]|[:\-–]?\s*\d+\s*(?:cards?|枚|张|張|장)?$"
)
_COUNT_SUFFIX = r"(?:张|張|枚|장|cards?)"
# "3 Name", "3x Name", "3 x Name", "3×灰流丽", "3张灰流丽", "3장 하루 우라라"; "3 Xyz …" is
# 3 × "Xyz …". A counter word must touch the digits: "2 장미의 요정" is 2 × "장미의 요정".
_LEADING = re.compile(
    r"(\d{1,3})(?:\s*[x×*]\s+|[×*]|(?:张|張|枚)\s*|장\s+|\s+)(\S.*)$", re.IGNORECASE
)
_LEADING_X = re.compile(r"[x×*](\d{1,3})\s+(\S.*)$", re.IGNORECASE)
_TRAILING = re.compile(
    rf"(.*?\S)(?:\s+[x×*]\s*|(?<=[^\x00-\x7f])\s*[x×*]\s*|\s*[(\[]\s*[x×]?\s*)(\d{{1,3}})"
    rf"\s*(?:{_COUNT_SUFFIX})?\s*[)\]]?$",
    re.IGNORECASE,
)
_TRAILING_CJK = re.compile(rf"(.*?\S)\s*(\d{{1,3}})\s*{_COUNT_SUFFIX}$", re.IGNORECASE)
# A passcode, maybe with a note ("12345678 (card not yet registered in database)", as
# YGOSalvation's list export writes cards it has no name for, or "12345678 -- name").
_PASSCODE = re.compile(r"(\d{5,10})(?:\s*[(\[].*|\s+(?:#|--|//).*)?")
# "1 Dark Magician (46986415)": a name with its passcode, as the text writer marks a card
# (an alternate artwork, a shared name) that the name alone would not give back.
#: "Name (12345678)": a card name with its pinned passcode (groups: name, passcode).
ID_SUFFIX = re.compile(r"(.*?\S)\s*[(\[]\s*#?(\d{5,10})\s*[)\]]$")
#: A list bullet before a card line ("- ", "• ", "1. " before a count).
BULLET = re.compile(r"^(?:[-*•·・]\s+|\d+[.)]\s+(?=\d))")
_COUNT_ONLY = re.compile(r"[x×*]?\d{1,4}[x×*]?", re.IGNORECASE)
_SEPARATOR = re.compile(r"^[-=_*~#]{3,}$")
# A count of 1000 or more ("1500 Ash Blossom", "Ash Blossom x1500"): the count forms take at
# most three digits, so such a line would read as one copy of a name starting "1500 …";
# no card name starts with four digits, and a deck never needs that many copies. A longer
# number before a name without an "x" ("46986415 Dark Magician") may be a passcode: not this.
_HUGE_COUNT = re.compile(
    r"(?:([1-9]\d{3,})(?:\s*[x×*]\s*|[x×*])\S.*|([1-9]\d{3})\s+\S.*|[x×*]([1-9]\d{3,})\s+\S.*"
    r"|.*?\S\s*[x×*]\s*([1-9]\d{3,})\s*)$",
    re.IGNORECASE,
)


#: The ways a count is written on a card line, tried in this order: (pattern, count group,
#: name group). A count after the name wins over a number before it.
COUNT_FORMS: tuple[tuple[re.Pattern[str], int, int], ...] = (
    (_TRAILING, 2, 1),
    (_TRAILING_CJK, 2, 1),
    (_LEADING, 1, 2),
    (_LEADING_X, 1, 2),
)

#: Words of card-kind sub-headers ("Monsters", "魔法", "Xyz") per card kind, to tell which
#: kind of card a sub-header groups.
SUB_HEADER_WORDS: dict[str, tuple[str, ...]] = {
    "monster": ("monster", "怪兽", "怪獸", "モンスター", "몬스터"),
    "spell": ("spell", "magic", "魔法", "마법"),
    "trap": ("trap", "陷阱", "罠", "함정"),
    "fusion": ("fusion",),
    "synchro": ("synchro",),
    "xyz": ("xyz",),
    "link": ("link",),
}


# Full-width digits, brackets and the ideographic space that CJK lists use around counts,
# folded to ASCII (not "Ｘ": "ＴＧＸ３００" is a name). The rest of a name is kept as written,
# not NFKC'd: it is quoted back to the user, and the lookup normalizes on its own.
_FOLD = str.maketrans(
    "０１２３４５６７８９＊（）［］：\u3000",
    "0123456789*()[]: ",
)


def fold(text: str) -> str:
    """``text`` with the count-related full-width characters folded to ASCII."""
    return text.translate(_FOLD)


def header(stripped: str) -> tuple[bool, Section | None]:
    """(is a header, section it switches to; None for a sub-header such as "Monsters")."""
    t = unicodedata.normalize("NFKC", stripped).lower()
    t = t.strip("#!/=-*[]【】 \t")
    t = _COUNT_IN_HEADER.sub("", t).strip()
    t = t.rstrip(":").strip()
    t = " ".join(t.split())
    if t in HEADERS:
        return True, HEADERS[t]
    return False, None


def sub_header_kinds(stripped: str) -> set[str] | None:
    """The card kinds a sub-header line groups ({"monster"} for "Monsters"), or None when
    the line is no sub-header (a section header, a card line)."""
    if not stripped or stripped[0].isdigit() or header(stripped) != (True, None):
        return None
    t = unicodedata.normalize("NFKC", stripped).lower()
    return {k for k, words in SUB_HEADER_WORDS.items() if any(w in t for w in words)}


def strip_bullet(folded: str) -> str:
    """A folded card line without its list bullet ("- ", "• ", "1. " before a count)."""
    return BULLET.sub("", folded)


def split_pin(body: str) -> tuple[str, int | None]:
    """(the line without its pinned passcode, the passcode) of "Name (12345678)", else
    (``body``, None). The passcode is not range-checked here."""
    m = ID_SUFFIX.match(body)
    if m:
        return m.group(1), int(m.group(2))
    return body, None


def find_count(text: str) -> tuple[int, str, tuple[int, int]] | None:
    """(count, name, span of the count in ``text``) of a card line body, or None when no
    count is written.

    A count after the name wins over a number before it: in "7 Colored Fish x2" the 7 is
    part of the name.
    """
    for rx, ci, ni in COUNT_FORMS:
        m = rx.match(text)
        if m:
            return int(m.group(ci)), m.group(ni).strip(), m.span(ci)
    return None


def split_count(text: str) -> tuple[int, str] | None:
    """(count, name) of a card line, or None when no count is written (count 1)."""
    got = find_count(text)
    return (got[0], got[1]) if got else None


def format_line(count: int, name: str, card_id: int | None = None) -> str:
    """A card line: "N Name", "N Name (passcode)" when ``card_id`` is pinned, "N passcode"
    when there is no name."""
    if not name:
        return f"{count} {card_id:08d}" if card_id is not None else str(count)
    return f"{count} {name} ({card_id:08d})" if card_id is not None else f"{count} {name}"


def whole_name(raw: str) -> str | None:
    """The line read as a name whose first word is a number ("7 Colored Fish").

    The reader takes "7 Colored Fish" as 7 × "Colored Fish"; the resolver tries this
    reading when that one does not find a card.
    """
    s = fold(raw).strip()
    m = re.match(r"\d{1,3}\s+\S", s)
    if not m:
        return None
    tail = _TRAILING.match(s) or _TRAILING_CJK.match(s)
    return tail.group(1).strip() if tail else s


def whole_count(raw: str) -> int:
    """Copies written after the name in a line read by ``whole_name`` (1 when none)."""
    s = fold(raw).strip()
    tail = _TRAILING.match(s) or _TRAILING_CJK.match(s)
    return int(tail.group(2)) if tail else 1


def parse_lines(lines: list[str], source: str) -> Deck:
    """A Deck from already split lines of a text decklist."""
    deck = Deck(source=source, kind="text")
    section: Section = "main"
    for no, raw in enumerate(lines, 1):
        s = raw.strip()
        if not s or _SEPARATOR.match(s) or s.startswith("//"):
            continue
        if len(s) > MAX_LINE:
            deck.findings.append(unreadable(section, no, raw, f"over {MAX_LINE} characters"))
            continue
        is_header, sec = header(s)
        if is_header:
            if sec is not None:
                section = sec
            continue
        if s[0] in "#!":
            if not deck.entries():
                deck.comments.append(s)
            continue
        t = strip_bullet(fold(s))
        pinned: int | None = None
        bare, pin = split_pin(t)
        if pin is not None and pin <= UINT32_MAX:
            t, pinned = bare, pin
        got = split_count(t)
        if got is None:
            huge = _HUGE_COUNT.fullmatch(t)
            if huge and not _PASSCODE.fullmatch(t):
                n_ = next(g for g in huge.groups() if g)
                deck.findings.append(
                    unreadable(
                        section, no, raw, f"count {n_[:12]}: a line holds at most 999 copies"
                    )
                )
                continue
        count, name = got or (1, t)
        if count < 1:
            deck.findings.append(unreadable(section, no, raw, "count 0"))
            continue
        if pinned is not None and name:
            # The passcode decides; the name may be anything, even "7".
            deck.section(section).append(DeckEntry(section, pinned, no, count, name, raw))
            continue
        if not name or _COUNT_ONLY.fullmatch(name):
            deck.findings.append(unreadable(section, no, raw, "a count without a card name"))
            continue
        target = deck.section(section)
        m = _PASSCODE.fullmatch(name)
        if m:
            n = int(m.group(1))
            if n > UINT32_MAX:
                deck.findings.append(unreadable(section, no, raw, "passcode too large"))
                continue
            target.append(DeckEntry(section, n, no, count, None, raw))
            continue
        target.append(DeckEntry(section, None, no, count, name, raw))
    return deck


def parse(text: str, source: str = "<string>") -> Deck:
    """A Deck from decklist text (no size limits; use ``decks.read_string`` for those)."""
    from deckcheck.decks.source import Limits, split_lines

    return parse_lines(split_lines(text, source, Limits(max_bytes=2**62, max_lines=2**62)), source)
