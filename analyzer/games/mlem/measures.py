"""MLEM's own balance measures: safety stops and the win rate of a seat that sent each astronaut type."""
import numpy as np

from ...measures import SAFETY_STOPS, Measure, safety_stops
from ...results import matrix
from .decisions import TYPE_NAMES

GROUPS = {**SAFETY_STOPS, "faction_win_rate": "win rate of a seat that sent each astronaut type (boarded it at least once)"}


def measures(df, scenario) -> list:
    sent = np.asarray(df["boarded"].explode().explode().to_numpy()).reshape(df.height, scenario.players, -1) > 0
    wins = matrix(df, "is_winner").astype(bool)
    out = []
    for t, name in enumerate(TYPE_NAMES):
        if sent[:, :, t].any():
            out.append(Measure("faction_win_rate", f"type {name}", (wins & sent[:, :, t]).sum(axis=1).astype(float),
                               sent[:, :, t].sum(axis=1).astype(float), pct=True))
    return out + safety_stops(df["capped"].to_numpy() > 0)
