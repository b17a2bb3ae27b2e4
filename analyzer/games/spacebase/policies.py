"""Space Base policies: the one dispatch from a seat's policy code to its decision (`decide`), and
the decision functions of Space Base's own policies, with their numbers from the scenario
(the seat's weights, scenario.WEIGHTS -> its WP, VALS, PR rows; layout.py says how VALS is organised).

At every decision (decisions.py lists the kinds and how options are written) the engine lists the
legal options and the seat's policy returns the index of one. A policy sees only its player's view:
view.py (who decides, what and its context) and the public tables (state.Table: the dice, every board,
credit, cube and display card), never the deck order or the random stream. The rules never read a
policy code: `decide` here is the place.
- random (shared by every game, analyzer.kernel): uniform over the listed options of every decision
  (buys and "no buy", claims and "no claim", each set-die face, each reroll, each dice assignment,
  firing a ready ability or not, and what a fired one does: swap or not, each exchange partner, each
  card a cube is placed on or moved from and to). Before issue #8 it was uniform over buys and claims
  only and used the weighted policy's choices for the dice and abilities: its results differ from then.
- scripted (shared): the scenario's `script` of option indices, in game order: for rule tests.
- search (shared, analyzer/search.py): plays each option out from worlds consistent with what its seat
  has seen: at the branch the engine deals the decks' order again (engine.redeal_decks) and the dice to
  come are the rollout's own stream; past it, the search seat plays its rollout policy.
The heuristic policies below compute their choice (an option value) straight from the position and
return its index among the listed options (each heuristic choice is one of them).

Every heuristic values things in "credit equivalents" with its weights (credits, income, VP):
- dice: every policy takes the assignment of highest immediate value (AV: one die on a sector, reward
  arrows included, from `engine.refresh`), and uses a dice-arrow / 2X charge only when it adds value;
- buying:
  * greedy_vp: the affordable colony with most VP, else the affordable ship with most printed VP,
    else nothing (it saves up) -- unless it can already afford every card on offer (saving unlocks
    nothing), then the ship of best per-round gain (else a display without VP ships stalls it);
  * engine: weights (credits 1, income 4, VP 0.5) while growing, (1, 1, 3.5) once its own production
    reaches its switch_production weight in credits per round or any player has its
    switch_leader_vp VP (the switch is permanent, asked at the start of each of its turns: D_PHASE);
  * weighted: its credits / income / vp weights, sector odds blended by its `sector_prob`.
  engine and weighted score a buy as benefit - beta*cost - waste*(credits left unspent), where a ship's
  benefit is its gain per round (sector odds x value of the new station side, minus the replaced station
  side, plus the replaced card's red side on the others' turns) times the rounds left H, a colony's is
  its VP (plus its effect on the sector) and beta = H / horizon_max (credits lose worth near the end);
  they buy only when the best score is > 0. Once their credits cover every option on offer (saving
  unlocks nothing), a normal buy is scored by its benefit alone.
- charge abilities fire when they pay (see each decision function), or when what they then do gains
  (follow_ups_gain); what that is (swap or not, exchange partner, cube targets and sources) is chosen
  alike by the three heuristics, by the per-round gains at the end of this file: swap / exchange when
  the seat's sector odds x card values gain, a cube to the card where it is worth most, moved from the
  card where it is worth least while that gains.
- restrictions (decisions.py): a restricted seat's heuristic never considers what is forbidden (the
  Level III ships and colonies it may not buy, the charge abilities it may not use).
"""
from ...kernel import FIRST_GAME_POLICY, ask_policy, asked, index_of
from ...kernel_internals import jit_plain_ints, jit_plain_ints_inline
from .charge import next_ready
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
    D_SET_DIE,
    D_SWAP,
    NO,
    NO_CHARGE_ABILITIES,
    NO_COLONIES,
    NO_LEVEL3,
    YES,
    assignment,
    cube,
    exchange,
    set_die,
)
from .layout import (
    A_C,
    A_DIR,
    B_COLONY,
    B_NDEP,
    B_STATION,
    BLUE,
    C_COST,
    C_SECTOR,
    C_VP,
    CUBE,
    EXCH_SAME_KIND,
    NSEC,
    NSIDE,
    PL,
    R_ABUY_COL,
    R_COLONY_DEPLOYS,
    R_DISPLAY,
    R_EXCHANGE,
    R_NCOL,
    R_P,
    R_SHIFT_DOWN,
    R_TRIGGER,
    RED,
    T_ASSIGN,
    W_C0,
    W_HMAX,
    W_SWITCH_PROD,
    W_SWITCH_VP,
    W_V0,
    W_VPR,
    W_WASTE,
    F,
)
from .state import ST
from .view import V_KIND, V_RESTRICT, V_SEAT, V_X, V_Y, V_Z

