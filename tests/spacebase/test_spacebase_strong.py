"""Space Base's strong-play contract (docs/adding-a-game.md, "Weights and restrictions"): each restriction
driven through the game's turn at its boundary (what it forbids and the nearest thing it allows), for a
policy that chooses from the listed options (scripted) and for the heuristics, which answer unlisted; and
each weight moving the decision it names when one seat's weights change."""
import numpy as np
import pytest

import analyzer
from analyzer.games.spacebase import GAME
from analyzer.games.spacebase import layout as L
from analyzer.games.spacebase.scenario import card_list, kernel_arrays
from analyzer.games.spacebase.state import DATA_FIELDS, ST

RESTRICTED = {"restrict": {0: ["no_level3", "no_charge_abilities", "no_colonies"]}}


def sets(restrict=(), **weights):
    """--set overrides: seat 0's restrictions and seat 0's weights."""
    out = [f"restrict={{0: [{', '.join(restrict)}]}}"] if restrict else []
    return out + [f"seat_weights.0.{k}={v}" for k, v in weights.items()]


def bought(t, cid):
    """Whether seat 0 bought ship cid (it is stationed in its sector)."""
    c = t.idx[cid]
    return t.station_of(0, t.cards[c].sector) == c


# ------------------------------------------------------------------------------------ no_level3


@pytest.mark.parametrize("cid,restricted,buys", [("l3-34", False, True), ("l3-34", True, False),
                                                 ("l2-48", True, True)])
def test_no_level3_leaves_level3_out_of_the_listed_buys(position, cid, restricted, buys):
    """A scripted seat with 14 credits and one ship on offer: option 1 buys it. Restricted, a Level III
    ship is not listed: "no buy" is the only option, taken without asking; a Level II ship still is."""
    t = position(market=False, players=2, policies=["scripted"],
                 sets=["script=[0, 0, 1]", *sets(["no_level3"] if restricted else [])])
    t.offer(cid)
    t.PS[0, L.PL.CRED] = 12
    t.turn(0, 2, 3)                       # + 2 credits (faces 2 and 3): 14
    assert bought(t, cid) == buys
    assert t.cred(0) == (0 if buys else 14)


@pytest.mark.parametrize("restricted,ship", [(False, "l3-34"), (True, "l2-48")])
def test_no_level3_heuristic_buys_the_best_level2_ship_instead(position, restricted, ship):
    """greedy_vp buys the ship with most printed VP: l3-34 (14 VP) over l2-48 (11 VP); restricted, l2-48."""
    t = position(market=False, players=2, policies=["greedy_vp"], sets=sets(["no_level3"] if restricted else []))
    t.offer("l2-48")
    t.offer("l3-34")
    t.PS[0, L.PL.CRED] = 12
    t.turn(0, 2, 3)
    assert bought(t, ship) and t.cred(0) == 0


# ------------------------------------------------------------------------------------ no_colonies


@pytest.mark.parametrize("restricted,colony", [(False, True), (True, False)])
def test_no_colonies_leaves_colonies_out_of_the_heuristic_buy(position, restricted, colony):
    """greedy_vp buys an affordable colony before any ship: colony-1 (cost 9) over l2-48 (cost 9)."""
    t = position(market=False, players=2, policies=["greedy_vp"], sets=sets(["no_colonies"] if restricted else []))
    q = t.offer_colony(1)
    t.offer("l2-48")
    t.PS[0, L.PL.CRED] = 7
    t.turn(0, 2, 3)
    assert (int(t.COLOWN[q]) == 0) == colony
    assert bought(t, "l2-48") != colony and t.cred(0) == 0


@pytest.mark.parametrize("restricted", [False, True])
def test_no_colonies_leaves_colonies_out_of_the_listed_buys(position, restricted):
    t = position(market=False, players=2, policies=["scripted"],
                 sets=["script=[0, 0, 1]", *sets(["no_colonies"] if restricted else [])])
    q = t.offer_colony(1)
    t.PS[0, L.PL.CRED] = 7
    t.turn(0, 2, 3)
    assert (int(t.COLOWN[q]) == 0) != restricted
    assert t.cred(0) == (9 if restricted else 0)


# ------------------------------------------------------------------------------------ no_charge_abilities


