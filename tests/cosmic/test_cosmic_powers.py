"""The eight alien powers (estimated models), the card windows' edicts and the Warpish flare: a worked
example of each through the game's own turn, with the power on (3 home bases) and off (fewer, or under
Power Outage) as the boundary. Positions and scripts: see conftest.Position."""
import numpy as np
import pytest

from analyzer.games.cosmic import decisions as dec
from analyzer.games.cosmic import state as L
from analyzer.games.cosmic import view as V
from analyzer.games.cosmic.columns import G, S
from analyzer.games.cosmic.context import (
    E_COSMIC_ZAP,
    E_HOME,
    E_TOTALS,
)
from analyzer.games.cosmic.state import ST


def homed(pos, q):
    """Tokens of seat q that went home this turn (home_tokens_split free: one record a token)."""
    return sum(n for seat, n, _, _ in pos.events(E_HOME) if seat == q)


# ---- Warpish -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("def_card,off_wins", [("A13", False), ("A12", True)])
def test_warpish_adds_every_token_in_the_warp_after_the_regroup(duel, home3, def_card, off_wins):
    pos = home3(duel(["Warpish", "Filch"], ["A10"], [def_card]), 0)
    pos.warp(0, 2)
    pos.warp(1, 5)
    pos.turn(script=[0, 0, 0, 0])  # regroup to planet 0, one token from planet 0, aim at planet 5
    assert pos.said("Warpish adds the tokens in the Warp: +6")  # 1 own (after the regroup) + 5
    assert pos.said(f"totals: offense 17, defense {4 + int(def_card[1:])}")
    assert (pos.tokens(5, 0) == 1) is off_wins


def test_warpish_without_three_home_bases_adds_nothing(duel, home3):
    pos = home3(duel(["Warpish", "Filch"], ["A10"], ["A12"]), 0, planets=(1,))
    pos.warp(1, 5)
    pos.turn(script=[0, 0, 0])
    assert not pos.said("Warpish") and pos.said("totals: offense 11, defense 16")


def test_power_outage_switches_warpish_off(duel, home3):
    pos = home3(duel(["Warpish", "Filch"], ["A10"], ["A12"]), 0).destiny("outage", "reg1")
    pos.warp(1, 5)
    pos.turn(script=[0, 0, 0])
    assert not pos.said("Warpish") and pos.said("totals: offense 11, defense 16")


# ---- Zombie --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("with_power", [True, False])
def test_zombie_tokens_never_reach_the_warp(duel, home3, with_power):
    pos = duel(["Zombie", "Filch"], ["A1"], ["A20"])
    if with_power:
        home3(pos, 0)
        pos.turn(script=[0, 0, 0, 2])  # the lost token goes home to planet 2 (option 2)
        assert pos.warp(0) == 0 and pos.tokens(2, 0) == 2
    else:
        pos.turn(script=[0, 0])
        assert pos.warp(0) == 1


def test_zombie_gets_no_consolation(duel, home3):
    pos = home3(duel(["Zombie", "Filch"], ["C"], ["A20", "R2", "R2", "R2"]), 0)
    pos.turn(script=[1, 0, 0])  # two tokens on the cone: lost, but home, not in the Warp
    assert pos.warp(0) == 0 and pos.said("seat 0 takes 0 consolation cards") and pos.held(0) == 0


def test_zombie_loses_nothing_in_a_failed_deal(duel, home3):
    pos = home3(duel(["Zombie", "Filch"], ["C"], ["C"]), 0)
    pos.turn(script=[0, 0, 0])
    assert pos.warp(0) == 0 and pos.warp(1) == 3 and pos.g[G.DEALS_FAILED] == 1


