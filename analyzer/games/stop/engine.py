"""The STOP kernel: the executable rulebook (shared/rules/stop.md), compiled with numba.

One match = hands until someone's total reaches match_limit. All state lives in numpy arrays held by
a `State` namedtuple, so every rule below is a small jitted function that tests can call on a position
they build by hand (see `make_state`). Seats are numbered clockwise; play goes clockwise, so a
player's *left* neighbour is seat p+1.

How a card "lands" (the heart of the engine, `settle`): a player puts a card on the discard pile;
if it is a number card and the hand is not over, the jump-in window opens (clockwise from the player
after the one who played); a jump-in is itself a landing; when nobody jumps in, the pending effect of
the top card resolves, asking each target for its answer (0 cancel / 2+ stack / Pause add). An
answer is again a landing. When the chain is done, `settle` returns who takes the next normal turn.

Randomness: only the game's stream `s.rng` = rng.new_stream(seed, game_id). Tracing only writes
event records (never draws random numbers), so a traced game equals the untraced one.

Entry point: play(seed, game_ids, rules, cards, policy, seats, <outputs>), the game's kernel
(Game.run_batch allocates its outputs from columns.COLUMNS); see its docstring. Functions are compiled with
kernel_internals.jit_no_refcount (no reference counting; see state.py for why).

Event records (int32 rows of 5: kind, player, card, a, b; kernel.record's seat, a, b, c), kinds
numbered 1..18 in this order -- read by Stop.EVENTS:
  E_HAND      dealer, -1, hand number (1-based), 0
  E_DEAL      seat, card type, count dealt, 0
  E_STARTER   dealer, card, 1 if it was a wild sent back into the pile (else 0), 0
  E_PLAY      player, card, how (HOW_*), cards left in hand        -- every card leaving a hand
  E_DRAW      player, card (-1: both piles empty, no draw), reason (WHY_*), cards in hand
  E_PASS      player, -1, 0, 0                                      -- turn ends without a play
  E_RESHUFFLE -1, top card kept, cards in the new draw pile, 0
  E_EFFECT    target, attacking card, cards to draw, 0              -- 2+ total / X+ number
  E_SKIP      skipped player, Pause card, chain length k, 0
  E_SWAP      swapper, Swap card, mode (decisions.SWAP_*), target   -- chosen (may be cancelled)
  E_SWAP_DONE swapper, Swap card, mode, target                      -- hands actually moved
  E_XPLUS_IGNORED  target, X+ card, 0, 0                           -- target held only symbols
  E_ACHTUNG   player, -1, 0, 0                                      -- forgot to call, draws 2
  E_STOP      player, -1, 0, 0                                      -- played their last card
  E_CAPPED    -1, -1, turns played, 0                               -- hand stopped by hand_turn_cap
  E_HELD      seat, card, count, 0                                  -- cards held at hand end
  E_SCORE     seat, -1, hand penalty, match total
  E_MATCH_END -1, -1, hands played, bit mask of winners
"""
import numpy as np
from numba import njit

from ...kernel import keep_allowed, record
from ...kernel_internals import jit_no_refcount, jit_no_refcount_inline
from ...rng import below, new_stream, uniform
from .cards import (
    K_PAUSE,
    K_SWAP,
    K_TWO_PLUS,
    K_XPLUS,
    K_ZERO,
    N_COLOURS,
    N_TYPES,
    WILD,
    card_type,
    colour_of,
    is_number,
    kind_of,
)
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
    D_XPLUS_CARD,
    DRAW_INSTEAD,
    MODE_STRIDE,
    NEVER_CANCEL_WITH_ZERO,
    NEVER_PLAY_WILD,
    NEVER_STACK,
    NO,
    NO_JUMP_IN,
    SWAP_PASS_LEFT,
    SWAP_PASS_RIGHT,
    SWAP_WITH_ONE,
    YES,
    swap_option,
)
from .policies import decide
from .state import (
    ALLOWED,
    CAND,
    COPIES,
    CTL,
    DEALER,
    DECK,
    DISC,
    DISC_N,
    DRAW,
    DRAWS,
    G0,
    G_ACHTUNG,
    G_CANCELS,
    G_CAPPED,
    G_CHECK,
    G_DRAWN,
    G_JUMPS,
    G_LENGTH,
    G_MATCH_CAPPED,
    G_MOVES,
    G_RESHUFFLES,
    G_TURNS,
    HAND_OVER,
    HAND_TURNS,
    HELD,
    KNOWN,
    MAX_PLAYERS,
    NG,
    NIL,
    NONE,
    NSEAT,
    NUMBER_MASK,
    NV,
    OPTS,
    OUT,
    PILE_N,
    POLICY,
    REDEAL_AT,
    S_FIRST,
    S_LIFTED,
    S_OUT,
    S_REL_OUT,
    S_REL_PEN,
    S_SCORE,
    S_SUMSQ,
    S_SYMBOL,
    S_WIN,
    SEAT,
    SHUFFLED,
    SIZE,
    TOTAL,
    TRACE,
    TRACE_N,
    WILD_BIT,
    ask_of,
    bit,
    can_play,
    gain,
    hand_penalty,
    known_at,
    left,
    legal_mask,
    lose,
    lowest,
    make_state,
    n_players,
    right,
    symbol_penalty,
    top,
    tracking,
)
from .view import fill_view, hand_sizes, own_hand, view_of

# events
(E_HAND, E_DEAL, E_STARTER, E_PLAY, E_DRAW, E_PASS, E_RESHUFFLE, E_EFFECT, E_SKIP, E_SWAP, E_SWAP_DONE,
 E_XPLUS_IGNORED, E_ACHTUNG, E_STOP, E_CAPPED, E_HELD, E_SCORE, E_MATCH_END) = map(np.int64, range(1, 19))
