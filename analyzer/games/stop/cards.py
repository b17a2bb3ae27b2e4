"""STOP card identities: 4 colours x 12 kinds + the black wild = 49 card types.

A card *type* is an int: `colour * 12 + kind` for the coloured cards, `WILD` (48) for the black
free-choice card. Hands are count vectors over these 49 types; decks and piles are arrays of types.
What a type *is* (colour, kind, which kinds are numbers) is fixed here because the rules depend on it;
how many copies exist and what each scores are data (scenario `cards:`) that reach the kernel as arrays.
"""
import numpy as np

from ...kernel_internals import jit_no_refcount

# Constants are numpy ints, not Python ints: numba types a Python int constant passed to a jitted
# function as a literal and compiles one specialization per value (that tripled compile time).
i64 = np.int64
N_COLOURS = i64(4)
N_KINDS = i64(12)               # per colour
WILD = N_COLOURS * N_KINDS    # 48: the single black type
N_TYPES = WILD + 1            # 49
NO_COLOUR = N_COLOURS         # colour of the wild

# kinds (the card's face). 0..8 are number cards (can jump in, can be the X+ forced card).
K_ZERO = i64(0)
K_ONE = i64(1)
K_TWO_PLUS = i64(2)
K_THREE = i64(3)
K_FOUR = i64(4)
K_FIVE = i64(5)
K_SIX_NINE = i64(6)
K_SEVEN = i64(7)
K_EIGHT = i64(8)
K_PAUSE = i64(9)
K_SWAP = i64(10)
K_XPLUS = i64(11)
K_WILD = i64(12)
LAST_NUMBER_KIND = K_EIGHT

COLOUR_NAMES = ("red", "blue", "green", "yellow")
KIND_NAMES = ("0", "1", "2+", "3", "4", "5", "6/9", "7", "8", "Pause", "Swap", "X+", "wild")
# scenario `cards:` field names, in kind order
KIND_FIELDS = ("zero", "one", "two_plus", "three", "four", "five", "six_nine", "seven", "eight",
               "pause", "swap", "xplus")
SYMBOL_KINDS = (K_PAUSE, K_SWAP, K_XPLUS, K_WILD)


def card_name(t: int) -> str:
    if t < 0:
        return "nothing"
    if t == WILD:
        return "wild"
    return f"{COLOUR_NAMES[t // N_KINDS]} {KIND_NAMES[t % N_KINDS]}"


@jit_no_refcount
def kind_of(t):
    return K_WILD if t == WILD else t % N_KINDS


@jit_no_refcount
def colour_of(t):
    return NO_COLOUR if t == WILD else t // N_KINDS


@jit_no_refcount
def card_type(colour, kind):
    return colour * N_KINDS + kind


@jit_no_refcount
def is_number(t):
    """Number cards (0, 1, 2+, 3, 4, 5, 6/9, 7, 8) -- the only cards that can jump in."""
    return t != WILD and t % N_KINDS <= LAST_NUMBER_KIND


def type_table(copies_per_kind, penalty_per_kind, draws_per_kind, wild_copies, wild_penalty):
    """Per-type arrays (colour, kind, copies, penalty, X+ draw count) from per-kind data; plus the
    deck (array of all card types, one entry per physical card)."""
    colour = np.empty(N_TYPES, np.int64)
    kind = np.empty(N_TYPES, np.int64)
    copies = np.empty(N_TYPES, np.int64)
    penalty = np.empty(N_TYPES, np.int64)
    draws = np.zeros(N_TYPES, np.int64)
    for c in range(N_COLOURS):
        for k in range(N_KINDS):
            t = c * N_KINDS + k
            colour[t], kind[t] = c, k
            copies[t] = copies_per_kind[k]
            penalty[t] = penalty_per_kind[k]
            draws[t] = draws_per_kind[k]
    colour[WILD], kind[WILD], copies[WILD], penalty[WILD] = NO_COLOUR, K_WILD, wild_copies, wild_penalty
    deck = np.repeat(np.arange(N_TYPES, dtype=np.int64), copies)
    return colour, kind, copies, penalty, draws, deck

