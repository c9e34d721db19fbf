"""The search: Optuna proposes candidates in batches, racing plays them in rungs, Optuna is told in order.

Resumable and deterministic. The Optuna study lives in SQLite in the tuning's folder (`optuna.db`). One
process drives a tuning (the folder is locked), so a trial still RUNNING when a run starts was asked
by a run that was killed: it is finished, not failed and re-asked (Optuna's heartbeat and
`RetryFailedTrialCallback` serve many workers sharing a study, and would renumber the retried trial).
Batch k is trials k*batch .. k*batch+batch-1: all are asked before any is played, and all are told,
in number order, before the next batch is asked, so what each ask sees never depends on timing.
Every draw of the sampler comes from a sampler seeded by (master seed, trial number, what is drawn),
so a killed and resumed tuning proposes exactly what an uninterrupted one would; and a candidate's
games and estimates are pure functions of its files and the seeds, which the study runner keeps in
the candidate's folder, so a resumed run replays nothing it had finished.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from optuna.samplers import BaseSampler

from somaliland.tune.candidate import Candidate, build
from somaliland.tune.measures import Estimate
from somaliland.tune.racing import Scored, best, front, safest, steering, surely_beaten
from somaliland.tune.knobs import Param
from somaliland.tune.spec import Tuning

STUDY_NAME = "tune"
DATABASE = "optuna.db"  # the Optuna study's SQLite file in the tuning's folder


class Evaluator(Protocol):
    """Plays candidates' first `games` games and estimates every target (one tuple per trial number)."""

    def evaluate(self, jobs: list[tuple[int, Candidate]], games: int) -> dict[int, tuple[Estimate, ...] | str]:
        """Each candidate's estimates after its first `games` games, or why it is rejected."""


@dataclass(frozen=True, slots=True)
class Rejected:
    """Why a candidate was rejected: its files failed the map check or the rules loader (no games), or some of
    the `games` it played raised."""

    reason: str
    games: int = 0


@dataclass(frozen=True, slots=True)
class TrialResult:
    """A finished trial: its parameter values, its candidate folder, why it was rejected or its estimates."""

    number: int
    values: dict[str, Any]
    folder: Path
    rejected: str
    scored: Scored | None
    games: int = 0  # games played by a rejected candidate (some raised); a scored one's are `scored.games`


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Every finished trial of a tuning and what the full evaluation's games are."""

    trials: tuple[TrialResult, ...]
    top: int

    @property
    def played(self) -> list[Scored]:
        """Return the scored (not rejected) trials."""
        return [t.scored for t in self.trials if t.scored is not None]

    @property
    def complete(self) -> list[Scored]:
        """Return the trials evaluated on the full number of games (not stopped early)."""
        return [s for s in self.played if s.games >= self.top]

    @property
    def games_spent(self) -> int:
        """Return the games the search played (each candidate up to the rung it reached, or was rejected at)."""
        return sum(s.games for s in self.played) + sum(t.games for t in self.trials if t.rejected)

    @property
    def games_saved(self) -> int:
        """Return the games early stopping saved against playing every candidate on the full rung."""
        return sum(self.top - s.games for s in self.played)

    def trial(self, number: int) -> TrialResult:
        """Return the trial of that number."""
        return next(t for t in self.trials if t.number == number)

    def front(self, tuning: Tuning) -> list[Scored]:
        """Return the Pareto front of the fully evaluated trials whose games estimate every steering target,
        best weighted loss first."""
        return front([s for s in self.complete if s.defined(tuning.targets)], tuning.targets)

    def chosen(self, tuning: Tuning) -> Scored | None:
        """Return the trial of the Pareto front whose weighted loss at the worse end of its intervals is
        least (`racing.safest`)."""
        return safest(self.front(tuning), tuning.targets)


