"""The decisions of a Space Base player and how their options are written: the contract between the
rules (engine.py, which lists the legal options of each decision into the state's OPTS scratch) and
the policies (policies.py, whose `decide` picks one). Nothing here decides anything.

  kind            options (in this order)                                              context
  D_BUY           NO, each affordable display ship outside p's colony sectors          credits
                  (buy_slot: Level I first, slot order), each affordable colony still
                  open to p (buy_colony, colony order); buying spends all credits
  D_ABILITY_BUY   the same, paying the cost only; colonies only with                   credits
                  rules.ability_buy_colonies
  D_CLAIM         NO, each display slot of the claimed level whose ship's sector is    level - 1
                  open to p (slot index)
  D_SET_DIE       NO, set_die(die, face) for each die not set yet (die 1 first),       card, side
                  faces 1..6
  D_REROLL        NO, 0 (die 1), 1 (die 2)                                             card, side
  D_ASSIGN        assignment(mode, target, arrow card, 2X card): the two faces, the    side
                  sum, the sum moved by a ready dice-arrow card to each sector it
                  reaches (the first such card in ability order), then with a ready
                  2X card: the sum twice (plain, then each moved target), the faces
                  plus die 1 again, plus die 2 again
  D_FIRE          NO, YES (fire a ready free-timing charge ability)                    card, side

A decision with a single option is not asked (e.g. a D_SET_DIE with both dice set). What a fired
ability then does (which sectors a swap takes, the exchange partner, where a placed or moved cube
goes) is not a listed decision yet: every policy uses the shared heuristics of policies.py for it.
"""
from .state import jit_inline

D_BUY, D_ABILITY_BUY, D_CLAIM, D_SET_DIE, D_REROLL, D_ASSIGN, D_FIRE = range(7)

NO = -1          # decline: no buy, no claim, no set die / reroll, do not fire
YES = 1          # D_FIRE: fire
COLONY = 1000    # D_BUY / D_ABILITY_BUY: COLONY + q is colony q (a display ship is lv * display_size + slot)
FACE_STRIDE = 8  # D_SET_DIE: die * FACE_STRIDE + face


@jit_inline
def set_die(die, face):
    return die * FACE_STRIDE + face


# D_ASSIGN: the mode (layout.M_*), the sector activated by the sum, the dice-arrow card and the 2X
# card spent (-1 none), in one int64
TARGET_SHIFT, ARROW_SHIFT, DOUBLE_SHIFT = 3, 8, 24


@jit_inline
def assignment(mode, target, arrow_card, double_card):
    return mode + (target << TARGET_SHIFT) + ((arrow_card + 1) << ARROW_SHIFT) + ((double_card + 1) << DOUBLE_SHIFT)


@jit_inline
def unpack_assignment(v):
    """(mode, target, arrow card, 2X card) of a D_ASSIGN option."""
    return (v & 7, (v >> TARGET_SHIFT) & 31, ((v >> ARROW_SHIFT) & 0xFFFF) - 1, (v >> DOUBLE_SHIFT) - 1)
