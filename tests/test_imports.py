"""The study and tune packages import each other's modules without circles, and only public names.

Every import counts, those inside functions too: a circle that a lazy import hides still ties two modules
into one, and a private name imported from another module is a helper that should be public.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("somaliland/study", "somaliland/tune")


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _imports(path: Path, known: set[str]) -> list[tuple[str, str]]:
    """Return (module, name) for every `from somaliland... import name` in a file, the names of modules resolved."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("somaliland"):
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                found.append((target, "") if target in known else (node.module, alias.name))
    return found


def _graph() -> dict[str, set[str]]:
    files = {_module(p): p for package in PACKAGES for p in (ROOT / package).glob("*.py") if p.name != "__init__.py"}
    known = set(files)
    return {m: {target for target, _ in _imports(p, known) if target in known} for m, p in files.items()}


def _circle(graph: dict[str, set[str]]) -> list[str]:
    """Return one circle of imports (a path back to its start), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(module: str, path: list[str]) -> list[str]:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target, path + [target])
                if found:
                    return found
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state:
            found = visit(module, [module])
            if found:
                return found
    return []


def test_no_module_of_study_or_tune_imports_itself_round_a_circle() -> None:
    assert _circle(_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]


def test_no_private_name_is_imported_from_another_module() -> None:
    known = {_module(p) for p in (ROOT / "somaliland").rglob("*.py")}
    private = [f"{path.relative_to(ROOT)}: {module}.{name}"
               for path in (ROOT / "somaliland").rglob("*.py")
               for module, name in _imports(path, known) if name.startswith("_") and not name.startswith("__")]
    assert private == []
