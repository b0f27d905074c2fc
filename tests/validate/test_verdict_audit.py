"""deckcheck's verdicts on real data against an independent EDOPro-style reference checker.

The reference reads ``cards.cdb`` with sqlite3 and ``lflist.conf`` with its own tiny parser,
and implements the deck check of EDOPro (edo9300/edopro ``gframe/deck_manager.cpp``, as
described in ../shared/data/README.md §3.1): sizes, extra-deck placement, copies counted per
``alias or id`` (max 3), the list looked up by the passcode and then by its alias (a whitelist
refuses what neither names), ``ot`` scope checks for OCG/TCG, one Skill, the Legend rule.
It shares no code with deckcheck. Where deckcheck differs on purpose, the difference is
documented in docs/RULES.md ("Where deckcheck and EDOPro differ") and named in ``EXCEPTIONS``.
"""

from __future__ import annotations

import base64
import json
import re
import sqlite3
import struct
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from deckcheck.cli import main

pytestmark = pytest.mark.realdata

EVENT_DATE = "2026-08-01"  # after every list below, so no release date decides a verdict

# format -> (ProjectIgnis list file under banlists/projectignis-lflists, list name)
LISTS = {
    "tcg": ("TCG/2026.05 TCG.lflist.conf", "2026.05 TCG"),
    "ocg": ("OCG/2026.07 OCG.lflist.conf", "2026.07 OCG"),
    "goat": ("GOAT/2005.4 GOAT.lflist.conf", "2005.4 GOAT"),
    "speed": ("Speed/2025.07 Speed Duel.lflist.conf", "2025.07 Speed Duel"),
    "rush": ("Rush/2026.07.01 Rush Duel.lflist.conf", "2026.07.01 Rush Duel"),
    "genesys": ("Genesys/2026.06.08 Genesys.lflist.conf", "2026.06.08 Genesys"),
}

# EDOPro constants (ProjectIgnis/CardScripts constant.lua, edopro data_manager.h).
TYPE_MONSTER, TYPE_SPELL, TYPE_TRAP = 0x1, 0x2, 0x4
TYPE_FUSION, TYPE_RITUAL, TYPE_SYNCHRO, TYPE_XYZ, TYPE_LINK = (
    0x40,
    0x80,
    0x2000,
    0x800000,
    0x4000000,
)
TYPE_TOKEN, TYPE_SKILL = 0x4000, 0x8000000
OT_OCG, OT_TCG, OT_LEGEND = 0x1, 0x2, 0x400


# --------------------------------------------------------------------------- reference


@dataclass(frozen=True)
class Row:
    ot: int
    alias: int
    type: int


@dataclass
class RefList:
    whitelist: bool = False
    limits: dict[int, int] = field(default_factory=dict)


def read_cdb(path: Path) -> dict[int, Row]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {
            i: Row(ot, alias, t)
            for i, ot, alias, t in con.execute("SELECT id, ot, alias, type FROM datas")
        }
    finally:
        con.close()


def read_lflist(path: Path) -> RefList:
    """One-list lflist.conf: ``$whitelist``, ``<passcode> <count>`` lines, comments skipped."""
    out = RefList()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("$whitelist"):
            out.whitelist = True
        m = re.match(r"(\d+) (-?\d+)", line)
        if m and int(m[1]):
            out.limits[int(m[1])] = max(0, int(m[2]))
    return out


def read_ydk(path: Path) -> dict[str, list[int]]:
    """EDOPro's reading: #extra / !side switch sections, a line starting with digits is a card."""
    decks: dict[str, list[int]] = {"main": [], "extra": [], "side": []}
    sec = "main"
    for raw in path.read_text(encoding="utf-8-sig", errors="replace").splitlines():
        s = raw.strip()
        if s.startswith("!"):
            sec = "side"
        elif s.lower().startswith("#extra"):
            sec = "extra"
        elif s.lower().startswith("#main"):
            sec = "main"
        elif m := re.match(r"\d+", s):
            decks[sec].append(int(m[0]))
    return decks


def extra_types(fmt: str) -> int:
    if fmt == "rush":  # Ritual joined Fusion in the Rush Extra Deck on 2025-04-26
        return TYPE_FUSION | TYPE_RITUAL
    return TYPE_FUSION | TYPE_SYNCHRO | TYPE_XYZ | TYPE_LINK


