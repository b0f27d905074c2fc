"""Line-level editors of deck files, one class per file kind (.ydk, ydke:// link, text list)
behind one interface: ``add`` copies to a section, ``remove`` the last copies of a card.

Edits work on the file's lines, not on a re-written deck: a ``.ydk`` keeps its comments and
line layout (new copies go after the card's last copy in the section, or at the end of the
section; removals take the last copies), a text list keeps its wording (counts are changed in
place, new cards are "N Name" lines in the list's own language), a ydke:// file stays a link.
Every edit is checked by reading the new text back: it must hold exactly the cards asked for,
or ``EditError`` is raised and the caller writes nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from deckcheck.deckedit.cards import SECTION_LABEL, EditError, tally
from deckcheck.deckedit.files import DeckFile, parse_text
from deckcheck.decks import text as text_grammar
from deckcheck.model import SECTIONS, DeckEntry, Record, Section, record


@record(frozen=False)
class Editor(Record):
    """Edits one deck file in place; each step re-reads the text it produced.

    Subclasses say how their kind of file gains and loses lines (``_add``, ``_drop``); the
    bookkeeping (which copies go, the read-back check) is shared here."""

    kind: ClassVar[str]
    df: DeckFile
    db: Any
    index: Any
    lang: str = "en"

    # ---- the interface

    def add(self, section: Section, card_id: int, n: int) -> None:
        """Add ``n`` copies of ``card_id`` to ``section`` (EditError: nothing changed)."""
        before = tally(self.df.deck)
        self._add(section, card_id, n)
        self._check(before, {(section, card_id): n})

    def remove(self, section: Section, match: Callable[[int], bool], n: int) -> list[int]:
        """Take ``n`` copies (the last ones) of the matching card out of ``section``;
        returns the passcodes taken, in file order."""
        before = tally(self.df.deck)
        entries = [
            e for e in self.df.deck.section(section) if e.card_id is not None and match(e.card_id)
        ]
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
        self._drop(taken)
        self._check(before, dict(delta))
        out: list[int] = []
        for e, k in reversed(taken):
            assert e.card_id is not None
            out.extend([e.card_id] * k)
        return out

    # ---- what each kind does

    def _add(self, section: Section, card_id: int, n: int) -> None:
        raise NotImplementedError

    def _drop(self, taken: list[tuple[DeckEntry, int]]) -> None:
        """Take ``k`` copies of each ``(entry, k)`` out of the file."""
        raise NotImplementedError

    # ---- shared

    def _reparse(self, lines: list[str]) -> None:
        df = self.df
        df.lines = lines
        df.deck = parse_text(df.path, df.text.lstrip("\ufeff"), df.kind, self.index, self.db)

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

    def _last_line_of(self, section: Section, card_id: int) -> DeckEntry | None:
        got = [e for e in self.df.deck.section(section) if e.card_id == card_id and e.line]
        return max(got, key=lambda e: e.line or 0) if got else None


class YdkeEditor(Editor):
    """A ydke:// link: the deck is edited and encoded again (a link has no layout to keep)."""

    kind = "ydke"

    def _add(self, section: Section, card_id: int, n: int) -> None:
        entries = self.df.deck.section(section)
        pos = max((i + 1 for i, e in enumerate(entries) if e.card_id == card_id), default=None)
        pos = len(entries) if pos is None else pos
        entries[pos:pos] = [DeckEntry(section, card_id, None, 1, None, str(card_id))] * n
        self._encode()

    def _drop(self, taken: list[tuple[DeckEntry, int]]) -> None:
        drop = {id(e) for e, _ in taken}
        for name in SECTIONS:
            sec = self.df.deck.section(name)
            sec[:] = [e for e in sec if id(e) not in drop]
        self._encode()

    def _encode(self) -> None:
        from deckcheck.decks import ydke

        self._reparse([ydke.encode(self.df.deck)])