GREEDY = FIRST_GAME_POLICY  # greedy_vp (SpacebaseScenario.POLICIES order); engine and weighted differ by weights only
NEG = -1e18


# ---- the dispatch --------------------------------------------------------------------------------------

@jit_plain_ints_inline
def decide(code, view, options, n_options, stream, script, ask, weights, T, D):
    """The index of the option the seat's policy takes among the n_options listed in `options`, from
    its view (view.py: who decides, what and its context), the public tables T (state.Table: the dice,
    the boards) and its weights row (WP[seat], layout.W_*; its card values and sector odds, VALS and
    PR, come from the same weights and are read by seat from D). random, scripted and search are the
    framework's (kernel.ask_policy; `ask` is the control row and the trace, engine.ask); a search seat
    that plays on past its branch comes back as its rollout policy's code (its VALS, PR and WP rows are
    the rollout policy's: scenario.kernel_arrays). The heuristics compute their option from the
    position and return its index."""
    kind = view[V_KIND]  # read first: inlined into an ask, it is the constant just written (no call between)
    k, code = ask_policy(code, stream, script, ask, n_options)
    if k < 0:
        if kind == D_ASSIGN:  # asked of every player on every turn: inlined here rather than a call
            p, side, d1, d2 = view[V_SEAT], view[V_X], view[V_Y], view[V_Z]
            if n_options == 2:  # the faces or the sum (no charge card can act: the usual case)
                k = 1 if T.AV[p, side, d1 + d2] > T.AV[p, side, d1] + T.AV[p, side, d2] else 0
            else:
                mode, tgt, shc, dbc = choose_assignment(D, T, p, view[V_RESTRICT], side, d1, d2)
                k = index_of(options, n_options, assignment(mode, tgt, shc, dbc))
        elif (kind == D_BUY or kind == D_ABILITY_BUY) and code != GREEDY:  # scores the listed options themselves
            k = buy_index(D, T, view[V_SEAT], weights, view[V_RESTRICT], view[V_X], kind == D_BUY, options,
                          n_options)
        else:
            k = index_of(options, n_options, heuristic(code, view, weights, T, D))
    return asked(ask, k)


@jit_plain_ints
def heuristic(code, view, w, T, D):
    """greedy_vp's, engine's or weighted's option for the decision of the view (context as in
    decisions.py: D_BUY / D_ABILITY_BUY x = credits; D_CLAIM x = level - 1; D_SET_DIE / D_REROLL x = card,
    y = side; D_FIRE / D_SWAP / D_EXCHANGE x = card, y = side, z = its sector; D_PLACE / D_MOVE_FROM
    x = the firing card; D_MOVE_TO x = the source card; D_ARROW x = side, y = sector: the direction of
    best value, kept in AC by engine.rebuild_chains; D_PHASE: engine's growth -> VP switch)."""
    p, kind, mask = view[V_SEAT], view[V_KIND], view[V_RESTRICT]
    x, y, z = view[V_X], view[V_Y], view[V_Z]
    if kind == D_ARROW:
        return T.AC[p, x, y, A_DIR]
    if kind == D_BUY:
        return choose_buy(D, T, p, w, code, mask, x, True, True)
    if kind == D_ABILITY_BUY:
        return choose_buy(D, T, p, w, code, mask, x, False, D.R[R_ABUY_COL] != 0)
    if kind == D_CLAIM:
        return choose_claim(D, T, p, w, code, x)
    if kind == D_FIRE:
        if mask & NO_CHARGE_ABILITIES:
            return NO
        return YES if follow_ups_gain(D, T, p, x, y, z) or fire_pays(D, T, p, w, code, mask, x, y) else NO
    if kind == D_SWAP:
        return choose_swap(D, T, p, x, y)
    if kind == D_EXCHANGE:
        return choose_exchange(D, T, p, x, y, z)
    if kind == D_PLACE:
        return choose_place(D, T, p, x)
    if kind == D_MOVE_FROM:
        return choose_move_source(D, T, p, x)
    if kind == D_MOVE_TO:
        return choose_move_target(D, T, p, x)
    if kind == D_PHASE:
        return YES if wants_switch(D, T, p, w) else NO
    if mask & NO_CHARGE_ABILITIES:  # D_SET_DIE, D_REROLL
        return NO
    bonus = D.CT[x, y * NSIDE + F.BONUS_CREDITS]
    if kind == D_SET_DIE:
        die, face = choose_set_die(T, p, w, y, bonus)
        return NO if die < 0 else set_die(die, face)
    return choose_reroll(T, p, w, y, T.GS[ST.D1], T.GS[ST.D2], bonus)  # D_REROLL


