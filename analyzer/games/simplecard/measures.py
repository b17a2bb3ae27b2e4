"""Simple Card's own balance measures: each deck's win rate when dealt."""
from ...measures import faction_rates

GROUPS = {"faction_win_rate": "win rate of each deck when dealt"}


def measures(df, scenario) -> list:
    return faction_rates(df, [d.name for d in scenario.decks])
