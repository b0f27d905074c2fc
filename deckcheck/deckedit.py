"""Deck building: load a deck file for editing, add/remove/move cards keeping the file's own
format and layout, group a deck by card kind, and opening-hand odds (exact hypergeometric).

Edits work on the file's lines, not on a re-written deck: a ``.ydk`` keeps its comments and
line layout (new copies go after the card's last copy in the section, or at the end of the
section; removals take the last copies), a text list keeps its wording (counts are changed in
place, new cards are "N Name" lines in the list's own language), a ydke:// file stays a link.
Every edit is checked by reading the new text back: it must hold exactly the cards asked for,
or nothing is written.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckcheck.carddb import goes_to_extra
from deckcheck.errors import DeckcheckError
from deckcheck.model import (
    SECTIONS,
    Banlist,
    Card,
    Deck,
    DeckEntry,
    Finding,
    Format,
    Section,
)
from deckcheck.report import DeckReport

#: Section names as users write them in messages.
SECTION_LABEL = {"main": "Main Deck", "extra": "Extra Deck", "side": "Side Deck"}
#: Extra Deck groups of ``show``/``stats``, in this order (Rush: ritual too).
EXTRA_KINDS = ("fusion", "synchro", "xyz", "link", "ritual")
#: Separator between cards of one ``--card`` group (no real card name contains it).
GROUP_SEP = "|"

_FORMAT_COMMENT = re.compile(r"\s*#\s*format\s*[:=]?\s*([A-Za-z0-9_.-]+)\s*$", re.IGNORECASE)

ATTRIBUTES = {0x1: "EARTH", 0x2: "WATER", 0x4: "FIRE", 0x8: "WIND", 0x10: "LIGHT",
              0x20: "DARK", 0x40: "DIVINE"}  # fmt: skip
RACES = {
    0x1: "Warrior", 0x2: "Spellcaster", 0x4: "Fairy", 0x8: "Fiend", 0x10: "Zombie",
    0x20: "Machine", 0x40: "Aqua", 0x80: "Pyro", 0x100: "Rock", 0x200: "Winged Beast",
    0x400: "Plant", 0x800: "Insect", 0x1000: "Thunder", 0x2000: "Dragon", 0x4000: "Beast",
    0x8000: "Beast-Warrior", 0x10000: "Dinosaur", 0x20000: "Fish", 0x40000: "Sea Serpent",
    0x80000: "Reptile", 0x100000: "Psychic", 0x200000: "Divine-Beast", 0x400000: "Creator God",
    0x800000: "Wyrm", 0x1000000: "Cyberse", 0x2000000: "Illusion",
}  # fmt: skip


#: Words of text-list sub-headers per card kind (see ``decks.text``).
_SUB_KINDS = {
    "monster": ("monster", "怪兽", "怪獸", "モンスター", "몬스터"),
    "spell": ("spell", "magic", "魔法", "마법"),
    "trap": ("trap", "陷阱", "罠", "함정"),
    "fusion": ("fusion",), "synchro": ("synchro",), "xyz": ("xyz",), "link": ("link",),
}  # fmt: skip


class EditError(DeckcheckError):
    """An edit that cannot be made as asked (the file is left untouched)."""


class NotResolved(DeckcheckError):
    """A card name that names no card or several: the caller lists the candidates (exit 1)."""

    exit_code = 1

    def __init__(self, resolution: Any):
        what = "matches more than one card" if resolution.status == "ambiguous" else "is unknown"
        super().__init__(f'"{resolution.query}" {what}')
        self.resolution = resolution

    def candidates(self, limit: int = 8) -> list[tuple[int, str]]:
        seen: dict[int, str] = {}
        for m in self.resolution.candidates:
            seen.setdefault(m.card_id, m.name)
        return list(seen.items())[:limit]


# --------------------------------------------------------------------------- cards


def resolve_card(query: str, db: Any, index: Any, lang: str | None = None) -> int:
    """The passcode a CARD argument names: a passcode of the database as written (an
    alternate artwork stays itself), else a name in any language through the lookup index.
    Raises ``NotResolved`` (ambiguous or unknown, with candidates)."""
    q = query.strip()
    if q.isascii() and q.isdigit() and db.get(int(q)) is not None:
        return int(q)
    res = index.resolve(q, lang) if lang else index.resolve(q)
    if res.status != "found" or res.card_id is None:
        raise NotResolved(res)
    return int(res.card_id)


def art_root(card_id: int, db: Any) -> int:
    """The card a passcode is an artwork of (itself for "always treated as" cards: those are
    other cards that only count together)."""
    return int(db.list_key(card_id))


def home_section(card: Card, fmt: Format) -> Section:
    return "extra" if goes_to_extra(card, fmt) else "main"


# --------------------------------------------------------------------------- deck files


@dataclass
class DeckFile:
    """A deck file as read for editing: its text, how it was encoded, and the parsed deck
    (text-list names resolved to passcodes)."""

    path: Path
    kind: str  # ydk | ydke | text
    lines: list[str]
    newline: str = "\n"
    trailing_newline: bool = True
    encoding: str = "utf-8"
    bom: bool = False
    deck: Deck = field(default_factory=lambda: Deck(source=""))
    format_hint: str | None = None  # from a "#format tcg" header comment

    @property
    def text(self) -> str:
        body = self.newline.join(self.lines)
        if self.trailing_newline and self.lines:
            body += self.newline
        return ("\ufeff" if self.bom else "") + body


def _format_hint(lines: Iterable[str]) -> str | None:
    for line in lines:
        s = line.strip()
        if not s:
            continue
        m = _FORMAT_COMMENT.match(s)
        if m:
            return m.group(1).lower()
        if not s.startswith(("#", "!")):
            return None
    return None


def parse_text(path: Path, text: str, kind: str | None, index: Any, db: Any) -> Deck:
    from deckcheck import decks
    from deckcheck.decks.resolve import resolve_deck

    deck = decks.read_string(text, source=str(path), kind=kind)
    if deck.kind == "text" and any(e.card_id is None and e.query for e in deck.entries()):
        deck = resolve_deck(deck, db, index)
    return deck


def load(path: str | Path, db: Any, index: Any) -> DeckFile:
    """Read a deck file for editing (InputError when it cannot be read at all)."""
    from deckcheck.decks.source import read_path_bytes, split_lines

    p = Path(path)
    data = read_path_bytes(p)
    encoding = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8"
    bom = data.startswith(b"\xef\xbb\xbf")
    from deckcheck.decks.source import decode

    text = decode(data, str(p))
    deck = parse_text(p, text, None, index, db)
    newline = "\r\n" if "\r\n" in text else ("\r" if "\r" in text else "\n")
    lines = split_lines(text, str(p))
    return DeckFile(
        path=p,
        kind=deck.kind,
        lines=lines if deck.kind != "ydke" else [text.strip()],
        newline=newline,
        trailing_newline=text.endswith(("\n", "\r")) or deck.kind == "ydke",
        encoding=encoding,
        bom=bom,
        deck=deck,
        format_hint=_format_hint(lines),
    )


def new_text(kind: str, format_id: str | None = None) -> str:
    """The text of an empty deck file of ``kind`` (ydk, ydke, text)."""
    note = [f"#format {format_id}"] if format_id else []
    if kind == "ydke":
        return "ydke://!!!\n"
    if kind == "text":
        return "\n".join([*note, "Main Deck", "", "Extra Deck", "", "Side Deck"]) + "\n"
    return "\n".join(["#created by deckcheck", *note, "#main", "#extra", "!side"]) + "\n"


def kind_for_path(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    return {".txt": "text", ".ydke": "ydke"}.get(suffix, "ydk")


# --------------------------------------------------------------------------- tallies


def tally(deck: Deck) -> Counter[tuple[str, int]]:
    """Copies per (section, passcode) of resolved entries."""
    out: Counter[tuple[str, int]] = Counter()
    for e in deck.entries():
        if e.card_id is not None:
            out[(e.section, e.card_id)] += e.count
    return out


def copies_of(deck: Deck, root: int, db: Any, sections: Iterable[str] = SECTIONS) -> int:
    want = set(sections)
    return sum(
        e.count
        for e in deck.entries()
        if e.card_id is not None and e.section in want and art_root(e.card_id, db) == root
    )


# --------------------------------------------------------------------------- line edits


class _Editor:
    """Edits the lines of one deck file; each step re-reads the text it produced."""

    def __init__(self, df: DeckFile, db: Any, index: Any, lang: str = "en"):
        self.df = df
        self.db = db
        self.index = index
        self.lang = lang

    # ---- shared

    def _reparse(self, lines: list[str]) -> None:
        df = self.df
        df.lines = lines
        df.deck = parse_text(df.path, df.text.lstrip("\ufeff"), df.kind, self.index, self.db)

    def _regions(self) -> dict[str, tuple[int, int]]:
        """Section -> (first line index after its header, index of the next header)."""
        from deckcheck.decks import text as _text
        from deckcheck.decks import ydk as _ydk

        heads: list[tuple[int, str]] = []
        sec: str | None
        for i, raw in enumerate(self.df.lines):
            s = raw.strip()
            if not s:
                continue
            if self.df.kind == "ydk":
                sec = _ydk.marker(s) if s[0] in "#!" else None
                if sec is not None:
                    heads.append((i, sec))
            else:
                is_head, sec2 = _text.header(s)
                if is_head and sec2 is not None:
                    heads.append((i, sec2))
        out: dict[str, tuple[int, int]] = {}
        starts = [(-1, "main"), *heads]
        for k, (i, name) in enumerate(starts):
            end = starts[k + 1][0] if k + 1 < len(starts) else len(self.df.lines)
            if k == 0 and heads and heads[0][1] == "main" and end == heads[0][0]:
                # Lines before "#main" are header comments, not the Main Deck.
                continue
            out[name] = (i + 1, end)
        return out

    def _insert_at(self, section: Section, kind: str | None = None) -> int:
        """Where a new line of ``section`` goes (adding the section header when missing).

        In a text list with sub-headers ("Monsters", "魔法", "Xyz"), a card of ``kind`` goes
        at the end of its own sub-group."""
        regions = self._regions()
        if section not in regions:
            later = [regions[s][0] - 1 for s in SECTIONS[SECTIONS.index(section) + 1 :]
                     if s in regions]  # fmt: skip
            at = min(later) if later else len(self.df.lines)
            if self.df.kind == "ydk":
                head = "!side" if section == "side" else f"#{section}"
                self.df.lines[at:at] = [head]
            else:
                from deckcheck.decks.write import TEXT_HEADERS

                pad = [""] if at > 0 and self.df.lines[at - 1].strip() else []
                self.df.lines[at:at] = [*pad, TEXT_HEADERS[section]]
                at += len(pad)
            return at + 1
        start, end = regions[section]
        if kind is not None and self.df.kind == "text":
            start, end = self._subgroup(start, end, kind)
        last = start
        for i in range(start, end):
            if self.df.lines[i].strip():
                last = i + 1
        return last

    def _subgroup(self, start: int, end: int, kind: str) -> tuple[int, int]:
        """The lines under the sub-header of ``kind`` within a section, else the section."""
        import unicodedata

        from deckcheck.decks import text as _text

        subs: list[tuple[int, set[str]]] = []
        for i in range(start, end):
            s = self.df.lines[i].strip()
            if s and not s[0].isdigit() and _text.header(s) == (True, None):
                t = unicodedata.normalize("NFKC", s).lower()
                subs.append((i, {k for k, words in _SUB_KINDS.items()
                                 if any(w in t for w in words)}))  # fmt: skip
        for k, (i, kinds) in enumerate(subs):
            if kind in kinds:
                nxt = subs[k + 1][0] if k + 1 < len(subs) else end
                return i + 1, nxt
        return start, end

    def _check(self, before: Counter[tuple[str, int]], delta: dict[tuple[str, int], int]) -> None:
        want = Counter(before)
        for k, v in delta.items():
            want[k] += v
        got = tally(self.df.deck)
        want = +want
        if +got != want:
            raise EditError(
                "the edit could not be written without changing other lines of the file "
                "(nothing was written)",
                where=str(self.df.path),
            )

    # ---- add

    def add(self, section: Section, card_id: int, n: int) -> None:
        before = tally(self.df.deck)
        if self.df.kind == "ydke":
            self._add_ydke(section, card_id, n)
        elif self.df.kind == "ydk":
            self._add_ydk(section, card_id, n)
        else:
            old = self.df.deck.counts()
            self._add_text(section, card_id, n)
            self._fix_header_counts(old)
        self._check(before, {(section, card_id): n})

    def _fix_header_counts(self, old: dict[str, int]) -> None:
        """"Main Deck (40)": a section header's count follows the edit when it was right."""
        from deckcheck.decks import text as _text

        new = self.df.deck.counts()
        lines = self.df.lines
        changed = False
        for i, raw in enumerate(lines):
            s = raw.strip()
            if not s or s[0].isdigit():
                continue
            is_head, sec = _text.header(s)
            if not is_head or sec is None or old[sec] == new[sec]:
                continue
            nums = list(re.finditer(r"\d+", raw))
            if nums and int(nums[-1].group()) == old[sec]:
                a, b = nums[-1].span()
                lines[i] = raw[:a] + str(new[sec]) + raw[b:]
                changed = True
        if changed:
            self._reparse(lines)

    def _last_line_of(self, section: Section, card_id: int) -> DeckEntry | None:
        got = [e for e in self.df.deck.section(section) if e.card_id == card_id and e.line]
        return max(got, key=lambda e: e.line or 0) if got else None

    def _add_ydke(self, section: Section, card_id: int, n: int) -> None:
        from deckcheck.decks import ydke

        deck = self.df.deck
        entries = deck.section(section)
        pos = max((i + 1 for i, e in enumerate(entries) if e.card_id == card_id), default=None)
        pos = len(entries) if pos is None else pos
        entries[pos:pos] = [DeckEntry(section, card_id, None, 1, None, str(card_id))] * n
        self._reparse([ydke.encode(deck)])

    def _name_comment(self, line: str, card_id: int) -> bool:
        s = line.strip()
        if not s.startswith("#"):
            return False
        name = s[1:].strip()
        return any(name in names for names in self.db.names(card_id).values())

    def _add_ydk(self, section: Section, card_id: int, n: int) -> None:
        lines = self.df.lines
        last = self._last_line_of(section, card_id)
        new = [str(card_id)] * n
        if last is not None:
            at = last.line or 0  # after the card's last copy: copies stay together
        else:
            at = self._insert_at(section)
            if self._uses_name_comments():
                new.insert(0, "# " + " ".join(self.db.name(card_id, self.lang).split()))
        lines[at:at] = new
        self._reparse(lines)

    def _uses_name_comments(self) -> bool:
        """True when the file names its cards in "# Name" lines (``build``, ``convert --names``)."""
        lines = self.df.lines
        for e in self.df.deck.entries()[:8]:
            if e.line and e.line >= 2 and e.card_id is not None:
                if self._name_comment(lines[e.line - 2], e.card_id):
                    return True
        return False

    def _list_lang(self) -> str:
        """The language a text list is written in (the one most of its names match)."""
        votes: Counter[str] = Counter()
        for e in self.df.deck.entries()[:20]:
            if e.card_id is None or not e.query:
                continue
            for lg, names in self.db.names(e.card_id).items():
                if e.query.strip() in names and not lg.endswith("_reading"):
                    votes[lg] += 1
        return votes.most_common(1)[0][0] if votes else self.lang

    def _reads_as(self, line: str, card_id: int, count: int) -> bool:
        from deckcheck.decks import text as _text
        from deckcheck.decks.resolve import resolve_entry

        d = _text.parse_lines([line], "")
        es = d.entries()
        if d.findings or len(es) != 1:
            return False
        got, _, finding = resolve_entry(es[0], self.index)
        return finding is None and got.card_id == card_id and got.count == count

    def text_line(self, card_id: int, count: int, lang: str) -> str:
        """A "N Name" line that reads back as exactly this card (else the passcode is pinned)."""
        name = " ".join(self.db.name(card_id, lang).split())
        line = f"{count} {name}"
        if name and self._reads_as(line, card_id, count):
            return line
        return f"{count} {name} ({card_id:08d})" if name else f"{count} {card_id:08d}"

    def _recount(self, entry: DeckEntry, count: int) -> str | None:
        """The entry's line with its count changed in place, or None when that misreads."""
        from deckcheck.decks import text as _text

        raw = entry.raw
        s = raw.strip()
        lead = raw[: len(raw) - len(raw.lstrip())]
        folded = _text.fold(s)
        body = _text._BULLET.sub("", folded)
        off = len(folded) - len(body)
        m = _text._ID_SUFFIX.match(body)
        if m:
            body = body[: m.end(1)]
        candidate = None
        for rx, ci, _ni in _text._COUNT_FORMS:
            got = rx.match(body)
            if got:
                a, b = got.span(ci)
                candidate = s[: off + a] + str(count) + s[off + b :]
                break
        if candidate is None:
            candidate = s[:off] + f"{count} " + s[off:]
        line = lead + candidate.rstrip() + raw[len(raw.rstrip()) :]
        assert entry.card_id is not None
        return line if self._reads_as(line.strip(), entry.card_id, count) else None

    def _add_text(self, section: Section, card_id: int, n: int) -> None:
        lines = self.df.lines
        last = self._last_line_of(section, card_id)
        if last is not None and last.line:
            changed = self._recount(last, last.count + n)
            if changed is not None:
                lines[last.line - 1] = changed
                self._reparse(lines)
                return
        card = self.db.get(card_id)
        kind = None
        if card is not None:
            kind = card.kind
            for t in ("fusion", "synchro", "xyz", "link"):
                if section == "extra" and card.has_type(t):
                    kind = t
        at = self._insert_at(section, kind)
        lines[at:at] = [self.text_line(card_id, n, self._list_lang())]
        self._reparse(lines)

    # ---- remove

    def remove(self, section: Section, match: Callable[[int], bool], n: int) -> list[int]:
        """Take ``n`` copies (the last ones) of the matching card out of ``section``;
        returns the passcodes taken, in file order."""
        before = tally(self.df.deck)
        entries = [e for e in self.df.deck.section(section)
                   if e.card_id is not None and match(e.card_id)]  # fmt: skip
        taken: list[tuple[DeckEntry, int]] = []
        left = n
        for e in reversed(entries):
            if left == 0:
                break
            k = min(e.count, left)
            taken.append((e, k))
            left -= k
        if left:
            raise EditError(f"only {n - left} in the {SECTION_LABEL[section]}")
        delta: Counter[tuple[str, int]] = Counter()
        for e, k in taken:
            assert e.card_id is not None
            delta[(section, e.card_id)] -= k
        if self.df.kind == "ydke":
            drop = {id(e) for e, _ in taken}
            for name in SECTIONS:
                sec = self.df.deck.section(name)
                sec[:] = [e for e in sec if id(e) not in drop]
            from deckcheck.decks import ydke

            self._reparse([ydke.encode(self.df.deck)])
        else:
            old = self.df.deck.counts()
            self._remove_lines(taken)
            if self.df.kind == "text":
                self._fix_header_counts(old)
        self._check(before, dict(delta))
        out: list[int] = []
        for e, k in reversed(taken):
            assert e.card_id is not None
            out.extend([e.card_id] * k)
        return out

    def _remove_lines(self, taken: list[tuple[DeckEntry, int]]) -> None:
        lines = self.df.lines
        drop: set[int] = set()
        for e, k in taken:
            assert e.line is not None and e.card_id is not None
            i = e.line - 1
            if k == e.count:
                drop.add(i)
                continue
            changed = self._recount(e, e.count - k)
            if changed is None:
                raise EditError(f"line {e.line} cannot be rewritten with a new count",
                                where=str(self.df.path))  # fmt: skip
            lines[i] = changed
        if self.df.kind == "ydk":
            # A "# Name" comment whose card no longer follows it goes too.
            for i in sorted(drop):
                j = i - 1
                while j in drop:
                    j -= 1
                if j < 0 or not lines[j].strip().startswith("#"):
                    continue
                nxt = i + 1
                while nxt in drop:
                    nxt += 1
                cid = self._card_on(nxt)
                gone = self._card_on(i)
                if gone is not None and cid != gone and self._name_comment(lines[j], gone):
                    drop.add(j)
        self._reparse([ln for i, ln in enumerate(lines) if i not in drop])

    def _card_on(self, i: int) -> int | None:
        for e in self.df.deck.entries():
            if e.line == i + 1:
                return e.card_id
        return None


