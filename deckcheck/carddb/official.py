"""Official data on top of the EDOPro/YGOPro cards: yaml-yugi and YGOJSON files, told apart
by content, written into the card database being built by ``carddb.importer``.

* yaml-yugi ``cards.json``: Konami id -> passcode (``konami_ids``, kind ``ocg_tcg``), official
  names in every language, and EDOPro prerelease passcode -> official passcode
  (``official_ids``, matched by English name).
* yaml-yugi ``rush.json``: Konami id -> EDOPro Rush passcodes (kind ``rush``, by English name).
* yaml-yugi ``skill.json``: names of Speed Duel skills (by English name).
* YGOJSON folder or zip: first release date and set per passcode and region (``releases``).
* EDOPro ``strings.conf``: archetype names (``!setname``; ``carddb.archetypes``).

Series, printings and card text of the yaml-yugi and YGOJSON files go to the card-knowledge
tables (``carddb.knowledge``).

Whatever does not map is counted and reported through the ``note`` callback, never dropped
in silence.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from deckcheck.carddb import archetypes, games, knowledge, yamlyugi, ygojson
from deckcheck.carddb._common import PRERELEASE_IDS
from deckcheck.errors import InputError
from deckcheck.model import Scope
from deckcheck.records import Record, field, record


def _name_key(text: str) -> str:
    """NFKC + casefold + collapsed spaces: how official English names meet EDOPro's."""
    import unicodedata

    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


#: Import order of the kinds (names need the cards; nothing needs the releases).
KINDS = ("yaml-yugi-cards", "yaml-yugi-rush", "yaml-yugi-skill", "ygojson", "edopro-strings")
_EXAMPLES = 5

_NAME_SUFFIXES = (" (rush)", " (skill)")

Note = Callable[[str], None]


@record(frozen=False, slots=True)
class Plan(Record):
    """One official input file, inspected (and for yaml-yugi parsed) before the build."""

    path: Path
    kind: str  # one of KINDS
    records: list[yamlyugi.OfficialCard] = field(default_factory=list)
    sha256: str = ""
    size: int = 0
    extras: list[knowledge.Extra] = field(default_factory=list)  # series, sets, text per record
    targets: dict[int, list[int]] = field(default_factory=dict)  # record index -> passcodes
    lang: str = "en"  # a strings.conf's language (locales/<lang>/strings.conf)


@record
class Applied(Record):
    """What one official file did to the database."""

    path: str
    kind: str
    rows: int  # records read (yaml-yugi objects, or YGOJSON passcodes with a release)
    mapped: int  # of them, attached to a card of the database
    unmapped: dict[str, int]  # reason -> count


# --------------------------------------------------------------------------- detection


def sniff(path: Path) -> str | None:
    """ "yaml-yugi", "ygojson" or "strings" (an EDOPro strings.conf) when ``path`` holds that
    kind by content, None otherwise
    (a cdb, or something the cdb inspection will refuse). Raises InputError on a JSON or zip
    file that is not one of the known shapes."""
    if path.is_dir():
        if ygojson.is_ygojson(path):
            return "ygojson"
        raise InputError(
            "a folder, but not the YGOJSON individual layout (meta.json, cards/, sets/)",
            where=str(path),
        )
    if not path.is_file():
        return None
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return None
    if archetypes.looks_like_strings(head):
        return "strings"
    if head.startswith(b"PK\x03\x04"):
        if ygojson.is_ygojson(path):
            return "ygojson"
        raise InputError(
            "a zip file, but not the YGOJSON individual layout (meta.json, cards/, sets/)",
            where=str(path),
        )
    body = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if body.startswith(b"["):
        return "yaml-yugi"
    if body.startswith(b"{"):
        raise InputError(
            "a JSON object: expected a yaml-yugi array (cards.json, rush.json, skill.json); "
            "import YGOJSON as its folder or release zip",
            where=str(path),
        )
    return None


