"""The state of a STOP game in five numpy arrays, and the small accessors every rule uses.

  hand   int64[P, 50]   hand[p, t] = copies of card type t held by p; hand[p, SIZE] = cards held
  piles  int64[3, T]    piles[DRAW, :v[PILE_N]] draw pile (top last, shuffled lazily: engine.pop_pile);
                        piles[DISC, :v[DISC_N]] discards;
                        piles[DECK] every card of the deck in type order (dealing starts from a copy)
  v      int64[NV+log]  registers, counters, card table, seat policies, scratch (the deciding seat's view among
                        it), what each seat knows of the others' hands, and last the game's control row
                        (kernel.A_*, its search log past NV)
                        (LAYOUT below; LAYOUT.dump(v))
  rng    uint64[1]      the game's stream, rng.new_stream(seed, game_id)
  ev     int32[cap, 5]  trace records (kernel.record; v[TRACE] = cap, 0 = off; its counters in v[TRACE_N:+2])

The control row (`control(s)`, v[CTL:]) is the game's row of the kernel's control table (kernel.A_*),
copied in before the match and back after it (engine.play): a decision's `ask` (`ask_of(s)`) is it
and the trace, all inside the state. Its A_SCRIPT slot is the scripted policy's cursor.

Hands change only through `gain` and `lose` (and apply_swap / deal in the engine), which also keep
`v[HELD + p]`, a bit mask of the card types p holds: legality checks then look at 2-4 candidate types
instead of scanning 49 counts.

Compilation (measured on this kernel, see the report of the engine author):
- `jit_no_refcount` = njit(cache=True, _nrt=False): numba otherwise reference-counts every array of the State
  tuple on entry to every non-inlined function (an atomic increment and decrement each): that was
  40% of the run time. Rule functions never allocate, so they are compiled without the runtime's
  reference counting. Flags not given explicitly are inherited from the caller, so the few functions
  that allocate (make_state, reset_match, play) say `_nrt=True`.
- Constants are numpy ints (not Python ints): numba types a Python int constant passed to a jitted
  function as a literal and compiles one specialization per value (that tripled compile time).
- The compile cache is keyed by every file of this folder (analyzer/kernel.py), so an edit to
  policies.py, view.py, state.py or cards.py rebuilds the engine's kernels too.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from ...kernel import A_LOG, A_MODE, A_REDEAL, ROLLOUT, Layout
from ...kernel_internals import jit_no_refcount, jit_no_refcount_inline, trailing_zeros
from .cards import LAST_NUMBER_KIND, N_KINDS, N_TYPES, WILD
from .columns import NG, NSEAT

# five arrays, no more: every non-inlined rule function is passed all of their fields
State = namedtuple("State", ["hand", "piles", "v", "rng", "ev"])

i64 = np.int64             # constants are numpy ints (see above)
MAX_PLAYERS = i64(6)
VIEW_FILLED = i64(4)  # the part of a seat's view filled at each decision: view.py lays it out
SIZE = N_TYPES             # hand[p, SIZE]: number of cards p holds
DRAW, DISC, DECK = i64(0), i64(1), i64(2)  # rows of piles
NONE = i64(-1)             # no player / no card (event fields)
NIL = i64(0)               # an unused event field
ONE = i64(1)

# ---- the registers, counters and tables of v, by name -------------------------------------------------
# the result columns (Stop.COLUMNS): the kernel keeps them in v (G0.., SEAT..) and copies them out per game
LAYOUT = Layout([
    # registers
    ("pile_n", 1), ("disc_n", 1), ("hand_over", 1), ("out", 1), ("hand_turns", 1), ("trace", 1), ("trace_n", 2), ("dealer", 1),
    ("n_players", 1), ("shuffled", 1),
    ("game", NG),                       # per-game counters, GAME_COLUMNS order
    ("cand", N_TYPES),                  # scratch: candidate weights, card counts
    ("opts", N_TYPES + 1),              # scratch: the options of a decision (decisions.py)
    ("allowed", N_TYPES + 1),           # scratch: 1 where the seat's restrictions allow that option
    # the deciding seat's view (view.py), one window: its decision, filled at every ask (scratch), then the
    # public tables it reads in place
    ("view", VIEW_FILLED),
    ("penalty", N_TYPES),               # card table: hand penalty of each card type
    ("draws", N_TYPES),                 # card table: cards the X+ victim draws for it
    ("total", MAX_PLAYERS),             # match penalty totals
    ("copies", N_TYPES),                # card table: copies in the deck
    ("policy", MAX_PLAYERS),            # policy code of each seat
    ("held", MAX_PLAYERS),              # bit mask of the card types each player holds
    ("seat", (MAX_PLAYERS, NSEAT)),     # per-seat match stats, SEAT_COLUMNS order
    # known[v, q, t]: cards of type t seat v knows seat q holds (shown by an X+ victim, handed on by a Swap),
    # kept only in a search rollout (engine.learn_*), for the re-deal at its branch (engine.redeal_hidden)
    ("known", (MAX_PLAYERS, MAX_PLAYERS, N_TYPES)),
    ("ctl", A_LOG),                     # the game's control row (kernel.A_*); its search log follows, past NV
])
(PILE_N, DISC_N, HAND_OVER, OUT, HAND_TURNS, TRACE, TRACE_N, DEALER, N_PLAYERS, SHUFFLED, G0, CAND, OPTS, ALLOWED, VIEW,
 PENALTY, DRAWS, TOTAL, COPIES, POLICY, HELD, SEAT, KNOWN, CTL) = LAYOUT.at(*LAYOUT.starts)
NV = i64(LAYOUT.size)
MODE_AT, REDEAL_AT = i64(CTL + A_MODE), i64(CTL + A_REDEAL)  # the control row's mode and re-deal slots in v
(G_LENGTH, G_CAPPED, G_MOVES, G_JUMPS, G_TURNS, G_DRAWN, G_RESHUFFLES, G_CANCELS, G_ACHTUNG,
 G_MATCH_CAPPED, G_CHECK) = map(i64, range(G0, G0 + NG))
S_SCORE, S_FIRST, S_SYMBOL, S_OUT, S_REL_PEN, S_REL_OUT, S_SUMSQ, S_WIN, S_LIFTED = map(i64, range(NSEAT))


# ---- card-type bit masks (fixed by the rules, constants of the compiled code) ------------------------

def _masks():
    """MATCH_MASK[top]: the types that may be played on `top` -- same colour, or same number (6/9
    matches 6/9: it is one kind), or same symbol; a wild on anything. A wild on top can only be the
    starter (a played wild is always covered by its follow-up card); decision: a wild starter accepts
    any card, since it has no colour to follow. NUMBER_MASK: the number cards."""
    match = np.zeros(int(N_TYPES), np.int64)
    for top_card in range(N_TYPES):
        for t in range(N_TYPES):
            if (t == WILD or top_card == WILD or t // N_KINDS == top_card // N_KINDS
                    or t % N_KINDS == top_card % N_KINDS):
                match[top_card] |= 1 << t
    number = sum(1 << t for t in range(WILD) if t % N_KINDS <= LAST_NUMBER_KIND)
    return match, np.int64(number)


MATCH_MASK, NUMBER_MASK = _masks()
WILD_BIT = i64(1 << int(WILD))


@jit_no_refcount_inline
def bit(t):
    return ONE << t


@jit_no_refcount_inline
def lowest(mask):
    """The lowest card type in a non-empty mask (iterate: t = lowest(m); m &= m - 1)."""
    return trailing_zeros(mask)


@njit(cache=True, _nrt=True)
def make_state(n_players, penalty, draws, copies, seat_policy, ev, ev_cap, log=0):
    """A fresh state for n_players with the card table (penalty, draws, copies: int64[49]) and the
    seat policy codes, recording into the trace ev (kernel.new_trace); ev_cap > 0 turns it on. Its
    control row is PLAIN (nobody searches), with room for a search log of `log` decisions."""
    n_cards = 0
    for t in range(N_TYPES):
        n_cards += copies[t]
    v = np.zeros(NV + log, np.int64)
    v[N_PLAYERS] = n_players
    v[TRACE] = ev_cap
    for t in range(N_TYPES):
        v[PENALTY + t] = penalty[t]
        v[DRAWS + t] = draws[t]
        v[COPIES + t] = copies[t]
    for p in range(n_players):
        v[POLICY + p] = seat_policy[p]
    piles = np.zeros((3, n_cards), np.int64)
    i = 0
    for t in range(N_TYPES):
        for _ in range(copies[t]):
            piles[DECK, i] = t
            i += 1
    return State(np.zeros((n_players, N_TYPES + 1), np.int64), piles, v, np.zeros(1, np.uint64), ev)


@jit_no_refcount_inline
def control(s):
    """The game's control row (kernel.A_*, then its search log): a view of v."""
    return s.v[CTL:]


