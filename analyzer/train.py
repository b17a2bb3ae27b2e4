"""`analyzer train`: tune a policy's weights (Scenario.WEIGHTS) against a field of the same policy, as a league.

Fitness of a candidate: the win rate of ONE seat playing it (seat_weights) while every other seat plays
the field's weights, with the candidate's seat rotated through every seat in equal games. Every rotation
plays the same games 0..n-1 (first player, dice and decks drawn from the game's own stream before any
decision), so in each game the candidate meets every turn position once, and every candidate plays the
same games (common random numbers): a round ranks the weights, not the luck of their games.

Search: successive halving (analyzer.tune.halving) over the field's own weights plus a seeded Latin
hypercube sample of the weight box. The winner is then confirmed against the field on fresh games (the
search's own numbers favour it: it also won by the luck of its games). Its yardstick is the field's own
share: what the field's player wins in the same seats on the same games (one run of the field alone on
the confirmation's seeds), not 1/P, which shared wins (Simply Cosmic) or draws put off. League: while the
95% interval of the paired gain (per game: the candidate's rotated wins minus the field's own) lies above
0, the winner becomes the field; every round searches a box half as wide as the last around the field
(where the field wins its own search too). The league stops when a confirmed winner no longer beats the
field significantly, or when the rounds (the budget) are spent. Last, the tuned weights are measured
against the starting field on fresh games, with the same yardstick: the numbers tuned.yaml states.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from . import scenario as scen
from . import stats, tune, variants
from .errors import UserError
from .results import check_report_dir, matrix
from .scenario import validate


# The tuned player: scenarios/GAME/tuned.yaml, which `train` writes and reports and `strength` play against.
@dataclass(frozen=True)
class Tuned:
    policy: str
    weights: dict[str, float]
    description: str
    path: Path

    def label(self) -> str:
        return f"tuned {self.policy}"


def tuned_player(game) -> Tuned | None:
    """The tuned player of scenarios/GAME/tuned.yaml (None when there is none). The file is a scenario of
    the game that plays one policy with its weights; anything else is a one-line error."""
    path = game.scenario_dir / scen.TUNED_FILE
    if not path.is_file():
        return None
    sc = scen.load(game, path)
    if len(set(sc.policies)) != 1 or sc.policies[0] not in sc.WEIGHTS or sc.policies[0] not in sc.weights:
        raise UserError(f"{path}: policies: a tuned file plays one policy and gives its weights "
                        f"(policies with weights: {', '.join(sc.WEIGHTS) or 'none'}), got {sc.policies}")
    return Tuned(sc.policies[0], dict(sc.weights[sc.policies[0]]), sc.description, path)


# Fewer games per candidate and seat than this in a search's first step, and its ranking is mostly luck (a win
# rate's 95% interval is about +-10 points at 100 games): `train` warns.
MIN_FIRST_GAMES = 100

# seed streams of one training run, apart from each other (SeedSequence keys)
SEARCH, CONFIRM, FINAL, SAMPLE = range(4)


def derived_seed(seed: int, purpose: int, round_: int = 0) -> int:
    """A run seed (0..2**63-1) for one stage of training `seed`: every stage plays games of its own."""
    return int(np.random.SeedSequence([seed, purpose, round_]).generate_state(1, np.uint64)[0] >> np.uint64(1))


@dataclass(frozen=True)
class Plan:
    """How a budget of games is spent: `rounds` league rounds, each a search (successive halving over
    `candidates`, `first` games per candidate and seat in its first step) and a confirmation (`confirm`
    games per seat, and `confirm` of the field alone, its yardstick), then one final measurement of as many."""
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
        return self.confirm * (self.players + 1)  # every rotation of the winner, and the field alone

    @property
    def total(self) -> int:
        return self.rounds * (self.search_games + self.confirm_games) + self.confirm_games

    @classmethod
    def units(cls, players: int, candidates: int, rounds: int) -> int:
        """Games of a plan at one game per candidate and seat (a confirmation per seat as long as a search)."""
        return (rounds * players + (rounds + 1) * (players + 1)) * tune.total_games(candidates, 1)

    @classmethod
    def of_budget(cls, budget: int, players: int, candidates: int, rounds: int) -> "Plan":
        unit = cls.units(players, candidates, rounds)
        if budget < unit:
            raise UserError(f"--budget {budget:,}: too small; {rounds} league round(s) of {candidates} candidates at "
                            f"{players} seats need at least {unit:,} games (one game per candidate and seat)"
                            + (f"; with --rounds 1, {cls.units(players, candidates, 1):,}" if rounds > 1 else ""))
        first = budget // unit
        return cls(players, candidates, rounds, first, first * tune.total_games(candidates, 1))

    def thin(self) -> str | None:
        """A warning when the budget leaves fewer than MIN_FIRST_GAMES games per candidate and seat, else None."""
        if self.first >= MIN_FIRST_GAMES:
            return None
        enough = MIN_FIRST_GAMES * self.units(self.players, self.candidates, self.rounds)
        return (f"warning: this budget leaves {self.first} games per candidate and seat in a search's first step, "
                f"fewer than {MIN_FIRST_GAMES}: its ranking is mostly luck. Give --budget {enough:,} or more, or fewer "
                f"--candidates or --rounds")


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
    around the field (clipped to the range; a log weight halves its range's logarithm)."""
    out = []
    for w in declared:
        low, high, c = (math.log(w.low), math.log(w.high), math.log(centre[w.name])) if w.log else (w.low, w.high, centre[w.name])
        if round_ == 0:
            out.append((w.low, w.high))
            continue
        half = (high - low) / 2 / 2 ** round_
        lo, hi = max(low, c - half), min(high, c + half)
        out.append((math.exp(lo), math.exp(hi)) if w.log else (lo, hi))
    return out


