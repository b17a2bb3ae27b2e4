"""The edicts Card Zap, Plague, Force Field and Quash and the flares of the seven aliens besides Warpish
(estimated texts: analyzer/games/cosmic/cards.py): a worked example of each through the game's own turn
with the scripted policy, played and not played (or its limit) as the boundary. Positions and scripts:
see conftest.Position (the script lists the real choices in game order; past its end: option 0)."""
import numpy as np
import pytest

from analyzer import rng
from analyzer.games.cosmic import cards as C
from analyzer.games.cosmic import decisions as dec
from analyzer.games.cosmic import policies as P
from analyzer.games.cosmic import state as L
from analyzer.games.cosmic import view as V
from analyzer.games.cosmic.context import G
from analyzer.games.cosmic.state import ST, R
from analyzer.kernel import plain_ask


# ---- edicts --------------------------------------------------------------------------------------------
def test_plague_costs_three_tokens_and_one_card_of_each_type(duel):
    pos = duel(["Filch", "Warpish"], ["A6", "A10", "R2", "R3", "C"], ["A1", "E:plague"])
    # the defense plagues the offense; it discards A6 (option 0 of [A6, A10]), C, R3 (option 1 of [R2, R3]);
    # then the regroup, 1 token on the cone at planet 5, no reinforcement
    pos.turn(script=[1, 0, 1, 0, 0, 0])
    assert pos.said("seat 1 plays edict plague on seat 0") and pos.said("seat 0 loses 3 tokens to the Warp")
    assert pos.warp(0) == 2 and pos.tokens(0, 0) == 1  # 4 - 3 + 1 regrouped - 1 on the cone
    assert pos.held(0) == 1 and pos.held(0, "R2") == 1 and pos.held(0, "C") == 0 and pos.held(0, "A6") == 0
    assert pos.tokens(5, 0) == 1  # the plague is no challenge loss: A10 still wins


def test_plague_takes_only_the_tokens_there_are(duel):
    pos = duel(["Filch", "Warpish"], ["A10", "A10"], ["A1", "E:plague"]).set_tokens(0, 0, 2).set_tokens(1, 0, 0)
    pos.turn(script=[1, 0])
    assert pos.said("seat 0 loses 2 tokens to the Warp") and pos.said("regroups a token from the Warp to the cone")


def test_plague_tokens_are_no_challenge_loss_no_consolation_for_them(duel):
    pos = duel(["Filch", "Warpish"], ["C", "C"], ["A20", "E:plague", *["R3"] * 5])
    pos.turn(script=[1, 0, 0])  # plagued (3 tokens), then the cone token lost to the attack
    assert pos.said("seat 0 takes 1 consolation cards from seat 1") and pos.warp(0) == 3


@pytest.mark.parametrize("zap", [1, 0])
def test_card_zap_cancels_an_edict_as_it_is_played(duel, zap):
    pos = duel(["Filch", "Warpish"], ["A10", "A6", "E:card_zap"], ["A1", "E:plague"])
    pos.turn(script=[1, zap, 0, 0])  # the defense plays Plague; the offense zaps it or not (keeping an attack card)
    assert pos.said("seat 0 card-zaps edict plague played by seat 1") is bool(zap)
    assert pos.held(1, "E:plague") == 0 and pos.held(0, "E:card_zap") == 0  # zap=0: discarded by the plague
    assert pos.warp(0) == (0 if zap else 2)


@pytest.mark.parametrize("rezap", [1, 0])
def test_a_card_zap_may_itself_be_zapped(duel, rezap):
    pos = duel(["Filch", "Warpish"], ["A10", "A6", "E:card_zap"], ["A1", "E:plague", "E:card_zap"])
    pos.turn(script=[1, 1, rezap])  # the defense plays Plague, the offense zaps it, the defense zaps that zap or not
    assert pos.said("seat 0 card-zaps edict plague played by seat 1")
    assert pos.said("seat 1 card-zaps edict card_zap played by seat 0") is bool(rezap)
    assert pos.held(0, "E:card_zap") == pos.held(1, "E:card_zap") + rezap - 1 == 0  # each zap is discarded
    assert pos.warp(0) == (2 if rezap else 0)  # the plague strikes when its zap was zapped