# ---- Loser ---------------------------------------------------------------------------------------------
def test_loser_upset_forces_attack_cards_and_swaps_the_result_after_reinforcements(duel, home3):
    pos = home3(duel(["Loser", "Filch"], ["A10", "C"], ["A6", "C", "R5"]), 0)
    # cone 1 from planet 0 at planet 5; upset; (no card choice: attacks forced); the defense plays +5 for itself
    pos.turn(script=[0, 0, 0, 1, 2])
    assert pos.said("Loser declares an upset") and pos.said("reveal: offense seat 0 attack 10, defense attack 6")
    assert pos.said("totals: offense 11, defense 15")  # the defense would win ...
    assert pos.said("Loser swaps winner and loser") and pos.tokens(5, 0) == 1 and pos.warp(1) == 4  # ... it loses


def test_loser_without_an_upset_plays_normally(duel, home3):
    pos = home3(duel(["Loser", "Filch"], ["A10"], ["A6"]), 0)
    pos.turn(script=[0, 0, 0, 0])
    assert not pos.said("upset") and pos.tokens(5, 0) == 1


# ---- Sorcerer ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("swap,totals", [(1, "offense 21, defense 9"), (0, "offense 6, defense 24")])
def test_sorcerer_swaps_the_face_down_cards(duel, home3, swap, totals):
    pos = home3(duel(["Sorcerer", "Filch"], ["A5"], ["A20"]), 0)
    pos.turn(script=[0, 0, 0, swap])
    assert pos.said(f"totals: {totals}")


# ---- Filch ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bases,take,kept", [((1, 2), 1, 1), ((1, 2), 0, 0), ((1,), 1, 0)])
def test_filch_takes_the_opponents_card(duel, home3, bases, take, kept):
    pos = home3(duel(["Filch", "Warpish"], ["A20"], ["A7"]), 0, planets=bases)
    pos.turn(script=[0, 0, 0, take])
    assert pos.held(0, "A7") == kept


# ---- Laser ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bases,choices", [((1, 2), 2), ((1,), 1)])
def test_laser_eon_makes_the_opponents_card_random(duel, home3, bases, choices):
    shown = set()
    for seed in range(16):
        pos = home3(duel(["Laser", "Filch"], ["A20"], ["A1", "A19"]), 0, planets=bases)
        pos.turn(script=[0, 0, 0, 0], seed=seed)
        shown |= {line for line in pos.lines if "reveal" in line}
    assert len(shown) == choices


@pytest.mark.parametrize("defenders", [4, 3])
def test_laser_ffg_sets_aside_one_card_per_opponent_token_until_the_end(duel, home3, defenders):
    pos = home3(duel(["Laser", "Filch"], ["A20"], ["A7"] * 6, laser_reading="ffg"), 0)
    pos.set_tokens(5, 1, defenders)
    pos.turn(script=[0, 0, 0])
    assert pos.said(f"Laser sets aside opponent cards: {defenders} cards")
    assert pos.held(1) == 5 and pos.st[ST.ASIDE + L.KMAX:ST.ASIDE + 2 * L.KMAX].sum() == 0


def test_an_offense_left_without_a_challenge_card_by_laser_ends_its_turn_without_stage_10(duel, home3):
    # Laser (defense, ffg) sets aside the offense's only card: the turn ends at stage 7, so the defense's
    # Warp Break (2 tokens in the Warp, passed on at the pre-challenge phase) gets no stage 10 to be played in
    pos = home3(duel(["Filch", "Laser"], ["A20"], ["A7", "E:warp_break"], laser_reading="ffg"), 1)
    pos.warp(1, 2)
    pos.turn(script=[0, 0, 0, 1, 1])
    assert pos.lines[-2] == "  seat 0 has no challenge card at stage 7: the turn ends"
    assert pos.warp(1) == 2 and not pos.said("plays edict warp_break")


@pytest.mark.parametrize("no_card,defenders,cards,disarmed", [("redraw", 4, ["A7"], False), ("loses", 4, ["A7"], True),
                                                              ("loses", 3, ["A7"] * 4, False)])
