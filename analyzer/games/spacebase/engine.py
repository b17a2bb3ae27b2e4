"""Space Base: the compiled rulebook. One numba kernel (`play`, Game.kernel) plays a batch of games; each game
uses only rng.new_stream(seed, game_id). Every rule is a small jitted helper named after the rule, so the
tests can set up a position and call it directly.

Data (D, from scenario.kernel_inputs) and state (st, from alloc_state) are packs (state.py: one pointer
each per call). A game's whole state is one flat int64 vector st.v (state.layout: the scalars at
v[ST.*], then the tables PS, BD, DEP, CUBES ... by name, views of it in st); copied and bound again
(`bind`) it plays on from there. Column meanings are in layout.py.

Speed: per player and sector the reward of one die (blue of the stationed card / summed red of the
deployed cards, arrows chained) is kept in AC/AV and updated only for the sector a buy changes
(refresh_pos), so a dice assignment is a few table lookups; every game starts from a copy of each
seat's starting board and tables (SB_*, built once per batch); a buy decision scores the display card by
card with few branches (policies.gain_rate). Nothing is reference-counted inside the kernel and no
allocation happens after alloc_state (state.py). Tracing writes only to EV/EVN (kernel.record), so a
traced game plays exactly as untraced. Results are written by column name (COLUMNS, G, S:
analyzer.kernel.Columns). Each decision (decisions.py) lists its legal options and is asked through
`ask`: the seat's policy returns the index of one, from its view (view.py).
The compile cache is keyed by every file of this folder (analyzer/kernel.py): an edit anywhere here
rebuilds the kernels.
Players are indexed by seat, their identity (the policy of the scenario's seat list): the opening
decides which seat moves first (ST.FIRST, the result column first_player), and a seat's turn position
is (seat - first) mod P (PS[PL.POS]; the turn-order bonus goes by position).

Rule readings beyond the spec (each one a scenario parameter where it is a real ambiguity):
- Charge: a card's cubes sit on its visible side: blue squares of the stationed card fill when its
  sector's blue reward is taken (own turn), red squares of a deployed card on others' turns. A card
  being deployed keeps min(cubes, its red squares). Blue abilities fire on your turn, red on others'.
  Squares a player count does not need are not used (capacity = needed squares). A cube is placed
  only if a needed square is empty; on_place credits are paid per cube placed.
- Reward arrows take the neighbour's whole reward box, charge included (rules.arrows_charge). Several
  deployed arrow cards in a sector act as one arrow mask (R, L or both; both: its owner chooses the
  direction at each activation, decisions.D_ARROW).
- Timings: set die (before the roll; active first, then the others in turn order on their red side,
  see red_dice_abilities), reroll (after the roll, same order; a reroll changes the dice for
  everyone), dice arrow and 2X (while assigning, own rewards only), every other ability after all
  players have taken their rewards and claims: first the other players (red) in turn order, then the
  active player (blue), then the buy.
- 2X: the extra activation does not charge the 2X card itself (help page); the normal one may.
- Dice arrow (shift_up N): the summed sector + 1..N (rules.dice_arrow_down also allows -1..-N).
- Buy / claim abilities take ships from the display (colonies too when rules.ability_buy_colonies);
  an ability buy pays the cost only. A claimed or bought ship is stationed in its printed sector.
- Swap moves everything in the two sector positions, colony included.
- Exchange (rules.exchange): default any_station_card, the help page's 「カード位置交換」: the firing card
  swaps places with a card stationed in any sector; a stationed card thus swaps stations, a deployed
  one takes that station (turning to its blue side) and the other card is deployed in its place,
  each keeping the cubes its new side has squares for. same_kind (the engine's earlier reading):
  station <-> station, deployed <-> deployed. Nothing in the card data (Zudov, blue and red) argues
  against the help page.
- Set die and reroll (rules.red_dice_abilities): the help page describes both for "your own roll"
  (「自分のダイスロール前／後」), but the card data prints them on red sides too (Gagarin, Titov and the
  estimated l3-33: red set die; l2-9: red reroll), and red abilities are the ones used on others'
  turns, so by default (others_rolls) a red one sets or rerolls the active player's dice; `never`
  leaves them dead (and worth nothing to the policies).
- Light-speed opening (rules.lightspeed_one_per_sector): the help page sets no limit of one ship per
  sector (default false); two bought ships of one sector are stationed in buying order, so the first
  is deployed behind the second, which the policy picks as the one better stationed.
- "Opponents lose N VP" hits every other player, never below 0. "You win" ends the game at once.
- The end triggers when any player has >= trigger_vp at the end of any turn (it stays triggered even if
  VP are lost later); the round is finished. Tie rounds: only the tied players take turns and collect
  rewards (the others are frozen); after tie_rounds_cap rounds the tied players share the win.
- Income floor: at the end of the active player's own turn only.
- l2-39's printed red `set_die` icon has no charge squares and is not played (scenario `ignored`).
Not implemented: "place a bought card in any sector 7-12" (an ability pipluppers lists, on no card of
the data); Collins' move-a-cube is played as "move one cube between your own cards".
"""
import numpy as np
from numba import njit

from ...kernel import (
    A_LOG,
    A_REDEAL,
    keep_allowed,
    new_trace,
    record,
)
from ...kernel_internals import borrowed, jit_plain_ints, jit_plain_ints_inline, release
from ...kernel_pack import field
from ...rng import below, new_stream, shuffle
from .charge import has_room, is_ready, next_ready
from .columns import COLUMNS, G, S
from .decisions import (
    COLONY,
    D_ABILITY_BUY,
    D_ARROW,
    D_ASSIGN,
    D_BUY,
    D_CLAIM,
    D_EXCHANGE,
    D_FIRE,
    D_MOVE_FROM,
    D_MOVE_TO,
    D_PHASE,
    D_PLACE,
    D_REROLL,
    D_SET_DIE,
    D_SWAP,
    FACE_STRIDE,
    LEFT,
    NO,
    NO_CARD_SPENT,
    RIGHT,
    YES,
    assignment,
    cube,
    exchange,
    forbidden,
    set_die,
    unpack_assignment,
    unpack_cube,
    unpack_exchange,
)
from .layout import (
    A_C,
    A_DIR,
    A_I,
    A_SPEC,
    A_TWO_WAY,
    A_V,
    ARROW_L,
    ARROW_R,
    B_COLONY,
    B_COVERED,
    B_NDEP,
    B_RARROW,
    B_RSPEC,
    B_STATION,
    BLUE,
    C_COST,
    C_SECTOR,
    C_VP,
    E_ABILITY_BUY,
    E_ASSIGN,
    E_BONUS,
    E_BUY,
    E_CHARGE,
    E_CLAIM,
    E_COLONY,
    E_END,
    E_EXCHANGE,
    E_FINAL,
    E_FIRE,
    E_FLOOR,
    E_GAIN,
    E_LOSE_VP,
    E_LS_BUY,
    E_MOVE,
    E_NOBUY,
    E_OPENING,
    E_PLACE,
    E_REFILL,
    E_REROLL,
    E_ROLL,
    E_SET_DIE,
    E_START,
    E_SWAP,
    E_TIE_ROUND,
    E_TRIGGER,
    E_TURN,
    END_MAX_ROUNDS,
    END_SHARED,
    END_VP,
    END_YOU_WIN,
    EXCH_SAME_KIND,
    M_DOUBLE_D1,
    M_DOUBLE_D2,
    M_DOUBLE_SUM,
    M_FACES,
    M_SUM,
    NAC,
    NBD,
    NOPEN_SHIPS,
    NPS,
    NSEC,
    NSIDE,
    NX,
    OPEN_CREDITS,
    OPEN_SECTOR,
    PL,
    R_ABUY_COL,
    R_ARROW_CHARGES,
    R_COLONY_DEPLOYS,
    R_DISPLAY,
    R_EXCHANGE,
    R_LS_CREDITS,
    R_LS_INCOME,
    R_LS_L1,
    R_LS_L2,
    R_LS_ONE_PER_SECTOR,
    R_MAX_ROUNDS,
    R_NCOL,
    R_NSTART,
    R_P,
    R_RED_DICE,
    R_SHIFT_DOWN,
    R_START_CREDITS,
    R_START_INCOME,
    R_TIE_CAP,
    R_TRIGGER,
    R_VARIANT,
    RED,
    RED_DICE_OTHERS_ROLLS,
    T_ASSIGN,
    T_FREE,
    T_POSTROLL,
    T_PREROLL,
    VARIANT_LIGHTSPEED,
    W_C0,
    W_HMAX,
    X_ARROW,
    X_C,
    X_I,
    X_SPEC,
    X_V,
    X_VALUE,
    F,
)
from .policies import decide  # the seat's policy: the index of the option it takes
from .state import ST, TABLES, State, Table, control_at, named_tables, tables
from .view import VIEW_SIZE, fill_view

MAX_FIRINGS = 32  # free abilities fired by one player at one time, at most (a fired one may ready another)

# ------------------------------------------------------------------------------------------------
# state


@jit_plain_ints
def alloc_state(D, EV, EVN, cap, width):
    """A game's state vector and its pack, allocated once per batch (reset by `setup`), with room for a
    control row of `width` slots (kernel.A_*, then the search log) past its tables; the trace goes to
    the framework's EV, EVN (kernel.record; cap 0: no trace)."""
    size = D.LAY[len(TABLES)]
    st = bind(D, np.zeros(size + width, np.int64), np.zeros(size, np.int64), EV, EVN, cap)
    starting_boards(D, st)
    return st


