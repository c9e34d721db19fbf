"""The committed studies stay reproducible: fixed games must play exactly as the code that played them did.

`experiments/results/` holds games played by earlier commits. A change that alters what a seed plays (the
physics, the AI, a rule default) must be deliberate: re-run the studies, then update the digests below. A
pure speed-up must leave them alone. Since the D9 tie fix, the studies played before it are reproduced with
`pitchcar_ties = "seat_order"`, the behaviour of the code that played them; since D15-D17 and the R19/D13
ruling became the defaults, with their variants too (`OLD_RULES`).
"""

import hashlib
import json

import pytest

from somaliland.engine.loop import play_game
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from
from somaliland.map import load
from somaliland.players.hand import ThrowSkill
from somaliland.rules import RulesConfig

# (players, strategies, seed) -> (throws, digest of every record line after the header), measured with
# the code that played experiments/results/ before the D9 tie fix (commit 3d4aece)
# the rules the committed studies were played with, where the defaults have changed since
OLD_RULES = dict(pitchcar_ties="seat_order", pirate_targets="any_route", lost_turns="add_up", release_spot="in_port",
                 off_board_arrival="same_throw")
FROZEN = {
    (2, "ev", 1000): (85, "31355c9c60cf2baa"),
    (3, "cautious,bold,ev", 1001): (129, "35f22ee9e1f83cb2"),
}


def record_digest(events: list[dict]) -> str:
    """Return a short digest of a game's record lines, the header (which names file paths) left out."""
    return hashlib.sha256(json.dumps(events[1:], sort_keys=True, default=str).encode()).hexdigest()[:16]


@pytest.mark.parametrize("players, strategies, seed", list(FROZEN))
def test_fixed_games_play_as_the_committed_studies_did(roller, players, strategies, seed):
    seats = seats_from(strategies.split(","), players, ThrowSkill.level(0.6))
    rules = RulesConfig(players=players, **OLD_RULES)
    result = play_game(GameSetup(seed=seed, seats=seats, rules=rules), load(DEFAULT_MAP), roller)
    throws, digest = FROZEN[(players, strategies, seed)]
    assert (result.throws, record_digest(result.events)) == (throws, digest), (
        "this code plays a fixed seed differently from the code that played experiments/results/: if that is "
        "intended, re-run the studies (experiments/README.md) and update FROZEN")
