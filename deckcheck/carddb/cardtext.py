"""Card text (effects) for the ``o:`` search term and ``card show`` (issue 30): read from a
cdb's ``texts.desc`` (cards.cdb in English, ``locales/<lang>/cards.cdb`` in its language),
yaml-yugi's ``text``/``pendulum_effect`` (Rush: ``requirement``/``effect``…, skills:
``activation``/``effect``) and YGOJSON's ``text.<lang>.effect``/``pendulumEffect``.

Indexed at import: ``rebuild_index`` writes every card's texts (all languages, as lookup
shows the card: artworks and prerelease passcodes folded in) into SQLite's full-text index
FTS5 (``text_index``, rowid = the card), folded as ``normalize`` folds (NFKC, case folded)
and with runs of Chinese and Japanese characters written as overlapping two-character
tokens, so a query is a phrase lookup in the index and never scans or folds a text
(``match``; docs/SEARCH.md). A plain substring scan over every text in every language was
about 20x a name query (benchmarks/bench_search_text.py).
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from deckcheck.records import Record, field, record

#: Longest text kept (the longest real card text is under 2,000 characters).
MAX_CHARS = 20_000
_EXAMPLES = 5

Note = Callable[[str], None]

#: Characters written without spaces between words (kana, CJK ideographs, the iteration
#: marks and the long-vowel mark; not the middle dot ・, a separator).
_CJK = (
    "\u3005\u3007\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
)
_CJK_RUN = f"[{_CJK}]+"
#: What FTS5's unicode61 tokenizer makes a token of (letters, digits), and what this
#: module splits a query into: words, and CJK runs kept whole.
_TOKEN = rf"[{_CJK}]+|[^\W_{_CJK}]+"

TABLE = "text_index"
_CREATE = (
    f"CREATE VIRTUAL TABLE {TABLE} USING fts5(body, content='', "
    "tokenize='unicode61 remove_diacritics 0')"
)


def normalize(text: str) -> str:
    """The search form of a text: NFKC (full-width letters and digits become ASCII,
    half-width kana full-width), case folded, runs of whitespace one space."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _pairs(run: str) -> list[str]:
    """A CJK run as index tokens: its overlapping character pairs, then its last character
    (so every character starts a token: a one-character query is a prefix lookup)."""
    return [run[i : i + 2] for i in range(len(run) - 1)] + [run[-1]]


def index_form(norm: str) -> str:
    """What the index is given for a normalized text: its words (letters and digits; what
    is neither is left out, so FTS5 and ``match`` split alike) and each CJK run as its
    pair tokens."""
    out: list[str] = []
    for tok in re.findall(_TOKEN, norm):
        if _is_cjk(tok):
            out += _pairs(tok)
        else:
            out.append(tok)
    return " ".join(out)


def _is_cjk(tok: str) -> bool:
    return re.fullmatch(_CJK_RUN, tok) is not None


def match(phrase: str) -> str | None:
    """The FTS5 expression of an ``o:`` phrase, or None when it has no letter or digit.

    The words in order (punctuation between them ignored), the last one a prefix
    (``o:"destroy that targ"``); a CJK run matches wherever it occurs in a run of the text
    (its character pairs in a row; a run of one character: any token starting with it)."""
    toks = re.findall(_TOKEN, normalize(phrase))
    if not toks:
        return None
    parts: list[str] = []
    for i, tok in enumerate(toks):
        last = i == len(toks) - 1
        if _is_cjk(tok):
            pairs = _pairs(tok)
            if len(tok) == 1:
                parts.append(f'"{tok}"' + (" *" if last else ""))
                continue
            # a run the query continues after ends where the text's run ends: its last
            # character is the token that follows; the query's last run may go on in the text
            parts += [f'"{p}"' for p in (pairs[:-1] if last else pairs)]
        else:
            parts.append(f'"{tok}"' + (" *" if last else ""))
    return " + ".join(parts)


def clean(value: Any) -> str | None:
    """A text value as stored, or None when it is not usable text."""
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not isinstance(value, str):
        return None
    value = value.strip()
    return value or None


def store(
    conn: sqlite3.Connection, rows: Iterable[tuple[int, str, str, str]], *, replace: bool = True
) -> int:
    """Write (card, lang, source, text) rows; the count written."""
    verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
    data = list(rows)
    conn.executemany(
        f"{verb} INTO card_text (card_id, lang, source, text) VALUES (?, ?, ?, ?)", data
    )
    return len(data)


@record(frozen=False, slots=True)
class CdbTexts(Record):
    """The ``texts.desc`` values of one cdb (EDOPro writes effect text there), collected in
    the pass that reads its names and written as source ``cdb``. The staged reference data
    has them empty (none added); a value that is not text, or too long, is skipped and
    counted in one note."""

    path: Path
    lang: str
    rows: list[tuple[int, str, str, str]] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)

    def add(self, card: int, desc: Any) -> None:
        if desc == "":
            return
        text = clean(desc)
        if text is None or len(text) > MAX_CHARS:
            if text is not None or not isinstance(desc, str):  # (only spaces: no text)
                self.bad.append(f"card {card}")
            return
        self.rows.append((card, self.lang, "cdb", text))

    def write(self, conn: sqlite3.Connection) -> str | None:
        """Store the texts; the note to say about skipped values, if any."""
        store(conn, self.rows)
        if not self.bad:
            return None
        eg = "; ".join(self.bad[:_EXAMPLES]) + ("; …" if len(self.bad) > _EXAMPLES else "")
        return (
            f"{self.path}: {len(self.bad)} texts.desc value(s) not usable text, skipped (e.g. {eg})"
        )


def texts_of(conn: sqlite3.Connection) -> set[tuple[int, str]]:
    """(card, lang) pairs that have a text already."""
    return {(int(c), str(lg)) for c, lg in conn.execute("SELECT card_id, lang FROM card_text")}


def rebuild_index(conn: sqlite3.Connection, note: Note) -> int:
    """The full-text index of every card's texts, by name key (the end of every import,
    after the keys are stored); the number of cards indexed. Without FTS5 in this SQLite
    the texts stay stored and the index is left out, said once (``o:`` then says so)."""
    conn.execute(f"DROP TABLE IF EXISTS {TABLE}")
    rows = conn.execute(
        "SELECT c.name_key, t.text FROM card_text t JOIN cards c ON c.id = t.card_id "
        "ORDER BY c.name_key"
    ).fetchall()
    if not rows:
        return 0
    try:
        conn.execute(_CREATE)
    except sqlite3.OperationalError as exc:  # an SQLite built without FTS5
        note(f"card text stored but not indexed: this SQLite has no full-text search ({exc})")
        return 0
    docs: dict[int, dict[str, None]] = {}
    for key, text in rows:
        docs.setdefault(int(key), {})[normalize(text)] = None
    conn.executemany(
        f"INSERT INTO {TABLE} (rowid, body) VALUES (?, ?)",
        ((key, "\n".join(index_form(t) for t in texts)) for key, texts in docs.items()),
    )
    return len(docs)
