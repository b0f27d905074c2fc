"""Per-rule case files (tests/fixtures/rules/<rule>.yaml) run through ``validate_deck``."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from deckcheck import validate
from deckcheck.codes import CODES, finding, owned_by
from deckcheck.engine import Engine
from deckcheck.model import (
    Banlist,
    Card,
    Deck,
    DeckEntry,
    Format,
    Group,
    Scope,
    SizeRange,
    scope_bits,
)
from deckcheck.rules import NEEDED, RULES
from deckcheck.validate import Target, validate_deck

CASES_DIR = Path(__file__).parent.parent / "fixtures" / "rules"
FILLERS = range(1000, 1070)


def load_cards() -> dict[int, Card]:
    raw = yaml.safe_load((CASES_DIR / "cards.yaml").read_text(encoding="utf-8"))
    cards: dict[int, Card] = {}
    for c in raw:
        cards[c["id"]] = Card(
            id=c["id"],
            name=c["name"],
            canonical=c.get("canonical", c["id"]),
            alias_kind=c.get("alias_kind", "none"),
            type_bits=c["type"],
            scopes=scope_bits(c["scopes"]),
            ocg_date=c.get("ocg_date"),
            tcg_date=c.get("tcg_date"),
        )
    for i in FILLERS:
        cards[i] = Card(i, f"Filler {i}", i, "none", 0x11, Scope.OCG | Scope.TCG | Scope.RUSH)
    return cards


class CardStub:
    """The smallest card source the engine accepts: ``get(id) -> Card | None``."""

    def __init__(self, cards: dict[int, Card]):
        self.cards = cards

    def get(self, card_id: int) -> Card | None:
        return self.cards.get(card_id)


CARDS = CardStub(load_cards())
BASE = Format(
    id="test",
    name="Test Advanced",
    list_family="test",
    pool=frozenset({"tcg"}),
    release_region="tcg",
)


def make_format(over: dict[str, Any]) -> Format:
    kw: dict[str, Any] = {}
    for key, value in over.items():
        if key in ("main", "extra", "side", "skills") and value is not None:
            value = SizeRange(value.get("min", 0), value.get("max"))
        elif key in ("pool", "universe", "extra_deck_types", "banned_types"):
            value = frozenset(value)
        elif key == "changes":
            value = tuple(
                (since, {k: frozenset(v) if isinstance(v, list) else v for k, v in s.items()})
                for since, s in value
            )
        kw[key] = value
    return Format(**{**{f: getattr(BASE, f) for f in BASE._fields}, **kw})  # type: ignore[attr-defined]


def make_list(spec: dict[str, Any] | None) -> Banlist | None:
    if spec is None:
        return None
    limits = {int(k): v for k, v in (spec.get("limits") or {}).items()}
    if spec.get("mode") == "whitelist":
        limits.update(dict.fromkeys(FILLERS, 3))
    return Banlist(
        name="2026.05 TEST",
        family="test",
        effective=spec.get("effective", dt.date(2026, 5, 18)),
        mode=spec.get("mode", "blacklist"),
        limits=limits,
        groups=tuple(
            Group(g["name"], g["limit"], frozenset(g["cards"])) for g in spec.get("groups", ())
        ),
        points={int(k): v for k, v in (spec.get("points") or {}).items()},
        date_exact=spec.get("date_exact", True),
    )


def make_deck(case: dict[str, Any], fmt: Format) -> Deck:
    deck = Deck(source="case.ydk")
    line = 0
    for section in ("main", "extra", "side"):
        for item in case["deck"].get(section, []):
            cid, _, times = str(item).partition(" x")
            for _ in range(int(times or 1)):
                line += 1
                deck.section(section).append(DeckEntry(section, int(cid), line))
    target = case.get("fill_to", fmt.main.min if case.get("fill", True) else 0)
    skills = {i for i, c in CARDS.cards.items() if c.kind == "skill"}
    have = sum(1 for e in deck.main if e.card_id not in skills)
    fillers = (i for i in FILLERS for _ in range(min(3, fmt.copies)))
    while have < target:
        line += 1
        deck.main.append(DeckEntry("main", next(fillers), line))
        have += 1
    for code in case.get("reader_findings", ()):
        deck.findings.append(finding(code, "read problem", section="main", line=99))
    return deck


def cases() -> list[Any]:
    out = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        if path.name == "cards.yaml":
            continue
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            out.append(pytest.param(case, id=f"{path.stem}: {case['name']}"))
    return out


def case_target(case: dict[str, Any]) -> tuple[Deck, Target]:
    fmt = make_format(case.get("format") or {})
    date = case.get("date", dt.date(2026, 6, 1))
    deck = make_deck(case, fmt.at(date))
    banlist = make_list(case.get("list"))
    # ``newest: true``: the case's list is the newest installed one of its family (DC602)
    newest = banlist if case.get("newest") else None
    return deck, Target(fmt, banlist, date, case.get("points_cap"), newest=newest)


@pytest.mark.parametrize("case", cases())
def test_rule_case(case: dict[str, Any]) -> None:
    deck, target = case_target(case)
    report = validate_deck(Engine(CARDS), deck, target)
    got = sorted(f.code for f in report.findings)
    assert got == sorted(case["expect"]), [f.message for f in report.findings]
    # Warnings (DC304, DC602 …) leave a deck legal; only errors make it illegal.
    assert report.legal == (not any(CODES[c].severity == "error" for c in case["expect"]))
    for text in case.get("messages", ()):
        messages = [f.message for f in report.findings]
        assert any(text in m for m in messages), (text, messages)


@pytest.mark.parametrize("case", cases())
def test_a_family_skipped_by_its_needed_test_would_have_found_nothing(
    case: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rules.NEEDED`` only spares work: every family run on every deck (the plain path)
    gives the same report."""
    deck, target = case_target(case)
    gated = validate_deck(Engine(CARDS), deck, target)
    monkeypatch.setattr(validate, "NEEDED", {})
    engine = Engine(CARDS)
    assert all(check is not None for _n, check, _w, _o in engine.learnt.rules)
    assert validate_deck(engine, deck, target) == gated


