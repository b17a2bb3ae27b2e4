"""The deck's challenge cards counted in pairs: the tables the heuristics' alliance odds read
(policies.card_odds, win_odds). They depend on the deck only (and on the one card a Mind may have seen),
so scenario.kernel_inputs fills them into d once (state.RULES card_odds) instead of counting the pairs at
every alliance decision, the costliest step of the heuristics when it did. Public facts of the deck: the
rules side may build them."""
from numba import njit

from . import state as L
from .state import R

DIFF, ODDS_CUM, ODDS_SIZE = L.DIFF, L.ODDS_CUM, L.ODDS_SIZE  # the tables' layout (state.py)


@njit(cache=True)
def card_weight(d, known, k):
    """How likely a main player's card is kind k (in copies): its known card for sure, else as the deck
    holds them."""
    if known >= 0:
        return 1 if k == known else 0
    return d[R.COPIES + k]


@njit(cache=True)
def pair_odds(d, ko, kd, odds):
    """Fills `odds` (zeros) with the two main players' cards counted in pairs, each its known card (ko, kd;
    -1: unknown), else the deck's challenge cards by copies: the table win_odds reads (state.py)."""
    for i in range(d[R.CHALLENGE_KINDS]):
        wi = card_weight(d, ko, i)
        for j in range(d[R.CHALLENGE_KINDS]):
            w = wi * card_weight(d, kd, j)
            if w == 0:
                continue
            odds[0] += w
            o_attack, d_attack = d[R.CTYPE + i] == L.C_ATTACK, d[R.CTYPE + j] == L.C_ATTACK
            if o_attack and d_attack:
                odds[ODDS_CUM + DIFF + d[R.CVAL + i] - d[R.CVAL + j]] += w
            elif o_attack:
                odds[1] += w
            elif d_attack:
                odds[2] += w
    for x in range(ODDS_CUM + 1, ODDS_SIZE):
        odds[x] += odds[x - 1]


@njit(cache=True)
def fill_card_odds(d):
    """Every table policies.card_odds reads, into d (scenario.kernel_inputs, once per scenario)."""
    for t in range(L.ODDS_TABLES):
        ko = t - 1 if 1 <= t <= L.KMAX else -1
        kd = t - 1 - L.KMAX if t > L.KMAX else -1
        if max(ko, kd) < d[R.CHALLENGE_KINDS]:
            pair_odds(d, ko, kd, d[R.CARD_ODDS + t * ODDS_SIZE: R.CARD_ODDS + (t + 1) * ODDS_SIZE])
