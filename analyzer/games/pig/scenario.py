"""Pig's scenario schema and its translation into the kernel's inputs (arrays and numbers only)."""
from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field

from ...kernel import SHARED_POLICIES, SHARED_POLICY_DOCS
from ...scenario import SEARCH_DOCS, SEARCH_POLICY, ScenarioBase, Strict, Weight, search_weights

# codes = index: random 0, scripted 1 (analyzer.kernel), then ours; search's is kernel.SEARCH + its seat
POLICIES = (*SHARED_POLICIES, "hold_at", SEARCH_POLICY)
POLICY_DOCS = {**SHARED_POLICY_DOCS,  # one line each; policies.py says it in full
    "hold_at": "rolls until its turn total reaches `hold_at` (or holding wins), then holds",
    **SEARCH_DOCS,
}


# the hold_at policy's judgement (`weights: {hold_at: {...}}`, or one seat's in `seat_weights`)
WEIGHTS = {"hold_at": (
    Weight("hold_at", 20, 1, 100, "hold once the turn total reaches this", integer=True),
), **search_weights()}
# what a seat may be forbidden (`restrict: {SEAT: [...]}`); the order is the kernel's bit order
RESTRICTIONS = {
    "no_early_hold": "never hold a turn total under 20, unless holding wins the game",
}


class PigRules(Strict):
    target: int = Field(100, ge=1, le=10_000, description="a player who holds with at least this many points wins")
    turn_cap: int = Field(1000, ge=1, le=100_000, description="safety cap on turns; a capped game is a draw (counted)")
    first_player: Literal["random", "seat0"] = Field(
        "random", description="who moves first: drawn at random each game (random) or always seat 0 (seat0)")


class PigScenario(ScenarioBase):
    POLICIES = POLICIES
    POLICY_DOCS = POLICY_DOCS
    WEIGHTS = WEIGHTS
    RESTRICTIONS = RESTRICTIONS
    ROLLOUT_POLICY = "hold_at"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    rules: PigRules = PigRules()


def kernel_inputs(sc: PigScenario) -> tuple:
    """(target, turn_cap, first_random, policy codes, weights, restrictions, script): engine.play's inputs."""
    return (np.int64(sc.rules.target), np.int64(sc.rules.turn_cap), np.int64(sc.rules.first_player == "random"),
            sc.policy_codes(), sc.weight_rows(), sc.restrict_masks(), sc.script_codes())