def test_a_defense_laser_leaves_without_a_challenge_card_redraws_or_loses(duel, home3, no_card, defenders, cards,
                                                                          disarmed):
    """Laser (offense, ffg) sets aside one random card of the defense per defending token. With 4 tokens and
    one card the defense is left with none: under redraw it draws a new hand (A13s: it wins), under loses it
    loses the challenge unrevealed and its tokens reach the Warp. With 3 tokens and 4 cards one is left: it
    plays it, whatever the reading."""
    pos = home3(duel(["Laser", "Filch"], ["A10"], cards, laser_reading="ffg", laser_ffg_no_card=no_card), 0)
    pos.set_tokens(5, 1, defenders).deck(*["A13"] * 7)
    pos.turn(script=[0, 0])  # one token on the cone, aimed at planet 5
    assert pos.said("it loses the challenge") is disarmed and pos.said("reveal:") is not disarmed
    assert pos.said("discards and draws 7") is (no_card == "redraw")
    if disarmed:
        assert pos.tokens(5, 0) == 1 and pos.tokens(5, 1) == 0 and pos.warp(1) == defenders
        assert pos.held(1) == 1  # the set-aside card comes back when the challenge ends
    elif no_card == "redraw":
        assert pos.warp(0) == 1 and pos.tokens(5, 1) == defenders


@pytest.mark.parametrize("reading,off_wins", [("loses", True), ("swaps", False)])
def test_a_disarmed_defense_under_losers_upset_loses_or_has_its_loss_swapped(duel, home3, reading, off_wins):
    """Laser (offense, ffg, laser_ffg_no_card loses) sets aside the only card of Loser (defense, 4 tokens on
    planet 5), which declares an upset: laser_ffg_disarmed_upset loses = the disarmed defense loses, no swap;
    swaps = the upset swaps that loss after every other effect, and the defense wins."""
    pos = duel(["Laser", "Loser"], ["A10"], ["A7"], laser_reading="ffg", laser_ffg_no_card="loses",
               laser_ffg_disarmed_upset=reading)
    home3(home3(pos, 0), 1).turn(script=[0, 0, 0, 1])  # one token from planet 0 at planet 5; the upset
    assert pos.said("Loser declares an upset") and pos.said("it loses the challenge") and not pos.said("reveal:")
    assert pos.said("Loser swaps winner and loser") is not off_wins
    assert pos.tokens(5, 0) == off_wins and pos.warp(0) == (not off_wins)
    assert pos.tokens(5, 1) == (0 if off_wins else 4) and pos.warp(1) == (4 if off_wins else 0)
    assert pos.s[0, S.OFFENSE_WINS] == off_wins and pos.s[1, S.DEFENSE_WINS] == (not off_wins)
    assert pos.held(1, "A7") == 1  # the set-aside card comes back when the challenge ends


# ---- Mind ----------------------------------------------------------------------------------------------
def test_mind_sees_a_main_players_hand_and_its_view_keeps_it(Pos, home3):
    pos = home3(Pos(3, aliens=["Filch", "Warpish", "Mind"]).hand(0, "A20").hand(1, "A7", "A13"), 2)
    pos.destiny("reg1")
    pos.turn(script=[0, 0, 1, 1, 0, 0, 0])  # Mind looks (yes), at the defense (option 1); no invitations
    assert pos.said("Mind sees a main player's hand (seat 1)")
    view = np.zeros(V.VIEW_SIZE, np.int64)
    V.fill_view(view, pos.st, pos.d, 2, dec.D_CARD, 0)
    seen = view[V.V_SEEN:V.V_SEEN + L.KMAX]
    assert view[V.V_SEEN_WHO] == 1 and seen[pos.kind("A7")] == 1 and seen[pos.kind("A13")] == 1
    assert pos.held(1) == 1  # the hand changed since; what Mind saw did not
    V.fill_view(view, pos.st, pos.d, 0, dec.D_CARD, 0)
    assert view[V.V_SEEN_WHO] == -1 and view[V.V_SEEN:V.V_SEEN + L.KMAX].sum() == 0


