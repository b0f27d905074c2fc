"""The package's shape: no import cycle among deckcheck modules (imports inside functions
count), no module over 600 lines, the CLI layer at most 15% of the package, no print outside
it, one record mechanism, and the boundaries docs/ARCHITECTURE.md claims: formats/ never opens
the card database, rules never open files, renderers never query the database."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "deckcheck"
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        parts = list(p.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def import_graph() -> dict[str, set[str]]:
    """module -> deckcheck modules it imports anywhere in its body (functions included).

    ``from a import b`` names module ``a.b`` when that is a module, else ``a``; a package's
    ``__init__`` is not counted for importing one of its submodules.
    """
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    here = here[: len(here) - (node.level - 1)]
                    base = ".".join([*here, base] if base else here)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names
                ]
            for t in targets:
                if t in mods and t != mod:
                    graph[mod].add(t)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path (first == last), or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return [*stack[stack.index(m) :], m]
            if m not in state:
                got = visit(m)
                if got:
                    return got
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            got = visit(n)
            if got:
                return got
    return None


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The modules of every import cycle, one set per strongly connected component."""
    out: list[frozenset[str]] = []
    seen: set[str] = set()
    for n in sorted(graph):
        if n in seen:
            continue
        # Modules reachable from n that reach n back.
        fwd = _reach(graph, n)
        back = _reach({m: {k for k in graph if m in graph[k]} for m in graph}, n)
        comp = fwd & back
        seen |= comp
        if len(comp) > 1:
            out.append(frozenset(comp))
    return out


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    todo, got = [start], {start}
    while todo:
        for m in graph[todo.pop()]:
            if m not in got:
                got.add(m)
                todo.append(m)
    return got


def test_cycle_finder_finds_a_cycle_through_a_function_import() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    g = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c"}, "e": {"a"}}
    assert sorted(map(sorted, cycles(g))) == [["a", "b"], ["c", "d"]]


def test_graph_sees_imports_inside_functions() -> None:
    # formats.catalog imports the default resolver only inside a function.
    assert "deckcheck.cardnames" in import_graph()["deckcheck.formats.catalog"]


def test_no_import_cycle_among_deckcheck_modules() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_formats_and_lookup_form_no_cycle_even_between_packages() -> None:
    # Package level: formats -> cardnames -> lookup, and lookup never back into formats.
    def pkg(m: str) -> str:
        return ".".join(m.split(".")[:2])

    graph = import_graph()
    mine = ("deckcheck.formats", "deckcheck.lookup", "deckcheck.cardnames", "deckcheck.datafile")
    packages: dict[str, set[str]] = {}
    for mod, deps in graph.items():
        packages.setdefault(pkg(mod), set()).update(pkg(d) for d in deps if pkg(d) != pkg(mod))
    for p in mine:
        for c in cycles(packages):
            assert p not in c, sorted(c)


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("mod", sorted(_modules()))
def test_no_module_over_600_lines(mod: str) -> None:
    assert _lines(_modules()[mod]) <= MAX_LINES


def test_the_cli_layer_is_at_most_15_percent_of_the_package() -> None:
    # Logic a library user needs lives in services, not in commands/ (issue 14).
    mods = _modules()
    total = sum(_lines(p) for p in mods.values())
    cli = sum(
        _lines(p)
        for m, p in mods.items()
        if m == "deckcheck.cli" or m.startswith("deckcheck.commands")
    )
    assert cli <= 0.15 * total, f"commands/ + cli.py: {cli} of {total} lines"


def test_library_code_never_prints() -> None:
    # Only the CLI layer writes to the terminal; library code hands notes to deckcheck.notes,
    # whose sink the CLI installs (notes.py holds the CLI's stderr sinks it installs).
    allowed = ("deckcheck.cli", "deckcheck.commands", "deckcheck.notes")
    offenders = []
    for mod, path in _modules().items():
        if mod.startswith(allowed):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else ast.unparse(f)
                if name in ("print", "sys.stderr.write", "sys.stdout.write", "click.echo"):
                    offenders.append(f"{mod}:{node.lineno} {name}")
    assert offenders == []


def test_every_deckcheck_import_names_a_module_that_exists() -> None:
    # Imports inside functions only fail when the function runs: a moved module must not
    # leave such an import behind (found three times while merging issue 14's split).
    mods = set(_modules())
    missing = []
    for mod, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                if name.startswith("deckcheck") and name not in mods:
                    missing.append(f"{mod}:{node.lineno} {name}")
    assert missing == []


def test_one_record_mechanism_no_dataclasses() -> None:
    # Every record type is a deckcheck.records @record (fields written once, one compiled
    # __init__); tests/validate/test_records.py holds each to its fields.
    offenders = []
    for mod, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if "dataclasses" in names:
                offenders.append(f"{mod}:{node.lineno}")
    assert offenders == []


