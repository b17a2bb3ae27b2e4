"""Column layouts of the number arrays shared by scenario.py (which fills them) and the kernel.

Module-level ints are compile-time constants for numba, so renaming or adding a column means a
recompile, but editing the scenario YAML never does (it only changes array contents).
"""
from ...kernel import indices

NSEC = 12  # sectors 1..12; sector-indexed arrays have 13 entries (index 0 unused)

# ---- card table CT[card, F.*] (int16): the numbers printed on a card. Cards: starters first, then ships, in
# YAML order. Its blue side's fields follow the card's own; the red side's, NSIDE columns further:
# CT[c, side * NSIDE + F.CAP] ----
SIDE_FIELDS = (
    "credits", "income", "vp", "arrow",   # the reward box: credits, income, VP, reward arrows (ARROW_*)
    "cl1", "cl2", "cl3",                 # the reward's claims of a Level I, II, III ship
    "cap", "linked", "on_place",         # charge squares needed at this player count; all needed to fire;
    #                                      credits paid per cube placed
    # what its charge ability does when it fires:
    "shift", "set_die", "reroll",        # dice arrow (shift the sum up by 1..N), set a die, reroll a die
    "swap_a", "swap_b",                  # swap these two sectors
    "exchange", "buy", "double",         # exchange a card's place; ability buys; 2X
    "lose_vp", "bonus_credits", "bonus_vp",  # every opponent loses N VP; credits and VP gained
    "place", "move", "win",              # cubes placed, cubes moved; 'You win'
    "claim1", "claim2", "claim3",        # claims of a Level I, II, III ship
    "special",                           # 1: the side has claims or charge squares (no plain reward box)
    "timing",                            # when its charge ability fires (T_*)
)
F = indices("F", ("level", "sector", "cost", *SIDE_FIELDS))  # CT[c, F.SECTOR]; the blue side's F.CAP ...
NSIDE = len(SIDE_FIELDS)
NCT = len(F) + NSIDE
BLUE, RED = 0, 1
# reward arrows (bit mask): 1 = right (+1 sector), 2 = left (-1 sector), 3 = either
ARROW_R, ARROW_L = 1, 2
# when a charge ability fires
T_NONE, T_PREROLL, T_POSTROLL, T_ASSIGN, T_FREE = 0, 1, 2, 3, 4

# ---- colony table COLT[colony, column] ----
C_SECTOR, C_COST, C_VP = 0, 1, 2

# ---- rules R[...] (int64) ----
(R_P, R_START_CREDITS, R_START_INCOME, R_TRIGGER, R_COLONY_DEPLOYS, R_TIE_CAP, R_VARIANT, R_DISPLAY,
 R_MAX_ROUNDS, R_ARROW_CHARGES, R_SHIFT_DOWN, R_LS_CREDITS, R_LS_INCOME, R_LS_L1, R_LS_L2, R_NSTART,
 R_NCARD, R_NCOL, R_MAXDEP, R_ABUY_COL, R_EXCHANGE, R_LS_ONE_PER_SECTOR, R_RED_DICE) = range(23)
NR = 23
VARIANT_STANDARD, VARIANT_LIGHTSPEED = 0, 1
EXCH_ANY_STATION, EXCH_SAME_KIND = 0, 1      # rules.exchange
RED_DICE_OTHERS_ROLLS, RED_DICE_NEVER = 0, 1  # rules.red_dice_abilities

# ---- policy values VALS[seat, phase, k, card] (float64); row P = neutral (light-speed opening) ----
# The heuristic policies' evaluation table, in "credit equivalents" of the seat's weights for its phase
# (the engine policy has two phases, the others use phase 0 only):
# k = BLUE/RED: worth of one activation of that side (reward + one charge cube);
# k = CUBE + side: worth of one more cube on that side.
# Only policies read it, and the AV / BASE[..., X_VALUE] columns the engine keeps beside its reward tables
# (the same sector chains, summed with these values), which only policies read too.
CUBE = 2