SIZES = {
    "speed": {"main": (20, 30), "extra": (0, 6), "side": (0, 6)},
}
DEFAULT_SIZES = {"main": (40, 60), "extra": (0, 15), "side": (0, 15)}


def reference(
    deck: dict[str, list[int]], fmt: str, cards: dict[int, Row], lst: RefList
) -> dict[str, set[object]]:
    """Offending cards (or sections) per rule family; an empty result means legal."""
    bad: dict[str, set[object]] = {}

    def flag(family: str, what: object) -> None:
        bad.setdefault(family, set()).add(what)

    edt = extra_types(fmt)
    counts: Counter[int] = Counter()
    skills = 0
    legends: Counter[int] = Counter()
    sizes = dict.fromkeys(deck, 0)
    for sec, ids in deck.items():
        for cid in ids:
            row = cards.get(cid)
            if row is None:
                flag("unknown", cid)
                sizes[sec] += 1
                continue
            if row.type & TYPE_TOKEN:
                flag("token", cid)
                sizes[sec] += 1
                continue
            if row.type & TYPE_SKILL:
                skills += 1
                if fmt != "speed":
                    flag("skill", cid)
                continue
            sizes[sec] += 1
            is_extra = bool(row.type & TYPE_MONSTER and row.type & edt)
            if sec == "main" and is_extra:
                flag("placement", cid)
            if sec == "extra" and not is_extra:
                flag("placement", cid)
            counts[row.alias or cid] += 1
            if row.ot & OT_LEGEND:
                legends[row.type & (TYPE_MONSTER | TYPE_SPELL | TYPE_TRAP)] += 1
    # Scope (EDOPro "OCG only"/"TCG only" duel modes: ot > 3 is unofficial).
    for ids in deck.values():
        for cid in ids:
            row = cards.get(cid)
            if row is None or row.type & (TYPE_TOKEN | TYPE_SKILL):
                continue
            if fmt in ("tcg", "ocg"):
                need = OT_TCG if fmt == "tcg" else OT_OCG
                if row.ot > 3 or not row.ot & need:
                    flag("pool", cid)
    # The list: the passcode first, then its alias; copies per alias-or-id.
    seen: Counter[int] = Counter()
    for ids in deck.values():
        for cid in ids:
            row = cards.get(cid)
            if row is None or row.type & TYPE_TOKEN:
                continue
            code = row.alias or cid
            seen[code] += 1
            limit = lst.limits.get(cid)
            if limit is None and row.alias:
                limit = lst.limits.get(row.alias)
            if limit is None:
                if lst.whitelist:
                    flag("pool", cid)
                continue
            if seen[code] > limit and limit < 3:  # over 3 is the copies rule (EDOPro: CARDCOUNT)
                flag("limits", code)
    for code, n in counts.items():
        if n > 3:
            flag("copies", code)
    if skills > 1:
        flag("skill", "count")
    if fmt == "rush" and any(n > 1 for n in legends.values()):
        flag("legend", "legend")
    size_rules = SIZES.get(fmt, DEFAULT_SIZES)
    for sec, (lo, hi) in size_rules.items():
        if not lo <= sizes[sec] <= hi:
            flag("sizes", sec)
    return bad


# --------------------------------------------------------------------------- deckcheck side

FAMILY = {
    "DC101": "read",
    "DC102": "unknown",
    "DC103": "unknown",
    "DC104": "token",
    "DC201": "sizes",
    "DC202": "sizes",
    "DC203": "sizes",
    "DC301": "placement",
    "DC302": "placement",
    "DC303": "skill",
    "DC401": "copies",
    "DC402": "limits",
    "DC403": "limits",
    "DC404": "limits",
    "DC405": "pool",
    "DC406": "groups",
    "DC407": "points",
    "DC408": "legend",
    "DC409": "types",
    "DC501": "pool",
    "DC502": "date",
    "DC503": "pool",
    "DC504": "pool",
}
SECTION_FAMILY = {"DC201": "main", "DC202": "extra", "DC203": "side"}


