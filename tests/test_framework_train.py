"""`analyzer train`: tuned weights by a league of successive-halving searches on common random numbers,
confirmed on fresh games, written to a tuned.yaml that loads, plays and reproduces (Pig, 2 players)."""
import shlex

import numpy as np
import pytest

import analyzer
from analyzer import cli, games
from analyzer import train as tr
from analyzer.scenario import Weight, read_yaml

PIG = games.get("pig")
BAD_FIELD = ["--set", "weights.hold_at.hold_at=3"]  # a field that holds at 3: any sane hold_at beats it
FAST = ["--budget", "6000", "--candidates", "8", "--rounds", "2", "-q"]


def run(capsys, *args) -> tuple[int, str, str]:
    code = cli.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def trained():
    """The league from the bad field, through the Python side of `train`."""
    base = analyzer.load_scenario(PIG, set={"weights.hold_at.hold_at": 3})
    plan = tr.Plan.of_budget(6000, 2, 8, 2)
    return plan, tr.train(PIG, base, "hold_at", plan, seed=0, jobs=1)


def test_train_moves_a_bad_field_up_and_confirms_it_beats_the_start(trained):
    plan, res = trained
    assert res.start == {"hold_at": 3}
    assert res.tuned["hold_at"] >= 10  # holding at 3 gives away nearly every game
    first = res.rounds[0]
    assert first.field == {"hold_at": 3} and first.beats_field and first.confirmed.gain.lo > 0
    assert res.final.rate.lo > 0.5 and res.final.rate.n == 2 * plan.confirm  # every seat, equal games
    assert res.final.field.value == 0.5  # Pig has one winner a game: the field's own share is 1/P exactly
    assert res.final.gain.value == pytest.approx(res.final.rate.value - 0.5)
    assert res.games <= plan.total


def test_every_candidate_of_a_search_step_plays_the_same_games(trained):
    _, res = trained
    for rnd in res.rounds:
        assert len(rnd.seen) == len(tr.tune.schedule(rnd.candidates, 1))
        for step in rnd.seen:  # candidate x seat runs; the digest covers seeds, game ids and first players
            assert len(step) >= 4 and len(set(step)) == 1


def test_a_rotated_seat_meets_every_turn_position_equally():
    field = tr.field_of(PIG, analyzer.load_scenario(PIG), "hold_at", {"hold_at": 20})
    runs = [analyzer.sim(PIG, n=400, seed=5, scenario=tr.variants.scenario_of(PIG, field, tr.seat_weights({"hold_at": 30})(s)))
            for s in range(2)]
    positions = np.concatenate([(s - df["first_player"].to_numpy()) % 2 for s, df in enumerate(runs)])
    assert np.bincount(positions).tolist() == [400, 400]


def test_a_field_that_wins_its_own_search_is_kept_and_the_box_narrows():
    """The default field (hold_at 20) is near Pig's best reply: at a small budget the field's own weights
    win the search, nothing is confirmed, and the next round searches half the box around them."""
    res = tr.train(PIG, analyzer.load_scenario(PIG), "hold_at", tr.Plan.of_budget(3000, 2, 4, 2), seed=1, jobs=1)
    assert [r.confirmed for r in res.rounds] == [None, None] and not any(r.beats_field for r in res.rounds)
    assert [r.field for r in res.rounds] == [{"hold_at": 20}] * 2
    assert [r.bounds for r in res.rounds] == [[(1, 100)], [(1, 44.75)]]
    assert res.tuned == res.start and res.final is None and "rounds are spent" in res.stopped.replace("(s)", "s")


def test_rotated_rate_takes_a_game_as_the_unit():
    wins = np.array([[1, 1], [0, 0]] * 50, bool)  # both rotations of a game agree: 100 units, not 200
    est = tr.rotated_rate(wins)
    assert est.value == 0.5 and est.n == 200
    assert est.hi - est.lo == pytest.approx(2 * 1.96 * 0.5 / np.sqrt(100), rel=0.02)
    assert tr.rotated_rate(np.ones((10, 2), bool)).lo < 1  # all wins: Wilson over the games, not width 0


