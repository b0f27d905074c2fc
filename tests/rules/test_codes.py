"""The code registry and the finding factory: one place names every code, and nothing else may."""

from __future__ import annotations

import ast
import datetime as dt
import inspect
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from deckcheck import codes, decks, model, validate
from deckcheck.codes import CODES, Code, CodeError, CodeNotOwned, Registry, UnknownCode, finding
from deckcheck.decks.cli_support import check_ids
from deckcheck.decks.resolve import resolve_deck
from deckcheck.engine import Engine
from deckcheck.model import Deck, DeckEntry, Finding, Format
from deckcheck.rules import RULES
from deckcheck.rules._base import Context
from deckcheck.validate import Target, unreadable, validate_deck

REPO = Path(__file__).resolve().parent.parent.parent
PACKAGE = REPO / "deckcheck"
FMT = Format(id="test", name="Test Advanced")
DATE = dt.date(2026, 6, 1)
ALL_CODES = [f"DC{n}" for n in (101, 102, 103, 104, 201, 202, 203, 301, 302, 303, 304)] + [
    f"DC{n}" for n in (*range(401, 410), 501, 502, 503, 504, 601, 602, 603)
]
WARNINGS = {
    "DC304",
    "DC601",
    "DC602",
    "DC603",
}  # real warnings (issues 15, 16): errors under --strict


# --------------------------------------------------------------------------- the registry


def test_the_registry_holds_every_code_of_the_spec_in_order() -> None:
    assert list(CODES) == ALL_CODES
    assert {c.code for c in CODES.values() if c.severity == "warning"} >= WARNINGS
    assert all(c.severity == "error" for c in CODES.values() if c.code not in WARNINGS)
    assert codes.get("DC403").rule == "limited"
    assert codes.get("DC403").module == "deckcheck.rules.limits"


def test_every_module_in_rules_is_registered_in_the_rules_dict() -> None:
    files = {p.stem for p in (PACKAGE / "rules").glob("*.py") if not p.stem.startswith("_")}
    assert files == set(RULES)
    for name, module in RULES.items():
        assert module.__name__ == f"deckcheck.rules.{name}"
        assert name == module.NAME


def test_every_code_is_owned_by_exactly_one_registered_module() -> None:
    # Every module owns codes, every owner is a module of the rules dict ...
    assert codes.REGISTRY.owners() == set(RULES)
    for c in CODES.values():
        # ... and the one module whose docstring defines the code ("DC403 ``limited``") owns it.
        definers = [n for n, m in RULES.items() if f"{c.code} ``{c.rule}``" in (m.__doc__ or "")]
        assert definers == [c.owner], c
        assert c.code in codes.owned_by(c.owner)
        assert [n for n in RULES if c.code in codes.owned_by(n)] == [c.owner]


def _table_rows(text: str, heading: str, header: str) -> list[list[str]]:
    """The rows (cells) of the first Markdown table ``header`` after the line ``heading``."""
    lines = text.splitlines()
    start = lines.index(header, lines.index(heading))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_every_code_is_in_the_readme_table() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rows = _table_rows(readme, "### Rule codes", "| code | meaning |")
    listed = [code for cells in rows for code in re.findall(r"DC\d{3}", cells[0])]
    assert listed == list(CODES)
    assert all(cells[1] for cells in rows)  # each row says what the code means


def test_every_code_is_in_rules_md_with_its_name_and_severity() -> None:
    text = (REPO / "docs" / "RULES.md").read_text(encoding="utf-8")
    rows = _table_rows(text, "## Codes", "| code | rule | severity |")
    assert [(code, rule.strip("`"), sev) for code, rule, sev in rows] == [
        (c.code, c.rule, c.severity) for c in CODES.values()
    ]
    for c in CODES.values():  # a retired code stays documented, pointing to its successor
        for alias in c.aliases:
            assert alias in text, (alias, c.code)


# --------------------------------------------------------------------------- the factory


def test_the_factory_stamps_name_and_severity_and_keeps_every_field() -> None:
    f = finding(
        "DC403",
        "Ash (1): 2 copies, but it is Limited (1)",
        section="side",
        line=7,
        card_id=14558127,
        card_name="Ash Blossom",
        count=2,
        limit=1,
        candidates=((1, "a"),),
    )
    assert f == Finding(
        "DC403",
        "limited",
        "error",
        "Ash (1): 2 copies, but it is Limited (1)",
        "side",
        7,
        14558127,
        "Ash Blossom",
        2,
        1,
        ((1, "a"),),
    )
    assert finding("DC201", "too small") == Finding("DC201", "main-size", "error", "too small")