def deckcheck_families(deck_report: dict[str, object]) -> dict[str, set[object]]:
    bad: dict[str, set[object]] = {}
    findings = deck_report["findings"]
    assert isinstance(findings, list)
    for f in findings:
        if f["severity"] != "error":
            continue
        fam = FAMILY[f["code"]]
        if f["code"] in SECTION_FAMILY:
            what: object = SECTION_FAMILY[f["code"]]
        elif fam == "legend":
            what = "legend"
        elif f["code"] == "DC303" and "card" not in f:
            what = "count"
        else:
            what = f.get("card", {}).get("id")
        bad.setdefault(fam, set()).add(what)
    return bad


def run_deckcheck(
    capsys: pytest.CaptureFixture[str], fmt: str, inputs: Iterable[str]
) -> list[dict[str, object]]:
    capsys.readouterr()
    code = main(
        [
            "validate",
            "--format",
            fmt,
            "--banlist",
            LISTS[fmt][1],
            "--date",
            EVENT_DATE,
            "--output",
            "json",
            *inputs,
        ]
    )
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    doc = json.loads(out)
    assert doc["banlist"]["name"] == LISTS[fmt][1]
    return doc["decks"]  # type: ignore[no-any-return]


def ydke(main_: list[int], extra: list[int] = (), side: list[int] = ()) -> str:  # type: ignore[assignment]
    def part(ids: Iterable[int]) -> str:
        return base64.b64encode(b"".join(struct.pack("<I", i) for i in ids)).decode()

    return f"ydke://{part(main_)}!{part(extra)}!{part(side)}!"


# --------------------------------------------------------------------------- exceptions

#: Where deckcheck differs from EDOPro on purpose (docs/RULES.md, "Where deckcheck and EDOPro
#: differ"). Each is applied to the reference as a named adjustment; the test below checks that
#: every one is needed on the real decks, so the list cannot grow stale.
EXCEPTIONS = {
    "artwork-listed": "a list naming one artwork of a card names the card (SPEC.md §2); EDOPro "
    "looks a whitelist up by the passcode and its alias only, so it refuses the original "
    "Metalmorph (68540058) when the Speed list names only its artwork 68540059",
    "rush-not-advanced": "a Rush card is outside every non-Rush format's card universe (DC504: "
    "GOAT, Speed Duel), even when its alias is on the whitelist: EDOPro's alias fallback admits "
    "the Rush reprint of a listed OCG card",
    "speed-groups": "the Speed list's Limited 1/2/3 sections are group limits (at most N cards "
    "in total from the section); EDOPro's list file says its parser does not enforce them, and "
    "reads a member's number as its own copy limit, which deckcheck does not (the group limits "
    "it: over N copies of one member is the group's DC406 alone, issue 32)",
    "goat-entry-card": "a whitelist naming a card only under its \"(GOAT)\" entry (an 'illegal' "
    "scope row treated as the card) admits the real card by its own passcode with the entry's "
    "limit; EDOPro refuses real Sangan, so the 2004-2005 Structure Decks fail there",
}

OT_ILLEGAL = 0x8


def goat_cards(cards: dict[int, Row], lst: RefList) -> dict[int, int]:
    """The card each "(GOAT)" entry stands for -> the entry's limit (the strictest when several
    entries stand for one card): the entries are 'illegal'-scope rows aliased to a card the
    list does not name itself, never artworks (|id - alias| < 10)."""
    out: dict[int, int] = {}
    if not lst.whitelist:
        return out
    for cid, n in lst.limits.items():
        row = cards.get(cid)
        if row is None or not row.alias or abs(cid - row.alias) < 10 or not row.ot & OT_ILLEGAL:
            continue
        if row.alias not in lst.limits:
            out[row.alias] = min(n, out.get(row.alias, n))
    return out


NO_ROW = Row(0, 0, 0)


def speed_groups(path: Path) -> dict[int, set[int]]:
    """``#Limited N`` sections of a Speed list: N -> passcodes (a section runs to the next)."""
    groups: dict[int, set[int]] = {}
    cur: int | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"#Limited (\d)", line):
            cur = int(m[1])
            groups[cur] = set()
        elif cur is not None and (m := re.match(r"(\d+) ", line)):
            groups[cur].add(int(m[1]))
    return groups


