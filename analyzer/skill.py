"""The strong-play sections every game's report ends with (issue #25):
- "Tuned play": the game's headline verdict when every seat plays the tuned weights of
  scenarios/GAME/tuned.yaml (`analyzer train` writes it), next to the other policies, and how far it moved;
- "What each element is worth": a seat forbidden one of the game's RESTRICTIONS, against the run's field;
- "Skill and luck": each policy, and the tuned one, alone against the run's field; random against the
  strongest player; a one-line reading with its thresholds.

A game ends its report with `skill.sections(rep, game, df, meta)`, passing `verdict=` where its headline is
not the position win rates. Every number comes from comparison runs (report_runs.compare_run: the run's
scenario and seed, common random numbers) of report_runs.compare_n games. A one-seat measure plays that
seat in every seat in turn, an equal share of the games each, so turn position does not colour it, and
sets it against the field's own share: what the field's own player wins in the same seats on the same
games (one run of the field alone), not 1/P, which shared wins (Simply Cosmic) or draws put off.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import polars as pl

from . import positions, stats, train
from . import scenario as scen
from .report_runs import compare_n, compare_run, comparing
from .reporting import Report
from .results import matrix
from .stats import Estimate

TUNED_FILE = scen.TUNED_FILE
# The reading of "Skill and luck": random's win rate against the strongest player, as a share of that
# player's own share in the same seats on the same games. Below SKILL_MATTERS skill matters; at or above MOSTLY_LUCK it is mostly luck; both count between.
SKILL_MATTERS, MOSTLY_LUCK = 0.5, 0.8
TITLES = ("Tuned play", "What each element is worth", "Skill and luck")


@dataclass
class Verdict:
    """A game's headline measure on one results table: its numbers (with intervals) and its verdict in a
    few words, comparable between policy settings."""
    numbers: dict[str, Estimate]
    label: str
    means: set[str] = field(default_factory=set)  # the numbers that are means in their own unit, not rates


def position_verdict(df: pl.DataFrame) -> Verdict:
    """The default headline: the win rate of each turn position and the fairness verdict."""
    s = positions.Summary.of(df)
    return Verdict(dict(zip(positions.labels(len(s.win)), s.win, strict=True)), s.label())


def rates_verdict(numbers: dict[str, Estimate], fair: float) -> Verdict:
    """A headline of several win rates (aliens, decks): strong or weak where the whole interval lies above or
    below the fair share."""
    strong = [k for k, e in numbers.items() if e.lo > fair]
    weak = [k for k, e in numbers.items() if e.hi < fair]
    return Verdict(numbers, f"strong: {', '.join(strong) or 'none'}; weak: {', '.join(weak) or 'none'}")


# -- the runs ---------------------------------------------------------------------------------------------
def _field(meta: dict) -> list[str]:
    sc = meta["scenario"]
    return sc["policies"] * sc["players"] if len(sc["policies"]) == 1 else list(sc["policies"])


def _uniform(meta: dict) -> str | None:
    """The run's one policy when every seat plays it with the same weights (else None)."""
    field = set(_field(meta))
    return field.pop() if len(field) == 1 and not meta["scenario"].get("seat_weights") else None


def _seat_sets(meta: dict, seat: int, policy: str | None = None, weights: dict | None = None,
               restrict: list[str] | None = None) -> dict:
    """The run's field with seat `seat` playing `policy` (default: its own) with `weights` over its
    policy's, under `restrict`; no other seat is restricted."""
    policies = _field(meta)
    policies[seat] = policy or policies[seat]
    own = {int(k): v for k, v in meta["scenario"].get("seat_weights", {}).items()
           if int(k) != seat or policy is None}
    if weights:
        own[seat] = {**own.get(seat, {}), **weights}
    return {"policies": policies, "seat_weights": own, "restrict": {seat: restrict} if restrict else {}}


@dataclass
class Seat:
    """One seat's measure over the rotation: its win rate, the field's own share in the same seats on the
    same games, the paired gain over it (None: the seat is the field), and the lifts of its restriction."""
    win: Estimate
    own: float  # the field's own share in the same seats on the same games
    gain: Estimate | None = None
    lifted: int = 0