# --------------------------------------------------------------------------- edit requests


@dataclass(frozen=True)
class Change:
    """What an edit did, for the user."""

    verb: str  # added | removed | moved
    card_id: int
    name: str
    count: int
    section: Section  # destination (added, moved) or origin (removed)
    origin: Section | None = None  # moved: from
    now: int = 0  # copies of the card in the whole deck after the edit


def _pick_section(df: DeckFile, root: int, db: Any, home: Section, asked: Section | None,
                  verb: str) -> Section:  # fmt: skip
    if asked is not None:
        return asked
    present = [s for s in SECTIONS if copies_of(df.deck, root, db, [s])]
    if home in present or not present:
        return home
    if len(present) == 1:
        return present[0]
    raise EditError(
        f"copies are in the {' and '.join(SECTION_LABEL[s] for s in present)}; "
        f"say which with --main, --extra or --side to {verb}"
    )


def _check_target(card: Card | None, section: Section, fmt: Format, force: bool) -> None:
    if card is None or force or section == "side":
        return
    name = card.name
    if card.kind == "token":
        raise EditError(f"{name} is a token: tokens are not part of a deck (--force adds it)")
    extra = goes_to_extra(card, fmt)
    if section == "extra" and not extra:
        raise EditError(
            f"{name} is not an Extra Deck monster in {fmt.name}; it cannot go to the Extra "
            "Deck (use --main or --side, or --force to place it anyway)"
        )
    if section == "main" and extra:
        raise EditError(
            f"{name} is an Extra Deck monster in {fmt.name}; it cannot go to the Main Deck "
            "(use --extra or --side, or --force to place it anyway)"
        )