def test_the_factory_takes_only_code_and_message_by_position() -> None:
    with pytest.raises(TypeError):
        finding("DC401", "x", "main")  # type: ignore[misc]


@pytest.mark.parametrize("code", ["DC999", "DC100", "dc101", "", "limited"])
def test_the_factory_rejects_an_unknown_code(code: str) -> None:
    with pytest.raises(UnknownCode, match=re.escape(repr(code))):
        finding(code, "message")
    with pytest.raises(UnknownCode):
        codes.get(code)
    assert code not in codes.REGISTRY


# --------------------------------------------------------------------------- retired codes


def _registry_with_a_retired_code() -> Registry:
    return Registry(
        [
            Code("DC101", "unreadable-line", "error", "input"),
            Code("DC410", "new-rule", "warning", "limits", aliases=("DC404",)),
        ]
    )


def test_a_retired_code_is_an_alias_of_its_successor() -> None:
    reg = _registry_with_a_retired_code()
    assert reg.get("DC404").code == "DC410"
    assert "DC404" in reg
    assert list(reg.codes) == ["DC101", "DC410"]  # an alias is not a code of its own
    f = reg.finding("DC404", "old code still accepted", section="main")
    assert (f.code, f.rule, f.severity, f.section) == ("DC410", "new-rule", "warning", "main")
    assert reg.owned_by("limits") == {"DC410"}


@pytest.mark.parametrize(
    ("entries", "why"),
    [
        ([Code("DC101", "a", "error", "x"), Code("DC101", "b", "error", "y")], "twice"),
        # a retired code is never reused, as a code or as the alias of another
        ([Code("DC102", "a", "error", "x", ("DC101",)), Code("DC101", "b", "error", "y")], "twice"),
        (
            [
                Code("DC102", "a", "error", "x", ("DC101",)),
                Code("DC103", "b", "error", "y", ("DC101",)),
            ],
            "twice",
        ),
        ([Code("DC1", "a", "error", "x")], "DCnnn"),
        ([Code("DC099", "a", "error", "x")], "DCnnn"),
        ([Code("DC\u0661\u0660\u0661", "a", "error", "x")], "DCnnn"),  # Arabic-Indic digits
        ([Code("DC101", "a", "error", "x", ("101",))], "DCnnn"),
        ([Code("DC101", "a", "fatal", "x")], "severity"),  # type: ignore[arg-type]
        ([Code("DC101", "", "error", "x")], "rule name"),
        ([Code("DC101", "a", "error", "")], "owning module"),
    ],
)
def test_a_registry_refuses_inconsistent_codes(entries: list[Code], why: str) -> None:
    with pytest.raises(CodeError, match=why):
        Registry(entries)


# --------------------------------------------------------------------------- the engine


def _rule(*found: str) -> ModuleType:
    module = ModuleType("deckcheck.rules.fake")

    def check(ctx: Context) -> Iterator[Finding]:
        for code in found:
            yield finding(code, f"{code} from a rule")

    module.check = check  # type: ignore[attr-defined]
    return module


def _with_rule(monkeypatch: pytest.MonkeyPatch, name: str, fake: ModuleType) -> None:
    """The engines made now run ``fake`` as rule family ``name`` (added after the others
    when it is not one)."""
    real = validate.module
    monkeypatch.setattr(validate, "module", lambda n: fake if n == name else real(n))
    if name not in validate.NAMES:
        monkeypatch.setattr(validate, "NAMES", (*validate.NAMES, name))


