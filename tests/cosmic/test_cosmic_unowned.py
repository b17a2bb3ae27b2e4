"""Fewer than 4 players: the systems of the absent colours (`unowned_system`), and who defends a planet
there (`unowned_defense`). The original puts every system on the table with its colour's tokens and
removes only the absent colours' destiny cards; a wild destiny may name any colour; bases there count
as foreign. Positions and scripts: conftest.Position (seat 0 attacks; its home base is planet 0)."""
import numpy as np
import pytest

from analyzer import rng
from analyzer.games.cosmic import engine as E
from analyzer.games.cosmic import state as L
from analyzer.games.cosmic.columns import G, S
from analyzer.games.cosmic.context import (
    E_CONE,
    E_CONSOLATION,
    E_DEFENDER,
    E_PLAY,
    E_TOTALS,
)
from analyzer.games.cosmic.state import ST
from analyzer.games.cosmic.timing import timing_order

UNOWNED = 3  # the absent colour with 3 players: system 3, planets 15..19


def with_unowned_system(pos, colour=UNOWNED):
    """The absent colour's 20 tokens on its system, as the opening table has them."""
    for k in range(5):
        pos.set_tokens(5 * colour + k, colour, 4)
    return pos


@pytest.mark.parametrize("players,unowned,systems", [(3, "in_play", 4), (3, "absent", 3), (2, "in_play", 4),
                                                     (2, "absent", 2), (4, "in_play", 4)])