@jit_plain_ints
def fire_pays(D, T, p, w, code, mask, c, side):
    """Whether firing card c's free-timing ability pays by itself: it wins, gives credits or VP, takes VP
    from someone who has some, or its buy / claim finds a ship worth taking."""
    CT, R = D.CT, D.R
    PS = T.PS
    o = side * NSIDE
    if CT[c, o + F.WIN] != 0 or CT[c, o + F.BONUS_CREDITS] > 0 or CT[c, o + F.BONUS_VP] > 0:
        return True
    if CT[c, o + F.LOSE_VP] > 0:
        for q in range(R[R_P]):
            if q != p and PS[q, PL.VP] > 0:
                return True
    if CT[c, o + F.BUY] > 0 and choose_buy(D, T, p, w, code, mask, PS[p, PL.CRED], False, R[R_ABUY_COL] != 0) >= 0:
        return True
    for lv in range(3):
        if CT[c, o + F.CLAIM1 + lv] > 0 and choose_claim(D, T, p, w, code, lv) >= 0:
            return True
    return False


@jit_plain_ints
def follow_ups_gain(D, T, p, c, side, a):
    """Whether card c's swap, exchange (c in sector a) or cube placing would gain: the heuristics fire
    for that too (decided before firing, as the abilities are carried out just after)."""
    CT = D.CT
    o = side * NSIDE
    if CT[c, o + F.SWAP_A] > 0 and choose_swap(D, T, p, c, side) == YES:
        return True
    if CT[c, o + F.EXCHANGE] > 0 and choose_exchange(D, T, p, c, side, a) != NO:
        return True
    return CT[c, o + F.PLACE] > 0 and choose_place(D, T, p, c) != NO


@jit_plain_ints_inline
def weight_c(T, p, w):
    """The worth of a credit in the seat's phase."""
    return w[W_C0 + 3 * T.PS[p, PL.PHASE]]


@jit_plain_ints
def best_plain(AV, p, side, d1, d2):
    """Value of the better plain assignment (two faces or the sum) of dice d1, d2."""
    f = AV[p, side, d1] + AV[p, side, d2]
    s = AV[p, side, d1 + d2]
    return f if f >= s else s


@jit_plain_ints
def choose_assignment(D, T, p, mask, side, d1, d2):
    """Best use of the dice for player p: returns (mode, summed sector, shift card, double card).
    mode (layout.M_*): 0 the two faces, 1 the sum (moved by a dice-arrow card when shift card >= 0),
    2 the sum twice (2X), 3 / 4 the faces plus die 1 / die 2 once more (2X). A dice-arrow or 2X charge is
    spent only if it strictly raises the value."""
    CT, R = D.CT, D.R
    PS, AV, ABL = T.PS, T.AV, T.ABL
    ssum = d1 + d2
    v_faces = AV[p, side, d1] + AV[p, side, d2]
    v_sum = AV[p, side, ssum]
    mode = 0
    val = v_faces
    if v_sum > val:
        mode = 1
        val = v_sum
    if PS[p, PL.TMASK0 + side] & (1 << T_ASSIGN) == 0:  # no dice-arrow or 2X card (the usual case)
        return mode, ssum, -1, -1
    if mask & NO_CHARGE_ABILITIES:
        return mode, ssum, -1, -1
    nab = PS[p, PL.NAB0 + side]
    o = side * NSIDE
    shift_card = -1
    dbl_card = -1
    t_best = ssum
    v_best = v_sum
    k = next_ready(D, T, p, side, T_ASSIGN, 0)
    while k < nab:
        c = ABL[p, side, k]
        k = next_ready(D, T, p, side, T_ASSIGN, k + 1)
        n = CT[c, o + F.SHIFT]
        for j in range(1, n + 1):
            t = ssum + j
            if t <= NSEC and AV[p, side, t] > v_best:
                v_best = AV[p, side, t]
                t_best = t
                shift_card = c
            t = ssum - j
            if R[R_SHIFT_DOWN] != 0 and t >= 1 and AV[p, side, t] > v_best:
                v_best = AV[p, side, t]
                t_best = t
                shift_card = c
        if CT[c, o + F.DOUBLE] != 0 and dbl_card < 0:
            dbl_card = c
    tgt = ssum
    use_shift = False
    if shift_card >= 0 and v_best > val:
        mode = 1
        val = v_best
        tgt = t_best
        use_shift = True
    if dbl_card >= 0:
        o1 = 2.0 * v_best
        o2 = 2.0 * AV[p, side, d1] + AV[p, side, d2]
        o3 = AV[p, side, d1] + 2.0 * AV[p, side, d2]
        if o1 > val:
            mode = 2
            val = o1
            tgt = t_best
            use_shift = shift_card >= 0
        if o2 > val:
            mode = 3
            val = o2
            tgt = ssum
            use_shift = False
        if o3 > val:
            mode = 4
            val = o3
            tgt = ssum
            use_shift = False
    return mode, tgt, shift_card if use_shift else -1, dbl_card if mode >= 2 else -1


