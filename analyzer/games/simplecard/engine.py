"""Simple Card, the rulebook as one compiled kernel (and, with tracing on, the recorder `analyzer replay`
reads). The rules and their open points: the package docstring (__init__.py).

A game: setup (shuffle, 4 cards to hand, the next card onto the Balance; the player whose balancer has
more risk points chooses to go first or second), then ACTs, the players alternating as active and
passive, until a player loses (`check_losses`) or the ACT cap. One ACT (`play_act`): the active Main
returns to hand; draw to 4; pre-scene cast techniques; the SCENE (place a card: face up if the opponent's
Main holds one, else set face down; a rank-2/3 stack always face up); the CONTACT if the passive Main
holds a card (contact choice, open, totals, Changing, destruction); post-scene Bounce.
"""
import numpy as np
from numba import njit

from ... import rng
from ...kernel import A_REDEAL, keep_allowed, record
from ...kernel_internals import borrowed, jit_plain_ints, keep_alive, release
from .columns import BITS, G, S
from .decisions import (
    CT_BOUNCE,
    CT_CHANGING,
    CT_MOVING,
    CT_PICKING,
    CT_READING,
    CT_RECALL,
    CT_SHIFT,
    CT_SKIPPING,
    D_CAST,
    D_CHANGE,
    D_CHANGE_PLACE,
    D_CONTACT,
    D_DRAW,
    D_FIRST,
    D_MOVE,
    D_PICK,
    D_PLACE,
    D_POST,
    D_PRE,
    D_READ,
    D_RECALL,
    D_SHIFT,
    GO_FIRST,
    GO_SECOND,
    MAX_CARDS,
    MAX_OPTIONS,
    NO_CT,
    NO_GO_SECOND,
    NO_RANK2_STACKS,
    O_CARD,
    O_CODE,
    O_INDEX,
    PROCEED,
)
from .packs import new_data, new_policy, new_rows, new_zones
from .policies import decide
from .scenario import OLD_REMOVED, OLD_RISK, SIM_ACTIVE_LOSES, SIM_DRAW, F, R
from .table import (
    N_BAL,
    N_DECK,
    N_FIELDS,
    N_HAND,
    N_MAIN_BASE,
    N_MAIN_H,
    N_MAIN_UP,
    N_REMOVED,
    N_RISK_N,
    N_RISK_PTS,
    N_TOP_SEEN,
    N_UNDER,
    contact_total,
    main_risk,
    rule_tables,
    top_of,
)
from .view import VIEW_SIZE, fill_view

END_CAP, END_RISK, END_DECKOUT, END_CANNOT_PLACE = 0, 1, 2, 3
# the game status: gs[GS_OVER] 1 once decided, gs[GS_LOSERS] bit per losing seat, gs[GS_REASON] an END_ code
GS_OVER, GS_LOSERS, GS_REASON = 0, 1, 2
HAND_TARGET = 4

# trace records: (kind, seat, a, b, c)
(E_SETUP, E_CHOOSE, E_ACT, E_RETURN, E_DRAW, E_CAST, E_PICK, E_READ, E_SHIFT, E_SKIP, E_MOVE, E_RECALL,
 E_PLACE, E_CONTACT, E_OPEN, E_TOTALS, E_CHANGE, E_DESTROY, E_TIE, E_BOUNCE, E_LOSE, E_WIN, E_DRAWN,
 E_CAP) = range(1, 25)
# reading_depth (scenario.READING_DEPTHS order) -> the card number it reads
DEPTH_FIELD = np.array([F.ACTIVE, F.PASSIVE, F.A, F.B, F.C, F.RANK, F.RISK], np.int64)


# ---- zones -------------------------------------------------------------------------------------------
@njit(cache=True)
def take_from_hand(st, p, i):
    """Remove and return hand[p, i], keeping the others in order."""
    n, hand = st.n, st.hand
    c = hand[p, i]
    for k in range(i, n[p, N_HAND] - 1):
        hand[p, k] = hand[p, k + 1]
    n[p, N_HAND] -= 1
    return c


@njit(cache=True)
def add_to_hand(st, p, c):
    n, hand = st.n, st.hand
    hand[p, n[p, N_HAND]] = c
    n[p, N_HAND] += 1


@njit(cache=True)
def find_in_hand(st, p, c, skip):
    """Index of card c in p's hand other than index `skip`, or -1."""
    n, hand = st.n, st.hand
    for k in range(n[p, N_HAND]):
        if k != skip and hand[p, k] == c:
            return k
    return -1


@njit(cache=True)
def draw(st, p):
    n, deck = st.n, st.deck
    n[p, N_DECK] -= 1
    n[p, N_TOP_SEEN] = max(n[p, N_TOP_SEEN] - 1, 0)
    add_to_hand(st, p, deck[p, n[p, N_DECK]])


@njit(cache=True)
def to_risk(st, cards, p, c, face_up):
    """A card into p's Risk: face up it counts its risk points; face down it is a nameless card worth 0."""
    n, risk = st.n, st.risk
    risk[p, n[p, N_RISK_N]] = c if face_up else -1 - c
    n[p, N_RISK_N] += 1
    if face_up:
        n[p, N_RISK_PTS] += cards[c, F.RISK]


@njit(cache=True)
def set_balancer(st, data, p, c):
    """c becomes p's balancer; the old one goes under it, to Risk or to Removed (old_balancer)."""
    rules, cards = data.rules, data.cards
    n = st.n
    old = n[p, N_BAL]
    n[p, N_BAL] = c
    if rules[R.OLD_BALANCER] == OLD_RISK:
        to_risk(st, cards, p, old, True)
    elif rules[R.OLD_BALANCER] == OLD_REMOVED:
        n[p, N_REMOVED] += 1
    else:
        n[p, N_UNDER] += 1
    return old