@jit_plain_ints
def bind(D, v, start, EV, EVN, cap):
    """The pack over state vector v (what the rules read and write: state.State; its control row is v
    past the tables), with the starting boards in the vector `start` (filled by starting_boards) and the
    scratch of a decision. A copy of a state vector bound again plays on from where the copy was taken."""
    R = D.R
    OPTS = np.zeros(3 * R[R_DISPLAY] + max(1, R[R_NCOL]) + 32, np.int64)  # >= 27 for D_ASSIGN (decisions.py)
    ALLOWED = np.zeros(OPTS.size, np.bool_)
    VIEW = np.zeros(VIEW_SIZE, np.int64)
    PS, BD, DEP, CUBES, ABL, AC, AV, BASE, DISP, COLAV, OWNER, COLOWN, DECK, DP, OPEN = tables(D, v)
    SB_PS, SB_BD, SB_DEP, _, SB_ABL, SB_AC, SB_AV, SB_BASE, _, _, _, _, _, _, _ = tables(D, start)
    rng = v[ST.RNG:ST.RNG + 1].view(np.uint64)
    ctl = v[control_at(D):]
    T = Table(field(v[:ST.RNG]), field(PS), field(BD), field(DEP), field(CUBES), field(ABL), field(AC), field(AV), field(BASE),
              field(DISP), field(COLAV), field(OWNER), field(COLOWN))
    return State(field(v), field(PS), field(BD), field(DEP), field(CUBES), field(ABL), field(AC), field(AV),
                 field(BASE), field(DISP), field(COLAV), field(OWNER), field(COLOWN), field(DECK), field(DP),
                 field(OPEN), field(rng), field(ctl), field(OPTS), field(ALLOWED), field(VIEW), T, field(SB_PS),
                 field(SB_BD), field(SB_DEP), field(SB_BASE), field(SB_AV), field(SB_AC), field(SB_ABL), field(EV),
                 field(EVN), cap, (v, start, EV, EVN, OPTS, ALLOWED, VIEW))


def new_state(D, cap=0):
    """A state with its own trace arrays (for tests: `cap` records kept) and a control row where nobody
    searches (kernel.PLAIN)."""
    ev, tn = new_trace(cap, COLUMNS.trace_width)
    return alloc_state(D, ev, tn, np.int64(cap), np.int64(A_LOG))


@jit_plain_ints
def state_vector(st):
    """The state vector itself (a numpy array, not a view without owner)."""
    return st.OWN[0]


def state_arrays(D, st) -> dict:
    """The state's tables by name, numpy arrays sharing its memory (for tests and checks)."""
    return named_tables(D, state_vector(st))


@jit_plain_ints_inline
def wrap(i, n):
    """i mod n for 0 <= i < 2n (the seat after a in turn order: wrap(a + k, P)): a compare instead of
    an integer division, which costs tens of cycles and ran a dozen times a turn."""
    return i - n if i >= n else i


@jit_plain_ints_inline
def emit(st, kind, seat, a, b, c, d):
    """Append one trace record (kind, seat, a, b, c, d) when tracing (kernel.record: st.cap is the
    cap); never changes the game."""
    record(st.EV, st.EVN, st.cap, kind, seat, a, b, c, d)


# ------------------------------------------------------------------------------------------------
# decks and display


@jit_plain_ints_inline
def draw(D, st, lv):
    """Top card of level lv+1's deck, or -1 when it is empty (decks are circular buffers)."""
    LVL_N = D.LVL_N
    DECK, DP = st.DECK, st.DP
    if DP[lv, 1] == 0:
        return -1
    k = DECK[lv, DP[lv, 0]]
    DP[lv, 0] = wrap(DP[lv, 0] + 1, LVL_N[lv])
    DP[lv, 1] -= 1
    return int(k)


@jit_plain_ints_inline
def put_bottom(D, st, lv, k):
    LVL_N = D.LVL_N
    DECK, DP = st.DECK, st.DP
    DECK[lv, wrap(DP[lv, 0] + DP[lv, 1], LVL_N[lv])] = k
    DP[lv, 1] += 1


@jit_plain_ints
def redeal_decks(D, st):
    """The branch of a search rollout (kernel.search_step, which has set the game's stream to the
    rollout's own and control row's A_REDEAL): the order of the cards left in each deck, all that no seat
    can see (the display, every board, credit and die are public), is dealt again. Each deck's cards are
    first put in card order, so the result depends only on which cards are left, never on where they
    were; then they are shuffled from the stream. Which cards, how many and where the deck starts stay."""
    LVL_N = D.LVL_N
    DECK, DP = st.DECK, st.DP
    for lv in range(3):
        n, start, count = LVL_N[lv], DP[lv, 0], DP[lv, 1]
        for i in range(1, count):  # insertion sort of the circular buffer's count cards from `start`
            k = DECK[lv, wrap(start + i, n)]
            j = i
            while j > 0 and DECK[lv, wrap(start + j - 1, n)] > k:
                DECK[lv, wrap(start + j, n)] = DECK[lv, wrap(start + j - 1, n)]
                j -= 1
            DECK[lv, wrap(start + j, n)] = k
        for i in range(count - 1, 0, -1):  # Fisher-Yates, as rng.shuffle, over the same positions
            j = below(st.rng, i + 1)
            a, b = wrap(start + i, n), wrap(start + j, n)
            t = DECK[lv, a]
            DECK[lv, a] = DECK[lv, b]
            DECK[lv, b] = t
    st.ctl[A_REDEAL] = 0


@jit_plain_ints
def refill_display(D, st):
    """End of turn: every empty face-up slot of each level is refilled from that level's deck."""
    R = D.R
    DISP = st.DISP
    for lv in range(3):
        for j in range(R[R_DISPLAY]):
            if DISP[lv, j] < 0:
                k = draw(D, st, lv)
                DISP[lv, j] = k
                if k >= 0:
                    emit(st, E_REFILL, -1, lv + 1, j, k, 0)


# ------------------------------------------------------------------------------------------------
# the board: stationing, deploying, colonies, and the per-sector reward tables


@jit_plain_ints_inline
def deploy(D, st, p, pos, c):
    """Turn card c and put it behind sector position pos; its cubes move to its red squares (if any)."""
    CT = D.CT
    BD, DEP, CUBES = st.BD, st.DEP, st.CUBES
    DEP[p, pos, BD[p, pos, B_NDEP]] = c
    BD[p, pos, B_NDEP] += 1
    rc = CT[c, NSIDE + F.CAP]
    if CUBES[p, c] > rc:
        CUBES[p, c] = rc


@jit_plain_ints_inline
def station(D, st, p, c):
    """Station card c in its printed sector; the card stationed there is deployed behind it."""
    CT = D.CT
    BD, CUBES = st.BD, st.CUBES
    pos = CT[c, F.SECTOR]
    old = BD[p, pos, B_STATION]
    if old >= 0:
        deploy(D, st, p, pos, old)
    BD[p, pos, B_STATION] = c
    CUBES[p, c] = 0


@jit_plain_ints
def place_colony(D, st, p, q):
    """Colony q: its VP at once; its sector is closed (no station, no blue reward); the card stationed
    there is deployed (rules.colony_deploys_station) or covered for good."""
    COLT, R = D.COLT, D.R
    PS, BD, COLAV, COLOWN = st.PS, st.BD, st.COLAV, st.COLOWN
    pos = COLT[q, C_SECTOR]
    old = BD[p, pos, B_STATION]
    if old >= 0:
        if R[R_COLONY_DEPLOYS] != 0:
            deploy(D, st, p, pos, old)
        else:
            BD[p, pos, B_COVERED] = old
    BD[p, pos, B_STATION] = -1
    BD[p, pos, B_COLONY] = q + 1
    PS[p, PL.VP] += COLT[q, C_VP]
    PS[p, PL.COLS] += 1
    COLAV[q] = 0
    COLOWN[q] = p


@jit_plain_ints
def rebuild_position(D, st, p, s):
    """Player p's reward boxes in sector position s, BASE[p, side, s, X_*] (layout.py): the stationed
    card's blue side and the summed red sides of all deployed cards."""
    CT, VALS = D.CT, D.VALS
    PS, BD, DEP, BASE = st.PS, st.BD, st.DEP, st.BASE
    ph = PS[p, PL.PHASE]
    orr = NSIDE
    c = BD[p, s, B_STATION]
    if c >= 0 and BD[p, s, B_COLONY] == 0:
        BASE[p, BLUE, s, X_C] = CT[c, F.CREDITS]
        BASE[p, BLUE, s, X_I] = CT[c, F.INCOME]
        BASE[p, BLUE, s, X_V] = CT[c, F.VP]
        BASE[p, BLUE, s, X_VALUE] = VALS[p, ph, BLUE, c]
        BASE[p, BLUE, s, X_SPEC] = CT[c, F.SPECIAL]
        BASE[p, BLUE, s, X_ARROW] = CT[c, F.ARROW]
    else:
        for f in range(NX):
            BASE[p, BLUE, s, f] = 0.0
    rc = 0
    ri = 0
    rv = 0
    val = 0.0
    spec = 0
    arrow = 0
    for i in range(BD[p, s, B_NDEP]):
        d = DEP[p, s, i]
        rc += CT[d, orr + F.CREDITS]
        ri += CT[d, orr + F.INCOME]
        rv += CT[d, orr + F.VP]
        val += VALS[p, ph, RED, d]
        spec |= CT[d, orr + F.SPECIAL]
        arrow |= CT[d, orr + F.ARROW]
    BASE[p, RED, s, X_C] = rc
    BASE[p, RED, s, X_I] = ri
    BASE[p, RED, s, X_V] = rv
    BASE[p, RED, s, X_VALUE] = val
    BASE[p, RED, s, X_SPEC] = spec
    BASE[p, RED, s, X_ARROW] = arrow
    BD[p, s, B_RARROW] = arrow
    BD[p, s, B_RSPEC] = spec


