"""The `search` policy (analyzer/search.py, kernel.ask_policy/search_step), on Pig, the template game:
what a decision's head does in each mode, that the final run replays the plan, that decisions never
depend on the chunk, the jobs or the backend, what a replay shows, and the bad inputs."""
import numpy as np
import polars as pl
import pytest

import analyzer
from analyzer import cli, kernel, rng, search
from analyzer.games import get
from analyzer.games.pig import policies as P
from analyzer.games.pig.decisions import HOLD, ROLL

PIG = get("pig")
SMALL = {"weights": {"search": {"rollouts": 4}}}


def _ctl(mode, log=(), **slots):
    ctl = kernel.new_ctl(1, len(log))[0]
    ctl[kernel.A_MODE], ctl[kernel.A_LOG_N] = mode, len(log)
    ctl[kernel.A_LOG: kernel.A_LOG + len(log)] = log
    for name, value in slots.items():
        ctl[getattr(kernel, f"A_{name.upper()}")] = value
    return ctl


def _decide(ctl, stream, seat=1, turn_total=5):
    view = np.array([turn_total, 100, 40, 75], np.int64)
    ev, tn = kernel.new_trace(0)
    return int(P.decide(kernel.SEARCH + seat, view, np.array([ROLL, HOLD], np.int64), 2, stream,
                        np.zeros(0, np.int64), (ctl, ev, tn, np.int64(0)), np.array([20.0])))


def test_a_rollout_branches_with_its_option_and_draws_its_future_from_its_own_stream():
    """Whatever the game's stream holds at the branch (its future), the rollout goes on from its world's."""
    after = set()
    for game_state in (1, 2**40, 2**63 - 5):
        ctl, stream = _ctl(kernel.ROLLOUT, log=[0, 1], option=1, world=-77, rollout=P.HOLD_AT), np.array([game_state], np.uint64)
        assert [_decide(ctl, stream) for _ in range(2)] == [0, 1]  # the past, as logged
        assert _decide(ctl, stream) == 1 and ctl[kernel.A_STOP] == 2 and ctl[kernel.A_REDEAL] == 2
        after.add(int(stream[0]))
        assert _decide(ctl, stream, turn_total=30) == 1  # past the branch: the rollout policy (hold_at 20 holds)
    assert after == {int(np.int64(-77).view(np.uint64))}


def test_a_main_run_stops_at_the_first_decision_past_its_log_and_notes_the_rollout_policys_choice():
    ctl, stream = _ctl(kernel.MAIN, log=[1], rollout=P.HOLD_AT), rng.new_stream(1, 2)
    assert _decide(ctl, stream) == 1 and ctl[kernel.A_STOP] == 0
    assert _decide(ctl, stream, turn_total=25) == 1  # hold_at (20) holds: the default, played on
    assert (ctl[kernel.A_STOP], ctl[kernel.A_N_OPTIONS], ctl[kernel.A_DEFAULT]) == (2, 2, 2)
    assert _decide(ctl, stream, turn_total=3) == 0 and ctl[kernel.A_DEFAULT] == 2  # only the stopped decision's


def test_outside_a_search_run_a_search_seat_plays_its_rollout_policy():
    ctl = _ctl(kernel.PLAIN, rollout=P.HOLD_AT)
    assert [_decide(ctl, rng.new_stream(3, 4), turn_total=t) for t in (5, 25)] == [0, 1]


def test_the_final_run_replays_the_plan_and_the_rows_do_not_depend_on_the_chunk():
    sc = analyzer.load_scenario(PIG, policy=["search", "hold_at"], set=SMALL)
    ids = np.arange(6, dtype=np.int64)
    whole = PIG.run_batch(sc, 11, ids)
    for i in ids:
        one = PIG.run_batch(sc, 11, ids[i: i + 1])
        assert one.score.tolist() == whole.score[i: i + 1].tolist() and one.length[0] == whole.length[i]
    planned = search.plan(PIG, sc, 11, ids, PIG.kernel_inputs(sc))
    assert planned.rollouts > 0 and all(len(s) > 0 for s in planned.searched)
    assert (planned.ctl[:, kernel.A_LOG_N] == [len(s) for s in planned.searched]).all()


def test_search_changes_the_games_it_plays_and_a_budget_of_one_plays_the_rollout_policy():
    """alpha: the rollout policy's own choice is kept unless an option beats it in significantly more
    worlds; one rollout per option can never be significant, so search plays exactly its rollout player."""
    tuned = analyzer.sim(PIG, n=40, seed=5, policy="hold_at", set={"weights": {"hold_at": {"hold_at": 25}}}, progress=False)
    one = analyzer.sim(PIG, n=40, seed=5, policy="search", set={"weights": {"search": {"rollouts": 1}}}, progress=False)
    assert one.select("score", "is_winner").equals(tuned.select("score", "is_winner"))
    more = analyzer.sim(PIG, n=40, seed=5, policy="search", set={"weights": {"search": {"rollouts": 16, "alpha": 1}}},
                        progress=False)
    assert not more.select("score").equals(tuned.select("score"))