def test_the_table_holds_every_system_and_only_the_players_destiny_colours(Pos, players, unowned, systems):
    pos = Pos(players, unowned_system=unowned)
    E.deal_table(pos.st, pos.d, rng.new_stream(1, 0))
    tok = pos.field("tok")
    for pl in range(L.NPL):
        colour = pl // 5
        assert tok[pl].tolist() == [4 if q == colour and colour < systems else 0 for q in range(L.MAXP)]
    ddeck = pos.field("ddeck")[:int(pos.field("ddeckn")[0])]
    colours = {int(c) % 8 for c in ddeck if int(c) // 8 in (L.DT_REGULAR, L.DT_REVERSE)}
    assert colours == set(range(players)) and len(ddeck) == 5 * players + 6


@pytest.mark.parametrize("unowned,named", [("in_play", UNOWNED), ("absent", 2)])
def test_a_wild_destiny_may_name_an_unowned_system(Pos, unowned, named):
    """The offense asks for option 3 of the wild: colour 3 when its system is on the table, else (clamped) seat 2."""
    pos = with_unowned_system(Pos(3, unowned_system=unowned)).hand(0, "A10").hand(2, "A1").destiny("wild")
    pos.turn(script=[3])
    assert pos.events(E_DEFENDER) == [(named, named, 0, 0)]


@pytest.mark.parametrize("defense,unowned_tokens,named", [
    ("nobody", 20, UNOWNED),     # nobody defends it: the weakest system on the table
    ("tokens_only", 20, 1),      # its 20 tokens defend: seat 1's 4 are weaker
    ("tokens_only", 4, 1),       # a tie: the first of the weakest (seat 1 is listed first)
    ("tokens_only", 3, UNOWNED),
    ("nobody_mine", 20, 1),      # seat 0 has a base on each of its planets: nothing to gain there
])
def test_the_heuristic_names_the_weakest_defended_system_on_a_wild(Pos, defense, unowned_tokens, named):
    """Seats 1 and 2 hold 4 tokens at home; colour 3 holds `unowned_tokens` on planet 15. The heuristic's
    wild names the system with the fewest defending tokens, and under `nobody` an unowned system has none.
    Seat 0 holds all its home planets, so its own colour is no option (nothing to re-establish)."""
    mine = defense == "nobody_mine"
    pos = Pos(3, policies=("heuristic",), unowned_defense=defense.replace("_mine", ""), wins_needed=6)
    pos.hand(0, "A10").destiny("wild")
    for k in range(1, 5):
        pos.set_tokens(k, 0, 1)
    pos.set_tokens(15, UNOWNED, unowned_tokens)
    for k in range(5 if mine else 0):
        pos.set_tokens(15 + k, 0, 1)
    pos.turn()
    assert pos.events(E_DEFENDER)[0][:2] == (named, named)


@pytest.mark.parametrize("defense,card,off_wins,totals", [
    ("nobody", "A1", True, (2, 0)),       # no defending token, no card: 1 token + 1 beats 0
    ("nobody", "C", True, (1, 0)),        # a compromise counts 0, the token still wins
    ("tokens_only", "A4", False, (5, 5)),  # colour 3's 5 tokens defend: a tie goes to the defense
    ("tokens_only", "A5", True, (6, 5)),
    ("tokens_only", "C", False, (1, 5)),
])
def test_nobody_defends_an_unowned_planet(Pos, defense, card, off_wins, totals):
    """Seat 0 names colour 3 with a wild and attacks planet 15 with 1 token: no player is asked anything for
    the defense (no card, no allies, no reward, no consolation); the offense's total meets the defending
    tokens of `unowned_defense`."""
    pos = with_unowned_system(Pos(3, unowned_defense=defense)).hand(0, card).destiny("wild").set_tokens(15, UNOWNED, 5)
    pos.turn(script=[3, 0, 0])  # colour 3; 1 token; planet 15; nobody invited
    assert pos.events(E_DEFENDER) == [(UNOWNED, UNOWNED, 0, 0)]
    assert pos.events(E_TOTALS) == [(-1, *totals, 0)]
    assert pos.tokens(15, 0) == (1 if off_wins else 0) and pos.warp(0) == (0 if off_wins else 1)
    stays = defense == "nobody" or not off_wins  # nobody: colour 3's tokens are out of the challenge
    assert pos.tokens(15, UNOWNED) == (5 if stays else 0) and pos.warp(UNOWNED) == (0 if stays else 5)
    assert pos.s[0, S.OFFENSE_WINS] == off_wins and pos.s[1:, S.DEFENSE_WINS].sum() == 0
    assert pos.events(E_CONSOLATION) == []
    assert pos.held(0) == 0 and pos.st[ST.DISCN] == 1 and pos.g[G.CHALLENGES] == 1


def test_no_card_aims_at_the_main_player_of_an_unowned_planets_defense(Pos):
    """The offense holds Laser's and Mind's flares (wild: aimed at the other main player) and Emotion Control
    (a deal needs a defense): none is offered, so the script's 1s at those windows are never used."""
    pos = with_unowned_system(Pos(3)).hand(0, "A10", "F:Laser", "F:Mind", "E:emotion_control").destiny("wild")
    pos.turn(script=[3, 0, 0, 0, 0, 1, 1])  # colour 3; 1 token; planet 15; nobody invited; (1, 1 unused)
    assert pos.held(0) == 3 and pos.st[ST.LASERED + UNOWNED] == 0 and pos.st[ST.SEEN_WHO] == -1
    assert pos.events(E_TOTALS) == [(-1, 11, 0, 0)] and pos.tokens(15, 0) == 1


@pytest.mark.parametrize("defense,order", [(UNOWNED, [1, 2, 0]), (2, [1, 0, 2])])
def test_the_timing_order_holds_only_the_players(Pos, defense, order):
    """Powers, card windows and zaps go in timing order: an unowned planet's colour is no player in it."""
    pos = Pos(3)
    pos.st[ST.OFF], pos.st[ST.DEF] = 0, defense
    seats = np.zeros(L.MAXP, np.int64)
    assert seats[:timing_order(pos.st, pos.d, seats)].tolist() == order


@pytest.mark.parametrize("foreign,wins", [(4, True), (3, False)])
def test_a_base_in_an_unowned_system_counts_as_foreign(Pos, foreign, wins):
    pos = with_unowned_system(Pos(3)).hand(0, "A10").destiny("wild")
    for k in range(foreign):
        pos.set_tokens(6 + k, 0, 1)
    pos.turn(script=[3, 0, 0, 0])  # colour 3; 1 token from planet 0; planet 15
    assert pos.tokens(15, 0) == 1 and bool(pos.won) is wins and bool(pos.s[0, S.IS_WINNER]) is wins


def test_powers_aimed_at_the_other_main_player_do_not_act_when_nobody_defends(Pos, home3):
    """Seat 0's Laser (3 home bases) has no opponent's card to make random; seat 2's Mind, outside the
    challenge, sees the only main player's hand: the offense's."""
    pos = with_unowned_system(Pos(3, aliens=["Laser", "Filch", "Mind"])).hand(0, "A10", "A6").destiny("wild")
    home3(home3(pos, 0), 2)
    pos.turn(script=[3, 0, 0, 0, 1, 0, 0, 1])  # colour 3; 1 token from planet 0; planet 15; Mind looks; A10
    assert pos.st[ST.LASERED:ST.LASERED + L.MAXP].tolist() == [0, 0, 0, 0] and pos.s[0, S.POWERS_USED] == 0
    assert pos.st[ST.SEEN_BY] == 2 and pos.st[ST.SEEN_WHO] == 0 and pos.s[2, S.POWERS_USED] == 1
    assert pos.held(0, "A6") == 1 and pos.tokens(15, 0) == 1


def test_warpish_counts_the_unowned_colours_tokens_in_the_warp(duel, home3):
    pos = home3(duel(["Warpish", "Filch", "Loser"], ["A10"], ["A12"], players=3), 0)
    pos.warp(UNOWNED, 3)
    pos.turn(script=[0, 0, 0, 0, 0])  # one token from planet 0 at planet 5; nobody invited
    assert pos.events(E_TOTALS) == [(-1, 11 + 3, 16, 0)]


@pytest.mark.parametrize("defense", ["nobody", "tokens_only"])
def test_every_token_is_accounted_for_in_games_with_an_unowned_system(Pos, defense):
    """Random play on dealt 3-player tables (every destiny card wild): the players' 20 tokens each and
    colour 3's 20 stay whole, and the unowned system is fought over."""
    fought = 0
    for game in range(4):
        pos = Pos(3, policies=("random",), unowned_defense=defense)
        E.deal_table(pos.st, pos.d, rng.new_stream(game, 0))
        pos.destiny(*["wild"] * 30)
        for t in range(12):
            won = pos.turn(t % 3, seed=100 * game + t)
            for q in range(L.MAXP):
                assert L.total_tokens(pos.st, q) == 20, (game, t, q)
            if won:
                break
        fought += int(np.sum(pos.field("tok")[15:20, :3]) + pos.warp(UNOWNED))
    assert fought > 0


@pytest.mark.parametrize("defense,lost", [("nobody", 0), ("tokens_only", 5)])
def test_losers_wild_flare_on_an_unowned_planet_sends_only_the_defending_tokens_to_the_warp(Pos, defense, lost):
    """Seat 0 names colour 3 with a wild, attacks planet 15 (colour 3 holds 5 there) and plays Loser's wild
    flare after alliances: every token in the challenge goes to the Warp, and colour 3's are in it only when
    they defend (`tokens_only`); under `nobody` they are other tokens on the planet and stay."""
    pos = with_unowned_system(Pos(3, unowned_defense=defense)).hand(0, "A10", "F:Loser").destiny("wild")
    pos.set_tokens(15, UNOWNED, 5)
    pos.turn(script=[3, 0, 0, 0, 0, 1])  # colour 3; 1 token; planet 15; nobody invited; the flare
    assert pos.said("plays flare Loser") and not pos.said("reveal")
    assert pos.warp(0) == 1 and pos.tokens(15, 0) == 0 and pos.held(0, "A10") == 1
    assert pos.tokens(15, UNOWNED) == 5 - lost and pos.warp(UNOWNED) == lost


@pytest.mark.parametrize("defense,planet,plays", [("nobody", 15, False), ("tokens_only", 16, True)])
def test_the_cautious_player_weighs_only_the_defending_tokens_on_an_unowned_planet(Pos, defense, planet, plays):
    """Cautious seat 0 (1 token on the cone) holds Loser's wild flare, played when the other side risks 3+
    tokens more. Colour 3 holds 6 tokens on each planet but 4 on planet 16; every other system is stronger,
    so the wild names colour 3 either way. Under `tokens_only` those tokens defend: the target is the
    fewest defenders (16) and its 4 tokens are worth the flare. Under `nobody` no planet has a defender (the
    first, 15) and the other side risks nothing: the flare is kept and the attack lands."""
    pos = Pos(3, policies=("cautious",), unowned_defense=defense).hand(0, "A10", "F:Loser").destiny("wild")
    for k in range(5):
        for q in range(3):
            pos.set_tokens(5 * q + k, q, 4 if q == 0 else 6)
        pos.set_tokens(15 + k, UNOWNED, 4 if k == 1 else 6)
    pos.turn()
    assert pos.events(E_DEFENDER)[0][:2] == (UNOWNED, UNOWNED)
    assert pos.events(E_CONE) == [(0, 1, planet, UNOWNED)]
    assert pos.said("plays flare Loser") is plays and pos.held(0, "F:Loser") == 1 - plays
    assert pos.tokens(planet, 0) == 1 - plays and pos.warp(UNOWNED) == 4 * plays


@pytest.mark.parametrize("defense,reading,side,totals", [("nobody", "refused", 0, (14, 0)),
                                                         ("nobody", "allowed", 1, (11, 3)),
                                                         ("tokens_only", "refused", 1, (11, 7))])
def test_a_reinforcement_for_the_defense_of_an_unowned_planet(Pos, defense, reading, side, totals):
    """Seat 0 attacks planet 15 (colour 3's 4 tokens) and asks for option 2 of its +3 at the reveal, the
    defense's side (reinforce_any_side): offered under `unowned_defense_reinforcement: allowed`, and under
    `tokens_only` whose tokens defend; refused where nobody defends (nobody is on that side), the option does
    not exist and the script's index clamps to its own side."""
    pos = with_unowned_system(Pos(3, unowned_defense=defense, unowned_defense_reinforcement=reading))
    pos.hand(0, "A10", "R3").destiny("wild")
    pos.turn(script=[3, 0, 0, 0, 0, 2])  # colour 3; 1 token; planet 15; nobody invited; +3 (option 2)
    assert pos.events(E_PLAY) == [(0, pos.kind("R3"), side, 0)]
    assert pos.events(E_TOTALS) == [(-1, *totals, 0)] and pos.tokens(15, 0) == 1
