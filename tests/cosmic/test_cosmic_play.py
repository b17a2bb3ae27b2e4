"""Simply Cosmic's policies (issue #22) and strong play (issue #25), each driven through the game's own
turn on a built position: the heuristic under a Loser upset (cards, reinforcements), Mind's answer from
the hand it saw, a Cosmic Zap where it pays, allying as a choice; the weights and the restrictions at
their boundaries."""
import analyzer
from analyzer.games.cosmic import GAME
from analyzer.games.cosmic import decisions as dec
from analyzer.games.cosmic import policies as P
from analyzer.games.cosmic.columns import G, S
from analyzer.games.cosmic.context import (
    E_ALLY,
    E_CONE,
    E_COSMIC_ZAP,
    E_PLAY,
    E_POWER,
)
from analyzer.games.cosmic.decisions import ANSWER_DEFENSE, ANSWER_OFFENSE
from analyzer.games.cosmic.scenario import RESTRICTIONS, WEIGHTS


def weight(pos, seat, name, value):
    """Seat `seat` plays with weight `name` set to `value` (the row the kernel reads)."""
    pos.weights[seat, list(w.name for w in pos.sc.WEIGHTS["heuristic"]).index(name)] = value
    return pos


def allies(pos):
    """(seat, answer, tokens) of every alliance in the last turn."""
    return [(seat, answer, tokens) for seat, answer, tokens, _ in pos.events(E_ALLY)]


def powers(pos, seat):
    """How many times seat's power acted in the last turn (E_POWER records)."""
    return sum(1 for r in pos.events(E_POWER) if r[0] == seat)


def played(pos, seat):
    """The card kinds seat played in windows in the last turn."""
    return [kind for by, kind, _, _ in pos.events(E_PLAY) if by == seat]


# ---- a Loser upset: the lower total wins, and the heuristic knows it ----------------------------------
def upset(Pos, *off_cards, **rules):
    """Seat 0 (heuristic) attacks Loser (seat 1, power on) with 4 tokens; Loser defends planet 5 with 1
    token (4 on its other planets) holding A8 and declares an upset (its side is 3 tokens behind)."""
    pos = Pos(2, aliens=["Filch", "Loser"], policies=("heuristic",), **rules).hand(0, *off_cards).hand(1, "A8")
    for k in range(1, 5):
        pos.set_tokens(5 + k, 1, 4)
    pos.set_tokens(5, 1, 1).set_tokens(1, 0, 4).destiny("reg1")
    return weight(pos, 0, "commit", 4)


def test_under_an_upset_the_heuristic_plays_its_lowest_attack_card(Pos):
    pos = upset(Pos, "A6", "A20")
    pos.turn()
    # the old policy played the A20 it needed to win the comparison, which the upset turned into a loss
    assert pos.held(0, "A20") == 1 and pos.held(0, "A6") == 0
    assert pos.tokens(5, 1) == 1 and pos.warp(0) == 4  # 10 against 9: the swap makes the Loser win


def test_under_an_upset_a_reinforcement_goes_on_the_losers_side(Pos):
    pos = upset(Pos, "A6", "R2")
    pos.turn()
    # 10 against 9 would swap to a Loser win; +2 for the defense makes it 10 against 11, swapped: the
    # offense wins (a reinforcement on its own side would have kept it losing)
    assert played(pos, 0) == [pos.kind("R2")]
    assert pos.tokens(5, 0) == 4 and pos.warp(0) == 0 and pos.warp(1) == 1


def test_a_stage_8_cosmic_zap_on_the_loser_cancels_an_upset_that_beats_me(Pos):
    pos = upset(Pos, "A6", "E:cosmic_zap", cosmic_zap_window="reveal")
    pos.turn()
    assert played(pos, 0) == [pos.kind("E:cosmic_zap")]  # the old policy zapped only Warpish
    assert pos.tokens(5, 0) == 4 and pos.warp(0) == 0  # no swap: 10 against 9 wins


def zaps(pos):
    """(zapper, the seat whose power's use it cancelled) of every Cosmic Zap on a power's use."""
    return [(seat, user) for seat, user, _, _ in pos.events(E_COSMIC_ZAP)]


def test_a_cosmic_zap_cancels_the_upset_declaration_that_threatens_my_stake(Pos):
    pos = upset(Pos, "A6", "E:cosmic_zap")  # any_power_use: 4 tokens at stake >= zap_at 3
    pos.turn()
    assert zaps(pos) == [(0, 1)] and powers(pos, 1) == 0
    assert pos.tokens(5, 0) == 4  # no upset: 10 against 9


