"""The rules configuration: every ruling D1–D20 and design lever L1–L4 as a named option, loaded from TOML by one
checking loader.

SI inside (metres, kilograms, radians); the file speaks millimetres, grams and degrees, like the CLI.
The defaults are exactly the rulings of `somaliland-rules.md`; `default-rules.toml` beside this module
spells them out, and `README.md` here documents each option.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from somaliland.errors import undecodable
from somaliland.rules.errors import RulesConfigError
from somaliland.rules.fleet import DEFAULT_FLEET, ShipSpec

MM, GRAM, DEG = 0.001, 0.001, math.pi / 180
DEFAULT_RULES_FILE = Path(__file__).with_name("default-rules.toml")
PIRATE_IGNORABLE = ("arrived", "held", "aground", "lost_turn", "off_board")


@dataclass(frozen=True, slots=True)
class Option:
    """How one config field is written in a rules file and which values it may take."""

    key: str  # the TOML key
    kind: str  # int, float, bool, choice, choices, ints, int_or (an integer or one of `allowed`)
    low: float = -math.inf
    high: float = math.inf
    allowed: tuple[str, ...] = ()
    scale: float = 1.0  # file unit in SI units


OPTIONS: dict[str, Option] = {
    "players": Option("players", "int", 2, 4),
    "rounds": Option("rounds", "int", 1, 50),
    "contract_values": Option("contract_values", "ints", 1, 10_000),
    "deal_size": Option("deal_size", "int", 1, 100),
    "taken_cards_leave_deck": Option("taken_cards_leave_deck", "bool"),
    "die_size": Option("die_size_mm", "float", 2, 200, scale=MM),
    "die_mass": Option("die_mass_g", "float", 0.01, 10_000, scale=GRAM),
    "draft_pass_is_final": Option("draft_pass_is_final", "bool"),
    "contract_cap": Option("contract_cap", "choice", allowed=("afloat", "fleet")),
    "first_player": Option("first_player", "choice", allowed=("random", "seat0")),
    "route_choice": Option("route_choice", "choice", allowed=("contract", "ship")),
    "pooled_allotment": Option("pooled_allotment", "bool"),
    "launch_pass_is_final": Option("launch_pass_is_final", "bool"),
    "pirates_ignore": Option("pirates_ignore", "choices", allowed=PIRATE_IGNORABLE),
    "held_release": Option("held_release", "choice", allowed=("port", "where_seized")),
    "release_spot": Option("release_spot", "choice", allowed=("open_sea", "in_port")),
    "after_release": Option("after_release", "choice", allowed=("at_sea", "held")),
    "pirate_targets": Option("pirate_targets", "choice", allowed=("full_route", "any_route")),
    "lost_turns": Option("lost_turns", "choice", allowed=("once", "add_up")),
    "pitchcar_order": Option("pitchcar_order", "choice", allowed=("furthest_first", "hindmost_first")),
    "pitchcar_ties": Option("pitchcar_ties", "choice", allowed=("turn_order", "seat_order")),
    "turns_per_round": Option("turns_per_round", "int", 1, 100),
    "max_moves": Option("max_moves", "int", 1, 100),
    "launch_is_first_move": Option("launch_is_first_move", "bool"),
    "grounding": Option("grounding", "choice", allowed=("bottom_centre", "footprint")),
    "grounding_on": Option("grounding_on", "choice", allowed=("path", "rest")),
    "coast_tolerance": Option("coast_tolerance_mm", "float", 0, 100, scale=MM),
    "collision_both_lose_turn": Option("collision_both_lose_turn", "bool"),
    "tipped_over": Option("tipped_over", "choice", allowed=("top_face", "top_value")),
    "off_board": Option("off_board", "choice", allowed=("nearest_sea", "nearest_board", "move_start")),
    "off_board_arrival": Option("off_board_arrival", "choice", allowed=("later_move", "same_throw")),
    "final_tie": Option("final_tie", "choice", allowed=("shared", "random")),
    "throw_tolerance": Option("throw_tolerance_mm", "float", 0, 1000, scale=MM),
    "launch_heading_tolerance": Option("launch_heading_tolerance_deg", "float", 0, 180, scale=DEG),
    "touch_tolerance": Option("touch_tolerance_mm", "float", 0, 100, scale=MM),
    # design levers (not rulings; each defaults to the rulebook)
    "ransom": Option("ransom", "choice", allowed=("top_face", "fixed", "share")),
    "ransom_fixed": Option("ransom_fixed", "int", 0, 1000),
    "ransom_share_percent": Option("ransom_share_percent", "int", 0, 100),
    "pirate_take": Option("pirate_take", "choice", allowed=("one", "per_traffic")),
    "pirate_take_every": Option("pirate_take_every", "int", 1, 100),
    "contract_cap_total": Option("contract_cap_total", "int_or", 0, 10_000, allowed=("fleet",)),
}


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """Every rule parameter and ruling option; defaults are the rules file's (R-items and D1–D20)."""

    players: int = 4  # R23: two to four
    rounds: int = 4  # R4, R23
    contract_values: tuple[int, ...] = tuple(range(30, 65, 2))  # R3: each value once North, once South
    deal_size: int = 9  # R4
    taken_cards_leave_deck: bool = True  # R4, R11: our reading; untaken cards go back into the deck
    fleet: tuple[ShipSpec, ...] = DEFAULT_FLEET  # R2, D1
    die_size: float = 16 * MM  # D1, metres (a cube)
    die_mass: float = 4 * GRAM  # D1, kilograms
    draft_pass_is_final: bool = True  # D2
    contract_cap: str = "afloat"  # D3: displacement of ships still afloat, or of the whole fleet
    first_player: str = "random"  # D4: drawn from the game's seed, or seat 0
    route_choice: str = "contract"  # D5: all ships of a contract take its route, or each ship its own
    pooled_allotment: bool = True  # D6
    launch_pass_is_final: bool = True  # D7
    pirates_ignore: tuple[str, ...] = ("arrived", "held")  # D8: ships never the nearest
    held_release: str = "port"  # D8: a released ship sails on from the port
    release_spot: str = "open_sea"  # D17: released in open sea two die edges clear; "in_port": where it was held
    after_release: str = "at_sea"  # D20: once set down, a ship at sea like any other; "held": immune until it sails
    pirate_targets: str = "full_route"  # D15: pirates take only full-value ships; "any_route": R13 read literally
    lost_turns: str = "once"  # D16: lost turns do not add up; "add_up": each accident adds one
    pitchcar_order: str = "furthest_first"  # D9
    pitchcar_ties: str = "turn_order"  # D9 ties: equally far along, the earlier in this round's play order first
    turns_per_round: int = 6  # D10
    max_moves: int = 6  # R15
    launch_is_first_move: bool = True  # D10
    grounding: str = "bottom_centre"  # D11
    grounding_on: str = "path"  # D19: aground wherever the die rolled over land; "rest": only where it stops (D11)
    coast_tolerance: float = 3 * MM  # D19: metres of rolling over land that still do not count as aground
    collision_both_lose_turn: bool = True  # D12
    tipped_over: str = "top_face"  # D12
    off_board: str = "nearest_sea"  # D13
    off_board_arrival: str = "later_move"  # R19, D13: a put-back ship arrives only later; "same_throw": at once
    final_tie: str = "shared"  # D14
    throw_tolerance: float = 30 * MM  # R16: metres between a throw's origin and where the ship stood
    launch_heading_tolerance: float = 45 * DEG  # R12: radians off the route's direction
    touch_tolerance: float = 1 * MM  # R20: metres between two dice still counted as touching
    # design levers (somaliland-rules.md, "Design levers"): not rulings; each defaults to the rulebook
    ransom: str = "top_face"  # L1: the top face's pips (R13); "fixed": ransom_fixed; "share": of the contract's value
    ransom_fixed: int = 2  # L1 "fixed": points a seizure costs (about the default fleet's mean top face)
    ransom_share_percent: int = 10  # L1 "share": per cent of the seized ship's contract value, rounded half up
    pirate_take: str = "one"  # L2: one ship a raid (R13); "per_traffic": one per pirate_take_every full-value ships
    pirate_take_every: int = 4  # L2 "per_traffic": full-value ships at sea per ship taken (at least one is taken)
    contract_cap_total: int | str = "fleet"  # L4: R6's total, "fleet" (its displacement, 74) or a number (D3 applies)

    def __post_init__(self) -> None:
        source = "<RulesConfig>"
        for name, option in OPTIONS.items():
            value = getattr(self, name)
            _check(source, option, value / option.scale if option.kind == "float" else value)
            if option.kind in ("choices", "ints"):
                object.__setattr__(self, name, tuple(value))
        object.__setattr__(self, "fleet", _check_fleet(source, self.fleet))