@jit_plain_ints
def rebuild_abilities(D, st, p):
    """ABL[p, side]: p's cards with charge squares on their visible side (blue: stationed, red:
    deployed), and the mask of their timings."""
    CT = D.CT
    PS, BD, DEP, ABL = st.PS, st.BD, st.DEP, st.ABL
    orr = NSIDE
    nab0 = 0
    nab1 = 0
    m0 = 0
    m1 = 0
    for s in range(1, NSEC + 1):
        c = BD[p, s, B_STATION]
        if c >= 0 and BD[p, s, B_COLONY] == 0 and CT[c, F.CAP] > 0:
            ABL[p, BLUE, nab0] = c
            nab0 += 1
            m0 |= 1 << CT[c, F.TIMING]
        for i in range(BD[p, s, B_NDEP]):
            d = DEP[p, s, i]
            if CT[d, orr + F.CAP] > 0:
                ABL[p, RED, nab1] = d
                nab1 += 1
                m1 |= 1 << CT[d, orr + F.TIMING]
    PS[p, PL.NAB0] = nab0
    PS[p, PL.NAB0 + 1] = nab1
    PS[p, PL.TMASK0] = m0
    PS[p, PL.TMASK0 + 1] = m1


@jit_plain_ints
def rebuild_chains(D, st, p, side, only):
    """AC/AV[p, side, s]: one die on sector s, with the reward arrow chained one way from s (each
    sector once; for a two-way arrow, whose owner chooses, the direction of better policy value: the
    heuristics' choice, policies.heuristic D_ARROW). After a change in sector `only` (0: all), just
    the sectors whose chain reaches it are recomputed: `only` and the unbroken runs of right arrows
    just below it and of left arrows just above it."""
    BASE, AV, AC = st.BASE, st.AV, st.AC
    lo = 1
    hi = NSEC
    if only > 0:
        lo = only
        while lo > 1 and int(BASE[p, side, lo - 1, X_ARROW]) & ARROW_R != 0:
            lo -= 1
        hi = only
        while hi < NSEC and int(BASE[p, side, hi + 1, X_ARROW]) & ARROW_L != 0:
            hi += 1
    for s in range(lo, hi + 1):
        tc = BASE[p, side, s, X_C]
        ti = BASE[p, side, s, X_I]
        tv = BASE[p, side, s, X_V]
        tval = BASE[p, side, s, X_VALUE]
        tsp = BASE[p, side, s, X_SPEC]
        arrow = int(BASE[p, side, s, X_ARROW])
        best_dir = 0
        if arrow != 0:
            bval = -1e18
            bc = 0.0
            bi = 0.0
            bv = 0.0
            bsp = 0.0
            for dd in range(2):
                d = 1 if dd == 0 else -1
                bit = ARROW_R if d == 1 else ARROW_L
                if arrow & bit == 0:
                    continue
                cc = 0.0
                ci = 0.0
                cv = 0.0
                cval = 0.0
                csp = 0.0
                t = s
                while True:
                    t += d
                    if t < 1 or t > NSEC:
                        break
                    cc += BASE[p, side, t, X_C]
                    ci += BASE[p, side, t, X_I]
                    cv += BASE[p, side, t, X_V]
                    cval += BASE[p, side, t, X_VALUE]
                    if BASE[p, side, t, X_SPEC] > csp:
                        csp = BASE[p, side, t, X_SPEC]
                    if int(BASE[p, side, t, X_ARROW]) & bit == 0:
                        break
                if cval > bval:
                    bval = cval
                    bc = cc
                    bi = ci
                    bv = cv
                    bsp = csp
                    best_dir = d
            tc += bc
            ti += bi
            tv += bv
            tval += bval
            if bsp > tsp:
                tsp = bsp
        AC[p, side, s, A_C] = int(tc)
        AC[p, side, s, A_I] = int(ti)
        AC[p, side, s, A_V] = int(tv)
        AC[p, side, s, A_SPEC] = int(tsp)
        AC[p, side, s, A_DIR] = best_dir
        AC[p, side, s, A_TWO_WAY] = arrow == ARROW_R | ARROW_L
        AV[p, side, s] = tval


@jit_plain_ints
def refresh(D, st, p):
    """Rebuild all of player p's reward tables (after a swap, an exchange, a policy phase change...)."""
    for s in range(1, NSEC + 1):
        rebuild_position(D, st, p, s)
    rebuild_abilities(D, st, p)
    rebuild_chains(D, st, p, BLUE, 0)
    rebuild_chains(D, st, p, RED, 0)


@jit_plain_ints_inline
def has_charge(D, c):
    """Card c (-1: none) has charge squares on either side."""
    CT = D.CT
    return c >= 0 and CT[c, F.CAP] + CT[c, NSIDE + F.CAP] > 0


@jit_plain_ints
def refresh_pos(D, st, p, s, old, new):
    """Update p's reward tables after a change in sector position s only (a buy, claim or colony: card
    `old` left the station there, card `new` took it; -1 for none): the per-sector totals are kept
    incrementally so a dice assignment stays a few table lookups. The ability lists can change only
    if one of those two cards has charge squares."""
    rebuild_position(D, st, p, s)
    if has_charge(D, old) or has_charge(D, new):
        rebuild_abilities(D, st, p)
    rebuild_chains(D, st, p, BLUE, s)
    rebuild_chains(D, st, p, RED, s)


# ------------------------------------------------------------------------------------------------
# decisions: the engine asks the seat's policy (decisions.py); a policy that chooses among the legal
# options has them listed first


@jit_plain_ints_inline
def offer(st, n, value):
    """Add an option to the list being built; returns the new count."""
    st.OPTS[n] = value
    return n + 1


@jit_plain_ints_inline
def ask(D, st, p, kind, n, x, y, z):
    """The option p takes among the n options of a decision of `kind` listed in OPTS (x, y, z: its
    context, decisions.py): p's restrictions filter them, a single one is taken without asking, else
    p's policy returns the index of one from p's view (view.fill_view). So the rules never ask which
    policy a seat runs. The decision's `ask` (kernel.ask_policy) is the control row in the state and the
    trace; at the branch of a search rollout (kernel.search_step) the decks are re-dealt (redeal_decks).
    Inlined, as `decide` is: a dice assignment is asked of every player on every turn, and two calls
    more there cost ~10% of the run time."""
    mask = D.RM[p]
    if mask != 0:
        n = restrict_options(D, st, p, kind, n)
    if n == 1:
        return st.OPTS[0]
    fill_view(st.VIEW, p, kind, x, y, z, mask)
    k = decide(D.POL[p], st.VIEW, st.OPTS, n, st.rng, D.SCRIPT, (st.ctl, st.EV, st.EVN, st.cap), borrowed(D.WP[p]),
               st.T, D)
    if st.ctl[A_REDEAL] != 0:
        redeal_decks(D, st)
    return st.OPTS[k]


@jit_plain_ints
def restrict_options(D, st, p, kind, n):
    """Keep, at the front of the n listed options, those p's restrictions allow (decisions.forbidden);
    returns their count. Every restricted decision keeps its NO or plain option, so some are always
    left and no restriction is ever lifted (the restrict_lifted column stays 0)."""
    OPTS, ALLOWED = st.OPTS, st.ALLOWED
    mask = D.RM[p]
    dsz = D.R[R_DISPLAY]
    for k in range(n):
        ALLOWED[k] = not forbidden(kind, OPTS[k], mask, dsz)
    return keep_allowed(OPTS, n, ALLOWED)


@jit_plain_ints
def ask_yes_no(D, st, p, kind, x, y, z):
    """A decision whose options are NO and YES: whether p takes it."""
    return ask(D, st, p, kind, offer(st, offer(st, 0, NO), YES), x, y, z) == YES


@jit_plain_ints
def buy_options(D, st, p, credits, allow_colony):
    """D_BUY / D_ABILITY_BUY: NO, the affordable display ships outside p's colony sectors, the
    affordable colonies still open to p (when allowed). Listed every turn: each candidate is written
    and kept by arithmetic, as a branch decided at the end of its chain of loads mostly mispredicts."""
    CT, COLT, R = D.CT, D.COLT, D.R
    OPTS, DISP, BD, COLAV = st.OPTS, st.DISP, st.BD, st.COLAV
    dsz = R[R_DISPLAY]
    n = offer(st, 0, NO)
    for lv in range(3):
        for j in range(dsz):
            k = DISP[lv, j]
            ship = max(k, 0)
            OPTS[n] = lv * dsz + j
            n += (k >= 0) & (CT[ship, F.COST] <= credits) & (BD[p, CT[ship, F.SECTOR], B_COLONY] == 0)
    if allow_colony:
        for q in range(R[R_NCOL]):
            OPTS[n] = COLONY + q
            n += (COLT[q, C_COST] <= credits) & (COLAV[q] != 0) & (BD[p, COLT[q, C_SECTOR], B_COLONY] == 0)
    return n


@jit_plain_ints
def ask_buy(D, st, p, credits, pay_all):
    """The normal buy (pay_all: it spends all credits) or an ability buy (pays the cost; colonies only
    with rules.ability_buy_colonies): NO or the option bought."""
    n = buy_options(D, st, p, credits, pay_all or D.R[R_ABUY_COL] != 0)
    return ask(D, st, p, D_BUY if pay_all else D_ABILITY_BUY, n, credits, 0, 0)


@jit_plain_ints
def claim_options(D, st, p, lv):
    """D_CLAIM: NO, then the display slot of each level lv+1 ship whose sector is open to p."""
    CT, DISP, BD = D.CT, st.DISP, st.BD
    n = offer(st, 0, NO)
    for j in range(D.R[R_DISPLAY]):
        k = DISP[lv, j]
        if k >= 0 and BD[p, CT[k, F.SECTOR], B_COLONY] == 0:
            n = offer(st, n, j)
    return n


@jit_plain_ints
def ask_claim(D, st, p, lv):
    """A free ship of level lv+1: NO or the display slot of a ship whose sector is open to p."""
    return ask(D, st, p, D_CLAIM, claim_options(D, st, p, lv), lv, 0, 0)


@jit_plain_ints
def set_die_options(st):
    """D_SET_DIE: NO, then set_die(die, face) for each die not set yet."""
    n = offer(st, 0, NO)
    for die in range(2):
        if st.v[ST.DSET1 + die] == 0:
            for face in range(1, 7):
                n = offer(st, n, set_die(die, face))
    return n