# how a card was played (E_PLAY a)
HOW_TURN, HOW_DRAWN, HOW_WILD_FOLLOW, HOW_JUMP, HOW_STACK, HOW_CANCEL, HOW_PAUSE_ADD, HOW_XPLUS = map(np.int64, range(8))
# why a card was drawn (E_DRAW a)
WHY_TURN, WHY_TWO_PLUS, WHY_XPLUS, WHY_ACHTUNG = map(np.int64, range(4))
# pending effect of the top card
PENDING_NONE, PENDING_TWO, PENDING_PAUSE, PENDING_SWAP, PENDING_XPLUS = map(np.int64, range(5))
TWO = np.int64(2)                  # cards drawn for one 2+, penalty cards for a forgotten Achtung
WINDOW, NO_WINDOW = np.int64(1), np.int64(0)   # settle: open the first jump-in window or not
RETURNED = np.int64(1)                          # E_STARTER: the wild went back into the pile


@jit_no_refcount
def rec(s, kind, p, card, a, b):
    """Append a trace record (kernel.record: only when tracing; past its cap records are counted)."""
    if s.v[TRACE]:
        record(s.ev, s.v[TRACE_N:TRACE_N + 2], s.v[TRACE], kind, p, card, a, b)


@jit_no_refcount
def effect_of(t):
    k = kind_of(t)
    if k == K_TWO_PLUS:
        return PENDING_TWO
    if k == K_PAUSE:
        return PENDING_PAUSE
    if k == K_SWAP:
        return PENDING_SWAP
    if k == K_XPLUS:
        return PENDING_XPLUS
    return PENDING_NONE


# ---- cards moving -----------------------------------------------------------------------------------

@jit_no_refcount
def reshuffle(s):
    """The draw pile is empty: the discard pile except its top card is shuffled into a new draw pile."""
    n = s.v[DISC_N]
    if n <= 1 or s.v[PILE_N] > 0:
        return False
    for i in range(n - 1):
        s.piles[DRAW, i] = s.piles[DISC, i]
    s.v[PILE_N] = n - 1
    s.v[SHUFFLED] = n - 1          # shuffled (lazily, see pop_pile)
    s.piles[DISC, 0] = s.piles[DISC, n - 1]
    s.v[DISC_N] = 1
    s.v[G_RESHUFFLES] += 1
    rec(s, E_RESHUFFLE, NONE, s.piles[DISC, 0], n - 1, NIL)
    return True


@jit_no_refcount_inline
def pop_pile(s):
    """Take the top card of the (non-empty) draw pile. Shuffling is lazy -- a Fisher-Yates shuffle
    done one step at a time: piles[DRAW, v[SHUFFLED]:] are in their shuffled order, the cards below
    are still to be shuffled, and the top position is settled (a uniform pick among the cards not
    yet settled) only when its card is taken. Same distribution as shuffling the whole pile first,
    half the random numbers (most of a shuffled pile is never drawn)."""
    n = s.v[PILE_N] - 1
    if n < s.v[SHUFFLED]:
        j = below(s.rng, n + 1)
        t = s.piles[DRAW, j]
        s.piles[DRAW, j] = s.piles[DRAW, n]
        s.piles[DRAW, n] = t
        s.v[SHUFFLED] = n
    s.v[PILE_N] = n
    return s.piles[DRAW, n]


@jit_no_refcount_inline
def draw_card(s, p, reason):
    """p draws one card (reshuffling when the pile is empty). Both exhausted: no draw, returns -1."""
    if s.v[PILE_N] == 0:
        reshuffle(s)
    if s.v[PILE_N] == 0:
        rec(s, E_DRAW, p, NONE, reason, s.hand[p, SIZE])
        return -1
    t = pop_pile(s)
    gain(s, p, t)
    s.v[G_DRAWN] += 1
    rec(s, E_DRAW, p, t, reason, s.hand[p, SIZE])
    return t


@jit_no_refcount
def draw_cards(s, p, k, reason):
    for _ in range(k):
        draw_card(s, p, reason)


@jit_no_refcount_inline
def place(s, p, t, how):
    """p puts card t from their hand on top of the discard pile."""
    lose(s, p, t)
    if tracking(s):
        forget(s, p, t)
    s.piles[DISC, s.v[DISC_N]] = t
    s.v[DISC_N] += 1
    rec(s, E_PLAY, p, t, how, s.hand[p, SIZE])


@jit_no_refcount_inline
def check_stop(s, p):
    """A player with no cards left calls STOP: the hand is over (the first to do so is `OUT`)."""
    if s.hand[p, SIZE] == 0 and s.v[HAND_OVER] == 0:
        s.v[HAND_OVER] = 1
        s.v[OUT] = p
        rec(s, E_STOP, p, NONE, NIL, NIL)


@jit_no_refcount_inline
def finish_move(s, r, p, n_before):
    """Bookkeeping after p's move (a play, a wild with its follow-up, a jump-in, an answer): count it,
    and "Achtung!": a player going down to one card who forgets to call it (achtung_forget_rate)
    draws 2 penalty cards at once. Decision: no Achtung once the hand is over."""
    s.v[G_MOVES] += 1
    if s.hand[p, SIZE] == 1 and n_before > 1 and r.achtung_forget_rate > 0.0 and s.v[HAND_OVER] == 0:
        achtung(s, r, p)


