"""Issue 18: mutated map files and drawings each load (import) or get located answers; none raises anything else.

A sample of the fuzz runs (`python tests/faults/fuzz_maps.py 1000` and `... --svg 300` run the full ones).
"""

from fuzz_maps import fuzz, fuzz_svgs


def test_mutated_map_files_get_located_answers_and_no_traceback():
    counts, bad = fuzz(150, seed=18)  # among them a tenth nested 500 deep or larger than a map may be
    assert bad == [] and counts["traceback"] == counts["unlocated"] == 0
    assert counts["located"] > 100 and counts["loaded"] > 5  # the mutants reach both sides


def test_mutated_drawings_import_or_get_answers_located_in_the_svg():
    counts, bad = fuzz_svgs(30, seed=18)
    assert bad == [] and counts["traceback"] == counts["unlocated"] == 0
    assert counts["located"] > 15 and counts["imported"] > 3
