"""Pig's rules, each driven through the game's own turn with the scripted policy on a known die
stream (the dice are re-derived here from analyzer.rng), at the rule's boundary; and the whole
kernel against an independent plain-Python Pig on thousands of games."""
import numpy as np
import pytest

import analyzer
from analyzer import rng
from analyzer.games import get
from analyzer.games.pig import engine as pig_engine

PIG = get("pig")
ROLL, HOLD = 0, 1


def scenario(players=2, policies=("scripted",), script=(), **rules):
    return analyzer.load_scenario(PIG, policy=list(policies), players=players,
                                  set={"script": list(script), **{f"rules.{k}": v for k, v in rules.items()}})


def dice(seed, game_id, count, skip_first_player=False, players=2):
    """The die faces a scripted game draws, in order (a random first player draws from the stream first)."""
    s = rng.new_stream(seed, game_id)
    if skip_first_player:
        rng.below(s, players)
    return [int(rng.below(s, 6)) + 1 for _ in range(count)]


def play(sc, seed, game_id):
    """One game through the kernel with its trace: (batch, readable lines)."""
    batch = PIG.run_batch(sc, seed, np.array([game_id], np.int64), trace=True)
    return batch, PIG.describe(sc, batch.events)


def first_game(pred, count=3):
    """A game id whose first `count` dice (seat 0 moving first) satisfy pred."""
    return next(g for g in range(10_000) if pred(dice(5, g, count)))


def test_a_one_loses_the_turn_total_and_ends_the_turn():
    g = first_game(lambda d: d[0] != 1 and d[1] == 1)
    d = dice(5, g, 3)
    batch, lines = play(scenario(first_player="seat0", turn_cap=1), 5, g)
    assert lines[1:3] == [f"  seat 0 rolls {d[0]} (turn total {d[0]})", f"  seat 0 rolls 1 and loses the turn's {d[0]} points"]
    assert batch.score[0].tolist() == [0, 0] and batch.extra["busts"][0].tolist() == [1, 0]


@pytest.mark.parametrize("extra,wins", [(0, True), (1, False)])
def test_holding_at_exactly_the_target_wins_one_point_short_does_not(extra, wins):
    g = first_game(lambda d: 1 not in d[:2])
    d = dice(5, g, 2)
    target = d[0] + d[1] + extra
    batch, lines = play(scenario(first_player="seat0", target=target, script=[ROLL, HOLD], turn_cap=2), 5, g)
    assert f"  seat 0 holds {d[0] + d[1]}: score {d[0] + d[1]}" in lines
    assert bool(batch.is_winner[0, 0]) is wins
    assert batch.length[0] == (1 if wins else 2)


def test_turn_cap_ends_a_game_as_a_draw_exactly_at_the_cap():
    # the scripted policy past its script picks option 0 (roll): every turn ends in a bust
    batch, lines = play(scenario(first_player="seat0", turn_cap=7), 5, 0)
    assert batch.length[0] == 7 and batch.extra["capped"][0] == 1 and not batch.is_winner.any()
    assert lines[-1] == "turn cap of 7 turns reached: a draw"
    df = analyzer.sim(PIG, n=1, seed=5, scenario=scenario(first_player="seat0", turn_cap=7))
    assert df["outcome"].cast(str).to_list() == ["draw"]


def test_a_win_on_the_last_allowed_turn_is_not_capped():
    def game(**rules):
        return PIG.run_batch(analyzer.load_scenario(PIG, set={f"rules.{k}": v for k, v in rules.items()}), 3, np.array([0]))

    length = int(game(first_player="seat0").length[0])
    at_cap, short = game(first_player="seat0", turn_cap=length), game(first_player="seat0", turn_cap=length - 1)
    assert at_cap.extra["capped"][0] == 0 and at_cap.is_winner.any()
    assert short.extra["capped"][0] == 1 and not short.is_winner.any() and short.length[0] == length - 1


def test_turns_pass_clockwise_from_a_random_first_player():
    sc = scenario(players=3, policies=("hold_at",))
    ids = np.arange(300, dtype=np.int64)
    batch = PIG.run_batch(sc, 9, ids)
    expected = [int(rng.below(rng.new_stream(9, g), 3)) for g in ids]
    assert batch.first_player.tolist() == expected and set(expected) == {0, 1, 2}
    _, lines = play(sc, 9, 1)
    movers = [int(line.split()[1]) for line in lines if "holds" in line or "loses" in line]
    assert all(b == (a + 1) % 3 for a, b in zip(movers, movers[1:], strict=False))