@jit_no_refcount_inline
def ask_of(s):
    """A decision's `ask` (kernel.ask_policy): the control row and the trace (its counters, its cap)."""
    return s.v[CTL:], s.ev, s.v[TRACE_N:TRACE_N + 2], s.v[TRACE]


@jit_no_refcount_inline
def tracking(s):
    """Does this run keep what each seat knows of the others' hands (`known`)? Only a search rollout,
    whose branch re-deals the rest (engine.redeal_hidden); every other run skips it."""
    return s.v[MODE_AT] == ROLLOUT


@jit_no_refcount_inline
def known_at(p, q, t):
    """The slot of known[p, q, t] in v."""
    return KNOWN + (p * MAX_PLAYERS + q) * N_TYPES + t


@jit_no_refcount_inline
def n_players(s):
    return s.hand.shape[0]


@jit_no_refcount_inline
def left_of(p, players):
    """Left neighbour = the next player clockwise (seats are numbered clockwise)."""
    q = p + 1
    return 0 if q == players else q


@jit_no_refcount_inline
def left(s, p):
    return left_of(p, s.hand.shape[0])


@jit_no_refcount_inline
def right(s, p):
    return s.hand.shape[0] - 1 if p == 0 else p - 1


@jit_no_refcount_inline
def top(s):
    return s.piles[DISC, s.v[DISC_N] - 1]