def add(df: DeckFile, card_id: int, n: int, section: Section | None, fmt: Format, db: Any,
        index: Any, *, force: bool = False, lang: str = "en") -> Change:  # fmt: skip
    """Add ``n`` copies of ``card_id`` (default section: where the format puts the card)."""
    if n < 1:
        raise EditError("-n must be at least 1")
    card = db.get(card_id)
    target = section or (home_section(card, fmt) if card is not None else "main")
    _check_target(card, target, fmt, force)
    _Editor(df, db, index, lang).add(target, card_id, n)
    root = art_root(card_id, db)
    return Change("added", card_id, db.name(card_id, lang), n, target,
                  now=copies_of(df.deck, root, db))  # fmt: skip


def _matcher(card_id: int, exact: bool, db: Any) -> Callable[[int], bool]:
    if exact:
        return lambda cid: cid == card_id
    root = art_root(card_id, db)
    return lambda cid: art_root(cid, db) == root


def remove(df: DeckFile, card_id: int, n: int | None, section: Section | None, fmt: Format,
           db: Any, index: Any, *, exact: bool = False, lang: str = "en") -> Change:  # fmt: skip
    """Remove ``n`` copies (None: all of them in the section), the last ones of the file.

    ``exact`` matches this passcode only; otherwise every artwork of the card matches.
    """
    card = db.get(card_id)
    root = art_root(card_id, db)
    home = home_section(card, fmt) if card is not None else "main"
    src = _pick_section(df, root, db, home, section, "remove")
    match = _matcher(card_id, exact, db)
    have = sum(e.count for e in df.deck.section(src)
               if e.card_id is not None and match(e.card_id))  # fmt: skip
    name = db.name(card_id, lang)
    want = have if n is None else n
    if want < 1 or have < want:
        if have == 0:
            raise EditError(f"no copy of {name} in the {SECTION_LABEL[src]}",
                            where=str(df.path))  # fmt: skip
        raise EditError(
            f"cannot remove {want} copies of {name}: the {SECTION_LABEL[src]} holds {have}",
            where=str(df.path),
        )
    _Editor(df, db, index, lang).remove(src, match, want)
    return Change("removed", card_id, name, want, src, now=copies_of(df.deck, root, db))