@njit(cache=True)
def main_to_hand(st, data, p, to):
    """p's whole Main (the stack shares its fate) returns to the hand of seat `to`."""
    up = data.up
    n = st.n
    c = n[p, N_MAIN_BASE]
    if not n[p, N_MAIN_UP] and n[p, N_MAIN_H] > 0:  # a set card: unseen into its owner's hand, or taken
        if to == p:
            seen_set_to_hand(st, p)
        else:  # by the caster (Moving), who sees it; its owner knows it in the caster's hand
            seen_set_gone(st, p, c)
            seen_enter(st, to, c)
    for _ in range(n[p, N_MAIN_H]):
        add_to_hand(st, to, c)
        if n[p, N_MAIN_UP]:
            seen_enter(st, to, c)
        c = up[c]
    n[p, N_MAIN_H] = 0
    n[p, N_MAIN_UP] = 0


@njit(cache=True)
def destroy_main(st, data, p):
    """p's whole Main goes face up to p's Risk; returns the risk points added."""
    cards, up = data.cards, data.up
    n = st.n
    c = n[p, N_MAIN_BASE]
    added = main_risk(data, c, n[p, N_MAIN_H])
    for _ in range(n[p, N_MAIN_H]):
        to_risk(st, cards, p, c, True)
        c = up[c]
    n[p, N_MAIN_H] = 0
    n[p, N_MAIN_UP] = 0
    return added