@jit_no_refcount_inline
def gain(s, p, t):
    """p receives a card of type t."""
    s.hand[p, t] += 1
    s.hand[p, SIZE] += 1
    s.v[HELD + p] |= bit(t)


@jit_no_refcount_inline
def lose(s, p, t):
    """p gives up a card of type t."""
    s.hand[p, t] -= 1
    s.hand[p, SIZE] -= 1
    if s.hand[p, t] == 0:
        s.v[HELD + p] &= ~bit(t)


@jit_no_refcount
def held_mask(s, p):
    """Recompute p's mask of held types from the counts."""
    m = 0
    for t in range(N_TYPES):
        if s.hand[p, t] > 0:
            m |= bit(t)
    return m


@jit_no_refcount_inline
def legal_mask(s, p, top_card):
    """The card types p may play on top_card in their turn: held, matching, and a wild only with a
    non-wild card to follow it (so a wild is never a last card)."""
    m = s.v[HELD + p] & MATCH_MASK[top_card]
    if m & WILD_BIT and s.hand[p, SIZE] == s.hand[p, WILD]:
        m &= ~WILD_BIT
    return m


@jit_no_refcount
def can_play(s, p, t, top_card):
    """Can p legally play a card of type t on top_card in their turn?"""
    return (legal_mask(s, p, top_card) >> t) & 1 == 1


@jit_no_refcount_inline
def penalty_of(counts, mask, table, at):
    """What the card types of `mask` score in a hand of `counts` (by type), the penalties at table[at:]."""
    tot = 0
    m = mask
    while m:
        t = lowest(m)
        m &= m - 1
        tot += counts[t] * table[at + t]
    return tot


@jit_no_refcount
def hand_penalty(s, p):
    return penalty_of(s.hand[p], s.v[HELD + p], s.v, PENALTY)


@jit_no_refcount
def symbol_penalty(s, p):
    """Penalty of the symbol cards p holds (Pause, Swap, X+, wild)."""
    return penalty_of(s.hand[p], s.v[HELD + p] & ~NUMBER_MASK, s.v, PENALTY)


# ---- Python-side helpers for tests and tools (not jitted) -------------------------------------------

def set_hand(s: State, p: int, cards) -> None:
    """Give p exactly `cards` (card types)."""
    s.hand[p, :] = 0
    for t in cards:
        s.hand[p, t] += 1
    s.hand[p, SIZE] = len(cards)
    s.v[HELD + p] = sum(1 << t for t in range(N_TYPES) if s.hand[p, t] > 0)


def hand_list(s: State, p: int) -> list[int]:
    return [t for t in range(N_TYPES) for _ in range(int(s.hand[p, t]))]


def set_piles(s: State, draw=(), discard=()) -> None:
    """Draw pile (last = next card drawn) and discard pile (last = top card)."""
    s.piles[DRAW:DISC + 1] = 0
    s.piles[DRAW, :len(draw)] = np.asarray(draw, np.int64)
    s.piles[DISC, :len(discard)] = np.asarray(discard, np.int64)
    s.v[PILE_N] = len(draw)
    s.v[SHUFFLED] = 0              # a hand-built pile is drawn in the order given
    s.v[DISC_N] = len(discard)


def draw_pile(s: State) -> list[int]:
    return [int(x) for x in s.piles[DRAW, :s.v[PILE_N]]]


def discard_pile(s: State) -> list[int]:
    return [int(x) for x in s.piles[DISC, :s.v[DISC_N]]]
