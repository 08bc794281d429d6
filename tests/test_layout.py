"""The package's shape: no import cycle between its modules (imports inside functions count too), every
module opens with a docstring that says what it is for, and no two modules share a file name.

A module is split by idea, never by length: its docstring names its one responsibility, so a reader knows
what belongs in it before reading it, and a module that needs "and" twice to say what it does is the one to
split. (A line limit used to stand here; it bent the code to fit a count instead of shaping it.)

A module's file name names its idea, so two ideas never share one: `review.py` in four packages made a reader
(and a search, a traceback, an editor tab) guess which review was meant. A package's own files
(`__init__.py`, `__main__.py`) are the exception: they are named by the language, not by an idea."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "uu"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules `name` imports anywhere in its file (a `from pkg import mod` names the module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    here = name.split(".") if is_pkg else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def package_graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    graph = {name: imports_of(name, path, known) for name, path in mods.items()}
    # a package's __init__ re-exporting its own modules is not a cycle with them: drop package -> child edges
    # and child -> parent-package edges only when the child imports a sibling through the package
    for name in graph:
        graph[name] = {t for t in graph[name] if not t.startswith(name + ".")}
    return graph


def test_no_import_cycles() -> None:
    graph = package_graph()
    # importing a package runs its __init__, which may import its children: count "child -> its package" as an
    # edge to the modules the __init__ imports, which the graph already does
    cycles = find_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_every_module_says_what_it_is_for() -> None:
    silent = sorted(name for name, path in modules().items()
                    if len((ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "").split()) < 4)
    assert not silent, f"modules without a docstring that says what they are for: {silent}"


def duplicated_file_names(paths: list[Path]) -> dict[str, list[str]]:
    """File names used by more than one module, each with the modules that use it (package files aside)."""
    by_name: defaultdict[str, list[str]] = defaultdict(list)
    for p in paths:
        if p.name not in ("__init__.py", "__main__.py"):
            by_name[p.name].append(module_name(p))
    return {n: sorted(ms) for n, ms in sorted(by_name.items()) if len(ms) > 1}


def test_the_duplicate_check_sees_a_shared_name_and_nothing_else() -> None:
    found = duplicated_file_names([PACKAGE / "tutor" / "review.py", PACKAGE / "words" / "review.py",
                                   PACKAGE / "words" / "__init__.py", PACKAGE / "tutor" / "__init__.py",
                                   PACKAGE / "bots" / "hint.py"])
    assert found == {"review.py": ["uu.tutor.review", "uu.words.review"]}


def test_no_two_modules_share_a_file_name() -> None:
    shared = duplicated_file_names(list(modules().values()))
    assert not shared, ("modules that share a file name (rename each by its idea, e.g. review_screen.py): "
                        + "; ".join(f"{n}: {', '.join(ms)}" for n, ms in shared.items()))