def test_the_yardstick_is_the_fields_own_share_not_one_over_p():
    """Shared wins lift every seat above 1/P: a seat that wins 40% where the field's own player wins 45%
    in the same seats on the same games loses ground, though 40% is far above 1/4."""
    rng = np.random.default_rng(0)
    own = rng.random((2000, 4)) < 0.45  # the field alone: shared wins, 1.8 winners a game
    changed = own & (rng.random((2000, 4)) < 0.9)  # the changed seat wins only 90% of the field's wins
    p = tr.paired(changed, own)
    assert p.rate.lo > 0.25 and p.field.value == pytest.approx(own.mean())
    assert p.gain.hi < 0 and p.gain.value == pytest.approx(changed.mean() - own.mean())
    # the pairing: the gain's interval is narrower than the two rates' intervals side by side
    assert p.gain.hi - p.gain.lo < np.hypot(p.rate.hi - p.rate.lo, p.field.hi - p.field.lo) / 2


def test_a_gain_of_a_few_games_that_all_agree_is_not_proven():
    assert tr.paired(np.ones((2, 2), bool), np.zeros((2, 2), bool)).gain.lo <= 0
    assert tr.paired(np.ones((40, 2), bool), np.zeros((40, 2), bool)).gain.lo > 0


def test_the_budget_is_spent_as_planned():
    plan = tr.Plan.of_budget(10_000, 2, 8, 2)
    assert plan.first == 10_000 // tr.Plan.units(2, 8, 2) and plan.total <= 10_000
    # every confirmation: the winner in both seats and the field alone on the same games
    assert plan.total == 2 * (tr.tune.total_games(8, plan.first) * 2 + 3 * plan.confirm) + 3 * plan.confirm


def test_a_budget_too_thin_for_its_candidates_is_warned_about():
    thin = tr.Plan.of_budget(20_000, 2, 16, 3)  # the case: 17 games per candidate and seat
    assert thin.first < tr.MIN_FIRST_GAMES and f"leaves {thin.first} games per candidate" in thin.thin()
    enough = tr.MIN_FIRST_GAMES * tr.Plan.units(2, 16, 3)
    assert f"--budget {enough:,} or more" in thin.thin() and tr.Plan.of_budget(enough, 2, 16, 3).thin() is None


def test_samples_hold_the_field_first_and_stay_in_the_box():
    declared = PIG.Scenario.WEIGHTS["hold_at"]
    pts = tr.sample(declared, {"hold_at": 20}, tr.box(declared, {"hold_at": 20}, 1), 12, seed=3)
    assert pts[0] == {"hold_at": 20} and len({p["hold_at"] for p in pts}) == len(pts)
    assert all(isinstance(p["hold_at"], int) and 1 <= p["hold_at"] <= 45 for p in pts)  # 20 +- 24.75
    assert tr.sample(declared, {"hold_at": 20}, tr.box(declared, {"hold_at": 20}, 1), 12, seed=3) == pts


def test_a_log_weight_is_searched_evenly_in_its_logarithm():
    """A scale factor over 0.01..10: as many candidates below 0.1 as above 1, and each round halves the
    range's logarithm around the field (a linear box would put 90% of them above 1)."""
    declared = (Weight("risk", 1.0, 0.01, 10.0, "", log=True),)
    whole = tr.box(declared, {"risk": 1.0}, 0)
    assert whole == [(0.01, 10.0)]
    pts = [p["risk"] for p in tr.sample(declared, {"risk": 1.0}, whole, 61, seed=3)[1:]]
    assert all(0.01 <= r <= 10 for r in pts)
    assert abs(sum(r < 0.1 for r in pts) - sum(r > 1 for r in pts)) <= 2  # a third each: 20 +- 2
    (lo, hi), = tr.box(declared, {"risk": 0.1}, 1)  # the logarithm's range is 3 decades: +-0.75 of one
    assert lo == pytest.approx(0.1 / 10 ** 0.75) and hi == pytest.approx(0.1 * 10 ** 0.75)
    assert tr._round(declared[0], 0.012345) == 0.01235 and tr._round(declared[0], 4.5678) == 4.568
    with pytest.raises(ValueError, match="above 0"):
        Weight("bad", 1.0, 0.0, 10.0, "", log=True)