@jit_plain_ints
def choose_set_die(T, p, w, side, bonus_credits):
    """Set-die charge (before the roll): returns (die index 0/1, face) or (-1, 0) when it does not pay.
    A free die is set to the face with the best expected assignment value (the other die unknown, or
    already set); it pays if that beats not setting, counting the card's bonus credits."""
    AV = T.AV
    from_d1 = T.GS[ST.DSET1] != 0
    from_d2 = T.GS[ST.DSET2] != 0
    if from_d1 and from_d2:
        return -1, 0
    wc = weight_c(T, p, w)
    if from_d1 or from_d2:
        fixed = T.GS[ST.D1] if from_d1 else T.GS[ST.D2]
        e0 = 0.0
        bv = NEG
        bf = 0
        for face in range(1, 7):
            x = best_plain(AV, p, side, fixed, face)
            e0 += x / 6.0
            if x > bv:
                bv = x
                bf = face
        die = 1 if from_d1 else 0
    else:
        e0 = 0.0
        bv = NEG
        bf = 0
        for face in range(1, 7):
            x = 0.0
            for u in range(1, 7):
                x += best_plain(AV, p, side, face, u) / 6.0
            e0 += x / 6.0
            if x > bv:
                bv = x
                bf = face
        die = 0
    if bv - e0 + bonus_credits * wc > 0:
        return die, bf
    return -1, 0


@jit_plain_ints
def choose_reroll(T, p, w, side, d1, d2, bonus_credits):
    """Reroll charge (after the roll): the die whose reroll has the best expected value; fires if that
    beats keeping the dice (counting the card's bonus credits). Returns die index or -1."""
    AV = T.AV
    cur = best_plain(AV, p, side, d1, d2)
    e1 = 0.0
    e2 = 0.0
    for u in range(1, 7):
        e1 += best_plain(AV, p, side, u, d2) / 6.0
        e2 += best_plain(AV, p, side, d1, u) / 6.0
    wc = weight_c(T, p, w)
    die = 0
    e = e1
    if e2 > e1:
        die = 1
        e = e2
    if e - cur + bonus_credits * wc > 1e-9:
        return die
    return -1


@jit_plain_ints_inline
def leader_vp(D, T):
    """The highest VP at the table."""
    PS = T.PS
    lead = 0
    for q in range(D.R[R_P]):
        if PS[q, PL.VP] > lead:
            lead = PS[q, PL.VP]
    return lead


@jit_plain_ints_inline
def horizon(D, T, w):
    """Rounds a new ship is expected to keep paying: (trigger - leader VP) / vp_per_round, in [1, max]."""
    lead = leader_vp(D, T)
    h = (D.R[R_TRIGGER] - lead) / w[W_VPR]
    if h < 1.0:
        h = 1.0
    if h > w[W_HMAX]:
        h = w[W_HMAX]
    return h


@jit_plain_ints_inline
def gain_rate(CT, VB, VR, PRp, BDp, np1, k):
    """Policy gain per round (before the horizon) of stationing ship k: sector odds x (new blue side -
    replaced blue side + replaced card's red side on the np1 others' turns), from one player's views
    VB / VR = VALS[p, phase, BLUE / RED], PRp = PR[p], BDp = BD[p]. About NEG (see `closed`) when the
    sector is closed by a colony. Arithmetic instead of branches: a buy scan runs this on every display
    card, and mispredicted branches at the end of its chain of loads were most of the scan's cost."""
    pos = CT[k, F.SECTOR]
    old = BDp[pos, B_STATION]
    o = max(old, 0)
    rate = PRp[pos] * (VB[k] + (old >= 0) * 1.0 * (np1 * VR[o] - VB[o]))
    return rate + (BDp[pos, B_COLONY] != 0) * NEG


@jit_plain_ints_inline
def closed(rate):
    """A gain_rate / colony_rate that marks an option as impossible."""
    return rate < 0.5 * NEG


@jit_plain_ints_inline
def ship_rate(D, T, p, k):
    """gain_rate of ship k for player p in its current phase."""
    ph = T.PS[p, PL.PHASE]
    return gain_rate(D.CT, D.VALS[p, ph, BLUE], D.VALS[p, ph, RED], D.PR[p], T.BD[p], D.R[R_P] - 1, k)


