"""Invariants over many random STOP matches, every policy and 2..6 players: cards conserved, scores are
the penalties of the cards held, exactly the lowest totals win, and results depend only on (seed, id)."""
import numpy as np
import pytest

from analyzer.games.stop import GAME
from analyzer.games.stop import columns as C
from analyzer.games.stop import engine as E
from analyzer.games.stop import state as S
from analyzer.games.stop.scenario import kernel_inputs
from analyzer.kernel import new_trace
from analyzer.scenario import load

MIXES = [["random"], ["greedy"], ["defender"], ["greedy", "random", "defender"]]


def scenario(players, policies, sets=()):
    pol = policies if len(policies) == 1 else [policies[i % len(policies)] for i in range(players)]
    return load(GAME, sets=list(sets), players=players, policies=pol)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("policies", MIXES, ids=["random", "greedy", "defender", "mixed"])
def test_batch_invariants(players, policies):
    sc = scenario(players, policies)
    b = GAME.run_batch(sc, 11, np.arange(25))
    x = b.extra
    assert (x["invariant_errors"] == 0).all()                 # 112 cards accounted for at every hand end
    assert (x["match_capped"] == 0).all() and (x["capped_hands"] == 0).all()
    assert (b.score.max(axis=1) >= 500).all()
    assert np.array_equal(b.is_winner, b.score == b.score.min(axis=1, keepdims=True))
    assert (b.score >= x["symbol_penalty"]).all() and (b.score >= x["first_hand_penalty"]).all()
    assert (x["dealer_rel_penalty"].sum(axis=1) == b.score.sum(axis=1)).all()
    assert (x["hands_out"].sum(axis=1) == b.length).all()      # every uncapped hand has a STOP
    assert (x["dealer_rel_out"].sum(axis=1) == b.length).all()
    assert (x["penalty_sumsq"] >= b.score ** 2 / b.length[:, None] - 1e-9).all()   # Cauchy-Schwarz
    assert (x["moves"] > 0).all() and (x["turns"] >= b.length).all()


RULE_SETS = [
    [],
    ["rules.play_drawn_card=true", "rules.must_play_if_able=false"],
    ["rules.achtung_forget_rate=0.5", "rules.starter_effects=true", "rules.starter_redraw_wild=false"],
    ["rules.xplus_card_effects=false", "rules.xplus_zero_cancels=false", "rules.jumped_two_plus=move",
     "rules.two_plus_drawer=plays"],
    ["rules.out_player_scores=zero", "rules.hand_size=3", "rules.match_limit=150"],
]


@pytest.mark.parametrize("sets", RULE_SETS, ids=["default", "drawn", "achtung-starter", "xplus", "zero-small"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_traced_matches_replay_independently(sets, players, replay_check):
    """Replaying the trace's card movements in Python (deal, draws, plays, swaps, reshuffles) gives the
    same hands as the kernel at every hand end; each hand's score is the penalty of those cards; 112
    cards are always in the pile, the discards or a hand; a draw fails only when both piles are empty."""
    sc = scenario(players, ["greedy", "random", "defender"], sets)
    pen = kernel_inputs(sc).cards.penalty
    out_zero = "rules.out_player_scores=zero" in sets
    for gid in range(3):
        b = GAME.run_batch(sc, 5, np.array([gid]), trace=True)
        summary = replay_check(b.events, players, penalties=pen, out_zero=out_zero)
        assert summary["hands"] == b.length[0] == summary["match_hands"]
        assert summary["plays"] >= b.extra["moves"][0] > 0 and summary["draws"] == b.extra["cards_drawn"][0]
        assert summary["totals"] == list(b.score[0])
        assert summary["winner_mask"] == sum(1 << p for p in range(players) if b.is_winner[0, p])
        untraced = GAME.run_batch(sc, 5, np.array([gid]))
        assert np.array_equal(untraced.score, b.score) and untraced.length[0] == b.length[0]
        for k, v in untraced.extra.items():
            assert np.array_equal(v, b.extra[k]), k


def test_same_seed_and_id_give_the_same_match_whatever_the_batch():
    sc = scenario(4, ["greedy", "random", "defender", "random"])
    whole = GAME.run_batch(sc, 42, np.array([5, 6, 7]))
    for i, gid in enumerate([5, 6, 7]):
        one = GAME.run_batch(sc, 42, np.array([gid]))
        assert np.array_equal(one.score[0], whole.score[i]) and one.length[0] == whole.length[i]
        for k in whole.extra:
            assert np.array_equal(one.extra[k][0], whole.extra[k][i])
    again = GAME.run_batch(sc, 42, np.array([5, 6, 7]))
    assert np.array_equal(again.score, whole.score)
    other = GAME.run_batch(sc, 43, np.array([5, 6, 7]))
    assert not np.array_equal(other.score, whole.score)


def test_hand_caps_are_counted_not_hidden():
    sc = scenario(2, ["random"], ["rules.hand_turn_cap=15"])
    b = GAME.run_batch(sc, 1, np.arange(30))
    assert b.extra["capped_hands"].sum() > 0
    assert (b.extra["hands_out"].sum(axis=1) + b.extra["capped_hands"] == b.length).all()
    assert (b.extra["invariant_errors"] == 0).all()


def test_the_state_reads_back_by_name_what_the_results_report():
    """state.LAYOUT names every slot of v: after a match its counters and seat stats are the result row."""
    sc = scenario(3, ["greedy"])
    k = kernel_inputs(sc)
    s = S.make_state(3, k.cards.penalty, k.cards.draws, k.cards.copies, k.seats, new_trace(0)[0], 0)
    E.play_match(s, k.rules, k.policy, 7, 4)
    state = S.LAYOUT.dump(s.v)
    batch = GAME.run_batch(sc, 7, np.array([4], np.int64))
    assert state["game"][list(C.GAME_COLUMNS).index("length")] == batch.length[0] > 0
    assert [row[S.S_SCORE] for row in state["seat"][:3]] == batch.score[0].tolist() == state["total"][:3]
    assert [row[S.S_WIN] for row in state["seat"][:3]] == batch.is_winner[0].astype(int).tolist()
    assert state["n_players"] == 3 and state["policy"][:3] == [2, 2, 2]
