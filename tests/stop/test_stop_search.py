"""STOP's search player (analyzer/search.py): the engine's re-deal at a rollout's branch (engine.redeal_hidden)
depends only on what the deciding seat can know and keeps what it has seen (an X+ victim's hand, a hand a
Swap handed on); and, in a real game, search does not make the tuned greedy's mistake of handing the next
player a card it goes out with."""
import copy
from collections import Counter

import numpy as np
import pytest

import analyzer
from analyzer import kernel
from analyzer.games.stop import GAME, views
from analyzer.games.stop import engine as E
from analyzer.games.stop import state as S
from analyzer.games.stop.cards import card_name
from analyzer.games.stop.decisions import SWAP_PASS_LEFT, SWAP_PASS_RIGHT, SWAP_WITH_ONE, swap_option

BRANCH = np.uint64(0x5EED5EED)  # a rollout's stream at its branch (kernel.search_step swapped it in)


def _twin(pos):
    twin = copy.copy(pos)
    twin.s = S.State(*(a.copy() for a in pos.s))
    return twin


def _redeal(s, seat, stream=BRANCH):
    s.rng[0] = stream
    E.redeal_hidden(s, np.int64(seat))


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2), (4, 5), (6, 3)])
def test_the_branch_redeal_depends_only_on_what_the_seat_can_see(players, seed):
    """Two states that differ only in what the seat cannot see (the other hands, the draw pile: views.redeal)
    are one state after the branch's re-deal with the same stream; the seat's hand, the discards and every
    count stay, the cards are conserved, and another stream deals another world."""
    sc = analyzer.load_scenario(GAME, players=players)
    pos = views.position(sc, seed)
    seat, before = pos.seat, _twin(pos)
    twin = _twin(pos)
    views.redeal(twin, np.random.default_rng(seed))
    assert not np.array_equal(views.hidden(twin), views.hidden(pos))
    for p in (pos, twin):
        _redeal(p.s, seat)
    a, b = pos.s, twin.s
    assert (a.hand == b.hand).all() and (a.v == b.v).all() and (a.rng == b.rng).all()
    assert S.draw_pile(a) == S.draw_pile(b) and S.discard_pile(a) == S.discard_pile(b)
    assert (a.hand[seat] == before.s.hand[seat]).all()
    assert S.discard_pile(a) == S.discard_pile(before.s)
    assert (a.hand[:, S.SIZE] == before.s.hand[:, S.SIZE]).all() and a.v[S.PILE_N] == before.s.v[S.PILE_N]
    assert E.check_cards(a) == 0
    other = _twin(before)
    _redeal(other.s, seat, np.uint64(7))
    assert not np.array_equal(views.hidden(other), views.hidden(pos))  # the re-deal is a draw, not a sort


def _hand(s, p):
    return Counter(card_name(t) for t in S.hand_list(s, p))


def _cards(s):
    """Every card of a (hand-built) position, wherever it is."""
    return Counter([t for p in range(s.hand.shape[0]) for t in S.hand_list(s, p)] + S.draw_pile(s) + S.discard_pile(s))


def _worlds(s, seat, n=12):
    """The states the branch re-deal makes for `seat` from n streams (s is left as it was): the seat's hand,
    the discards and every count as they were, the cards conserved."""
    out = []
    for k in range(n):
        w = S.State(*(a.copy() for a in s))
        _redeal(w, seat, np.uint64(1000 + k))
        assert _cards(w) == _cards(s) and (w.hand[:, S.SIZE] == s.hand[:, S.SIZE]).all()
        assert (w.hand[seat] == s.hand[seat]).all() and S.discard_pile(w) == S.discard_pile(s)
        assert all(w.v[S.HELD + p] == S.held_mask(w, p) for p in range(w.hand.shape[0]))
        out.append(w)
    return out


def _in_a_rollout(pos):
    pos.s.v[S.MODE_AT] = kernel.ROLLOUT  # what each seat knows is kept only in rollouts (state.tracking)
    return pos