def _check(source: str, option: Option, value: Any) -> Any:
    """Return the value if it fits the option, else raise a located RulesConfigError."""
    key, kind = option.key, option.kind
    if kind == "bool":
        if not isinstance(value, bool):
            raise RulesConfigError(source, key, "true or false", value)
    elif kind in ("int", "float"):
        number_ok = isinstance(value, int) if kind == "int" else isinstance(value, (int, float))
        if isinstance(value, bool) or not number_ok or not option.low <= value <= option.high:
            raise RulesConfigError(source, key, f"{'an integer' if kind == 'int' else 'a number'} "
                                   f"from {option.low:g} to {option.high:g}", value)
    elif kind == "int_or":
        if value not in option.allowed and (isinstance(value, bool) or not isinstance(value, int)
                                            or not option.low <= value <= option.high):
            raise RulesConfigError(source, key, f"{', '.join(option.allowed)} or an integer from {option.low:g} "
                                   f"to {option.high:g}", value)
    elif kind == "choice":
        if value not in option.allowed:
            raise RulesConfigError(source, key, f"one of {', '.join(option.allowed)}", value)
    elif kind == "choices":
        if not isinstance(value, (list, tuple)) or any(v not in option.allowed for v in value):
            raise RulesConfigError(source, key, f"a list of {', '.join(option.allowed)}", value)
    elif kind == "ints":
        if (not isinstance(value, (list, tuple)) or not value or len(set(value)) != len(value)
                or any(isinstance(v, bool) or not isinstance(v, int) or not option.low <= v <= option.high
                       for v in value)):
            raise RulesConfigError(source, key, f"a non-empty list of distinct integers from "
                                   f"{option.low:g} to {option.high:g}", value)
    return value


