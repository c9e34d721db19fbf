"""The `search` strategy: each throw chosen by simulating candidate throws through the physics, under its own hand model.

As the programs of noisy physical shots do (computer curling: Yee et al. 2016; billiards: PickPocket, Archer
2007/2008), the player evaluates a throw by rolling it, many times, as its hand might make it:

1. **Candidates**: the best of what `ev` would throw at every carry (`aim.rank`: the analytic aim's ranking on
   the map in play; `spread_by_carry`), and throws around ev's best, heading and carry drawn with the hand's own spread (a launch kept
   within the launch tolerance of the leg's heading, R12; every throw from where the ship stands, R16).
2. **Samples**: candidates are rolled through the roller, on the scene that mirrors the
   state (a new frozen `Scene`, so the game's state is untouched) on a private roller of the game's settings
   whose world is built afresh by each decision and kept for its rolls (`practice_world`), each time
   scattered by the player's *model* of its hand (`hand.execute` with its own `heading_sd_deg` and
   `speed_sd`). The scatter comes from the decision's own generator, derived from the game's seed and the
   decision (round, turn, ship, its moves made) by `decision_seed`: it never draws from, nor sees, the
   game's generator, whose draws are the hand's. The same draws serve every candidate (common random
   numbers: candidates differ by their aim, not by their luck). The rolls go by sequential halving
   (`halving`): every candidate is rolled, the worse half drops out, the rest are rolled more, until the
   last two have had most of the budget.
3. **Value** of a sampled outcome, from the rules applied to it (`apply_roll`) and the map in play
   (`hazards.score_landings`, the aim's own scale: a chance to arrive, 0..1):
   - the chance to arrive within the move limit with the moves then left (R15, D10), 1 in the destination
     (R9), progress along the leg made good;
   - a lost turn for grounding (R17), leaving the board (R19, D13: priced where the ship is put back) or a
     touch (R18, D12), and the expected ransom and lost turn of ending nearest a pirate port (R13, D15);
   - on top, `SearchWeights`: grounding costs a further penalty and leaving the board a small one
     (a lost turn is worth more than the arrival model says late in a round, and a grounded ship is the
     pirates' easy prey, R20). Not a larger one: a penalty of 2.0 brought the search's groundings under half
     of ev's (0.42×) but made a clumsy hand (skill 0) throw so short that its own survey priced every contract
     below its ships and it took none (somaliland/players/search-pilots.md, pilots 8–11). Tipping another die sinks the thrower (R18):
     all its worth and a penalty; a rival ship made to lose a turn is worth `rival` (its owner's contract
     loses time), one's own other ship made to lose a turn costs as much.
4. The candidate with the highest value is thrown: the mean of its samples and its analytic worth (the
   aim's expectation over the whole scatter, counted as `prior` samples: one by default); ties: ev's order.

Draft, plan and launch decisions follow ev's reckoning (`Strategy`: `outlook.py`, `planner.py`) on the search's
own survey: every lone voyage of it is thrown by `choose` (it is the survey's `Thrower`), so the odds it drafts,
routes and launches by are those of its own throws (issue 21); what company costs comes from the aim's convoys
(survey.py). That survey costs the search's rolls for every throw of every lone voyage, and is kept on disk
between processes (`survey_file.py`).

Strength is `samples`, the physics rolls per throw decision (the parameter `search_samples`, default and
range in `strategies.OWN_PARAMS`): `samples // REPEATS` candidates, `REPEATS` rolls each on average. A game's
throws may get `play_factor` times the rolls (`search_play`, default 1; the survey's throws keep `samples`), its
launches (R12) `launch_factor` times that (`search_launch`, default 1: twice as many picked better
launches, decision by decision, but changed nothing measurable in 100 games; `budget`).
Everything is measured on the map in play; nothing fits one board.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, replace
from collections.abc import Callable
from typing import Any

import numpy as np

from physics import RollResult, Roller, Scene, SimSettings, Style, Throw, make_roller, portable, simulates
from somaliland.players.aim import FINE, Candidate, launch_headings, worth
from somaliland.players.calibration import ThrowModel
from somaliland.players.hand import ThrowSkill, execute
from somaliland.players.hazards import Surroundings, score_landings
from somaliland.players.policy import Table
from somaliland.players.strategy import Strategy
from somaliland.rules.game import throw_scene
from somaliland.rules.roll import apply_roll
from somaliland.rules.state import GameState, Status
from somaliland.seeding import make_rng

REPEATS = 4  # rolls per candidate on average: candidates = samples // REPEATS (the best rolled most, `halving`)
TAG = zlib.crc32(b"search")  # this strategy's branch of the game's seed sequence
_PRIVATE: dict[SimSettings, Roller] = {}  # a practice roller per physics setting, its world begun by each decision


@dataclass(frozen=True, slots=True)
class SearchWeights:
    """What the search adds to the aim's worth of an outcome (`hazards.score_landings`), in chance to arrive."""

    aground: float = 0.5  # running aground (R17): beyond its lost turn (issue 21; larger ones: search-pilots.md, pilots 8, 9, 11)
    off_board: float = 0.05  # leaving the board (R19): beyond its lost turn
    sink: float = 1.0  # tipping another die sinks the thrower (R18): beyond all its worth
    rival: float = 0.05  # a rival ship made to lose a turn (R18, D12); one's own other ship: the same, as a cost
    prior: float = 1.0  # how many rolls the aim's analytic worth of a candidate counts as (`halving`)