def heuristic_yes(pos, p, kind, arg):
    """The heuristic's answer (0 no, 1 yes) to a yes/no decision of seat p on the built table."""
    view = np.zeros(V.VIEW_SIZE, np.int64)
    V.fill_view(view, pos.st, pos.d, p, kind, arg)
    return P.decide(P.HEURISTIC, pos.st[:L.PUB_END], view, V.own_hand(pos.st, p), np.array([0, 1], np.int64), 2,
                    rng.new_stream(0, 0), np.zeros(0, np.int64), plain_ask(), pos.d, pos.judgement())


@pytest.mark.parametrize("whose,zaps", [("mine", 1), ("ally", 1), ("other side", 0), ("outsider", 0)])
def test_the_heuristic_zaps_a_card_zap_against_its_own_side(Pos, whose, zaps):
    """Seat 1 defends with seat 2 as its ally (seat 3 outside); a Card Zap of seat 0 cancels a card of `whose`."""
    pos = Pos(4, policies=("heuristic",))
    st = pos.st
    st[ST.OFF], st[ST.DEF], st[ST.PLANET], st[ST.OCONE], st[ST.DCONE + 2] = 0, 1, 5, 2, 1
    cancelled = {"mine": 1, "ally": 2, "other side": 0, "outsider": 3}[whose]
    st[ST.PLAYED_BY], st[ST.PLAYED_KIND], st[ST.PLAYED_ARG] = 0, pos.kind("E:card_zap"), cancelled
    assert heuristic_yes(pos, 1, dec.D_CARD_ZAP, 0) == zaps


@pytest.mark.parametrize("by,my_ally,zaps", [(0, True, 1), (0, False, 0), (2, True, 0)])
def test_the_heuristic_zaps_a_force_field_that_threatens_its_allies(Pos, by, my_ally, zaps):
    """Seat 1 defends (seat 2 its ally, or nobody); seat `by` plays Force Field (0: the offense)."""
    pos = Pos(4, policies=("heuristic",))
    st = pos.st
    st[ST.OFF], st[ST.DEF], st[ST.PLANET], st[ST.OCONE], st[ST.DCONE + 2] = 0, 1, 5, 1, 1 if my_ally else 0
    st[ST.PLAYED_BY], st[ST.PLAYED_KIND], st[ST.PLAYED_ARG] = by, pos.kind("E:force_field"), 0
    assert heuristic_yes(pos, 1, dec.D_CARD_ZAP, 0) == zaps


@pytest.mark.parametrize("zap", [1, 0])
def test_card_zap_cancels_a_flare(duel, zap):
    pos = duel(["Filch", "Warpish"], ["A10", "F:Loser"], ["A20", "E:card_zap"])
    pos.turn(script=[0, 0, 1, zap])  # the offense plays Loser's wild flare (both lose); the defense zaps it
    assert pos.said("reveal") is bool(zap) and pos.warp(1) == (0 if zap else 4)


@pytest.mark.parametrize("holder,ally_side", [(0, "defense"), (1, "offense")])
def test_force_field_cancels_the_other_sides_alliance(Pos, holder, ally_side):
    pos = Pos(3).hand(0, "A10").hand(1, "A6").destiny("reg1").hand(holder, "E:force_field")
    invite, answer = ([0, 1], 1) if ally_side == "defense" else ([1, 0], 1)
    # cone 1 at planet 5; invitations; seat 2 joins with 2; the holder plays Force Field and cancels seat 2
    pos.turn(script=[0, 0, *invite, answer, 1, 1, 1])
    assert pos.said(f"seat 2 joins the {ally_side} with 2 tokens") and pos.said("plays edict force_field")
    assert pos.said("totals: offense 11, defense 10")  # without seat 2's 2 tokens
    assert pos.tokens(10, 2) == 4 and pos.tokens(5, 0) == 1 and pos.tokens(5, 2) == 0  # the offense's own token stays