def _to_field(option: Option, value: Any) -> Any:
    """Return a checked file value as the config field holds it (SI, tuples)."""
    if option.kind == "float":
        return float(value) * option.scale
    if option.kind in ("choices", "ints"):
        return tuple(value)
    return value


def _check_fleet(source: str, fleet: Any) -> tuple[ShipSpec, ...]:
    """Return the fleet as ShipSpecs: named ships, each with six non-negative integer faces (R2, D1)."""
    if not isinstance(fleet, (list, tuple)) or not fleet:
        raise RulesConfigError(source, "fleet", "a non-empty array of ships", fleet)
    ships = []
    for i, ship in enumerate(fleet):
        name, faces = (ship.name, ship.faces) if isinstance(ship, ShipSpec) else (
            (ship.get("name"), ship.get("faces")) if isinstance(ship, dict) else (None, None))
        if not isinstance(name, str) or not name or not name.replace("_", "").isalnum():
            raise RulesConfigError(source, f"fleet[{i}].name", "a non-empty name of letters and digits", name)
        if (not isinstance(faces, (list, tuple)) or len(faces) != 6
                or any(isinstance(f, bool) or not isinstance(f, int) or f < 0 for f in faces)):
            raise RulesConfigError(source, f"fleet[{i}].faces", "six non-negative integers", faces)
        if isinstance(ship, dict) and set(ship) - {"name", "faces"}:
            raise RulesConfigError(source, f"fleet[{i}]", "only the keys name, faces",
                                   sorted(set(ship) - {"name", "faces"}))
        ships.append(ShipSpec(name, tuple(faces)))  # type: ignore[arg-type]
    names = [s.name for s in ships]
    if len(set(names)) != len(names):
        raise RulesConfigError(source, "fleet", "ships with distinct names", names)
    return tuple(ships)