def test_a_cosmic_zap_cancels_the_losers_swap_when_the_result_stands_for_me(Pos):
    pos = weight(upset(Pos, "A6", "E:cosmic_zap"), 0, "zap_at", 5)  # the declaration (stake 4) is let through
    pos.turn()
    assert zaps(pos) == [(0, 1)] and powers(pos, 1) == 1  # the upset declared, its swap cancelled
    assert pos.tokens(5, 0) == 4 and pos.warp(0) == 0


# ---- a Cosmic Zap where it pays, by the zap_at weight ---------------------------------------------------
def zombie_loses(Pos, home3, zap_at):
    """Zombie (seat 0, power on) attacks planet 6 (no defender) with 3 tokens and A1 against A20; seat 2,
    outside the challenge (no base to ally from), holds a Cosmic Zap."""
    pos = Pos(3, aliens=["Zombie", "Filch", "Grief"], policies=("heuristic",), cosmic_zap_window="reveal")
    home3(pos, 0).hand(0, "A1").hand(1, "A20").hand(2, "E:cosmic_zap").set_tokens(10, 2, 0).destiny("reg1")
    return weight(weight(pos, 0, "commit", 3), 2, "zap_at", zap_at)


def test_zap_at_is_the_least_a_zap_must_be_worth(Pos, home3):
    at = zombie_loses(Pos, home3, zap_at=3)
    at.turn()
    assert played(at, 2) == [at.kind("E:cosmic_zap")] and at.warp(0) == 3  # zapped: 3 tokens to the Warp
    above = zombie_loses(Pos, home3, zap_at=4)
    above.turn()
    assert played(above, 2) == [] and above.warp(0) == 0  # Zombie's power sends them home


# ---- Mind outside the challenge answers from the hand it saw --------------------------------------------
def mind_invited(Pos, home3, offense_card):
    """Mind (seat 2, power on) sees the offense's hand (`offense_card`) before both sides invite it; the
    offense (2 tokens) attacks planet 5 (4 defending tokens); the defense holds A10."""
    pos = Pos(3, aliens=["Grief", "Filch", "Mind"], policies=("heuristic",))
    home3(pos, 2).hand(0, offense_card).hand(1, "A10").destiny("reg1")
    for k in range(1, 5):
        pos.set_tokens(5 + k, 1, 4)  # the offense aims at planet 5, the fewest defenders
    return pos


def test_mind_outside_the_challenge_joins_the_side_the_hand_it_saw_favours(Pos, home3):
    strong = mind_invited(Pos, home3, "A40")
    strong.turn()
    assert allies(strong) == [(2, ANSWER_OFFENSE, 3)]  # the old answer: the defense (more tokens); 3 beat even A40
    weak = mind_invited(Pos, home3, "A1")
    weak.turn()
    assert allies(weak) == [(2, ANSWER_DEFENSE, 4)]  # a sure defense win: all its tokens, for rewards


# ---- allying is a choice --------------------------------------------------------------------------------
def invited_to_attack(Pos, seat2_on_target, appetite=0):
    """Seat 0 (heuristic, 2 tokens) attacks planet 5 (1 defender); the defense (scripted) invites nobody;
    seat 2 (heuristic) is invited to the offense, with a token already on planet 5 or not."""
    pos = Pos(3, aliens=["Filch", "Laser", "Grief"], policies=("heuristic", "scripted", "heuristic"))
    pos.set_tokens(5, 1, 1).hand(0, "A10").hand(1, "A6").destiny("reg1")
    for k in range(1, 5):
        pos.set_tokens(5 + k, 1, 4)
    if seat2_on_target:
        pos.set_tokens(5, 2, 1)
    return weight(pos, 2, "ally_appetite", appetite)


def test_an_ally_declines_when_winning_gives_it_nothing(Pos):
    pos = invited_to_attack(Pos, seat2_on_target=True)
    pos.turn()
    assert allies(pos) == []  # the old heuristic joined the offense, ahead in tokens, and risked them
    assert pos.tokens(10, 2) == 4 and pos.tokens(5, 2) == 1


def test_ally_appetite_is_the_gain_an_alliance_must_exceed(Pos):
    joins = invited_to_attack(Pos, seat2_on_target=False)
    joins.turn()
    (seat, side, count), = allies(joins)
    assert (seat, side) == (2, ANSWER_OFFENSE) and joins.tokens(5, 2) == count  # it landed
    declines = invited_to_attack(Pos, seat2_on_target=False, appetite=4)  # a base is worth 4 at most
    declines.turn()
    assert allies(declines) == [] and declines.tokens(10, 2) == 4


