"""Layers that hold: every module of uu/ imports only modules of its own layer or lower ones, counting imports
inside functions and under TYPE_CHECKING (parsed with ast, like the cycle check of tests/test_layout.py).

Lowest first (docs/architecture.md, "Layers"):

    leaf modules (uu._first, uu.native, uu.htmlsafe, uu.textcheck, uu.yamlfile; the package uu itself)
    < cards < engine < scenario < bots < session < tutor < words and render < table < together < widgets
    < server < cli and benchmarks

The one exception is the display hook: a `_repr_html_` method may import the rendering layer (Jupyter calls
it to show an object; the object's own layer never does), so imports inside a function of that name are not
counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "uu"

LAYERS: list[tuple[str, ...]] = [
    ("uu", "uu._first", "uu.native", "uu.htmlsafe", "uu.textcheck", "uu.yamlfile", "uu.i18n"),
    ("uu.cards",),
    ("uu.engine",),
    ("uu.scenario",),
    ("uu.bots",),
    ("uu.session",),
    ("uu.tutor",),
    ("uu.words", "uu.render"),
    ("uu.table",),
    ("uu.together",),  # tables for several people: sessions the server holds, drawn by the widgets
    ("uu.widgets",),
    ("uu.server", "uu.lite"),  # the two ways the screens are served: Voila, or the static build in a browser
    ("uu.cli", "uu.benchmarks", "uu.lite.bench"),  # the static build's benchmark is a benchmark like the others
]

# Upward imports in modules other helpers are rewriting at the moment, each with the issue that removes it.
# The lead deletes an entry once its branch is merged; an entry that no longer happens fails the test, so the
# list only shrinks.
# An entry naming a module this tree does not have yet is waiting for the branch that adds it.
KNOWN: dict[tuple[str, str], str] = {
}


def layer_of(module: str) -> int:
    best, rank = -1, -1
    for i, names in enumerate(LAYERS):
        for n in names:
            if (module == n or module.startswith(n + ".")) and len(n) > best:
                best, rank = len(n), i
    if rank < 0:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")
    return rank


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def uu_imports(path: Path) -> set[str]:
    """The uu modules `path` imports anywhere (top level, in functions, under TYPE_CHECKING), except inside a
    `_repr_html_` function. `from uu.x import y` counts as importing uu.x.y when that is a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = module_name(path)
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "_repr_html_":
            return
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "uu")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            if base.split(".")[0] == "uu":
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    is_module = (PACKAGE.parent / Path(*sub.split("."))).with_suffix(".py").exists() or \
                        (PACKAGE.parent / Path(*sub.split(".")) / "__init__.py").exists()
                    out.add(sub if is_module else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def upward_imports() -> dict[tuple[str, str], str]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        name = module_name(path)
        mine = layer_of(name)
        for target in uu_imports(path):
            if layer_of(target) > mine:
                found[(name, target)] = f"{name} (layer {mine}) imports {target} (layer {layer_of(target)})"
    return found


def test_no_module_imports_a_higher_layer() -> None:
    found = upward_imports()
    new = {k: v for k, v in found.items() if k not in KNOWN}
    assert not new, "upward imports:\n" + "\n".join(sorted(new.values()))


def test_the_known_exceptions_still_exist() -> None:
    """An exception that no longer happens is removed from KNOWN, so the list only shrinks."""
    found = upward_imports()
    here = {module_name(p) for p in PACKAGE.rglob("*.py")}
    gone = [f"{a} -> {b} ({why})" for (a, b), why in KNOWN.items()
            if (a, b) not in found and a in here and b in here]
    assert not gone, "no longer upward, remove from KNOWN:\n" + "\n".join(gone)


@pytest.mark.parametrize("source,expected", [
    ("from uu.render import board_html\n", {"uu.render"}),
    ("def f():\n    import uu.widgets.tutor_app\n", {"uu.widgets.tutor_app"}),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from uu.server import patches\n",
     {"uu.server.patches"}),
    ("class G:\n    def _repr_html_(self):\n        from uu.render import STYLE\n", set()),
])
def test_the_import_reader_sees_every_kind_of_import(tmp_path: Path, source: str, expected: set[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = PACKAGE / "engine" / "_layers_probe.py"
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: source if self == path else "")
    assert uu_imports(path) == expected
    if expected:
        assert max(layer_of(m) for m in expected) > layer_of("uu.engine._layers_probe")
