"""Simulation settings: step rate, path sampling, settle detection, time cap, tolerances."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from physics.errors import PhysicsInputError, check_finite


INTEGER_FIELDS = ("rate_hz", "sample_hz", "settle_samples", "solver_iterations")
CHOICE_FIELDS = {"world": ("per_roll", "per_game")}  # text fields and their values; the rest are numbers
# settings younger than some records: the value every roll of a record made before them was simulated at
BEFORE = {"world": "per_roll"}
# settings that are no more, as older records and study files name them: the one value each is still read at (how
# every roll is simulated now) and what to say of any other
RETIRED = {"fidelity": ("full", 'the fast fidelity (rolls taken from a library) was removed; only "full" physics '
                                "is simulated, so a game played at another fidelity cannot be re-simulated")}


@dataclass(frozen=True, slots=True)
class SimSettings:
    """How a roll is simulated.

    The defaults are the settings games use; every validation test passes at them. At 960 Hz a die
    released from 3 cm sinks under 1 mm into the board on impact (240 Hz: 3 mm).
    """

    rate_hz: int = 960  # physics steps per simulated second
    sample_hz: int = 60  # path samples per second; settle checks happen at this rate
    settle_speed: float = 2e-3  # m/s: a die slower than this ...
    settle_spin: float = 5e-2  # rad/s: ... and turning slower than this is still
    settle_samples: int = 4  # ... for this many consecutive samples
    max_time: float = 15.0  # s: the cap; a roll still moving then is reported with cap_hit
    cocked_deg: float = 5.0  # a die whose up face tilts more than this rests cocked
    contact_distance: float = 1e-4  # m: dice nearer than this touch
    reach_margin: float = 0.005  # m: extra room when deciding which resting dice a move can reach
    # a push spins the die this many times the critical tipping rate. Measured on a 16 mm cube at the
    # default materials: 1.02 to 1.75 tips it exactly once; 1.9 and above tips it twice.
    push_overdrive: float = 1.35
    solver_iterations: int = 50
    # check, after every step, that no die touched a die that was not yet in the world or whose pair
    # was not being watched (raises PhysicsError); slow, for tests of the reach bound
    audit: bool = False
    # "per_game" (the default): the rolls of a game (from `new_game` on, on its board) share one Bullet world,
    # each roll's dice removed after it: about a fifth less CPU per game than building a world for every roll,
    # but Bullet's broadphase keeps state from roll to roll, so a roll's result also depends on the game's rolls
    # before it (a game stays deterministic from its seed, and replays whole). "per_roll": every roll builds a
    # fresh world, so a roll's result depends on its scene and throw alone (the committed studies were played
    # so; 2,000 games of each agree on every balance measure). A roller not begun for a game rolls per roll.
    # physics/README.md.
    world: str = "per_game"

    def __post_init__(self) -> None:
        for name, values in CHOICE_FIELDS.items():
            if getattr(self, name) not in values:
                raise PhysicsInputError(name, getattr(self, name), " or ".join(f'"{v}"' for v in values))
        for name in INTEGER_FIELDS:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise PhysicsInputError(name, v, "a positive integer")
        if self.rate_hz % self.sample_hz:
            raise PhysicsInputError("sample_hz", self.sample_hz, f"a divisor of rate_hz={self.rate_hz}")
        if self.sample_hz < 60:
            raise PhysicsInputError("sample_hz", self.sample_hz, "at least 60 (replays need 60 Hz paths)")
        check_finite("rate_hz", self.rate_hz, 60, 20000)
        check_finite("settle_speed", self.settle_speed, 1e-6, 1.0, unit=" m/s")
        check_finite("settle_spin", self.settle_spin, 1e-6, 10.0, unit=" rad/s")
        check_finite("max_time", self.max_time, 0.1, 600.0, unit=" s")
        check_finite("cocked_deg", self.cocked_deg, 0.0, 45.0, unit=" deg")
        check_finite("contact_distance", self.contact_distance, 0.0, 0.01, unit=" m")
        check_finite("reach_margin", self.reach_margin, 0.0, 1.0, unit=" m")
        check_finite("push_overdrive", self.push_overdrive, 0.5, 3.9)

    @property
    def shares_world(self) -> bool:
        """Return True if a game's rolls share one world, so a roll depends on the game's rolls before it.

        The one place that reads `world`: the roller builds worlds by it, and whoever must know whether a roll
        stands alone (practice rolls, re-simulating one throw of a record) asks this.
        """
        return self.world == "per_game"

    @property
    def dt(self) -> float:
        """Return the physics step in seconds."""
        return 1.0 / self.rate_hz

    @property
    def steps_per_sample(self) -> int:
        """Return the physics steps between two path samples."""
        return self.rate_hz // self.sample_hz


def recorded_fields(values: Mapping[str, Any]) -> dict[str, Any]:
    """Return the settings a record's header names, with those it lacks (`BEFORE`) at the value its rolls were
    simulated at, less the retired ones (`current_fields`).

    Raises:
        PhysicsInputError: a retired setting at a value no roll is simulated at now.
    """
    return current_fields({**BEFORE, **values})


def current_fields(values: Mapping[str, Any]) -> dict[str, Any]:
    """Return settings as a mapping names them (a record's header, a study's `[physics]` table), less the retired
    settings (`RETIRED`) at the value every roll is simulated at now.

    Raises:
        PhysicsInputError: a retired setting at any other value (names it and why it cannot be simulated).
    """
    for name, (kept, why) in RETIRED.items():
        if name in values and values[name] != kept:
            raise PhysicsInputError(name, values[name], f'"{kept}": {why}')
    return {k: v for k, v in values.items() if k not in RETIRED}
