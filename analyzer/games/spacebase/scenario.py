"""Space Base scenario: the YAML schema (rules, policy parameters, every card) and its translation into
the number arrays the kernel reads (`kernel_inputs`). Editing the YAML changes only array contents, so
it never forces a recompile."""
from __future__ import annotations

import re
from typing import ClassVar, Literal

import numpy as np
from pydantic import Field, ValidationError, field_validator, model_validator

from ...kernel import SHARED_POLICIES, SHARED_POLICY_DOCS
from ...scenario import SEARCH_DOCS, SEARCH_POLICY, ScenarioBase, Strict, Weight, search_weights
from . import layout as L
from .decisions import NO_CHARGE_ABILITIES
from .state import TABLES, make_data
from .state import layout as state_layout

PIP = re.compile(r"^(?:<=)?(\d)p$")
MAX_AMOUNT = 9999  # any card number; the kernel's card table is int16 (half the cache of int32)


class Claim(Strict):
    L1: int = Field(0, ge=0, le=MAX_AMOUNT)
    L2: int = Field(0, ge=0, le=MAX_AMOUNT)
    L3: int = Field(0, ge=0, le=MAX_AMOUNT)


class Effect(Strict):
    """What spending a charge does; several keys fire together (e.g. opponents_lose_vp + buy)."""
    shift_up: int = Field(0, ge=0, le=11)      # dice arrow: own summed sector +1..N (must use the sum)
    set_die: int = Field(0, ge=0, le=1)        # before the roll: fix one die's face
    reroll: int = Field(0, ge=0, le=1)         # after the roll: reroll one die (for everyone; red: rules.red_dice_abilities)
    swap: list[int] | None = None              # swap all cards of these two sectors on your board
    exchange: int = Field(0, ge=0, le=1)       # exchange this card's place with another card's (rules.exchange)
    buy: int = Field(0, ge=0, le=MAX_AMOUNT)   # buy N cards paying only their cost
    claim: Claim = Claim()                     # take cards of these levels from the display free
    double: int = Field(0, ge=0, le=1)         # 2X: sum twice, or one die twice more
    opponents_lose_vp: int = Field(0, ge=0, le=MAX_AMOUNT)  # every other player loses N VP (not below 0)
    credits: int = Field(0, ge=0, le=MAX_AMOUNT)
    vp: int = Field(0, ge=0, le=MAX_AMOUNT)
    place_charge: int = Field(0, ge=0, le=MAX_AMOUNT)  # put a cube on any of your cards
    move_charge: int = Field(0, ge=0, le=MAX_AMOUNT)   # move a cube between your cards
    you_win: bool = False                      # instant victory

    @field_validator("swap")
    @classmethod
    def _pair(cls, v):
        if v is not None and (len(v) != 2 or not all(1 <= s <= 12 for s in v) or v[0] == v[1]):
            raise ValueError("swap needs two different sectors 1..12, e.g. [5, 8]")
        return v


class Charge(Strict):
    slots: list[str]                           # "A" = always needed, "<=Np" = needed at N players (pip_squares)
    linked: bool = False                       # linked: all needed squares full, fires once
    effect: Effect
    on_place_credits: int = Field(0, ge=0, le=MAX_AMOUNT)  # credits each time a cube is placed here

    @field_validator("slots")
    @classmethod
    def _squares(cls, v):
        for s in v:
            if s != "A" and not PIP.match(s):
                raise ValueError(f"charge square {s!r}: use 'A' or '<=Np' (N players)")
        return v


class Side(Strict):
    credits: int = Field(0, ge=-MAX_AMOUNT, le=MAX_AMOUNT)
    income: int = Field(0, ge=-MAX_AMOUNT, le=MAX_AMOUNT)
    vp: int = Field(0, ge=-MAX_AMOUNT, le=MAX_AMOUNT)
    arrows: Literal["", "R", "L", "LR"] = ""   # reward arrow: also take the neighbour sector's reward
    claim: Claim = Claim()                     # a reward that claims free cards (e.g. Tereshkova)
    charge: Charge | None = None
    ignored: str = ""                          # printed icon the simulator does not play (see the card's note)