def move(df: DeckFile, card_id: int, n: int | None, to: Section, origin: Section | None,
         fmt: Format, db: Any, index: Any, *, exact: bool = False, force: bool = False,
         lang: str = "en") -> Change:  # fmt: skip
    """Move ``n`` copies (None: all) from ``origin`` (default: where the copies are) to ``to``."""
    card = db.get(card_id)
    root = art_root(card_id, db)
    if origin is None:
        present = [s for s in SECTIONS if s != to and copies_of(df.deck, root, db, [s])]
        if len(present) > 1:
            raise EditError(
                f"copies are in the {' and '.join(SECTION_LABEL[s] for s in present)}; "
                "say which with --from"
            )
        origin = present[0] if present else ("main" if to != "main" else "side")
    if origin == to:
        raise EditError(f"--from and --to are both the {SECTION_LABEL[to]}")
    _check_target(card, to, fmt, force)
    match = _matcher(card_id, exact, db)
    have = sum(e.count for e in df.deck.section(origin)
               if e.card_id is not None and match(e.card_id))  # fmt: skip
    name = db.name(card_id, lang)
    want = have if n is None else n
    if have == 0:
        raise EditError(f"no copy of {name} in the {SECTION_LABEL[origin]}", where=str(df.path))
    if want < 1 or have < want:
        raise EditError(
            f"cannot move {want} copies of {name}: the {SECTION_LABEL[origin]} holds {have}",
            where=str(df.path),
        )
    ed = _Editor(df, db, index, lang)
    taken = ed.remove(origin, match, want)
    for cid, k in Counter(taken).items():
        ed.add(to, cid, k)
    return Change("moved", card_id, name, want, to, origin=origin,
                  now=copies_of(df.deck, root, db))  # fmt: skip