def test_the_service_is_a_top_floor_beside_the_commands() -> None:
    # deckcheck.service (issue 31) calls the services the commands call, never the commands
    # (nor the CLI); nothing below imports it: only `deckcheck serve` starts it.
    graph = import_graph()
    service = {m for m in graph if m == "deckcheck.service" or m.startswith("deckcheck.service.")}
    assert service, "deckcheck.service is missing"
    up = [
        f"{m} -> {d}"
        for m in service
        for d in graph[m]
        if d == "deckcheck.cli" or d.startswith("deckcheck.commands")
    ]
    assert up == []
    users = {m for m, deps in graph.items() if m not in service and deps & service}
    assert users == {"deckcheck.commands.serve"}


def _imports_and_names(path: Path) -> tuple[set[str], set[str]]:
    """Every module ``path`` imports (anywhere, absolute and deckcheck-relative, as written)
    and every bare name it calls."""
    imported: set[str] = set()
    called: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            called.add(node.func.id)
    return imported, called


def _reaching(package: str, forbidden: tuple[str, ...], calls: tuple[str, ...] = ()) -> list[str]:
    """``module: what`` for each module of ``package`` that imports a module starting with one
    of ``forbidden`` (deckcheck's, through the import graph too) or calls one of ``calls``."""
    graph = import_graph()
    out = []
    for mod, path in _modules().items():
        if mod != package and not mod.startswith(package + "."):
            continue
        imported, called = _imports_and_names(path)
        for name in sorted(imported | graph[mod]):
            if name == "." or name.split(".")[0] in ("__future__", "typing"):
                continue
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                out.append(f"{mod}: imports {name}")
        out += [f"{mod}: calls {c}()" for c in sorted(called & set(calls))]
    return out


def test_formats_never_opens_the_card_database() -> None:
    # docs/ARCHITECTURE.md: formats/ is handed its card resolvers; the database reaches it
    # only through deckcheck.cardnames (the default resolvers, an import's konami ids).
    # (sqlite3 in formats.official and formats.duellinks reads the upstream Duel Links
    # dev.db, a list file, never cards.sqlite3.)
    assert _reaching("deckcheck.formats", ("deckcheck.carddb",), ("open_db", "connect")) == []
    assert "deckcheck.cardnames" in import_graph()["deckcheck.formats.catalog"]  # seen


def test_rules_never_open_files() -> None:
    # docs/ARCHITECTURE.md: a rule works from its Context (the deck, the card source, the
    # format and list); carddb.extra_deck_bits is a pure function of a card's type bits.
    io = ("os", "io", "pathlib", "shutil", "sqlite3", "tempfile")
    ours = ("deckcheck.fsio", "deckcheck.paths", "deckcheck.sqlite", "deckcheck.cardnames")
    db = ("deckcheck.carddb.db", "deckcheck.carddb.importer", "deckcheck.staging")
    assert _reaching("deckcheck.rules", io + ours + db, ("open", "open_db")) == []


def test_renderers_never_query_the_database() -> None:
    # docs/ARCHITECTURE.md: a renderer gets Meta and DeckReports; names come in the reports.
    db = ("sqlite3", "deckcheck.carddb", "deckcheck.sqlite", "deckcheck.cardnames")
    assert _reaching("deckcheck.render", (*db, "deckcheck.lookup"), ("open_db",)) == []


def test_the_boundary_checks_see_a_forbidden_import() -> None:
    # the checks above would pass on a blind scan: each sees what it forbids where it is
    assert _reaching("deckcheck.rules.placement", ("deckcheck.carddb",))
    assert _reaching("deckcheck.formats.duellinks", ("sqlite3",), ("connect",))
    assert _reaching("deckcheck.render.html", ("os",))


def _third_party_imports(path: Path) -> set[str]:
    got: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            got.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            got.add(node.module.split(".")[0])
    return got


def test_the_deck_editor_is_on_the_top_floor() -> None:
    # deckcheck/tui (issue 29) sits beside commands/: only commands/ (which starts it) imports
    # it, it calls the services the commands call and never commands/ or cli.py, and only it
    # imports Textual (the optional extra deckcheck[tui]).
    graph = import_graph()
    top = ("deckcheck.cli", "deckcheck.commands")
    below = sorted(
        f"{m} -> {d}"
        for m, deps in graph.items()
        if not m.startswith(("deckcheck.tui", *top))
        for d in deps
        if d.startswith("deckcheck.tui")
    )
    assert below == []
    up = sorted(
        f"{m} -> {d}"
        for m, deps in graph.items()
        if m.startswith("deckcheck.tui")
        for d in deps
        if d.startswith(top)
    )
    assert up == []
    textual = sorted(
        m
        for m, p in _modules().items()
        if not m.startswith("deckcheck.tui")
        and _third_party_imports(p) & {"textual", "textual_serve"}
    )
    assert textual == []
