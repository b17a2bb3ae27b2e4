"""Space Base's own balance measures: the share of games a safety cap stopped."""
from ...measures import SAFETY_STOPS, safety_stops

SAFETY_STOP = 3  # end_reason of a game stopped by rules.max_rounds

GROUPS = SAFETY_STOPS


def measures(df, scenario) -> list:
    return safety_stops(df["end_reason"].to_numpy() == SAFETY_STOP)
