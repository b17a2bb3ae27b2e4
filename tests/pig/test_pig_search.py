"""Pig's search player at a position where one option wins on the spot: holding a turn total that
reaches the target. Search finds it at a small budget even when its rollouts play at random (random
holds there only half the time). The tuned hold_at finds it too (it holds whenever holding wins), so Pig
has no such position that the tuned player misses."""
import numpy as np

import analyzer
from analyzer import kernel
from analyzer.games import get
from analyzer.games.pig import engine as E
from analyzer.games.pig.decisions import HOLD

PIG = get("pig")


def _decisions(sc, seed, games):
    """(score, turn total, chosen option, the rollout policy's) at each of seat 0's search decisions."""
    out = []
    for g in range(games):
        batch = PIG.run_batch(sc, seed, np.array([g]), trace=True)
        score, total = [0] * sc.players, 0
        for kind, seat, a, b, _ in batch.events.tolist():
            if kind == E.E_ROLL:
                total = b
            elif kind == E.E_HOLD:
                score[seat] = b
            elif kind == kernel.E_SEARCHED and seat == 0:
                out.append((score[0], total, batch.searched[a].chosen, batch.searched[a].default))
    return out


def test_search_holds_where_holding_wins_on_the_spot_though_its_rollouts_play_at_random():
    sc = analyzer.load_scenario(PIG, policy=["search", "hold_at"], set={
        "rules.target": 12, "rollout_policy": "random", "weights": {"search": {"rollouts": 16, "alpha": 1}}})
    winning = [(s, t, k, d) for s, t, k, d in _decisions(sc, 4, 30) if s + t >= 12]
    assert len(winning) >= 10 and any(d != HOLD for _, _, _, d in winning)  # random alone would not hold
    assert all(k == HOLD for _, _, k, _ in winning)


def _python_value(score, total, option, rng, hold_at=25, target=100):
    """Seat 0's win (0 or 1) from its decision at `total` with scores `score`, taking `option`, then both
    seats holding at `hold_at` (or where holding wins): plain Python, apart from the kernel."""
    held, p = list(score), 0
    if option == HOLD:
        held[0] += total
        if held[0] >= target:
            return 1
        p, total = 1, 0
    while True:
        d = rng.randint(1, 6)
        if d == 1:
            p, total = 1 - p, 0
            continue
        total += d
        if held[p] + total >= target or total >= hold_at:
            held[p] += total
            if held[p] >= target:
                return int(p == 0)
            p, total = 1 - p, 0


def test_search_values_equal_an_independent_python_pigs_at_the_same_positions():
    """What search says each option is worth (plain flat Monte Carlo, alpha 1, 1,024 rollouts each) is the
    win rate a separate plain-Python Pig gives from the same position with the same players: the
    rollouts replay the game's past exactly and play its future fairly."""
    import random
    sc = analyzer.load_scenario(PIG, policy=["search", "hold_at"], set={
        "weights": {"search": {"rollouts": 1024, "alpha": 1}, "hold_at": {"hold_at": 25}}})
    batch = PIG.run_batch(sc, 1, np.array([3]), trace=True)
    score, total, checked, rng = [0, 0], 0, 0, random.Random(5)
    for kind, seat, a, b, _ in batch.events.tolist():
        if kind == E.E_ROLL:
            total = b
        elif kind == E.E_HOLD:
            score[seat] = b
        elif kind == kernel.E_SEARCHED and a in (0, 5):
            s, games = batch.searched[a], 20_000
            for option in (0, 1):
                python = sum(_python_value(score, total, option, rng) for _ in range(games)) / games
                spread = 4 * np.sqrt(0.25 / s.counts[option] + 0.25 / games)  # 4 standard errors
                assert abs(s.means[option] - python) < spread, (a, score, total, option, s.means[option], python)
            checked += 1
    assert checked == 2