def test_base_value_is_what_landing_an_alliance_is_worth(Pos):
    worth = invited_to_attack(Pos, seat2_on_target=False)
    worthless = weight(invited_to_attack(Pos, seat2_on_target=False), 2, "base_value", 0)
    worth.turn()
    worthless.turn()
    assert [a[:2] for a in allies(worth)] == [(2, ANSWER_OFFENSE)] and allies(worthless) == []


def test_invite_below_keeps_a_side_that_expects_to_win_from_inviting(Pos):
    """The offense's odds alone are above 0 and at most 1: at invite_below 1 (the default) it invites
    seat 2, who joins; at 0 its odds already reach the weight and it invites nobody."""
    invites = invited_to_attack(Pos, seat2_on_target=False)
    invites.turn()
    assert [a[:2] for a in allies(invites)] == [(2, ANSWER_OFFENSE)]
    alone = weight(invited_to_attack(Pos, seat2_on_target=False), 0, "invite_below", 0)
    alone.turn()
    assert allies(alone) == [] and alone.tokens(10, 2) == 4


# ---- the other weights, each at its boundary -------------------------------------------------------------
def test_the_weights_row_follows_the_declared_order_for_both_policies():
    for policy in ("heuristic", "cautious"):
        names = [w.name for w in WEIGHTS[policy]]
        assert [names.index(n) for n in ("expected_card", "commit", "second_at", "hoard_at", "reinforce_margin",
                                         "ally_appetite", "base_value", "zap_at")] == [
            P.W_EXPECTED_CARD, P.W_COMMIT, P.W_SECOND_AT, P.W_HOARD_AT, P.W_REINFORCE_MARGIN, P.W_ALLY_APPETITE,
            P.W_BASE_VALUE, P.W_ZAP_AT]
    sc = analyzer.load_scenario(GAME, players=2, policy=["heuristic", "cautious"],
                                set={"seat_weights": {1: {"commit": 3}}})
    assert sc.weight_rows()[:, P.W_COMMIT].tolist() == [2, 3]


def defended(pos, tokens=4):
    """Every planet of seat 1 holds `tokens` defenders (the offense aims at planet 5, the first)."""
    for k in range(5):
        pos.set_tokens(5 + k, 1, tokens)
    return pos


def cone_count(Pos, commit):
    pos = weight(Pos(2, policies=("heuristic",)).hand(0, "A10").hand(1, "A6").set_tokens(1, 0, 4).destiny("reg1"),
                 0, "commit", commit)
    pos.turn()
    return [count for _, count, _, _ in pos.events(E_CONE)]


def test_commit_is_the_number_of_tokens_on_the_cone(Pos):
    assert cone_count(Pos, 2) == [2] and cone_count(Pos, 3) == [3]


def first_card(Pos, **weights):
    """Seat 0 (2 tokens) attacks planet 5 (4 defenders) holding A6 and A12: it needs 4 - 2 + 1 + the card it
    expects of the defense."""
    pos = defended(Pos(2, policies=("heuristic",)).hand(0, "A6", "A12").hand(1, "A1").destiny("reg1"))
    for name, value in {"second_at": 99, **weights}.items():  # one challenge
        weight(pos, 0, name, value)
    pos.turn()
    return "A6" if pos.held(0, "A6") == 0 else "A12"


def test_expected_card_sets_the_margin_a_card_must_cover(Pos):
    assert first_card(Pos, expected_card=9) == "A12"   # needs 12: the A12 fits
    assert first_card(Pos, expected_card=10) == "A6"   # needs 13: nothing fits, keep the high card


def test_hoard_at_keeps_a_winning_card_that_high(Pos):
    assert first_card(Pos, expected_card=9, hoard_at=13) == "A12"
    assert first_card(Pos, expected_card=9, hoard_at=12) == "A6"


def test_second_at_is_the_card_a_second_challenge_needs(Pos):
    for second_at, challenges in ((8, 2), (9, 1)):
        pos = Pos(2, policies=("heuristic",)).hand(0, "A20", "A8").hand(1, "A1", "A1").set_tokens(1, 0, 4)
        weight(pos.destiny("reg1", "reg1"), 0, "second_at", second_at).turn()
        assert pos.g[G.CHALLENGES] == challenges


def test_reinforce_margin_is_the_lead_reinforcements_keep(Pos):
    for margin, used in ((0, 0), (1, 1)):  # 1 + 10 against 4 + 6: the offense leads by 1
        pos = defended(Pos(2, policies=("heuristic",)).hand(0, "A10", "R2").hand(1, "A6").destiny("reg1"))
        weight(weight(pos, 0, "commit", 1), 0, "reinforce_margin", margin).turn()
        assert played(pos, 0) == [pos.kind("R2")] * used