@jit_no_refcount
def achtung(s, r, p):
    """p goes down to one card: forgets to call "Achtung!" with probability achtung_forget_rate, and
    then draws 2 penalty cards."""
    if uniform(s.rng) < r.achtung_forget_rate:
        s.v[G_ACHTUNG] += 1
        rec(s, E_ACHTUNG, p, NONE, NIL, NIL)
        draw_cards(s, p, TWO, WHY_ACHTUNG)


@jit_no_refcount_inline
def play_one(s, r, p, t, how):
    """A single-card move by p out of their normal turn (answer, cancel, jump-in)."""
    n0 = s.hand[p, SIZE]
    place(s, p, t, how)
    check_stop(s, p)
    finish_move(s, r, p, n0)


# ---- decisions: the engine lists the legal options (decisions.py), the seat's policy picks one ------------

@jit_no_refcount_inline
def offer(s, n, value):
    """Add an option to the list being built; returns the new count."""
    s.v[OPTS + n] = value
    return n + 1


@jit_no_refcount
def offer_cards(s, n, mask):
    """Add the card types of `mask` as options, lowest first."""
    m = mask
    while m:
        n = offer(s, n, lowest(m))
        m &= m - 1
    return n


@jit_no_refcount_inline
def forbids(mask, kind, o, ctx):
    """Does a seat under the restrictions `mask` (decisions.NO_JUMP_IN, ...) never take option o of a
    decision of `kind` (ctx: its context)?"""
    if kind == D_JUMP_IN:
        return (mask & NO_JUMP_IN) != 0 and o == YES
    if kind == D_ANSWER_TWO_PLUS or kind == D_ANSWER_PAUSE:   # ACCEPT, the 0, the 2+ / Pause cards
        if o < 0:
            return False
        return (mask & (NEVER_CANCEL_WITH_ZERO if kind_of(o) == K_ZERO else NEVER_STACK)) != 0
    if kind == D_SWAP_CANCEL or kind == D_XPLUS_CANCEL:
        return (mask & NEVER_CANCEL_WITH_ZERO) != 0 and o == YES
    if kind == D_PLAY:
        return (mask & NEVER_PLAY_WILD) != 0 and o == WILD
    if kind == D_PLAY_DRAWN:
        return (mask & NEVER_PLAY_WILD) != 0 and o == YES and ctx == WILD
    return False


@jit_no_refcount
def allowed_options(s, mask, p, kind, n, ctx):
    """The seat's restrictions as a filter on the n listed options: the allowed ones move to the front
    (kernel.keep_allowed) and their count is returned. When every option is forbidden the filter is
    lifted for this decision: all n stay, and p's restrict_lifted counts it."""
    for k in range(n):
        s.v[ALLOWED + k] = 0 if forbids(mask, kind, s.v[OPTS + k], ctx) else 1
    m = keep_allowed(s.v[OPTS:OPTS + n], n, s.v[ALLOWED:ALLOWED + n])
    if m > 0:
        return m
    s.v[seat_stat(s, p, S_LIFTED)] += 1
    return n


@jit_no_refcount_inline
def ask(s, r, pol, p, kind, n, ctx):
    """The option p takes among the n listed (n >= 1), once p's restrictions have filtered them (a seat
    without any is never filtered). A single option is not a decision: it is taken without asking. Else
    p's policy decides from p's view (view.py: filled here; its own hand and the public tables are read in
    place) and the rules `r` (public). An index outside the list is a broken policy: counted in
    invariant_errors."""
    if pol.restrict[p] != 0:
        n = allowed_options(s, pol.restrict[p], p, kind, n, ctx)
    if n == 1:
        return s.v[OPTS]
    assert s.v.shape[0] >= NV  # always true: it lets the compiler drop the bound checks of the windows below
    view = view_of(s)
    fill_view(view, s, p, kind, ctx)
    k = decide(s.v[POLICY + p], view, s.v[OPTS:OPTS + n], n, s.rng, pol.script, ask_of(s), pol.weights[p],
               own_hand(s, p), hand_sizes(s), r)
    if s.v[REDEAL_AT] != 0:  # the branch of a search rollout (kernel.search_step): re-deal what p cannot see
        redeal_hidden(s, s.v[REDEAL_AT] - 1)
        s.v[REDEAL_AT] = 0
    if k < 0 or k >= n:
        s.v[G_CHECK] += 1
        k = 0
    return s.v[OPTS + k]


@jit_no_refcount
def ask_yes_no(s, r, pol, p, kind, ctx):
    return ask(s, r, pol, p, kind, offer(s, offer(s, 0, NO), YES), ctx) == YES


@jit_no_refcount
def play_options(s, p, top_card, allow_draw):
    """D_PLAY: the card types p may play on top_card, then DRAW_INSTEAD when allowed (must_play_if_able
    off); none when p holds no legal card."""
    legal = legal_mask(s, p, top_card)
    if legal == 0:
        return 0
    n = offer_cards(s, 0, legal)
    return offer(s, n, DRAW_INSTEAD) if allow_draw else n


@jit_no_refcount
def follow_options(s, p):
    """D_WILD_FOLLOW: any non-wild card p holds."""
    return offer_cards(s, 0, s.v[HELD + p] & ~WILD_BIT)


@jit_no_refcount
def answer_options(s, p, zero, alt_kind):
    """D_ANSWER_TWO_PLUS / D_ANSWER_PAUSE: ACCEPT, the same-colour 0 `zero` if held, the cards of
    `alt_kind` (2+ / Pause) held, in any colour."""
    n = offer(s, 0, ACCEPT)
    if s.hand[p, zero] > 0:
        n = offer(s, n, zero)
    alts = 0
    for c in range(N_COLOURS):
        alts |= bit(card_type(c, alt_kind))
    return offer_cards(s, n, alts & s.v[HELD + p])


