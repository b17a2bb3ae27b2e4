"""Column layouts of the number arrays shared by scenario.py (which fills them) and the kernel.

Module-level ints are compile-time constants for numba, so renaming or adding a column means a
recompile, but editing the scenario YAML never does (it only changes array contents).
"""
from ...kernel import indices

NSEC = 12  # sectors 1..12; sector-indexed arrays have 13 entries (index 0 unused)

# ---- card table CT[card, column] (int32). Cards: starters first, then ships, in YAML order ----
K_LEVEL, K_SECTOR, K_COST = 0, 1, 2
K_SIDE = 3  # side fields start here; blue side = K_SIDE, red side = K_SIDE + NSIDE
# per-side fields (add side * NSIDE + K_SIDE)
(S_C, S_I, S_V, S_ARROW, S_CL1, S_CL2, S_CL3, S_CAP, S_LINKED, S_ONPLACE,
 E_SHIFT, E_SET, E_REROLL, E_SWAPA, E_SWAPB, E_EXCH, E_BUY, E_DOUBLE, E_LOSEVP, E_CRED, E_VP,
 E_PLACE, E_MOVE, E_WIN, E_CL1, E_CL2, E_CL3, S_SPECIAL, S_TIMING) = range(29)
NSIDE = 29
NCT = K_SIDE + 2 * NSIDE
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

# ---- trace events: int32 rows (kind, seat, a, b, c, d) (kernel.record); how each reads: Spacebase.events ----
(EV_OPENING, EV_START, EV_BONUS, EV_TURN, EV_ROLL, EV_SET_DIE, EV_REROLL, EV_ASSIGN, EV_GAIN, EV_CHARGE,
 EV_BUY, EV_ABILITY_BUY, EV_COLONY, EV_CLAIM, EV_LOSE_VP, EV_SWAP, EV_EXCHANGE, EV_REFILL, EV_FLOOR,
 EV_TRIGGER, EV_TIE_ROUND, EV_END, EV_FINAL, EV_FIRE, EV_PLACE, EV_MOVE, EV_LS_BUY, EV_NOBUY) = range(1, 29)

# assignment modes (EV_ASSIGN a)
M_FACES, M_SUM, M_DOUBLE_SUM, M_DOUBLE_D1, M_DOUBLE_D2 = range(5)