# ---- Grief ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("home,model,use,left", [((1, 2, 3), "estimated_sorrow", 1, 1),
                                                 ((1, 2), "estimated_sorrow", 1, 5),
                                                 ((1, 2, 3), "estimated_sorrow", 0, 5),
                                                 ((1, 2, 3), "none", 1, 5)])
def test_grief_makes_the_winner_discard_one_card_per_token_lost(duel, home3, home, model, use, left):
    pos = home3(duel(["Filch", "Grief"], ["A20", *["R2"] * 5], ["A1"], grief_model=model), 1, planets=home)
    pos.turn(script=[0, 0, 0, use])  # no reinforcement; Grief loses 4 tokens on planet 5; with 2 home bases left its power is off
    assert pos.warp(1) == 4 and pos.held(0) == left


# ---- edicts and flares ---------------------------------------------------------------------------------
@pytest.mark.parametrize("window", ["any_power_use", "reveal"])
@pytest.mark.parametrize("zap,off_wins", [(1, False), (0, True)])
def test_cosmic_zap_cancels_warpish_for_the_challenge(duel, home3, window, zap, off_wins):
    pos = home3(duel(["Warpish", "Filch"], ["A10"], ["A11", "E:cosmic_zap"], cosmic_zap_window=window), 0)
    pos.warp(1, 5)
    pos.turn(script=[0, 0, 0, zap])  # the defense zaps the offense's power (option 1)
    assert (pos.tokens(5, 0) == 1) is off_wins
    assert pos.held(1, "E:cosmic_zap") == 1 - zap


@pytest.mark.parametrize("window", ["any_power_use", "reveal"])
@pytest.mark.parametrize("zap,bonuses", [(1, ["+9"]), (0, ["+5", "+9"])])
def test_a_cosmic_zap_cancels_one_use_of_a_power_not_the_power_for_the_turn(duel, home3, window, zap, bonuses):
    """The defense zaps Warpish in the first challenge (or not); the offense still wins, challenges again,
    and in the second challenge Warpish adds the Warp's 9 tokens (5 + the 4 lost) again."""
    pos = home3(duel(["Warpish", "Filch"], ["A20", "A10"], ["A1", "A1", "E:cosmic_zap"], cosmic_zap_window=window), 0)
    pos.destiny("reg1", "reg1")
    pos.warp(1, 5)
    pos.turn(script=[0, 0, 0, 1, zap, 1, 0, 0, 0])  # A20 first (option 1); zap; a second challenge, same aim
    assert [line.split()[-1] for line in pos.lines if "Warpish adds" in line] == bonuses
    assert pos.g[G.CHALLENGES] == 2 and pos.said("totals: offense 20, defense 1")


# Cosmic Zap at any power's use (`cosmic_zap_window: any_power_use`): each case is (aliens, the offense's and
# the defense's cards, the power's owner, the zap's holder, the script with Z at the zap's offer, the script
# under `reveal` (the holder passes in the stage-8 window), what the power does when it acts). Seat 0 attacks
# planet 5 with 1 token; the owner has 3 home bases.
ZAP_CASES = {
    "Laser": (["Laser", "Filch"], ["A20"], ["A1", "A19"], 0, 1, [0, 0, 0, "Z", 1], [0, 0, 0, 0],
              lambda pos: pos.st[ST.LASERED + 1] == 1),  # the defense's card would be drawn at random
    "Loser": (["Loser", "Filch"], ["A10", "C"], ["A6", "C"], 0, 1, [0, 0, 0, 1, "Z", 0, 0], [0, 0, 0, 1, 0],
              lambda pos: pos.st[ST.UPSET] == 1),  # its declaration
    "Sorcerer": (["Sorcerer", "Filch"], ["A5"], ["A20"], 0, 1, [0, 0, 0, 1, "Z"], [0, 0, 0, 1, 0],
                 lambda pos: pos.events(E_TOTALS) == [(-1, 21, 9, 0)]),  # the swapped cards
    "Mind": (["Filch", "Warpish", "Mind"], ["A20"], ["A7", "A13"], 2, 0, [0, 0, 1, "Z", 1, 0, 0],
             [0, 0, 1, 1, 0, 0, 0], lambda pos: pos.st[ST.SEEN_WHO] == 1),  # a Mind outside the challenge
    "Filch": (["Filch", "Warpish"], ["A20"], ["A7"], 0, 1, [0, 0, 0, 1, "Z"], [0, 0, 0, 0, 1],
              lambda pos: pos.held(0, "A7") == 1),
    "Zombie": (["Zombie", "Filch"], ["A1"], ["A20"], 0, 1, [0, 0, 0, "Z"], [0, 0, 0, 0],
               lambda pos: pos.warp(0) == 0),  # its losing token would go home, not to the Warp
}