class Search(Strategy):
    """ev's contracts, routes and launches; throws chosen by simulated outcomes (see module docstring)."""

    def __init__(self, *args: Any, samples: int, launch_factor: int = 1, play_factor: int = 1,
                 play_aground: float = 0.0, search_weights: SearchWeights = SearchWeights(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.samples = samples
        self.play_factor = play_factor  # a game's throws only, not the survey's (`budget`)
        self.launch_factor = launch_factor  # not `launch`: that is the policy's launch decision (policy.py)
        self.play_aground = play_aground  # a game's throws only, not the survey's (`throw`)
        self.search_weights = search_weights

    def __repr__(self) -> str:
        return (f"Search(samples={self.samples}, play_factor={self.play_factor}, "
                f"launch_factor={self.launch_factor}, "
                f"play_aground={self.play_aground}, tumble={self.tumble})")

    @property
    def survey_key(self) -> tuple:
        """What its choices depend on beyond the survey's own key (`survey.Thrower`): its samples and weights (not
        `play_factor`, `launch_factor` nor `play_aground`: the survey's throws have `samples` rolls, `budget`, and
        only the weights' grounding penalty, `throw`)."""
        return ("search", self.samples, self.search_weights)

    def budget(self, table: Table, ship_id: str) -> int:
        """Return the physics rolls of a game's throw decision: `play_factor` times `samples`, and `launch_factor`
        times that for a ship launched from its port (R12).

        `play_factor` (`search_play`) buys every throw of a game more rolls among the same `samples // REPEATS`
        candidates, so the halving tells a candidate's risk from its luck better (search-pilots.md, pilot 18).

        A launch is the throw with the most at stake and the least room: the ship leaves a port, often into a
        narrow sea beside its convoy, and a long launch that runs aground loses the round's first turn (R17).
        Its candidates differ in risk more than their values differ, so a few rolls each mistake a lucky risky
        throw for a good one (somaliland/players/search-pilots.md, "The launches"). The survey's throws (`choose` called
        by the survey) keep `samples` rolls: sailed with more at its launches, the search's survey priced the
        routes otherwise and its games went round Africa (the same file, pilot 14).
        """
        launching = table.state.ship(ship_id).status is Status.IN_PORT
        return self.samples * self.play_factor * (self.launch_factor if launching else 1)

    def own_thrower(self) -> "Search":
        """Return itself: its survey is sailed with its own throws, so its draft, routes and launches price the
        voyages it will make (module docstring)."""
        return self

    def throw(self, table: Table, ship_id: str, rng: np.random.Generator) -> Throw:
        """Return the candidate throw whose simulated outcomes are worth most (module docstring).

        A game's throws weigh running aground (R17) `play_aground` more than the survey's (`search_play_aground`,
        default 0): a careful hand in play that leaves the survey, and so the routes and contracts it prices,
        as they are (a larger grounding penalty in the survey too moved the search round Africa and cost it wins:
        search-pilots.md, pilots 8-11 and 16).
        """
        model, s, ranked = self.ranked(table, ship_id)
        own = make_rng(decision_seed(rng, table.state, ship_id))
        chosen = self.choose(table, ship_id, s, model, ranked, own, self.budget(table, ship_id), self.play_aground)
        return chosen.throw(model, ship_id, s.origin)

    def choose(self, table: Table, ship_id: str, s: Surroundings, model: ThrowModel, ranked: list[Candidate],
               rng: np.random.Generator, budget: int | None = None, extra_aground: float = 0.0) -> Candidate:
        """Return the candidate whose simulated outcomes are worth most, its scatter drawn from `rng` (the
        decision's own generator in a game, the leg's thinking branch in the survey), in `budget` physics rolls
        (`samples` unless given), a grounding costing `extra_aground` more than the weights say."""
        made = self.candidates(table, ship_id, ranked, model, rng)
        budget = budget or self.samples
        seeds = rng.bit_generator.seed_seq.spawn(budget)  # sample j: the same draws for every candidate
        hand = ThrowSkill(math.degrees(self.spread.heading_sd), self.spread.speed_sd)
        scene = throw_scene(table.state, ship_id, table.world, table.config)
        roller = practice_world(self.roller, scene)
        intended = [c.throw(model, ship_id, s.origin) for c in made]

        def rolled(pairs: list[tuple[int, int]]) -> list[float]:
            rolls = [roller.roll(scene, execute(intended[i], hand, make_rng(seeds[j]))) for i, j in pairs]
            return self.outcome_values(table, ship_id, s, rolls, extra_aground)

        prior = worth(s, made, model, self.spread, self.weights, FINE)
        return made[halving(prior, lambda i, j: rolled([(i, j)])[0], budget, self.search_weights.prior, batch=rolled)]

    def candidates(self, table: Table, ship_id: str, ranked: list[Candidate], model: ThrowModel,
                   rng: np.random.Generator) -> list[Candidate]:
        """Return `samples // repeats` candidates: half ev's best ranked at every carry (`spread_by_carry`), half
        drawn around ev's best."""
        k = max(1, self.samples // REPEATS)
        top = spread_by_carry(ranked, max(1, (k + 1) // 2))
        best = ranked[0]
        n = k - len(top)
        heading = best.heading + self.spread.heading_sd * rng.standard_normal(n)
        heading = launch_headings(table, ship_id, heading)
        if best.style is Style.ROLL:
            # carry grows about as speed squared; the C library's exp: numpy's parts on AVX-512 CPUs (portable.py)
            factor = portable.c_exp(2 * self.spread.speed_sd * rng.standard_normal(n))
            carry = np.clip(best.distance * factor, model.min_roll, model.max_roll)
        else:
            carry = np.full(n, best.distance)
        return top + [Candidate(best.style, float(h), float(d)) for h, d in zip(heading.tolist(), carry.tolist())]

    def outcome_value(self, table: Table, ship_id: str, s: Surroundings, roll: RollResult) -> float:
        """Return the worth of one simulated roll: the rules applied to it, priced on the map in play."""
        return self.outcome_values(table, ship_id, s, [roll])[0]

    def outcome_values(self, table: Table, ship_id: str, s: Surroundings, rolls: list[RollResult],
                       extra_aground: float = 0.0) -> list[float]:
        """Return the worth of each simulated roll (`outcome_value`), their landings priced in one call of
        `score_landings` (elementwise, so each worth is what it would be alone, to the last bit); a grounding
        costs `extra_aground` beyond the weights' penalty (`throw`)."""
        if not rolls:
            return []
        w = self.search_weights
        afters = [apply_roll(table.state, ship_id, roll, table.world, table.config)[0] for roll in rolls]
        ends = np.array([roll.thrown.position[:2] for roll in rolls], dtype=float).reshape(-1, 2)
        touched = np.array([any(roll.thrown.name in (c.a, c.b) for c in roll.contacts) for roll in rolls])
        grounded = None
        if table.config.grounding_on == "path":  # D19: the rules judged its path; a ship aground lies where set down
            grounded = np.array([after.ship(ship_id).status is Status.AGROUND for after in afters])
            for i, after in enumerate(afters):
                if grounded[i] and after.ship(ship_id).pose is not None:
                    ends[i] = after.ship(ship_id).pose.position[:2]  # type: ignore[union-attr]
        landed = score_landings(s, ends, self.weights, touched, grounded)
        values = []
        for roll, after, score in zip(rolls, afters, landed.tolist()):
            mine = after.ship(ship_id)
            if mine.status is Status.SUNK:  # R18: it tipped another die over
                values.append(-w.sink)
                continue
            value = score
            if mine.status is Status.AGROUND:
                value -= w.aground + extra_aground
            if any(o.name == ship_id for o in roll.off_board):
                value -= w.off_board
            values.append(value + w.rival * knocked(table.state, after, ship_id))
        return values

def spread_by_carry(ranked: list[Candidate], n: int) -> list[Candidate]:
    """Return `n` of the ranked candidates: the aim's best, then the best of each band of carry, then the next best.

    The aim's analytic ranking prices a throw's risk with a model of its scatter; where that model is too kind
    (a long launch down a narrow channel: ranked first, it ran aground in 38% of physics rolls, while a throw
    half as long ranked 24th ran aground in 4%; `somaliland/players/search-pilots.md`, pilot 5), its best are all long throws
    and the search would roll only those. So the candidates the search rolls span the carries the aim
    considered: `n - 1` equal bands between the shortest and the longest, the best-ranked of each band, in
    rank order, after the aim's best; slots of empty bands go to the best of the rest.
    """
    if n >= len(ranked) or n <= 1:
        return list(ranked[:max(n, 0)])
    carries = np.array([c.distance for c in ranked])
    lo, hi = float(carries.min()), float(carries.max())
    bands = max(1, n - 1)
    band = np.minimum(((carries - lo) / max(hi - lo, 1e-12) * bands).astype(int), bands - 1)
    chosen = [0]
    for b in range(bands):
        first = next((i for i in range(1, len(ranked)) if band[i] == b and i not in chosen), None)
        if first is not None:
            chosen.append(first)
    rest = (i for i in range(len(ranked)) if i not in chosen)
    while len(chosen) < n:
        chosen.append(next(rest))
    return [ranked[i] for i in sorted(chosen)]


def halving(prior: np.ndarray, sampled: Callable[[int, int], float], budget: int, weight: float = 1.0,
            batch: Callable[[list[tuple[int, int]]], list[float]] | None = None) -> int:
    """Return the index of the best candidate by sequential halving (Karnin, Koren and Somekh 2013).

    In each of ceil(log2 k) stages the candidates still in the running share an equal part of the budget
    left (sample j of every candidate uses the same draws) and the worse half drops out, so the last two
    are rolled most. A candidate's value is the mean of its samples and its analytic worth (`prior`, the
    aim's expectation over the whole scatter), the latter counting as `weight` samples (1 by default: a
    single roll does not decide alone; 0: the rolls alone, the worth only for a candidate not yet rolled).
    Ties keep the earlier candidate. Uses at most `budget` samples, all of them when there are fewer
    candidates than samples. `batch`, when given, returns a stage's samples at once (the (candidate, sample)
    pairs in the order `sampled` would be called): the search prices a stage's rolls together; the sums and
    the choice are the same.
    """
    k = len(prior)
    prior = prior.astype(float)
    total, rolled = weight * prior, np.zeros(k, dtype=int)  # summed in the order rolled
    alive = list(range(k))
    stages = max(1, math.ceil(math.log2(k)))
    used = 0

    def value(i: int) -> float:
        count = weight + rolled[i]
        return total[i] / count if count > 0 else prior[i]

    for stage in range(stages):
        each = max(1, (budget - used) // (len(alive) * (stages - stage)))
        pairs = []
        for i in alive:
            for _ in range(min(each, budget - used)):
                pairs.append((i, int(rolled[i])))
                rolled[i] += 1
                used += 1
        values = [] if not pairs else batch(pairs) if batch is not None else [sampled(i, j) for i, j in pairs]
        for (i, _), v in zip(pairs, values, strict=True):
            total[i] += v
        alive = sorted(alive, key=lambda i: (-value(i), i))[:max(1, math.ceil(len(alive) / 2))]
    return alive[0]


def knocked(before: GameState, after: GameState, ship_id: str) -> int:
    """Return the rival ships a throw made lose a turn, less the thrower's own other ships it did (R18, D12)."""
    thrower = before.ship(ship_id).owner
    count = 0
    for old, new in zip(before.ships, after.ships):
        if old.id != ship_id and new.skip > old.skip:
            count += 1 if old.owner != thrower else -1
    return count


def decision_seed(rng: np.random.Generator, state: GameState, ship_id: str) -> np.random.SeedSequence:
    """Return the seed of one throw decision: the game's seed sequence, branched by the decision's place.

    The place is (round, turn, the ship's index, moves it has made): a ship throws at most once per move,
    so no two decisions of a game share it. Only the generator's seed is read (`seed_seq`), never its
    state: the game's draws (the hands') are neither consumed nor seen.
    """
    seq = rng.bit_generator.seed_seq
    index = next(i for i, ship in enumerate(state.ships) if ship.id == ship_id)
    ship = state.ships[index]
    place = (TAG, state.round, state.turn, index, ship.moves)
    return np.random.SeedSequence(seq.entropy, spawn_key=tuple(seq.spawn_key) + place)


def decision_roller(roller: Roller) -> Roller:
    """Return the roller for the search's rolls: a private one of the game roller's settings whose rolls share a
    world per decision (`practice_world`), or, for a roller that is not PyBullet's (a test's stand-in), that one.

    A decision's rolls are many (its samples) and on one board, so building Bullet's world for each of them
    would be about an eighth of a search game's CPU (physics/README.md: `resetSimulation` zeroes about 18 MB a
    world). The private roller keeps one world (`world = "per_game"`), begun afresh by every decision
    (`practice_world`): a decision's rolls then depend on its scene, its throws and their order, never on what
    was rolled before it, so every decision stays deterministic from the game's seed, and the game's own
    roller, whatever its world policy, is never rolled. It lives for the process (one per physics setting).
    """
    if not simulates(roller):
        return roller
    settings = replace(roller.settings, world="per_game")
    if settings not in _PRIVATE:
        _PRIVATE[settings] = make_roller(settings)
    return _PRIVATE[settings]


def practice_world(roller: Roller, scene: Scene) -> Roller:
    """Return the search's roller for a decision with a fresh world begun on the scene's board (`decision_roller`)."""
    own = decision_roller(roller)
    if own is not roller:
        own.new_game(scene.board, scene.materials)
    return own
