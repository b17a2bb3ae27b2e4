"""STOP policies: the one dispatch from a seat's policy code to its decision function (`decide`),
and the decision functions of STOP's own policies, whose judgement is their seat's weights (the
scenario's `weights:` / `seat_weights:`, StopScenario.WEIGHTS; `weights` in the docs below).

At every decision the engine lists the legal options (decisions.py says how, per decision kind) and
`decide` returns the index of one; the rules never look at a policy code. A decision with a single
option is not asked. Policies see only what their player could know, by construction: `decide` is
given the seat's view (view.py: the decision, its own hand, the card table, every hand size and match
total), the listed options and the rules, never the state, so never another player's cards or the draw
pile. Randomness comes only from the game's stream (`stream`), and only when there is a real choice.
Ties between card types are broken uniformly over the physical cards (weights = copies held).

random   -- (shared by every game, analyzer.kernel) uniform over the listed options: each legal card
            type, "draw instead", each answer, each Swap target or pass direction, yes or no.
scripted -- (shared) the scenario's `script` of option indices, in game order: for rule tests.
search   -- (shared, analyzer/search.py) plays each option out from worlds consistent with what its seat has
            seen: at the branch the engine re-deals the other hands and the draw pile (engine.redeal_hidden).
greedy   -- sheds the highest-penalty legal card first (0s always last, whatever their penalty: they
            are its defence; an attack card -- 2+, Pause, X+ -- counted `attack_bonus` points more,
            default 0), ties broken uniformly. Never declines a legal card (so must_play_if_able
            changes nothing for it), always jumps in (even with a 0: the card count matters more than a
            second 0 of a colour just played), always plays a drawn card.
            Answers a 2+ by stacking a 2+ if it has one (sheds 20 and passes the draw on), else
            cancels with a same-colour 0. It keeps a defensive 0 while it pays, precisely: a 0 is
            never played while another legal card exists; it is spent to cancel a 2+ always (saves >= 2
            cards); an X+ when the cheapest forced card would cost >= 0 (cost = draws x the value of an
            unseen card - penalty of the forced card, the expected change of its hand penalty; an unseen
            card is worth `unseen_card_value` (default 1) x the mean deck penalty); a Swap when the hand it would receive is expected to cost more than its own
            hand without that 0 plus `swap_cancel_margin` (default 0; the other hand is face down:
            expected = its size x an unseen card's value; equal: more cards); a Pause (when it cannot
            add a Pause) only when it holds <= `pause_zero_at` cards (default 2), where the lost turn
            is worth more than the 0. Swap: takes the hand with the fewest cards (the lowest expected
            penalty). X+ forced card: the lowest cost as above -- the rulebook example (wild, 2+, 6/9)
            gives the 2+: 2 x 14 - 20 = 8 against 9 x 14 - 9 = 117.
defender -- hoards answers and attacks the threat. Its "keepers" are 0s and 2+ cards: while it holds
            at most `hoard` of them (default 2) they are protected -- not played, not used to jump in,
            unless nothing else is legal (then it would rather draw when must_play_if_able is false).
            The threat is the other player with the lowest match total (fewest cards in hand breaks
            ties), its left neighbour's total counted `attack_lead` points lower (default 0): when the
            threat sits on its left it plays its highest-penalty attack card (2+, Pause, X+) first,
            protected or not. Otherwise it sheds the highest-penalty card. It answers every attack it
            can: a 2+ or Pause by cancelling with a same-colour 0 first, else by stacking / adding;
            always cancels an X+; cancels a Swap that would give it more than `swap_cancel_cards`
            (default 0) cards above its own (equal: a higher expected penalty). Swap: takes the hand
            with the fewest cards. X+ forced card: the fewest draws (highest penalty on ties).
No policy peeks: an earlier greedy/defender Swap read the other hands' penalties; it was removed
(issue #8) rather than kept as a named variant, since nothing in the reports needs a cheating player.
"""
import numpy as np

from ...kernel import FIRST_GAME_POLICY, ask_policy, asked, index_of
from ...kernel_internals import jit_no_refcount, jit_no_refcount_inline
from ...rng import below
from .cards import K_ZERO, N_KINDS, WILD, kind_of
from .decisions import (
    ACCEPT,
    D_ANSWER_PAUSE,
    D_ANSWER_TWO_PLUS,
    D_JUMP_IN,
    D_PLAY,
    D_PLAY_DRAWN,
    D_SWAP,
    D_SWAP_CANCEL,
    D_WILD_FOLLOW,
    D_XPLUS_CANCEL,
    DRAW_INSTEAD,
    NO,
    SWAP_WITH_ONE,
    YES,
    swap_option,
)
from .state import NUMBER_MASK, SIZE, bit, left_of, lowest, penalty_of
from .view import V_CONTEXT, V_DRAWS, V_HELD, V_KIND, V_PENALTY, V_SEAT, V_TOTALS