def rules_from_dict(data: dict[str, Any], source: str = "<dict>") -> RulesConfig:
    """Return the config a parsed rules file describes; missing keys keep their defaults.

    Raises:
        RulesConfigError: an unknown key or a value of the wrong type or range, naming source and key.
    """
    by_key = {option.key: name for name, option in OPTIONS.items()}
    known = sorted(by_key) + ["fleet"]
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "fleet":
            values["fleet"] = _check_fleet(source, value)
        elif key in by_key:
            option = OPTIONS[by_key[key]]
            values[by_key[key]] = _to_field(option, _check(source, option, value))
        else:
            raise RulesConfigError(source, key, _known_option(key, known), key)
    try:
        return RulesConfig(**values)
    except RulesConfigError as error:  # a cross-field check; re-located to the file
        raise RulesConfigError(source, error.key, error.expected, error.found) from None


def _known_option(key: str, known: list[str]) -> str:
    """Return what an unknown key should have been: the option it looks like a typo of, else every option."""
    import difflib

    guess = difflib.get_close_matches(key, known, n=1)
    every = f"every option with its default: somaliland/rules/{DEFAULT_RULES_FILE.name}"
    if guess:
        return f"a known option: did you mean {guess[0]!r}? ({every})"
    return f"a known option ({', '.join(known)}; {every})"


def load_rules(path: str | Path) -> RulesConfig:
    """Return the rules config in a TOML file.

    Args:
        path: the rules file.

    Raises:
        RulesConfigError: the file is missing, is not TOML, or holds a bad option (names file and key).
    """
    from somaliland.inputs import LimitError, load_toml, read_limited

    path = Path(path)
    try:
        raw = read_limited(path, "rules file")
        text = raw.decode("utf-8")
        data = load_toml(text, str(path))
    except OSError as error:
        raise RulesConfigError(str(path), "(file)", "a readable rules file", error.strerror) from None
    except LimitError as error:
        raise RulesConfigError(str(path), error.where, error.expected, error.found) from None
    except UnicodeDecodeError as error:
        line, byte = undecodable(raw, error)
        raise RulesConfigError(str(path), f"line {line}", "UTF-8 text", byte) from None
    except tomllib.TOMLDecodeError as error:
        message, _, where = str(error).partition(" (at line ")
        line = int(where.split(",")[0].rstrip(")")) if where else None
        raise RulesConfigError(str(path), "(syntax)", f"valid TOML{_syntax_hint(message, text, line)}", message,
                               line) from None
    try:
        if isinstance(data.get("rules"), dict):  # a study file's table, copied whole
            raise RulesConfigError(str(path), "rules", "the options at the top level of a rules file, not under a "
                                   "[rules] table (a study file's way of writing them)", "[rules]")
        return rules_from_dict(data, str(path))
    except RulesConfigError as error:  # located on the line that writes its key, as map files' problems are
        from somaliland.map.locate import find_line, line_index

        keys = tuple(int(part) if part.isdigit() else part for part in re.findall(r"[^.\[\]]+", error.key))
        raise RulesConfigError(error.source, error.key, error.expected, error.found,
                               find_line(line_index(text), keys)) from None


def _syntax_hint(message: str, text: str, line: int | None) -> str:
    """Return a hint for tomllib's "Invalid value": most often a text value written without quotes."""
    if not message.startswith("Invalid value"):
        return ""
    lines = text.splitlines()
    written = lines[line - 1] if line and line <= len(lines) else ""
    bare = re.fullmatch(r"\s*([\w-]+)\s*=\s*([A-Za-z_]\w*)\s*", written)
    example = f'{bare[1]} = "{bare[2]}"' if bare else 'ransom = "fixed"'  # this line's word quoted, when it is one
    return f" (text values are written in quotes, e.g. {example})"


def field_names() -> tuple[str, ...]:
    """Return the names of every config field."""
    return tuple(f.name for f in fields(RulesConfig))