class Starter(Strict):
    id: str
    sector: int = Field(ge=1, le=12)
    blue: Side = Side()
    red: Side = Side()
    status: str = ""
    source: str = ""
    estimated: bool = False
    note: str = ""


class Ship(Starter):
    level: int = Field(ge=1, le=3)
    cost: int = Field(ge=0, le=MAX_AMOUNT)
    name: str = ""


class Colony(Strict):
    id: str
    sector: int = Field(ge=1, le=12)
    cost: int = Field(ge=0)
    vp: int = Field(ge=0)
    status: str = ""
    source: str = ""
    estimated: bool = False
    note: str = ""


class Cards(Strict):
    starters: list[Starter]
    ships: list[Ship]
    colonies: list[Colony]

    @model_validator(mode="after")
    def _check(self):
        if sorted(s.sector for s in self.starters) != list(range(1, 13)):
            raise ValueError("starters: need exactly one starting ship per sector 1..12")
        ids = [c.id for c in self.starters] + [c.id for c in self.ships] + [c.id for c in self.colonies]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError(f"duplicate card ids: {', '.join(sorted(dup))}")
        secs = [c.sector for c in self.colonies]
        if len(set(secs)) != len(secs):
            raise ValueError("colonies: at most one colony per sector")
        return self


class Bonus(Strict):
    credits: int = Field(0, ge=0)
    income: int = Field(0, ge=0)


class LightSpeed(Strict):
    credits: int = Field(15, ge=0)
    income: int = Field(1, ge=0)
    draw_l1: int = Field(4, ge=0, le=8)
    draw_l2: int = Field(2, ge=0, le=8)


class Rules(Strict):
    variant: Literal["standard", "lightspeed"] = Field(
        "standard", description="standard opening (one random Level I ship) or the light-speed variant")
    start_credits: int = Field(5, ge=0, description="standard opening: credits the opening ship is paid from")
    start_income: int = Field(0, ge=0, description="standard opening: starting income")
    turn_order_bonus: list[Bonus] = Field(
        [Bonus(), Bonus(credits=1), Bonus(credits=2), Bonus(income=1), Bonus(income=1)],
        description="credits and income added per turn position (1st, 2nd, ...): the balance question")
    trigger_vp: int = Field(40, ge=1, description="VP that end the game after the round (equal turns)")
    tie_rounds_cap: int = Field(10, ge=0, description="tie rounds among tied players before the win is shared")
    display_size: int = Field(6, ge=1, le=12, description="face-up ships per level")
    colony_deploys_station: bool = Field(
        True, description="the ship stationed where a colony arrives is deployed (false: covered, dead)")
    pip_squares: Literal["at_most", "exactly"] = Field(
        "at_most", description="a '<=Np' charge square is needed when players <= N (at_most) or == N (exactly)")
    arrows_charge: bool = Field(True, description="a reward arrow also takes the neighbour's charge cube")
    dice_arrow_down: bool = Field(False, description="a dice-arrow ability may also move the sum down")
    ability_buy_colonies: bool = Field(False, description="'buy a card' abilities may also buy colonies")
    max_rounds: int = Field(200, ge=1, le=10000, description="safety stop (end_reason 3)")
    lightspeed: LightSpeed = Field(LightSpeed(), description="light-speed opening: credits, income, cards seen")
    exchange: Literal["any_station_card", "same_kind"] = Field(
        "any_station_card",
        description="Exchange ability (help page): any_station_card = this card swaps places with the card "
                    "stationed in any sector; a deployed card takes that sector's station and the other card is "
                    "deployed in its place. same_kind = stationed with stationed, deployed with deployed only.")
    lightspeed_one_per_sector: bool = Field(
        False,
        description="Light-speed opening: at most one bought ship per sector (the help page sets no such "
                    "limit; with two ships of one sector the second is stationed and the first deployed).")
    red_dice_abilities: Literal["others_rolls", "never"] = Field(
        "others_rolls",
        description="Red (others' turns) set-die and reroll abilities: others_rolls = they act on the active "
                    "player's roll; never = only your own roll can be set or rerolled (the help page's "
                    "'before/after your own roll'), so red ones never fire.")


