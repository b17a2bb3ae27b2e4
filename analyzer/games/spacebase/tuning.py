"""What `analyzer tune spacebase --target position-fairness` may change: each later position's setup
bonus in credits (0-5) and income (0-2). The start player's bonus stays 0: it is the reference."""

CREDIT_CHOICES = range(0, 6)
INCOME_CHOICES = range(0, 3)


def tune_space(scenario) -> dict[str, list]:
    space = {}
    bonus = scenario.rules.turn_order_bonus
    for pos in range(1, scenario.players):
        for field, choices in (("credits", CREDIT_CHOICES), ("income", INCOME_CHOICES)):
            current = getattr(bonus[pos], field)
            space[f"rules.turn_order_bonus.{pos}.{field}"] = [current, *[c for c in choices if c != current]]
    return space


def tune_starts(space: dict[str, list]) -> list[dict]:
    """Search from the printed bonus and from no bonus at all."""
    return [{k: v[0] for k, v in space.items()}, {k: 0 for k in space}]