@jit_plain_ints_inline
def colony_rate(D, T, p, q):
    """Per-round change of p's sector rewards that colony q would cause (its blue side lost, plus the
    deployed card's red side when colonies deploy); `closed` when bought or the sector is already closed."""
    COLT, R, VALS, PR = D.COLT, D.R, D.VALS, D.PR
    PS, BD, COLAV = T.PS, T.BD, T.COLAV
    ph = PS[p, PL.PHASE]
    pos = COLT[q, C_SECTOR]
    old = BD[p, pos, B_STATION]
    o = max(old, 0)
    has_old = (old >= 0) * 1.0
    red = (R[R_P] - 1) * VALS[p, ph, RED, o] if R[R_COLONY_DEPLOYS] != 0 else 0.0
    rate = PR[p, pos] * has_old * (red - VALS[p, ph, BLUE, o])
    return rate + (COLAV[q] == 0 or BD[p, pos, B_COLONY] != 0) * NEG


@jit_plain_ints
def choose_buy(D, T, p, w, code, mask, credits, pay_all, allow_colony):
    """A heuristic's buy for player p with `credits`: NO, l*DSZ+j (display slot) or COLONY+q (colony q).
    pay_all: the normal buy (spends all credits); else an ability buy paying the cost only. Only what
    p's restrictions allow is considered (decisions.forbidden): Level III ships and colonies."""
    levels = 2 if mask & NO_LEVEL3 else 3
    allow_colony = allow_colony and mask & NO_COLONIES == 0
    if code == GREEDY:
        return buy_greedy(D, T, p, credits, levels, allow_colony)
    return buy_scored(D, T, p, w, credits, pay_all, levels, allow_colony)


@jit_plain_ints
def buy_greedy(D, T, p, credits, levels, allow_colony):
    """greedy_vp: the affordable colony with most VP, else the affordable ship with most printed VP;
    with neither it saves up, unless it can afford every legal option (saving unlocks nothing): then
    the ship of best per-round gain. Display levels below `levels` only."""
    CT, COLT, R = D.CT, D.COLT, D.R
    DISP = T.DISP
    dsz = R[R_DISPLAY]
    best = -1
    bs = 0.0
    maxcost = 0      # dearest legal option (affordable or not)
    fallback = -1    # best-rate affordable ship
    fbs = NEG
    for lv in range(levels):
        for j in range(dsz):
            k = DISP[lv, j]
            if k < 0:
                continue
            rate = ship_rate(D, T, p, k)
            if closed(rate):
                continue
            cost = CT[k, F.COST]
            maxcost = max(maxcost, cost)
            if cost > credits:
                continue
            vp = CT[k, F.VP] + CT[k, NSIDE + F.VP]
            sc = 0.0 if vp <= 0 else vp * 100.0 + cost
            if rate > fbs:
                fbs = rate
                fallback = lv * dsz + j
            if sc > bs:
                bs = sc
                best = lv * dsz + j
    if allow_colony:
        for q in range(R[R_NCOL]):
            if closed(colony_rate(D, T, p, q)):
                continue
            cost = COLT[q, C_COST]
            maxcost = max(maxcost, cost)
            sc = 100000.0 + COLT[q, C_VP]
            if cost <= credits and sc > bs:
                bs = sc
                best = 1000 + q
    if best < 0 and credits >= maxcost:
        return fallback
    return best


@jit_plain_ints
def covers_every_option(D, T, p, credits, levels, allow_colony):
    """Whether `credits` pay for every option p could legally buy from what is on offer: the ships on
    the display (levels below `levels`) outside p's colony sectors and the colonies still open to p.
    Dearest level first, so the first Level III card usually decides it (this runs on every buy)."""
    CT, COLT, R = D.CT, D.COLT, D.R
    DISP, BDp = T.DISP, T.BD[p]
    for lv in range(levels - 1, -1, -1):
        for j in range(R[R_DISPLAY]):
            k = DISP[lv, j]
            if k >= 0 and CT[k, F.COST] > credits and BDp[CT[k, F.SECTOR], B_COLONY] == 0:
                return False
    if allow_colony:
        for q in range(R[R_NCOL]):
            if COLT[q, C_COST] > credits and not closed(colony_rate(D, T, p, q)):
                return False
    return True