def artwork_family(cards: dict[int, Row]) -> dict[int, set[int]]:
    """passcode -> every passcode of the same card by artwork (|id - alias| < 10)."""
    fam: dict[int, set[int]] = {}
    for cid, row in cards.items():
        if row.alias and abs(cid - row.alias) < 10:
            group = fam.setdefault(row.alias, {row.alias})
            group.add(cid)
            fam[cid] = group
    return fam


def adjusted(
    deck: dict[str, list[int]],
    fmt: str,
    cards: dict[int, Row],
    lst: RefList,
    *,
    arts: dict[int, set[int]],
    groups: dict[int, set[int]],
    used: Counter[str],
) -> dict[str, set[object]]:
    """The reference with the named exceptions applied; ``used`` counts which ones mattered."""
    bad = reference(deck, fmt, cards, lst)
    stand_for = goat_cards(cards, lst)
    if stand_for:
        wider = reference(deck, fmt, cards, RefList(lst.whitelist, {**lst.limits, **stand_for}))
        if wider != bad:
            bad = wider
            used["goat-entry-card"] += 1
    every = [c for ids in deck.values() for c in ids]
    pool = bad.get("pool", set())
    for cid in sorted(pool, key=str):  # type: ignore[arg-type]
        if (
            lst.whitelist
            and isinstance(cid, int)
            and any(a in lst.limits for a in arts.get(cid, ()))
        ):
            pool.discard(cid)
            used["artwork-listed"] += 1
    if fmt in ("goat", "speed"):
        for cid in every:
            row = cards.get(cid)
            if row is not None and row.ot & 0x200 and cid not in pool:
                pool.add(cid)
                used["rush-not-advanced"] += 1
    if fmt == "speed":
        for n, members in groups.items():
            held = [c for c in every if c in members or cards.get(c, NO_ROW).alias in members]
            if len(held) > n:
                bad.setdefault("groups", set()).add(None)
                used["speed-groups"] += 1
            for c in sorted(bad.get("limits", set()), key=str):  # type: ignore[arg-type]
                if c in members and lst.limits.get(c) == n:
                    bad["limits"].discard(c)  # the member's number is the group's, no own limit
                    used["speed-groups"] += 1
        if "limits" in bad and not bad["limits"]:
            del bad["limits"]
    if "pool" in bad and not bad["pool"]:
        del bad["pool"]
    return bad


# --------------------------------------------------------------------------- tests


@pytest.fixture(scope="module")
def cdb(shared_data: Path) -> dict[int, Row]:
    return read_cdb(shared_data / "cards" / "cards.cdb")


def ref_list(shared_data: Path, fmt: str) -> RefList:
    return read_lflist(shared_data / "banlists" / "projectignis-lflists" / LISTS[fmt][0])


AUDIT_FORMATS = ("tcg", "ocg", "goat", "speed", "rush")


@pytest.mark.parametrize("fmt", AUDIT_FORMATS)
def test_real_decks_match_the_edopro_reference(
    fmt: str,
    real_home: Path,
    shared_data: Path,
    cdb: dict[int, Row],
    capsys: pytest.CaptureFixture[str],
) -> None:
    paths = sorted((shared_data / "decks").rglob("*.ydk"))
    assert len(paths) == 209
    lst = ref_list(shared_data, fmt)
    arts = artwork_family(cdb)
    groups = speed_groups(shared_data / "banlists" / "projectignis-lflists" / LISTS["speed"][0])
    reports = run_deckcheck(capsys, fmt, map(str, paths))
    assert len(reports) == len(paths)
    mismatches = []
    for path, rep in zip(paths, reports, strict=True):
        assert rep["input"] == str(path)
        want = adjusted(read_ydk(path), fmt, cdb, lst, arts=arts, groups=groups, used=Counter())
        got = deckcheck_families(rep)
        got.pop("read", None)  # DC101: lines EDOPro skips silently, none in these files
        if rep["legal"] != (not want) or got != want:
            mismatches.append((path.name, want, got))
    assert not mismatches, mismatches[:3]


def test_every_named_exception_is_needed(shared_data: Path, cdb: dict[int, Row]) -> None:
    # The reference side of the audit on its own (no deckcheck run, no dependence on the
    # audit above having run first): an exception no real deck needs must be removed.
    paths = sorted((shared_data / "decks").rglob("*.ydk"))
    assert len(paths) == 209
    arts = artwork_family(cdb)
    groups = speed_groups(shared_data / "banlists" / "projectignis-lflists" / LISTS["speed"][0])
    used: Counter[str] = Counter()
    decks = [read_ydk(p) for p in paths]
    for fmt in AUDIT_FORMATS:
        lst = ref_list(shared_data, fmt)
        for deck in decks:
            adjusted(deck, fmt, cdb, lst, arts=arts, groups=groups, used=used)
    assert set(used) == set(EXCEPTIONS), used