@jit_plain_ints
def ask_set_die(D, st, p, c, side):
    """Set-die charge of card c before the roll: NO or set_die(die, face) for a die not set yet."""
    return ask(D, st, p, D_SET_DIE, set_die_options(st), c, side, 0)


@jit_plain_ints
def ask_reroll(D, st, p, c, side):
    """Reroll charge of card c after the roll: NO or the die (0, 1) rerolled."""
    return ask(D, st, p, D_REROLL, offer(st, offer(st, offer(st, 0, NO), 0), 1), c, side, 0)


@jit_plain_ints
def ask_fire(D, st, p, c, side):
    """Fire card c's ready free-timing ability? Its context names where c sits when it exchanges (a
    heuristic fires when what the ability then does gains, policies.follow_ups_gain)."""
    a = 0
    if D.CT[c, side * NSIDE + F.EXCHANGE] > 0:
        a, _ = find_card(st, p, c, side)
    return ask_yes_no(D, st, p, D_FIRE, c, side, a)


@jit_plain_ints
def ask_swap(D, st, p, c, side):
    """Does card c's fired ability swap its two sectors?"""
    return ask_yes_no(D, st, p, D_SWAP, c, side, 0)


@jit_plain_ints
def exchange_options(D, st, p, side, a):
    """D_EXCHANGE for a card in sector a: NO, then the station of each sector outside colonies (for a
    stationed card, not its own; rules.exchange same_kind: a deployed card takes each card deployed in
    another sector instead)."""
    BD = st.BD
    n = offer(st, 0, NO)
    same_kind = side == RED and D.R[R_EXCHANGE] == EXCH_SAME_KIND
    for s in range(1, NSEC + 1):
        if same_kind:
            if s != a:
                for i in range(BD[p, s, B_NDEP]):
                    n = offer(st, n, exchange(s, i))
        elif (s != a or side == RED) and BD[p, s, B_STATION] >= 0 and BD[p, s, B_COLONY] == 0:
            n = offer(st, n, exchange(s, -1))
    return n


@jit_plain_ints
def ask_exchange(D, st, p, c, side, a):
    """The card that card c (sector a) trades places with: NO or exchange(sector, deployed index)."""
    return ask(D, st, p, D_EXCHANGE, exchange_options(D, st, p, side, a), c, side, a)


@jit_plain_ints
def cube_options(D, st, p, n, exclude):
    """Add cube(card, side) after the n options listed, for each card of p but `exclude` with an empty
    needed square: by sector, its station (outside colony sectors), then its deployed cards."""
    BD, DEP = st.BD, st.DEP
    for s in range(1, NSEC + 1):
        c = BD[p, s, B_STATION]
        if c >= 0 and c != exclude and BD[p, s, B_COLONY] == 0 and has_room(D, st, p, c, BLUE):
            n = offer(st, n, cube(c, BLUE))
        for i in range(BD[p, s, B_NDEP]):
            c = DEP[p, s, i]
            if c != exclude and has_room(D, st, p, c, RED):
                n = offer(st, n, cube(c, RED))
    return n


@jit_plain_ints
def ask_place(D, st, p, c):
    """Where card c's fired ability places a cube: NO or cube(card, side), never on c itself."""
    return ask(D, st, p, D_PLACE, cube_options(D, st, p, offer(st, 0, NO), c), c, 0, 0)


@jit_plain_ints
def move_source_options(D, st, p, c):
    """D_MOVE_FROM: NO, then each card of p but c holding a cube (cube_options' cards and order) while
    a card besides it has an empty needed square."""
    BD, DEP, CUBES = st.BD, st.DEP, st.CUBES
    rooms = cube_options(D, st, p, 0, -1)  # only counted: the sources overwrite that list
    n = offer(st, 0, NO)
    for s in range(1, NSEC + 1):
        t = BD[p, s, B_STATION]
        if (t >= 0 and t != c and BD[p, s, B_COLONY] == 0 and CUBES[p, t] > 0
                and rooms > has_room(D, st, p, t, BLUE)):
            n = offer(st, n, t)
        for i in range(BD[p, s, B_NDEP]):
            t = DEP[p, s, i]
            if t != c and CUBES[p, t] > 0 and rooms > has_room(D, st, p, t, RED):
                n = offer(st, n, t)
    return n


@jit_plain_ints
def ask_move_source(D, st, p, c):
    """The card card c's fired ability moves a cube from: NO or the card."""
    return ask(D, st, p, D_MOVE_FROM, move_source_options(D, st, p, c), c, 0, 0)


@jit_plain_ints
def ask_move_target(D, st, p, src):
    """Where the cube moved from card src goes: cube(card, side), any card of p but src with room."""
    return ask(D, st, p, D_MOVE_TO, cube_options(D, st, p, 0, src), src, 0, 0)


@jit_plain_ints
def arrow_card_to(D, st, p, side, ssum, t):
    """The first of p's ready dice-arrow cards on `side` (ability order) that moves the sum ssum to
    sector t (up by 1..N, or down with rules.dice_arrow_down), or -1."""
    CT, ABL = D.CT, st.ABL
    j = t - ssum
    if j == 0 or (j < 0 and D.R[R_SHIFT_DOWN] == 0):
        return -1
    nab = st.PS[p, PL.NAB0 + side]
    k = next_ready(D, st, p, side, T_ASSIGN, 0)
    while k < nab:
        c = ABL[p, side, k]
        if CT[c, side * NSIDE + F.SHIFT] >= abs(j):
            return c
        k = next_ready(D, st, p, side, T_ASSIGN, k + 1)
    return -1


@jit_plain_ints_inline
def assign_options(D, st, p, side, d1, d2):
    """D_ASSIGN: the two faces, the sum, the sum moved to each sector a ready dice-arrow card reaches;
    with a ready 2X card also the sum twice (plain and moved) and the faces plus either die again.
    Inlined: listed for every player on every turn, mostly with no such card (the two first only)."""
    ssum = d1 + d2
    n = offer(st, 0, assignment(M_FACES, ssum, -1, -1))
    n = offer(st, n, assignment(M_SUM, ssum, -1, -1))
    if st.PS[p, PL.TMASK0 + side] & (1 << T_ASSIGN) == 0:
        return n
    return charge_assign_options(D, st, p, side, ssum, n)


@jit_plain_ints_inline
def ask_assign(D, st, p, side, d1, d2):
    """How p uses the dice d1, d2 on `side`: a D_ASSIGN option."""
    return ask(D, st, p, D_ASSIGN, assign_options(D, st, p, side, d1, d2), side, d1, d2)


@jit_plain_ints
def charge_assign_options(D, st, p, side, ssum, n):
    """assign_options after the two first: those that spend a ready dice-arrow or 2X card (one pass over
    the ready ones first: mostly there is none)."""
    CT, ABL = D.CT, st.ABL
    o = side * NSIDE
    reach = 0  # the longest shift of a ready dice-arrow card
    dbc = -1   # the first ready 2X card
    nab = st.PS[p, PL.NAB0 + side]
    k = next_ready(D, st, p, side, T_ASSIGN, 0)
    while k < nab:
        c = ABL[p, side, k]
        reach = max(reach, CT[c, o + F.SHIFT])
        if dbc < 0 and CT[c, o + F.DOUBLE] != 0:
            dbc = c
        k = next_ready(D, st, p, side, T_ASSIGN, k + 1)
    for t in range(max(1, ssum - reach), min(NSEC, ssum + reach) + 1):
        c = arrow_card_to(D, st, p, side, ssum, t)
        if c >= 0:
            n = offer(st, n, assignment(M_SUM, t, c, -1))
    if dbc >= 0:
        moved = n
        n = offer(st, n, assignment(M_DOUBLE_SUM, ssum, -1, dbc))
        for k in range(2, moved):
            _, t, c, _ = unpack_assignment(st.OPTS[k])
            n = offer(st, n, assignment(M_DOUBLE_SUM, t, c, dbc))
        n = offer(st, n, assignment(M_DOUBLE_D1, ssum, -1, dbc))
        n = offer(st, n, assignment(M_DOUBLE_D2, ssum, -1, dbc))
    return n


# ------------------------------------------------------------------------------------------------
# collecting rewards


@jit_plain_ints
def add_cube(D, st, p, c, side):
    """One charge cube on card c's `side` if a needed square is empty; pays its on_place credits."""
    CT = D.CT
    PS, CUBES = st.PS, st.CUBES
    o = side * NSIDE
    if CUBES[p, c] >= CT[c, o + F.CAP]:
        return False
    CUBES[p, c] += 1
    PS[p, PL.CRED] += CT[c, o + F.ON_PLACE]
    emit(st, E_CHARGE, p, c, CUBES[p, c], CT[c, o + F.ON_PLACE], side)
    return True


@jit_plain_ints
def gain_card(D, st, p, c, side, skip, charge):
    """Take one card's reward box on `side`: credits, income, VP, claims (queued) and a charge cube."""
    CT = D.CT
    PS = st.PS
    o = side * NSIDE
    PS[p, PL.CRED] += CT[c, o + F.CREDITS]
    PS[p, PL.INC] += CT[c, o + F.INCOME]
    PS[p, PL.VP] += CT[c, o + F.VP]
    for lv in range(3):
        PS[p, PL.CLQ1 + lv] += CT[c, o + F.CL1 + lv]
    if charge and c != skip and CT[c, o + F.CAP] > 0:
        add_cube(D, st, p, c, side)


@jit_plain_ints
def collect_position(D, st, p, side, t, skip, charge):
    """Blue: the stationed card of sector t (nothing under a colony). Red: every deployed card there."""
    BD, DEP = st.BD, st.DEP
    if side == BLUE:
        c = BD[p, t, B_STATION]
        if c >= 0 and BD[p, t, B_COLONY] == 0:
            gain_card(D, st, p, c, side, skip, charge)
    else:
        for i in range(BD[p, t, B_NDEP]):
            gain_card(D, st, p, DEP[p, t, i], side, skip, charge)