# --------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class Check:
    """A deck checked against a format: the report, and why the list was not used if so."""

    report: DeckReport
    banlist: Banlist | None
    skipped: str | None  # "no 'tcg' list in force on …": list rules were not checked


def check(deck: Deck, fmt: Format, db: Any, date: dt.date, store: Any = None,
          names: Callable[[int], str] | None = None) -> Check:  # fmt: skip
    """Validate with the list in force; with none installed, sizes/copies/placement only."""
    from deckcheck.validate import validate_deck

    banlist = None
    skipped = None
    on = fmt.at(date)
    if on.list_family is not None:
        if store is None:
            from deckcheck.formats.store import ListStore

            store = ListStore.default()
        banlist = store.in_force(on.list_family, date)
        if banlist is None:
            skipped = (
                f"no {on.list_family!r} list is in force on {date.isoformat()}: the list was "
                "not checked (install lists with `deckcheck update`)"
            )
    report = validate_deck(deck, fmt, banlist, db, date=date, names=names)
    return Check(report, banlist, skipped)


def _key(f: Finding) -> tuple[Any, ...]:
    # Card findings are the same problem whatever the count; size findings per section.
    if f.card_id is not None and f.code not in ("DC301", "DC302", "DC104", "DC102"):
        return (f.code, f.card_id)
    return (f.code, f.section, f.card_id)


