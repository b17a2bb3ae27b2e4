"""Pig's own balance measures: the share of games a safety cap stopped."""
from ...measures import SAFETY_STOPS, safety_stops

GROUPS = SAFETY_STOPS


def measures(df, scenario) -> list:
    return safety_stops(df["capped"].to_numpy() > 0)
