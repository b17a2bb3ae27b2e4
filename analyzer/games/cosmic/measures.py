"""Simply Cosmic's own balance measures: each alien's win rate when dealt."""
from ...measures import faction_rates
from .state import ALIEN_NAMES

GROUPS = {"faction_win_rate": "win rate of each alien when dealt"}


def measures(df, scenario) -> list:
    return faction_rates(df, ALIEN_NAMES)
