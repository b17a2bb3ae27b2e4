"""STOP policies: numba decision functions, chosen per seat by the integer code in the state
(from the scenario's `policies:`), with parameters from `policy_params:`.

Every decision the rules leave to a player goes through one function here; the engine asks, the
policy answers with a card type (or -1 for "no"), a bool, or a (mode, target) pair. Policies see
only what their player could know: they read the state through view.py (own hand, hand sizes, match
totals, the card table, the top card), never another player's cards or the draw pile. Randomness
comes only from the game's stream `s.rng`, and only when there is a real choice. Ties between card
types are broken uniformly over the physical cards (weights = copies held).

random   -- uniform over legal choices. Normal play: each legal physical card equally likely, plus
            "draw instead" as one more option when must_play_if_able is false. Wild follow-up, X+
            forced card: uniform over eligible physical cards. Jump-in: with probability
            `random_jump_in` (default 1/2). Answers to 2+/Pause: uniform over the available kinds of
            answer (accept / cancel with 0 / stack-or-add), then uniform over cards. Swap: uniform over
            the 3 modes, then a uniform target. Cancelling a Swap or an X+, playing a drawn card: 1/2.
greedy   -- sheds the highest-penalty legal card first (0s always last, whatever their penalty: they
            are its defence), ties broken uniformly. Never declines a legal card (so must_play_if_able
            changes nothing for it), always jumps in (even with a 0: the card count matters more than a
            second 0 of a colour just played), always plays a drawn card.
            Answers a 2+ by stacking a 2+ if it has one (sheds 20 and passes the draw on), else
            cancels with a same-colour 0. It keeps a defensive 0 while it pays, precisely: a 0 is
            never played while another legal card exists; it is spent to cancel a 2+ always (saves >= 2
            cards); an X+ when the cheapest forced card would cost >= 0 (cost = draws x mean deck
            penalty - penalty of the forced card, the expected change of its hand penalty); a Swap when
            the hand it would receive is expected to cost more than its own hand without that 0 (the
            other hand is face down: expected = its size x mean deck penalty; equal: more cards); a
            Pause (when it cannot add a Pause) only when it holds <= `greedy_pause_zero_at` cards
            (default 2), where the lost turn is worth more than the 0. Swap: takes the hand with the
            fewest cards (the lowest expected penalty). X+ forced card: the lowest cost as above -- the
            rulebook example (wild, 2+, 6/9) gives the 2+: 2 x 14 - 20 = 8 against 9 x 14 - 9 = 117.
defender -- hoards answers and attacks the threat. Its "keepers" are 0s and 2+ cards: while it holds
            at most `defender_hoard` of them (default 2) they are protected -- not played, not used to
            jump in, unless nothing else is legal (then it would rather draw when must_play_if_able is
            false). The threat is the other player with the lowest match total (fewest cards in hand
            breaks ties): when the threat sits on its left it plays its highest-penalty attack card
            (2+, Pause, X+) first, protected or not. Otherwise it sheds the highest-penalty card. It
            answers every attack it can: a 2+ or Pause by cancelling with a same-colour 0 first, else by
            stacking / adding; always cancels an X+; cancels a Swap that would give it more cards
            (equal count: a higher expected penalty). Swap: takes the hand with the fewest cards. X+
            forced card: the fewest draws (highest penalty on ties).
No policy peeks: an earlier greedy/defender Swap read the other hands' penalties; it was removed
(issue #8) rather than kept as a named variant, since nothing in the reports needs a cheating player.
"""
import numpy as np

from ...rng import below, uniform
from .cards import K_PAUSE, K_TWO_PLUS, K_ZERO, N_COLOURS, N_KINDS, WILD, card_type
from .state import NUMBER_MASK, WILD_BIT, bit, jit, jit_inline, left, lowest, n_players
from .view import (
    card_draws,
    card_penalty,
    hand_size,
    match_total,
    own_count,
    own_legal,
    own_penalty,
    own_size,
    own_types,
    policy_of,
)

