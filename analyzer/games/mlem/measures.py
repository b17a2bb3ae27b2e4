"""MLEM's own balance measures: safety stops and the win rate of a seat that placed each astronaut type."""
import numpy as np

from ...measures import SAFETY_STOPS, Measure, safety_stops
from ...results import matrix
from .decisions import TYPE_NAMES

GROUPS = {**SAFETY_STOPS, "faction_win_rate": "win rate of a seat that placed each astronaut type (on a moon or beyond)"}
PLACED = 2  # astronaut_at codes 2..5: on a moon, planet, comet or galaxy


def measures(df, scenario) -> list:
    where = np.asarray(df["astronaut_at"].explode().explode().to_numpy()).reshape(df.height, scenario.players, -1)
    wins = matrix(df, "is_winner").astype(bool)
    out = []
    for t, name in enumerate(TYPE_NAMES):
        placed = where[:, :, t] >= PLACED
        if placed.any():
            out.append(Measure("faction_win_rate", f"type {name}", (wins & placed).sum(axis=1).astype(float),
                               placed.sum(axis=1).astype(float), pct=True))
    return out + safety_stops(df["capped"].to_numpy() > 0)
