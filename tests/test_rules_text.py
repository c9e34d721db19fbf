"""The rules text kept in the repository (docs/rules/) is the project's shared rules text, word for word, so a
clone without the shared folder still has the R and D items the code and tests cite."""

import hashlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
KEPT = {"somaliland-rules.md": "somaliland-rules.md", "seeds/somaliland-rules-pl.txt": "seeds/somaliland-rules-pl.txt"}
# sha256 of each text as last copied from the shared folder: a clone without it (CI) still notices an edit of the
# kept copy; where the shared folder is, the test below also checks that these are the shared texts' digests
COPIED = {"somaliland-rules.md": "4eb16193d72faba633f5d9acce47cc1651fd802150abf2f714c7ea368f1446e9",
          "seeds/somaliland-rules-pl.txt": "bcded15348ca65d87d188898dec7a33141be90bbd814c551287c58f251d65f7f"}


@pytest.mark.parametrize("name", sorted(KEPT))
def test_the_kept_rules_text_is_the_one_last_copied_from_the_shared_folder(name):
    kept = hashlib.sha256((ROOT / "docs" / "rules" / KEPT[name]).read_bytes()).hexdigest()
    assert kept == COPIED[name], f"docs/rules/{KEPT[name]} was edited: the rules text is the shared one, copied in whole"


@pytest.mark.parametrize("name", sorted(KEPT))
def test_the_kept_rules_text_is_the_shared_one(name):
    shared = SHARED / name
    if not shared.is_file():
        pytest.skip(f"no shared rules text at {shared} to compare with (a clone elsewhere): the kept copy stands")
    assert (ROOT / "docs" / "rules" / KEPT[name]).read_bytes() == shared.read_bytes(), (
        f"docs/rules/{KEPT[name]} differs from {shared}: copy the shared text in again")
    assert hashlib.sha256(shared.read_bytes()).hexdigest() == COPIED[name], f"pin the new {name}'s sha256 in COPIED"


def test_every_item_the_code_cites_is_in_the_kept_rules_text():
    """Every R or D item named anywhere in the code (docstrings, comments, messages) is defined in the text."""
    import re

    defined = set(re.findall(r"\b([RD]\d{1,2})\b", (ROOT / "docs" / "rules" / "somaliland-rules.md").read_text("utf-8")))
    cited = {}
    for package in ("somaliland", "physics"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for item in re.findall(r"\b([RD]\d{1,2})\b", path.read_text(encoding="utf-8")):
                cited.setdefault(item, path.relative_to(ROOT))
    assert {"R12", "R17", "D15"} <= set(cited)
    assert {item: str(where) for item, where in cited.items() if item not in defined} == {}
