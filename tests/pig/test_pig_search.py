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