# The heuristics' judgement (docs/adding-a-game.md, "Weights and restrictions"): `weights: {weighted: {...}}`
# for every seat of a policy, `seat_weights` for one. kernel_arrays maps them into the seat's rows of WP,
# VALS and PR: the card values the policies read are tables built here from the credits, income and VP
# weights, so the kernel never reads the weights themselves.
WASTE = Weight("waste", 0.25, 0.0, 2.0, "penalty per credit left unspent by a buy below one's credits "
               "(none once they cover every option on offer)")
HORIZON = (Weight("horizon_max", 12.0, 1.0, 40.0, "rounds a new ship is assumed to pay for, at most"),
           Weight("vp_per_round", 3.0, 0.5, 10.0, "the leader's VP per round, to estimate the rounds left"))
WEIGHTS = {
    "weighted": (Weight("credits", 1.0, 0.1, 10.0, "worth of one credit"),
                 Weight("income", 3.0, 0.0, 10.0, "worth of one income, in credits"),
                 Weight("vp", 2.5, 0.0, 10.0, "worth of one VP, in credits"),
                 Weight("sector_prob", 1.0, 0.0, 1.0, "sector odds: 0 every sector alike, 1 the true dice odds"),
                 WASTE, *HORIZON),
    "engine": (Weight("switch_production", 14.0, 0.0, 60.0, "VP mode once its own credits per round reach this"),
               Weight("switch_leader_vp", 24, 0, 60, "or once any player has this many VP", integer=True),
               WASTE, *HORIZON),
    **search_weights(),
}
# what a seat may be forbidden (`restrict: {SEAT: [...]}`); the order is the kernel's bit order (decisions.py)
RESTRICTIONS = {
    "no_level3": "never buy a Level III ship (normal or ability buy; a free claim stays allowed)",
    "no_charge_abilities": "never use a charge ability (set die, reroll, dice arrow, 2X or any other); "
                           "cubes still fill and pay their on-place credits",
    "no_colonies": "never buy a colony",
}


class SpacebaseScenario(ScenarioBase):
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 5
    # code = index (random 0, scripted 1, then ours); search's is kernel.SEARCH + its seat
    POLICIES: ClassVar[tuple[str, ...]] = (*SHARED_POLICIES, "greedy_vp", "engine", "weighted", SEARCH_POLICY)
    POLICY_DOCS: ClassVar[dict[str, str]] = {**SHARED_POLICY_DOCS,  # policies.py says it in full
        "greedy_vp": "buys the colony or ship with the most VP it can afford, else saves up",
        "engine": "buys income and credits first, then VP once its production or a leader's VP is high",
        "weighted": "scores each buy by the scenario's weights of credits, income and VP against its cost",
        **SEARCH_DOCS}

    WEIGHTS: ClassVar[dict[str, tuple[Weight, ...]]] = WEIGHTS
    RESTRICTIONS: ClassVar[dict[str, str]] = RESTRICTIONS
    ROLLOUT_POLICY: ClassVar[str] = "weighted"
    rules: Rules = Rules()
    cards: Cards

    @classmethod
    def model_validate(cls, obj, *args, **kwargs):
        """Validation whose errors name a card by its id (cards.ships[id=l1-7].cost), not its index."""
        try:
            return super().model_validate(obj, *args, **kwargs)
        except ValidationError as e:
            raise ValidationError.from_exception_data(
                e.title, [_card_error(err, obj) for err in e.errors()]) from None

    @model_validator(mode="after")
    def _check_rules(self):
        if len(self.rules.turn_order_bonus) < self.players:
            raise ValueError(f"rules.turn_order_bonus: needs an entry per turn position ({self.players})")
        return self

    def estimated(self) -> list[str]:
        c = self.cards
        return [x.id for x in [*c.starters, *c.ships, *c.colonies] if x.estimated]


def _card_error(err: dict, data) -> dict:
    """A pydantic error with ("cards", kind, index, ...) in its location turned into
    ("cards", "kind[id=ID]", ...) when that card has an id."""
    loc = err["loc"]
    if len(loc) >= 3 and loc[0] == "cards" and isinstance(loc[2], int):
        try:
            card_id = data["cards"][loc[1]][loc[2]]["id"]
        except (KeyError, IndexError, TypeError):
            card_id = None
        if isinstance(card_id, str):
            loc = ("cards", f"{loc[1]}[id={card_id}]", *loc[3:])
    out = {"type": err["type"], "loc": loc, "input": err["input"]}
    if "ctx" in err:
        out["ctx"] = err["ctx"]
    return out