# ---- restrictions, each through the turn at its boundary --------------------------------------------------
def test_restriction_bits_follow_the_declared_order():
    assert [1 << i for i in range(len(RESTRICTIONS))] == [dec.NO_POWER, dec.NO_ALLIES, dec.NO_DEALS, dec.NO_COMPROMISE]
    sc = analyzer.load_scenario(GAME, players=3, set={"restrict": {2: ["no_deals", "no_power"]}})
    assert sc.restrict_masks().tolist() == [0, 0, dec.NO_POWER | dec.NO_DEALS]


def test_no_power_never_chooses_to_use_an_optional_power(Pos):
    free = upset(Pos, "A6", "A20")
    free.turn()
    bound = weight(upset(Pos, "A6", "A20"), 0, "second_at", 99)  # one challenge
    bound.restrict[1] = dec.NO_POWER
    bound.turn()
    assert powers(free, 1) == 2 and free.s[1, S.POWERS_USED] == 2  # the upset, then the swap
    assert powers(bound, 1) == 0 and bound.s[1, S.RESTRICT_LIFTED] == 0  # declining is always allowed
    assert bound.tokens(5, 0) == 4  # no upset: 4 + 20 beats 1 + 8


def test_no_power_cannot_stop_a_mandatory_power(Pos, home3):
    pos = zombie_loses(Pos, home3, zap_at=99)
    pos.restrict[0] = dec.NO_POWER
    pos.turn()
    assert pos.warp(0) == 0 and pos.s[0, S.POWERS_USED] == 1  # Zombie's tokens still go home


def test_no_allies_declines_every_invitation_and_invites_nobody(Pos, home3):
    joins = mind_invited(Pos, home3, "A1")
    declines = mind_invited(Pos, home3, "A1")
    declines.restrict[2] = dec.NO_ALLIES
    no_host = mind_invited(Pos, home3, "A1")
    no_host.restrict[1] = dec.NO_ALLIES  # the defense invites nobody: only the (weak) offense asks
    for pos in (joins, declines, no_host):
        pos.turn()
    assert allies(joins) == [(2, ANSWER_DEFENSE, 4)]
    assert allies(declines) == [] and allies(no_host) == [(2, ANSWER_OFFENSE, 1)]
    assert declines.s[2, S.RESTRICT_LIFTED] == no_host.s[1, S.RESTRICT_LIFTED] == 0


def compromises(Pos, restrict):
    pos = Pos(2, policies=("heuristic",)).hand(0, "C").hand(1, "C").destiny("reg1")
    for seat, bits in restrict.items():
        pos.restrict[seat] = bits
    pos.turn()
    return pos


def test_no_deals_never_proposes_nor_accepts_one(Pos):
    assert compromises(Pos, {}).g[G.DEALS_MADE] == 1
    for seat in (0, 1):  # the offense offers nothing, or the defense refuses the offer
        pos = compromises(Pos, {seat: dec.NO_DEALS})
        assert pos.g[G.DEALS_MADE] == 0 and pos.g[G.DEALS_FAILED] == 1 and pos.warp(0) == pos.warp(1) == 3


def cautious_defends(Pos, defense_cards, restrict=0):
    """A cautious defense (4 tokens) facing 4 tokens: it compromises when no card of its can win."""
    pos = Pos(2, policies=("heuristic", "cautious")).hand(0, "A20").hand(1, *defense_cards).destiny("reg1")
    weight(pos, 0, "commit", 4).restrict[1] = restrict
    pos.set_tokens(1, 0, 4)
    pos.turn()
    return pos


def test_no_compromise_plays_an_attack_card_and_is_lifted_without_one(Pos):
    assert cautious_defends(Pos, ("C", "A1")).held(1, "A1") == 1  # unrestricted: the compromise
    bound = cautious_defends(Pos, ("C", "A1"), dec.NO_COMPROMISE)
    assert bound.held(1, "C") == 1 and bound.held(1, "A1") == 0 and bound.s[1, S.RESTRICT_LIFTED] == 0
    lifted = cautious_defends(Pos, ("C",), dec.NO_COMPROMISE)
    assert lifted.held(1, "C") == 0 and lifted.s[1, S.RESTRICT_LIFTED] == 1  # its only challenge card


def test_the_offense_invites_nobody_its_win_would_hand_the_game(Pos):
    for foreign, joined in ((3, True), (4, False)):  # seat 2's foreign bases (5 win)
        pos = invited_to_attack(Pos, seat2_on_target=False)
        for k in range(1, 1 + foreign):
            pos.set_tokens(k, 2, 1)  # bases in seat 0's system
        pos.turn()
        assert bool(allies(pos)) is joined and pos.tokens(5, 2) == (1 if joined else 0)
