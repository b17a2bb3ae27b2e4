"""Simple Card's own balance measures: safety stops and each deck's win rate when dealt."""
from ...measures import SAFETY_STOPS, faction_rates, safety_stops

GROUPS = {**SAFETY_STOPS, "faction_win_rate": "win rate of each deck when dealt"}


def measures(df, scenario) -> list:
    return faction_rates(df, [d.name for d in scenario.decks]) + safety_stops(df["capped"].to_numpy() > 0)
