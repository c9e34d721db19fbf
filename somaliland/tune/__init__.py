"""Automatic balance tuning of maps and rules: `somaliland tune SPEC.toml` (experiments/README.md).

A tuning turns knobs (values of the map and rules files, geometric operations on map features) to
bring named balance measures to their goals, searching with Optuna, playing each candidate's games
through the study runner in rungs and stopping candidates whose intervals show they cannot reach the
front; then it validates the chosen candidate on fresh seeds.
"""

from somaliland.tune.spec import Tuning, load_tuning, parse_tuning

__all__ = ["Tuning", "load_tuning", "parse_tuning"]