@jit_no_refcount
def swap_options(s, src):
    """D_SWAP: swap with each other player (clockwise from src's left), or everyone passes left / right."""
    n = 0
    q = src
    for _ in range(n_players(s) - 1):
        q = left(s, q)
        n = offer(s, n, swap_option(SWAP_WITH_ONE, q))
    n = offer(s, n, swap_option(SWAP_PASS_LEFT, 0))
    return offer(s, n, swap_option(SWAP_PASS_RIGHT, 0))


@jit_no_refcount
def forced_card_options(s, q):
    """D_XPLUS_CARD: any number card the X+ victim holds."""
    return offer_cards(s, 0, s.v[HELD + q] & NUMBER_MASK)


# ---- what a seat cannot see: the re-deal at a search rollout's branch ------------------------------------
# A search seat's rollout (analyzer/search.py) replays the match to its decision and then plays on in a
# world of its own (kernel.search_step): there the engine deals again every card the seat cannot see,
# from the rollout's stream. What each seat has seen of another's hand (an X+ victim shows it; a Swap
# hands a known hand on) is kept in `known` during rollouts only (state.tracking), and stays where it is.

@jit_no_refcount_inline
def forget(s, p, t):
    """p put a card of type t on the discard pile: whoever knew p held one knows one fewer (a lower bound:
    the card played may have been an unseen copy, the seen one is then still held, unknown to them)."""
    for w in range(n_players(s)):
        i = known_at(w, p, t)
        if s.v[i] > 0:
            s.v[i] -= 1


@jit_no_refcount
def learn_shown(s, q):
    """The X+ victim q shows their hand to everyone: every other seat knows all of it."""
    for w in range(n_players(s)):
        if w != q:
            for t in range(N_TYPES):
                s.v[known_at(w, q, t)] = s.hand[q, t]


@jit_no_refcount
def learn_swap(s, src, mode, target):
    """The hands have moved (apply_swap): what each seat knew of a hand moves with it, each seat that
    gave its hand away knows all of it where it went, and a seat knows nothing it need of its own."""
    P = n_players(s)
    for w in range(P):
        for t in range(N_TYPES):
            if mode == SWAP_WITH_ONE:
                x = s.v[known_at(w, src, t)]
                s.v[known_at(w, src, t)] = s.v[known_at(w, target, t)]
                s.v[known_at(w, target, t)] = x
            elif mode == SWAP_PASS_LEFT:   # q received the hand of q - 1
                x = s.v[known_at(w, P - 1, t)]
                for q in range(P - 1, 0, -1):
                    s.v[known_at(w, q, t)] = s.v[known_at(w, q - 1, t)]
                s.v[known_at(w, 0, t)] = x
            else:                          # q received the hand of q + 1
                x = s.v[known_at(w, 0, t)]
                for q in range(P - 1):
                    s.v[known_at(w, q, t)] = s.v[known_at(w, q + 1, t)]
                s.v[known_at(w, P - 1, t)] = x
    for q in range(P):
        to = swap_incoming_of(s, src, mode, target, q)   # where q's own hand went (-1: it stayed)
        for t in range(N_TYPES):
            s.v[known_at(q, q, t)] = 0
            if to >= 0:
                s.v[known_at(q, to, t)] = s.hand[to, t]


@jit_no_refcount
def swap_incoming_of(s, src, mode, target, q):
    """Who received q's hand in this Swap (-1: q's hand did not move)."""
    if mode == SWAP_WITH_ONE:
        if q == src:
            return target
        if q == target:
            return src
        return NONE
    if mode == SWAP_PASS_LEFT:
        return left(s, q)
    return right(s, q)


@jit_no_refcount
def redeal_hidden(s, p):
    """The branch of a search rollout for seat p: every card p cannot see -- the other hands, but for
    the cards p knows they hold (`known`), and the draw pile -- is gathered by card type (so the result
    depends only on what p knows, never on where the hidden cards were) and dealt again at random from
    the stream, which is the rollout's own by now (kernel.search_step): each other hand, clockwise from
    p's left, gets back its size, the rest is the draw pile (shuffled lazily: pop_pile). p's hand, the
    discard pile, every hand's size and what p knows stay as they were."""
    P = n_players(s)
    for t in range(N_TYPES):
        s.v[CAND + t] = 0
    for i in range(s.v[PILE_N]):
        s.v[CAND + s.piles[DRAW, i]] += 1
    for q in range(P):
        if q != p:
            for t in range(N_TYPES):
                s.v[CAND + t] += s.hand[q, t] - min(s.v[known_at(p, q, t)], s.hand[q, t])
    m = 0
    for t in range(N_TYPES):
        for _ in range(s.v[CAND + t]):
            s.piles[DRAW, m] = t
            m += 1
    s.v[PILE_N] = m
    s.v[SHUFFLED] = m
    q = p
    for _ in range(P - 1):
        q = left(s, q)
        size = s.hand[q, SIZE]
        s.v[HELD + q] = 0
        for t in range(N_TYPES):
            k = min(s.v[known_at(p, q, t)], s.hand[q, t])
            s.hand[q, t] = k
            if k > 0:
                s.v[HELD + q] |= bit(t)
            size -= k
        s.hand[q, SIZE] -= size
        for _ in range(size):
            gain(s, q, pop_pile(s))


# ---- jump-in ----------------------------------------------------------------------------------------

@jit_no_refcount
def jump_in_window(s, r, pol, src, t):
    """After `src` put number card t on top: the first player clockwise from src's left neighbour who
    holds an identical card and wants to jump in (jump_in_priority: clockwise). src itself cannot jump
    on its own card (decision: that would be two cards in one move). Returns the jumper or -1."""
    q = src
    for _ in range(n_players(s) - 1):
        q = left(s, q)
        if s.hand[q, t] > 0 and ask_yes_no(s, r, pol, q, D_JUMP_IN, t):
            return q
    return -1


