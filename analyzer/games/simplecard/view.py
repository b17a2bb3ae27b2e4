"""What a Simple Card player may know when deciding, built by the rules (`fill_view`): its own hand and
Main, both balancers, both Risk totals, deck and hand sizes, and the opponent's Main when face up (a
face-down card is the "unknown card", the pool's mean). The engine (engine.ask) builds it at every
decision; policies.py only reads it. views.py checks that the opponent's hand, the decks and a set card
never change a decision.
"""
from numba import njit

from .decisions import MAX_CARDS
from .table import N_BAL, N_DECK, N_HAND, N_MAIN_BASE, N_MAIN_H, N_MAIN_UP, N_RISK_PTS

# the view: view[V_...]; a Main is (base card, height); height 0 = empty; a face-down Main's base is the
# unknown card (the last row of `cards`)
(V_KIND, V_SEAT, V_ACTIVE, V_MY_RISK, V_OPP_RISK, V_MY_DECK, V_OPP_DECK, V_OPP_HAND, V_MY_BAL, V_OPP_BAL,
 V_MY_BASE, V_MY_H, V_OPP_BASE, V_OPP_H, V_CONTACT, V_CHANGES_LEFT, V_CAST_FOR, V_HAND_N) = range(18)
V_HAND = 18
VIEW_SIZE = V_HAND + MAX_CARDS


@njit(cache=True)
def fill_view(view, kind, p, active, n, hand, contact, changes_left, cast_for, hidden):
    """The one place a player's view is built: the public table (balancers, Risk totals, zone sizes, the
    opponent's Main if face up, else the unknown card `hidden`) and p's own hand and Main."""
    q = 1 - p
    view[V_KIND] = kind
    view[V_SEAT] = p
    view[V_ACTIVE] = p == active
    view[V_MY_RISK], view[V_OPP_RISK] = n[p, N_RISK_PTS], n[q, N_RISK_PTS]
    view[V_MY_DECK], view[V_OPP_DECK] = n[p, N_DECK], n[q, N_DECK]
    view[V_OPP_HAND] = n[q, N_HAND]
    view[V_MY_BAL], view[V_OPP_BAL] = n[p, N_BAL], n[q, N_BAL]
    view[V_MY_BASE], view[V_MY_H] = n[p, N_MAIN_BASE], n[p, N_MAIN_H]
    view[V_OPP_BASE] = n[q, N_MAIN_BASE] if n[q, N_MAIN_UP] else hidden
    view[V_OPP_H] = n[q, N_MAIN_H] if n[q, N_MAIN_UP] else min(n[q, N_MAIN_H], 1)
    view[V_CONTACT] = contact
    view[V_CHANGES_LEFT] = changes_left
    view[V_CAST_FOR] = cast_for
    view[V_HAND_N] = n[p, N_HAND]
    for k in range(n[p, N_HAND]):
        view[V_HAND + k] = hand[p, k]