def test_the_engine_refuses_a_code_the_rule_does_not_own(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_rule(monkeypatch, "sizes", _rule("DC201", "DC401"))
    refused = r"'sizes' emitted DC401, but it belongs to rules.copies"
    with pytest.raises(CodeNotOwned, match=refused):
        validate_deck(Engine({}), Deck(source="x.ydk"), Target(FMT, None, DATE))


def test_the_engine_refuses_a_rule_that_owns_no_code(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_rule(monkeypatch, "rogue", _rule("DC101"))
    with pytest.raises(CodeNotOwned, match="'rogue' emitted DC101"):
        validate_deck(Engine({}), Deck(source="x.ydk"), Target(FMT, None, DATE))


def test_the_engine_accepts_the_codes_a_rule_owns(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_rule(monkeypatch, "sizes", _rule("DC202"))
    report = validate_deck(Engine({}), Deck(source="x.ydk"), Target(FMT, None, DATE))
    assert [f.code for f in report.findings] == ["DC202"]


# --------------------------------------------------------------------------- one factory


def _findings_of_every_producer() -> dict[str, list[Finding]]:
    """Findings from each place that builds them: readers, resolver, check_ids, engine."""
    index = SimpleNamespace(
        resolve=lambda query, lang=None: SimpleNamespace(
            status="ambiguous" if query == "Dragon" else "unknown",
            card_id=None,
            candidates=[SimpleNamespace(card_id=7, name="Blue Dragon", how="fuzzy")],
        )
    )
    text = decks.read_string("Main\n1 Dragon\n1 Nothing Like It\n0 Zero\n", "x.txt", kind="text")
    resolved = resolve_deck(text, None, index)
    return {
        "ydk reader": decks.read_string("#main\nnot a passcode\n", "x.ydk", kind="ydk").findings,
        "text reader": text.findings,
        "name resolver": [f for f in resolved.findings if f not in text.findings],
        "check_ids": check_ids(
            Deck(source="x.ydk", main=[DeckEntry("main", 5, 1)]), SimpleNamespace(get={}.get)
        ),
        "unreadable": list(
            unreadable("x.ydk", "cannot read the deck", Target(FMT, None, DATE)).findings
        ),
        "rules": list(
            validate_deck(Engine({}), Deck(source="x.ydk"), Target(FMT, None, DATE)).findings
        ),
    }


def test_every_producer_takes_names_and_severities_from_the_registry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = _findings_of_every_producer()
    assert {f.code for fs in before.values() for f in fs} == {"DC101", "DC102", "DC103", "DC201"}
    # Change every entry of the one registry: each producer must follow.
    for c in CODES.values():
        monkeypatch.setitem(
            codes.REGISTRY._lookup, c.code, Code(c.code, f"{c.rule}-x", "warning", c.owner)
        )
    after = _findings_of_every_producer()
    for producer, found in after.items():
        assert found, producer
        for f in found:
            assert (f.rule, f.severity) == (CODES[f.code].rule + "-x", "warning"), producer
    # Only warnings now: the engine reads the severity the registry gives, so the deck is legal.
    assert validate_deck(Engine({}), Deck(source="x.ydk"), Target(FMT, None, DATE)).legal


def _constructors(tree: ast.AST) -> Iterator[int]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            fn = node.func
            name = (
                fn.id
                if isinstance(fn, ast.Name)
                else fn.attr
                if isinstance(fn, ast.Attribute)
                else None
            )
            if name == "Finding":
                yield node.lineno


def test_no_module_but_codes_builds_a_finding() -> None:
    built = {
        f"{p.relative_to(REPO)}:{line}"
        for p in PACKAGE.rglob("*.py")
        if p.name != "codes.py" or p.parent != PACKAGE
        for line in _constructors(ast.parse(p.read_text(encoding="utf-8")))
    }
    assert built == set()
    assert list(_constructors(ast.parse(inspect.getsource(codes)))), "the scan must see codes.py"


def test_status_names_have_one_definition() -> None:
    """Only model.py spells out the status table; every other module imports it."""
    import re

    from deckcheck import listdiff, listinfo

    assert model.STATUS_NAMES == {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}
    assert listdiff.STATUS_NAMES is model.STATUS_NAMES
    assert listinfo.STATUS_WORDS is model.STATUS_NAMES
    table = re.compile(r"""\b0\s*:\s*["']Forbidden["']""")
    spelled = sorted(
        str(p.relative_to(REPO))
        for p in (REPO / "deckcheck").rglob("*.py")
        if table.search(p.read_text(encoding="utf-8"))
    )
    assert spelled == ["deckcheck/model.py"]


def test_the_registry_starts_without_yaml_or_pydantic() -> None:
    code = (
        "import sys, deckcheck.codes, deckcheck.validate; "
        "print(sorted(m for m in ('yaml', 'pydantic', 'rapidfuzz') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": ""},
    )
    assert out.stdout.strip() == "[]"