# ---- effects: each resolves one step of a chain ------------------------------------------------------
# They return (next, src, card, pend, count): next >= 0 when the chain is finished (next = who takes the
# next normal turn); otherwise a card has landed (src played `card`, with pending effect `pend`) and
# `settle` continues with its jump-in window and effect.

@jit_no_refcount
def resolve_two_plus(s, r, pol, src, t, count):
    """2+: src's left neighbour draws `count` and play continues to *their* left (two_plus_drawer:
    skipped) or with the drawer (plays) -- unless they cancel with a 0 of the attacking card's colour
    (play continues with the defender's left), or stack any 2+ (count + 2 passes on to their own left
    neighbour)."""
    target = left(s, src)
    n = answer_options(s, target, card_type(colour_of(t), K_ZERO), K_TWO_PLUS)
    a = ask(s, r, pol, target, D_ANSWER_TWO_PLUS, n, count)
    if a >= 0:
        if kind_of(a) == K_ZERO:
            play_one(s, r, target, a, HOW_CANCEL)
            s.v[G_CANCELS] += 1
            return -1, target, a, PENDING_NONE, 0
        play_one(s, r, target, a, HOW_STACK)
        return -1, target, a, PENDING_TWO, count + 2
    rec(s, E_EFFECT, target, t, count, NIL)
    draw_cards(s, target, count, WHY_TWO_PLUS)
    nxt = target if r.two_plus_drawer_plays else left(s, target)
    return nxt, target, t, PENDING_NONE, 0


@jit_no_refcount
def resolve_pause(s, r, pol, src, t):
    """Pause chain: k Pause cards skip the k players after the last player to add one; each of them,
    in turn, may first cancel with a 0 of the colour of the top Pause (play continues with the
    defender's left) or add a Pause of any colour (k + 1, counted from the adder). The last adder is
    never asked to answer its own chain (with k >= P it is simply skipped)."""
    P = n_players(s)
    k = 1
    i = 1
    while i <= k:
        q = (src + i) % P
        if q != src:
            a = ask(s, r, pol, q, D_ANSWER_PAUSE, answer_options(s, q, card_type(colour_of(t), K_ZERO), K_PAUSE), t)
            if a >= 0:
                if kind_of(a) == K_ZERO:
                    play_one(s, r, q, a, HOW_CANCEL)
                    s.v[G_CANCELS] += 1
                    return -1, q, a, PENDING_NONE, 0
                play_one(s, r, q, a, HOW_PAUSE_ADD)
                src = q
                t = a
                k += 1
                i = 1
                continue
        rec(s, E_SKIP, q, t, k, NIL)
        i += 1
    return (src + k + 1) % P, src, t, PENDING_NONE, 0


@jit_no_refcount
def swap_incoming(s, src, mode, target, q):
    """Whose hand q would receive under this Swap (-1: q's hand is not moved)."""
    if mode == SWAP_WITH_ONE:
        if q == target:
            return src
        if q == src:
            return target
        return -1
    if mode == SWAP_PASS_LEFT:
        return right(s, q)
    return left(s, q)


@jit_no_refcount
def same_hand(s, a, b):
    for t in range(N_TYPES):
        if s.hand[a, t] != s.hand[b, t]:
            return False
    return True


@jit_no_refcount
def apply_swap(s, src, mode, target):
    """Move the hands: swap src's and target's, or everyone passes to the left / to the right."""
    P = n_players(s)
    if mode == SWAP_WITH_ONE:
        for t in range(N_TYPES + 1):
            x = s.hand[src, t]
            s.hand[src, t] = s.hand[target, t]
            s.hand[target, t] = x
    elif mode == SWAP_PASS_LEFT:     # q receives the hand of q - 1
        for t in range(N_TYPES + 1):
            x = s.hand[P - 1, t]
            for q in range(P - 1, 0, -1):
                s.hand[q, t] = s.hand[q - 1, t]
            s.hand[0, t] = x
    else:                            # q receives the hand of q + 1
        for t in range(N_TYPES + 1):
            x = s.hand[0, t]
            for q in range(P - 1):
                s.hand[q, t] = s.hand[q + 1, t]
            s.hand[P - 1, t] = x
    # the masks of held card types move with the hands
    if mode == SWAP_WITH_ONE:
        x = s.v[HELD + src]
        s.v[HELD + src] = s.v[HELD + target]
        s.v[HELD + target] = x
    elif mode == SWAP_PASS_LEFT:
        x = s.v[HELD + P - 1]
        for q in range(P - 1, 0, -1):
            s.v[HELD + q] = s.v[HELD + q - 1]
        s.v[HELD] = x
    else:
        x = s.v[HELD]
        for q in range(P - 1):
            s.v[HELD + q] = s.v[HELD + q + 1]
        s.v[HELD + P - 1] = x


@jit_no_refcount
def resolve_swap(s, r, pol, src, t):
    """Swap: src chooses a mode (and target). Every other player whose hand would change may, in
    clockwise order from src's left, cancel the whole swap with a 0 of the Swap's colour (play then
    continues with the defender's left). Otherwise the hands move and play continues with src's left.
    A Swap can hand cards to a player who has already gone out, or leave someone with none; the hand
    ends only by check_stop after a play, so that does not end it by itself."""
    o = ask(s, r, pol, src, D_SWAP, swap_options(s, src), t)
    mode = o // MODE_STRIDE
    target = o % MODE_STRIDE if mode == SWAP_WITH_ONE else NONE
    return resolve_swap_chosen(s, r, pol, src, t, mode, target)