# --------------------------------------------------------------------------- built decks
# Decks built from the lists and the card database (picked by the reference's own reading),
# each judged by the reference and by deckcheck.

MAIN_KINDS = TYPE_MONSTER | TYPE_SPELL | TYPE_TRAP
TYPE_PENDULUM = 0x1000000


def main_deck_card(row: Row, fmt: str) -> bool:
    """A plain Main Deck card of ``fmt``: no token, skill, Extra Deck or (Rush) Ritual monster."""
    if not row.type & MAIN_KINDS or row.type & (TYPE_TOKEN | TYPE_SKILL | TYPE_PENDULUM):
        return False
    return not (row.type & TYPE_MONSTER and row.type & (extra_types(fmt) | TYPE_RITUAL))


def pick(ids: Iterable[int], n: int) -> list[int]:
    got = sorted(ids)[:n]
    assert len(got) == n, f"the data has only {len(got)} such cards, {n} needed"
    return got


def judge(
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    cards: dict[int, Row],
    lst: RefList,
    main_: list[int],
    extra: list[int] = [],  # noqa: B006 - never mutated
) -> tuple[dict[str, set[object]], dict[str, set[object]], dict[str, object]]:
    """(reference families, deckcheck families, deckcheck report) for one ydke deck."""
    rep = run_deckcheck(capsys, fmt, [ydke(main_, extra)])[0]
    ref = reference({"main": main_, "extra": extra, "side": []}, fmt, cards, lst)
    return ref, deckcheck_families(rep), rep


@pytest.fixture(scope="module")
def rush(shared_data: Path, cdb: dict[int, Row]) -> dict[str, object]:
    lst = ref_list(shared_data, "rush")
    three = [c for c, n in lst.limits.items() if n == 3 and c in cdb]
    legends = [
        c
        for c in three
        if cdb[c].ot & OT_LEGEND
        and cdb[c].type & TYPE_MONSTER
        and main_deck_card(cdb[c], "rush")
        and cdb[c].alias in cdb
        and cdb[cdb[c].alias].ot & (OT_OCG | OT_TCG)
    ]
    # Two Legend reprints of two different OCG cards.
    first = pick(legends, 1)[0]
    second = pick((c for c in legends if cdb[c].alias != cdb[first].alias), 1)[0]
    plain = pick(
        (
            c
            for c in three
            if cdb[c].ot == 0x200 and not cdb[c].alias and main_deck_card(cdb[c], "rush")
        ),
        13,
    )
    return {"list": lst, "legend": first, "legend2": second, "plain": plain}


def test_rush_deck_with_a_legend_reprint_is_legal_as_in_edopro(
    real_home: Path,
    cdb: dict[int, Row],
    rush: dict[str, object],
    capsys: pytest.CaptureFixture[str],
) -> None:
    lst, legend, plain = rush["list"], rush["legend"], rush["plain"]
    assert isinstance(lst, RefList) and isinstance(legend, int) and isinstance(plain, list)
    deck = [legend] + [c for c in plain for _ in range(3)]
    ref, got, rep = judge(capsys, "rush", cdb, lst, deck)
    assert ref == {} and got == {} and rep["legal"] is True, rep["findings"]


def test_rush_two_legend_monsters_and_the_ocg_card_are_refused_as_in_edopro(
    real_home: Path,
    cdb: dict[int, Row],
    rush: dict[str, object],
    capsys: pytest.CaptureFixture[str],
) -> None:
    lst, legend, legend2, plain = rush["list"], rush["legend"], rush["legend2"], rush["plain"]
    assert isinstance(lst, RefList) and isinstance(plain, list)
    assert isinstance(legend, int) and isinstance(legend2, int)
    filler = [c for c in plain for _ in range(3)]
    ref, got, _ = judge(capsys, "rush", cdb, lst, [legend, legend2, *filler[1:]])
    assert ref == got == {"legend": {"legend"}}
    ocg = cdb[legend].alias  # the OCG card the reprint is "treated as": not a Rush card
    ref, got, _ = judge(capsys, "rush", cdb, lst, [ocg, *filler])
    assert ref == got == {"pool": {ocg}}