@njit(cache=True)
def mark_played(played, up, p, base, height):
    c = base
    for _ in range(height):
        played[p, c // BITS] |= np.int64(1) << (c % BITS)
        c = up[c]


# ---- what each player has seen of the other's hidden cards -------------------------------------------
# A search seat's rollouts re-deal what it cannot see (`redeal`), keeping what it has seen where it saw it:
# the cards it saw go into the opponent's hand (a face-up Main returned, Moving, Recall, a Picking's look
# at the whole hand) stay there until it sees them leave. seen[q, IN_HAND, c]: copies of card c that q's
# opponent knows are in q's hand; seen[q, IN_HAND_OR_SET, c]: in q's hand or its face-down Main (q set a
# card from a hand holding them: any one of them may be the set card). A player's own seen deck top is
# n[p, N_TOP_SEEN]. Counts of card ids: copies of a card are alike.
IN_HAND, IN_HAND_OR_SET = 0, 1


@njit(cache=True)
def seen_enter(st, q, c):
    """Card c goes into q's hand in view of q's opponent."""
    st.seen[q, IN_HAND, c] += 1


@njit(cache=True)
def seen_leave(st, q, c):
    """Card c leaves q's hand (or its set card) in view of q's opponent."""
    seen = st.seen
    if seen[q, IN_HAND, c] > 0:
        seen[q, IN_HAND, c] -= 1
    elif seen[q, IN_HAND_OR_SET, c] > 0:
        seen[q, IN_HAND_OR_SET, c] -= 1


@njit(cache=True)
def seen_set(st, q, c):
    """q sets card c face down from its hand: each card known in its hand may now be the set card."""
    n, hand, seen = st.n, st.hand, st.seen
    for i in range(n[q, N_HAND] + 1):
        d = hand[q, i] if i < n[q, N_HAND] else c
        seen[q, IN_HAND_OR_SET, d] += seen[q, IN_HAND, d]
        seen[q, IN_HAND, d] = 0


@njit(cache=True)
def seen_set_to_hand(st, q):
    """q's set card goes back into its hand unseen: the cards known in its hand or set card are in its hand."""
    n, hand, seen = st.n, st.hand, st.seen
    for i in range(n[q, N_HAND] + 1):
        d = hand[q, i] if i < n[q, N_HAND] else n[q, N_MAIN_BASE]
        seen[q, IN_HAND, d] += seen[q, IN_HAND_OR_SET, d]
        seen[q, IN_HAND_OR_SET, d] = 0


@njit(cache=True)
def seen_set_gone(st, q, c):
    """q's set card c is shown (it opens, or Moving gives it to the caster): the rest are in q's hand."""
    seen = st.seen
    if seen[q, IN_HAND_OR_SET, c] > 0:
        seen[q, IN_HAND_OR_SET, c] -= 1
    seen_set_to_hand(st, q)


@njit(cache=True)
def seen_whole_hand(st, q):
    """q's opponent looks at q's hand (Picking): it knows the hand; what it knew in q's hand or set card
    beyond the hand is the set card."""
    n, hand, seen = st.n, st.hand, st.seen
    for i in range(n[q, N_HAND]):  # the known counts, plus every copy in the hand over them
        d = hand[q, i]
        seen[q, IN_HAND_OR_SET, d] += seen[q, IN_HAND, d]
        seen[q, IN_HAND, d] = 0
    for i in range(n[q, N_HAND]):
        d = hand[q, i]
        seen[q, IN_HAND, d] += 1
        seen[q, IN_HAND_OR_SET, d] = max(seen[q, IN_HAND_OR_SET, d] - 1, 0)


@njit(cache=True)
def seen_placed(st, data, a):
    """a's Main just placed from its hand: face up, every card of it seen leaving; set, it may be any
    card known in a's hand."""
    n = st.n
    c = n[a, N_MAIN_BASE]
    if not n[a, N_MAIN_UP]:
        seen_set(st, a, c)
        return
    for _ in range(n[a, N_MAIN_H]):
        seen_leave(st, a, c)
        c = data.up[c]


# ---- losing ------------------------------------------------------------------------------------------
@njit(cache=True)
def at_limit(points, rules):
    return points >= rules[R.RISK_LIMIT] if rules[R.RISK_INCLUSIVE] else points > rules[R.RISK_LIMIT]


@njit(cache=True)
def check_losses(st, rules, gs, risk_now):
    """Every losing condition that holds now, for both players at once (so simultaneous losses are seen
    together): a Risk total at the limit (when `risk_now`), deck and hand both empty (continuous check).
    Returns True once the game is decided."""
    n = st.n
    for p in range(2):
        if risk_now and at_limit(n[p, N_RISK_PTS], rules):
            gs[GS_LOSERS] |= 1 << p
            gs[GS_REASON] = END_RISK
        elif rules[R.DECKOUT_CONTINUOUS] and n[p, N_DECK] == 0 and n[p, N_HAND] == 0:
            gs[GS_LOSERS] |= 1 << p
            if gs[GS_REASON] == END_CAP:
                gs[GS_REASON] = END_DECKOUT
    if gs[GS_LOSERS]:
        gs[GS_OVER] = 1
    return gs[GS_OVER] == 1


@njit(cache=True)
def lose_now(gs, p, reason):
    gs[GS_LOSERS] |= 1 << p
    gs[GS_REASON] = reason
    gs[GS_OVER] = 1


# ---- decisions ---------------------------------------------------------------------------------------
# plain ints: numba would otherwise compile the whole policy tree again for each literal decision kind
@jit_plain_ints
def ask(kind, p, a, st, data, pol, n_options, contact, changes_left, cast_for):
    """Seat p's policy picks one of the n_options listed in pol's options array; returns its index."""
    hidden = data.cards.shape[0] - 1  # the unknown card: the last row of cards
    fill_view(pol.own_view, kind, p, a, st.n, st.hand, contact, changes_left, cast_for, hidden)
    k = decide(pol.policy[p], data, pol, n_options, pol.weights[p])
    ctl = pol.ctl
    if ctl[A_REDEAL] != 0:  # a search rollout's branch (kernel.search_step): what its seat cannot see, dealt anew
        redeal(st, data, ctl[A_REDEAL] - 1, pol.stream)
        ctl[A_REDEAL] = 0
    return k


@njit(cache=True)
def forbidden(kind, option, mask):
    """Does a restriction of `mask` (decisions.NO_*) forbid this option row at a decision of this kind?"""
    code = option[O_CODE]
    if kind == D_PLACE:
        return mask & NO_RANK2_STACKS != 0 and code > 1
    if kind == D_FIRST:
        return mask & NO_GO_SECOND != 0 and code == GO_SECOND
    if kind == D_PRE or kind == D_CHANGE or kind == D_POST:
        return code != PROCEED and mask & (NO_CT << code) != 0
    return False


@njit(cache=True)
def restrict(kind, p, pol, n_options, s):
    """Seat p's restrictions filter the options it listed (kernel.keep_allowed): the allowed ones move to
    the front, in their order, and their number is returned. If none is allowed the filter is lifted (all
    n_options stay) and s[p, restrict_lifted] counts it. Unrestricted (mask 0): nothing changes."""
    mask = pol.restrict[p]
    if mask == 0:
        return n_options
    options = pol.options
    allowed = np.empty(n_options, np.bool_)  # restricted seats only: the common path allocates nothing
    for k in range(n_options):
        allowed[k] = not forbidden(kind, options[k], mask)
    m = keep_allowed(options, n_options, allowed)
    if m == 0:
        s[p, S.RESTRICT_LIFTED] += 1
        return n_options
    return m


@njit(cache=True)
def list_hand(st, p, options, skip_last):
    """Every hand card of p as an option (index, card), but for the last `skip_last` cards."""
    n, hand = st.n, st.hand
    k = 0
    for i in range(n[p, N_HAND] - skip_last):
        options[k, O_CODE], options[k, O_INDEX], options[k, O_CARD] = 0, i, hand[p, i]
        k += 1
    return k


@njit(cache=True)
def cast(p, a, kind, st, data, pol, out, gs, ev, tn, cap):
    """To cast: p puts a hand card of its choice face up into its own Risk (its points count). Losing is a
    state (loss_check: immediate): a cast can lose at once, and the technique then stops. Returns True if
    the game is decided."""
    rules, cards = data.rules, data.cards
    n_opt = list_hand(st, p, pol.options, 0)
    k = ask(D_CAST, p, a, st, data, pol, n_opt, -1, 0, kind) if n_opt > 1 else 0
    c = take_from_hand(st, p, pol.options[k, O_INDEX])
    seen_leave(st, p, c)
    to_risk(st, cards, p, c, True)
    out.s[p, S.CAST_RISK] += cards[c, F.RISK]
    record(ev, tn, cap, E_CAST, p, c, kind, st.n[p, N_RISK_PTS])
    return check_losses(st, rules, gs, rules[R.LOSS_IMMEDIATE] == 1)


# ---- pre-scene cast techniques -------------------------------------------------------------------------
@njit(cache=True)
def list_pre_scene(a, st, data, options, shifted):
    """PROCEED, then each pre-scene technique the active player may use now (enabled, affordable, useful)."""
    rules, enabled = data.rules, data.enabled
    n, risk = st.n, st.risk
    b = 1 - a
    hand = n[a, N_HAND]
    recallable = False  # a Risk card that Recall may take (recall_takes_face_down: any)
    for k in range(n[a, N_RISK_N]):
        recallable = recallable or risk[a, k] >= 0 or rules[R.RECALL_FACE_DOWN] == 1
    # in CT id order, picking .. recall; a tuple, not an array: this runs every ACT and must not allocate
    legal = (hand >= 1 and n[b, N_HAND] >= 1,
             hand >= 1 and n[a, N_DECK] >= 1,
             hand >= 1 and not shifted,
             hand >= 1 and n[b, N_DECK] >= 1,
             hand >= 1 and (n[a, N_MAIN_H] > 0 or n[b, N_MAIN_H] > 0),
             hand >= 2 and (recallable or rules[R.RECALL_JUST_CAST] == 1))
    options[0, O_CODE] = PROCEED
    m = 1
    for t in range(CT_RECALL + 1):
        if enabled[t] and legal[t]:
            options[m, O_CODE] = t
            m += 1
    return m


@njit(cache=True)
def picking(a, st, data, pol, out, gs, ev, tn, cap):
    """Cast 1; look at the opponent's hand and put one of its cards face down into a Risk (worth 0)."""
    rules, cards = data.rules, data.cards
    b = 1 - a
    if cast(a, a, CT_PICKING, st, data, pol, out, gs, ev, tn, cap):
        return
    n_opt = list_hand(st, b, pol.options, 0)  # the opponent's hand, shown to the caster
    seen_whole_hand(st, b)
    k = ask(D_PICK, a, a, st, data, pol, n_opt, -1, 0, CT_PICKING) if n_opt > 1 else 0
    c = take_from_hand(st, b, pol.options[k, O_INDEX])
    seen_leave(st, b, c)
    target = a if rules[R.PICKING_TO_CASTER] else b
    to_risk(st, cards, target, c, False)
    record(ev, tn, cap, E_PICK, a, c, target, 0)


@njit(cache=True)
def reading_depth(cards, rules, c):
    return cards[c, DEPTH_FIELD[rules[R.READING_DEPTH]]]


@njit(cache=True)
def reading(a, st, data, pol, out, gs, ev, tn, cap):
    """Cast 1; look at the top N cards of your deck (N: reading_depth of the cast card) and reorder them:
    the player picks which seen card goes on top, then next, and so on."""
    rules, cards = data.rules, data.cards
    n, deck, risk = st.n, st.deck, st.risk
    options = pol.options
    if cast(a, a, CT_READING, st, data, pol, out, gs, ev, tn, cap):
        return
    c = risk[a, n[a, N_RISK_N] - 1]
    m = min(reading_depth(cards, rules, c), n[a, N_DECK])
    n[a, N_TOP_SEEN] = max(n[a, N_TOP_SEEN], m)
    record(ev, tn, cap, E_READ, a, m, c, 0)
    top = n[a, N_DECK] - 1
    for t in range(m - 1):
        # seen cards still to order: deck[top - t - j] for j in 0..m-t-1 (the current order as listed)
        for j in range(m - t):
            options[j, O_CODE], options[j, O_INDEX], options[j, O_CARD] = 0, top - t - j, deck[a, top - t - j]
        k = ask(D_READ, a, a, st, data, pol, m - t, -1, 0, CT_READING)
        src = options[k, O_INDEX]
        chosen = deck[a, src]
        for i in range(src, top - t):  # close the gap, then put the chosen card at the next top slot
            deck[a, i] = deck[a, i + 1]
        deck[a, top - t] = chosen


@njit(cache=True)
def balance_shift(a, st, data, pol, ev, tn, cap):
    """Once per ACT, no cast: a hand card face up onto your Balance (the new balancer)."""
    n_opt = list_hand(st, a, pol.options, 0)
    k = ask(D_SHIFT, a, a, st, data, pol, n_opt, -1, 0, CT_SHIFT) if n_opt > 1 else 0
    c = take_from_hand(st, a, pol.options[k, O_INDEX])
    seen_leave(st, a, c)
    old = set_balancer(st, data, a, c)
    record(ev, tn, cap, E_SHIFT, a, c, old, 0)


@njit(cache=True)
def skipping(a, st, data, pol, out, gs, ev, tn, cap):
    """Cast 1; the opponent's top deck card goes onto the opponent's Balance."""
    n, deck = st.n, st.deck
    b = 1 - a
    if cast(a, a, CT_SKIPPING, st, data, pol, out, gs, ev, tn, cap):
        return
    n[b, N_DECK] -= 1
    n[b, N_TOP_SEEN] = max(n[b, N_TOP_SEEN] - 1, 0)
    c = deck[b, n[b, N_DECK]]
    old = set_balancer(st, data, b, c)
    record(ev, tn, cap, E_SKIP, b, c, old, a)


@njit(cache=True)
def moving(a, st, data, pol, out, gs, ev, tn, cap):
    """Cast 1; a card (whole stack) in either Main returns to its owner's hand (or the caster's)."""
    rules, cards = data.rules, data.cards
    n = st.n
    options = pol.options
    if cast(a, a, CT_MOVING, st, data, pol, out, gs, ev, tn, cap):
        return
    m = 0
    for p in (1 - a, a):
        if n[p, N_MAIN_H] > 0:
            options[m, O_CODE], options[m, O_INDEX] = p, 0
            options[m, O_CARD] = n[p, N_MAIN_BASE] if n[p, N_MAIN_UP] else cards.shape[0] - 1
            m += 1
    k = ask(D_MOVE, a, a, st, data, pol, m, -1, 0, CT_MOVING) if m > 1 else 0
    owner = options[k, O_CODE]
    to = a if rules[R.MOVING_TO_CASTER] else owner
    record(ev, tn, cap, E_MOVE, a, owner, n[owner, N_MAIN_BASE], to)
    main_to_hand(st, data, owner, to)


@njit(cache=True)
def recall(a, st, data, pol, out, gs, ev, tn, cap):
    """Cast 2; take a card of your Risk into your hand (not one of the two just cast, unless
    recall_can_take_just_cast; a face-down one, worth 0 points, when recall_takes_face_down). The options: the
    face-up cards, then the face-down ones (code 1). Returns False if the casts already lost the game."""
    rules, cards = data.rules, data.cards
    n, risk = st.n, st.risk
    options = pol.options
    before = n[a, N_RISK_N]
    if cast(a, a, CT_RECALL, st, data, pol, out, gs, ev, tn, cap):
        return False
    if cast(a, a, CT_RECALL, st, data, pol, out, gs, ev, tn, cap):
        return False
    limit = n[a, N_RISK_N] if rules[R.RECALL_JUST_CAST] else before
    m = 0
    for down in range(1 + rules[R.RECALL_FACE_DOWN]):
        for i in range(limit):
            if (risk[a, i] < 0) == down:
                options[m, O_CODE], options[m, O_INDEX], options[m, O_CARD] = down, i, max(risk[a, i], -1 - risk[a, i])
                m += 1
    if m == 0:
        return True
    k = ask(D_RECALL, a, a, st, data, pol, m, -1, 0, CT_RECALL) if m > 1 else 0
    i, c = options[k, O_INDEX], options[k, O_CARD]
    if risk[a, i] >= 0:  # a face-down card counted 0 points
        n[a, N_RISK_PTS] -= cards[c, F.RISK]
    for j in range(i, n[a, N_RISK_N] - 1):
        risk[a, j] = risk[a, j + 1]
    n[a, N_RISK_N] -= 1
    add_to_hand(st, a, c)
    seen_enter(st, a, c)  # a Risk card, face up or one the opponent put there (Picking) or gave (its own)
    record(ev, tn, cap, E_RECALL, a, c, n[a, N_RISK_PTS], 0)
    return True


@njit(cache=True)
def pre_scene(a, st, data, pol, out, gs, ev, tn, cap):
    """The active player's pre-scene cast techniques, as many as it likes (Balance shift once per ACT)."""
    rules = data.rules
    shifted = False
    while True:
        m = restrict(D_PRE, a, pol, list_pre_scene(a, st, data, pol.options, shifted), out.s)
        if m == 1:
            return
        ct = pol.options[ask(D_PRE, a, a, st, data, pol, m, -1, 0, -1), O_CODE]
        if ct == PROCEED:
            return
        out.cts[a, ct] += 1
        if ct == CT_PICKING:
            picking(a, st, data, pol, out, gs, ev, tn, cap)
        elif ct == CT_READING:
            reading(a, st, data, pol, out, gs, ev, tn, cap)
        elif ct == CT_SHIFT:
            balance_shift(a, st, data, pol, ev, tn, cap)
            shifted = True
        elif ct == CT_SKIPPING:
            skipping(a, st, data, pol, out, gs, ev, tn, cap)
        elif ct == CT_MOVING:
            moving(a, st, data, pol, out, gs, ev, tn, cap)
        elif not recall(a, st, data, pol, out, gs, ev, tn, cap):
            return
        if check_losses(st, rules, gs, rules[R.LOSS_IMMEDIATE] == 1):
            return


# ---- the scene -------------------------------------------------------------------------------------------
@njit(cache=True)
def list_placements(a, st, data, options):
    """Every way to fill the active Main: a rank-1 card alone, or stacked with the rank-2 (and rank-3) card
    of its name from the hand; a stack only when the opponent's Main holds a card (stack_needs_opponent_main).
    options: (height, hand index of the rank-1 card, top card)."""
    rules, cards, up = data.rules, data.cards, data.up
    n, hand = st.n, st.hand
    stack_ok = n[1 - a, N_MAIN_H] > 0 or not rules[R.STACK_NEEDS_OPPONENT_MAIN]
    m = 0
    for i in range(n[a, N_HAND]):
        c = hand[a, i]
        if cards[c, F.RANK] != 1:
            continue
        options[m, O_CODE], options[m, O_INDEX], options[m, O_CARD] = 1, i, c
        m += 1
        top = c
        for h in range(2, 4):
            top = up[top]
            if not stack_ok or top < 0 or find_in_hand(st, a, top, -1) < 0:
                break
            options[m, O_CODE], options[m, O_INDEX], options[m, O_CARD] = h, i, top
            m += 1
    return m


@njit(cache=True)
def place(a, st, data, pol, out, ev, tn, cap):
    """SCENE: the active player must place; face up if the passive Main holds a card (a stack always), else
    set face down. Returns False if it cannot (a loss)."""
    rules, enabled, up = data.rules, data.enabled, data.up
    n = st.n
    options = pol.options
    m = list_placements(a, st, data, options)
    if m == 0:
        return False
    m = restrict(D_PLACE, a, pol, m, out.s)
    changes = rules[R.CHANGING_MAX] if enabled[CT_CHANGING] else 0  # what the opponent could still do
    k = ask(D_PLACE, a, a, st, data, pol, m, -1, changes, -1) if m > 1 else 0
    h, base = options[k, O_CODE], take_from_hand(st, a, options[k, O_INDEX])
    c = base
    for _ in range(h - 1):
        c = up[c]
        take_from_hand(st, a, find_in_hand(st, a, c, -1))
    n[a, N_MAIN_BASE], n[a, N_MAIN_H] = base, h
    n[a, N_MAIN_UP] = n[1 - a, N_MAIN_H] > 0 or h > 1
    seen_placed(st, data, a)
    mark_played(out.played, up, a, base, h)
    if h > 1:
        out.s[a, S.STACKS_PLAYED] += 1
    if not n[a, N_MAIN_UP]:
        out.s[a, S.SETS] += 1
    record(ev, tn, cap, E_PLACE, a, c, h, n[a, N_MAIN_UP])
    return True


@njit(cache=True)
def changing(p, a, x, st, data, pol, out, gs, changes_left, ev, tn, cap):
    """The side whose Main is inferior may Change: cast 1, return its Main (stack) to hand, place another
    rank-1 hand card face up as its Main. Returns True if it did."""
    rules, enabled, cards, up = data.rules, data.enabled, data.cards, data.up
    n, hand = st.n, st.hand
    options = pol.options
    if not enabled[CT_CHANGING] or changes_left == 0:
        return False
    ones = 0
    for i in range(n[p, N_HAND]):
        ones += cards[hand[p, i], F.RANK] == 1
    # cast options: any hand card that leaves another rank-1 card to place
    options[0, O_CODE] = PROCEED
    m = 1
    for i in range(n[p, N_HAND]):
        if ones - (cards[hand[p, i], F.RANK] == 1) >= 1:
            options[m, O_CODE], options[m, O_INDEX], options[m, O_CARD] = CT_CHANGING, i, hand[p, i]
            m += 1
    m = restrict(D_CHANGE, p, pol, m, out.s)
    if m == 1:
        return False
    k = ask(D_CHANGE, p, a, st, data, pol, m, x, changes_left, CT_CHANGING)
    if options[k, O_CODE] == PROCEED:
        return False
    out.cts[p, CT_CHANGING] += 1
    c = take_from_hand(st, p, options[k, O_INDEX])
    to_risk(st, cards, p, c, True)
    seen_leave(st, p, c)
    out.s[p, S.CAST_RISK] += cards[c, F.RISK]
    record(ev, tn, cap, E_CAST, p, c, CT_CHANGING, n[p, N_RISK_PTS])
    if check_losses(st, rules, gs, rules[R.LOSS_IMMEDIATE] == 1):
        return True
    old, old_h = n[p, N_MAIN_BASE], n[p, N_MAIN_H]
    main_to_hand(st, data, p, p)
    m = 0
    for i in range(n[p, N_HAND] - old_h):  # the returned cards (at the hand's end) may not come back
        if cards[hand[p, i], F.RANK] == 1:
            options[m, O_CODE], options[m, O_INDEX], options[m, O_CARD] = 1, i, hand[p, i]
            m += 1
    k = ask(D_CHANGE_PLACE, p, a, st, data, pol, m, x, changes_left, CT_CHANGING) if m > 1 else 0
    new = take_from_hand(st, p, options[k, O_INDEX])
    seen_leave(st, p, new)
    n[p, N_MAIN_BASE], n[p, N_MAIN_H], n[p, N_MAIN_UP] = new, 1, 1
    mark_played(out.played, up, p, new, 1)
    record(ev, tn, cap, E_CHANGE, p, new, old, 0)
    return True


@njit(cache=True)
def stack_outcome(st, data, p, destroyed, added, s):
    """Stack statistics of p's Main at the end of a contact."""
    rules = data.rules
    n = st.n
    s[p, S.STACK_CONTACTS] += 1
    if destroyed:
        s[p, S.STACKS_DESTROYED] += 1
        s[p, S.STACK_RISK] += added
        s[p, S.STACK_ENDED] += at_limit(n[p, N_RISK_PTS], rules)
    else:
        s[p, S.STACK_WINS] += 1


@njit(cache=True)
def contact(a, st, data, pol, out, gs, ev, tn, cap):
    """CONTACT: the active player chooses A, B or C; set cards open; each side totals the chosen value,
    its active (attacker) or passive (defender) value and its balancer bonus. Higher wins; the loser's Main
    (whole stack) goes face up to its Risk; a tie sends both. Changing may come before the destruction."""
    rules, up = data.rules, data.up
    n = st.n
    s = out.s
    b = 1 - a
    options = pol.options
    for x in range(3):
        options[x, O_CODE] = x
    x = options[ask(D_CONTACT, a, a, st, data, pol, 3, -1, 0, -1), O_CODE]
    record(ev, tn, cap, E_CONTACT, a, x, 0, 0)
    for p in (a, b):
        if not n[p, N_MAIN_UP]:
            n[p, N_MAIN_UP] = 1
            seen_set_gone(st, p, n[p, N_MAIN_BASE])
            record(ev, tn, cap, E_OPEN, p, top_of(up, n[p, N_MAIN_BASE], n[p, N_MAIN_H]), 0, 0)
    changes_left = rules[R.CHANGING_MAX]
    changed = -1  # the side that Changed last
    while True:
        ta = contact_total(data, n[a, N_MAIN_BASE], n[a, N_MAIN_H], x, F.ACTIVE, n[a, N_BAL])
        tb = contact_total(data, n[b, N_MAIN_BASE], n[b, N_MAIN_H], x, F.PASSIVE, n[b, N_BAL])
        record(ev, tn, cap, E_TOTALS, a, ta, tb, x)
        if ta == tb:
            break
        inferior = a if ta < tb else b
        if inferior == changed and rules[R.CHANGING_ALTERNATE]:  # changing_order: alternate
            break
        if not changing(inferior, a, x, st, data, pol, out, gs, changes_left, ev, tn, cap):
            break
        if gs[GS_OVER]:
            return
        changes_left -= 1
        changed = inferior
    for p in (a, b):
        s[p, S.CONTACTS] += 1
    heights = (n[a, N_MAIN_H], n[b, N_MAIN_H])
    lost = (ta <= tb, tb <= ta)
    if ta == tb:
        record(ev, tn, cap, E_TIE, a, ta, 0, 0)
    for j in range(2):
        p = a if j == 0 else b
        added = 0
        if lost[j]:
            top = top_of(up, n[p, N_MAIN_BASE], n[p, N_MAIN_H])
            added = destroy_main(st, data, p)
            record(ev, tn, cap, E_DESTROY, p, top, added, n[p, N_RISK_PTS])
        else:
            s[p, S.CONTACTS_WON] += 1
        if heights[j] > 1:
            stack_outcome(st, data, p, lost[j], added, s)


@njit(cache=True)
def post_scene(a, st, data, pol, out, gs, ev, tn, cap):
    """Post-scene: Bounce (cast 1, return your own Main to hand)."""
    enabled = data.enabled
    n = st.n
    options = pol.options
    if not (enabled[CT_BOUNCE] and n[a, N_MAIN_H] > 0 and n[a, N_HAND] >= 1):
        return
    options[0, O_CODE], options[1, O_CODE] = PROCEED, CT_BOUNCE
    if restrict(D_POST, a, pol, 2, out.s) == 1:
        return
    if options[ask(D_POST, a, a, st, data, pol, 2, -1, 0, -1), O_CODE] == PROCEED:
        return
    out.cts[a, CT_BOUNCE] += 1
    if cast(a, a, CT_BOUNCE, st, data, pol, out, gs, ev, tn, cap):
        return
    record(ev, tn, cap, E_BOUNCE, a, n[a, N_MAIN_BASE], n[a, N_MAIN_H], 0)
    main_to_hand(st, data, a, a)


# ---- the ACT -----------------------------------------------------------------------------------------------
@njit(cache=True)
def play_act(a, st, data, pol, out, gs, ev, tn, cap):
    """One ACT of active player a; the game status gs says whether it ended the game."""
    rules = data.rules
    n = st.n
    immediate = rules[R.LOSS_IMMEDIATE] == 1
    b = 1 - a
    # 1. the active Main returns to hand (mandatory)
    if n[a, N_MAIN_H] > 0:
        record(ev, tn, cap, E_RETURN, a, n[a, N_MAIN_BASE], n[a, N_MAIN_H], 0)
        main_to_hand(st, data, a, a)
    # 2. draw up to 4 (draw_optional: the player chooses how many)
    k = min(max(HAND_TARGET - n[a, N_HAND], 0), n[a, N_DECK])
    if rules[R.DRAW_OPTIONAL] and k > 0:
        options = pol.options
        for j in range(k + 1):
            options[j, O_CODE] = j
        k = options[ask(D_DRAW, a, a, st, data, pol, k + 1, -1, 0, -1), O_CODE]
    for _ in range(k):
        draw(st, a)
    record(ev, tn, cap, E_DRAW, a, k, n[a, N_HAND], n[a, N_DECK])
    if not rules[R.DECKOUT_CONTINUOUS] and n[a, N_DECK] == 0 and n[a, N_HAND] == 0:
        lose_now(gs, a, END_DECKOUT)
        return
    # 3. pre-scene cast techniques
    pre_scene(a, st, data, pol, out, gs, ev, tn, cap)
    if gs[GS_OVER]:
        return
    # 4. the SCENE: place a card (a stack) in the Main
    if not place(a, st, data, pol, out, ev, tn, cap):
        lose_now(gs, a, END_CANNOT_PLACE)
        return
    if check_losses(st, rules, gs, immediate):
        return
    # 5. CONTACT, if the passive Main holds a card
    if n[b, N_MAIN_H] > 0:
        contact(a, st, data, pol, out, gs, ev, tn, cap)
        if gs[GS_OVER] or check_losses(st, rules, gs, immediate):
            return
    # 6. post-scene: Bounce; then the ACT ends
    post_scene(a, st, data, pol, out, gs, ev, tn, cap)
    check_losses(st, rules, gs, True)  # act_end: every Risk total now


# ---- a search's branch --------------------------------------------------------------------------------------
@njit(cache=True)
def write_sorted(count, out, at):
    """Each card c, count[c] times, into out[at:] in card-id order (count emptied); returns the end."""
    for c in range(len(count)):
        for _ in range(count[c]):
            out[at] = c
            at += 1
        count[c] = 0
    return at


@njit(cache=True)
def redeal(st, data, p, stream):
    """At a search rollout's branch (kernel.search_step sets ctl[A_REDEAL]), everything seat p cannot see is
    dealt anew from the branch's stream: its own deck under the top cards it has seen there (Reading), and the
    opponent's unseen cards among its hand, deck and face-down Main (a rank-1 card), each its size, the cards
    p has seen go into that hand kept there (`seen`; a hand p knows whole stays as p saw it). Each player's
    cards stay its own, and every pool is gathered in card-id order before it is shuffled: the deal depends
    on what p can know and the stream, never on where the hidden cards were."""
    cards = data.cards
    n, deck, hand, seen = st.n, st.deck, st.hand, st.seen
    kinds = cards.shape[0]
    count = np.zeros(kinds, np.int64)
    m = n[p, N_DECK] - min(n[p, N_TOP_SEEN], n[p, N_DECK])  # p's deck under its seen top
    for i in range(m):
        count[deck[p, i]] += 1
    write_sorted(count, deck[p], 0)
    rng.shuffle(stream, deck[p], m)
    q = 1 - p
    hn, dn = n[q, N_HAND], n[q, N_DECK]
    sn = 1 if n[q, N_MAIN_H] > 0 and not n[q, N_MAIN_UP] else 0  # a set card is one rank-1 card
    for i in range(hn):
        count[hand[q, i]] += 1
    for i in range(dn):
        count[deck[q, i]] += 1
    if sn:
        count[n[q, N_MAIN_BASE]] += 1
    # what p has seen there, as far as the cards are there (always, in a game played by the rules)
    known = np.zeros((2, kinds), np.int64)
    kh = ku = 0
    for c in range(kinds):
        known[IN_HAND, c] = min(seen[q, IN_HAND, c], count[c], hn - kh)
        kh += known[IN_HAND, c]
    for c in range(kinds):
        known[IN_HAND_OR_SET, c] = min(seen[q, IN_HAND_OR_SET, c], count[c] - known[IN_HAND, c], hn + sn - kh - ku)
        ku += known[IN_HAND_OR_SET, c]
        count[c] -= known[IN_HAND, c] + known[IN_HAND_OR_SET, c]
    rest = np.empty(hn + dn + sn, np.int64)  # the cards p knows nothing of, shuffled
    r = write_sorted(count, rest, 0)
    rng.shuffle(stream, rest, r)
    g = hn + sn - kh  # the hand-or-set group: the cards known there, then unknown ones
    group = np.empty(max(g, 1), np.int64)
    j = 0
    for c in range(kinds):
        for _ in range(known[IN_HAND_OR_SET, c]):
            group[j] = c
            j += 1
    drawn = g - ku
    group[ku:g] = rest[:drawn]
    if sn:
        ones = 0
        for i in range(g):
            ones += cards[group[i], F.RANK] == 1
        if ones == 0 and drawn > 0:  # the set card was a rank-1 card: the deck's first gives one of the group
            for i in range(drawn, r):
                if cards[rest[i], F.RANK] == 1:
                    group[g - 1], rest[i] = rest[i], group[g - 1]
                    break
        rng.shuffle(stream, group, g)
        k = 0
        for i in range(g):
            if cards[group[i], F.RANK] == 1:
                k = i
                break
        n[q, N_MAIN_BASE] = group[k]
        group[k] = group[g - 1]
        g -= 1
    if kh < hn:  # else the hand is the one p saw
        j = 0
        for c in range(kinds):
            for _ in range(known[IN_HAND, c]):
                hand[q, j] = c
                j += 1
        hand[q, kh:hn] = group[:g]
        rng.shuffle(stream, hand[q], hn)
    deck[q, :dn] = rest[drawn:r]
    n[q, N_TOP_SEEN] = 0  # q's own knowledge of its deck's order is gone with it


# ---- a game ------------------------------------------------------------------------------------------------
@njit(cache=True)
def setup(st, data, decks, seat_decks, stream, s, ev, tn, cap):
    """Each player's deck (its own or drawn at random), shuffled; 4 cards to hand; the next onto the Balance."""
    cards = data.cards
    n, deck = st.n, st.deck
    n[:, :] = 0
    st.seen[:, :, :] = 0
    for p in range(2):
        d = seat_decks[p] if seat_decks[p] >= 0 else rng.below(stream, decks.shape[0])
        s[p, S.FACTION] = d
        length = decks[d, 0]
        for k in range(length):
            deck[p, k] = decks[d, 1 + k]
        n[p, N_DECK] = length
        rng.shuffle(stream, deck[p], length)
    for p in range(2):
        for _ in range(HAND_TARGET):
            draw(st, p)
        n[p, N_DECK] -= 1
        n[p, N_BAL] = deck[p, n[p, N_DECK]]
        bal = n[p, N_BAL]
        s[p, S.START_BONUS] = min(cards[bal, F.A], min(cards[bal, F.B], cards[bal, F.C]))
        record(ev, tn, cap, E_SETUP, p, s[p, S.FACTION], bal, cards[bal, F.RISK])


@njit(cache=True)
def first_player(st, data, pol, g, s, ev, tn, cap):
    """The player whose balancer has more risk points chooses to go first or second (a tie: first_player_tie)."""
    rules, cards = data.rules, data.cards
    n = st.n
    r0, r1 = cards[n[0, N_BAL], F.RISK], cards[n[1, N_BAL], F.RISK]
    if r0 != r1:
        chooser = 0 if r0 > r1 else 1
        g[G.CHOOSER] = chooser
    else:
        chooser = rng.below(pol.stream, 2) if rules[R.FIRST_TIE_RANDOM] else 0
        g[G.CHOOSER] = -1
    options = pol.options
    options[0, O_CODE], options[1, O_CODE] = GO_FIRST, GO_SECOND
    m = restrict(D_FIRST, chooser, pol, 2, s)
    second = m > 1 and options[ask(D_FIRST, chooser, chooser, st, data, pol, 2, -1, 0, -1), O_CODE] == GO_SECOND
    first = 1 - chooser if second else chooser
    record(ev, tn, cap, E_CHOOSE, chooser, first, r0 == r1, 0)
    return first


@njit(cache=True)
def finish(st, data, gs, a, g, s, ev, tn, cap):
    """Winner from the losers (both at once: simultaneous_loss), the end reason and the per-seat totals."""
    rules = data.rules
    n = st.n
    losers = gs[GS_LOSERS]
    g[G.END] = gs[GS_REASON]
    for p in range(2):
        s[p, S.RISK] = n[p, N_RISK_PTS]
        s[p, S.SCORE] = rules[R.RISK_LIMIT] - n[p, N_RISK_PTS]
        s[p, S.LOST] = (losers >> p) & 1
        if s[p, S.LOST]:
            record(ev, tn, cap, E_LOSE, p, gs[GS_REASON], n[p, N_RISK_PTS], 0)
    if losers == 3:
        g[G.SIMULTANEOUS] = 1
        if rules[R.SIMULTANEOUS] == SIM_DRAW:
            record(ev, tn, cap, E_DRAWN, -1, 0, 0, 0)
            return
        losers = 1 << a if rules[R.SIMULTANEOUS] == SIM_ACTIVE_LOSES else 1 << (1 - a)
    if losers == 0:
        return
    w = 0 if losers == 2 else 1
    s[w, S.IS_WINNER] = 1
    record(ev, tn, cap, E_WIN, w, 0, 0, 0)


@njit(cache=True, nogil=True)  # the runner plays chunks on threads of one process (Game.kernel_releases_gil)
def play(seed, ids, ctl, rules, enabled, cards, up, decks, seat_decks, policy, weights, restrict_masks, script, g, s,
         cts, played, first, ev, tn, cap):
    """The kernel (Game.kernel): games `ids` of run `seed`, each under its control row ctl[i] (kernel.A_*: all
    zeros unless a seat searches), written into the outputs the framework allocated from COLUMNS (never called
    with 0 games: the first game's rows are taken before the loop). The packs handed to the rules (packs.py)
    hold borrowed views: every owner below lives until this function returns."""
    mains, bonus = rule_tables(cards, up, rules)
    data = new_data(rules, enabled, cards, up, mains, bonus)
    # every array a rule function receives is borrowed: a counted one costs two atomic operations per call
    decks, seat_decks, ev, tn = borrowed(decks), borrowed(seat_decks), borrowed(ev), borrowed(tn)
    n, deck = np.zeros((2, N_FIELDS), np.int64), np.zeros((2, MAX_CARDS), np.int64)
    hand, risk = np.zeros((2, MAX_CARDS), np.int64), np.zeros((2, MAX_CARDS), np.int64)
    seen = np.zeros((2, 2, cards.shape[0]), np.int64)
    st = new_zones(n, deck, hand, risk, seen)
    view = np.zeros(VIEW_SIZE, np.int64)
    options = np.zeros((MAX_OPTIONS, 3), np.int64)
    gs_owner = np.zeros(3, np.int64)
    gs = borrowed(gs_owner)
    stream = np.zeros(1, np.uint64)
    pol = new_policy(policy, weights, restrict_masks, script, ctl[0], stream, view, options, ev, tn, cap)
    out = new_rows(g[0], s[0], cts[0], played[0])  # this game's rows, set below
    for i in range(len(ids)):
        stream[0] = rng.new_stream(seed, ids[i])[0]
        pol.ctl = borrowed(ctl[i])  # the scripted policy's count and a search's log: this game's
        gs[:] = 0
        out.g, out.s, out.cts, out.played = borrowed(g[i]), borrowed(s[i]), borrowed(cts[i]), borrowed(played[i])
        setup(st, data, decks, seat_decks, pol.stream, out.s, ev, tn, cap)
        a = first_player(st, data, pol, out.g, out.s, ev, tn, cap)
        first[i] = a
        while True:
            if g[i, G.LENGTH] == rules[R.ACT_CAP]:
                g[i, G.CAPPED] = 1
                record(ev, tn, cap, E_CAP, -1, rules[R.ACT_CAP], 0, 0)
                break
            g[i, G.LENGTH] += 1
            record(ev, tn, cap, E_ACT, a, g[i, G.LENGTH], 0, 0)
            play_act(a, st, data, pol, out, gs, ev, tn, cap)
            if gs[GS_OVER]:
                break
            a = 1 - a
        finish(st, data, gs, a, out.g, out.s, ev, tn, cap)
    release(data), release(st), release(pol), release(out)
    keep_alive(n, deck, hand, risk, seen, view, options, gs_owner, stream, mains, bonus)  # the views' owners, to here