# ---------------------------------------------------------------------------------------------------
# scenario -> kernel arrays

def sector_odds() -> np.ndarray:
    """Chance that a roll offers sector s (as one face or as the sum); index 0 unused."""
    pr = np.zeros(13)
    for a in range(1, 7):
        for b in range(1, 7):
            offered = {a, b, a + b}
            for s in offered:
                pr[s] += 1 / 36
    return pr


# Fixed card weights (credits, income, VP) for growth phase and VP phase of the policies whose card
# weights are not tunable; weighted's are its weights, in both phases.
GREEDY_W = ((1.0, 2.0, 4.0), (1.0, 2.0, 4.0))
ENGINE_W = ((1.0, 4.0, 0.5), (1.0, 1.0, 3.5))


def _seat_weights(policy: str, w: dict[str, float]):
    if policy == "greedy_vp":
        return GREEDY_W
    if policy == "engine":
        return ENGINE_W
    return ((w["credits"], w["income"], w["vp"]),) * 2


def _needed(ch: Charge, players: int, pip: str) -> int:
    n = 0
    for s in ch.slots:
        if s == "A":
            n += 1
        else:
            k = int(PIP.match(s).group(1))
            n += (players <= k) if pip == "at_most" else (players == k)
    return n


def _ability_value(e: Effect, wc: float, wv: float, mean_cost: list[float], dice: bool = True) -> float:
    """Heuristic worth of firing an ability once, in credits (used only by the policies' estimates).
    dice=False: its set-die / reroll part never acts (red side under red_dice_abilities: never)."""
    v = 0.0
    v += (3.0 * e.set_die + 2.0 * e.reroll) * wc * dice
    v += 1.5 * e.shift_up * wc + (1.0 * wc if e.swap else 0.0)
    v += 3.0 * e.exchange * wc + 3.0 * e.buy * wc + 4.0 * e.double * wc + 0.5 * e.opponents_lose_vp * wv
    v += e.credits * wc + e.vp * wv + 2.0 * e.place_charge * wc + 1.0 * e.move_charge * wc
    v += (e.claim.L1 * mean_cost[0] + e.claim.L2 * mean_cost[1] + e.claim.L3 * mean_cost[2]) * wc
    v += 200.0 if e.you_win else 0.0
    return v


def _fill_side(row: np.ndarray, side: int, s: Side, players: int, pip: str) -> None:
    o = side * L.NSIDE
    row[o + L.F.CREDITS], row[o + L.F.INCOME], row[o + L.F.VP] = s.credits, s.income, s.vp
    row[o + L.F.ARROW] = {"": 0, "R": L.ARROW_R, "L": L.ARROW_L, "LR": L.ARROW_R | L.ARROW_L}[s.arrows]
    row[o + L.F.CL1], row[o + L.F.CL2], row[o + L.F.CL3] = s.claim.L1, s.claim.L2, s.claim.L3
    special = s.claim.L1 + s.claim.L2 + s.claim.L3 > 0
    ch = s.charge
    if ch is not None:
        need = _needed(ch, players, pip)
        e = ch.effect
        row[o + L.F.CAP] = need
        row[o + L.F.LINKED] = int(ch.linked)
        row[o + L.F.ON_PLACE] = ch.on_place_credits
        row[o + L.F.SHIFT], row[o + L.F.SET_DIE], row[o + L.F.REROLL] = e.shift_up, e.set_die, e.reroll
        if e.swap:
            row[o + L.F.SWAP_A], row[o + L.F.SWAP_B] = e.swap
        row[o + L.F.EXCHANGE], row[o + L.F.BUY], row[o + L.F.DOUBLE] = e.exchange, e.buy, e.double
        row[o + L.F.LOSE_VP], row[o + L.F.BONUS_CREDITS], row[o + L.F.BONUS_VP] = e.opponents_lose_vp, e.credits, e.vp
        row[o + L.F.PLACE], row[o + L.F.MOVE], row[o + L.F.WIN] = e.place_charge, e.move_charge, int(e.you_win)
        row[o + L.F.CLAIM1], row[o + L.F.CLAIM2], row[o + L.F.CLAIM3] = e.claim.L1, e.claim.L2, e.claim.L3
        if need > 0:
            special = True
            if e.set_die:
                row[o + L.F.TIMING] = L.T_PREROLL
            elif e.reroll:
                row[o + L.F.TIMING] = L.T_POSTROLL
            elif e.shift_up or e.double:
                row[o + L.F.TIMING] = L.T_ASSIGN
            else:
                row[o + L.F.TIMING] = L.T_FREE
    row[o + L.F.SPECIAL] = int(special)


