"""`analyzer train`: tune a policy's weights (Scenario.WEIGHTS) against a field of the same policy, as a league.

Fitness of a candidate: the win rate of ONE seat playing it (seat_weights) while every other seat plays
the field's weights, with the candidate's seat rotated through every seat in equal games. Every rotation
plays the same games 0..n-1 (first player, dice and decks drawn from the game's own stream before any
decision), so in each game the candidate meets every turn position once, and every candidate plays the
same games (common random numbers): a round ranks the weights, not the luck of their games.

Search: successive halving (analyzer.tune.halving) over the field's own weights plus a seeded Latin
hypercube sample of the weight box. The winner is then confirmed against the field on fresh games (the
search's own numbers favour it: it also won by the luck of its games). League: while the confirmed win
rate's 95% interval lies above the fair share 1/P, the winner becomes the field; every round searches a
box half as wide as the last around the field (where the field wins its own search too). The league
stops when a confirmed winner no longer beats the field significantly, or when the rounds (the budget)
are spent. Last, the tuned weights are measured
against the starting field on fresh games: the number tuned.yaml states.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import stats, tune, variants
from .errors import UserError
from .results import check_report_dir, matrix
from .scenario import validate

# seed streams of one training run, apart from each other (SeedSequence keys)
SEARCH, CONFIRM, FINAL, SAMPLE = range(4)


def derived_seed(seed: int, purpose: int, round_: int = 0) -> int:
    """A run seed (0..2**63-1) for one stage of training `seed`: every stage plays games of its own."""
    return int(np.random.SeedSequence([seed, purpose, round_]).generate_state(1, np.uint64)[0] >> np.uint64(1))


@dataclass(frozen=True)
class Plan:
    """How a budget of games is spent: `rounds` league rounds, each a search (successive halving over
    `candidates`, `first` games per candidate and seat in its first step) and a confirmation (`confirm`
    games per seat), then one final measurement of `confirm` games per seat."""
    players: int
    candidates: int
    rounds: int
    first: int
    confirm: int

    @property
    def search_games(self) -> int:
        return tune.total_games(self.candidates, self.first) * self.players

    @property
    def confirm_games(self) -> int:
        return self.confirm * self.players

    @property
    def total(self) -> int:
        return self.rounds * (self.search_games + self.confirm_games) + self.confirm_games

    @classmethod
    def units(cls, players: int, candidates: int, rounds: int) -> int:
        """Games of a plan at one game per candidate and seat (a confirmation as long as a search)."""
        return (2 * rounds + 1) * players * tune.total_games(candidates, 1)

    @classmethod
    def of_budget(cls, budget: int, players: int, candidates: int, rounds: int) -> "Plan":
        unit = cls.units(players, candidates, rounds)
        if budget < unit:
            raise UserError(f"--budget {budget:,}: too small; {rounds} league round(s) of {candidates} candidates at "
                            f"{players} seats need at least {unit:,} games (one game per candidate and seat)"
                            + (f"; with --rounds 1, {cls.units(players, candidates, 1):,}" if rounds > 1 else ""))
        first = budget // unit
        return cls(players, candidates, rounds, first, first * tune.total_games(candidates, 1))


def policy_of(game, policy: str | None) -> str:
    """The policy to train: --policy, else the only (or first) policy of the game that has weights."""
    tunable = list(game.Scenario.WEIGHTS)
    if not tunable:
        raise UserError(f"train {game.name}: no policy of {game.name} has weights to tune (Scenario.WEIGHTS is empty)")
    if policy is None:
        return tunable[0]
    if policy not in game.Scenario.POLICIES:
        raise UserError(f"--policy {policy}: unknown policy for {game.name}; policies with weights: {', '.join(tunable)}")
    if policy not in tunable:
        raise UserError(f"--policy {policy}: {policy!r} has no weights to tune; policies with weights: {', '.join(tunable)}")
    return policy


def field_of(game, base, policy: str, weights: dict):
    """`base` with every seat playing `policy` at `weights` (and no seat weights of its own)."""
    return variants.scenario_of(game, base, {"policies": [policy], "weights": {**base.weights, policy: weights},
                                             "seat_weights": {}}, f"train field {policy} {weights}")


def start_weights(sc, policy: str) -> dict:
    own = {w.name: w.default for w in sc.WEIGHTS[policy]}
    return _typed(sc.WEIGHTS[policy], {**own, **sc.weights.get(policy, {})})


def _typed(declared, values: dict) -> dict:
    """Integer weights as ints (the YAML shows 23, not 23.0), in the declared order."""
    return {w.name: int(round(values[w.name])) if w.integer else float(values[w.name]) for w in declared}


def box(declared, centre: dict, round_: int) -> list[tuple[float, float]]:
    """The search box of a league round: the whole legal range first, then half as wide each round
    around the field (clipped to the range)."""
    out = []
    for w in declared:
        half = (w.high - w.low) / 2 / 2 ** round_
        lo, hi = (w.low, w.high) if round_ == 0 else (max(w.low, centre[w.name] - half), min(w.high, centre[w.name] + half))
        out.append((lo, hi))
    return out


def sample(declared, centre: dict, bounds: list[tuple[float, float]], k: int, seed: int) -> list[dict]:
    """The field's weights, then up to k - 1 distinct points of a seeded Latin hypercube over the box."""
    from scipy.stats import qmc
    unit = qmc.LatinHypercube(d=len(declared), rng=np.random.default_rng(seed)).random(k - 1)
    points, seen = [centre], {tuple(centre.values())}
    for row in unit:
        p = _typed(declared, {w.name: _round(w, lo + u * (hi - lo)) for w, u, (lo, hi) in zip(declared, row, bounds, strict=True)})
        if tuple(p.values()) not in seen:
            seen.add(tuple(p.values()))
            points.append(p)
    return points