i64 = np.int64  # constants are numpy ints: see state.py
RANDOM = i64(0)
GREEDY = i64(1)
DEFENDER = i64(2)
CODES = {"random": RANDOM, "greedy": GREEDY, "defender": DEFENDER}

# Swap modes
SWAP_WITH_ONE = i64(0)    # swap hands with one chosen player
SWAP_PASS_LEFT = i64(1)   # everyone passes their hand to the left (so receives from the right)
SWAP_PASS_RIGHT = i64(2)  # everyone passes their hand to the right (so receives from the left)
N_SWAP_MODES = i64(3)

NO_LEGAL = i64(-2)        # choose_play: p has no legal card
NONE = i64(-1)
NEG = i64(-(1 << 60))
ALWAYS = np.bool_(True)   # a non-literal True (see state.py)

# how pick() scores a card type (higher is better)
BY_NOTHING = i64(0)       # all equal: uniform over the cards
BY_SHEDDING = i64(1)      # greedy: penalty, 0s last
BY_DEFENDER = i64(2)      # defender: attacks first when the threat is on its left, hoarded keepers last
BY_XPLUS_COST = i64(3)    # greedy X+ forced card: lowest expected penalty change
BY_FEWEST_DRAWS = i64(4)  # defender X+ forced card: fewest draws, then highest penalty

KEEPERS_MASK = i64(sum(1 << (c * 12 + k) for c in range(4) for k in (0, 2)))       # 0s and 2+s
ATTACK_MASK = i64(sum(1 << (c * 12 + k) for c in range(4) for k in (2, 9, 11)))    # 2+, Pause, X+


# ---- choosing among card types ------------------------------------------------------------------------

@jit_inline
def score(s, r, pol, p, t, how, aux):
    """How much p likes playing a card of type t (higher is better). aux: BY_DEFENDER flags
    (1: the threat sits on p's left, 2: p still hoards its keepers)."""
    if how == BY_SHEDDING:
        if t != WILD and t % N_KINDS == K_ZERO:
            return NEG + 1
        return card_penalty(s, t)
    if how == BY_DEFENDER:
        sc = card_penalty(s, t)
        if aux & 1 and (ATTACK_MASK >> t) & 1:
            return sc + (1 << 20)
        if aux & 2 and (KEEPERS_MASK >> t) & 1:
            return sc - (1 << 20)
        return sc
    if how == BY_XPLUS_COST:   # in thousandths of a penalty point
        return -np.int64(round((card_draws(s, t) * r.mean_penalty - card_penalty(s, t)) * 1000.0))
    if how == BY_FEWEST_DRAWS:
        return -card_draws(s, t) * 100000 + card_penalty(s, t)
    return 0


@jit
def pick(s, r, pol, p, mask, how, aux):
    """Among the card types in `mask` (all held by p), one with the best score; ties are broken
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
        sc = score(s, r, pol, p, t, how, aux)
        if sc > best:
            best = sc
            best_t = t
            n_types = 1
            n_cards = own_count(s, p, t)
        elif sc == best:
            n_types += 1
            n_cards += own_count(s, p, t)
    if n_types <= 1:
        return best_t, best
    x = below(s.rng, n_cards)
    m = mask
    while m:
        t = lowest(m)
        m &= m - 1
        if score(s, r, pol, p, t, how, aux) == best:
            x -= own_count(s, p, t)
            if x < 0:
                return t, best
    return best_t, best


@jit
def best_score(s, r, pol, p, mask, how, aux):
    """The best score among the card types in mask (NEG for an empty mask); no randomness."""
    best = NEG
    m = mask
    while m:
        t = lowest(m)
        m &= m - 1
        best = max(best, score(s, r, pol, p, t, how, aux))
    return best


@jit
def count_cards(s, p, mask):
    n = 0
    m = mask
    while m:
        t = lowest(m)
        m &= m - 1
        n += own_count(s, p, t)
    return n


@jit_inline
def hoarding(s, pol, p):
    """Defender: it holds at most defender_hoard keepers (0s, 2+s), so it keeps them all back."""
    return count_cards(s, p, own_types(s, p) & KEEPERS_MASK) <= pol.defender_hoard


@jit
def threat(s, p):
    """The other player with the lowest match total; fewest cards breaks ties, then seat order
    clockwise from p's left."""
    best = left(s, p)
    q = best
    for _ in range(n_players(s) - 2):
        q = left(s, q)
        if match_total(s, q) < match_total(s, best) or (match_total(s, q) == match_total(s, best)
                                                        and hand_size(s, q) < hand_size(s, best)):
            best = q
    return best