def test_rush_copies_count_across_printings_of_one_card(
    real_home: Path,
    cdb: dict[int, Row],
    rush: dict[str, object],
    capsys: pytest.CaptureFixture[str],
) -> None:
    lst, plain = rush["list"], rush["plain"]
    assert isinstance(lst, RefList) and isinstance(plain, list)
    by_alias: dict[int, list[int]] = {}
    for c, n in lst.limits.items():
        row = cdb.get(c)
        if n == 3 and row and row.alias and not row.ot & OT_LEGEND and main_deck_card(row, "rush"):
            by_alias.setdefault(row.alias, []).append(c)
    alias = pick((a for a, cs in by_alias.items() if len(cs) >= 2), 1)[0]
    a, b = sorted(by_alias[alias])[:2]
    filler = [c for c in plain for _ in range(3)]
    ref, got, _ = judge(capsys, "rush", cdb, lst, [a, a, b, b, *filler[3:]])
    assert ref == got == {"copies": {alias}}
    limited = pick(
        (
            c
            for c, n in lst.limits.items()
            if n == 1 and c in cdb and not cdb[c].alias and main_deck_card(cdb[c], "rush")
        ),
        1,
    )[0]
    ref, got, _ = judge(capsys, "rush", cdb, lst, [limited, limited, *filler[1:]])
    assert ref == got == {"limits": {limited}}


def test_goat_entries_are_the_cards_of_the_goat_list(
    real_home: Path, shared_data: Path, cdb: dict[int, Row], capsys: pytest.CaptureFixture[str]
) -> None:
    lst = ref_list(shared_data, "goat")
    entries = pick(
        (
            c
            for c, n in lst.limits.items()
            if 504700000 <= c < 504701000
            and n == 3
            and main_deck_card(cdb[c], "goat")
            and cdb[c].alias not in lst.limits
        ),
        3,
    )
    real = pick(
        (
            c
            for c, n in lst.limits.items()
            if n == 3 and cdb[c].ot == 3 and not cdb[c].alias and main_deck_card(cdb[c], "goat")
        ),
        13,
    )
    filler = [c for c in real for _ in range(3)]
    ref, got, rep = judge(capsys, "goat", cdb, lst, [c for c in entries for _ in range(3)] + filler)
    assert ref == got == {}, rep["findings"]
    # The card a GOAT entry stands for is not on the list by its own passcode: EDOPro refuses
    # it; deckcheck admits it with the entry's limit (the named exception "goat-entry-card").
    modern = cdb[entries[0]].alias
    assert goat_cards(cdb, lst)[modern] == 3
    ref, got, rep = judge(capsys, "goat", cdb, lst, [modern, *filler])
    assert ref == {"pool": {modern}} and got == {}, rep["findings"]
    # The entry and the card count together (alias or id).
    ref, got, _ = judge(capsys, "goat", cdb, lst, [entries[0]] * 3 + [modern] + filler)
    assert ref == {"pool": {modern}, "copies": {modern}} and got == {"copies": {modern}}
    forbidden = pick(
        (c for c, n in lst.limits.items() if 504700000 <= c < 504701000 and n == 0), 1
    )[0]
    ref, got, _ = judge(capsys, "goat", cdb, lst, [forbidden, *filler])
    assert ref == got == {"limits": {cdb[forbidden].alias}}
    # ... and so is the real card of a forbidden entry: Forbidden, not off the list.
    real_forbidden = cdb[forbidden].alias
    assert real_forbidden not in lst.limits
    ref, got, _ = judge(capsys, "goat", cdb, lst, [real_forbidden, *filler])
    assert ref == {"pool": {real_forbidden}} and got == {"limits": {real_forbidden}}
    # A card the list names under no entry at all stays out of the pool, as in EDOPro.
    stand_for = goat_cards(cdb, lst)
    outside = pick(
        (
            c
            for c, r in cdb.items()
            if r.ot == 3
            and not r.alias
            and c not in lst.limits
            and c not in stand_for
            and main_deck_card(r, "goat")
        ),
        1,
    )[0]
    ref, got, _ = judge(capsys, "goat", cdb, lst, [outside, *filler])
    assert ref == got == {"pool": {outside}}