def plan(path: Path, sniffed: str) -> Plan:
    """Read and check an official file (yaml-yugi arrays are parsed here, before any write)."""
    p = Plan(path, "ygojson")
    if sniffed == "strings":
        from deckcheck.carddb._common import lang_code

        p.kind = "edopro-strings"
        parts = path.absolute().parts
        if len(parts) > 2 and parts[-3] == "locales":
            p.lang = lang_code(parts[-2]) or "en"
        p.size, p.sha256 = _digest(path)
        archetypes.read_strings(path)  # a file that is not text fails here, before any write
        return p
    if sniffed == "yaml-yugi":
        size, sha = _digest(path)
        hit = _PARSED.get((size, sha))
        if hit is not None:  # `update` checked this very file at download: parsed once
            return Plan(path, hit[0], hit[1], sha, size, hit[2])
        data = yamlyugi.load_json(path)
        kind = yamlyugi.detect_kind(data)
        if kind is None:
            raise InputError(
                "a JSON array, but not yaml-yugi cards/rush/skill objects (each needs 'name' "
                "and 'yugipedia_page_id'; cards have 'password', Rush 'konami_id', skills "
                "'type_line')",
                where=str(path),
            )
        p.kind = f"yaml-yugi-{kind}"
        p.records = yamlyugi.parse(data, kind, str(path))
        p.extras = knowledge.extras_of(data, kind)
        p.size, p.sha256 = size, sha
        while len(_PARSED) >= _PARSED_MAX:
            _PARSED.pop(next(iter(_PARSED)))
        _PARSED[(size, sha)] = (p.kind, p.records, p.extras)
        return p
    p.size, p.sha256 = _digest(path)
    return p


#: The last yaml-yugi files parsed in this process, by (size, sha256) of their bytes: the
#: download check and the import of one `update` read cards.json (41 MB) once, not twice.
#: Records are never changed after parsing.
_PARSED: dict[tuple[int, str], tuple[str, list[yamlyugi.OfficialCard], list[knowledge.Extra]]] = {}
_PARSED_MAX = 3  # cards.json, rush.json, skill.json


def _digest(path: Path) -> tuple[int, str]:
    h = hashlib.sha256()
    if path.is_dir():
        # a folder: hash the relative names and sizes (cheap, changes when a file does)
        n = 0
        for top, dirs, names in os.walk(path):
            dirs.sort()
            rel = os.path.relpath(top, path)
            for name in sorted(names):
                st = os.stat(os.path.join(top, name))
                n += st.st_size
                h.update(f"{rel}/{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        return n, h.hexdigest()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return path.stat().st_size, h.hexdigest()


def order(plans: Iterable[Plan]) -> list[Plan]:
    """Plans in dependency order (stable within a kind)."""
    return sorted(plans, key=lambda p: KINDS.index(p.kind))


# --------------------------------------------------------------------------- writing


def apply(conn: sqlite3.Connection, p: Plan, now: str, note: Note) -> Applied:
    """Write one official file into the open import transaction on ``conn``."""
    kind = p.kind
    if p.kind == "edopro-strings":
        n, skipped = archetypes.apply_strings(conn, p.path, p.lang, note)
        got = Applied(str(p.path), p.kind, n, n, {"skipped_lines": skipped})
        kind = p.kind if p.lang == "en" else f"{p.kind}:{p.lang}"
    elif p.kind == "ygojson":
        got = _apply_ygojson(conn, p, note)
    elif p.kind == "yaml-yugi-cards":
        got = _apply_cards(conn, p, note)
    else:
        got = _apply_by_name(conn, p, note)
    if p.kind.startswith("yaml-yugi-"):
        knowledge.apply_yamlyugi(conn, p.kind, p.extras, p.targets, str(p.path), note)
    conn.execute(
        "INSERT OR REPLACE INTO official_sources (kind, path, sha256, size, imported_at, rows, "
        "mapped, unmapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            kind,
            str(p.path.absolute()),
            p.sha256,
            p.size,
            now,
            got.rows,
            got.mapped,
            sum(got.unmapped.values()),
        ),
    )
    return got


def _report(note: Note, path: Path, what: str, items: list[str]) -> None:
    if items:
        eg = "; ".join(items[:_EXAMPLES]) + ("; …" if len(items) > _EXAMPLES else "")
        note(f"{path}: {len(items)} {what} (e.g. {eg})")


