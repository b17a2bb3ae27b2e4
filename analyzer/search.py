"""The player that searches (`search`): flat Monte Carlo over determinized worlds, its options chosen
by sequential halving.

At each decision with two or more options a search seat estimates every option's worth by playing the
game out from it many times, and takes the best. A playout (a rollout) is the game's own kernel, run
from the game's start: every earlier search decision is replayed from the game's log, so the past is
exactly the game's (same seed, same stream, same choices of every other seat); at the decision being
searched (the branch) the rollout takes its option, the future is drawn from a stream of the search's
own keyed by (seed, game, decision, world), the engine re-deals what the seat cannot see, and from there
every search seat plays the rollout policy (`rollout_policy`, by default the game's tuned player) while
the other seats play their own. A rollout counts 1 for a win, 1/k for a win shared by k, 0 otherwise.
See analyzer/kernel.py (the control row, `ask_policy`, `search_step`) for the kernel's side.

Why replay from the start rather than copy the state at the decision: the engines keep a turn's progress
in local variables, so a copy would need every engine rewritten as a resumable state machine; a replay
needs nothing of an engine but its decision head, and costs at most one more game per rollout (measured
in docs/search.md). Why sequential halving rather than UCB1: the search must name one best option after
a fixed budget (simple regret), which halving does better than UCB1's cumulative-regret schedule
(Karnin, Koren & Somekh 2013), and it needs only ceil(log2 K) rounds, so the rollouts of every game in a
chunk run together in a few kernel calls instead of one call per rollout.

The worlds each surviving option plays are the same ones (common random numbers): a difference between
two options comes from the options, not from their luck.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .kernel import (
    A_DEFAULT,
    A_LOG,
    A_LOG_N,
    A_MODE,
    A_N_OPTIONS,
    A_OPTION,
    A_ROLLOUT,
    A_STOP,
    A_WORLD,
    MAIN,
    ROLLOUT,
    new_ctl,
)


@dataclass(frozen=True)
class SearchPlan:
    """What a game's report plays under search (analyzer/search_report.py): every seat at `rollouts` per
    option on `n` games, and the strength curve at `budgets` on `curve_n` games per rotation of the search
    seat. A game sizes it (Game.search_plan) so that the section takes minutes on 2 cores."""
    rollouts: int = 16
    n: int = 200
    budgets: tuple[int, ...] = (4, 16, 64)
    curve_n: int = 100


MAX_ROWS = 8192  # rollouts per kernel call: bounds the memory of a chunk's outputs and control rows


@dataclass
class Searched:
    """One search decision: whose, the mean result and the rollouts of each option, the option taken and
    the rollout policy's own choice."""
    seat: int
    means: np.ndarray
    counts: np.ndarray
    chosen: int
    default: int


@dataclass
class Plan:
    """Every game's search decisions, as the final run replays them: `ctl` is the kernel's control table
    (MAIN, every decision logged), `searched[j]` the decisions of game j, in order."""
    ctl: np.ndarray
    searched: list[list[Searched]] = field(default_factory=list)
    rollouts: int = 0  # games played out, in all