class LineEditor(Editor):
    """A file of lines under section headers (.ydk, text list)."""

    def _section_of(self, stripped: str) -> Section | None:
        """The section a (non-blank, stripped) header line switches to, else None."""
        raise NotImplementedError

    def _header_lines(self, section: Section, at: int) -> list[str]:
        """The lines that open a missing ``section`` when inserted at line index ``at``."""
        raise NotImplementedError

    def _span(self, start: int, end: int, card_id: int, section: Section) -> tuple[int, int]:
        """The lines of a section a new card line goes at the end of (default: all)."""
        return start, end

    def _recount(self, entry: DeckEntry, count: int) -> str | None:
        """The entry's line with its count changed in place, or None when that misreads."""
        return None

    def _regions(self) -> dict[str, tuple[int, int]]:
        """Section -> (first line index after its header, index of the next header)."""
        heads: list[tuple[int, str]] = []
        for i, raw in enumerate(self.df.lines):
            s = raw.strip()
            if not s:
                continue
            sec = self._section_of(s)
            if sec is not None:
                heads.append((i, sec))
        out: dict[str, tuple[int, int]] = {}
        starts = [(-1, "main"), *heads]
        for k, (i, name) in enumerate(starts):
            end = starts[k + 1][0] if k + 1 < len(starts) else len(self.df.lines)
            if k == 0 and heads and heads[0][1] == "main" and end == heads[0][0]:
                # Lines before "#main" are header comments, not the Main Deck.
                continue
            out[name] = (i + 1, end)
        return out

    def _insert_at(self, section: Section, card_id: int | None = None) -> int:
        """Where a new line of ``section`` goes (adding the section header when missing)."""
        regions = self._regions()
        if section not in regions:
            later = [
                regions[s][0] - 1 for s in SECTIONS[SECTIONS.index(section) + 1 :] if s in regions
            ]
            at = min(later) if later else len(self.df.lines)
            head = self._header_lines(section, at)
            self.df.lines[at:at] = head
            return at + len(head)
        start, end = regions[section]
        if card_id is not None:
            start, end = self._span(start, end, card_id, section)
        last = start
        for i in range(start, end):
            if self.df.lines[i].strip():
                last = i + 1
        return last

    def _drop(self, taken: list[tuple[DeckEntry, int]]) -> None:
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
                raise EditError(
                    f"line {e.line} cannot be rewritten with a new count", where=str(self.df.path)
                )
            lines[i] = changed
        self._also_drop(drop)
        self._reparse([ln for i, ln in enumerate(lines) if i not in drop])

    def _also_drop(self, drop: set[int]) -> None:
        """Add to ``drop`` the line indexes that go with the dropped card lines."""


class YdkEditor(LineEditor):
    """A .ydk file: one passcode a line under #main/#extra/!side, "# Name" comments kept."""

    kind = "ydk"

    def _section_of(self, stripped: str) -> Section | None:
        from deckcheck.decks import ydk

        return ydk.marker(stripped) if stripped[0] in "#!" else None

    def _header_lines(self, section: Section, at: int) -> list[str]:
        return ["!side" if section == "side" else f"#{section}"]

    def _add(self, section: Section, card_id: int, n: int) -> None:
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

    def _also_drop(self, drop: set[int]) -> None:
        # A "# Name" comment whose card no longer follows it goes too.
        lines = self.df.lines
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

    def _name_comment(self, line: str, card_id: int) -> bool:
        s = line.strip()
        if not s.startswith("#"):
            return False
        name = s[1:].strip()
        return any(name in names for names in self.db.names(card_id).values())

    def _uses_name_comments(self) -> bool:
        """True when the file names its cards in "# Name" lines (``build``, ``convert --names``)."""
        lines = self.df.lines
        for e in self.df.deck.entries()[:8]:
            if (
                e.line
                and e.line >= 2
                and e.card_id is not None
                and self._name_comment(lines[e.line - 2], e.card_id)
            ):
                return True
        return False

    def _card_on(self, i: int) -> int | None:
        for e in self.df.deck.entries():
            if e.line == i + 1:
                return e.card_id
        return None