@pytest.mark.parametrize("alien", list(ZAP_CASES))
@pytest.mark.parametrize("window,zap", [("any_power_use", 1), ("any_power_use", 0), ("reveal", 0)])
def test_a_cosmic_zap_cancels_a_powers_use_as_it_is_about_to_act(Pos, home3, alien, window, zap):
    """any_power_use: the holder is asked as the power is about to act; a zap discards the card and
    cancels the use (the power stays off for the challenge); declining lets it act. reveal: never asked."""
    aliens, off_cards, def_cards, owner, holder, script, reveal_script, acts = ZAP_CASES[alien]
    pos = Pos(len(aliens), aliens=aliens, cosmic_zap_window=window).hand(0, *off_cards).hand(1, *def_cards)
    home3(pos.hand(holder, "E:cosmic_zap").destiny("reg1"), owner)
    pos.turn(script=[zap if c == "Z" else c for c in script] if window == "any_power_use" else reveal_script)
    assert pos.events(E_COSMIC_ZAP) == ([(holder, owner, L.ALIEN_NAMES.index(alien), 0)] if zap else [])
    assert pos.held(holder, "E:cosmic_zap") == 1 - zap
    assert pos.st[ST.ZAPPED + owner] == zap and (pos.s[owner, S.POWERS_USED] > 0) == (not zap)
    assert bool(acts(pos)) == (not zap)


@pytest.mark.parametrize("card_zap,laser_acts", [(1, True), (0, False)])
def test_a_cosmic_zap_at_a_powers_use_may_be_card_zapped(duel, home3, card_zap, laser_acts):
    """The defense cosmic-zaps Laser as it acts; the offense answers with a Card Zap (or not): then Laser acts."""
    pos = home3(duel(["Laser", "Filch"], ["A20", "E:card_zap"], ["A1", "A19", "E:cosmic_zap"]), 0)
    pos.turn(script=[0, 0, 0, 1, card_zap, 1])  # cone, source, target; the zap; the Card Zap; the defense's card
    assert pos.held(1, "E:cosmic_zap") == 0 and pos.held(0, "E:card_zap") == 1 - card_zap
    assert pos.st[ST.LASERED + 1] == laser_acts and pos.st[ST.ZAPPED] == (not laser_acts)


@pytest.mark.parametrize("window", ["any_power_use", "reveal"])
@pytest.mark.parametrize("def_card,zaps", [("A11", True), ("A16", False)])
def test_the_heuristic_cosmic_zaps_the_other_sides_warpish_when_its_bonus_turns_the_challenge(
        Pos, home3, window, def_card, zaps):
    """A heuristic defense (4 + its card) against Warpish's 1 + 10 + 5 in the Warp: with 11 the bonus turns
    the challenge (15 < 16), so it zaps; with 16 it wins anyway (20 >= 16) and keeps the card."""
    pos = Pos(2, aliens=["Warpish", "Filch"], policies=("scripted", "heuristic"), cosmic_zap_window=window)
    home3(pos.hand(0, "A10").hand(1, def_card, "E:cosmic_zap").destiny("reg1"), 0)
    pos.warp(1, 5)
    pos.turn(script=[0, 0, 0])
    assert pos.held(1, "E:cosmic_zap") == (0 if zaps else 1)
    assert pos.st[ST.ZAPPED] == zaps and pos.tokens(5, 1) == 4