def _at(w, lo: float, hi: float, u: float) -> float:
    """The point a fraction u of the way across [lo, hi]: evenly in the logarithm for a log weight."""
    return lo * (hi / lo) ** u if w.log else lo + u * (hi - lo)


def sample(declared, centre: dict, bounds: list[tuple[float, float]], k: int, seed: int) -> list[dict]:
    """The field's weights, then up to k - 1 distinct points of a seeded Latin hypercube over the box."""
    from scipy.stats import qmc
    unit = qmc.LatinHypercube(d=len(declared), rng=np.random.default_rng(seed)).random(k - 1)
    points, seen = [centre], {tuple(centre.values())}
    for row in unit:
        p = _typed(declared, {w.name: _round(w, _at(w, lo, hi, u)) for w, u, (lo, hi) in zip(declared, row, bounds, strict=True)})
        if tuple(p.values()) not in seen:
            seen.add(tuple(p.values()))
            points.append(p)
    return points


def _round(w, value: float) -> float:
    """A candidate value as a designer would write it: whole for an integer weight, else 3-4 digits."""
    if w.integer:
        return min(w.high, max(w.low, round(value)))
    # 3-4 significant digits of the range, or of the value itself for a log weight (0.0123, 4.56)
    digits = max(0, 3 - math.floor(math.log10(abs(value) if w.log else w.high - w.low)))
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
    share its dice, so a game (not a seat of it) is the independent unit: an interval on the per-game means."""
    e = _mean_interval(wins.mean(axis=1), wins.size)
    return stats.Estimate(e.value, max(0.0, e.lo), min(1.0, e.hi), e.n)


def field_wins(game, field_sc, n: int, seed: int, jobs: int = 1,
               on_progress: Callable[[int], None] | None = None) -> np.ndarray:
    """(n, P): did the field's own player in seat s win game i? The yardstick of rotated_wins on the same
    games and seed: column s is what the changed seat would have won had it played the field."""
    df = variants.play_scenarios(game, {"field": field_sc}, n, seed, jobs, on_progress)["field"]
    return matrix(df, "is_winner").astype(bool)


@dataclass(frozen=True)
class Paired:
    """A changed seat against the field's own player in the same seats on the same games."""
    rate: stats.Estimate  # the changed seat's rotated win rate
    field: stats.Estimate  # the field's own share: its player's win rate over the same seats and games
    gain: stats.Estimate  # rate - field, a paired 95% interval with a game as the unit