@jit_no_refcount
def resolve_swap_chosen(s, r, pol, src, t, mode, target):
    """The Swap once src has chosen its mode and target: the cancels, then the hands move."""
    rec(s, E_SWAP, src, t, mode, target)
    zero = card_type(colour_of(t), K_ZERO)
    q = src
    for _ in range(n_players(s) - 1):
        q = left(s, q)
        inc = swap_incoming(s, src, mode, target, q)
        if (inc >= 0 and s.hand[q, zero] > 0 and not same_hand(s, q, inc)
                and ask_yes_no(s, r, pol, q, D_SWAP_CANCEL, inc)):
            play_one(s, r, q, zero, HOW_CANCEL)
            s.v[G_CANCELS] += 1
            return -1, q, zero, PENDING_NONE, 0
    apply_swap(s, src, mode, target)
    if tracking(s):
        learn_swap(s, src, mode, target)
    rec(s, E_SWAP_DONE, src, t, mode, target)
    return left(s, src), src, t, PENDING_NONE, 0


@jit_no_refcount
def resolve_xplus(s, r, pol, src, t):
    """X+: src's left neighbour shows their hand and must put down one number card of any colour,
    then draw its number (6/9 -> 9, 2+ -> 2, 0 -> 0: the card table's `draws`); that counts as their
    turn and play continues to their left. Only symbols in hand: the X+ is ignored (they take their
    normal turn). A 0 of the X+'s colour cancels it entirely when xplus_zero_cancels (play continues
    with the defender's left). The forced card has its own effect when xplus_card_effects (default, as
    in the original's example; only a 2+ has one: the victim's left neighbour draws 2). Decision: the
    victim is out (STOP) only if their hand is still empty after the draw."""
    q = left(s, src)
    if s.v[HELD + q] & NUMBER_MASK == 0:
        if tracking(s):
            learn_shown(s, q)
        rec(s, E_XPLUS_IGNORED, q, t, NIL, NIL)
        return q, src, t, PENDING_NONE, 0
    zero = card_type(colour_of(t), K_ZERO)
    if r.xplus_zero_cancels and s.hand[q, zero] > 0 and ask_yes_no(s, r, pol, q, D_XPLUS_CANCEL, t):
        play_one(s, r, q, zero, HOW_CANCEL)
        s.v[G_CANCELS] += 1
        return -1, q, zero, PENDING_NONE, 0
    if tracking(s):
        learn_shown(s, q)
    f = ask(s, r, pol, q, D_XPLUS_CARD, forced_card_options(s, q), t)
    n0 = s.hand[q, SIZE]
    place(s, q, f, HOW_XPLUS)
    finish_move(s, r, q, n0)
    rec(s, E_EFFECT, q, t, s.v[DRAWS + f], NIL)
    draw_cards(s, q, s.v[DRAWS + f], WHY_XPLUS)
    check_stop(s, q)
    pend = effect_of(f) if r.xplus_card_effects else PENDING_NONE
    return -1, q, f, pend, 2


@jit_no_refcount
def settle(s, r, pol, src, t, pend, count, window):
    """`src` has just put card t on top with pending effect `pend` (2+ draw total `count`). Run the
    jump-in windows and the effect chain; return who takes the next normal turn. No jump-ins once the
    hand is over; effects still resolve, answers included. `window` False skips the first window (the
    starter card). A jumped 2+ targets the jumper's left neighbour and adds 2 to the pending draw
    (jumped_two_plus: stack) or only moves it (move); a 2+ jumped on a 2+ that had no effect (an X+
    forced card) starts a fresh draw of 2."""
    while True:
        if window and s.v[HAND_OVER] == 0 and is_number(t):
            j = jump_in_window(s, r, pol, src, t)
            if j >= 0:
                play_one(s, r, j, t, HOW_JUMP)
                s.v[G_JUMPS] += 1
                if kind_of(t) == K_TWO_PLUS:
                    if pend == PENDING_TWO:
                        if r.jumped_two_plus_stacks:
                            count += 2
                    else:
                        pend = PENDING_TWO
                        count = 2
                src = j
                continue
        window = WINDOW
        if pend == PENDING_NONE:
            return left(s, src)
        if pend == PENDING_TWO:
            nxt, src, t, pend, count = resolve_two_plus(s, r, pol, src, t, count)
        elif pend == PENDING_PAUSE:
            nxt, src, t, pend, count = resolve_pause(s, r, pol, src, t)
        elif pend == PENDING_SWAP:
            nxt, src, t, pend, count = resolve_swap(s, r, pol, src, t)
        else:
            nxt, src, t, pend, count = resolve_xplus(s, r, pol, src, t)
        if nxt >= 0:
            return nxt


# ---- a turn -----------------------------------------------------------------------------------------

@jit_no_refcount_inline
def play_from_hand(s, r, pol, p, c, how):
    """p plays card c in their turn. A wild must be followed at once by a non-wild card of p's choice
    from the same hand; that card becomes the top card and its effect applies."""
    n0 = s.hand[p, SIZE]
    place(s, p, c, how)
    if c == WILD:
        c = ask(s, r, pol, p, D_WILD_FOLLOW, follow_options(s, p), c)
        place(s, p, c, HOW_WILD_FOLLOW)
    check_stop(s, p)
    finish_move(s, r, p, n0)
    return settle(s, r, pol, p, c, effect_of(c), TWO, WINDOW)