class TextEditor(LineEditor):
    """A text list: "N Name" lines under Main/Extra/Side headers, counts changed in place,
    sub-headers ("Monsters", "魔法", "Xyz") and header counts ("Main Deck (40)") kept true."""

    kind = "text"

    def _section_of(self, stripped: str) -> Section | None:
        is_head, sec = text_grammar.header(stripped)
        return sec if is_head else None

    def _header_lines(self, section: Section, at: int) -> list[str]:
        from deckcheck.decks.write import TEXT_HEADERS

        pad = [""] if at > 0 and self.df.lines[at - 1].strip() else []
        return [*pad, TEXT_HEADERS[section]]

    def _add(self, section: Section, card_id: int, n: int) -> None:
        old = self.df.deck.counts()
        self._add_line(section, card_id, n)
        self._fix_header_counts(old)

    def _drop(self, taken: list[tuple[DeckEntry, int]]) -> None:
        old = self.df.deck.counts()
        super()._drop(taken)
        self._fix_header_counts(old)

    def _add_line(self, section: Section, card_id: int, n: int) -> None:
        lines = self.df.lines
        last = self._last_line_of(section, card_id)
        if last is not None and last.line:
            changed = self._recount(last, last.count + n)
            if changed is not None:
                lines[last.line - 1] = changed
                self._reparse(lines)
                return
        at = self._insert_at(section, card_id)
        lines[at:at] = [self.text_line(card_id, n, self._list_lang())]
        self._reparse(lines)

    def _span(self, start: int, end: int, card_id: int, section: Section) -> tuple[int, int]:
        """In a list with sub-headers, a card goes at the end of its own kind's sub-group."""
        card = self.db.get(card_id)
        if card is None:
            return start, end
        kind = card.kind
        for t in ("fusion", "synchro", "xyz", "link"):
            if section == "extra" and card.has_type(t):
                kind = t
        subs: list[tuple[int, set[str]]] = []
        for i in range(start, end):
            kinds = text_grammar.sub_header_kinds(self.df.lines[i].strip())
            if kinds is not None:
                subs.append((i, kinds))
        for k, (i, kinds) in enumerate(subs):
            if kind in kinds:
                nxt = subs[k + 1][0] if k + 1 < len(subs) else end
                return i + 1, nxt
        return start, end

    def _fix_header_counts(self, old: dict[str, int]) -> None:
        """ "Main Deck (40)": a section header's count follows the edit when it was right."""
        new = self.df.deck.counts()
        lines = self.df.lines
        changed = False
        for i, raw in enumerate(lines):
            s = raw.strip()
            if not s or s[0].isdigit():
                continue
            is_head, sec = text_grammar.header(s)
            if not is_head or sec is None or old[sec] == new[sec]:
                continue
            nums = list(re.finditer(r"\d+", raw))
            if nums and int(nums[-1].group()) == old[sec]:
                a, b = nums[-1].span()
                lines[i] = raw[:a] + str(new[sec]) + raw[b:]
                changed = True
        if changed:
            self._reparse(lines)

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
        from deckcheck.decks.resolve import resolve_entry

        d = text_grammar.parse_lines([line], "")
        es = d.entries()
        if d.findings or len(es) != 1:
            return False
        got, _, finding = resolve_entry(es[0], self.index)
        return finding is None and got.card_id == card_id and got.count == count

    def text_line(self, card_id: int, count: int, lang: str) -> str:
        """A "N Name" line that reads back as exactly this card (else the passcode is pinned)."""
        name = " ".join(self.db.name(card_id, lang).split())
        line = text_grammar.format_line(count, name)
        if name and self._reads_as(line, card_id, count):
            return line
        return text_grammar.format_line(count, name, card_id)

    def _recount(self, entry: DeckEntry, count: int) -> str | None:
        raw = entry.raw
        s = raw.strip()
        lead = raw[: len(raw) - len(raw.lstrip())]
        folded = text_grammar.fold(s)
        body = text_grammar.strip_bullet(folded)
        off = len(folded) - len(body)
        body, _ = text_grammar.split_pin(body)
        got = text_grammar.find_count(body)
        if got is not None:
            a, b = got[2]
            candidate = s[: off + a] + str(count) + s[off + b :]
        else:
            candidate = s[:off] + f"{count} " + s[off:]
        line = lead + candidate.rstrip() + raw[len(raw.rstrip()) :]
        assert entry.card_id is not None
        return line if self._reads_as(line.strip(), entry.card_id, count) else None


EDITORS: dict[str, type[Editor]] = {cls.kind: cls for cls in (YdkEditor, YdkeEditor, TextEditor)}


def editor_for(df: DeckFile, db: Any, index: Any, lang: str = "en") -> Editor:
    """The editor of ``df``'s file kind."""
    return EDITORS[df.kind](df, db, index, lang)