@jit
def defender_flags(s, pol, p):
    return (1 if threat(s, p) == left(s, p) else 0) + (2 if hoarding(s, pol, p) else 0)


@jit_inline
def play_style(s, p):
    """How p's policy ranks cards to play."""
    code = policy_of(s, p)
    if code == GREEDY:
        return BY_SHEDDING
    if code == DEFENDER:
        return BY_DEFENDER
    return BY_NOTHING


# ---- normal play ------------------------------------------------------------------------------------

@jit_inline
def choose_play(s, r, pol, p, top_card, allow_draw):
    """The card p plays in their turn; -1 to draw instead (only when allow_draw, i.e.
    must_play_if_able is off); NO_LEGAL when p has no legal card."""
    legal = own_legal(s, p, top_card)
    if legal == 0:
        return NO_LEGAL
    code = policy_of(s, p)
    how = play_style(s, p)
    aux = defender_flags(s, pol, p) if code == DEFENDER else 0
    if code == RANDOM and allow_draw:
        n = count_cards(s, p, legal)
        if below(s.rng, n + 1) == n:
            return -1
    t, sc = pick(s, r, pol, p, legal, how, aux)
    if code == DEFENDER and allow_draw and sc < 0:
        return -1   # only hoarded keepers are legal: rather draw
    return t


@jit
def choose_wild_follow(s, r, pol, p):
    """The non-wild card that must follow p's wild (any colour or kind); p holds at least one."""
    code = policy_of(s, p)
    aux = defender_flags(s, pol, p) if code == DEFENDER else 0
    t, _ = pick(s, r, pol, p, own_types(s, p) & ~WILD_BIT, play_style(s, p), aux)
    return t


@jit
def wants_play_drawn(s, r, pol, p, t):
    """Play the card just drawn (play_drawn_card on, must_play_if_able off, the card is legal)?"""
    code = policy_of(s, p)
    if code == RANDOM:
        return uniform(s.rng) < 0.5
    if code == DEFENDER:
        return not ((KEEPERS_MASK >> t) & 1 and hoarding(s, pol, p))
    return True


# ---- out of turn ------------------------------------------------------------------------------------

@jit_inline
def wants_jump_in(s, r, pol, p, t):
    """p holds a card identical to the top card t (a number card): jump in with it?"""
    code = policy_of(s, p)
    if code == GREEDY:
        return True
    if code == RANDOM:
        return uniform(s.rng) < pol.random_jump_in
    return not ((KEEPERS_MASK >> t) & 1 and hoarding(s, pol, p))


@jit
def answer(s, r, pol, p, zero, alt_kind, prefer_zero, zero_ok):
    """Shared answer logic for 2+ and Pause: the same-colour 0 `zero`, a card of `alt_kind` of any
    colour (uniformly over the cards), or -1 to accept the effect."""
    has_zero = own_count(s, p, zero) > 0
    alts = 0
    for c in range(N_COLOURS):
        alts |= bit(card_type(c, alt_kind))
    alts &= own_types(s, p)
    if policy_of(s, p) == RANDOM:
        n_opt = 1 + (1 if has_zero else 0) + (1 if alts else 0)
        x = below(s.rng, n_opt) if n_opt > 1 else 0
        if x == 0:
            return NONE
        if x == 1 and has_zero:
            return zero
    else:
        if prefer_zero and has_zero and zero_ok:
            return zero
        if alts == 0:
            return zero if (has_zero and zero_ok) else NONE
    t, _ = pick(s, r, pol, p, alts, BY_NOTHING, 0)
    return t