def _round(w, value: float) -> float:
    """A candidate value as a designer would write it: whole for an integer weight, else 3-4 digits."""
    if w.integer:
        return min(w.high, max(w.low, round(value)))
    digits = max(0, 3 - math.floor(math.log10(w.high - w.low)))
    return min(w.high, max(w.low, round(value, digits)))


def rotated_wins(game, field_sc, changes: Callable[[int], dict], n: int, seed: int, jobs: int = 1,
                 on_progress: Callable[[int], None] | None = None, seen: list | None = None) -> np.ndarray:
    """(n, P): did the changed seat win game i when it sat at seat s? `changes(s)` are the overrides that
    make seat s the changed one (its seat_weights, its restrictions, its policy); every seat plays the
    same games 0..n-1 of `seed`. `seen`, if a list, receives a digest of the games each run played."""
    players = field_sc.players
    runs = variants.play_scenarios(game, {str(s): variants.scenario_of(game, field_sc, changes(s)) for s in range(players)},
                                   n, seed, jobs, on_progress)
    if seen is not None:
        seen.extend(games_digest(df) for df in runs.values())
    return np.stack([matrix(df, "is_winner")[:, s].astype(bool) for s, df in enumerate(runs.values())], axis=1)


def games_digest(df) -> str:
    """Which games a run played: seeds, game ids and first players (equal digests: the same games, and
    a rotated seat meets every turn position equally often)."""
    ids = np.stack([df["seed"].to_numpy(), df["game_id"].to_numpy(), df["first_player"].to_numpy()])
    return hashlib.sha256(ids.astype(np.int64).tobytes()).hexdigest()[:16]


def rotated_rate(wins: np.ndarray) -> stats.Estimate:
    """The changed seat's win rate over all rotations, with a 95% interval. The P rotations of one game
    share its dice, so a game (not a seat of it) is the independent unit: a normal interval on the
    per-game means (Wilson over the games when they all agree, where the normal one has no width)."""
    per_game = wins.mean(axis=1)
    value, n = float(per_game.mean()), wins.size
    se = float(per_game.std(ddof=1) / math.sqrt(len(per_game))) if len(per_game) > 1 else 0.0
    if se == 0:
        _, lo, hi = stats.wilson(per_game.sum(), len(per_game))
        return stats.Estimate(value, float(lo), float(hi), n)
    return stats.Estimate(value, max(0.0, value - stats.Z95 * se), min(1.0, value + stats.Z95 * se), n)


def seat_weights(weights: dict) -> Callable[[int], dict]:
    return lambda s: {"seat_weights": {s: weights}}


@dataclass
class Round:
    index: int
    field: dict
    bounds: list[tuple[float, float]]
    candidates: int
    search: tune.TuneResult
    confirmed: stats.Estimate | None  # the search's winner alone against the field; None: the field won
    beats_field: bool  # the confirmed interval lies above the fair share
    seen: list[list[str]]  # per halving step: the games digest of every run (candidate x seat)

    @property
    def best(self) -> dict:
        return self.search.best


@dataclass
class TrainResult:
    policy: str
    players: int
    start: dict
    tuned: dict
    rounds: list[Round] = field(default_factory=list)
    final: stats.Estimate | None = None  # tuned alone against the starting field, on fresh games
    stopped: str = ""
    games: int = 0


def search_round(game, field_sc, points: list[dict], first: int, seed: int, jobs: int,
                 on_progress: Callable[[int], None] | None) -> tuple[tune.TuneResult, list[list[str]]]:
    """Successive halving over `points` against the field; the loss is minus the rotated win rate. Also
    returns, per halving step, the games digest of every run it played (candidate x seat)."""
    seen: list[list[str]] = []

    def losses(alive: list[dict], games: int) -> list[float]:
        seen.append([])
        return [-rotated_wins(game, field_sc, seat_weights(p), games, seed, jobs, on_progress, seen[-1]).mean()
                for p in alive]
    return tune.halving(points, first, losses, runs_each=field_sc.players), seen