class _Names:
    """Name rows to add, keeping each card's English name(s) as the cdb gave them.

    The cdb's English name is the display name and the key of English lookups; a second,
    official English name would change the display name of hundreds of cards and make names
    such as "Blue-Eyes White Dragon" ambiguous between a card and its Rush printings. So an
    official English name is added only to a row without one, and a different one is counted.
    """

    def __init__(self, conn: sqlite3.Connection):
        self.en: dict[int, set[str]] = {}
        for cid, name in conn.execute(
            "SELECT card_id, name FROM names WHERE lang = 'en' AND kind = 'name'"
        ):
            self.en.setdefault(int(cid), set()).add(_name_key(name))
        self.rows: list[tuple[Any, ...]] = []
        self.en_differs: list[str] = []

    def add(self, ids: Iterable[int], rec: yamlyugi.OfficialCard) -> None:
        for cid in ids:
            have = self.en.get(cid)
            for lang, name, kind in rec.names:
                norm = _name_key(name)
                if lang == "en" and kind == "name" and have:
                    if norm not in have and not any(h.startswith(norm + " (") for h in have):
                        self.en_differs.append(f"{cid} {name!r}")
                    continue
                self.rows.append((cid, lang, name, kind))

    def write(self, conn: sqlite3.Connection, note: Note, path: Path) -> None:
        conn.executemany(
            "INSERT OR IGNORE INTO names (card_id, lang, name, kind) VALUES (?, ?, ?, ?)",
            self.rows,
        )
        _report(
            note,
            path,
            "official English name(s) differ from the card database's, "
            "which stays the English name",
            self.en_differs,
        )