def run_search(tuning: Tuning, out: Path, evaluator: Evaluator, progress: Progress | None = None,
               on_batch: Callable[[int], None] | None = None) -> SearchResult:
    """Run (or resume) a tuning's search in `out` and return every trial.

    Args:
        tuning: the checked tuning.
        out: the tuning's folder: `optuna.db` and `trials/NNNN/` (each a candidate's files and games).
        evaluator: plays candidates' games and estimates the targets.
        progress: the progress bar to move (None: none).
        on_batch: called with each batch's index once it is told (e.g. to save the elapsed time).
    """
    study = open_study(tuning, out)
    total = tuning.batches * tuning.batch
    done = [t for t in study.get_trials(deepcopy=False) if t.state.is_finished()]
    if progress is not None:
        progress.open(total, len(done))
    previous = [s for s in (_scored(t) for t in done if t.number < _first_open(study, tuning)) if s is not None]
    try:
        for k in range(tuning.batches):
            numbers = range(k * tuning.batch, (k + 1) * tuning.batch)
            existing = {t.number: t for t in study.get_trials(deepcopy=False)}
            if all(n in existing and existing[n].state.is_finished() for n in numbers):
                continue
            trials = _asked(study, tuning, numbers, existing)
            scored = _race_batch(tuning, out, evaluator, trials, previous)
            told = 0
            for n in numbers:
                trial, frozen = trials[n]
                if frozen is None or not frozen.state.is_finished():
                    _tell(study, tuning, trial, scored.get(n), out)
                    told += 1
            previous += [s for s in scored.values() if isinstance(s, Scored)]
            if progress is not None:
                progress.told(told, best([s for s in previous if s.games >= tuning.top and s.defined(tuning.targets)],
                                         tuning.targets),
                              tuning)
            if on_batch is not None:
                on_batch(k)
    finally:
        if progress is not None:
            progress.close()
    return collect(study, out, tuning.top)


def open_study(tuning: Tuning, out: Path):
    """Return the tuning's Optuna study in `out/optuna.db`, created or loaded."""
    import optuna

    out.mkdir(parents=True, exist_ok=True)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    storage = optuna.storages.RDBStorage(f"sqlite:///{(out / DATABASE).resolve()}",
                                         engine_kwargs={"connect_args": {"timeout": 60}})
    directions = ["minimize"] * (len(steering(tuning.targets)) if tuning.sampler == "nsga2" else 1)
    return optuna.create_study(storage=storage, study_name=STUDY_NAME, directions=directions,
                               sampler=SeededSampler(sampler_factory(tuning), tuning.master_seed),
                               load_if_exists=True)


def sampler_factory(tuning: Tuning) -> Callable[[int], Any]:
    """Return a function making the tuning's sampler (TPE or NSGA-II) from a seed."""
    import optuna

    if tuning.sampler == "nsga2":
        return lambda seed: optuna.samplers.NSGAIISampler(seed=seed, population_size=tuning.batch)
    return lambda seed: optuna.samplers.TPESampler(seed=seed, n_startup_trials=tuning.startup, multivariate=True,
                                                   constant_liar=True)


class SeededSampler(BaseSampler):
    """A sampler whose every draw comes from a fresh inner sampler seeded by (seed, trial number, what).

    Optuna's samplers keep their random state in memory, so a resumed process would draw differently
    from one that never stopped; deriving each draw's seed from the trial makes the draws depend only
    on the history in storage.
    """

    def __init__(self, make: Callable[[int], Any], seed: int) -> None:
        self._make, self._seed = make, seed

    def _fresh(self, trial, what: str):
        digest = hashlib.sha256(f"{self._seed}:{trial.number}:{what}".encode()).digest()
        return self._make(int.from_bytes(digest[:4], "little"))

    def infer_relative_search_space(self, study, trial):
        """Return the joint search space (no randomness)."""
        return self._fresh(trial, "space").infer_relative_search_space(study, trial)

    def sample_relative(self, study, trial, search_space):
        """Sample the joint parameters of a trial."""
        return self._fresh(trial, "relative").sample_relative(study, trial, search_space)

    def sample_independent(self, study, trial, param_name, param_distribution):
        """Sample one parameter on its own, seeded by its name."""
        return self._fresh(trial, f"param:{param_name}").sample_independent(study, trial, param_name,
                                                                              param_distribution)

    def before_trial(self, study, trial) -> None:
        """Let the inner sampler prepare a trial (NSGA-II records its generation in storage)."""
        self._fresh(trial, "before").before_trial(study, trial)

    def after_trial(self, study, trial, state, values) -> None:
        """Let the inner sampler see a finished trial."""
        self._fresh(trial, "after").after_trial(study, trial, state, values)

    def reseed_rng(self) -> None:
        """Do nothing: every draw's seed is derived, none is drawn."""