def paired(changed: np.ndarray, own: np.ndarray) -> Paired:
    """`changed` (rotated_wins) against `own` (field_wins) of the same games: per game, the changed seat's
    mean over its rotations minus the field's mean over the same seats. The pairing removes the games'
    luck both share, so the gain's interval is narrower than the difference of two intervals."""
    gain = _mean_interval(changed.mean(axis=1) - own.mean(axis=1), changed.size, span=2.0)
    return Paired(rotated_rate(changed), rotated_rate(own), gain)


def _mean_interval(per_game: np.ndarray, n: int, span: float = 1.0) -> stats.Estimate:
    """A normal 95% interval on the mean of per-game values (their range `span` wide); where they all agree
    (no width), the half-width of a Wilson interval on as many games all agreeing, scaled to the range, so a
    few games never prove a gain."""
    value = float(per_game.mean())
    se = float(per_game.std(ddof=1) / math.sqrt(len(per_game))) if len(per_game) > 1 else 0.0
    half = stats.Z95 * se if se > 0 else span * (1 - float(stats.wilson(len(per_game), len(per_game))[1]))
    return stats.Estimate(value, value - half, value + half, n)


def seat_weights(weights: dict) -> Callable[[int], dict]:
    return lambda s: {"seat_weights": {s: weights}}


@dataclass
class Round:
    index: int
    field: dict
    bounds: list[tuple[float, float]]
    candidates: int
    search: tune.TuneResult
    confirmed: Paired | None  # the search's winner alone against the field; None: the field won
    beats_field: bool  # the confirmed gain over the field's own share lies above 0
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
    final: Paired | None = None  # tuned alone against the starting field, on fresh games
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
    declared = base.WEIGHTS[policy]
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
            confirmed = measure(game, field_sc, search.best, plan.confirm, derived_seed(seed, CONFIRM, r), jobs, on_progress)
            res.games += plan.confirm_games
        rnd = Round(r, res.tuned, bounds, len(points), search, confirmed,
                    confirmed is not None and confirmed.gain.lo > 0, seen)
        res.rounds.append(rnd)
        if on_round:
            on_round(rnd)
        if confirmed is None:
            continue  # nothing better in this box: search a narrower one around the same field
        if not rnd.beats_field:
            res.stopped = (f"round {r + 1}: the winner's gain over the field's own share "
                           f"({100 * confirmed.field.value:.1f}%) is not significant")
            break
        res.tuned = search.best
    else:
        res.stopped = f"the budget's {plan.rounds} league round(s) are spent"
    if res.tuned != start:
        res.final = measure(game, field_of(game, base, policy, start), res.tuned, plan.confirm, derived_seed(seed, FINAL),
                            jobs, on_progress)
        res.games += plan.confirm_games
    return res


def measure(game, field_sc, weights: dict, n: int, seed: int, jobs: int,
            on_progress: Callable[[int], None] | None) -> Paired:
    """One seat at `weights`, rotated, against the field on games 0..n-1 of `seed`, and the field alone on
    the same games: n * (P + 1) games."""
    changed = rotated_wins(game, field_sc, seat_weights(weights), n, seed, jobs, on_progress)
    return paired(changed, field_wins(game, field_sc, n, seed, jobs, on_progress))


def fmt_weights(weights: dict) -> str:
    return ", ".join(f"{k}={v:g}" for k, v in weights.items())


def verdict(res: TrainResult) -> str:
    """One sentence: what tuned play is worth against the starting field, next to the field's own share on
    the same games, with the paired gain's interval and n."""
    if res.final is None:
        return (f"no candidate beat the starting field ({fmt_weights(res.start)}) by a significant margin, so these "
                f"are its own weights")
    others = f"{res.players - 1} seat{'s' * (res.players > 2)}"
    f = res.final
    return (f"one seat playing {res.policy} at {fmt_weights(res.tuned)} against {others} at the starting field's "
            f"weights ({fmt_weights(res.start)}) wins {f.rate.fmt(pct=True)} of {res.players}-player games, its seat "
            f"rotated through every seat on the same games, so it meets every turn position equally; the field's own "
            f"player wins {f.field.fmt(pct=True)} in the same seats on the same games (its own share: shared wins "
            f"and draws move it off 1/{res.players}), a gain of {100 * f.gain.value:+.1f} points "
            f"[{100 * f.gain.lo:+.1f}, {100 * f.gain.hi:+.1f}] (paired by game)")


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