@jit_no_refcount_inline
def take_turn(s, r, pol, p):
    """p's normal turn: play a matching card (must, if must_play_if_able), else draw one card; the
    drawn card may be played at once only if play_drawn_card (and then must be, if
    must_play_if_able). Returns who plays next."""
    s.v[G_TURNS] += 1
    s.v[HAND_TURNS] += 1
    t_top = top(s)
    how = HOW_TURN
    n = play_options(s, p, t_top, r.must_play_if_able == 0)
    c = ask(s, r, pol, p, D_PLAY, n, t_top) if n else NONE
    if c < 0:   # no legal card, or DRAW_INSTEAD
        c = NONE
        d = draw_card(s, p, WHY_TURN)
        if d >= 0 and r.play_drawn_card and can_play(s, p, d, t_top):
            n = offer(s, 0, YES) if r.must_play_if_able else offer(s, offer(s, 0, NO), YES)  # must, or may
            if ask(s, r, pol, p, D_PLAY_DRAWN, n, d) == YES:
                c = d
                how = HOW_DRAWN
    if c < 0:
        rec(s, E_PASS, p, NONE, NIL, NIL)
        return left(s, p)
    return play_from_hand(s, r, pol, p, c, how)


# ---- a hand -----------------------------------------------------------------------------------------

@jit_no_refcount
def deal(s, r, dealer):
    """All cards shuffled into the draw pile; hand_size cards to each player, one at a time, starting
    with the dealer's left neighbour."""
    T = s.piles.shape[1]
    for i in range(T):
        s.piles[DRAW, i] = s.piles[DECK, i]
    s.v[PILE_N] = T
    s.v[SHUFFLED] = T              # shuffled (lazily, see pop_pile)
    s.v[DISC_N] = 0
    s.hand[:, :] = 0
    for p in range(n_players(s)):
        s.v[HELD + p] = 0
    if tracking(s):
        for i in range(KNOWN, KNOWN + MAX_PLAYERS * MAX_PLAYERS * N_TYPES):
            s.v[i] = 0
    for _ in range(r.hand_size):
        q = dealer
        for _ in range(n_players(s)):
            q = left(s, q)
            gain(s, q, pop_pile(s))
    if s.v[TRACE]:
        for p in range(n_players(s)):
            for t in range(N_TYPES):
                if s.hand[p, t] > 0:
                    rec(s, E_DEAL, p, t, s.hand[p, t], NIL)


@jit_no_refcount
def turn_starter(s, r, dealer):
    """Turn the top card of the pile face up as the first discard. starter_redraw_wild: a wild goes
    back into the pile, which is reshuffled, and a new card is turned."""
    while True:
        t = pop_pile(s)
        if t == WILD and r.starter_redraw_wild:
            rec(s, E_STARTER, dealer, t, RETURNED, NIL)
            s.v[PILE_N] += 1                         # back on the pile ...
            s.v[SHUFFLED] = s.v[PILE_N]              # ... which is reshuffled
            continue
        s.piles[DISC, 0] = t
        s.v[DISC_N] = 1
        rec(s, E_STARTER, dealer, t, NIL, NIL)
        return t


@jit_no_refcount
def check_cards(s):
    """Conservation: every card of the deck is in exactly one place. Returns the number of problems
    (card types whose count is off, negative counts, hand sizes that disagree): 0 when all is well."""
    for t in range(N_TYPES):
        s.v[CAND + t] = 0
    for i in range(s.v[PILE_N]):
        s.v[CAND + s.piles[DRAW, i]] += 1
    for i in range(s.v[DISC_N]):
        s.v[CAND + s.piles[DISC, i]] += 1
    bad = 0
    for p in range(n_players(s)):
        n = 0
        mask = 0
        for t in range(N_TYPES):
            k = s.hand[p, t]
            s.v[CAND + t] += k
            n += k
            if k < 0:
                bad += 1
            if k > 0:
                mask |= bit(t)
        if n != s.hand[p, SIZE] or s.v[HELD + p] != mask:
            bad += 1
    for t in range(N_TYPES):
        if s.v[CAND + t] != s.v[COPIES + t]:
            bad += 1
    return bad


@jit_no_refcount
def seat_stat(s, p, k):
    return SEAT + p * NSEAT + k


@jit_no_refcount
def score_hand(s, r, dealer, first):
    """Each player scores the penalty of the cards they hold (numbers face value, 6/9 9, 2+ 20, Pause
    10, Swap 30, X+ 40, wild 50 by default) -- the original says each player, so out_player_scores:
    held (default) scores the STOP caller too, on what they hold once the last card's effect resolved
    (normally nothing; cards come back through a 2+ stack wrapping round or a last-card Swap); zero --
    the variant where the caller scores 0 whatever they hold."""
    P = n_players(s)
    out = s.v[OUT]
    for p in range(P):
        pen = hand_penalty(s, p)
        sym = symbol_penalty(s, p)
        if r.out_player_scores_zero and p == out:
            pen = 0
            sym = 0
        s.v[TOTAL + p] += pen
        s.v[seat_stat(s, p, S_SCORE)] = s.v[TOTAL + p]
        if first:
            s.v[seat_stat(s, p, S_FIRST)] = pen
        s.v[seat_stat(s, p, S_SYMBOL)] += sym
        s.v[seat_stat(s, p, S_SUMSQ)] += pen * pen
        s.v[seat_stat(s, (p - dealer + P) % P, S_REL_PEN)] += pen
        if s.v[TRACE]:
            for t in range(N_TYPES):
                if s.hand[p, t] > 0:
                    rec(s, E_HELD, p, t, s.hand[p, t], NIL)
            rec(s, E_SCORE, p, NONE, pen, s.v[TOTAL + p])
    if out >= 0:
        s.v[seat_stat(s, out, S_OUT)] += 1
        s.v[seat_stat(s, (out - dealer + P) % P, S_REL_OUT)] += 1