@pytest.mark.parametrize("jobs,backend,chunk", [(2, "threads", 3), (2, "loky", 5), (1, "threads", 17)])
def test_decisions_do_not_depend_on_jobs_backend_or_chunk(jobs, backend, chunk):
    def run(**kw):
        return analyzer.sim(PIG, n=17, seed=9, policy="search,hold_at", set=SMALL, progress=False, **kw).drop("seconds", strict=False)
    base = run(jobs=1, chunk=4)
    assert run(jobs=jobs, backend=backend, chunk=chunk).equals(base)


def test_a_replay_shows_each_search_decision_with_its_options_values_and_rollouts():
    text = str(analyzer.replay(PIG, seed=3, game_id=2, policy="search,hold_at", set=SMALL))
    line = next(x for x in text.splitlines() if "searches decision 0:" in x)
    assert "option 0: " in line and "option 1: " in line and "(4)" in line and "its rollout policy: option" in line


def test_a_search_seat_names_its_rollout_player_the_tuned_one_by_default():
    sc = analyzer.load_scenario(PIG, policy="search,hold_at")
    tuned = get("pig").scenario_dir / "tuned.yaml"
    assert sc.rollout_policy == "hold_at" and sc.rollout_weights == analyzer.load_scenario(PIG, tuned).weights["hold_at"]
    assert sc.weight_rows()[0, 0] == sc.rollout_weights["hold_at"]  # what its rollouts play
    assert "rollout_policy" not in analyzer.load_scenario(PIG).dump()  # no search seat: the hash is as before
    assert analyzer.load_scenario(PIG, policy="search", set={"rollout_policy": "random"}).rollout_weights == {}


@pytest.mark.parametrize("args,needle", [
    (["--set", "weights.search.rollouts=0"], "weights.search.rollouts: 0 is outside its range [1, 4096]"),
    (["--set", "weights.search.rollouts=-3"], "weights.search.rollouts: -3 is outside its range"),
    (["--set", "rollout_policy=search"], "rollout_policy: search cannot be its own rollout policy"),
    (["--set", "rollout_policy=clever"], "rollout_policy: pig has no policy 'clever'"),
    (["--set", "rollout_policy=scripted"], "rollout_policy: scripted replays a test's script, it is not a player; choose from random, hold_at"),
    (["--set", "seat_weights.1.rollouts=8"], "seat_weights.1.rollouts: unknown weight"),
    (["--set", "rollout_policy=random", "--set", "rollout_weights.hold_at=3"], "rollout_weights: policy 'random' has no weights"),
])
def test_bad_search_settings_are_one_line_exit_2_and_nothing_written(tmp_path, capsys, args, needle):
    out = tmp_path / "r.parquet"
    code = cli.main(["sim", "pig", "--n", "10", "--policy", "search,hold_at", "--out", str(out), "-q", *args])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and not out.exists()


def test_search_is_offered_only_where_the_game_plays_it():
    assert "search" in get("pig").policies and "search" not in get("pig").playing_policies
    assert isinstance(analyzer.sim(PIG, n=3, seed=1, policy="search", set=SMALL, progress=False), pl.DataFrame)


@pytest.mark.parametrize("args,needle", [
    (["--budgets", "0,8"], "--budgets '0,8': each budget must be 1..4096"),
    (["--budgets", "many"], "--budgets 'many': give rollouts per option as whole numbers"),
    (["--n", "0"], "--n"),
])
def test_strength_refuses_bad_budgets_in_one_line(capsys, args, needle):
    code = cli.main(["strength", "pig", "-q", *args])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_strength_measures_search_against_the_tuned_field_paired_by_game(capsys):
    assert cli.main(["strength", "pig", "--budgets", "2", "--n", "6", "--jobs", "1", "-q"]) == 0
    text = capsys.readouterr().out
    assert "one search seat against the field (hold_at hold_at=25)" in text and "gain" in text


@pytest.mark.parametrize("args", [
    ["compare", "pig", "SCENARIO", "--set", "rules.target=60", "--policy", "search", "--n", "8"],
    ["check", "pig", "--scenario", "SCENARIO", "--policy", "search", "--n", "8", "--out", "OUT"],
    ["train", "pig", "--policy", "search", "--budget", "120", "--candidates", "2", "--rounds", "1", "--out", "OUT/t.yaml"],
])
def test_search_plays_in_compare_check_and_train(tmp_path, capsys, args):
    """`--policy search` in the designer's loop: compare and check play it; train tunes its own weights."""
    scenario = str(PIG.default_scenario)
    argv = [scenario if a == "SCENARIO" else a.replace("OUT", str(tmp_path)) for a in args]
    code = cli.main([*argv, "-q", "--set", "weights.search.rollouts=2"] if args[0] != "train" else [*argv, "-q"])
    assert code in (0, 3), capsys.readouterr().err  # check: 3 where a bound stays undecided at 8 games