def new_findings(before: DeckReport, after: DeckReport) -> tuple[list[Finding], list[Finding]]:
    """(findings the edit brought, findings the edit fixed)."""
    old = {_key(f) for f in before.findings}
    now = {_key(f) for f in after.findings}
    added = [f for f in after.findings if _key(f) not in old]
    fixed_seen: set[tuple[Any, ...]] = set()
    fixed = []
    for f in before.findings:
        k = _key(f)
        if k not in now and k not in fixed_seen:
            fixed_seen.add(k)
            fixed.append(f)
    return added, fixed


# --------------------------------------------------------------------------- grouping


@dataclass
class Line:
    """One card of a grouped deck: copies of one passcode (or one unresolved name)."""

    card_id: int | None
    name: str
    count: int
    line: int | None


@dataclass
class Group:
    kind: str  # monster | spell | trap | fusion | … | skill | token | unknown
    lines: list[Line] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(ln.count for ln in self.lines)


def kind_of_card(card: Card | None, section: str, fmt: Format) -> str:
    if card is None:
        return "unknown"
    kind = card.kind
    if section == "extra" and kind == "monster":
        for t in EXTRA_KINDS:
            if card.has_type(t):
                return t
    if kind == "monster" and section != "extra" and goes_to_extra(card, fmt):
        return "extra monster"
    return str(kind)