@pytest.mark.parametrize("restricted", [False, True])
def test_no_charge_abilities_leaves_set_die_unasked(position, restricted):
    """Gagarin (set a die, + 1 credit) charged: option 1 sets die 1 to 1. Restricted, "no" is the only
    option and is not asked, so the script's 1 goes to the dice: the sum (4 + 4: starter-8, 3 credits)."""
    t = position(market=False, players=2, policies=["scripted"],
                 sets=["script=[1, 0, 0]", *sets(["no_charge_abilities"] if restricted else [])])
    c = t.put(0, "l3-2", cubes=1)
    t.turn(0, 4, 4)
    assert int(t.PS[0, L.PL.ABIL]) == (0 if restricted else 1)
    if restricted:
        assert int(t.v[ST.DSET1]) == 0 and t.cred(0) == 3 and int(t.CUBES[0, c]) == 1
    else:
        assert (int(t.v[ST.DSET1]), int(t.v[ST.D1])) == (1, 1)


@pytest.mark.parametrize("restricted,credits", [(False, 6), (True, 3)])
def test_no_charge_abilities_heuristic_keeps_its_2x_charge(position, restricted, credits):
    """Aksyonov's 2X ready, dice 2 and 5: the sum 7 twice (3 + 3 credits) unrestricted; restricted the
    plain sum (3), the cube kept."""
    t = position(market=False, players=2, policies=["weighted"],
                 sets=sets(["no_charge_abilities"] if restricted else []))
    aks = t.put(0, "l2-31", cubes=1)
    t.turn(0, 2, 5)
    assert t.cred(0) == credits and int(t.CUBES[0, aks]) == (1 if restricted else 0)


@pytest.mark.parametrize("policy", ["random", "greedy_vp", "engine", "weighted"])
def test_restricted_seat_never_takes_what_it_may_not_in_whole_games(policy):
    """Over whole games seat 0, under every restriction, buys no Level III ship and no colony and fires
    no ability, while the unrestricted seats do; nothing is ever lifted (every decision keeps its NO)."""
    sc = analyzer.load_scenario(GAME, players=3, policy=[policy], set=RESTRICTED)
    ids = np.arange(40, dtype=np.int64)
    batch = GAME.run_batch(sc, 5, ids)
    assert batch.extra["abilities"][:, 0].sum() == 0 and batch.extra["colonies"][:, 0].sum() == 0
    assert batch.extra["abilities"][:, 1:].sum() > 0 and batch.extra["colonies"][:, 1:].sum() > 0
    assert batch.extra["restrict_lifted"].sum() == 0
    level3 = {0: 0, 1: 0}
    for g in ids[:8]:
        ev = GAME.run_batch(sc, 5, np.array([g], np.int64), trace=True).events
        for r in ev:
            if r[0] in (L.E_BUY, L.E_ABILITY_BUY) and r[5] == 3:
                level3[min(int(r[1]), 1)] += 1
    assert level3[0] == 0 and level3[1] > 0


# ------------------------------------------------------------------------------------ weights


def buy_with(position, policy, offers, weights):
    """What seat 0 (`policy`, its seat_weights `weights`) buys with 8 credits from `offers` on its turn
    (dice 2 and 3: + 2 credits): the ship bought, or None."""
    t = position(market=False, players=2, policies=[policy], sets=sets(**weights))
    for cid in offers:
        t.offer(cid)
    t.PS[0, L.PL.CRED] = 6
    t.turn(0, 2, 3)
    got = [cid for cid in offers if bought(t, cid)]
    assert len(got) <= 1 and t.cred(0) == (0 if got else 8)
    return got[0] if got else None


SECTOR10 = ["l2-37", "l2-38", "l2-40"]  # sector 10: 9 credits (cost 7), 3 income (7), 5 VP (8)


@pytest.mark.parametrize("weights,ship", [({}, "l2-40"), ({"income": 5}, "l2-38"), ({"vp": 1}, "l2-37"),
                                          ({"credits": 2}, "l2-37")])
def test_weighted_card_weights_choose_the_ship_of_their_reward(position, weights, ship):
    """Three ships of one sector: VP is worth most at the defaults (5 x 2.5), income at 5 a unit,
    credits once VP is worth 1 or a credit 2."""
    assert buy_with(position, "weighted", SECTOR10, weights) == ship


