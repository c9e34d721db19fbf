"""The rules package keeps its promises: every rule of play and ruling has a test, every function a docstring."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
RULES = ROOT / "somaliland" / "rules"
RULES_OF_PLAY = [f"R{i}" for i in range(1, 24)]  # R24 (amounts mean nothing) is not a rule of play
RULINGS = [f"D{i}" for i in range(1, 18)]  # D18 (the board) is a map ruling, not a rule of play
LEVERS = [f"L{i}" for i in range(1, 5)]  # the design levers


def test_every_rule_of_play_and_every_ruling_is_named_by_a_test() -> None:
    names = " ".join(re.findall(r"def (test_\w+)", " ".join(p.read_text() for p in ROOT.glob("tests/test_rules_*.py"))))
    cited = set(re.findall(r"_([RDL]\d+)(?=_)", names))
    assert [item for item in RULES_OF_PLAY + RULINGS + LEVERS if item not in cited] == []


def test_every_public_function_has_a_one_line_docstring_and_modules_stay_small() -> None:
    missing = []
    for path in sorted(RULES.glob("*.py")):
        text = path.read_text()
        assert len(text.splitlines()) < 300, path.name
        tree = ast.parse(text)
        assert ast.get_docstring(tree), path.name
        tops = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        members = [m for n in tops if isinstance(n, ast.ClassDef) for m in n.body if isinstance(m, ast.FunctionDef)]
        for node in tops + members:
            if not node.name.startswith("_"):
                doc = ast.get_docstring(node)
                if not doc or not doc.splitlines()[0].endswith("."):
                    missing.append(f"{path.name}:{node.name}")
    assert missing == []


def test_every_event_kind_is_documented() -> None:
    kinds = re.findall(r'kind: str = field\(default="(\w+)"', (RULES / "events.py").read_text())
    doc = (RULES / "README.md").read_text()
    assert len(kinds) == 13 and [k for k in kinds if f"| `{k}` |" not in doc] == []
