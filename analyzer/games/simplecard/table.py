"""The card arithmetic of a contact, shared by the rules (engine.py) and the policies' estimates.

A card in a Main is a chain: its rank-1 base card and `height` cards in all, each the card of the same
name one rank up (`up[c]`). The chain's numbers are those of its top card (`stack_values: top`) or the
sum over its cards (`sum`).

The policies rate every placement on all three contacts, some 150 totals a game: the rules and the
policies read them from tables made once per batch (`rule_tables`) instead of walking the chain each time.
"""
import numpy as np
from numba import njit

from .scenario import MAX_RANK, F, R

# one player's zones: sizes and single slots n[p, N_...]; the cards of deck, hand and Risk live in
# deck[p, :n[p, N_DECK]] (top = last), hand[p, :n[p, N_HAND]], risk[p, :n[p, N_RISK_N]] (face-down
# cards stored as -1 - card). The Main is a chain (base card, height), face up or set. N_TOP_SEEN: the
# cards on top of p's deck that p has seen there (Reading), which a search's re-deal leaves in place.
(N_RISK_PTS, N_DECK, N_HAND, N_BAL, N_RISK_N, N_MAIN_BASE, N_MAIN_H, N_MAIN_UP, N_UNDER, N_REMOVED,
 N_TOP_SEEN, N_FIELDS) = range(12)


@njit(cache=True)
def top_of(up, base, height):
    c = base
    for _ in range(height - 1):
        c = up[c]
    return c


@njit(cache=True)
def stack_field(cards, up, base, height, field, stack_sum):
    """One number (F.A, F.ACTIVE, F.RISK...) of a Main of `height` cards on `base`."""
    if not stack_sum:
        return cards[top_of(up, base, height), field]
    total, c = 0, base
    for _ in range(height):
        total += cards[c, field]
        c = up[c]
    return total


@njit(cache=True)
def stack_risk(cards, up, base, height):
    """Risk points of every card of the chain (what its destruction adds to its owner's Risk)."""
    total, c = 0, base
    for _ in range(height):
        total += cards[c, F.RISK]
        c = up[c]
    return total


@njit(cache=True)
def balancer_bonus(cards, balancer, x):
    """The balancer's lowest contact value raises every contact value that ties for lowest: contact x
    gets that amount if the balancer's x value is (one of) the lowest, else 0."""
    a, b, c = cards[balancer, F.A], cards[balancer, F.B], cards[balancer, F.C]
    low = min(a, min(b, c))
    return low if cards[balancer, F.A + x] == low else 0


@njit(cache=True)
def rule_tables(cards, up, rules):
    """(mains, bonus): mains[c, h - 1, f] is number f (F.ACTIVE .. F.C; F.RISK: the points its destruction
    adds) of a Main of h cards on base c; bonus[b, x] what balancer b adds to contact x (0 without
    balancer_bonus)."""
    stack_sum = rules[R.STACK_SUM]
    mains = np.zeros((cards.shape[0], MAX_RANK, F.RISK + 1), np.int64)
    bonus = np.zeros((cards.shape[0], 3), np.int64)
    for c in range(cards.shape[0]):
        for h in range(1, MAX_RANK + 1):
            for f in range(F.C + 1):
                mains[c, h - 1, f] = stack_field(cards, up, c, h, f, stack_sum)
            mains[c, h - 1, F.RISK] = stack_risk(cards, up, c, h)
        for x in range(3):
            if rules[R.BALANCER_BONUS]:
                bonus[c, x] = balancer_bonus(cards, c, x)
    return mains, bonus


@njit(cache=True)
def main_risk(data, base, height):
    """What destroying the Main (base, height) adds to its owner's Risk (data: packs.Data)."""
    return data.mains[base, height - 1, F.RISK]


@njit(cache=True)
def contact_total(data, base, height, x, role, balancer):
    """Chosen contact value + the active (role F.ACTIVE) or passive (F.PASSIVE) value + balancer bonus."""
    mains = data.mains
    return mains[base, height - 1, F.A + x] + mains[base, height - 1, role] + data.bonus[balancer, x]