i64 = np.int64  # constants are numpy ints: see state.py
GREEDY = i64(FIRST_GAME_POLICY)
DEFENDER = i64(FIRST_GAME_POLICY + 1)

NONE = i64(-1)
NEG = i64(-(1 << 60))
AT_MEAN = np.float64(1.0)  # an unseen card valued at the deck's mean penalty

# the weights, by policy (StopScenario.WEIGHTS, in this order): the columns of the seat's weights row
W_PAUSE_ZERO_AT, W_ATTACK_BONUS, W_SWAP_CANCEL_MARGIN, W_UNSEEN_CARD_VALUE = map(i64, range(4))   # greedy
W_HOARD, W_ATTACK_LEAD, W_SWAP_CANCEL_CARDS = map(i64, range(3))                                     # defender

# how pick() scores a card type (higher is better)
BY_NOTHING = i64(0)       # all equal: uniform over the cards
BY_SHEDDING = i64(1)      # greedy: penalty, 0s last
BY_DEFENDER = i64(2)      # defender: attacks first when the threat is on its left, hoarded keepers last
BY_XPLUS_COST = i64(3)    # greedy X+ forced card: lowest expected penalty change
BY_FEWEST_DRAWS = i64(4)  # defender X+ forced card: fewest draws, then highest penalty

KEEPERS_MASK = i64(sum(1 << (c * 12 + k) for c in range(4) for k in (0, 2)))       # 0s and 2+s
ATTACK_MASK = i64(sum(1 << (c * 12 + k) for c in range(4) for k in (2, 9, 11)))    # 2+, Pause, X+


# ---- the dispatch --------------------------------------------------------------------------------------

@jit_no_refcount_inline
def decide(code, view, options, n_options, stream, script, ask, weights, hand, sizes, r):
    """The one dispatch from a seat's policy code to its decision function, in the common shape: the
    seat's view (view.py: the decision, the card types of its own hand, the card table, the match totals),
    the options, its weights row, then its own hand (view.own_hand), every hand size (view.hand_sizes)
    and the rules `r` (public; the policies use the deck's mean penalty). random, scripted and search
    are the framework's (kernel.ask_policy; `ask` is the control row and the trace, state.ask_of); past
    its branch a search seat's `code` comes back as its rollout policy's."""
    k, code = ask_policy(code, stream, script, ask, n_options)
    if k < 0:  # the mean penalty, not the 17-field rules pack: each call below passes fewer words
        mean = r.mean_penalty
        if code == GREEDY:
            k = index_of(options, n_options, greedy(view, options, n_options, stream, weights, hand, sizes, mean))
        else:
            k = index_of(options, n_options, defender(view, options, n_options, stream, weights, hand, sizes, mean))
    return asked(ask, k)


@jit_no_refcount_inline
def card_options(options, n):
    """The card types among the listed options, as a bit mask."""
    m = 0
    for k in range(n):
        if options[k] >= 0:
            m |= bit(options[k])
    return m


@jit_no_refcount
def offers(options, n, value):
    return index_of(options, n, value) >= 0


# ---- choosing among card types ------------------------------------------------------------------------

@jit_no_refcount_inline
def score(view, mean, w, t, how, aux):
    """How much the seat likes playing a card of type t (higher is better); w: its weights. aux:
    BY_DEFENDER flags (1: the threat sits on its left, 2: it still hoards its keepers)."""
    if how == BY_SHEDDING:
        if t != WILD and t % N_KINDS == K_ZERO:
            return NEG + 1
        if (ATTACK_MASK >> t) & 1:
            return view[V_PENALTY + t] + np.int64(w[W_ATTACK_BONUS])
        return view[V_PENALTY + t]
    if how == BY_DEFENDER:
        sc = view[V_PENALTY + t]
        if aux & 1 and (ATTACK_MASK >> t) & 1:
            return sc + (1 << 20)
        if aux & 2 and (KEEPERS_MASK >> t) & 1:
            return sc - (1 << 20)
        return sc
    if how == BY_XPLUS_COST:   # in thousandths of a penalty point
        return -np.int64(round((view[V_DRAWS + t] * unseen_card(mean, w[W_UNSEEN_CARD_VALUE]) - view[V_PENALTY + t]) * 1000.0))
    if how == BY_FEWEST_DRAWS:
        return -view[V_DRAWS + t] * 100000 + view[V_PENALTY + t]
    return 0


