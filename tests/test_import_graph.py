"""meeple's import graph has no cycles, deferred imports included (issue 35; docs/engine.md).

The graph is read from the source with :mod:`ast`, not by importing: an edge ``A -> B`` for
every ``import B`` / ``from B import x`` / ``from A's package import B`` anywhere in module
``A``, at module level or inside a function (a deferred import hides a cycle from the
interpreter, not from a reader). Imports under ``if TYPE_CHECKING:`` are left out: they never
run. A cycle is a strongly connected component of more than one module; the test names every
edge inside it, with its line, so whoever breaks the rule sees where.

The architecture rules of the guide are checked on the same graph: the engine imports nothing
else of meeple, games import only the engine (and their own package), and nothing imports the
interfaces (cli, terminal, server) except the interfaces.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
INTERFACES = ("meeple.cli", "meeple.terminal", "meeple.server")


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    deferred: bool

    def __str__(self) -> str:
        return (f"{self.source}:{self.line} -> {self.target}"
                f"{' (inside a function)' if self.deferred else ''}")


def modules(src: Path = SRC) -> dict[str, tuple[Path, bool]]:
    """Every module under ``src/meeple``: dotted name -> (file, is a package)."""
    out: dict[str, tuple[Path, bool]] = {}
    for path in sorted((src / "meeple").rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (path, package)
    return out


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def import_edges(known: dict[str, tuple[Path, bool]]) -> list[Edge]:
    """Every import between meeple modules (see the module docstring), one edge per
    (source, target) pair: its first occurrence."""
    edges: dict[tuple[str, str], Edge] = {}
    for name, (path, package) in known.items():
        here = name if package else name.rpartition(".")[0]

        def add(target: str, node: ast.stmt, deferred: bool, source: str = name) -> None:
            if target in known and target != source:
                edges.setdefault((source, target), Edge(source, target, node.lineno, deferred))

        def visit(node: ast.AST, deferred: bool, here: str = here) -> None:
            for child in ast.iter_child_nodes(node):
                if _type_checking_only(child):
                    for other in child.orelse:
                        visit(other, deferred)
                    continue
                inner = deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                if isinstance(child, ast.Import):
                    for alias in child.names:
                        add(alias.name, child, inner)
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        parts = here.split(".")
                        parts = parts[:len(parts) - child.level + 1]
                        base = ".".join(parts + ([child.module] if child.module else []))
                    for alias in child.names:
                        full = f"{base}.{alias.name}"
                        add(full if full in known else base, child, inner)
                visit(child, inner)

        visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return list(edges.values())


def cycles(edges: list[Edge]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm,
    iterative), each sorted."""
    graph: dict[str, list[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, []).append(edge.target)
        graph.setdefault(edge.target, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_the_scan_finds_imports_at_every_level_and_skips_type_checking(tmp_path: Path) -> None:
    package = tmp_path / "meeple"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from meeple.sub import b\n")
    (package / "sub" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from meeple import c\n"
        "def f():\n    from . import b\n")
    (package / "sub" / "b.py").write_text("import meeple.sub.a\n")
    (package / "c.py").write_text("from meeple.sub.a import f\n")
    known = modules(tmp_path)
    found = {(e.source, e.target, e.deferred) for e in import_edges(known)}
    assert found == {("meeple.sub", "meeple.sub.b", False),
                     ("meeple.sub.a", "meeple.sub.b", True),
                     ("meeple.sub.b", "meeple.sub.a", False),
                     ("meeple.c", "meeple.sub.a", False)}
    assert cycles(import_edges(known)) == [["meeple.sub.a", "meeple.sub.b"]]


def test_meeple_has_no_import_cycle_deferred_or_not() -> None:
    edges = import_edges(modules())
    assert len(edges) > 300  # the scan saw the real package
    found = cycles(edges)
    report = []
    for component in found:
        members = set(component)
        report.append(f"{len(component)} modules: " + "; ".join(
            str(e) for e in edges if e.source in members and e.target in members))
    assert not found, "import cycles:\n" + "\n".join(report)


def test_dependencies_point_one_way() -> None:
    wrong = []
    for edge in import_edges(modules()):
        source, target = edge.source, edge.target
        if _within(source, "meeple.engine") and not _within(target, "meeple.engine"):
            wrong.append(f"the engine imports nothing else of meeple: {edge}")
        if _within(source, "meeple.games") and source != "meeple.games":
            own = ".".join(source.split(".")[:3])
            if not (_within(target, "meeple.engine") or _within(target, own)):
                wrong.append(f"a game imports only the engine and itself: {edge}")
        if (any(_within(target, i) for i in INTERFACES)
                and not any(_within(source, i) for i in INTERFACES)
                and source != "meeple.__main__"):
            wrong.append(f"nothing depends on the interfaces: {edge}")
    assert not wrong, "\n".join(wrong)
