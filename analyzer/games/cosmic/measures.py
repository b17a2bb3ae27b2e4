"""Simply Cosmic's own balance measures: safety stops and each alien's win rate when dealt."""
from ...measures import SAFETY_STOPS, faction_rates, safety_stops
from .state import ALIEN_NAMES

GROUPS = {**SAFETY_STOPS, "faction_win_rate": "win rate of each alien when dealt"}


def measures(df, scenario) -> list:
    return faction_rates(df, ALIEN_NAMES) + safety_stops(df["capped"].to_numpy() > 0)
