"""The decisions of a STOP player and how their options are written: the contract between the rules
(engine.py, which lists the legal options of each decision into the state's OPTS scratch) and the
policies (policies.py, which return the index of one). Nothing here decides anything.

  kind                 options (in this order)                                         context
  D_PLAY               the legal card types of the turn, lowest first; DRAW_INSTEAD     top card
                       last when must_play_if_able is off
  D_WILD_FOLLOW        the non-wild card types held, lowest first                      -
  D_PLAY_DRAWN         NO, YES (play the card just drawn); YES only (not asked) when      drawn card
                       must_play_if_able
  D_JUMP_IN            NO, YES (jump in with an identical card)                        top card
  D_ANSWER_TWO_PLUS    ACCEPT, the same-colour 0 if held, the 2+ types held             pending draw
  D_ANSWER_PAUSE       ACCEPT, the same-colour 0 if held, the Pause types held          Pause card
  D_SWAP               swap_option(SWAP_WITH_ONE, q) for each other player clockwise    -
                       from the left, then PASS_LEFT, PASS_RIGHT
  D_SWAP_CANCEL        NO, YES (cancel the whole Swap with a 0)                         incoming hand's owner
  D_XPLUS_CANCEL       NO, YES (cancel the X+ with a 0)                                 X+ card
  D_XPLUS_CARD         the number card types held, lowest first                        -

A card option is its type (one option per type: copies of a card are the same move). A seat's
restrictions (below) filter the listed options before its policy is asked (engine.ask).
"""
import numpy as np

from ...kernel_internals import jit_no_refcount_inline

i64 = np.int64  # constants are numpy ints: see state.py

(D_PLAY, D_WILD_FOLLOW, D_PLAY_DRAWN, D_JUMP_IN, D_ANSWER_TWO_PLUS, D_ANSWER_PAUSE, D_SWAP, D_SWAP_CANCEL,
 D_XPLUS_CANCEL, D_XPLUS_CARD) = map(i64, range(10))

NO, YES = i64(0), i64(1)
DRAW_INSTEAD = i64(-1)    # D_PLAY: draw a card instead of playing
ACCEPT = i64(-1)          # answers: take the 2+ draw / the Pause skip

# Swap modes (also E_SWAP's `mode` field)
SWAP_WITH_ONE = i64(0)    # swap hands with one chosen player
SWAP_PASS_LEFT = i64(1)   # everyone passes their hand to the left (so receives from the right)
SWAP_PASS_RIGHT = i64(2)  # everyone passes their hand to the right (so receives from the left)
MODE_STRIDE = i64(8)      # a Swap option is mode * MODE_STRIDE + target (target 0 when passing)

# restrictions (StopScenario.RESTRICTIONS, in bit order): what the engine filters out of a seat's options
NO_JUMP_IN = i64(1 << 0)              # D_JUMP_IN: YES
NEVER_CANCEL_WITH_ZERO = i64(1 << 1)  # the answers' 0; D_SWAP_CANCEL, D_XPLUS_CANCEL: YES
NEVER_STACK = i64(1 << 2)             # the answers' 2+ / Pause cards
NEVER_PLAY_WILD = i64(1 << 3)         # D_PLAY: the wild; D_PLAY_DRAWN: YES for a drawn wild


@jit_no_refcount_inline
def swap_option(mode, target):
    """The D_SWAP option for a mode (and, for SWAP_WITH_ONE, its target seat)."""
    return mode * MODE_STRIDE + (target if mode == SWAP_WITH_ONE else 0)