def python_pig(seed, game_id, players, target, turn_cap, first_random, hold_at):
    """An independent Pig with hold_at players: (scores, winner or -1, turns, first player)."""
    s = rng.new_stream(seed, game_id)
    p = int(rng.below(s, players)) if first_random else 0
    first, score = p, [0] * players
    for turn in range(1, turn_cap + 1):
        total = 0
        while True:
            d = int(rng.below(s, 6)) + 1
            if d == 1:
                break
            total += d
            if total >= hold_at[p] or score[p] + total >= target:
                score[p] += total
                if score[p] >= target:
                    return score, p, turn, first
                break
        p = (p + 1) % players
    return score, -1, turn_cap, first


@pytest.mark.parametrize("players,target,hold", [(2, 100, [20]), (3, 30, [10, 15, 25]), (4, 12, [6])])
def test_kernel_equals_an_independent_python_pig(players, target, hold):
    seat_hold = hold * players if len(hold) == 1 else hold
    own = {f"seat_weights.{p}.hold_at": h for p, h in enumerate(hold)} if len(hold) > 1 else {"weights.hold_at.hold_at": hold[0]}
    sc = analyzer.load_scenario(PIG, players=players, policy=["hold_at"],
                                set={"rules.target": target, "rules.turn_cap": 60, **own})
    ids = np.arange(400, dtype=np.int64)
    batch = PIG.run_batch(sc, 21, ids)
    for g in ids:
        score, winner, turns, first = python_pig(21, g, players, target, 60, True, seat_hold)
        assert batch.score[g].tolist() == score
        assert batch.is_winner[g].tolist() == [q == winner for q in range(players)]
        assert (batch.length[g], batch.first_player[g]) == (turns, first)



E_ROLL, E_HOLD = pig_engine.E_ROLL, pig_engine.E_HOLD


@pytest.mark.parametrize("score,wins", [(95, True), (94, False)])
def test_holding_onto_exactly_the_target_from_a_built_score(position, score, wins):
    won, after, events, _ = position(scores=[score, 0], dice=[5], target=100).turn(script=[HOLD])
    assert won is wins and after == [score + 5, 0] and events[-1] == (E_HOLD, 0, 5, score + 5)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("dice,held", [([6, 6, 6, 2], 20), ([6, 6, 5, 2, 3], 22), ([6, 6, 6, 1], None)])
def test_no_early_hold_forbids_holds_under_20_and_allows_20(position, dice, held, seat):
    # the script asks to hold at every decision; the restriction leaves only ROLL below 20 (19 included)
    won, after, events, s = position(scores=[0, 0], seat=seat, dice=dice).turn(script=[HOLD] * 5, restrict=["no_early_hold"])
    holds = [e for e in events if e[0] == E_HOLD]
    assert holds == ([(E_HOLD, seat, held, held)] if held else [])
    assert s[seat, pig_engine.S.RESTRICT_LIFTED] == 0  # ROLL is always left: nothing to lift


def test_no_early_hold_still_allows_the_hold_that_wins(position):
    won, after, events, _ = position(scores=[90, 0], dice=[6, 5]).turn(script=[HOLD, HOLD], restrict=["no_early_hold"])
    assert won and after == [101, 0] and [e[0] for e in events] == [E_ROLL, E_ROLL, E_HOLD]


def test_an_unrestricted_seat_holds_where_it_chooses(position):
    won, after, events, _ = position(scores=[0, 0], dice=[6]).turn(script=[HOLD])
    assert after == [6, 0] and events[-1] == (E_HOLD, 0, 6, 6)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("hold_at,held", [(12, 12), (13, 18)])
def test_the_hold_at_weight_is_the_turn_total_it_holds_at(position, hold_at, held, seat):
    _, after, _, _ = position(scores=[0, 0], seat=seat, dice=[6, 6, 6, 4]).turn(policy="hold_at", weights={"hold_at": hold_at})
    assert after[seat] == held


def test_seat_weights_give_one_seat_its_own_judgement():
    sc = analyzer.load_scenario(PIG, policy=["hold_at"], set={"seat_weights": {1: {"hold_at": 30}}})
    assert sc.weights_of(0) == {"hold_at": 20} and sc.weights_of(1) == {"hold_at": 30}
    batch = PIG.run_batch(sc, 8, np.arange(60, dtype=np.int64), trace=False)
    first = PIG.run_batch(analyzer.load_scenario(PIG, policy=["hold_at"]), 8, np.arange(60, dtype=np.int64))
    assert not np.array_equal(batch.score, first.score)  # seat 1's own weight changes the games
