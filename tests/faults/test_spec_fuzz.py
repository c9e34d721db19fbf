"""Issue 18: mutated study files each get a located one-line answer or load; none raises anything else.

A sample of the fuzz run (`python tests/faults/fuzz_specs.py 1000` runs the full one).
"""

from fuzz_specs import fuzz


def test_mutated_study_files_get_located_answers_and_no_traceback():
    counts, bad = fuzz(300, seed=18)
    assert bad == [] and counts["traceback"] == counts["unlocated"] == 0
    assert counts["located"] > 200 and counts["loaded"] > 20  # the mutants reach both sides