@pytest.mark.parametrize("sector_prob,ship", [(1, "l2-25"), (0, "l2-45")])
def test_weighted_sector_prob_weighs_the_dice_odds(position, sector_prob, ship):
    """l2-25 (sector 7: 6 credits) against l2-45 (sector 12: 11 credits, the sum of two sixes only): the
    true odds prefer sector 7; with every sector alike the bigger reward wins."""
    assert buy_with(position, "weighted", ["l2-25", "l2-45"], {"sector_prob": sector_prob}) == ship


@pytest.mark.parametrize("policy", ["weighted", "engine"])
@pytest.mark.parametrize("weights,buys", [({}, True), ({"waste": 2}, False), ({"vp_per_round": 4}, False),
                                          ({"horizon_max": 5}, False)])
def test_scored_buy_weights_move_a_marginal_buy(position, policy, weights, buys):
    """l1-3 (cost 2, sector 1: 1 credit like the starter it replaces, whose red side it adds) with 8 credits while l3-34 (cost 14) is out of reach: bought at the defaults; not when the 6 credits left
    unspent cost more (waste), when fewer rounds are left to pay it back (vp_per_round: 40 VP / 4 per
    round = 10 rounds), or when a ship pays for at most 5 rounds (horizon_max)."""
    assert (buy_with(position, policy, ["l1-3", "l3-34"], weights) == "l1-3") == buys


@pytest.mark.parametrize("leader_vp,switch_at,phase", [(24, 24, 1), (23, 24, 0), (24, 25, 0)])
def test_engine_switch_leader_vp_is_inclusive(position, leader_vp, switch_at, phase):
    """The engine policy turns to VP mode at the start of its turn once any player has switch_leader_vp."""
    t = position(market=False, players=2, policies=["engine"], sets=sets(switch_leader_vp=switch_at))
    t.PS[1, L.PL.VP] = leader_vp
    t.turn(0, 2, 3)
    assert int(t.PS[0, L.PL.PHASE]) == phase


@pytest.mark.parametrize("switch_at,phase", [(3.1, 1), (3.2, 0)])
def test_engine_switch_production(position, switch_at, phase):
    """...or once its own credits per round reach switch_production: 3.17 on the starting board of a
    2-player game (odds x the starters' credits, its turns and the other's)."""
    t = position(market=False, players=2, policies=["engine"], sets=sets(switch_production=switch_at))
    t.turn(0, 2, 3)
    assert int(t.PS[0, L.PL.PHASE]) == phase


def test_a_seat_without_charge_abilities_values_cubes_at_their_on_place_credits_only():
    """The heuristics' card values (scenario.kernel_arrays' VALS): a seat that may not fire counts a
    cube at what placing it pays, nothing for the ability: Gagarin's set die is worth nothing to seat 0,
    something to seat 1."""
    sc = analyzer.load_scenario(GAME, players=2, policy=["weighted"], set={"restrict": {0: ["no_charge_abilities"]}})
    vals = kernel_arrays(sc)[DATA_FIELDS.index("VALS")]
    gagarin = [c.id for c in card_list(sc)].index("l3-2")
    assert vals[0, 0, L.CUBE + L.BLUE, gagarin] == 0 < vals[1, 0, L.CUBE + L.BLUE, gagarin]


@pytest.mark.parametrize("restricted", [False, True])
def test_no_charge_abilities_heuristic_sets_no_die(position, restricted):
    """Gagarin charged (set a die, + 1 credit): the bonus credit makes setting pay for weighted;
    restricted, it sets nothing and keeps the cube."""
    t = position(market=False, players=2, policies=["weighted"],
                 sets=sets(["no_charge_abilities"] if restricted else []))
    c = t.put(0, "l3-2", cubes=1)
    t.turn(0, 4, 4)
    assert int(t.PS[0, L.PL.ABIL]) == (0 if restricted else 1)
    assert int(t.v[ST.DSET1]) + int(t.v[ST.DSET2]) == (0 if restricted else 1)
    if restricted:
        assert int(t.CUBES[0, c]) == 1
