"""Fuzz the study loader (issue 18): mutated study files get a located one-line answer or load; never a traceback.

Each mutant is a shipped study (or the tiny test study) with one to three random edits: a line deleted,
duplicated, swapped, truncated or added, a value replaced by one of another type or range, a key renamed,
bytes garbled, a value or a key nested 500 deep, the file made larger than a study file may be. Each goes
through what `somaliland study run` checks before its first game (`load_study`, then the policy factory). A
located answer starts with the file (and its line, where one is known) and names the place (a key, a cell or a line) and the reason (`expected
..., found ...`).

    python tests/faults/fuzz_specs.py [MUTANTS [SEED]]     # default: 1000 mutants, seed 18
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent)]  # the checkout, and tests/ (scripted players)

from mutations import edit_lines, huge, nest_deep, run_fuzz  # noqa: E402
from somaliland.inputs import LIMITS  # noqa: E402
from somaliland.study import StudyError, load_study  # noqa: E402
from somaliland.study.runner import check_factory  # noqa: E402

ROOT = HERE.parents[1]
VALUES = ['-1', '0', '1', '2', '5', '1.5', '-0.0', 'inf', 'nan', '1e308', '9223372036854775807', 'true', '""',
          '"x"', '"evv"', '"bold"', '"per_game"', '"../maps/tiny.toml"', '"missing.toml"', '"\\u0000\\n"', '[]',
          '[1, 2]', '["ev", 3]', '[[1]]', '{}', '{ rolls = 65 }', '{ tumble = "fast" }', '{ depth = 1 }',
          '1979-05-27', '"module:function"', '"scripted:scripted_factory"', '"a:b:c"', '[0.5, -1]', '[960, 500]']
LINES = ['strategy = "bold"', 'strategy = ["ev", "nobody"]', 'skill = 2', '[seat.5]', '[seat.0]', '[seat.x]',
         'params = { rolls = 65 }', 'params = { depth = 2 }', 'policy_factory = "no_such:thing"',
         'policy_factory = "os:getcwd"', 'map = "missing.toml"', 'map = "../maps/tiny.toml"', '[sweep]',
         '"seats.skill" = [0.1, 7]', '"seat.1.params.tumble" = [0.0, "a"]', '"map" = ["", 3]', '[[sweep]]',
         '"rules.players" = [1, 5]', '"physics.rate_hz" = [960, 7]', '[physics]', 'world = "fast"', 'rate_hz = 0',
         '[rules]', 'pirate_targets = "everyone"', 'rounds = 0', 'name = 3', 'question = ["?"]', 'colour = "red"',
         'master_seed = -3', 'games_per_cell = 0', '"seats.strategy" = ["ev", "x"]', '"sweep.x" = [1]', '= 1', '[',
         '"seat.0.strategy" = [["ev"]]', 'sample_hz = 61', '"rules.rounds" = []']


def bases() -> list[str]:
    """Return the study texts mutated: every shipped study (map paths made absolute) and a tiny one."""
    texts = [p.read_text(encoding="utf-8").replace('"../maps/', f'"{ROOT}/maps/')
             for p in sorted((ROOT / "experiments").glob("*.toml"))]
    tiny = ROOT / "maps" / "tiny.toml"
    texts.append(f'name = "tiny"\nmap = "{tiny}"\nmaster_seed = 1\ngames_per_cell = 3\n'
                 f'policy_factory = "scripted:scripted_factory"\n[rules]\nplayers = 2\nrounds = 1\n[seats]\n'
                 f'strategy = ["africa", "somalia"]\nskill = 0.75\n[sweep]\n"seats.skill" = [0.5, 1.0]\n')
    return texts


def mutate(text: str, rng: random.Random) -> bytes:
    """Return the text with one to three random edits, as bytes (some edits are not UTF-8)."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.05:
            lines = nest_deep(lines, rng)
        else:
            lines = edit_lines(lines, rng, VALUES, LINES, ["-1", "0", "1e9", "0.5", "65"])
    data = "\n".join(lines).encode("utf-8")
    if rng.random() < 0.02:
        return huge(data, LIMITS["study file"])
    if rng.random() < 0.05:  # a garbled byte: not UTF-8, or a control character
        k = rng.randrange(len(data) + 1)
        data = data[:k] + bytes([rng.choice([0x00, 0x07, 0xff, 0xc3, 0x80])]) + data[k:]
    return data


def answer(path: Path) -> tuple[str, str]:
    """Return ("loaded" | "located" | "unlocated" | "traceback", the message) for one study file."""
    try:
        study = load_study(path)
        check_factory(study)
    except StudyError as error:
        message = str(error)
        located = (re.match(rf"{re.escape(str(path))}(:\d+)?: ", message) is not None
                   and ": expected " in message and ", found " in message
                   and "\n" not in message and error.key)
        return ("located" if located else "unlocated"), message
    except Exception as error:  # what the fuzz hunts: any other exception would reach the user as a traceback
        return "traceback", f"{type(error).__name__}: {error}"
    return "loaded", ""


def fuzz(mutants: int, seed: int) -> tuple[Counter, list[tuple[str, str]]]:
    """Return the count of each kind of answer to `mutants` mutated studies, and the bad answers with their text."""
    return run_fuzz(mutants, seed, {f"study{k}.toml": text for k, text in enumerate(bases())}, mutate, answer)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    counts, bad = fuzz(n, int(sys.argv[2]) if len(sys.argv) > 2 else 18)
    for text, message in bad[:5]:
        print(f"--- {message}\n{text}\n")
    print(f"{n} mutated study files: {counts['located']} located errors, {counts['loaded']} loaded, "
          f"{counts['unlocated']} unlocated errors, {counts['traceback']} tracebacks")
    sys.exit(1 if bad else 0)