@jit_no_refcount
def open_play(s, r, pol, dealer):
    """After the deal: turn the starter; the dealer plays first -- unless starter_effects and the
    starter is an action card. Decision: it then acts as if the dealer's right neighbour had just
    played it, so the dealer is the target of a 2+ / Pause / X+ and the right neighbour chooses a
    Swap; no jump-ins on the starter (nobody played it). Returns who takes the first turn."""
    starter = turn_starter(s, r, dealer)
    if r.starter_effects and effect_of(starter) != PENDING_NONE:
        return settle(s, r, pol, right(s, dealer), starter, effect_of(starter), TWO, NO_WINDOW)
    return dealer


@jit_no_refcount
def play_hand(s, r, pol, dealer, first):
    """Deal, turn the starter, play turns from the dealer until someone calls STOP (or the hand reaches
    hand_turn_cap turns: counted as capped and scored as it stands), then score."""
    s.v[HAND_OVER] = 0
    s.v[OUT] = -1
    s.v[HAND_TURNS] = 0
    s.v[DEALER] = dealer
    rec(s, E_HAND, dealer, NONE, s.v[G_LENGTH] + 1, NIL)
    deal(s, r, dealer)
    cur = open_play(s, r, pol, dealer)
    while s.v[HAND_OVER] == 0:
        if s.v[HAND_TURNS] >= r.hand_turn_cap:
            s.v[G_CAPPED] += 1
            rec(s, E_CAPPED, NONE, NONE, s.v[HAND_TURNS], NIL)
            break
        cur = take_turn(s, r, pol, cur)
    s.v[G_CHECK] += check_cards(s)
    score_hand(s, r, dealer, first)


# ---- a match and a batch ----------------------------------------------------------------------------

@jit_no_refcount
def mark_winners(s):
    """The player(s) with the lowest total win (ties share). Returns the winners as a bit mask."""
    P = n_players(s)
    low = s.v[TOTAL]
    for p in range(1, P):
        low = min(low, s.v[TOTAL + p])
    mask = 0
    for p in range(P):
        w = 1 if s.v[TOTAL + p] == low else 0
        s.v[seat_stat(s, p, S_WIN)] = w
        mask |= w << p
    return mask


@njit(cache=True, _nrt=True)
def reset_match(s, seed, game_id):
    """A new match: the game's own stream and zeroed counters. Compiled with numba's reference
    counting on (explicitly: flags are otherwise inherited from the no-refcount caller) because
    new_stream allocates."""
    s.rng[0] = new_stream(seed, game_id)[0]
    for k in range(G0, G0 + NG):
        s.v[k] = 0
    for p in range(n_players(s)):
        s.v[TOTAL + p] = 0
        for k in range(NSEAT):
            s.v[seat_stat(s, p, k)] = 0


@jit_no_refcount
def play_match(s, r, pol, seed, game_id):
    """Hands until a total reaches match_limit; the first dealer (drawn from the match's stream, or
    seat 0 under first_dealer: seat0) deals and plays first in hand 1, then the deal passes to the
    left. Lowest total wins; ties share. match_hand_cap stops a match that cannot end (e.g. penalties
    edited to 0): recorded in match_capped, winners decided the same way. Returns the first dealer."""
    reset_match(s, seed, game_id)
    P = n_players(s)
    first_dealer = below(s.rng, P) if r.first_dealer_random else 0
    h = 0
    while True:
        play_hand(s, r, pol, (first_dealer + h) % P, h == 0)
        h += 1
        s.v[G_LENGTH] = h
        high = 0
        for p in range(P):
            high = max(high, s.v[TOTAL + p])
        if high >= r.match_limit:
            break
        if h >= r.match_hand_cap:
            s.v[G_MATCH_CAPPED] = 1
            break
    rec(s, E_MATCH_END, NONE, NONE, h, mark_winners(s))
    return first_dealer


@njit(cache=True, _nrt=True, nogil=True)
def play(seed, game_ids, ctl, r, cards, pol, seats, out_g, out_s, first, ev, tn, ev_cap):
    """The kernel (Game.kernel): the matches `game_ids` of run `seed`, each under its control row ctl[i]
    (kernel.A_*: all zeros unless a seat searches; copied into the state for the match and back after
    it: state.control), (r: Rules, cards: Cards, pol: Policy, seats: int64[P] policy codes) into the
    outputs the framework allocated from COLUMNS:
    per-game counters out_g (n, NG) in GAME_COLUMNS order, per-seat stats out_s (n, P, NSEAT) in
    SEAT_COLUMNS order, the first dealer (the seat that moved first) into `first`, the trace ev/tn
    (ev_cap > 0 turns it on, meant for one game). Compiled with nogil: it runs without the GIL, so the
    runner plays chunks on threads (Stop.kernel_releases_gil); nothing it calls uses object mode."""
    P = seats.shape[0]
    n = game_ids.shape[0]
    width = ctl.shape[1]
    s = make_state(P, cards.penalty, cards.draws, cards.copies, seats, ev, ev_cap, width - (NV - CTL))
    for i in range(n):
        for k in range(width):
            s.v[CTL + k] = ctl[i, k]
        first[i] = play_match(s, r, pol, seed, game_ids[i])
        for k in range(width):
            ctl[i, k] = s.v[CTL + k]
        for k in range(NG):
            out_g[i, k] = s.v[G0 + k]
        for p in range(P):
            for k in range(NSEAT):
                out_s[i, p, k] = s.v[SEAT + p * NSEAT + k]
    tn[:] = s.v[TRACE_N:TRACE_N + 2]