def test_artworks_share_copies_and_limits_as_in_edopro(
    real_home: Path, shared_data: Path, cdb: dict[int, Row], capsys: pytest.CaptureFixture[str]
) -> None:
    lst = ref_list(shared_data, "tcg")
    arts = artwork_family(cdb)
    limited = pick(
        (
            c
            for c, n in lst.limits.items()
            if n == 1
            and c in arts
            and c in cdb
            and not cdb[c].alias
            and main_deck_card(cdb[c], "tcg")
        ),
        1,
    )[0]
    art = min(arts[limited] - {limited})
    filler = pick(
        (
            c
            for c, r in cdb.items()
            if r.ot == 3
            and not r.alias
            and c not in lst.limits
            and c not in arts
            and main_deck_card(r, "tcg")
        ),
        13,
    )
    deck = [c for c in filler for _ in range(3)][:38]
    ref, got, _ = judge(capsys, "tcg", cdb, lst, [limited, *deck, art])
    assert ref == got == {"limits": {limited}}
    ref, got, _ = judge(capsys, "tcg", cdb, lst, [art, *deck, filler[0]])
    assert ref == got == {"copies": {filler[0]}}


def test_speed_deck_with_one_skill(
    real_home: Path, shared_data: Path, cdb: dict[int, Row], capsys: pytest.CaptureFixture[str]
) -> None:
    lst = ref_list(shared_data, "speed")
    grouped = set().union(
        *speed_groups(
            shared_data / "banlists" / "projectignis-lflists" / LISTS["speed"][0]
        ).values()
    )
    listed = [c for c, n in lst.limits.items() if c in cdb and c not in grouped and n == 3]
    skills = pick((c for c in listed if cdb[c].type & TYPE_SKILL), 2)
    plain = pick((c for c in listed if not cdb[c].alias and main_deck_card(cdb[c], "speed")), 7)
    deck = [c for c in plain for _ in range(3)]
    ref, got, rep = judge(capsys, "speed", cdb, lst, [skills[0], *deck])
    assert ref == got == {}, rep["findings"]
    assert rep["counts"] == {"main": 21, "extra": 0, "side": 0}  # the Skill is outside
    ref, got, _ = judge(capsys, "speed", cdb, lst, [*skills, *deck])
    assert ref == got == {"skill": {"count"}}


def test_genesys_points_per_copy_against_the_cap(
    real_home: Path, shared_data: Path, cdb: dict[int, Row], capsys: pytest.CaptureFixture[str]
) -> None:
    points = ref_list(shared_data, "genesys").limits  # the number is the cost of one copy
    ok = {
        c
        for c, r in cdb.items()
        if r.ot == 3
        and not r.alias
        and main_deck_card(r, "genesys")
        and not r.type & (TYPE_LINK | TYPE_PENDULUM)
    }
    costly = pick((c for c in ok if points.get(c) == 33), 1)[0]
    cheap = pick((c for c in ok if points.get(c) == 1), 2)
    free = pick((c for c in ok if c not in points), 12)
    deck = [costly] * 3 + [cheap[0]] + [c for c in free for _ in range(3)]

    def cost(ids: list[int]) -> int:
        return sum(points.get(c, 0) for c in ids)

    rep = run_deckcheck(capsys, "genesys", [ydke(deck)])[0]
    assert cost(deck) == 100 and rep["legal"] is True, rep["findings"]
    over = [*deck[:-1], cheap[1]]
    rep = run_deckcheck(capsys, "genesys", [ydke(over)])[0]
    found = [f for f in rep["findings"] if f["code"] == "DC407"]  # type: ignore[attr-defined]
    assert cost(over) == 101 and rep["legal"] is False
    assert [(f["count"], f["limit"]) for f in found] == [(101, 100)]