def test_filch_takes_no_card_from_a_challenge_it_is_not_a_main_player_of(Pos, home3):
    """Seat 2's Filch (3 home bases; the heuristic takes a card whenever its power lets it, as a main player
    in test_filch_takes_the_opponents_card) watches seat 0 beat seat 1: both played cards are discarded."""
    pos = Pos(3, aliens=["Warpish", "Laser", "Filch"], policies=("scripted", "scripted", "heuristic"))
    home3(pos.hand(0, "A10").hand(1, "A6").destiny("reg1"), 2)
    pos.turn(script=[0, 0, 0, 0])  # 1 token on the cone at planet 5; nobody invites seat 2
    assert pos.said("totals: offense 11, defense 10") and not pos.said("Filch")
    assert pos.held(2) == 0 and pos.st[ST.DISCN] == 2


def test_emotion_control_turns_both_attacks_into_a_deal(duel):
    pos = duel(["Filch", "Warpish"], ["A10"], ["A6", "E:emotion_control"])
    pos.turn(script=[0, 0, 1])
    assert not pos.said("totals") and pos.g[G.DEALS_FAILED] == 1 and pos.warp(0) == pos.warp(1) == 3


@pytest.mark.parametrize("in_warp", [3, 0])
def test_warp_break_frees_the_holders_tokens_at_the_start_of_a_challenge(duel, in_warp):
    pos = duel(["Filch", "Warpish"], ["A10"], ["A20", "E:warp_break"])
    pos.warp(1, in_warp)
    pos.turn(script=[1, 0, 0])
    if in_warp:
        assert pos.warp(1) == 0 and pos.tokens(5, 1) == 7 and homed(pos, 1) == 3
        assert pos.said("puts 1 tokens")
    else:  # nothing to free: not playable, the script's 1 was the cone count
        assert pos.held(1, "E:warp_break") == 1 and pos.said("puts 2 tokens")


@pytest.mark.parametrize("holder,freed", [(0, True), (1, False)])
def test_mobius_tubes_frees_every_token_only_for_the_offense(duel, holder, freed):
    pos = duel(["Filch", "Warpish"], ["A10"], ["A1"])
    pos.hand(holder, "E:mobius_tubes")
    pos.warp(0, 2)
    pos.warp(1, 3)
    pos.turn(script=[1, 0, 0])
    assert (homed(pos, 1), homed(pos, 0)) == ((3, 2) if freed else (0, 0))
    assert pos.said("regroups") is not freed


@pytest.mark.parametrize("play,total", [(1, 14), (0, 11)])
def test_warpish_wild_flare_adds_the_holders_own_warp_tokens_once(duel, play, total):
    pos = duel(["Filch", "Laser"], ["A10", "F:Warpish"], ["A1"])
    pos.warp(0, 4)
    pos.turn(script=[0, 0, play])  # the regroup leaves 3 in the Warp
    assert pos.said(f"totals: offense {total}, defense 5")
    assert pos.held(0, "F:Warpish") == 1 - play


def test_warpish_super_flare_counts_the_opponents_warp_tokens_against_it(duel, home3):
    pos = home3(duel(["Warpish", "Filch"], ["A10", "F:Warpish"], ["A12"]), 0)
    pos.warp(1, 3)
    pos.turn(script=[0, 0, 0, 1])
    assert pos.said("totals: offense 14, defense 13")  # 1 + 10 + 3 (power) vs 4 + 12 - 3 (super flare)