def test_train_writes_a_tuned_scenario_that_loads_plays_and_reproduces(tmp_path, capsys):
    out = tmp_path / "tuned.yaml"
    code, text, err = run(capsys, "train", "pig", *BAD_FIELD, *FAST, "--out", str(out))
    assert code == 0 and f"wrote {out}" in text and "tuned: hold_at" in text
    assert "warning: this budget leaves 19 games per candidate and seat" in err  # FAST is thin on purpose
    data = read_yaml(out)
    assert data["name"] == "tuned" and data["policies"] == ["hold_at"] and data["game"] == "pig"
    assert set(data["weights"]["hold_at"]) == {"hold_at"} and data["weights"]["hold_at"]["hold_at"] > 3
    assert "balance" not in data and "tune" not in data  # those describe the default play
    assert "against 1 seat at the starting field's weights (hold_at=3) wins" in data["description"]
    assert "(n=" in data["description"] and "the field's own player wins 50.0%" in data["description"]
    assert "fair share" not in data["description"] and "points [+" in data["description"]
    sc = analyzer.load_scenario(PIG, out)
    assert sc.weights_of(0) == sc.weights_of(1) == data["weights"]["hold_at"]
    assert run(capsys, "sim", "pig", "--scenario", str(out), "--n", "200", "--out", str(tmp_path / "r.parquet"), "-q")[0] == 0
    # the source: line is the command that made the file; replayed (to another file), it makes the same bytes
    again = tmp_path / "again.yaml"
    argv = shlex.split(data["source"])[1:]
    assert argv[:2] == ["train", "pig"]
    assert run(capsys, *argv, "--out", str(again), "-q")[0] == 0
    assert again.read_bytes() == out.read_bytes()


def test_the_same_seed_gives_the_same_file_whatever_the_jobs(tmp_path, capsys):
    files = []
    for jobs in ("1", "2"):
        files.append(tmp_path / f"tuned-{jobs}.yaml")
        assert run(capsys, "train", "pig", *BAD_FIELD, *FAST, "--seed", "4", "--jobs", jobs, "--out", str(files[-1]))[0] == 0
    assert files[0].read_bytes() == files[1].read_bytes()


def _no_weights_game(monkeypatch):
    monkeypatch.setitem(games._MODULES, "toy", "toygame")  # tests/toygame.py: a game without WEIGHTS


@pytest.mark.parametrize("args,message", [
    (["pig", "--policy", "random"], "--policy random: 'random' has no weights to tune; policies with weights: hold_at"),
    (["pig", "--policy", "greedy"], "--policy greedy: unknown policy for pig; policies with weights: hold_at"),
    (["toy"], "train toy: no policy of toy has weights to tune"),
    (["pig", "--budget", "100"], "--budget 100: too small; 3 league round(s) of 16 candidates at 2 seats need at least "
                                 "1,152 games (one game per candidate and seat); with --rounds 1, 512"),
    (["pig", "--budget", "1e3", "--rounds", "0"], "--rounds 0: must be at least 1"),
    (["pig", "--candidates", "1"], "--candidates 1: must be at least 2"),
    (["pig", "--out", "{tmp}/tuned.txt"], "a scenario is YAML; name the file"),
    (["pig", "--out", "{tmp}/old.yaml"], "already exists; add --force to replace it"),
])
def test_bad_train_input_is_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch, args, message):
    _no_weights_game(monkeypatch)
    old = tmp_path / "old.yaml"
    old.write_text("keep", encoding="utf-8")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "tuned.yaml")]
    code, text, err = run(capsys, "train", *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.yaml"] and old.read_text() == "keep"


BAD_TUNED = {
    "an unknown weight": ("weights: {hold_at: {nerve: 3}}", "weights.hold_at.nerve: unknown weight; this policy's weights are hold_at"),
    "a policy without weights": ("weights: {random: {hold_at: 3}}", "weights.random: policy 'random' has no weights in pig"),
    "out of range": ("weights: {hold_at: {hold_at: 250}}", "weights.hold_at.hold_at: 250 is outside its range [1, 100]"),
    "not whole": ("weights: {hold_at: {hold_at: 20.5}}", "weights.hold_at.hold_at: must be a whole number"),
}


@pytest.mark.parametrize("case", BAD_TUNED)
@pytest.mark.parametrize("command", ["sim", "check"])
def test_a_tuned_yaml_whose_weights_do_not_match_the_policy_is_refused(tmp_path, capsys, command, case):
    weights, message = BAD_TUNED[case]
    text = (PIG.default_scenario.read_text(encoding="utf-8").replace("name: default", "name: tuned")
            .replace("weights:                   #", "#").replace("  hold_at: {hold_at: 20}", weights))
    bad = tmp_path / "bad_tuned.yaml"
    bad.write_text(text, encoding="utf-8")
    out = ["--out", str(tmp_path / ("r.parquet" if command == "sim" else "report"))]
    code, _, err = run(capsys, command, "pig", "--scenario", str(bad), "--n", "100", *out, "-q")
    assert code == 2 and f"{bad}: {message}" in err and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad_tuned.yaml"]


def test_train_help_says_how_fitness_treats_turn_positions(capsys):
    text = " ".join(run(capsys, "train", "--help")[1].split())
    assert "rotated through every seat in equal games" in text and "every turn position equally" in text
