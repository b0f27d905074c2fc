"""One engine per run (issue 28): no learnt state in module globals of the engine's packages
(rules/, validate.py, decks/, render/), and two engines in one process share nothing learnt —
each answers from its own card source, whatever the other has seen."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

from deckcheck import decks
from deckcheck.engine import Engine
from deckcheck.model import Banlist, Card, Deck, DeckEntry, Format, Scope
from deckcheck.validate import Target, validate_deck

PKG = Path(__file__).resolve().parent.parent.parent / "deckcheck"
SCANNED = [PKG / "validate.py", *sorted((PKG / "rules").rglob("*.py"))]
SCANNED += sorted((PKG / "decks").rglob("*.py")) + sorted((PKG / "render").rglob("*.py"))
#: module globals that are set once and never learn (name -> why it may be rebound)
ALLOWED = {
    ("deckcheck/decks/source.py", "_SCORER"): "a hook the service layer installs at import",
}
_MUTATORS = {
    "append",
    "extend",
    "insert",
    "pop",
    "popitem",
    "remove",
    "clear",
    "update",
    "setdefault",
    "add",
    "discard",
    "appendleft",
    "__setitem__",
}
_CONTAINERS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray"}
_CACHES = {"lru_cache", "cache", "cached_property"}


def _is_container(node: ast.expr | None) -> bool:
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in _CONTAINERS
    return False


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def module_state(source: str) -> list[str]:
    """What a module keeps between calls: globals rebound in functions (``global``),
    module-level caching decorators, and module-level containers that are changed anywhere."""
    tree = ast.parse(source)
    found: list[str] = []
    containers: set[str] = set()
    instances: set[str] = set()  # module-level objects of a class (``_MEMO = Memo()``)
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            if _is_container(node.value):
                containers |= names
            elif isinstance(node.value, ast.Call) and _class_name(node.value.func)[:1].isupper():
                instances |= names
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                d = d.func if isinstance(d, ast.Call) else d
                name = d.id if isinstance(d, ast.Name) else getattr(d, "attr", "")
                if name in _CACHES:
                    found.append(f"{node.name}: @{name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found += [f"{n}: global" for n in node.names]
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for t in targets:
                if isinstance(t, (ast.Subscript, ast.Attribute)) or isinstance(node, ast.AugAssign):
                    root = _root(t)
                    if root in containers:
                        found.append(f"{root}: changed")
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                root = _root(node.func.value)
                if node.func.attr in _MUTATORS and root in containers:
                    found.append(f"{root}: .{node.func.attr}()")
                elif root in instances and isinstance(node.func.value, ast.Name):
                    found.append(f"{root}: .{node.func.attr}() of a module-level object")
    return sorted(set(found))


def _class_name(func: ast.expr) -> str:
    return (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )


def test_the_scan_finds_each_kind_of_module_state() -> None:
    src = (
        "import functools\n_SEEN = {}\n_EPOCH = [0]\n_INTS: dict = dict()\n_LAST = None\n"
        "CONST = {'a': 1}\n"
        "def learn(k, v):\n    _SEEN[k] = v\n    _EPOCH[0] += 1\n    _INTS.setdefault(k, v)\n"
        "def hook(f):\n    global _LAST\n    _LAST = f\n"
        "@functools.lru_cache(maxsize=8)\ndef iso(d):\n    return d\n"
        "def read():\n    local = {}\n    local['x'] = CONST['a']\n    return local\n"
        "_MEMO = Memo()\nLIMITS = Limits()\n"
        "def check(ctx):\n    return _MEMO.table(ctx), LIMITS.max_bytes\n"
    )
    assert module_state(src) == [
        "_EPOCH: changed",
        "_INTS: .setdefault()",
        "_LAST: global",
        "_MEMO: .table() of a module-level object",
        "_SEEN: changed",
        "iso: @lru_cache",
    ]


def test_no_learnt_state_in_the_engine_packages() -> None:
    root = PKG.parent
    offenders = []
    for path in SCANNED:
        rel = path.relative_to(root).as_posix()
        for what in module_state(path.read_text(encoding="utf-8")):
            if (rel, what.split(":")[0]) not in ALLOWED:
                offenders.append(f"{rel}: {what}")
    assert offenders == [], "learnt state belongs to deckcheck.engine.Engine"


DATE = dt.date(2026, 6, 1)
MONSTER, FUSION = 0x11, 0x41


def _card(cid: int, name: str, type_bits: int = MONSTER, canonical: int | None = None) -> Card:
    return Card(cid, name, canonical or cid, "none", type_bits, Scope.TCG | Scope.OCG)


def _deck(ids: list[int]) -> Deck:
    return Deck("d.ydk", main=[DeckEntry("main", i, n) for n, i in enumerate(ids, 1)])


def test_two_engines_share_nothing_learnt() -> None:
    fmt = Format("x", "X", pool=frozenset({"tcg"}))
    # the same passcodes mean other cards to each engine: 200 is a Fusion for one, and 300
    # an artwork of 100 (its list status) for the other
    first = {i: _card(i, f"Card {i}") for i in range(100, 140)}
    second = dict(first)
    first[200] = _card(200, "A Fusion", FUSION)
    second[200] = _card(200, "Plain 200")
    first[300] = _card(300, "Card 300")
    second[300] = _card(300, "Card 100 (art)", canonical=100)
    a, b = Engine(first), Engine(second)
    listed = Banlist("L", "x", DATE, limits={100: 1})
    target = Target(fmt, listed, DATE)
    deck = _deck([*range(100, 138), 200, 300])
    for _ in range(2):  # in turn, twice: each answers from its own cards every time
        got_a = validate_deck(a, deck, target)
        got_b = validate_deck(b, deck, target)
        assert [f.code for f in got_a.findings] == ["DC301"]  # the Fusion in the Main Deck
        assert [f.code for f in got_b.findings] == ["DC403"]  # 100 twice (its artwork 300)
    assert a.learnt.seen[200] is first[200] and b.learnt.seen[200] is second[200]
    assert 300 not in a.learnt.aliased and b.learnt.aliased == {300: 100}
    assert a.learnt.epoch == b.learnt.epoch == 0  # neither saw the other's cards
    # nothing learnt is the same object, and each memo holds its own engine's answers
    for name in ("seen", "aliased", "special", "buckets", "ordinary", "memos"):
        assert getattr(a.learnt, name) is not getattr(b.learnt, name), name
    assert a.learnt.memos.keys() == b.learnt.memos.keys() and a.learnt.memos
    for key in a.learnt.memos:
        assert a.learnt.memos[key] is not b.learnt.memos[key]
    # a fresh engine gives the same reports (what is learnt spares work, never changes them)
    assert validate_deck(Engine(first), deck, target) == got_a
    assert validate_deck(Engine(second), deck, target) == got_b


def test_two_engines_read_with_their_own_passcode_tables(tmp_path: Path) -> None:
    path = tmp_path / "d.ydk"
    path.write_text("#main\n" + "\n".join(str(100 + i % 40) for i in range(40)) + "\n")
    cards = {i: _card(i, f"Card {i}") for i in range(100, 140)}
    a, b = Engine(cards), Engine(cards)
    one, two = a.read(str(path)), b.read(str(path))
    packed_a, packed_b, again = one.packed(), two.packed(), a.read(str(path)).packed()
    assert packed_a is not None and packed_b is not None and again is not None
    # one int object per passcode within an engine, the same values in both
    assert packed_a[0][0] is a.ints["100"] is again[0][0]
    assert packed_a[0] == packed_b[0] and a.ints == b.ints and a.ints is not b.ints
    assert one == two == decks.read_path(path)


def test_what_an_engine_learns_never_changes_a_report(real_home: Path, shared_data: Path) -> None:
    """The learnt tables, the rules' memos and the format kept per date spare work only: one
    engine over many real decks, formats, lists and dates in turn (memos switching and coming
    back) gives each deck the report a fresh engine gives it."""
    from deckcheck.carddb import open_db
    from deckcheck.errors import InputError

    db = open_db()
    shared = Engine(db)
    files = sorted((shared_data / "decks").rglob("*.ydk"))[::7]
    targets = [
        shared.target(f, day)
        for f in ("tcg", "ocg", "goat", "rush", "speed")
        for day in (dt.date(2024, 10, 1), DATE)
    ]
    # one list under other formats and dates: what a memo keeps must follow all three
    tcg_list = targets[1].banlist
    targets += [
        Target(shared.format(f), tcg_list, day)
        for f in ("ocg", "rush", "tcg")
        for day in (dt.date(2012, 1, 1), DATE)
    ]
    checked = 0
    for target in targets:
        for path in files:
            try:
                deck, again = decks.read_path(path), decks.read_path(path)
            except InputError:
                continue
            assert validate_deck(shared, deck, target) == validate_deck(Engine(db), again, target)
            checked += 1
    assert checked > 250 and shared.learnt.memos
