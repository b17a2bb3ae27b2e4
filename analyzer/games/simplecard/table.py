"""The card arithmetic of a contact, shared by the rules (engine.py) and the policies' estimates.

A card in a Main is a chain: its rank-1 base card and `height` cards in all, each the card of the same
name one rank up (`up[c]`). The chain's numbers are those of its top card (`stack_values: top`) or the
sum over its cards (`sum`).
"""
from numba import njit

from .scenario import K, R

# one player's zones: sizes and single slots n[p, N_...]; the cards of deck, hand and Risk live in
# deck[p, :n[p, N_DECK]] (top = last), hand[p, :n[p, N_HAND]], risk[p, :n[p, N_RISK_N]] (face-down
# cards stored as -1 - card). The Main is a chain (base card, height), face up or set.
(N_RISK_PTS, N_DECK, N_HAND, N_BAL, N_RISK_N, N_MAIN_BASE, N_MAIN_H, N_MAIN_UP, N_UNDER, N_REMOVED,
 N_FIELDS) = range(11)


@njit(cache=True)
def top_of(up, base, height):
    c = base
    for _ in range(height - 1):
        c = up[c]
    return c


@njit(cache=True)
def stack_field(cards, up, base, height, field, stack_sum):
    """One number (K.A, K.ACTIVE, K.RISK...) of a Main of `height` cards on `base`."""
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
        total += cards[c, K.RISK]
        c = up[c]
    return total


@njit(cache=True)
def balancer_bonus(cards, balancer, x):
    """The balancer's lowest contact value raises every contact value that ties for lowest: contact x
    gets that amount if the balancer's x value is (one of) the lowest, else 0."""
    a, b, c = cards[balancer, K.A], cards[balancer, K.B], cards[balancer, K.C]
    low = min(a, min(b, c))
    return low if cards[balancer, K.A + x] == low else 0


@njit(cache=True)
def contact_total(cards, up, rules, base, height, x, role, balancer):
    """Chosen contact value + the active (role K.ACTIVE) or passive (K.PASSIVE) value + balancer bonus."""
    stack_sum = rules[R.STACK_SUM]
    total = stack_field(cards, up, base, height, K.A + x, stack_sum) + stack_field(cards, up, base, height, role, stack_sum)
    if rules[R.BALANCER_BONUS]:
        total += balancer_bonus(cards, balancer, x)
    return total