@jit_plain_ints
def buy_terms(D, T, p, w, credits, pay_all, levels, allow_colony):
    """engine's / weighted's terms of a buy's score benefit - beta*cost - waste*(credits left): (H, the
    worth of a VP, beta, waste), a ship's benefit being its rate x H rounds, a colony's its VP plus its
    rate x H (see the module doc); the benefit alone once the credits cover every option on offer."""
    ph = T.PS[p, PL.PHASE]
    H = horizon(D, T, w)
    wv = w[W_V0 + 3 * ph]
    beta = H / w[W_HMAX] * w[W_C0 + 3 * ph]
    waste = w[W_WASTE] if pay_all else 0.0
    # Saved credits are worth their price only while saving can still unlock an option. A normal buy
    # spends all credits whatever it takes, so once they cover the dearest option on offer, waiting
    # gains nothing and the buy is judged by its benefit alone (greedy_vp's rule too). Without this,
    # waste x (credits left) grew with every round of saving and no buy ever scored above zero again:
    # 2-player engine games ran to the max_rounds stop holding hundreds of credits (issue #9).
    if pay_all and covers_every_option(D, T, p, credits, levels, allow_colony):
        beta = 0.0
        waste = 0.0
    return H, wv, beta, waste


@jit_plain_ints_inline
def ship_score(CT, VB, VR, PRp, BDp, np1, k, credits, H, beta, waste):
    """A ship's buy score (buy_terms; the other arguments as gain_rate's)."""
    cost = CT[k, F.COST]
    return gain_rate(CT, VB, VR, PRp, BDp, np1, k) * H - beta * cost - waste * (credits - cost)


@jit_plain_ints_inline
def colony_score(D, T, p, q, credits, H, wv, beta, waste):
    """A colony's buy score (buy_terms)."""
    cost = D.COLT[q, C_COST]
    return wv * D.COLT[q, C_VP] + H * colony_rate(D, T, p, q) - beta * cost - waste * (credits - cost)


@jit_plain_ints
def buy_scored(D, T, p, w, credits, pay_all, levels, allow_colony):
    """engine / weighted: the buy on offer of best positive score (buy_terms): NO, a display slot or
    COLONY + q."""
    H, wv, beta, waste = buy_terms(D, T, p, w, credits, pay_all, levels, allow_colony)
    CT, DISP, ph = D.CT, T.DISP, T.PS[p, PL.PHASE]
    VB, VR, PRp, BDp, np1 = D.VALS[p, ph, BLUE], D.VALS[p, ph, RED], D.PR[p], T.BD[p], D.R[R_P] - 1
    dsz = D.R[R_DISPLAY]
    best = -1
    bs = 0.0
    for lv in range(levels):
        for j in range(dsz):
            k = DISP[lv, j]
            if k < 0 or CT[k, F.COST] > credits:  # decided two loads in: a mispredict here costs little
                continue
            sc = ship_score(CT, VB, VR, PRp, BDp, np1, k, credits, H, beta, waste)
            # best = argmax in arithmetic: a branch here would be decided late, after the whole chain
            better = sc > bs
            best += better * (lv * dsz + j - best)
            bs = max(bs, sc)
    if allow_colony:
        for q in range(D.R[R_NCOL]):
            if D.COLT[q, C_COST] > credits:
                continue
            sc = colony_score(D, T, p, q, credits, H, wv, beta, waste)
            better = sc > bs
            best += better * (COLONY + q - best)
            bs = max(bs, sc)
    return best


@jit_plain_ints
def buy_index(D, T, p, w, mask, credits, pay_all, options, n):
    """buy_scored's choice among the n listed buy options (NO first, then affordable ships outside p's
    colony sectors and open colonies, in buy_scored's order, less what p's restrictions forbid): its
    index. A buy decision runs every turn, so it scores the listed options rather than the display
    again (what the listing left out never scores above zero)."""
    levels = 2 if mask & NO_LEVEL3 else 3
    allow_colony = (pay_all or D.R[R_ABUY_COL] != 0) and mask & NO_COLONIES == 0
    H, wv, beta, waste = buy_terms(D, T, p, w, credits, pay_all, levels, allow_colony)
    CT, ph = D.CT, T.PS[p, PL.PHASE]
    VB, VR, PRp, BDp, np1 = D.VALS[p, ph, BLUE], D.VALS[p, ph, RED], D.PR[p], T.BD[p], D.R[R_P] - 1
    DISP, dsz = T.DISP, D.R[R_DISPLAY]
    lv = 0  # display option lv * dsz + j is slot (lv, j); they come in slot order
    best = 0
    bs = 0.0
    for i in range(1, n):
        o = options[i]
        if o >= COLONY:
            sc = colony_score(D, T, p, o - COLONY, credits, H, wv, beta, waste)
        else:
            while o >= (lv + 1) * dsz:
                lv += 1
            sc = ship_score(CT, VB, VR, PRp, BDp, np1, DISP[lv, o - lv * dsz], credits, H, beta, waste)
        better = sc > bs
        best += better * (i - best)
        bs = max(bs, sc)
    return best