@jit_plain_ints
def position_arrow(D, st, p, side, t):
    CT = D.CT
    BD = st.BD
    if side == BLUE:
        c = BD[p, t, B_STATION]
        if c < 0 or BD[p, t, B_COLONY] != 0:
            return 0
        return CT[c, F.ARROW]
    return BD[p, t, B_RARROW]


@jit_plain_ints
def collect(D, st, p, side, s, skip):
    """One die on sector s for player p (s = 0: no die, nothing): blue (active) or red (others)
    rewards of that sector, then the reward arrow's chain (each sector once per die), which p directs
    when the arrow points both ways (D_ARROW). `skip`: a card that may not be charged by this
    activation (the 2X card on its own extra activation)."""
    R = D.R
    PS, AC = st.PS, st.AC
    d = AC[p, side, s, A_DIR]
    if AC[p, side, s, A_TWO_WAY] != 0:
        d = ask(D, st, p, D_ARROW, offer(st, offer(st, 0, RIGHT), LEFT), side, s, 0)
    if AC[p, side, s, A_SPEC] == 0 and d == AC[p, side, s, A_DIR]:  # plain credits / income / VP: the table
        PS[p, PL.CRED] += AC[p, side, s, A_C]
        PS[p, PL.INC] += AC[p, side, s, A_I]
        PS[p, PL.VP] += AC[p, side, s, A_V]
        return
    collect_position(D, st, p, side, s, skip, True)
    if d == 0:
        return
    bit = ARROW_R if d == 1 else ARROW_L
    t = s
    while True:
        t += d
        if t < 1 or t > NSEC:
            break
        collect_position(D, st, p, side, t, skip, R[R_ARROW_CHARGES] != 0)
        if position_arrow(D, st, p, side, t) & bit == 0:
            break


@jit_plain_ints_inline
def spend(D, st, p, c, side):
    """Remove the cubes a firing takes: all needed squares if linked, else one."""
    CT = D.CT
    PS, CUBES = st.PS, st.CUBES
    o = side * NSIDE
    if CT[c, o + F.LINKED] != 0:
        CUBES[p, c] -= CT[c, o + F.CAP]
    else:
        CUBES[p, c] -= 1
    PS[p, PL.ABIL] += 1


@jit_plain_ints_inline
def ability_bonus(D, st, p, c, side):
    """The plain credits / VP parts of an ability (e.g. 'set a die + 1 credit')."""
    CT = D.CT
    PS = st.PS
    o = side * NSIDE
    PS[p, PL.CRED] += CT[c, o + F.BONUS_CREDITS]
    PS[p, PL.VP] += CT[c, o + F.BONUS_VP]


@jit_plain_ints
def use_dice(D, st, p, side, d1, d2, choice):
    """Carry out p's D_ASSIGN option `choice`: the two faces, or the sum (a double as two faces
    activates that sector twice), possibly with a dice-arrow or 2X charge spent; returns its mode."""
    PS = st.PS
    c0 = PS[p, PL.CRED]
    i0 = PS[p, PL.INC]
    v0 = PS[p, PL.VP]
    mode, tgt, shc, dbc = unpack_assignment(choice)
    if shc >= 0:
        spend(D, st, p, shc, side)
        emit(st, E_FIRE, p, shc, side, d1 + d2, tgt)
    if dbc >= 0:
        spend(D, st, p, dbc, side)
        emit(st, E_FIRE, p, dbc, side, mode, 0)
    emit(st, E_ASSIGN, p, mode, d1, d2, tgt)
    if mode <= M_SUM:
        plain_dice(D, st, p, side, d1, d2, mode == M_SUM, tgt)
    elif mode == M_DOUBLE_SUM:
        collect(D, st, p, side, tgt, -1)
        collect(D, st, p, side, tgt, dbc)
    elif mode == M_DOUBLE_D1:
        collect(D, st, p, side, d1, -1)
        collect(D, st, p, side, d2, -1)
        collect(D, st, p, side, d1, dbc)
    else:
        collect(D, st, p, side, d1, -1)
        collect(D, st, p, side, d2, -1)
        collect(D, st, p, side, d2, dbc)
    emit(st, E_GAIN, p, PS[p, PL.CRED] - c0, PS[p, PL.INC] - i0, PS[p, PL.VP] - v0, 0)
    return mode


@jit_plain_ints_inline
def plain_dice(D, st, p, side, d1, d2, use_sum, tgt):
    """The sum (sector tgt) or the two faces, selected without a branch, which the dice made
    unpredictable: the sum's second "sector" is 0, whose table row is all zeros."""
    collect(D, st, p, side, tgt if use_sum else d1, -1)
    collect(D, st, p, side, 0 if use_sum else d2, -1)


@jit_plain_ints_inline
def assign_player(D, st, p, side, d1, d2):
    """Player p chooses how to use the dice (decisions.D_ASSIGN) and collects its rewards; returns the
    mode taken. The usual choice, the two faces or the plain sum untraced, is carried out right here:
    inlined into assign_all with ask and decide (whose heuristics answer it inline too), as it is asked
    of every player on every turn and the calls of the general path (use_dice) cost ~5% of the run time."""
    choice = ask_assign(D, st, p, side, d1, d2)
    if choice < NO_CARD_SPENT and st.cap == 0:
        mode, tgt, _, _ = unpack_assignment(choice)
        plain_dice(D, st, p, side, d1, d2, mode == M_SUM, tgt)
        return mode
    return use_dice(D, st, p, side, d1, d2, choice)


@jit_plain_ints
def assign_all(D, st, a):
    """Every player in the game uses the active player's dice: the active one blue, the others red."""
    R = D.R
    PS, v = st.PS, st.v
    P = R[R_P]
    d1 = int(v[ST.D1])
    d2 = int(v[ST.D2])
    for k in range(P):
        p = wrap(a + k, P)
        if PS[p, PL.IN] != 0:
            assign_player(D, st, p, BLUE if k == 0 else RED, d1, d2)


# ------------------------------------------------------------------------------------------------
# buying, claiming and the charge abilities


@jit_plain_ints
def buy_apply(D, st, p, choice, pay_all):
    """Carry out a buy chosen by a policy (display slot l*DSZ+j, or COLONY+q for colony q). pay_all:
    the normal buy spends all credits; an ability buy pays the cost only."""
    CT, COLT, R = D.CT, D.COLT, D.R
    PS, DISP, OWNER = st.PS, st.DISP, st.OWNER
    cred = PS[p, PL.CRED]
    if choice >= COLONY:
        q = choice - COLONY
        cost = COLT[q, C_COST]
        pos = COLT[q, C_SECTOR]
        old = st.BD[p, pos, B_STATION]
        place_colony(D, st, p, q)
        k = -1
        emit(st, E_COLONY, p, q, COLT[q, C_SECTOR], COLT[q, C_VP], cred)
    else:
        dsz = R[R_DISPLAY]
        lv = choice // dsz
        j = choice % dsz
        k = DISP[lv, j]
        DISP[lv, j] = -1
        cost = CT[k, F.COST]
        pos = CT[k, F.SECTOR]
        old = st.BD[p, pos, B_STATION]
        station(D, st, p, k)
        OWNER[k] = p
        PS[p, PL.BOUGHT] += 1
        emit(st, E_BUY if pay_all else E_ABILITY_BUY, p, k, cost, cred, lv + 1)
    if pay_all:
        PS[p, PL.CRED] = 0
    else:
        PS[p, PL.CRED] -= cost
    refresh_pos(D, st, p, pos, old, k)


@jit_plain_ints
def resolve_claims(D, st, p):
    """Claims queued by rewards or abilities: take free ships of those levels from the display."""
    CT = D.CT
    PS, BD, DISP, OWNER = st.PS, st.BD, st.DISP, st.OWNER
    changed = False
    for lv in range(3):
        n = PS[p, PL.CLQ1 + lv]
        PS[p, PL.CLQ1 + lv] = 0
        for _ in range(n):
            j = ask_claim(D, st, p, lv)
            if j < 0:
                break
            k = DISP[lv, j]
            DISP[lv, j] = -1
            pos = CT[k, F.SECTOR]
            old = BD[p, pos, B_STATION]
            station(D, st, p, k)
            OWNER[k] = p
            PS[p, PL.CLAIMED] += 1
            emit(st, E_CLAIM, p, k, lv + 1, 0, 0)
            changed = True
            refresh_pos(D, st, p, pos, old, k)
    return changed


@jit_plain_ints
def find_card(st, p, c, side):
    """Where card c sits on p's board: (sector, deployed index or -1)."""
    BD, DEP = st.BD, st.DEP
    for s in range(1, NSEC + 1):
        if side == BLUE:
            if BD[p, s, B_STATION] == c:
                return s, -1
        else:
            for i in range(BD[p, s, B_NDEP]):
                if DEP[p, s, i] == c:
                    return s, i
    return -1, -1


@jit_plain_ints
def swap_sectors(D, st, p, a, b):
    """Swap everything in sector positions a and b (stationed, deployed, colony); cards bought later
    still go to their printed sector."""
    BD, DEP = st.BD, st.DEP
    for f in range(NBD):
        t = BD[p, a, f]
        BD[p, a, f] = BD[p, b, f]
        BD[p, b, f] = t
    n = max(BD[p, a, B_NDEP], BD[p, b, B_NDEP])
    for i in range(n):
        t = DEP[p, a, i]
        DEP[p, a, i] = DEP[p, b, i]
        DEP[p, b, i] = t
    refresh(D, st, p)
    emit(st, E_SWAP, p, a, b, 0, 0)


