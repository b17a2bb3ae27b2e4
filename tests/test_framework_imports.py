"""The package's modules import each other in one direction (docs/developing.md, "Layout"): no import cycle,
counting the imports inside functions, which hide a cycle from Python but not from a reader; and no framework
module imports a particular game (the registry loads games by name)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "analyzer"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _base(name: str, node: ast.ImportFrom) -> str:
    """The module a `from ... import` names, made absolute."""
    if not node.level:
        return node.module or ""
    package = name if _is_package(name) else name.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _known(name: str) -> str | None:
    """`name`, or the nearest enclosing module of ours (`analyzer.kernel.Event` -> analyzer.kernel)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str) -> set[str]:
    """Every module of ours that `name` imports anywhere in its file, functions included. `from . import x`
    is an edge to the submodule x where there is one, else to the package's __init__."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {_known(a.name) for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _base(name, node)
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else _known(base) for a in node.names}
    return found - {None, name}


GRAPH = {name: imports(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _game(name: str) -> str | None:
    """The game a module belongs to (analyzer.games.pig.engine -> pig), None for the framework."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" and name != "analyzer.games.base" else None


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_relative_imports_resolve_to_modules():
    assert "analyzer.kernel" in GRAPH["analyzer.games.pig.engine"]
    assert "analyzer.games.pig.engine" in GRAPH["analyzer.games.pig"]


def test_no_import_cycle_among_the_packages_modules():
    found = cycles(GRAPH)
    assert not found, "import cycles (function-level imports included): " + "; ".join(" <-> ".join(c) for c in found)


def test_the_framework_imports_no_game():
    wrong = sorted(f"{a} -> {b}" for a, targets in GRAPH.items() if _game(a) is None
                   for b in targets if _game(b) is not None)
    assert not wrong, "framework modules importing a game (load it through analyzer.games.get): " + ", ".join(wrong)


def test_no_game_imports_another():
    wrong = sorted(f"{a} -> {b}" for a, targets in GRAPH.items() for b in targets
                   if _game(a) and _game(b) and _game(a) != _game(b))
    assert not wrong, ", ".join(wrong)