@pytest.mark.parametrize("cancel2,cancel3", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_force_field_cancels_the_alliances_its_player_chooses(Pos, cancel2, cancel3):
    """Seat 2 allies with the offense (2 tokens), seat 3 with the defense (1); the offense's Force Field
    cancels any of the two, asked ally by ally from the offense's left."""
    pos = Pos(4).hand(0, "A10", "E:force_field").hand(1, "A6").destiny("reg1")
    # 1 token at planet 5; invitations (offense: 2 yes, 3 no; defense: 2 no, 3 yes); 2 joins with 2, 3 with 1
    pos.turn(script=[0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, cancel2, cancel3])
    assert pos.said("seat 2 joins the offense with 2 tokens") and pos.said("seat 3 joins the defense with 1 tokens")
    assert pos.said(f"totals: offense {11 + 2 * (1 - cancel2)}, defense {10 + 1 - cancel3}")


@pytest.mark.parametrize("ally,cancels", [(2, 0), (3, 1)])
def test_the_heuristic_force_fields_the_other_sides_allies(Pos, ally, cancels):
    pos = Pos(4, policies=("heuristic",))
    st = pos.st
    st[ST.OFF], st[ST.DEF], st[ST.PLANET], st[ST.OCONE], st[ST.OCONE + 2], st[ST.DCONE + 3] = 0, 1, 5, 1, 2, 1
    assert heuristic_yes(pos, 0, dec.D_CANCEL_ALLY, ally) == cancels


def test_without_force_field_the_alliance_counts(Pos):
    pos = Pos(3).hand(0, "A10", "E:force_field").hand(1, "A6").destiny("reg1")
    pos.turn(script=[0, 0, 0, 1, 1, 1, 0])
    assert pos.said("totals: offense 11, defense 12") and pos.warp(0) == 1


@pytest.mark.parametrize("quash", [1, 0])
def test_quash_cancels_an_accepted_deal_and_both_pay_the_penalty(Pos, quash):
    pos = Pos(3).hand(0, "C").hand(1, "C").hand(2, "E:quash").destiny("reg1")
    pos.turn(script=[0, 0, 0, 0, 1, 1, quash])  # a base each way, accepted; seat 2 quashes it or not
    assert pos.said("deal: seat 0 offers a base each way to seat 1: accepted")
    if quash:
        assert pos.g[G.DEALS_FAILED] == 1 and pos.g[G.DEALS_MADE] == 0
        assert pos.warp(0) == pos.warp(1) == 3 and pos.tokens(5, 0) == 0
    else:
        assert pos.g[G.DEALS_MADE] == 1 and pos.tokens(5, 0) == 1 and pos.warp(0) == 0


# ---- flares --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("play", [1, 0])
def test_loser_wild_flare_sends_every_token_in_the_challenge_to_the_warp(duel, play):
    pos = duel(["Filch", "Warpish"], ["A10", "F:Loser"], ["A20"])
    pos.turn(script=[0, 0, play])
    if play:
        assert pos.warp(0) == 1 and pos.warp(1) == 4 and pos.tokens(5, 1) == 0 and not pos.said("reveal")
        assert pos.held(0, "A10") == 1 and pos.held(0, "F:Loser") == 0
    else:
        assert pos.said("totals: offense 11, defense 24") and pos.warp(1) == 0


@pytest.mark.parametrize("play,off_wins", [(1, True), (0, False)])
def test_loser_super_flare_declares_the_upset_after_the_cards_are_chosen(duel, home3, play, off_wins):
    pos = home3(duel(["Loser", "Filch"], ["A5", "C", "F:Loser"], ["A10"]), 0)
    pos.turn(script=[0, 0, 0, 0, 1, play])  # no upset before the cards; the offense picks its compromise
    assert pos.said("Loser swaps winner and loser") is off_wins and (pos.tokens(5, 0) == 1) is off_wins


@pytest.mark.parametrize("play,reveals", [(1, 2), (0, 1)])
def test_laser_wild_flare_makes_the_opponents_card_random(duel, play, reveals):
    shown = set()
    for seed in range(16):
        pos = duel(["Filch", "Warpish"], ["A20", "F:Laser"], ["A1", "A19"])
        pos.turn(script=[0, 0, play, 0], seed=seed)  # not played: the defense picks A1
        shown |= {line for line in pos.lines if "reveal" in line}
    assert len(shown) == reveals


@pytest.mark.parametrize("side,reveals", [(2, 2), (1, 1)])
def test_laser_super_flare_aims_at_either_main_player(Pos, home3, side, reveals):
    shown = set()
    for seed in range(16):
        pos = home3(Pos(3, aliens=["Filch", "Warpish", "Laser"]).hand(0, "A20").hand(1, "A1", "A19"), 2)
        pos.hand(2, "F:Laser").destiny("reg1")
        pos.turn(script=[0, 0, 0, 0, side, 0], seed=seed)  # option 2: the defense, 1: the offense
        shown |= {line for line in pos.lines if "reveal" in line}
    assert len(shown) == reveals


def test_mind_flare_lets_its_holder_see_a_main_players_hand(duel):
    pos = duel(["Filch", "Warpish"], ["A10", "F:Mind"], ["A7", "A13"])
    pos.turn(script=[0, 0, 1, 0])
    view = np.zeros(V.VIEW_SIZE, np.int64)
    V.fill_view(view, pos.st, pos.d, 0, dec.D_CARD, 0)
    seen = view[V.V_SEEN:V.V_SEEN + L.KMAX]
    assert view[V.V_SEEN_WHO] == 1 and seen[pos.kind("A7")] == 1 and seen[pos.kind("A13")] == 1
    V.fill_view(view, pos.st, pos.d, 1, dec.D_CARD, 0)
    assert view[V.V_SEEN_WHO] == -1


@pytest.mark.parametrize("play,totals", [(1, "offense 14, defense 21"), (0, "offense 19, defense 16")])
def test_sorcerer_wild_flare_exchanges_the_main_players_powers_for_the_challenge(Pos, home3, play, totals):
    pos = Pos(3, aliens=["Warpish", "Filch", "Zombie"]).hand(0, "A13").hand(1, "A12").hand(2, "F:Sorcerer")
    home3(home3(pos, 0), 1).destiny("reg1")
    pos.warp(2, 5)
    pos.turn(script=[0, 0, 0, 0, 0, play])
    assert pos.said(f"totals: {totals}") and pos.said(f"seat {1 if play else 0}'s Warpish adds")
    assert pos.st[ST.ALIEN] == L.WARPISH and pos.st[ST.ALIEN + 1] == L.FILCH  # back after the challenge


@pytest.mark.parametrize("target,warp", [(1, (1, 0)), (0, (4, 0))])
def test_sorcerers_exchange_lasts_through_stage_10(Pos, home3, target, warp):
    """Seat 2's wild Sorcerer flare exchanges Zombie (seat 0, offense) and Filch (seat 1): the defense wins,
    the offense's cone token goes to the Warp (it is Filch now). At stage 10, still inside the challenge,
    seat 2 plagues seat 1, the Zombie for this challenge, whose 3 tokens go home (or seat 0, whose 3 go to
    the Warp); after the challenge the aliens are back."""
    pos = Pos(3, aliens=["Zombie", "Filch", "Warpish"]).hand(0, "A1").hand(1, "A20").hand(2, "F:Sorcerer", "E:plague")
    home3(home3(pos, 0), 1).destiny("reg1")
    pos.turn(script=[0, 0, 0, 0, 0, 0, 1, 0, 1 + target])  # no Plague yet; 1 token at planet 5; the flare; no Filch; Plague
    assert (pos.warp(0), pos.warp(1)) == warp
    assert pos.st[ST.ALIEN] == L.ZOMBIE and pos.st[ST.ALIEN + 1] == L.FILCH and pos.held(2) == 0


@pytest.mark.parametrize("play,shown", [(1, "offense seat 0 attack 20, defense attack 5"),
                                        (0, "offense seat 0 attack 5, defense attack 20")])
def test_sorcerer_super_flare_lets_an_allied_sorcerer_swap_the_cards(Pos, home3, play, shown):
    pos = home3(Pos(3, aliens=["Filch", "Warpish", "Sorcerer"]).hand(0, "A5").hand(1, "A20"), 2)
    pos.hand(2, "F:Sorcerer").destiny("reg1")
    pos.turn(script=[0, 0, 1, 0, 1, 0, 0, play])  # seat 2 joins the offense with 1, then plays the flare
    assert pos.said(f"reveal: {shown}")


@pytest.mark.parametrize("play,warp", [(1, 2), (0, 3)])
def test_zombie_wild_flare_sends_one_lost_token_home(duel, play, warp):
    pos = duel(["Filch", "Warpish"], ["A1", "F:Zombie"], ["A20"])
    pos.turn(script=[2, 0, play])  # 3 tokens on the cone, all lost
    assert pos.warp(0) == warp and pos.said("seat 0 returns 1 tokens") is bool(play)


@pytest.mark.parametrize("play,total", [(1, 13), (0, 12)])
def test_zombie_super_flare_brings_an_allys_warp_token_into_the_challenge(Pos, home3, play, total):
    pos = home3(Pos(3, aliens=["Zombie", "Filch", "Warpish"]).hand(0, "A10", "F:Zombie").hand(1, "A10"), 0)
    pos.destiny("reg1").warp(2, 2)
    pos.turn(script=[0, 0, 0, 1, 0, 1, 0, play])  # seat 2 joins the offense with 1; Zombie plays its flare
    assert pos.said(f"totals: offense {total}, defense 14")
    assert sum("seat 2 joins the offense with 1 tokens" in line for line in pos.lines) == 1 + play


@pytest.mark.parametrize("play", [1, 0])
def test_filch_wild_flare_takes_the_opponents_card(duel, play):
    pos = duel(["Warpish", "Laser"], ["A10", "F:Filch"], ["A15"])
    pos.turn(script=[0, 0, play])
    assert pos.held(0, "A15") == play and pos.held(0, "F:Filch") == 1 - play


@pytest.mark.parametrize("play", [1, 0])
def test_filch_super_flare_takes_back_its_own_card(duel, home3, play):
    pos = home3(duel(["Filch", "Laser"], ["A10", "F:Filch"], ["A15"]), 0)
    pos.turn(script=[0, 0, 0, 1, play])  # Filch's power takes the A15, the flare its own A10
    assert pos.held(0, "A15") == 1 and pos.held(0, "A10") == play


@pytest.mark.parametrize("reading,own,taken", [("super", 1, 0), ("wild", 0, 1)])
def test_a_zapped_owner_plays_the_super_side_of_its_flare(duel, home3, reading, own, taken):
    """Filch (3 home bases) wins; its power's use is cosmic-zapped; then it plays its own flare: Super takes
    back its own card (a zap cancels a use, the power is not lost), Wild (`zapped_owner_flare: wild`) the
    opponent's."""
    pos = home3(duel(["Filch", "Warpish"], ["A20", "F:Filch"], ["A7", "E:cosmic_zap"], zapped_owner_flare=reading), 0)
    pos.turn(script=[0, 0, 0, 1, 1, 1])  # 1 token from planet 0 at planet 5; Filch's power; the zap; the flare
    assert pos.st[ST.ZAPPED] == 1 and pos.held(0, "F:Filch") == 0
    assert pos.held(0, "A20") == own and pos.held(0, "A7") == taken


@pytest.mark.parametrize("play,left", [(1, 1), (0, 5)])
def test_grief_wild_flare_makes_the_winner_discard_one_card_per_token_lost(duel, play, left):
    pos = duel(["Filch", "Warpish"], ["A20", *["R2"] * 5], ["A1", "F:Grief"])
    pos.turn(script=[0, 0, 0, play])  # the defense loses its 4 tokens
    assert pos.warp(1) == 4 and pos.held(0) == left and pos.held(1, "F:Grief") == 1 - play


def test_grief_super_flare_takes_the_cards_instead(duel, home3):
    pos = home3(duel(["Filch", "Grief"], ["A20", *["R2"] * 5], ["A1", "F:Grief"]), 1, planets=(1, 2, 3))
    pos.turn(script=[0, 0, 0, 0, 1])  # Grief's power not used; the super flare played
    assert pos.held(0) == 1 and pos.held(1, "R2") == 4


# ---- the windows ---------------------------------------------------------------------------------------
def random_table(pos, rng):
    """Every flag a card's window condition reads, at random: roles, cones, the Warp, home bases (powers on
    or off), aliens, the challenge so far; every seat holds one card of each kind played in windows."""
    st, d = pos.st, pos.d
    off, de = rng.choice(pos.players, 2, replace=False)
    st[ST.OFF], st[ST.DEF], st[ST.PLANET] = off, de, 5 * de
    for q in range(pos.players):
        st[ST.ALIEN + q] = rng.integers(8)
        for k in range(5):
            pos.set_tokens(5 * q + k, q, int(rng.integers(2)))
        st[ST.WARP + q], st[ST.LOST + q] = rng.integers(3), rng.integers(2)
        st[ST.OCONE + q] = rng.integers(2) if q != de else 0
        st[ST.DCONE + q] = rng.integers(2) if q not in (off, de) and st[ST.OCONE + q] == 0 else 0
        st[ST.ZAPPED + q], st[ST.ZOMBIE_SAVE + q] = rng.integers(2), rng.integers(2)
        for k in range(int(d[R.CHALLENGE_KINDS]), int(d[R.KINDS])):
            st[ST.HAND + q * L.KMAX + k] = 1
        st[ST.HANDN + q] = int(d[R.KINDS] - d[R.CHALLENGE_KINDS])
    for f, values in ((ST.UPSET, (0, 1)), (ST.SEEN_WHO, (-1, off)), (ST.POWERS_SWAPPED, (0, 1)), (ST.DEAL_STRUCK, (0, 1)),
                      (ST.OCARD, (-1, 3)), (ST.DCARD, (-1, 5)), (ST.OFF_WINS, (-1, 0, 1)), (ST.COMET, (0, 0, L.DT_OUTAGE))):
        st[f] = rng.choice(values)


def test_no_card_is_offered_outside_its_windows(Pos):
    """A window looks only at its own cards (cards.window_kinds, read from d): on random tables it offers
    exactly what a scan of every card kind offers, and each of its cards is offered on some table."""
    pos = Pos(4)
    d_every = pos.d.copy()  # each window lists every card kind played in windows
    every = np.arange(pos.d[R.CHALLENGE_KINDS], pos.d[R.KINDS])
    for w in range(L.WINDOWS):
        d_every[R.WINDOW_N + w] = len(every)
        d_every[R.WINDOW_KINDS + w * L.KMAX:R.WINDOW_KINDS + w * L.KMAX + len(every)] = every
    offered = [set() for _ in range(L.WINDOWS)]
    opts, opts_every = np.zeros(64, np.int64), np.zeros(64, np.int64)
    rng = np.random.default_rng(2)
    for _ in range(600):
        random_table(pos, rng)
        for w in range(L.WINDOWS):
            for q in range(4):
                n = C.list_plays(w, pos.st, pos.d, q, opts)
                assert list(opts[:n]) == list(opts_every[:C.list_plays(w, pos.st, d_every, q, opts_every)])
                offered[w] |= {int(o) // P.PLAY_ARGS for o in opts[1:n]}
    for w in range(L.WINDOWS):
        window = pos.d[R.WINDOW_KINDS + w * L.KMAX:R.WINDOW_KINDS + w * L.KMAX + pos.d[R.WINDOW_N + w]]
        assert offered[w] == set(window.tolist()), w