@jit_plain_ints
def choose_claim(D, T, p, w, code, lv):
    """A heuristic's free card of level lv+1 from the display: slot index j or NO (none legal / not
    worth it: engine and weighted decline a ship that would not gain)."""
    CT, R = D.CT, D.R
    DISP, BD = T.DISP, T.BD
    greedy = code == GREEDY
    H = horizon(D, T, w)
    best = NO
    bs = NEG
    for j in range(R[R_DISPLAY]):
        k = DISP[lv, j]
        if k < 0 or BD[p, CT[k, F.SECTOR], B_COLONY] != 0:
            continue
        if greedy:
            sc = (CT[k, F.VP] + CT[k, NSIDE + F.VP]) * 100.0 + CT[k, F.COST]
        else:
            sc = ship_rate(D, T, p, k) * H
            if sc <= 0:
                continue
        if sc > bs:
            bs = sc
            best = j
    return best


@jit_plain_ints
def pos_value(D, T, p, side, s):
    """Policy worth of one activation of sector position s on `side` (no arrows)."""
    VALS = D.VALS
    PS, BD, DEP = T.PS, T.BD, T.DEP
    ph = PS[p, PL.PHASE]
    if side == BLUE:
        c = BD[p, s, B_STATION]
        if c < 0 or BD[p, s, B_COLONY] != 0:
            return 0.0
        return VALS[p, ph, BLUE, c]
    v = 0.0
    for i in range(BD[p, s, B_NDEP]):
        v += VALS[p, ph, RED, DEP[p, s, i]]
    return v


@jit_plain_ints
def swap_gain(D, T, p, a, b):
    """Per-round gain of swapping everything in sectors a and b."""
    R, PR = D.R, D.PR
    da = PR[p, a] - PR[p, b]
    blue = da * (pos_value(D, T, p, BLUE, b) - pos_value(D, T, p, BLUE, a))
    red = da * (pos_value(D, T, p, RED, b) - pos_value(D, T, p, RED, a)) * (R[R_P] - 1)
    return blue + red


@jit_plain_ints
def choose_swap(D, T, p, c, side):
    """Swap card c's two sectors when that gains per round, or costs nothing while the card pays
    credits per cube placed on it (its cubes are then worth refilling)."""
    o = side * NSIDE
    g = swap_gain(D, T, p, D.CT[c, o + F.SWAP_A], D.CT[c, o + F.SWAP_B])
    return YES if g > 1e-9 or (g > -1e-9 and D.CT[c, o + F.ON_PLACE] > 0) else NO


@jit_plain_ints
def choose_exchange(D, T, p, c, side, a):
    """The exchange partner of card c (sector a; stationed if side is BLUE, else deployed) of best
    per-round gain, or NO when none gains. A stationed card takes another station; a deployed one a
    station in any sector, its own included (rules.exchange any_station_card), or another deployed
    card (same_kind)."""
    if side == BLUE or D.R[R_EXCHANGE] == EXCH_SAME_KIND:
        s, i, _ = best_exchange(D, T, p, c, side, a)
    else:
        s, i, _ = best_station_for_deployed(D, T, p, c, a)
    return NO if s < 0 else exchange(s, i)


@jit_plain_ints
def choose_place(D, T, p, c):
    """The card (other than the firing card c) where a placed cube is worth most, or NO if none gains."""
    t, ts, _ = cube_target(D, T, p, c)
    return NO if t < 0 else cube(t, ts)


@jit_plain_ints
def choose_move_source(D, T, p, c):
    """The card (other than the firing card c) whose cube is worth least, when moving it to the card
    where it is worth most (choose_move_target) gains; else NO."""
    src, sv = cube_source(D, T, p, c)
    if src < 0:
        return NO
    t, _, tv = cube_target(D, T, p, src)
    return NO if t < 0 or tv <= sv else src


@jit_plain_ints
def choose_move_target(D, T, p, src):
    """Where the cube moved from card src is worth most (choose_move_source made sure there is one)."""
    t, ts, _ = cube_target(D, T, p, src)
    return cube(t, ts)


@jit_plain_ints
def best_exchange(D, T, p, c, side, a):
    """Exchange card c (at sector a, stationed if side is BLUE, else deployed) with a card in the same
    kind of position elsewhere: returns (sector, deployed index or -1, gain)."""
    R, VALS, PR = D.R, D.VALS, D.PR
    PS, BD, DEP = T.PS, T.BD, T.DEP
    ph = PS[p, PL.PHASE]
    mult = 1.0 if side == BLUE else (R[R_P] - 1) * 1.0
    vc = VALS[p, ph, side, c]
    bs = 1e-9
    bsec = -1
    bidx = -1
    for s in range(1, NSEC + 1):
        if s == a:
            continue
        if side == BLUE:
            t = BD[p, s, B_STATION]
            if t < 0 or BD[p, s, B_COLONY] != 0:
                continue
            vt = VALS[p, ph, BLUE, t]
            g = mult * (PR[p, a] * (vt - vc) + PR[p, s] * (vc - vt))
            if g > bs:
                bs = g
                bsec = s
                bidx = -1
        else:
            for i in range(BD[p, s, B_NDEP]):
                t = DEP[p, s, i]
                vt = VALS[p, ph, RED, t]
                g = mult * (PR[p, a] * (vt - vc) + PR[p, s] * (vc - vt))
                if g > bs:
                    bs = g
                    bsec = s
                    bidx = i
    return bsec, bidx, bs