def one_seat(game, meta: dict, n: int, sets: Callable[[int], dict]) -> Seat:
    """The win rate of the seat that `sets(seat)` changes, that seat rotated through every seat (the same
    n // P games each, the first player as the run draws it), against the field alone on those games."""
    players, per = meta["scenario"]["players"], _per_seat(n, meta["scenario"]["players"])
    own = matrix(compare_run(game, meta, per, sets=_seat_sets(meta, 0), planned=True), "is_winner").astype(bool)
    changed, lifted = np.zeros_like(own), 0
    for seat in range(players):
        d = compare_run(game, meta, per, sets=sets(seat), planned=True)
        changed[:, seat] = matrix(d, "is_winner")[:, seat].astype(bool)
        if "restrict_lifted" in d.columns:
            lifted += int(matrix(d, "restrict_lifted")[:, seat].sum())
    p = train.paired(changed, own)
    return Seat(p.rate, p.field.value, p.gain, lifted)


def _per_seat(n: int, players: int) -> int:
    return max(1, n // players)


def _all_seats(game, meta: dict, n: int, policy: str, tuned: train.Tuned | None = None):
    """A run with every seat playing `policy` (with the tuned weights when given)."""
    return compare_run(game, meta, n, planned=True, sets=_everyone(meta, policy, tuned.weights if tuned else None))


def _everyone(meta: dict, policy: str, weights: dict | None) -> dict:
    return {"policies": [policy], "seat_weights": {}, "restrict": {},
            "weights": {**meta["scenario"].get("weights", {}), **({policy: weights} if weights else {})}}


def _others(game, meta: dict) -> list[str]:
    """The playing policies other than the run's own (when every seat plays one)."""
    return [p for p in game.playing_policies if p != _uniform(meta)]


def planned_games(game, meta: dict, n: int) -> int:
    """The games the sections below will play at `n` games per comparison run (the report's progress bar
    announces them before the game's own sections start)."""
    players = meta["scenario"]["players"]
    tuned = train.tuned_player(game)
    rotation = _per_seat(n, players) * players
    total = (len(_others(game, meta)) + 1) * n if tuned else 0
    one_seats = len(game.Scenario.RESTRICTIONS) + len(_others(game, meta)) + bool(tuned) + 1
    return total + one_seats * (rotation + _per_seat(n, players))  # each: its rotation and the field alone


# -- the sections -----------------------------------------------------------------------------------------
def sections(rep: Report, game, df: pl.DataFrame, meta: dict,
             verdict: Callable[[pl.DataFrame], Verdict] = position_verdict) -> None:
    """Add "Tuned play", "What each element is worth" and "Skill and luck" to `rep`. `verdict` maps a results
    table to the game's headline numbers (default: the position win rates and their fairness verdict)."""
    tuned, n = train.tuned_player(game), compare_n(df.height)
    tuned_section(rep, game, df, meta, n, tuned, verdict)
    elements_section(rep, game, meta, n)
    skill_section(rep, game, df, meta, n, tuned)


def tuned_section(rep: Report, game, df, meta: dict, n: int, tuned: train.Tuned | None, verdict) -> None:
    if tuned is None:
        rep.section(TITLES[0], f"No tuned player: {game.name} has no {TUNED_FILE} "
                    + (f"(`analyzer train {game.name}` writes one)." if game.Scenario.WEIGHTS
                       else "(its policies have no weights to tune yet)."))
        return
    if not comparing(rep, TITLES[0]):
        return
    settings = {f"this run: {positions.run_label(meta['policies'])}": (verdict(df), df.height)}
    for policy in _others(game, meta):
        d = _all_seats(game, meta, n, policy)
        settings[f"{policy} (all)"] = (verdict(d), d.height)
    d = _all_seats(game, meta, n, tuned.policy, tuned)
    settings[f"{tuned.label()} (all)"] = tuned_v = (verdict(d), d.height)
    defaults = {w.name: w.default for w in game.Scenario.WEIGHTS[tuned.policy]}
    rep.section(TITLES[0], f"The headline measure with every seat playing the tuned {tuned.policy} of "
                f"`{tuned.path.parent.name}/{TUNED_FILE}` ("
                + ", ".join(f"{k}={v:g} (default {defaults[k]:g})" for k, v in tuned.weights.items())
                + f"), next to every policy playing every seat (comparison runs on the run's seed). {tuned.description}")
    # the move is measured on the run's own first n games: the ones the tuned run replayed, at the same n
    same = df.filter(pl.col("game_id") < n)
    here = verdict(same if same.height == n else df)
    names = list(here.numbers)
    rep.table(["policies", *names, "verdict", "n"],
              [[label, *[v.numbers[k].fmt(pct=k not in here.means) for k in names], v.label, f"{games:,}"]
               for label, (v, games) in settings.items()])
    moves = {k: difference(tuned_v[0].numbers[k], here.numbers[k]) for k in names}
    k, move = max(((k, m) for k, m in moves.items() if k not in here.means), key=lambda kv: abs(kv[1].value))
    own_units = "; ".join(f"{name} {moves[name].value:+.2f} [{moves[name].lo:+.2f}, {moves[name].hi:+.2f}]"
                          for name in names if name in here.means)
    kept = tuned_v[0].label == here.label
    rep.text(f"**Under tuned play the verdict {'stays' if kept else 'changes'}**: {tuned_v[0].label}"
             + ("" if kept else f" (this run on the same {n:,} games: {here.label})")
             + f". The largest move is {k}: {fmt_points(move)} (tuned minus this run on the same games, 95% interval)"
             + (f". The means move, in their own units: {own_units}." if own_units else "."))


def elements_section(rep: Report, game, meta: dict, n: int) -> None:
    names = list(game.Scenario.RESTRICTIONS)
    if not names:
        rep.section(TITLES[1], f"{game.name} declares no restrictions yet, so no element is priced.")
        return
    if not comparing(rep, TITLES[1]):
        return
    rows = []
    for name in names:
        s = one_seat(game, meta, n, lambda seat, name=name: _seat_sets(meta, seat, restrict=[name]))
        rows.append([f"`{name}`", game.Scenario.RESTRICTIONS[name], s.win.fmt(pct=True), f"{100 * s.own:.1f}%",
                     _against_own(s), f"{s.lifted:,} ({s.lifted / s.win.n:.2f} a game)"])
    rep.section(TITLES[1], "What a player loses (or gains) by never using one element of the game: the win rate of "
                "one seat under the restriction against the run's unrestricted field, the restricted seat rotated "
                "through every seat (equal games each). The field's own share: what the field's own player wins in the "
                "same seats on the same games (shared wins and draws move it off 1/P); against it: the paired gain's "
                "95% interval. A restriction that leaves no option at a decision is lifted there and counted.")
    rep.table(["restriction", "the seat never", "restricted seat's win rate", "the field's own share", "against it",
               "lifted (decisions)"], rows)


def skill_section(rep: Report, game, df, meta: dict, n: int, tuned: train.Tuned | None) -> None:
    if not comparing(rep, TITLES[2]):
        return
    field = positions.run_label(meta["policies"])
    rows: dict[str, Seat] = {}
    if (own := _uniform(meta)) is not None:
        w = matrix(df, "is_winner").astype(bool)  # every seat of the run: its own share by construction
        rows[f"{own} (the field itself)"] = Seat(stats.proportion(int(w.sum()), w.size), float(w.sum()) / w.size)
    for policy in _others(game, meta):
        rows[policy] = one_seat(game, meta, n, lambda seat, p=policy: _seat_sets(meta, seat, p))
    if tuned:
        rows[tuned.label()] = one_seat(game, meta, n, lambda seat: _seat_sets(meta, seat, tuned.policy, tuned.weights))
    strongest = tuned.label() if tuned else strongest_heuristic(rows, own)
    rep.section(TITLES[2], f"How much skill matters: each policy seated alone against the run's field ({field}), "
                "rotated through every seat (equal games each), and random alone against the strongest player; "
                "each next to the field's own share, what its own player wins in the same seats on the same games.")
    rep.table(["alone in one seat", "win rate against the field", "the field's own share", "against it"],
              [[k, s.win.fmt(pct=True), f"{100 * s.own:.1f}%", _against_own(s)] for k, s in rows.items()])
    if strongest is None:
        rep.text("No heuristic policy to set random against.")
        return
    opponent = tuned.policy if tuned else strongest.split(" (")[0]
    meta_vs = {**meta, "scenario": {**meta["scenario"], **_everyone(meta, opponent, tuned.weights if tuned else None)}}
    luck = one_seat(game, meta_vs, n, lambda seat: _seat_sets(meta_vs, seat, "random"))
    who = tuned.label() if tuned else opponent
    reading = skill_reading(luck, who, rows[tuned.label()] if tuned else None, field)
    rep.skill = reading
    rep.text(f"**{reading}** Random alone against {who} in every other seat: {luck.win.fmt(pct=True)}; {who}'s own "
             f"share in the same seats on the same games {100 * luck.own:.1f}%. Reading: random below "
             f"{100 * SKILL_MATTERS:g}% of that share against the strongest player reads \"skill matters\", at or above {100 * MOSTLY_LUCK:g}% \"mostly luck\", "
             "in between \"skill and luck both count\".")


def strongest_heuristic(rows: dict[str, Seat], field_policy: str | None) -> str | None:
    """Without a tuned player: the heuristic that beats the field clearly (its paired gain over the field's
    own share above 0; the highest if several), else the field's own policy, else the best-placed heuristic."""
    heuristics = {k: s for k, s in rows.items() if not k.startswith("random")}
    clear = [k for k, s in heuristics.items() if s.gain is not None and s.gain.lo > 0]
    if clear:
        return max(clear, key=lambda k: heuristics[k].win.value)
    if field_policy is not None and field_policy != "random":
        return f"{field_policy} (the field itself)"
    return max(heuristics, key=lambda k: heuristics[k].win.value, default=None)


def skill_reading(luck: Seat, strongest: str, tuned: Seat | None, field: str) -> str:
    """The one-line reading: random's win rate as a share of the strongest player's own share in the same
    seats on the same games (and what a tuned player alone wins against the run's field, next to its own)."""
    ratio = luck.win.value / luck.own if luck.own else 0.0
    word = ("skill matters" if ratio < SKILL_MATTERS else "mostly luck" if ratio >= MOSTLY_LUCK
            else "skill and luck both count")
    crossing = [t for t in (SKILL_MATTERS, MOSTLY_LUCK) if luck.win.lo < t * luck.own <= luck.win.hi]
    alone = (f"; a tuned player alone wins {tuned.win.fmt(pct=True)} against {field} (its own share "
             f"{100 * tuned.own:.1f}%)" if tuned else "")
    return (f"Random wins {luck.win.fmt(pct=True)} against the {strongest} player (its own share "
            f"{100 * luck.own:.1f}%){alone}: {word}"
            + (f" (the interval crosses the {100 * crossing[0]:g}%-of-its-share line: more games would settle it)."
               if crossing else "."))


def _against_own(s: Seat) -> str:
    """A one-seat measure against the field's own share, by its paired gain's interval."""
    if s.gain is None:
        return "(it is the field: its own share)"
    if s.gain.hi < 0:
        return "below the field's own"
    if s.gain.lo > 0:
        return "above the field's own"
    return "no difference detected at this n"


def difference(a: Estimate, b: Estimate) -> Estimate:
    """a - b with a normal-approximation 95% interval from the two intervals (independent samples: wider
    than a paired interval, so a move it calls real is real)."""
    half = np.hypot((a.hi - a.lo) / 2, (b.hi - b.lo) / 2)
    d = a.value - b.value
    return Estimate(d, d - half, d + half, min(a.n, b.n))


def fmt_points(e: Estimate) -> str:
    return f"{100 * e.value:+.1f} points [{100 * e.lo:+.1f}, {100 * e.hi:+.1f}] (n={e.n:,})"