def _first_open(study, tuning: Tuning) -> int:
    """Return the first trial number of the first batch not wholly told."""
    finished = {t.number for t in study.get_trials(deepcopy=False) if t.state.is_finished()}
    for k in range(tuning.batches):
        if not all(n in finished for n in range(k * tuning.batch, (k + 1) * tuning.batch)):
            return k * tuning.batch
    return tuning.batches * tuning.batch


def _asked(study, tuning: Tuning, numbers: range, existing: dict[int, Any]) -> dict[int, tuple[Any, Any]]:
    """Return (trial, frozen trial or None) for every number of a batch, asking Optuna for the missing ones.

    A trial a killed run left RUNNING is taken up again; any parameter it had not yet been given is
    suggested now (from the same seeds).
    """
    import optuna

    trials = {}
    for n in numbers:
        frozen = existing.get(n)
        if frozen is None:
            trial = study.ask()
            if trial.number != n:
                raise RuntimeError(f"{STUDY_NAME}: Optuna numbered a new trial {trial.number}, expected {n}: "
                                   f"optuna.db holds trials not made by this tuning")
        elif frozen.state.is_finished():
            trials[n] = (None, frozen)
            continue
        else:
            trial = optuna.trial.Trial(study, frozen._trial_id)  # a RUNNING trial of a killed run
        for param in tuning.params:
            _suggest(trial, param)
        trials[n] = (trial, frozen)
    return trials


def _suggest(trial, p: Param) -> Any:
    if p.choices:
        return trial.suggest_categorical(p.name, list(p.choices))
    if p.integer:
        return trial.suggest_int(p.name, int(p.low), int(p.high), step=int(p.step or 1), log=p.log)
    return trial.suggest_float(p.name, p.low, p.high, step=p.step, log=p.log)


def _race_batch(tuning: Tuning, out: Path, evaluator: Evaluator, trials: dict[int, tuple[Any, Any]],
                previous: list[Scored]) -> dict[int, Scored | Rejected]:
    """Build a batch's candidates and play them rung by rung, stopping those surely beaten (and, with
    `keep` below 1, all but the best `keep` share of the batch by weighted loss: successive halving).

    Returns each trial's final estimates, or the reason it was rejected.
    """
    result: dict[int, Scored | Rejected] = {}
    candidates: dict[int, Candidate] = {}
    for n, (trial, frozen) in trials.items():
        values = frozen.params if trial is None else trial.params
        candidate = build(tuning, values, trial_folder(out, n))
        if candidate.rejected:
            result[n] = Rejected(candidate.rejected)
        else:
            candidates[n] = candidate
    active = sorted(candidates)
    for r, games in enumerate(tuning.rungs):
        estimates = evaluator.evaluate([(n, candidates[n]) for n in active], games)
        for n in active:
            found = estimates[n]
            result[n] = Rejected(found, games) if isinstance(found, str) else Scored(n, games, found)  # str: raised
        active = [n for n in active if isinstance(result[n], Scored)]
        if r == len(tuning.rungs) - 1 or not active:
            break
        pool = previous + [s for s in result.values() if isinstance(s, Scored)]
        active = [n for n in active if not surely_beaten(result[n], pool, tuning.targets,  # type: ignore[arg-type]
                                                         tuning.sampler == "tpe")]
        places = math.ceil(tuning.keep * len(candidates))  # successive halving, when asked for
        active = sorted(sorted(active, key=lambda n: (result[n].weighted(tuning.targets), n))[:places])
        if not active:
            break
    return result


def _tell(study, tuning: Tuning, trial, outcome: Scored | Rejected | None, out: Path) -> None:
    """Record a trial's outcome in its user attributes, then tell Optuna (a rejected candidate fails)."""
    from optuna.trial import TrialState

    trial.set_user_attr("folder", str(trial_folder(out, trial.number).relative_to(out)))
    if isinstance(outcome, Scored):
        trial.set_user_attr("games", outcome.games)
        trial.set_user_attr("estimates", [e.as_list() for e in outcome.estimates])
        losses = outcome.losses(tuning.targets)
        values = list(losses) if tuning.sampler == "nsga2" else [outcome.weighted(tuning.targets)]
        study.tell(trial.number, values)
    else:
        trial.set_user_attr("rejected", outcome.reason if outcome else "not evaluated")
        if outcome and outcome.games:
            trial.set_user_attr("games", outcome.games)  # played, then rejected: its games raised
        study.tell(trial.number, state=TrialState.FAIL)