@jit
def answer_two_plus(s, r, pol, p, colour, count):
    """p is the target of a pending 2+ draw of `count` (top 2+ of `colour`): the same-colour 0
    (cancel), a 2+ of any colour (stack), or -1 (draw `count`)."""
    return answer(s, r, pol, p, card_type(colour, K_ZERO), K_TWO_PLUS, policy_of(s, p) == DEFENDER, ALWAYS)


@jit
def answer_pause(s, r, pol, p, colour):
    """p is about to be skipped by a Pause of `colour`: the same-colour 0 (cancel), a Pause of any
    colour (add to the chain), or -1 (lose the turn)."""
    code = policy_of(s, p)
    zero_ok = code == DEFENDER or own_size(s, p) <= pol.greedy_pause_zero_at
    return answer(s, r, pol, p, card_type(colour, K_ZERO), K_PAUSE, code == DEFENDER, zero_ok)


# ---- Swap -------------------------------------------------------------------------------------------

@jit
def unseen_penalty(s, r, q):
    """What q's hand is worth as far as another player can tell: its size (public) times the mean
    penalty of a card of the deck. The cards themselves are face down (see view.py)."""
    return hand_size(s, q) * r.mean_penalty


@jit
def choose_swap(s, r, pol, p):
    """p played a Swap: returns (mode, target); the target matters only for SWAP_WITH_ONE. greedy and
    defender swap with the player holding the fewest cards (the lowest expected penalty too), the
    first clockwise from p's left on ties. Passing left or right would give p a neighbour's hand,
    never a better one than that, so they do not pass."""
    P = n_players(s)
    if policy_of(s, p) == RANDOM:
        mode = below(s.rng, N_SWAP_MODES)
        target = (p + 1 + below(s.rng, P - 1)) % P if mode == SWAP_WITH_ONE else NONE
        return mode, target
    target = left(s, p)
    q = target
    for _ in range(P - 2):
        q = left(s, q)
        if hand_size(s, q) < hand_size(s, target):
            target = q
    return SWAP_WITH_ONE, target


@jit
def wants_swap_cancel(s, r, pol, p, incoming):
    """p's hand would be replaced by the hand of player `incoming`; p holds the same-colour 0.
    Cancel the whole Swap with it? It compares its own hand without that 0 (known penalty, size - 1)
    with the incoming hand (known size, expected penalty: unseen_penalty). greedy: cancels when the
    incoming hand is expected to cost more (equal: has more cards); defender: when it has more cards
    (equal: is expected to cost more)."""
    code = policy_of(s, p)
    if code == RANDOM:
        return uniform(s.rng) < 0.5
    mine, n_mine = float(own_penalty(s, p)), own_size(s, p) - 1
    theirs, n_theirs = unseen_penalty(s, r, incoming), hand_size(s, incoming)
    if code == DEFENDER:
        return n_mine < n_theirs or (n_mine == n_theirs and mine < theirs)
    return mine < theirs or (mine == theirs and n_mine < n_theirs)


# ---- X+ ---------------------------------------------------------------------------------------------

@jit
def choose_xplus_card(s, r, pol, p):
    """p is the X+ victim and holds number cards: which one to put down (p then draws its number).
    greedy: the lowest expected penalty change, draws x mean card penalty - the card's penalty;
    defender: the fewest draws (highest penalty on ties); random: uniform over the cards."""
    code = policy_of(s, p)
    how = BY_XPLUS_COST if code == GREEDY else (BY_FEWEST_DRAWS if code == DEFENDER else BY_NOTHING)
    t, _ = pick(s, r, pol, p, own_types(s, p) & NUMBER_MASK, how, 0)
    return t


@jit
def wants_xplus_cancel(s, r, pol, p, colour):
    """p, the X+ victim, holds a 0 of the X+'s colour (xplus_zero_cancels on): cancel? greedy: when
    the cheapest forced card would cost >= 0 (the 0 itself costs 0)."""
    code = policy_of(s, p)
    if code == RANDOM:
        return uniform(s.rng) < 0.5
    if code == DEFENDER:
        return True
    return best_score(s, r, pol, p, own_types(s, p) & NUMBER_MASK, BY_XPLUS_COST, 0) <= 0