@jit_no_refcount
def pick(view, hand, stream, mean, w, mask, how, aux):
    """Among the card types in `mask` (all in the own hand), one with the best score; ties are broken
    uniformly over the physical cards, drawing a random number only when two or more types tie.
    Returns (type, its score); (-1, NEG) for an empty mask."""
    best = NEG
    best_t = NONE
    n_types = 0
    n_cards = 0
    m = mask
    while m:
        t = lowest(m)
        m &= m - 1
        sc = score(view, mean, w, t, how, aux)
        if sc > best:
            best = sc
            best_t = t
            n_types = 1
            n_cards = hand[t]
        elif sc == best:
            n_types += 1
            n_cards += hand[t]
    if n_types <= 1:
        return best_t, best
    x = below(stream, n_cards)
    m = mask
    while m:
        t = lowest(m)
        m &= m - 1
        if score(view, mean, w, t, how, aux) == best:
            x -= hand[t]
            if x < 0:
                return t, best
    return best_t, best


@jit_no_refcount
def best_score(view, mean, w, mask, how, aux):
    """The best score among the card types in mask (NEG for an empty mask); no randomness."""
    best = NEG
    m = mask
    while m:
        t = lowest(m)
        m &= m - 1
        best = max(best, score(view, mean, w, t, how, aux))
    return best


@jit_no_refcount
def count_cards(hand, mask):
    n = 0
    m = mask
    while m:
        t = lowest(m)
        m &= m - 1
        n += hand[t]
    return n


@jit_no_refcount_inline
def hoarding(view, hand, w):
    """Defender: it holds at most `hoard` keepers (0s, 2+s), so it keeps them all back."""
    return count_cards(hand, view[V_HELD] & KEEPERS_MASK) <= w[W_HOARD]


@jit_no_refcount
def left_is_threat(view, sizes, lead):
    """Is the seat's left neighbour the threat: the other player with the lowest match total (fewest
    cards breaks ties; then the left neighbour, first clockwise), its own total counted `lead` lower?"""
    players = sizes.shape[0]
    q0 = left_of(view[V_SEAT], players)
    its = view[V_TOTALS + q0] - lead
    q = q0
    for _ in range(players - 2):
        q = left_of(q, players)
        total = view[V_TOTALS + q]
        if total < its or (total == its and sizes[q] < sizes[q0]):
            return False
    return True


@jit_no_refcount
def defender_flags(view, hand, sizes, w):
    return (1 if left_is_threat(view, sizes, w[W_ATTACK_LEAD]) else 0) + (2 if hoarding(view, hand, w) else 0)


# ---- shared by greedy and defender ---------------------------------------------------------------------

@jit_no_refcount
def answer(view, options, n, stream, w, hand, mean, prefer_zero, zero_ok):
    """An answer to a 2+ or a Pause among the listed options: the same-colour 0 (when zero_ok; first
    when prefer_zero), else a 2+ / Pause of any colour (uniformly over the cards), else ACCEPT."""
    zero = NONE
    for k in range(n):
        if options[k] >= 0 and kind_of(options[k]) == K_ZERO:
            zero = options[k]
    alts = card_options(options, n) & ~(bit(zero) if zero >= 0 else 0)
    if zero >= 0 and zero_ok and (prefer_zero or alts == 0):
        return zero
    if alts == 0:
        return ACCEPT
    t, _ = pick(view, hand, stream, mean, w, alts, BY_NOTHING, 0)
    return t


@jit_no_refcount
def fewest_cards_swap(view, sizes):
    """Swap with the player holding the fewest cards (the lowest expected penalty too), the first
    clockwise from the seat's left on ties. Passing left or right would give it a neighbour's hand,
    never a better one than that, so neither policy passes."""
    players = sizes.shape[0]
    target = left_of(view[V_SEAT], players)
    q = target
    for _ in range(players - 2):
        q = left_of(q, players)
        if sizes[q] < sizes[target]:
            target = q
    return swap_option(SWAP_WITH_ONE, target)