# ---- policy parameters per seat WP[seat, ...] (float64) ----
(W_C0, W_I0, W_V0, W_C1, W_I1, W_V1, W_WASTE, W_SWITCH_PROD, W_SWITCH_VP, W_HMAX, W_VPR) = range(11)
NW = 11
# policy codes: POL[seat] = the index of its name in SpacebaseScenario.POLICIES (policies.py)

# ---- player state PS[seat, PL.*] (int32): players are indexed by seat (their identity) ----
PLAYER = {
    "cred": "credits", "inc": "income", "vp": "VP", "cols": "colonies bought",
    "bought": "ships bought (opening, normal and ability buys)", "claimed": "ships claimed free",
    "opensec": "sector of the opening ship (light speed: highest bought)", "turns": "turns taken",
    "phase": "its policy's phase (engine: 0 growth, 1 VP)", "abil": "charge abilities fired",
    "in": "takes turns (tie rounds: only the tied players); at the end: a winner",
    "nab0": "cards with charge squares on the blue side (listed in ABL[seat, BLUE]); NAB0 + side",
    "nab1": "the same on the red side",
    "clq1": "claims of a Level I ship queued; CLQ1 + level - 1", "clq2": "of Level II", "clq3": "of Level III",
    "pos": "turn position (0 = moves first)",
    "tmask0": "bit 1 << timing (T_*) set for each timing among the blue charge cards; TMASK0 + side",
    "tmask1": "the same on the red side",
}
PL = indices("PL", PLAYER)  # PS[p, PL.CRED]: an IntEnum, which numba compiles in as constants
NPS = len(PLAYER)


def player(PS, p) -> dict[str, int]:
    """Seat p's player state by name (for tests and debugging)."""
    return {name: int(PS[p, PL[name.upper()]]) for name in PLAYER}

# ---- the opening OPEN[seat, ...] (int64): the ships it bought (-1 after the last), then: ----
NOPEN_SHIPS = 16
OPEN_CREDITS, OPEN_SECTOR = NOPEN_SHIPS, NOPEN_SHIPS + 1  # credits left; sector of its opening ship (highest)
NOPEN = NOPEN_SHIPS + 2

# ---- board BD[seat, sector, ...] (int32): what sits in each sector position ----
(B_STATION, B_COLONY, B_COVERED, B_NDEP, B_RARROW, B_RSPEC) = range(6)
NBD = 6

# ---- reward boxes BASE[seat, side, sector, ...] (float64): one sector position's rewards on one side
# (blue: its stationed card; red: its deployed cards summed), arrows not chained ----
# X_VALUE: their policy value (VALS), X_SPEC: 1 if any has a claim or charge squares, X_ARROW: arrow mask
X_C, X_I, X_V, X_VALUE, X_SPEC, X_ARROW = range(6)
NX = 6

# ---- activation cache AC[seat, side, sector, ...] (int32): one die on that sector, arrows included ----
# A_DIR: the chain's direction (+1 right, -1 left, 0 no arrow); for a two-way arrow (A_TWO_WAY 1: its
# owner chooses, decisions.D_ARROW) the one of best policy value, which the totals are taken along
A_C, A_I, A_V, A_SPEC, A_DIR, A_TWO_WAY = range(6)
NAC = 6

# ---- how a game ended (state.ST.END) ----
END_VP, END_YOU_WIN, END_SHARED, END_MAX_ROUNDS = 0, 1, 2, 3

# ---- trace record kinds: int32 rows (kind, seat, a, b, c, d) (kernel.record); how each reads: Spacebase.events ----
(E_OPENING, E_START, E_BONUS, E_TURN, E_ROLL, E_SET_DIE, E_REROLL, E_ASSIGN, E_GAIN, E_CHARGE,
 E_BUY, E_ABILITY_BUY, E_COLONY, E_CLAIM, E_LOSE_VP, E_SWAP, E_EXCHANGE, E_REFILL, E_FLOOR,
 E_TRIGGER, E_TIE_ROUND, E_END, E_FINAL, E_FIRE, E_PLACE, E_MOVE, E_LS_BUY, E_NOBUY) = range(1, 29)

# assignment modes (E_ASSIGN a)
M_FACES, M_SUM, M_DOUBLE_SUM, M_DOUBLE_D1, M_DOUBLE_D2 = range(5)