def test_a_hand_the_seat_handed_on_by_a_swap_stays_where_it_went(position):
    pos = _in_a_rollout(position(players=3, hands={0: ["red 5", "green 8", "yellow Pause"], 1: ["blue 3", "blue 7"],
                                                   2: ["green 1", "yellow 4", "red 6/9"]},
                                 draw=["blue 1", "yellow 8", "green 4", "red 3"], discard=["red Swap"]))
    mine = _hand(pos.s, 0)
    E.resolve_swap_chosen(pos.s, pos.r, pos.pol, 0, pos.card("red Swap"), SWAP_WITH_ONE, 1)
    assert _hand(pos.s, 1) == mine
    worlds = _worlds(pos.s, 0)
    assert all(_hand(w, 1) == mine for w in worlds)  # seat 0 knows seat 1 holds its old hand
    assert len({tuple(S.hand_list(w, 2)) for w in worlds}) > 1  # seat 2's cards it never saw are dealt anew
    assert len({tuple(S.hand_list(w, 0)) for w in _worlds(pos.s, 2)}) > 1  # seat 2 saw none of it: all re-dealt
    assert all(_hand(w, 0) == _hand(pos.s, 0) for w in _worlds(pos.s, 1))  # seat 1 knows its old hand


def test_passing_hands_round_moves_what_each_seat_knows_with_them(position):
    pos = _in_a_rollout(position(players=4, hands={0: ["red 5"], 1: ["blue 3", "blue 7"], 2: ["green 1", "yellow 4"],
                                                   3: ["red 6/9", "green 2+"]},
                                 draw=["blue 1", "yellow 8", "green 4", "red 3"], discard=["red Swap"]))
    hands = [_hand(pos.s, p) for p in range(4)]
    E.resolve_swap_chosen(pos.s, pos.r, pos.pol, 0, pos.card("red Swap"), SWAP_PASS_LEFT, -1)
    for p in range(4):  # each seat knows its left neighbour now holds its old hand, and nothing more
        worlds = _worlds(pos.s, p)
        assert all(_hand(w, (p + 1) % 4) == hands[p] for w in worlds)
        assert len({tuple(S.hand_list(w, (p + 2) % 4)) for w in worlds}) > 1


def test_an_x_plus_victims_shown_hand_stays_known_but_for_what_it_plays(position):
    """Seat 1 shows its hand, puts down blue 5 (greedy's cheapest forced card) and draws 5 unseen cards:
    the others know it holds green 7 and yellow Pause, and once it plays the green 7, only the Pause."""
    pos = _in_a_rollout(position(players=3, hands={0: ["red 8"], 1: ["blue 5", "green 7", "yellow Pause"],
                                                   2: ["green 1", "yellow 4"]},
                                 draw=["blue 1", "yellow 8", "green 4", "red 3", "blue 8", "green 3", "red 1", "yellow 3"],
                                 discard=["red X+"]))
    E.resolve_xplus(pos.s, pos.r, pos.pol, 0, pos.card("red X+"))
    assert pos.plays()[-1][:2] == (1, "blue 5") and pos.size(1) == 7
    for seat in (0, 2):
        worlds = _worlds(pos.s, seat)
        assert all(_hand(w, 1) >= Counter(["green 7", "yellow Pause"]) for w in worlds)
        assert len({tuple(S.hand_list(w, 1)) for w in worlds}) > 1  # its 5 drawn cards are unseen
    E.place(pos.s, np.int64(1), np.int64(pos.card("green 7")), E.HOW_TURN)
    worlds = _worlds(pos.s, 0, 24)
    assert all(_hand(w, 1)["yellow Pause"] >= 1 for w in worlds)
    assert not all(_hand(w, 1)["green 7"] for w in worlds)  # no longer known: it could be anywhere unseen


def test_outside_a_rollout_nothing_is_remembered(position):
    """PLAIN and MAIN runs keep no `known`: a swap there leaves it empty, and the plain game pays nothing."""
    pos = position(players=3, hands={0: ["red 5"], 1: ["blue 3"], 2: ["green 1"]}, discard=["red Swap"])
    E.resolve_swap_chosen(pos.s, pos.r, pos.pol, 0, pos.card("red Swap"), SWAP_WITH_ONE, 1)
    assert not pos.s.v[S.KNOWN:S.KNOWN + S.MAX_PLAYERS ** 2 * 49].any()


# ---- search in a real game --------------------------------------------------------------------------------
# One-hand matches (match_limit 1: the first seat out wins), 3 cards dealt; seat 0 searches at 8 rollouts an
# option, its rollouts playing the tuned greedy (scenarios/stop/tuned.yaml); seats 1 and 2 play greedy.
ONE_HAND = {"rules.match_limit": 1, "rules.hand_size": 3}
SEED, GAME_ID = 1, 1801  # found by scanning games 0-2000 for a Swap of the searching seat's with one card left