@jit_plain_ints
def exchange_cards(D, st, p, c, side, a, ia, s, i_s):
    """Exchange card c (sector a; deployed index ia when deployed) with the card in sector s: the one
    deployed at index i_s, or the stationed one (i_s = -1). A card that changes kind of position turns
    over and keeps the cubes its new side has squares for (as a deployed card does)."""
    CT = D.CT
    BD, DEP, CUBES = st.BD, st.DEP, st.CUBES
    if i_s >= 0:
        t = DEP[p, s, i_s]
        DEP[p, s, i_s] = c
        DEP[p, a, ia] = t
    else:
        t = BD[p, s, B_STATION]
        BD[p, s, B_STATION] = c
        if side == BLUE:
            BD[p, a, B_STATION] = t
        else:
            DEP[p, a, ia] = t
            CUBES[p, c] = min(CUBES[p, c], CT[c, F.CAP])
            CUBES[p, t] = min(CUBES[p, t], CT[t, NSIDE + F.CAP])
    refresh(D, st, p)
    emit(st, E_EXCHANGE, p, c, t, a, s)


@jit_plain_ints
def lose_vp(D, st, p, n):
    """All other players lose n VP (never below 0)."""
    R = D.R
    PS = st.PS
    for q in range(R[R_P]):
        if q != p:
            PS[q, PL.VP] = max(0, PS[q, PL.VP] - n)
            emit(st, E_LOSE_VP, p, q, n, PS[q, PL.VP], 0)


@jit_plain_ints
def try_fire(D, st, p, c, side):
    """Card c's free-timing charge ability, if p's policy fires it; True if it fired. In order: you win,
    the others lose VP, credits and VP, claims, buys, then what p's policy chooses for its swap,
    exchange, cubes placed and cubes moved (options.py)."""
    CT = D.CT
    PS, v, CUBES = st.PS, st.v, st.CUBES
    if not ask_fire(D, st, p, c, side):
        return False
    o = side * NSIDE
    spend(D, st, p, c, side)
    emit(st, E_FIRE, p, c, side, 0, 0)
    if CT[c, o + F.WIN] != 0:
        v[ST.OVER] = 1
        v[ST.END] = END_YOU_WIN
        v[ST.YOU_WIN] = p
        return True
    if CT[c, o + F.LOSE_VP] > 0:
        lose_vp(D, st, p, CT[c, o + F.LOSE_VP])
    ability_bonus(D, st, p, c, side)
    if CT[c, o + F.CLAIM1] + CT[c, o + F.CLAIM1 + 1] + CT[c, o + F.CLAIM1 + 2] > 0:
        for lv in range(3):
            PS[p, PL.CLQ1 + lv] += CT[c, o + F.CLAIM1 + lv]
        resolve_claims(D, st, p)
    for _ in range(CT[c, o + F.BUY]):
        ch = ask_buy(D, st, p, PS[p, PL.CRED], False)
        if ch == NO:
            break
        buy_apply(D, st, p, ch, False)
    if CT[c, o + F.SWAP_A] > 0 and ask_swap(D, st, p, c, side):
        swap_sectors(D, st, p, CT[c, o + F.SWAP_A], CT[c, o + F.SWAP_B])
    if CT[c, o + F.EXCHANGE] > 0:
        a, ia = find_card(st, p, c, side)
        ch = ask_exchange(D, st, p, c, side, a) if a > 0 else NO
        if ch != NO:
            s, i = unpack_exchange(ch)
            exchange_cards(D, st, p, c, side, a, ia, s, i)
    for _ in range(CT[c, o + F.PLACE]):
        ch = ask_place(D, st, p, c)
        if ch == NO:
            break
        t, ts = unpack_cube(ch)
        add_cube(D, st, p, t, ts)
        emit(st, E_PLACE, p, t, ts, 0, 0)
    for _ in range(CT[c, o + F.MOVE]):
        src = ask_move_source(D, st, p, c)
        if src == NO:
            break
        t, ts = unpack_cube(ask_move_target(D, st, p, src))
        CUBES[p, src] -= 1
        add_cube(D, st, p, t, ts)
        emit(st, E_MOVE, p, src, t, ts, 0)
    return True


@jit_plain_ints
def free_abilities(D, st, p, side):
    """Fire p's ready free-timing abilities on `side` while they pay (a fired one may ready another)."""
    PS, v, ABL = st.PS, st.v, st.ABL
    for _ in range(MAX_FIRINGS):
        fired = False
        nab = PS[p, PL.NAB0 + side]
        k = next_ready(D, st, p, side, T_FREE, 0)
        while k < nab:
            if try_fire(D, st, p, ABL[p, side, k], side):
                fired = True
                break
            k = next_ready(D, st, p, side, T_FREE, k + 1)
        if v[ST.OVER] != 0 or not fired:
            return


@jit_plain_ints_inline
def dice_setters(D):
    """How many players, in turn order from the active one, may set or reroll its dice: all of them
    (red abilities act on others' rolls), or only the active player."""
    R = D.R
    return R[R_P] if R[R_RED_DICE] == RED_DICE_OTHERS_ROLLS else 1


@jit_plain_ints
def dice_phase(D, st, a, timing):
    """Before the roll (timing T_PREROLL) the set-die charges, after it (T_POSTROLL) the reroll charges:
    the active player's blue ones, then the others' red ones in turn order (unless
    rules.red_dice_abilities is never); each card fires while it is ready and its owner wants to. A
    reroll changes everyone's dice."""
    R = D.R
    PS, ABL = st.PS, st.ABL
    P = R[R_P]
    for kk in range(dice_setters(D)):
        p = wrap(a + kk, P)
        side = BLUE if p == a else RED
        nab = PS[p, PL.NAB0 + side]
        if PS[p, PL.IN] == 0 or nab == 0:
            continue
        k = next_ready(D, st, p, side, timing, 0)
        while k < nab:
            c = ABL[p, side, k]
            while is_ready(D, st, p, c, side) and dice_charge(D, st, p, c, side, timing):
                pass
            k = next_ready(D, st, p, side, timing, k + 1)


@jit_plain_ints
def dice_charge(D, st, p, c, side, timing):
    """Card c's set-die (T_PREROLL) or reroll (T_POSTROLL) charge, if p's policy uses it: True if it did."""
    v = st.v
    face = 0
    if timing == T_PREROLL:
        choice = ask_set_die(D, st, p, c, side)
        if choice == NO:
            return False
        die, face = choice // FACE_STRIDE, choice % FACE_STRIDE
    else:
        die = ask_reroll(D, st, p, c, side)
        if die == NO:
            return False
    spend(D, st, p, c, side)
    ability_bonus(D, st, p, c, side)
    if timing == T_PREROLL:
        v[ST.D1 + die] = face
        v[ST.DSET1 + die] = 1
        emit(st, E_SET_DIE, p, c, die, face, side)
    else:
        v[ST.D1 + die] = below(st.rng, 6) + 1
        emit(st, E_REROLL, p, c, die, v[ST.D1 + die], side)
    return True


@jit_plain_ints_inline
def roll(D, st, a):
    """Roll the dice not fixed by a set-die charge."""
    v, rng = st.v, st.rng
    for i in range(2):
        if v[ST.DSET1 + i] == 0:
            v[ST.D1 + i] = below(rng, 6) + 1
    emit(st, E_ROLL, a, v[ST.D1], v[ST.D2], v[ST.DSET1] + 2 * v[ST.DSET2], 0)


@jit_plain_ints
def buy_phase(D, st, a):
    """The active player may buy one ship or colony costing at most its credits; buying spends all."""
    PS = st.PS
    ch = ask_buy(D, st, a, PS[a, PL.CRED], True)
    if ch != NO:
        buy_apply(D, st, a, ch, True)
    else:
        emit(st, E_NOBUY, a, PS[a, PL.CRED], 0, 0, 0)


@jit_plain_ints_inline
def income_floor(D, st, a):
    """End of the active player's turn: credits below income are raised to income."""
    PS = st.PS
    if PS[a, PL.CRED] < PS[a, PL.INC]:
        PS[a, PL.CRED] = PS[a, PL.INC]
        emit(st, E_FLOOR, a, PS[a, PL.CRED], 0, 0, 0)


@jit_plain_ints_inline
def check_trigger(D, st):
    R = D.R
    PS, v = st.PS, st.v
    if v[ST.TRIGGER] != 0:
        return
    for p in range(R[R_P]):
        if PS[p, PL.VP] >= R[R_TRIGGER]:
            v[ST.TRIGGER] = 1
            emit(st, E_TRIGGER, p, PS[p, PL.VP], v[ST.ROUND], 0, 0)
            return


@jit_plain_ints
def play_turn(D, st, a):
    """One turn of seat a: set dice, roll, reroll, everyone assigns, claims, abilities, buy, refill,
    income floor."""
    R = D.R
    PS, v = st.PS, st.v
    P = R[R_P]
    v[ST.ACTIVE] = a
    PS[a, PL.TURNS] += 1
    if PS[a, PL.PHASE] + 1 < D.PHASES[a] and ask_yes_no(D, st, a, D_PHASE, 0, 0, 0):
        PS[a, PL.PHASE] += 1  # the policy's card values change (engine: growth -> VP): so do its tables
        refresh(D, st, a)
    trace = st.cap != 0
    if trace:
        emit(st, E_TURN, a, v[ST.ROUND], PS[a, PL.CRED], PS[a, PL.INC], PS[a, PL.VP])
    timings = 0  # charge-ability timings held by anyone on the side that acts this turn
    for k in range(P):
        p = wrap(a + k, P)
        if PS[p, PL.IN] != 0:
            timings |= PS[p, PL.TMASK0 + (BLUE if k == 0 else RED)]
    v[ST.DSET1] = 0
    v[ST.DSET2] = 0
    if timings & (1 << T_PREROLL):
        dice_phase(D, st, a, T_PREROLL)
    roll(D, st, a)
    if timings & (1 << T_POSTROLL):
        dice_phase(D, st, a, T_POSTROLL)
    assign_all(D, st, a)
    for kk in range(P):
        p = wrap(a + kk, P)
        if PS[p, PL.CLQ1] + PS[p, PL.CLQ1 + 1] + PS[p, PL.CLQ1 + 2] > 0:
            resolve_claims(D, st, p)
    if timings & (1 << T_FREE):
        for kk in range(1, P):
            p = wrap(a + kk, P)
            if PS[p, PL.IN] != 0 and PS[p, PL.TMASK0 + RED] & (1 << T_FREE) != 0:
                free_abilities(D, st, p, RED)
                if v[ST.OVER] != 0:
                    return
        if PS[a, PL.TMASK0 + BLUE] & (1 << T_FREE) != 0:
            free_abilities(D, st, a, BLUE)
            if v[ST.OVER] != 0:
                return
    buy_phase(D, st, a)
    refill_display(D, st)
    income_floor(D, st, a)
    check_trigger(D, st)