_GROUP_ORDER = ["monster", "extra monster", "spell", "trap", *EXTRA_KINDS, "skill", "token",
                "other", "unknown", "monster (not extra)"]  # fmt: skip


def grouped(deck: Deck, db: Any, fmt: Format, name: Callable[[int], str]) -> dict[str, list[Group]]:
    """Each section's cards grouped by kind (Extra Deck: by summon type), file order inside."""
    out: dict[str, list[Group]] = {}
    for section in SECTIONS:
        groups: dict[str, Group] = {}
        index: dict[tuple[str, Any], Line] = {}
        for e in deck.section(section):
            card = db.get(e.card_id) if e.card_id is not None else None
            kind = kind_of_card(card, section, fmt)
            if section == "extra" and kind == "monster":
                kind = "monster (not extra)"
            key = (kind, e.card_id if e.card_id is not None else e.query)
            ln = index.get(key)
            if ln is None:
                label = name(e.card_id) if card is not None and e.card_id is not None else (
                    e.query or str(e.card_id))
                ln = index[key] = Line(e.card_id, label, 0, e.line)
                groups.setdefault(kind, Group(kind)).lines.append(ln)
            ln.count += e.count
        out[section] = sorted(groups.values(), key=lambda g: _GROUP_ORDER.index(g.kind)
                              if g.kind in _GROUP_ORDER else 99)  # fmt: skip
    return out