def plan(game, sc, seed: int, ids: np.ndarray, inputs: tuple) -> Plan:
    """Play games `ids` of run `seed` with their search seats deciding, and return the log that replays
    them. Each decision's rollouts depend only on (seed, game id, decision, world): never on the chunk."""
    run = _Run(game, sc, seed, ids, inputs)
    searched: list[list[Searched]] = [[] for _ in ids]
    active = np.arange(len(ids))
    while active.size:
        ctl = run.control(active, MAIN)
        run.play(ids[active], ctl)
        stopped = ctl[:, A_STOP] > 0
        active, ctl = active[stopped], ctl[stopped]
        if not active.size:
            break
        seats, n_options, default = ctl[:, A_STOP] - 1, ctl[:, A_N_OPTIONS], ctl[:, A_DEFAULT] - 1
        halving = [_Halving(int(k), int(run.weights[s]["rollouts"]) * int(k), int(d), run.weights[s]["alpha"])
                   for s, k, d in zip(seats.tolist(), n_options.tolist(), default.tolist(), strict=True)]
        while True:
            rounds = [(j, h.next_round()) for j, h in enumerate(halving)]
            rounds = [(j, arms, worlds) for j, (arms, worlds) in rounds if arms]
            if not rounds:
                break
            js = np.concatenate([np.full(len(arms) * len(worlds), j) for j, arms, worlds in rounds])
            arm = np.concatenate([np.repeat(arms, len(worlds)) for _, arms, worlds in rounds])
            world = np.concatenate([np.tile(worlds, len(arms)) for _, arms, worlds in rounds])
            values = run.rollouts(active[js], seats[js], arm, world)
            at = 0
            for j, arms, worlds in rounds:
                halving[j].add(arms, values[at: at + len(arms) * len(worlds)].reshape(len(arms), len(worlds)))
                at += len(arms) * len(worlds)
        for j, (g, h) in enumerate(zip(active.tolist(), halving, strict=True)):
            choice = h.best()
            searched[g].append(Searched(int(seats[j]), h.means(), h.counts, choice, h.default))
            run.log(g, choice)
    return Plan(run.control(np.arange(len(ids)), MAIN), searched, run.played)


class _Run:
    """The kernel calls of one plan: the games' logs, and the MAIN and ROLLOUT runs that read them."""

    def __init__(self, game, sc, seed, ids, inputs):
        self.game, self.sc, self.seed, self.ids, self.inputs = game, sc, seed, ids, inputs
        self.weights = {seat: sc.weights_of(seat) for seat in sc.search_seats()}
        self.rollout_code = sc.POLICIES.index(sc.rollout_policy)
        self.win_col = list(game.COLUMNS.seat).index("is_winner")
        self.logs = np.zeros((len(ids), 16), np.int64)
        self.lengths = np.zeros(len(ids), np.int64)
        self.played = 0  # rollouts, in all

    def log(self, g: int, choice: int) -> None:
        if self.lengths[g] == self.logs.shape[1]:
            self.logs = np.concatenate([self.logs, np.zeros_like(self.logs)], axis=1)
        self.logs[g, self.lengths[g]] = choice
        self.lengths[g] += 1

    def control(self, games: np.ndarray, mode: int) -> np.ndarray:
        """The control rows of `games` (indices into ids, repeats allowed) in `mode`, with their logs."""
        width = int(self.lengths[games].max(initial=0))
        ctl = new_ctl(len(games), width)
        ctl[:, A_MODE], ctl[:, A_ROLLOUT], ctl[:, A_LOG_N] = mode, self.rollout_code, self.lengths[games]
        ctl[:, A_LOG:] = self.logs[games, :width]
        return ctl

    def play(self, game_ids: np.ndarray, ctl: np.ndarray):
        out = self.game.COLUMNS.outputs(len(game_ids), self.sc, 0)
        self.game.kernel(np.int64(self.seed), game_ids, ctl, *self.inputs, *out.args())
        return out

    def rollouts(self, games: np.ndarray, seats: np.ndarray, arm: np.ndarray, world: np.ndarray) -> np.ndarray:
        """The result, for its deciding seat, of each rollout: game games[r] branching at its next search
        decision with option arm[r] into world world[r]."""
        values = np.empty(len(games))
        for a in range(0, len(games), MAX_ROWS):
            part = slice(a, a + MAX_ROWS)
            ctl = self.control(games[part], ROLLOUT)
            ctl[:, A_OPTION] = arm[part]
            game_ids = self.ids[games[part]]
            ctl[:, A_WORLD] = world_key(self.seed, game_ids, ctl[:, A_LOG_N], world[part])
            wins = self.play(game_ids, ctl).s[:, :, self.win_col]
            mine = wins[np.arange(len(game_ids)), seats[part]]
            values[part] = mine / np.maximum(wins.sum(axis=1), 1)
        self.played += len(games)
        return values


_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_SALT = np.uint64(0x5EA2C4)  # keeps the search's streams apart from the games' own (rng.new_stream)