def _en_index(conn: sqlite3.Connection, where: str, args: tuple[Any, ...]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for cid, name in conn.execute(
        "SELECT n.card_id, n.name FROM names n JOIN cards c ON c.id = n.card_id "
        f"WHERE n.lang = 'en' AND n.kind = 'name' AND {where} ORDER BY n.card_id",
        args,
    ):
        norm = _name_key(name)
        out.setdefault(norm, []).append(int(cid))
        # EDOPro names a Rush card or a skill that shares an OCG/TCG card's name
        # "Blue-Eyes White Dragon (Rush)" / "Call of the Haunted (Skill)"; yaml-yugi does not.
        for suffix in _NAME_SUFFIXES:
            if norm.endswith(suffix):
                out.setdefault(norm[: -len(suffix)].rstrip(), []).append(int(cid))
    return out


def _apply_cards(conn: sqlite3.Connection, p: Plan, note: Note) -> Applied:
    ids = {int(r[0]) for r in conn.execute("SELECT id FROM cards")}
    prerelease = _en_index(
        conn, "c.scopes & ? AND c.id BETWEEN ? AND ?", (Scope.PRERELEASE, *PRERELEASE_IDS)
    )
    konami: list[tuple[int, int, str, str]] = []
    official_ids: list[tuple[int, int]] = []
    names = _Names(conn)
    no_passcode: list[str] = []
    not_in_db: list[str] = []
    no_identity: list[str] = []
    mapped = 0
    for r in p.records:
        code = r.password if r.password is not None else r.fake_password
        if r.konami_id is not None:
            if code is not None:
                how = "password" if r.password is not None else "fake_password"
                konami.append((r.konami_id, code, "ocg_tcg", how))
            else:
                no_passcode.append(r.label())
        en = r.name_en
        pre = [i for i in prerelease.get(_name_key(en), []) if i != code] if en else []
        if r.password is not None:
            official_ids.extend((i, r.password) for i in pre)
        targets = [code] if code is not None and code in ids else pre
        if targets:
            p.targets[r.index] = targets
            mapped += 1
            names.add(targets, r)
        elif code is not None:
            not_in_db.append(f"{code} {r.label()}")
        else:
            no_identity.append(r.label())
    conn.execute("DELETE FROM konami_ids WHERE kind = 'ocg_tcg'")
    conn.executemany("INSERT OR IGNORE INTO konami_ids VALUES (?, ?, ?, ?)", konami)
    conn.execute("DELETE FROM official_ids")
    conn.executemany("INSERT OR REPLACE INTO official_ids VALUES (?, ?)", official_ids)
    games.write_yamlyugi(conn, _md_rarities(p.records))
    names.write(conn, note, p.path)
    _report(note, p.path, "Konami id(s) without a passcode, not mapped", no_passcode)
    _report(
        note,
        p.path,
        "passcode(s) not in the card database and with no EDOPro "
        "prerelease row of that English name: names not attached",
        not_in_db,
    )
    _report(
        note,
        p.path,
        "card(s) with neither passcode nor Konami id and no EDOPro "
        "prerelease row of that English name: names not attached",
        no_identity,
    )
    return Applied(
        str(p.path),
        p.kind,
        len(p.records),
        mapped,
        {
            "konami_id_without_passcode": len(no_passcode),
            "passcode_not_in_db": len(not_in_db),
            "no_identity": len(no_identity),
        },
    )


def _md_rarities(records: Iterable[yamlyugi.OfficialCard]) -> Iterator[tuple[int, str | None]]:
    """(passcode, Master Duel rarity) of each yaml-yugi card with a passcode."""
    for r in records:
        code = r.password if r.password is not None else r.fake_password
        if code is not None:
            yield code, r.md_rarity


def _apply_by_name(conn: sqlite3.Connection, p: Plan, note: Note) -> Applied:
    """Rush cards and skills carry no passcode: EDOPro rows of the same English name."""
    if p.kind == "yaml-yugi-rush":
        index = _en_index(conn, "c.scopes & ?", (Scope.RUSH,))
        what = "EDOPro Rush row"
    else:
        index = _en_index(conn, "c.kind = 'skill'", ())
        what = "EDOPro skill row"
    konami: list[tuple[int, int, str, str]] = []
    names = _Names(conn)
    unmatched: list[str] = []
    mapped = 0
    for r in p.records:
        en = r.name_en
        targets = index.get(_name_key(en), []) if en else []
        if not targets:
            unmatched.append(r.label())
            continue
        mapped += 1
        p.targets[r.index] = targets
        names.add(targets, r)
        if r.konami_id is not None:
            konami.extend((r.konami_id, t, "rush", "name") for t in targets)
    if p.kind == "yaml-yugi-rush":
        conn.execute("DELETE FROM konami_ids WHERE kind = 'rush'")
        conn.executemany("INSERT OR IGNORE INTO konami_ids VALUES (?, ?, ?, ?)", konami)
    names.write(conn, note, p.path)
    _report(
        note, p.path, f"card(s) without an {what} of the same English name, not mapped", unmatched
    )
    return Applied(str(p.path), p.kind, len(p.records), mapped, {"no_name_match": len(unmatched)})


def _apply_ygojson(conn: sqlite3.Connection, p: Plan, note: Note) -> Applied:
    facts = knowledge.YgojsonFacts(conn)
    rel = ygojson.read(p.path, visit=facts)
    facts.write(conn, str(p.path), note)
    ids = {int(r[0]) for r in conn.execute("SELECT id FROM cards")}
    official = {int(o) for (o,) in conn.execute("SELECT official_id FROM official_ids")}
    conn.execute("DELETE FROM releases")
    conn.executemany(
        "INSERT INTO releases (card_id, region, first_date, set_name) VALUES (?, ?, ?, ?)",
        [
            (code, region, date, set_name)
            for code, regions in rel.first.items()
            for region, (date, set_name) in regions.items()
        ],
    )
    games.write_ygojson(conn, rel.games, rel.first)
    # A passcode EDOPro knows only under a prerelease id still has its dates (through
    # official_ids); the rest cannot be attached to any card of this database.
    missing = sorted(c for c in rel.passcodes if c not in ids and c not in official)
    _report(
        note,
        p.path,
        "YGOJSON passcode(s) not in the card database (their release dates "
        "are kept but match no card)",
        [str(c) for c in missing],
    )
    undated = sorted(c for c in rel.passcodes if c in ids and c not in rel.first)
    _report(
        note,
        p.path,
        "passcode(s) of the card database without any dated release in YGOJSON",
        [str(c) for c in undated],
    )
    if rel.unknown_cards:
        note(
            f"{p.path}: {rel.unknown_cards} printing(s) name a card UUID without a card file "
            "(skipped)"
        )
    return Applied(
        str(p.path),
        p.kind,
        len(rel.first),
        sum(1 for c in rel.first if c in ids),
        {
            "passcode_not_in_db": len(missing),
            "undated": len(undated),
            "unknown_card_uuid": rel.unknown_cards,
        },
    )


def fingerprint_parts(conn: sqlite3.Connection) -> list[str]:
    """Parts for the database fingerprint: every official file imported."""
    try:
        return [
            f"official:{k}:{sha}"
            for k, sha in conn.execute("SELECT kind, sha256 FROM official_sources ORDER BY kind")
        ]
    except sqlite3.OperationalError:
        return []
