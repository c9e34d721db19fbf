"""A tuning folder's state damaged: `optuna.db` cut short or overwritten, `progress.json` emptied or cut.

Both are recovered, each with one warning line naming the file and what is wrong with it: the damaged
database is set aside and the search asks its trials again, which (seeded by trial, their games kept in their
folders) gives the same trials and plays no game again; a damaged progress file only loses the time spent
before, counted as 0.
"""

import shutil
import time

import pytest
from support import tune_json


def cut(path, keep):
    path.write_bytes(path.read_bytes()[:keep(path.stat().st_size)])


DAMAGE = {
    "optuna.db random": ("optuna.db", lambda p: p.write_bytes(bytes(range(256)) * 200),
                         "damaged (file is not a database); set aside as optuna.db.damaged"),
    "optuna.db cut": ("optuna.db", lambda p: cut(p, lambda size: size // 2),
                      "damaged (database disk image is malformed); set aside as optuna.db.damaged"),
    "progress.json empty": ("progress.json", lambda p: p.write_text(""), "damaged (Expecting value"),
    "progress.json cut": ("progress.json", lambda p: cut(p, lambda size: size - 3), "damaged ("),
}


@pytest.mark.parametrize("case", DAMAGE)
def test_damaged_tune_state_is_recovered_with_one_warning(tuned, tmp_path, case):
    path, out, whole = tuned
    name, damage, said = DAMAGE[case]
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    damage(copy / name)
    started = time.monotonic()
    code, summary, err = tune_json(path, copy)
    elapsed = time.monotonic() - started
    assert code == 0, err
    assert err.count("\n") == 1 and err.startswith(f"somaliland tune: {copy / name}: {said}"), err
    assert summary["played_now"] == 0  # every game was found in the candidates' folders
    for key in ("trials", "chosen", "values", "validation", "search_games"):
        assert summary[key] == whole[key], key
    if name == "optuna.db":
        assert (copy / "optuna.db.damaged").exists()  # kept, set aside, not deleted
    else:
        # the time spent before is lost (the total counts this run alone), and only that (the trials are kept)
        assert summary["seconds"] <= elapsed + 0.5