# ------------------------------------------------------------------------------------------------
# setup


@jit_plain_ints
def starting_boards(D, st):
    """Every seat's board with its 12 starting ships stationed, and that board's reward tables, kept in
    SB_* for `starting_board` (called once per batch, by alloc_state)."""
    R = D.R
    PS, BD, CUBES = st.PS, st.BD, st.CUBES
    PS[:, :] = 0
    BD[:, :, :] = 0
    BD[:, :, B_STATION] = -1
    BD[:, :, B_COVERED] = -1
    CUBES[:, :] = 0
    for p in range(R[R_P]):
        for c in range(R[R_NSTART]):
            station(D, st, p, c)
        PS[p, PL.IN] = 1
        refresh(D, st, p)
    copy_all(st.SB_PS, PS)
    copy_all(st.SB_BD, BD)
    copy_all(st.SB_DEP, st.DEP)
    copy_all(st.SB_BASE, st.BASE)
    copy_all(st.SB_AV, st.AV)
    copy_all(st.SB_AC, st.AC)
    copy_all(st.SB_ABL, st.ABL)


@jit_plain_ints
def copy_all(dst, src):
    """dst[...] = src (same shape, C order) as a plain loop: numba's slice assignment took seconds
    to compile for each array type."""
    d = dst.reshape(dst.size)
    s = src.reshape(src.size)
    for i in range(d.size):
        d[i] = s[i]


@jit_plain_ints
def starting_board(st, p):
    """Seat p's player state and board as at the start of a game: a copy of its starting board and
    tables (a full refresh per seat and game took 7% of the run time)."""
    PS, BD, DEP, BASE, AV, AC, ABL = st.PS, st.BD, st.DEP, st.BASE, st.AV, st.AC, st.ABL
    SB_BD, SB_BASE, SB_AV, SB_AC = st.SB_BD, st.SB_BASE, st.SB_AV, st.SB_AC
    for f in range(NPS):  # loops with constant bounds: numba's slice assignment is several times slower
        PS[p, f] = st.SB_PS[p, f]
    for s in range(NSEC + 1):
        for f in range(NBD):
            BD[p, s, f] = SB_BD[p, s, f]
        for i in range(BD[p, s, B_NDEP]):
            DEP[p, s, i] = st.SB_DEP[p, s, i]
    for side in range(2):
        for s in range(NSEC + 1):
            AV[p, side, s] = SB_AV[p, side, s]
            for f in range(NX):
                BASE[p, side, s, f] = SB_BASE[p, side, s, f]
            for f in range(NAC):
                AC[p, side, s, f] = SB_AC[p, side, s, f]
        for k in range(PS[p, PL.NAB0 + side]):
            ABL[p, side, k] = st.SB_ABL[p, side, k]


@jit_plain_ints
def reset(D, st, seed, gid):
    """Shuffled decks, six face-up ships per level, colonies on display, and every player's board
    with only its 12 starting ships (and their reward tables)."""
    R, LVL_IDS, LVL_N = D.R, D.LVL_IDS, D.LVL_N
    CUBES, v, DECK, DP, DISP, COLAV, OWNER, rng, COLOWN = (st.CUBES, st.v, st.DECK, st.DP, st.DISP, st.COLAV, st.OWNER,
                                                          st.rng, st.COLOWN)
    P = R[R_P]
    CUBES[:, :] = 0
    OWNER[:] = -1
    COLOWN[:] = -1
    for i in range(ST.SIZE):
        v[i] = 0
    rng[0] = new_stream(seed, gid)[0]
    for lv in range(3):
        n = LVL_N[lv]
        for i in range(n):
            DECK[lv, i] = LVL_IDS[lv, i]
        shuffle(rng, DECK[lv], n)
        DP[lv, 0] = 0
        DP[lv, 1] = n
    DISP[:, :] = -1
    refill_display(D, st)
    for q in range(R[R_NCOL]):
        COLAV[q] = 1
    for p in range(P):
        starting_board(st, p)


@jit_plain_ints
def opening_value(D, st, k):
    """Neutral worth (row P of VALS/PR: the scenario's `weighted` weights) of adding ship k to a
    starting board, for the light-speed opening where seats are not known yet."""
    CT, R, VALS, WP, PR = D.CT, D.R, D.VALS, D.WP, D.PR
    BD = st.BD
    P = R[R_P]
    pos = CT[k, F.SECTOR]
    st = BD[0, pos, B_STATION]
    rate = PR[P, pos] * VALS[P, 0, BLUE, k]
    if st >= 0:
        rate += PR[P, pos] * ((P - 1) * VALS[P, 0, RED, st] - VALS[P, 0, BLUE, st])
    return rate * WP[P, W_HMAX]


@jit_plain_ints
def opening_standard(D, st):
    """Each player draws one random Level I ship and pays it from the start credits; the highest
    sector starts (ties: random). Returns (start pre-seat, tie)."""
    CT, R = D.CT, D.R
    OPEN, rng = st.OPEN, st.rng
    P = R[R_P]
    for i in range(P):
        k = draw(D, st, 0)
        OPEN[i, :] = -1
        OPEN[i, 0] = k
        cost = CT[k, F.COST] if k >= 0 else 0
        OPEN[i, OPEN_CREDITS] = max(0, R[R_START_CREDITS] - cost)
        OPEN[i, OPEN_SECTOR] = CT[k, F.SECTOR] if k >= 0 else 0
    best = -1
    n = 0
    for i in range(P):
        if OPEN[i, OPEN_SECTOR] > best:
            best = OPEN[i, OPEN_SECTOR]
            n = 1
        elif OPEN[i, OPEN_SECTOR] == best:
            n += 1
    pick = 0 if n == 1 else below(rng, n)
    for i in range(P):
        if OPEN[i, OPEN_SECTOR] == best:
            if pick == 0:
                return i, n > 1
            pick -= 1
    return 0, False


@jit_plain_ints
def deployed_opening_value(D, st, k):
    """Neutral worth of ship k deployed on a starting board (a second light-speed ship of its sector
    is stationed in front of it): its red side on the others' turns (row P, as opening_value)."""
    CT, R, VALS, WP, PR = D.CT, D.R, D.VALS, D.WP, D.PR
    P = R[R_P]
    return PR[P, CT[k, F.SECTOR]] * (P - 1) * VALS[P, 0, RED, k] * WP[P, W_HMAX]


@jit_plain_ints
def sort_opening_options(D, st, n):
    """OPTS[n:2n] = the indices of the n drawn ships OPTS[:n], by sector, and within a sector by how much
    better the card is stationed than deployed: bought in this order, the last of a sector is stationed
    and the others are deployed behind it (as any buy does)."""
    CT = D.CT
    OPTS = st.OPTS
    for t in range(n):
        kj = OPTS[t]
        key = opening_value(D, st, kj) - deployed_opening_value(D, st, kj)
        u = t
        while u > 0:
            ku = OPTS[OPTS[n + u - 1]]
            if CT[ku, F.SECTOR] < CT[kj, F.SECTOR] or (
                    CT[ku, F.SECTOR] == CT[kj, F.SECTOR]
                    and opening_value(D, st, ku) - deployed_opening_value(D, st, ku) <= key):
                break
            OPTS[n + u] = OPTS[n + u - 1]
            u -= 1
        OPTS[n + u] = t


@jit_plain_ints
def opening_lightspeed(D, st):
    """Light speed: each player sees draw_l1 Level I + draw_l2 Level II ships, buys any set within the
    light-speed credits (paying costs; rules.lightspeed_one_per_sector: at most one per sector, else a
    second ship of a sector is stationed and the first deployed), the rest go under their decks in the
    order drawn. Most credits left starts; ties: highest sector bought, then random. Returns (start
    pre-seat, tie)."""
    CT, R, WP = D.CT, D.R, D.WP
    OPEN, OPTS, rng = st.OPEN, st.OPTS, st.rng
    P = R[R_P]
    budget = R[R_LS_CREDITS]
    one_per_sector = R[R_LS_ONE_PER_SECTOR] != 0
    wc = WP[P, W_C0]
    for i in range(P):
        OPEN[i, :] = -1
        n = 0
        for lv in range(2):
            for _ in range(R[R_LS_L1] if lv == 0 else R[R_LS_L2]):
                k = draw(D, st, lv)
                if k >= 0:
                    OPTS[n] = k
                    n += 1
        sort_opening_options(D, st, n)
        bestv = -1e18
        bestm = 0
        for m in range(1 << n):
            cost = 0
            worth = 0.0
            ok = True
            prev = -1  # the previous ship of this subset in buying order
            for t in range(n):
                j = OPTS[n + t]
                if m >> j & 1 == 0:
                    continue
                k = OPTS[j]
                cost += CT[k, F.COST]
                if prev >= 0 and CT[prev, F.SECTOR] == CT[k, F.SECTOR]:
                    if one_per_sector:
                        ok = False
                        break
                    # k is stationed in front of prev: prev's station worth becomes its deployed worth
                    worth += opening_value(D, st, k) - opening_value(D, st, prev) + deployed_opening_value(D, st, prev)
                else:
                    worth += opening_value(D, st, k)
                prev = k
            if not ok or cost > budget:
                continue
            worth += wc * (budget - cost)
            if worth > bestv:
                bestv = worth
                bestm = m
        cost = 0
        top = 0
        nb = 0
        for t in range(n):
            j = OPTS[n + t]
            if bestm >> j & 1:
                k = OPTS[j]
                OPEN[i, nb] = k
                nb += 1
                cost += CT[k, F.COST]
                top = max(top, CT[k, F.SECTOR])
        for j in range(n):
            if bestm >> j & 1 == 0:
                k = OPTS[j]
                put_bottom(D, st, CT[k, F.LEVEL] - 1, k)
        OPEN[i, OPEN_CREDITS] = budget - cost
        OPEN[i, OPEN_SECTOR] = top
    best = -1
    bsec = -1
    n = 0
    for i in range(P):
        if OPEN[i, OPEN_CREDITS] > best or (OPEN[i, OPEN_CREDITS] == best and OPEN[i, OPEN_SECTOR] > bsec):
            best = OPEN[i, OPEN_CREDITS]
            bsec = OPEN[i, OPEN_SECTOR]
            n = 1
        elif OPEN[i, OPEN_CREDITS] == best and OPEN[i, OPEN_SECTOR] == bsec:
            n += 1
    pick = 0 if n == 1 else below(rng, n)
    for i in range(P):
        if OPEN[i, OPEN_CREDITS] == best and OPEN[i, OPEN_SECTOR] == bsec:
            if pick == 0:
                return i, n > 1
            pick -= 1
    return 0, False