def test_the_families_a_format_does_not_need_are_not_run() -> None:
    engine = Engine(CARDS)
    deck = make_deck({"deck": {}}, BASE)
    validate_deck(engine, deck, Target(BASE, make_list({}), dt.date(2026, 6, 1)))
    skipped = {n for n, check, _w, _o in engine.learnt.rules if check is None}
    assert skipped == set(NEEDED) == {"skills", "groups", "points", "legend", "types"}
    genesys = make_format({"points_cap": 100, "banned_types": ["link"]})
    points = make_list({"points": {1000: 1}})
    validate_deck(engine, deck, Target(genesys, points, dt.date(2026, 6, 1)))
    skipped = {n for n, check, _w, _o in engine.learnt.rules if check is None}
    assert skipped == {"skills", "groups", "legend"}


def test_every_rule_module_has_a_case_file_and_every_code_a_case() -> None:
    files = {p.stem for p in CASES_DIR.glob("*.yaml")} - {"cards"}
    # rules.upcoming compares two lists; tests/test_upcoming.py has its cases
    assert files == set(RULES) - {"upcoming"}
    expected: Counter[str] = Counter()
    for p in cases():
        expected.update(p.values[0]["expect"])
    # DC103 only comes from the name resolver; DC601 from rules.upcoming.compare
    assert set(CODES) - set(expected) == {"DC103", "DC601"}


def test_every_rule_module_is_documented_and_owns_codes() -> None:
    for name, module in RULES.items():
        assert module.__doc__ and len(module.__doc__.strip()) > 40, name
        assert owned_by(name), name
        for code in owned_by(name):
            assert code in module.__doc__, (name, code)
        assert callable(module.check)


def test_findings_are_stamped_with_name_and_severity_and_sorted() -> None:
    deck = Deck(source="x.ydk")
    deck.side.append(DeckEntry("side", 300, 50))
    deck.main += [DeckEntry("main", 200, 3), DeckEntry("main", 99999999, 1)]
    deck.extra.append(DeckEntry("extra", 102, 10))
    report = validate_deck(Engine(CARDS), deck, Target(BASE, None, dt.date(2026, 6, 1)))
    assert [(f.code, f.section, f.line) for f in report.findings] == [
        ("DC201", "main", None),
        ("DC102", "main", 1),
        ("DC301", "main", 3),
        ("DC302", "extra", 10),
        ("DC104", "side", 50),
    ]
    stamped = {f.code: (f.rule, f.severity) for f in report.findings}
    assert stamped["DC301"] == ("extra-in-main", "error")
    assert report.counts == {"main": 2, "extra": 1, "side": 1}


def test_validate_deck_does_not_change_its_inputs() -> None:
    deck = Deck(source="x.ydk", main=[DeckEntry("main", 100, 1, count=4)])
    before = repr(deck)
    validate_deck(
        Engine(CARDS), deck, Target(BASE, make_list({"limits": {100: 1}}), dt.date(2026, 6, 1))
    )
    assert repr(deck) == before


def test_text_counts_count_as_copies() -> None:
    entry = DeckEntry("main", 100, 1, count=4, query="Plain")
    deck = Deck(source="x.txt", kind="text", main=[entry])
    report = validate_deck(Engine(CARDS), deck, Target(BASE, None, dt.date(2026, 6, 1)))
    assert [f.code for f in report.findings] == ["DC201", "DC401"]
    assert report.findings[1].count == 4


def test_localized_names() -> None:
    deck = Deck(source="x.ydk", main=[DeckEntry("main", 100, 1, count=4)])

    class Named(CardStub):
        def name(self, card_id: int, lang: str = "en") -> str:
            return f"名前{card_id}" if lang == "ja" else str(card_id)

    cards = Named(CARDS.cards)
    report = validate_deck(Engine(cards), deck, Target(BASE, None, dt.date(2026, 6, 1), lang="ja"))
    assert "名前100 (100): 4 copies" in report.findings[1].message


def test_rules_md_quotes_every_rule_docstring() -> None:
    import inspect

    text = (Path(__file__).parent.parent.parent / "docs" / "RULES.md").read_text(encoding="utf-8")
    for module in RULES.values():
        assert inspect.cleandoc(module.__doc__ or "") in text, module.__name__
    for code in CODES:
        assert f"| {code} |" in text
