"""The decisions of a Space Base player and how their options are written: the vocabulary the rules
(engine.py, which asks each decision and lists its legal options into the state's OPTS scratch) and
the policies (policies.py, whose `decide` returns the index of one) share. Nothing here decides anything.
A decision with a single legal option is not asked (engine.ask).

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
  D_FIRE          NO, YES (fire a ready free-timing charge ability)                    card, side,
                                                                                       its sector *
  What a fired ability then does, in the order the engine carries it out:
  D_SWAP          NO, YES (swap the card's two printed sectors: the pair is data)      card, side
  D_EXCHANGE      NO, exchange(sector, i) for each card the firing card may trade      card, side,
                  places with (sector order): a stationed card, the station of every   its sector *
                  other sector; a deployed one, the station of every sector, its own
                  included (rules.exchange any_station_card), or each card deployed
                  in another sector (same_kind, i its deployed index). i = -1: the
                  stationed card. Stations of colony sectors are never taken
  D_PLACE         NO, cube(card, side) for each other card of p with an empty needed   card
                  square (sector order; a sector's station, then its deployed cards;
                  no station of a colony sector); asked once per cube placed
  D_MOVE_FROM     NO, each other card of p holding a cube (order and colony sectors    card
                  as D_PLACE) while a card besides it has an empty needed square;
                  asked once per cube moved
  D_MOVE_TO       cube(card, side) for each card of p but the source with an empty     source card
                  needed square (the firing card included)
  D_ARROW         RIGHT, LEFT: the way a two-way reward arrow of the sector activated  side, sector
                  takes the neighbours' rewards (asked at each activation)
  D_PHASE         NO, YES: move the seat's policy to its next phase (engine: growth ->  -
                  VP), asked at the start of its turns while it has one (data PHASES)

* the sector where the firing card sits; for D_FIRE only when the card exchanges (else 0).

Restrictions (SpacebaseScenario.RESTRICTIONS, bit i the i-th): the options a restricted seat may never
take (`forbidden`) are filtered out right after listing (engine.restrict_options), and the heuristics,
which answer unlisted, never choose them. Every decision they filter keeps its NO or plain option
(no buy, not firing, the faces and the sum), so none is ever left without an option to take.
A decision with a single option is not asked (e.g. a D_SET_DIE with both dice set). The firing card
neither receives a placed cube (it could recharge itself without end) nor gives a moved one.
"""
from ...kernel_internals import jit_plain_ints_inline

(D_BUY, D_ABILITY_BUY, D_CLAIM, D_SET_DIE, D_REROLL, D_ASSIGN, D_FIRE,
 D_SWAP, D_EXCHANGE, D_PLACE, D_MOVE_FROM, D_MOVE_TO, D_ARROW, D_PHASE) = range(14)

NO = -1          # decline: no buy, no claim, no set die / reroll, do not fire / swap / exchange / place / move
YES = 1          # D_FIRE: fire; D_SWAP: swap; D_PHASE: next phase
RIGHT, LEFT = 1, -1  # D_ARROW: the chain goes up (+1 sector at a time) or down
COLONY = 1000    # D_BUY / D_ABILITY_BUY: COLONY + q is colony q (a display ship is lv * display_size + slot)
FACE_STRIDE = 8  # D_SET_DIE: die * FACE_STRIDE + face
NO_LEVEL3 = 1 << 0            # restrictions (bits of a seat's mask, RESTRICTIONS order): no Level III buy,
NO_CHARGE_ABILITIES = 1 << 1  # no charge ability used,
NO_COLONIES = 1 << 2          # no colony bought
EXCH_STRIDE = 16  # D_EXCHANGE: (deployed index + 1) * EXCH_STRIDE + sector (index -1: the stationed card)


@jit_plain_ints_inline
def set_die(die, face):
    return die * FACE_STRIDE + face


# D_ASSIGN: the mode (layout.M_*), the sector activated by the sum, the dice-arrow card and the 2X
# card spent (-1 none), in one int64
TARGET_SHIFT, ARROW_SHIFT, DOUBLE_SHIFT = 3, 8, 24
NO_CARD_SPENT = 1 << ARROW_SHIFT  # the options below it spend no card: the two faces or the plain sum


@jit_plain_ints_inline
def assignment(mode, target, arrow_card, double_card):
    return mode + (target << TARGET_SHIFT) + ((arrow_card + 1) << ARROW_SHIFT) + ((double_card + 1) << DOUBLE_SHIFT)


@jit_plain_ints_inline
def unpack_assignment(v):
    """(mode, target, arrow card, 2X card) of a D_ASSIGN option."""
    return (v & 7, (v >> TARGET_SHIFT) & 31, ((v >> ARROW_SHIFT) & 0xFFFF) - 1, (v >> DOUBLE_SHIFT) - 1)


@jit_plain_ints_inline
def exchange(sector, i):
    """D_EXCHANGE option: the card deployed at index i of `sector`, or its stationed card (i = -1)."""
    return (i + 1) * EXCH_STRIDE + sector


@jit_plain_ints_inline
def unpack_exchange(v):
    """(sector, deployed index or -1) of a D_EXCHANGE option."""
    return v % EXCH_STRIDE, v // EXCH_STRIDE - 1


@jit_plain_ints_inline
def cube(card, side):
    """D_PLACE / D_MOVE_TO option: card's `side` (the one it shows on p's board) receives the cube."""
    return 2 * card + side


@jit_plain_ints_inline
def unpack_cube(v):
    """(card, side) of a D_PLACE / D_MOVE_TO option."""
    return v >> 1, v & 1


@jit_plain_ints_inline
def forbidden(kind, v, mask, display_size):
    """Whether a seat with restriction `mask` may never take option v of a decision of `kind`."""
    if kind == D_BUY or kind == D_ABILITY_BUY:
        if v >= COLONY:
            return mask & NO_COLONIES != 0
        return v >= 2 * display_size and mask & NO_LEVEL3 != 0  # a Level III slot: lv * display_size + j
    if kind == D_SET_DIE or kind == D_REROLL or kind == D_FIRE:
        return v != NO and mask & NO_CHARGE_ABILITIES != 0
    if kind == D_ASSIGN:  # an option spending a dice-arrow or 2X card
        return v >= NO_CARD_SPENT and mask & NO_CHARGE_ABILITIES != 0
    return False