def _scored(frozen) -> Scored | None:
    """Return a told trial's estimates from its user attributes (None for a rejected one)."""
    if "estimates" not in frozen.user_attrs:
        return None
    return Scored(frozen.number, int(frozen.user_attrs["games"]),
                  tuple(Estimate(*[float(v) for v in e[:3]], int(e[3])) for e in frozen.user_attrs["estimates"]))


def collect(study, out: Path, top: int) -> SearchResult:
    """Return every finished trial of the study."""
    trials = []
    for t in sorted(study.get_trials(deepcopy=False), key=lambda t: t.number):
        if t.state.is_finished():
            trials.append(TrialResult(t.number, dict(t.params), trial_folder(out, t.number),
                                      t.user_attrs.get("rejected", ""), _scored(t),
                                      int(t.user_attrs.get("games", 0)) if "rejected" in t.user_attrs else 0))
    return SearchResult(tuple(trials), top)


def trial_folder(out: Path, number: int) -> Path:
    """Return the folder of a trial's candidate files and games."""
    return out / "trials" / f"{number:04d}"


class Progress:
    """The tuning's progress bar on standard error: trials told, the current best, games played, time left."""

    def __init__(self, show: bool = True) -> None:
        self.show, self.bar, self.games, self.best = show, None, 0, ""
        self.per_game = False  # the validation's bar counts games, the search's trials

    def open(self, total: int, initial: int) -> None:
        """Start the bar at the trials already told."""
        if self.show:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=initial, unit="trial", file=sys.stderr, dynamic_ncols=True,
                            mininterval=1.0, bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} trials "
                                                        "[{elapsed} elapsed, {remaining} left{postfix}]")

    def validating(self, total: int, initial: int) -> None:
        """Start a second bar, in games, for the validation of the chosen candidate and the base."""
        self.close()
        if self.show:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=initial, unit="game", file=sys.stderr, dynamic_ncols=True,
                            mininterval=1.0, desc="validation",
                            bar_format="{desc}: {bar}| {n_fmt}/{total_fmt} games [{elapsed} elapsed, {remaining} left]")
            self.per_game = True

    def game(self, outcome: Any = None) -> None:
        """Count a game played in this run."""
        self.games += 1
        if self.per_game and self.bar is not None:
            self.bar.update(1)
            return
        self._show()

    def told(self, trials: int, lead: Scored | None, tuning: Tuning) -> None:
        """Move the bar by a batch's trials and show the best fully evaluated candidate."""
        if lead is not None:
            self.best = f"best #{lead.number}: loss {lead.weighted(tuning.targets):.4g}"
        if self.bar is not None:
            self.bar.update(trials)
        self._show()

    def _show(self) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(", ".join(p for p in (self.best, f"{self.games} games played") if p))

    def close(self) -> None:
        """Close the bar."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def elapsed_store(out: Path, say: Callable[[str], None] | None = None) -> tuple[Callable[[], None], Callable[[], float]]:
    """Return (save, total): save adds this run's wall seconds so far to `out/progress.json`; total reads it.

    A damaged `progress.json` (empty, cut short, edited) only loses the time spent before: it is counted as
    0, said through `say`, and the file is written anew at the next save.
    """
    path = out / "progress.json"
    before = _seconds_spent(path, say) if path.exists() else 0.0
    started = time.monotonic()

    def save() -> None:
        from somaliland.study.store import write_whole

        write_whole(path, json.dumps({"seconds": round(before + time.monotonic() - started, 1)}))

    def total() -> float:
        return before + time.monotonic() - started

    return save, total



def _seconds_spent(path: Path, say: Callable[[str], None] | None) -> float:
    """Return the wall seconds earlier runs spent, as `progress.json` keeps them (0, said, if it is damaged)."""
    from somaliland.inputs import LimitError, check_nesting, read_limited

    try:
        text = read_limited(path, "tuning progress").decode("utf-8")
        check_nesting(text, str(path), "json")
        seconds = json.loads(text)["seconds"]
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < math.inf:
            raise ValueError(f"seconds: expected a number of seconds, found {seconds!r}")
        return float(seconds)
    except (OSError, LimitError, UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
        if say is not None:
            say(f"{path}: damaged ({_why(error)}); the time earlier runs spent is not known: counted as 0 s")
        return 0.0


def _why(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"no {error}"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error).splitlines()[0][:100] or type(error).__name__