# --------------------------------------------------------------------------- odds


def p_at_least_one(deck_size: int, copies: int, hand: int) -> float:
    """P(at least one of ``copies`` cards in an opening hand of ``hand`` from ``deck_size``):
    1 − C(N−K, n) / C(N, n), exact in integers until the one division."""
    if deck_size <= 0 or copies <= 0:
        return 0.0
    n = min(hand, deck_size)
    return 1 - math.comb(deck_size - copies, n) / math.comb(deck_size, n)


def p_exactly(deck_size: int, copies: int, hand: int) -> list[float]:
    """P(exactly k) for k = 0 … min(K, n): C(K, k) C(N−K, n−k) / C(N, n)."""
    n = min(hand, deck_size)
    total = math.comb(deck_size, n) if deck_size > 0 else 1
    return [math.comb(copies, k) * math.comb(deck_size - copies, n - k) / total
            for k in range(min(copies, n) + 1)]  # fmt: skip


@dataclass
class Odds:
    label: str
    ids: list[int]
    copies: int
    p_any: float
    exactly: list[float]


def main_copies(deck: Deck, db: Any) -> dict[int, int]:
    """Copies per card (artworks together) in the Main Deck, in file order."""
    out: dict[int, int] = {}
    for e in deck.main:
        if e.card_id is not None:
            root = art_root(e.card_id, db)
            out[root] = out.get(root, 0) + e.count
    return out


def composition(deck: Deck, db: Any, fmt: Format) -> dict[str, Any]:
    """Counts by kind and subtype, levels, attributes and types of the Main Deck monsters,
    Extra Deck by summon type."""
    kinds: Counter[str] = Counter()
    subtypes: Counter[str] = Counter()
    levels: Counter[int] = Counter()
    attributes: Counter[str] = Counter()
    races: Counter[str] = Counter()
    atk: list[int] = []
    for e in deck.main:
        card = db.get(e.card_id) if e.card_id is not None else None
        if card is None:
            kinds["unknown"] += e.count
            continue
        kinds[card.kind] += e.count
        for s in card.subtypes:
            subtypes[f"{card.kind}:{s}" if card.kind != "monster" else s] += e.count
        if card.kind == "monster":
            lvl = card.level & 0xFF  # pendulum scales live in the upper bytes
            levels[lvl] += e.count
            attributes[ATTRIBUTES.get(card.attribute, "?")] += e.count
            races[RACES.get(card.race, "?")] += e.count
            if card.atk >= 0:
                atk.extend([card.atk] * e.count)
    extra: Counter[str] = Counter()
    for e in deck.extra:
        card = db.get(e.card_id) if e.card_id is not None else None
        extra[kind_of_card(card, "extra", fmt)] += e.count
    n_mon = sum(levels.values())
    return {
        "counts": deck.counts(),
        "main": dict(kinds.most_common()),
        "subtypes": dict(subtypes.most_common()),
        "levels": {str(k): v for k, v in sorted(levels.items())},
        "average_level": round(sum(k * v for k, v in levels.items()) / n_mon, 2) if n_mon else None,
        "average_atk": round(sum(atk) / len(atk)) if atk else None,
        "attributes": dict(attributes.most_common()),
        "types": dict(races.most_common()),
        "extra": dict(extra.most_common()),
    }


def group_odds(main_size: int, copies: dict[int, int], ids: list[int], hand: int,
               label: str) -> Odds:  # fmt: skip
    """Odds of at least one card of ``ids`` (any of them) in the opening hand."""
    k = sum(copies.get(i, 0) for i in dict.fromkeys(ids))
    return Odds(label, ids, k, p_at_least_one(main_size, k, hand), p_exactly(main_size, k, hand))


def save(df: DeckFile) -> None:
    """Write the edited file all or nothing (temp file + ``os.replace``)."""
    from deckcheck.decks.write import write_atomic

    write_atomic(df.path, df.text, encoding=df.encoding)