def card_list(sc: SpacebaseScenario) -> list:
    """Kernel card order: starters, then ships (YAML order). card index - len(starters) = ship index."""
    return [*sc.cards.starters, *sc.cards.ships]


def kernel_inputs(sc: SpacebaseScenario):
    """Numbers only, in a state.Data pack (state.make_data): CT, COLT, R, BONUS, VALS, WP, POL, PR, RM,
    PHASES, LVL_IDS, LVL_N, SCRIPT, LAY."""
    return make_data(*kernel_arrays(sc))


def kernel_arrays(sc: SpacebaseScenario) -> tuple:
    """The arrays of `kernel_inputs` as a plain tuple (state.DATA_FIELDS order)."""
    P = sc.players
    ru = sc.rules
    cards = card_list(sc)
    nst = len(sc.cards.starters)
    nc = len(cards)
    CT = np.zeros((nc, L.NCT), np.int16)
    for i, c in enumerate(cards):
        CT[i, L.F.LEVEL] = getattr(c, "level", 0)
        CT[i, L.F.SECTOR] = c.sector
        CT[i, L.F.COST] = getattr(c, "cost", 0)
        _fill_side(CT[i], L.BLUE, c.blue, P, ru.pip_squares)
        _fill_side(CT[i], L.RED, c.red, P, ru.pip_squares)
    cols = sc.cards.colonies
    COLT = np.zeros((max(len(cols), 1), 3), np.int32)
    for q, c in enumerate(cols):
        COLT[q] = (c.sector, c.cost, c.vp)

    R = np.zeros(L.NR, np.int64)
    R[L.R_P] = P
    R[L.R_START_CREDITS], R[L.R_START_INCOME] = ru.start_credits, ru.start_income
    R[L.R_TRIGGER], R[L.R_COLONY_DEPLOYS] = ru.trigger_vp, int(ru.colony_deploys_station)
    R[L.R_TIE_CAP] = ru.tie_rounds_cap
    R[L.R_VARIANT] = L.VARIANT_LIGHTSPEED if ru.variant == "lightspeed" else L.VARIANT_STANDARD
    R[L.R_DISPLAY], R[L.R_MAX_ROUNDS] = ru.display_size, ru.max_rounds
    R[L.R_ARROW_CHARGES], R[L.R_SHIFT_DOWN] = int(ru.arrows_charge), int(ru.dice_arrow_down)
    R[L.R_LS_CREDITS], R[L.R_LS_INCOME] = ru.lightspeed.credits, ru.lightspeed.income
    R[L.R_LS_L1], R[L.R_LS_L2] = ru.lightspeed.draw_l1, ru.lightspeed.draw_l2
    R[L.R_NSTART], R[L.R_NCARD], R[L.R_NCOL] = nst, nc, len(cols)
    R[L.R_MAXDEP] = nc
    R[L.R_ABUY_COL] = int(ru.ability_buy_colonies)
    R[L.R_EXCHANGE] = L.EXCH_SAME_KIND if ru.exchange == "same_kind" else L.EXCH_ANY_STATION
    R[L.R_LS_ONE_PER_SECTOR] = int(ru.lightspeed_one_per_sector)
    R[L.R_RED_DICE] = L.RED_DICE_NEVER if ru.red_dice_abilities == "never" else L.RED_DICE_OTHERS_ROLLS

    BONUS = np.zeros((max(P, len(ru.turn_order_bonus)), 2), np.int32)
    for k, b in enumerate(ru.turn_order_bonus):
        BONUS[k] = (b.credits, b.income)

    # ship ids per level
    lvl = [[i for i in range(nst, nc) if CT[i, L.F.LEVEL] == v] for v in (1, 2, 3)]
    LVL_N = np.array([len(x) for x in lvl], np.int32)
    LVL_IDS = np.full((3, max(1, LVL_N.max())), -1, np.int32)
    for v in range(3):
        LVL_IDS[v, :LVL_N[v]] = lvl[v]
    mean_cost = [float(CT[x, L.F.COST].mean()) if x else 0.0 for x in lvl]

    # a search seat's tables are its rollout policy's (with the rollout weights): past its branch it plays
    # that policy (kernel.ask_policy), and before, its own decisions never read them
    pols = [sc.rollout_policy if pol == SEARCH_POLICY else pol for pol in sc.seat_policies()]
    searching = [pol == SEARCH_POLICY for pol in sc.seat_policies()]
    POL = sc.policy_codes()
    RM = sc.restrict_masks()
    # the `weighted` policy's weights (`weights: {weighted: ...}`): row P's neutral values (light-speed
    # opening, seat unknown yet), and the horizon of the policies without weights of their own; random and
    # scripted seats get them too, though their decisions never read them
    neutral = {**{w.name: w.default for w in WEIGHTS["weighted"]}, **sc.weights.get("weighted", {})}
    # one row per seat, plus row P: neutral `weighted` values
    WP = np.zeros((P + 1, L.NW), np.float64)
    VALS = np.zeros((P + 1, 2, 4, nc), np.float64)
    PR = np.zeros((P + 1, 13), np.float64)
    odds = sector_odds()
    for seat, pol in enumerate([*pols, "weighted"]):
        if seat < P and pol in WEIGHTS:
            w = sc.rollout_weights_of() if searching[seat] else sc.weights_of(seat)
        else:
            w = neutral
        ws = _seat_weights(pol, w)
        WP[seat, [L.W_C0, L.W_I0, L.W_V0]] = ws[0]
        WP[seat, [L.W_C1, L.W_I1, L.W_V1]] = ws[1]
        WP[seat, L.W_WASTE] = w["waste"] if pol in ("weighted", "engine") else 0.0
        WP[seat, L.W_SWITCH_PROD] = w["switch_production"] if pol == "engine" else 1e9
        WP[seat, L.W_SWITCH_VP] = w["switch_leader_vp"] if pol == "engine" else 1e9
        WP[seat, L.W_HMAX], WP[seat, L.W_VPR] = w["horizon_max"], w["vp_per_round"]
        wprob = w["sector_prob"] if pol == "weighted" else 1.0
        PR[seat, 1:] = (1 - wprob) * odds[1:].mean() + wprob * odds[1:]
        # a seat that may not use charge abilities values its cubes at their on-place credits only
        abilities = seat == P or not RM[seat] & NO_CHARGE_ABILITIES
        for ph in range(2):
            wc, wi, wv = ws[ph]
            for i, c in enumerate(cards):
                for side, s in ((L.BLUE, c.blue), (L.RED, c.red)):
                    v = wc * s.credits + wi * s.income + wv * s.vp
                    v += (s.claim.L1 * mean_cost[0] + s.claim.L2 * mean_cost[1] + s.claim.L3 * mean_cost[2]) * wc
                    cap = CT[i, side * L.NSIDE + L.F.CAP]
                    if s.charge is not None and cap > 0:
                        dice = side == L.BLUE or ru.red_dice_abilities == "others_rolls"
                        per = _ability_value(s.charge.effect, wc, wv, mean_cost, dice) if abilities else 0.0
                        cube = (per / cap if s.charge.linked else per) + s.charge.on_place_credits * wc
                        VALS[seat, ph, L.CUBE + side, i] = cube
                        v += cube
                    VALS[seat, ph, side, i] = v
    SCRIPT = sc.script_codes()
    lay = state_layout(P, nc, COLT.shape[0], ru.display_size, LVL_IDS.shape[1])
    LAY = np.array([lay.starts[name] for name in TABLES] + [lay.size], np.int64)
    PHASES = np.array([2 if pol == "engine" else 1 for pol in pols], np.int64)  # engine: growth, then VP
    return (CT, COLT, R, BONUS, VALS, WP, POL, PR, RM, PHASES, LVL_IDS, LVL_N, SCRIPT, LAY)