def _mix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def world_key(seed: int, game_ids: np.ndarray, decision: np.ndarray, world: np.ndarray) -> np.ndarray:
    """The seed of a rollout's own stream (int64, as the control row holds it): a mix of the run's seed,
    the game, the search decision and the world, and of nothing the seat cannot see."""
    with np.errstate(over="ignore"):
        z = _mix(np.full(len(game_ids), np.uint64(seed)) ^ _SALT)
        for part in (game_ids, decision, world):
            z = _mix(z ^ (np.asarray(part).astype(np.uint64) * _GAMMA))
    return z.view(np.int64)


class _Halving:
    """Sequential halving over k options with `budget` rollouts: ceil(log2 k) rounds, each sharing its
    part of the budget evenly among the options left (at least one rollout each), then keeping the
    better half by mean result (the lower index on a tie) and always the rollout policy's own choice
    (`default`). Every option left plays the same worlds, so the last comparison is paired: the best
    option is taken over the default only where a sign test over those worlds (it did better in more of
    them than it did worse) is significant at level `alpha`, one-sided. A game makes dozens of decisions,
    and a few rollouts per option cannot tell close options apart: without the test the search switched on
    noise and lost to its own rollout player (Pig, 4 rollouts: -15 points). alpha 1 is plain flat Monte
    Carlo."""

    def __init__(self, k: int, budget: int, default: int, alpha: float):
        self.k, self.left, self.default, self.alpha = k, list(range(k)), default, alpha
        self.rounds = max(1, math.ceil(math.log2(k)))
        self.per_round = budget / self.rounds
        self.values: list[list[float]] = [[] for _ in range(k)]  # by option, by world
        self.played = 0  # the worlds each option left has played: the next world's index

    def next_round(self) -> tuple[list[int], np.ndarray]:
        """The options and the worlds each plays in the next round; no options once the last is played."""
        if self.rounds == 0:
            return [], np.zeros(0, np.int64)
        m = max(1, int(self.per_round // len(self.left)))
        self.played += m
        return list(self.left), np.arange(self.played - m, self.played)

    def add(self, arms: list[int], values: np.ndarray) -> None:
        """values[i, w]: arms[i]'s result in the round's w-th world; then the round's halving."""
        for arm, v in zip(arms, values, strict=True):
            self.values[arm].extend(v.tolist())
        self.halve()

    def halve(self) -> None:
        if self.rounds == 0:
            return
        self.rounds -= 1
        mean = self.means()
        keep = sorted(self.left, key=lambda a: -mean[a])[: max(1, len(self.left) // 2) if self.rounds else 1]
        self.left = sorted(set(keep) | {self.default})

    def means(self) -> np.ndarray:
        return np.array([np.mean(v) if v else np.nan for v in self.values])

    @property
    def counts(self) -> np.ndarray:
        return np.array([len(v) for v in self.values], np.int64)

    def best(self) -> int:
        """The best option left, where it beats the default by the sign test on the worlds both played."""
        mean = self.means()
        top = min((a for a in self.left if a != self.default), key=lambda a: (-mean[a], a), default=self.default)
        if top == self.default:
            return top
        if self.alpha >= 1:
            return top if mean[top] > mean[self.default] else self.default
        n = min(len(self.values[top]), len(self.values[self.default]))
        diff = np.array(self.values[top][:n]) - np.array(self.values[self.default][:n])
        better, worse = int((diff > 0).sum()), int((diff < 0).sum())
        # imported here: scipy.stats takes most of a second to import, and a run without search never needs it
        from scipy.stats import binom

        return top if better > worse and binom.sf(better - 1, better + worse, 0.5) <= self.alpha else self.default


def describe(searched: Searched, decision: int) -> str:
    """A search decision as a replay line: each option's mean result and its rollouts."""
    parts = [f"option {k}: {m:.3f} ({c})" if c else f"option {k}: -" for k, (m, c)
             in enumerate(zip(searched.means, searched.counts, strict=True))]
    return (f"  seat {searched.seat} searches decision {decision}: {', '.join(parts)} "
            f"-> option {searched.chosen} (its rollout policy: option {searched.default})")