@jit_plain_ints
def cube_target(D, T, p, exclude):
    """Best card of p to receive a charge cube (room left, not `exclude`): (card, side, worth)."""
    CT, VALS = D.CT, D.VALS
    PS, BD, DEP, CUBES = T.PS, T.BD, T.DEP, T.CUBES
    ph = PS[p, PL.PHASE]
    best = -1
    bside = 0
    bv = 0.0
    for s in range(1, NSEC + 1):
        c = BD[p, s, B_STATION]
        if c >= 0 and c != exclude and BD[p, s, B_COLONY] == 0:
            if CUBES[p, c] < CT[c, F.CAP] and VALS[p, ph, CUBE + BLUE, c] > bv:
                bv = VALS[p, ph, CUBE + BLUE, c]
                best = c
                bside = BLUE
        for i in range(BD[p, s, B_NDEP]):
            c = DEP[p, s, i]
            if c != exclude and CUBES[p, c] < CT[c, NSIDE + F.CAP] and VALS[p, ph, CUBE + RED, c] > bv:
                bv = VALS[p, ph, CUBE + RED, c]
                best = c
                bside = RED
    return best, bside, bv


@jit_plain_ints
def cube_source(D, T, p, exclude):
    """The card of p whose cube is worth least (to move it elsewhere): (card, worth) or (-1, 0)."""
    VALS = D.VALS
    PS, BD, DEP, CUBES = T.PS, T.BD, T.DEP, T.CUBES
    ph = PS[p, PL.PHASE]
    best = -1
    bv = 1e18
    for s in range(1, NSEC + 1):
        c = BD[p, s, B_STATION]
        if c >= 0 and c != exclude and BD[p, s, B_COLONY] == 0 and CUBES[p, c] > 0:
            if VALS[p, ph, CUBE + BLUE, c] < bv:
                bv = VALS[p, ph, CUBE + BLUE, c]
                best = c
        for i in range(BD[p, s, B_NDEP]):
            c = DEP[p, s, i]
            if c != exclude and CUBES[p, c] > 0 and VALS[p, ph, CUBE + RED, c] < bv:
                bv = VALS[p, ph, CUBE + RED, c]
                best = c
    if best < 0:
        return -1, 0.0
    return best, bv


@jit_plain_ints
def production(D, T, p):
    """Own credits per round: income + sector odds x credits of every activation (own and others' turns)."""
    R, PR = D.R, D.PR
    PS, AC = T.PS, T.AC
    v = PS[p, PL.INC] * 1.0
    for s in range(1, NSEC + 1):
        v += PR[p, s] * (AC[p, BLUE, s, A_C] + (R[R_P] - 1) * AC[p, RED, s, A_C])
    return v


@jit_plain_ints
def wants_switch(D, T, p, w):
    """engine policy: growth -> VP mode when its production or the leader's VP reaches the thresholds."""
    lead = leader_vp(D, T)
    return lead >= w[W_SWITCH_VP] or production(D, T, p) >= w[W_SWITCH_PROD]


@jit_plain_ints
def best_station_for_deployed(D, T, p, c, a):
    """Exchange partner for a deployed card c (in sector a) under rules.exchange any_station_card: a
    stationed card t of sector s, then deployed in a (paying its red side on the others' turns) while
    c is stationed in s (its blue side on p's turns). Scored like best_exchange (per-round gain at the
    seat's sector odds). Returns (s, -1, gain), s = -1 when no exchange gains."""
    R, VALS, PR = D.R, D.VALS, D.PR
    PS, BD = T.PS, T.BD
    ph = PS[p, PL.PHASE]
    others = R[R_P] - 1.0
    bs = 1e-9
    bsec = -1
    for s in range(1, NSEC + 1):
        t = BD[p, s, B_STATION]
        if t < 0 or BD[p, s, B_COLONY] != 0:
            continue
        g = (others * PR[p, a] * (VALS[p, ph, RED, t] - VALS[p, ph, RED, c])
             + PR[p, s] * (VALS[p, ph, BLUE, c] - VALS[p, ph, BLUE, t]))
        if g > bs:
            bs = g
            bsec = s
    return bsec, -1, bs