@jit_plain_ints
def seat_players(D, st, start, tie):
    """Seat `start` moves first; the others follow in seat order (clockwise). Each seat keeps its
    identity (its policy): its turn position is (seat - start) mod P. Each seat's opening ships are
    stationed, then the turn-order bonus of its position is added."""
    CT, R, BONUS = D.CT, D.R, D.BONUS
    PS, BD, OPEN, OWNER, v = st.PS, st.BD, st.OPEN, st.OWNER, st.v
    P = R[R_P]
    ls = R[R_VARIANT] == VARIANT_LIGHTSPEED
    v[ST.FIRST] = start
    v[ST.START_TIE] = 1 if tie else 0
    emit(st, E_START, start, 1 if tie else 0, 0, 0, 0)
    for s in range(P):
        pos = wrap(s + P - start, P)
        PS[s, PL.POS] = pos
        for j in range(NOPEN_SHIPS):
            k = OPEN[s, j]
            if k < 0:
                break
            sec = CT[k, F.SECTOR]
            old = BD[s, sec, B_STATION]
            station(D, st, s, k)
            refresh_pos(D, st, s, sec, old, k)
            OWNER[k] = s
            PS[s, PL.BOUGHT] += 1
            emit(st, E_LS_BUY if ls else E_OPENING, s, k, CT[k, F.SECTOR], CT[k, F.COST], 0)
        PS[s, PL.CRED] = OPEN[s, OPEN_CREDITS]
        PS[s, PL.INC] = R[R_LS_INCOME] if ls else R[R_START_INCOME]
        PS[s, PL.OPENSEC] = OPEN[s, OPEN_SECTOR]
        PS[s, PL.CRED] += BONUS[pos, 0]
        PS[s, PL.INC] += BONUS[pos, 1]
        emit(st, E_BONUS, s, BONUS[pos, 0], BONUS[pos, 1], PS[s, PL.CRED], PS[s, PL.INC])


@jit_plain_ints
def setup(D, st, seed, gid):
    R = D.R
    reset(D, st, seed, gid)
    if R[R_VARIANT] == VARIANT_LIGHTSPEED:
        start, tie = opening_lightspeed(D, st)
        # light speed: the start credits are the light-speed ones (left after the opening buys)
    else:
        start, tie = opening_standard(D, st)
    seat_players(D, st, start, tie)


# ------------------------------------------------------------------------------------------------
# the game


@jit_plain_ints
def settle_winners(D, st):
    """Leave PL.IN = 1 exactly for the players with the most VP among those still in; returns count."""
    R = D.R
    PS = st.PS
    best = -1
    for p in range(R[R_P]):
        if PS[p, PL.IN] != 0 and PS[p, PL.VP] > best:
            best = PS[p, PL.VP]
    n = 0
    for p in range(R[R_P]):
        if PS[p, PL.IN] != 0 and PS[p, PL.VP] == best:
            n += 1
        else:
            PS[p, PL.IN] = 0
    return n


@jit_plain_ints
def play_rounds(D, st):
    """Full rounds in turn order from the first player until a player has trigger_vp (the round is
    finished: equal turns), a 'you win' card fires, or max_rounds."""
    R, v = D.R, st.v
    P = R[R_P]
    while True:
        v[ST.ROUND] += 1
        for k in range(P):
            play_turn(D, st, wrap(v[ST.FIRST] + k, P))
            if v[ST.OVER] != 0:
                return
        if v[ST.TRIGGER] != 0:
            return
        if v[ST.ROUND] >= R[R_MAX_ROUNDS]:
            v[ST.END] = END_MAX_ROUNDS
            return


@jit_plain_ints
def tie_rounds(D, st):
    """Most VP wins; tied players play further full rounds (only they take turns) until one leads, at
    most tie_rounds_cap rounds; then they share the win. Leaves the winners in PL.IN."""
    R = D.R
    PS, v = st.PS, st.v
    P = R[R_P]
    n = settle_winners(D, st)
    tr = 0
    while n > 1 and tr < R[R_TIE_CAP]:
        v[ST.ROUND] += 1
        tr += 1
        mask = 0
        for p in range(P):
            if PS[p, PL.IN] != 0:
                mask |= 1 << p
        emit(st, E_TIE_ROUND, -1, v[ST.ROUND], mask, 0, 0)
        for k in range(P):
            a = wrap(v[ST.FIRST] + k, P)
            if PS[a, PL.IN] != 0:
                play_turn(D, st, a)
                if v[ST.OVER] != 0:
                    break
        if v[ST.OVER] != 0:
            break
        n = settle_winners(D, st)
    v[ST.TIE_ROUNDS] = tr
    return n


@jit_plain_ints
def play_game(D, st, seed, gid):
    """Setup, rounds, end. Afterwards PS[:, PL.IN] marks the winners and v[ST.END] the end reason."""
    R = D.R
    PS, v = st.PS, st.v
    P = R[R_P]
    setup(D, st, seed, gid)
    play_rounds(D, st)
    if v[ST.OVER] == 0:
        if v[ST.END] == END_MAX_ROUNDS:
            settle_winners(D, st)
        else:
            n = tie_rounds(D, st)
            if v[ST.OVER] == 0:
                v[ST.END] = END_SHARED if n > 1 else END_VP
    if v[ST.OVER] != 0:  # you win
        for p in range(P):
            PS[p, PL.IN] = 1 if p == v[ST.YOU_WIN] else 0
    mask = 0
    for p in range(P):
        if PS[p, PL.IN] != 0:
            mask |= 1 << p
    emit(st, E_END, -1, v[ST.END], v[ST.ROUND], mask, v[ST.TIE_ROUNDS])
    for p in range(P):
        emit(st, E_FINAL, p, PS[p, PL.VP], PS[p, PL.CRED], PS[p, PL.INC], PS[p, PL.COLS])




@njit(cache=True, error_model="numpy", nogil=True)
def play(seed, ids, ctl, D, g, s, buyer, col_buyer, first, ev, tn, cap):
    """The kernel (Game.kernel): games `ids` of run `seed`, each under its control row ctl[i] (kernel.A_*:
    all zeros unless a seat searches; copied into the state for the game and back after it), written into
    the outputs the framework allocated from COLUMNS (g[n, G], s[n, P, S], the buyer of each ship and
    colony, the first player, the trace ev/tn/cap). It holds no Python object, so it runs without the GIL
    (the runner plays chunks on threads: Spacebase.kernel_releases_gil)."""
    R = D.R
    P = R[R_P]
    nst = R[R_NSTART]
    width = ctl.shape[1]
    st = alloc_state(D, ev, tn, cap, width)
    PS, v, OWNER, COLOWN = st.PS, st.v, st.OWNER, st.COLOWN
    at = control_at(D)  # the control row's place in v
    for i in range(len(ids)):
        for k in range(width):
            v[at + k] = ctl[i, k]
        play_game(D, st, seed, ids[i])
        for k in range(width):
            ctl[i, k] = v[at + k]
        for p in range(P):
            s[i, p, S.IS_WINNER] = PS[p, PL.IN] != 0
            s[i, p, S.SCORE] = PS[p, PL.VP]
            s[i, p, S.OPENING_SECTOR] = PS[p, PL.OPENSEC]
            s[i, p, S.CREDITS] = PS[p, PL.CRED]
            s[i, p, S.INCOME] = PS[p, PL.INC]
            s[i, p, S.COLONIES] = PS[p, PL.COLS]
            s[i, p, S.CARDS_BOUGHT] = PS[p, PL.BOUGHT]
            s[i, p, S.CARDS_CLAIMED] = PS[p, PL.CLAIMED]
            s[i, p, S.TURNS] = PS[p, PL.TURNS]
            s[i, p, S.ABILITIES] = PS[p, PL.ABIL]
        g[i, G.LENGTH] = v[ST.ROUND]
        g[i, G.END_REASON] = v[ST.END]
        g[i, G.START_TIE] = v[ST.START_TIE] != 0
        g[i, G.TIE_ROUNDS] = v[ST.TIE_ROUNDS]
        first[i] = v[ST.FIRST]
        for k in range(buyer.shape[1]):
            buyer[i, k] = OWNER[nst + k]
        for q in range(col_buyer.shape[1]):
            col_buyer[i, q] = COLOWN[q]
    release(st.T)
    release(st)


def play_one(D, seed, gid):
    """One game, returning its whole final state (for tests and debugging)."""
    st = new_state(D)
    play_game(D, st, seed, gid)
    return st
