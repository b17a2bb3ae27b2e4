"""Pig's scenario schema and its translation into the kernel's inputs (arrays and numbers only)."""
from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field, model_validator

from ...kernel import SHARED_POLICIES, SHARED_POLICY_DOCS
from ...scenario import ScenarioBase, Strict

POLICIES = (*SHARED_POLICIES, "hold_at")  # codes = index: random 0, scripted 1 (analyzer.kernel), then ours
POLICY_DOCS = {**SHARED_POLICY_DOCS,  # one line each; policies.py says it in full
    "hold_at": "rolls until its turn total reaches `hold_at` (or holding wins), then holds",
}


class PigRules(Strict):
    target: int = Field(100, ge=1, le=10_000, description="a player who holds with at least this many points wins")
    turn_cap: int = Field(1000, ge=1, le=100_000, description="safety cap on turns; a capped game is a draw (counted)")
    first_player: Literal["random", "seat0"] = Field(
        "random", description="who moves first: drawn at random each game (random) or always seat 0 (seat0)")


class PigScenario(ScenarioBase):
    POLICIES = POLICIES
    POLICY_DOCS = POLICY_DOCS
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    rules: PigRules = PigRules()
    hold_at: list[int] = Field([20], description="hold_at policy: hold once the turn total reaches this (one value, or one per seat)")

    @model_validator(mode="after")
    def _check_hold_at(self):
        if len(self.hold_at) not in (1, self.players):
            raise ValueError(f"hold_at needs 1 value or one per seat ({self.players}), got {len(self.hold_at)}")
        if min(self.hold_at) < 1:
            raise ValueError("hold_at values must be at least 1")
        return self


def kernel_inputs(sc: PigScenario) -> tuple:
    """(target, turn_cap, first_random, policy codes, hold_at, script): engine.play's inputs."""
    return (np.int64(sc.rules.target), np.int64(sc.rules.turn_cap), np.int64(sc.rules.first_player == "random"),
            sc.policy_codes(), np.array(sc.per_seat(sc.hold_at), np.int64), sc.script_codes())