def test_card_show_reads_a_goat_entry_by_its_own_passcode(
    real_home: Path, shared_data: Path, cdb: dict[int, Row], capsys: pytest.CaptureFixture[str]
) -> None:
    lst = ref_list(shared_data, "goat")
    entry = pick(
        (
            c
            for c, n in lst.limits.items()
            if 504700000 <= c < 504701000 and n == 3 and cdb[c].alias not in lst.limits
        ),
        1,
    )[0]

    def goat_status(passcode: int) -> object:
        capsys.readouterr()
        main(["card", "show", str(passcode), "--output", "json"])
        doc = json.loads(capsys.readouterr().out)
        return next(x["limit"] for x in doc["lists"] if x["family"] == "goat")

    assert goat_status(entry) == 3
    # the real card takes its entry's limit ("goat-entry-card", docs/RULES.md)
    assert goat_status(cdb[entry].alias) == 3


def section_of(row: Row, fmt: str) -> str:
    return "extra" if row.type & TYPE_MONSTER and row.type & extra_types(fmt) else "main"


def test_a_listed_pre_errata_passcode_does_not_bind_the_card_itself(
    real_home: Path, shared_data: Path, cdb: dict[int, Row], capsys: pytest.CaptureFixture[str]
) -> None:
    # The 2026.07 OCG list forbids pre-errata passcodes (alias to the card, ot TCG only) and
    # names some of the cards themselves differently (Mind Master: pre-errata 0, card 1).
    lst = ref_list(shared_data, "ocg")
    treated = [
        c
        for c in lst.limits
        if c in cdb and cdb[c].alias and abs(c - cdb[c].alias) >= 10 and cdb[cdb[c].alias].ot & 1
    ]
    assert treated, "the OCG list names no pre-errata passcode any more"
    filler = pick(
        (
            c
            for c, r in cdb.items()
            if r.ot == 3 and not r.alias and c not in lst.limits and main_deck_card(r, "ocg")
        ),
        14,
    )
    deck = [c for c in filler for _ in range(3)][:40]
    for pre in treated:
        card = cdb[pre].alias
        copies = min(lst.limits.get(card, 3), 3) or 1
        extra = [card] * copies if section_of(cdb[card], "ocg") == "extra" else []
        main_ = deck + ([card] * copies if not extra else [])
        ref, got, rep = judge(capsys, "ocg", cdb, lst, main_, extra)
        assert got == ref, (pre, card, rep["findings"])
        # The pre-errata passcode itself is read by its own entry first (EDOPro's order).
        if extra:
            ref, got, rep = judge(capsys, "ocg", cdb, lst, deck, [pre])
        else:
            ref, got, rep = judge(capsys, "ocg", cdb, lst, [*deck[:-1], pre])
        assert got == ref and "limits" in ref, (pre, rep["findings"])


def test_genesys_prices_the_passcode_the_list_names(
    real_home: Path, shared_data: Path, cdb: dict[int, Row], capsys: pytest.CaptureFixture[str]
) -> None:
    points = ref_list(shared_data, "genesys").limits
    priced = [
        c
        for c, n in points.items()
        if c in cdb
        and cdb[c].alias
        and abs(c - cdb[c].alias) >= 10
        and cdb[c].alias not in points
        and 0 < n <= 33
    ]
    assert priced, "the Genesys list prices no 'treated as' passcode any more"
    pre = priced[0]
    card = cdb[pre].alias
    free = pick(
        (
            c
            for c, r in cdb.items()
            if r.ot == 3 and not r.alias and c not in points and main_deck_card(r, "genesys")
        ),
        13,
    )
    held = [pre, pre, pre, card]  # three priced copies and one copy of the card it counts as
    main_ = [c for c in held if section_of(cdb[c], "genesys") == "main"]
    extra = [c for c in held if section_of(cdb[c], "genesys") == "extra"]
    main_ += [c for c in free for _ in range(3)][: 40 - len(main_)]
    cost = sum(points.get(c, points.get(cdb[c].alias, 0)) for c in main_ + extra)
    assert cost == 3 * points[pre] <= 100
    rep = run_deckcheck(capsys, "genesys", [ydke(main_, extra)])[0]
    assert not [f for f in rep["findings"] if f["code"] == "DC407"]  # type: ignore[attr-defined]
    rep = run_deckcheck(capsys, "genesys", [ydke(main_, extra), "--points-cap", str(cost - 1)])[0]
    found = [f for f in rep["findings"] if f["code"] == "DC407"]  # type: ignore[attr-defined]
    assert [(f["count"], f["limit"]) for f in found] == [(cost, cost - 1)]