def _searched_positions(events, players):
    """(decision, hands, top card, next record) at each search decision of a traced match, the hands replayed
    from the trace."""
    hands, top, out = [Counter() for _ in range(players)], -1, []
    rows = [tuple(int(x) for x in r) for r in events if r[0] != 0]
    for i, (kind, p, c, a, b) in enumerate(rows):
        if kind == E.E_DEAL:
            hands[p][c] += a
        elif kind == E.E_STARTER and a == 0:
            top = c
        elif kind == E.E_PLAY:
            hands[p][c] -= 1
            top = c
        elif kind == E.E_DRAW and c >= 0:
            hands[p][c] += 1
        elif kind == E.E_SWAP_DONE:
            if a == SWAP_WITH_ONE:
                hands[p], hands[b] = hands[b], hands[p]
            else:  # everyone passes left (q gets q - 1's hand) or right (q + 1's)
                step = -1 if a == SWAP_PASS_LEFT else 1
                hands = [hands[(q + step) % players] for q in range(players)]
        elif kind == kernel.E_SEARCHED:
            out.append((c, [sorted(card_name(t) for t in (+h).elements()) for h in hands], card_name(top), rows[i + 1]))
    return out


def test_search_does_not_hand_the_next_player_its_last_card_where_the_tuned_greedy_does(card):
    """Seat 0 has played a red Swap and holds one card, red 7, which goes on a red Swap. The tuned greedy
    swaps with the seat holding the fewest cards, seat 1 first on ties: seat 1 then plays the red 7 at once,
    calls STOP and wins the match. Search sees that this option (and passing left, which hands seat 1 the
    same card) never wins, and takes an option that does. (At 8 rollouts the better option wins 2
    of 12 worlds where the greedy's wins none: a sign test at 0.25, not STOP's stricter default.)"""
    sc = analyzer.load_scenario(GAME, policy=["search", "greedy", "greedy"], players=3,
                                set={**ONE_HAND, "weights": {"search": {"rollouts": 8, "alpha": 0.25}}})
    tuned = analyzer.load_scenario(GAME, GAME.scenario_dir / "tuned.yaml")
    assert sc.rollout_policy == "greedy" and sc.rollout_weights == tuned.weights["greedy"]
    b = GAME.run_batch(sc, SEED, np.array([GAME_ID]), trace=True)
    d, hands, top, after = next(x for x in _searched_positions(b.events, 3) if x[3][0] == E.E_SWAP)
    assert hands[0] == ["red 7"] and top == "red Swap" and len(hands[1]) <= len(hands[2])  # the position
    at = b.searched[d]
    options = [int(swap_option(SWAP_WITH_ONE, 1)), int(swap_option(SWAP_WITH_ONE, 2)),
               int(swap_option(SWAP_PASS_LEFT, 0)), int(swap_option(SWAP_PASS_RIGHT, 0))]  # engine.swap_options
    assert after[:2] == (E.E_SWAP, 0) and int(swap_option(after[3], after[4])) == options[at.chosen]
    with_1, pass_left = 0, 2
    assert at.seat == 0 and at.default == with_1  # the tuned greedy's own choice here
    assert at.means[with_1] == 0 and at.means[pass_left] == 0 and at.counts.min() >= 4
    assert at.chosen not in (with_1, pass_left) and at.means[at.chosen] > 0

    # the tuned greedy's choice, played in the same game (seat 0 scripted with search's log, but there)
    log = [s.chosen for s in b.searched[:d]] + [at.default]
    greedy = analyzer.load_scenario(GAME, policy=["scripted", "greedy", "greedy"], players=3, set={**ONE_HAND, "script": log})
    g = GAME.run_batch(greedy, SEED, np.array([GAME_ID]), trace=True)
    rows = [tuple(int(x) for x in r[:4]) for r in g.events if r[0] != 0]
    swap = next(i for i, r in enumerate(rows) if r[0] == E.E_SWAP_DONE)
    assert rows[swap + 1: swap + 3] == [(E.E_PLAY, 1, card("red 7"), E.HOW_TURN), (E.E_STOP, 1, -1, 0)]
    assert g.is_winner[0].tolist() == [False, True, False]


def test_a_search_seats_decisions_do_not_depend_on_the_games_beside_it():
    """Each game's control row is copied into the state and back: a chunk of games plays each as alone."""
    sc = analyzer.load_scenario(GAME, policy=["search", "greedy", "defender"], players=3,
                                set={**ONE_HAND, "weights": {"search": {"rollouts": 2}}})
    ids = np.arange(5, dtype=np.int64)
    whole = GAME.run_batch(sc, 3, ids)
    for i in ids:
        one = GAME.run_batch(sc, 3, ids[i: i + 1])
        assert one.score.tolist() == whole.score[i: i + 1].tolist()