def train(game, base, policy: str, plan: Plan, seed: int, jobs: int = 1,
          on_progress: Callable[[int], None] | None = None,
          on_round: Callable[[Round], None] | None = None) -> TrainResult:
    """The league (module docstring): returns every round's search and confirmation and the final measure."""
    declared, fair = base.WEIGHTS[policy], 1 / base.players
    start = start_weights(base, policy)
    res = TrainResult(policy, base.players, start, start)
    for r in range(plan.rounds):
        bounds = box(declared, res.tuned, r)
        points = sample(declared, res.tuned, bounds, plan.candidates, derived_seed(seed, SAMPLE, r))
        if len(points) < 2:
            res.stopped = f"round {r + 1}: the box around the field holds no other point"
            break
        field_sc = field_of(game, base, policy, res.tuned)
        search, seen = search_round(game, field_sc, points, plan.first, derived_seed(seed, SEARCH, r), jobs, on_progress)
        res.games += search.games
        confirmed = None
        if search.best != res.tuned:
            wins = rotated_wins(game, field_sc, seat_weights(search.best), plan.confirm, derived_seed(seed, CONFIRM, r),
                                jobs, on_progress)
            confirmed, res.games = rotated_rate(wins), res.games + wins.size
        rnd = Round(r, res.tuned, bounds, len(points), search, confirmed,
                    confirmed is not None and confirmed.lo > fair, seen)
        res.rounds.append(rnd)
        if on_round:
            on_round(rnd)
        if confirmed is None:
            continue  # nothing better in this box: search a narrower one around the same field
        if not rnd.beats_field:
            res.stopped = f"round {r + 1}: the winner's interval does not lie above the fair share {100 * fair:.1f}%"
            break
        res.tuned = search.best
    else:
        res.stopped = f"the budget's {plan.rounds} league round(s) are spent"
    if res.tuned != start:
        wins = rotated_wins(game, field_of(game, base, policy, start), seat_weights(res.tuned), plan.confirm,
                            derived_seed(seed, FINAL), jobs, on_progress)
        res.final, res.games = rotated_rate(wins), res.games + wins.size
    return res


def fmt_weights(weights: dict) -> str:
    return ", ".join(f"{k}={v:g}" for k, v in weights.items())


def verdict(res: TrainResult) -> str:
    """One sentence: what tuned play is worth against the starting field, with its interval and n."""
    fair = 100 / res.players
    if res.final is None:
        return (f"no candidate beat the starting field ({fmt_weights(res.start)}) by a significant margin, so these "
                f"are its own weights (fair share {fair:.1f}%)")
    others = f"{res.players - 1} seat{'s' * (res.players > 2)}"
    return (f"one seat playing {res.policy} at {fmt_weights(res.tuned)} against {others} at the starting field's "
            f"weights ({fmt_weights(res.start)}) wins {res.final.fmt(pct=True)} of {res.players}-player games, "
            f"its seat rotated through every seat on the same games, so it meets every turn position equally "
            f"(fair share {fair:.1f}%)")


def tuned_scenario(game, base, res: TrainResult, command: str, origin: str) -> dict:
    """What tuned.yaml holds (validated): `base` (without its balance: and tune: blocks, which describe
    other play) named tuned, every seat playing the trained policy at the tuned weights."""
    data = base.dump()
    for key in ("seat_weights", "script"):
        if not data.get(key):
            data.pop(key, None)
    data.update(name="tuned", policies=[res.policy], weights={**base.weights, res.policy: res.tuned},
                description=f"{res.policy} weights tuned by analyzer train: {verdict(res)}.", source=command)
    validate(game.Scenario, data, origin)
    return data


def write_yaml(data: dict, out, header: str) -> None:
    import yaml

    from .results import atomic_path
    with atomic_path(out) as tmp:
        tmp.write_text(f"# {header}\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100),
                       encoding="utf-8")


def check_out(out, force: bool) -> None:
    """Fail before training (minutes) if tuned.yaml cannot be written."""
    from pathlib import Path
    out = Path(out)
    if out.suffix not in (".yaml", ".yml"):
        raise UserError(f"--out {out}: a scenario is YAML; name the file {out.with_suffix('.yaml')}")
    if out.is_dir():
        raise UserError(f"--out {out}: is a directory; give a file name such as {out}/tuned.yaml")
    if out.exists() and not force:
        raise UserError(f"--out {out}: already exists; add --force to replace it")
    check_report_dir(out.parent)