@jit_no_refcount_inline
def unseen_card(mean, value):
    """What a card nobody has seen is worth: `value` times the mean penalty of a card of the deck."""
    return mean * value


@jit_no_refcount
def unseen_penalty(sizes, mean, q, value):
    """What q's hand is worth as far as another player can tell: its size (public) times an unseen
    card's worth. The cards themselves are face down (see view.py)."""
    return sizes[q] * unseen_card(mean, value)


@jit_no_refcount_inline
def yes_if(cond):
    return YES if cond else NO


# ---- greedy ----------------------------------------------------------------------------------------------

@jit_no_refcount
def greedy(view, options, n, stream, w, hand, sizes, mean):
    """greedy's choice (an option value) for the decision in its view, with weights w; see the module
    docstring."""
    kind, ctx = view[V_KIND], view[V_CONTEXT]
    if kind == D_PLAY or kind == D_WILD_FOLLOW:
        t, _ = pick(view, hand, stream, mean, w, card_options(options, n), BY_SHEDDING, 0)
        return t
    if kind == D_PLAY_DRAWN or kind == D_JUMP_IN:
        return YES
    if kind == D_ANSWER_TWO_PLUS:
        return answer(view, options, n, stream, w, hand, mean, False, True)
    if kind == D_ANSWER_PAUSE:
        return answer(view, options, n, stream, w, hand, mean, False, hand[SIZE] <= w[W_PAUSE_ZERO_AT])
    if kind == D_SWAP:
        return fewest_cards_swap(view, sizes)
    if kind == D_SWAP_CANCEL:   # the incoming hand is expected to cost more, by the margin (equal: has more cards)
        mine, n_mine = float(penalty_of(hand, view[V_HELD], view, V_PENALTY)) + w[W_SWAP_CANCEL_MARGIN], hand[SIZE] - 1
        theirs, n_theirs = unseen_penalty(sizes, mean, ctx, w[W_UNSEEN_CARD_VALUE]), sizes[ctx]
        return yes_if(mine < theirs or (mine == theirs and n_mine < n_theirs))
    if kind == D_XPLUS_CANCEL:  # the cheapest forced card would cost >= 0 (the 0 itself costs 0)
        return yes_if(best_score(view, mean, w, view[V_HELD] & NUMBER_MASK, BY_XPLUS_COST, 0) <= 0)
    t, _ = pick(view, hand, stream, mean, w, card_options(options, n), BY_XPLUS_COST, 0)   # D_XPLUS_CARD
    return t


# ---- defender --------------------------------------------------------------------------------------------

@jit_no_refcount
def defender(view, options, n, stream, w, hand, sizes, mean):
    """defender's choice (an option value) for the decision in its view, with weights w; see the module
    docstring."""
    kind, ctx = view[V_KIND], view[V_CONTEXT]
    if kind == D_PLAY or kind == D_WILD_FOLLOW:
        t, sc = pick(view, hand, stream, mean, w, card_options(options, n), BY_DEFENDER,
                     defender_flags(view, hand, sizes, w))
        if sc < 0 and offers(options, n, DRAW_INSTEAD):
            return DRAW_INSTEAD   # only hoarded keepers are legal: rather draw
        return t
    if kind == D_PLAY_DRAWN or kind == D_JUMP_IN:
        return yes_if(not ((KEEPERS_MASK >> ctx) & 1 and hoarding(view, hand, w)))
    if kind == D_ANSWER_TWO_PLUS or kind == D_ANSWER_PAUSE:
        return answer(view, options, n, stream, w, hand, mean, True, True)
    if kind == D_SWAP:
        return fewest_cards_swap(view, sizes)
    if kind == D_SWAP_CANCEL:   # the incoming hand has more cards, by the margin (equal: is expected to cost more)
        mine = float(penalty_of(hand, view[V_HELD], view, V_PENALTY))
        n_mine = hand[SIZE] - 1 + w[W_SWAP_CANCEL_CARDS]
        theirs, n_theirs = unseen_penalty(sizes, mean, ctx, AT_MEAN), sizes[ctx]
        return yes_if(n_mine < n_theirs or (n_mine == n_theirs and mine < theirs))
    if kind == D_XPLUS_CANCEL:
        return YES
    t, _ = pick(view, hand, stream, mean, w, card_options(options, n), BY_FEWEST_DRAWS, 0)   # D_XPLUS_CARD
    return t
