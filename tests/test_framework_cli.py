"""The command line: every kind of bad input is one line, exit code 2, no traceback, nothing written."""
import polars as pl
import pytest

from analyzer import api, cli, errors, games


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(games._MODULES, "toy", "toygame")


def run(capsys, *args):
    code = cli.main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


@pytest.mark.parametrize("text,value", [("1e6", 1_000_000), ("1_000_000", 1_000_000), ("250", 250), ("2.5e3", 2500),
                                        (1e6, 1_000_000), (250, 250)])
def test_a_count_of_games_accepts_common_spellings(text, value):
    assert errors.n_games(text) == value


def test_sim_writes_parquet_and_prints_summary(tmp_path, capsys):
    out = tmp_path / "t.parquet"
    code, stdout, _ = run(capsys, "sim", "toy", "--n", "1_000", "--seed", "4", "--out", str(out), "-q", "--jobs", "1")
    assert code == 0 and out.exists()
    assert "1,000 games" in stdout and "win rate by position" in stdout
    assert pl.read_parquet(out).height == 1000


def _bad_yaml(tmp_path, text):
    p = tmp_path / "s.yaml"
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("args,needle", [
    (["sim", "nogame"], "unknown game 'nogame'"),
    (["sim", "toy", "--n", "1.5"], "--n '1.5'"),
    (["sim", "toy", "--n", "lots"], "--n 'lots'"),
    (["sim", "toy", "--n", "0"], "--n '0'"),
    (["sim", "toy", "--set", "rules.rolls=many"], "rules.rolls"),
    (["sim", "toy", "--set", "rules.nosuch=1"], "rules.nosuch: unknown field"),
    (["sim", "toy", "--set", "norhs"], "expected KEY=VALUE"),
    (["sim", "toy", "--n", "1e20"], "--n '1e20': at most 1e10 games"),
    (["sim", "toy", "--chunk", "0"], "--chunk 0: must be at least 1"),
    (["sim", "toy", "--players", "9"], "--players 9: players must be 2..6"),
    (["sim", "toy", "--policy", "clever"], "--policy clever: unknown policy 'clever'"),
    (["sim", "toy", "--policy", "plain,plain"], "--policy plain,plain: give one policy for every seat or one per seat (3)"),
    (["sim", "toy", "--players", "4", "--policy", "plain,plain,plain"], "one per seat (4), not 3"),
    (["replay", "toy", "--from", "/no/such.parquet", "--game", "1"], "/no/such.parquet: no such results file"),
    (["report", "toy", "/no/such.parquet", "--out", "/proc/nope"], "--out /proc/nope: cannot write"),
    (["sim", "toy", "--scenario", "/no/such.yaml"], "no such scenario file"),
    (["sim", "toy", "--out", "/proc/nope/x.parquet"], "cannot write"),
    (["replay", "toy", "--game", "-3"], "--game"),
    (["report", "toy", "/no/such.parquet"], "no such results file"),
    (["sim", "stop", "--set", "rules.play_drawn_card=1"], "rules.play_drawn_card: must be true or false (got 1)"),
    (["sim", "stop", "--set", "rules.play_drawn_card=yes please"], "rules.play_drawn_card: must be true or false"),
    (["sim", "stop", "--set", "rules.play_drawn_card=yes"], "rules.play_drawn_card: must be true or false (got 'yes')"),
    (["sweep", "stop", "--param", "rules.play_drawn_card", "--values", "false,on"], "must be true or false (got 'on')"),
    (["sim", "toy", "--set", "rules.rolls=2", "--set", "rules.rolls=4"], "--set rules.rolls: given more than once"),
    (["sim", "toy", "--set", "rules={rolls: 2, rolls: 4}"], "duplicate key 'rolls'"),
    (["sim", "toy", "--out", "x.csv"], "--out x.csv: results are written as parquet only; name the file x.parquet"),
    (["sweep", "toy", "--param", "rules.rolls", "--values", "1,2", "--out", "s.json"], "--out s.json: results are"),
    (["sim", "toy", "--jobs", "abc"], "error: analyzer sim: Invalid value for '--jobs' / '-j'"),
    (["replay", "toy"], "error: analyzer replay: Missing option '--game'"),
    (["sim", "toy", "--bogus"], "No such option: --bogus"),
    (["sim", "toy", "--n"], "error: analyzer sim: Option '--n' requires an argument (see analyzer sim --help)"),
    (["nosuch"], "No such command 'nosuch'"),
    (["sim", "pig", "--policy", "scripted"], "--policy scripted: a test tool that replays the scenario's `script`"),
    (["sweep", "pig", "--policy", "scripted", "--param", "rules.target", "--values", "50"], "--policy scripted"),
    (["replay", "pig", "--policy", "random,scripted", "--game", "0"], "--policy random,scripted: a test tool"),
    (["replay", "toy", "--game", "1", "--from", "/no/such.parquet", "--set", "rules.rolls=2"], "no such results file"),
    # the last bad inputs: each caught before any game is played or anything written
    (["sweep", "pig", "--param", "rules.target", "--values", "50,100", "--heatmap", "h.png"],
     "--heatmap h.png: a heatmap is of a grid of two fields"),
    (["sweep", "toy", "--param", "rules.rolls", "--values", "1,2", "--param", "rules.rolls", "--values", "3"],
     "--param rules.rolls: given twice"),
    (["cache", "pack", "pig", "--out", "/proc/p.tar.gz"], "--out /proc/p.tar.gz: cannot write into /proc"),
    (["tune", "pig", "--goal", "10"], "--goal 10: only with --target length"),
    (["sim", "toy", "--resume", "-q"], "--resume: nothing to resume for results/toy.parquet"),
    (["ci", "check", "--n", "abc"], "--n 'abc': expected a whole number"),
    (["ci", "reports", "--n", "2.5"], "--n '2.5': expected a whole number"),
    (["ci", "check", "--until-decided", "--n", "4000", "--max-n", "2000"], "--max-n 2000: must be at least --n (4,000)"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    code, stdout, stderr = run(capsys, *args)
    assert code == 2
    assert needle in stderr and stderr.count("\n") == 1 and "Traceback" not in stderr
    assert list(tmp_path.iterdir()) == []  # nothing written, not even results/


def test_a_usage_error_names_the_value_typed(capsys):
    _, _, stderr = run(capsys, "sim", "toy", "--players", "x")
    assert "(got 'x') (see analyzer sim --help)" in stderr and stderr.count("\n") == 1


@pytest.mark.parametrize("content,needle", [
    (bytes(range(256)) * 4, "not a YAML text file (byte 128 is not UTF-8)"),
    (b"game: toy\nplayers: 3\nplayers: 2\npolicies: [plain]\n", "invalid YAML (line 3, column 1): duplicate key 'players'"),
    (b"game: toy\nplayers: 3\npolicies: [plain]\nrules: {rolls: 3, edge: 1, rolls: 4}\n", "duplicate key 'rolls'"),
    (b"game: stop\nplayers: 2\npolicies: [greedy]\nrules: {play_drawn_card: 1}\n", "rules.play_drawn_card: must be true or false"),
    (b"game: stop\nplayers: 2\npolicies: [greedy]\nrules: {play_drawn_card: off}\n", "must be true or false (got 'off')"),
    (b"game: stop\nplayers: 2\npolicies: [scripted]\n", "s.yaml: policies: scripted: a test tool"),
    (b"game: toy\nplayers: 3\npolicies: [plain]\nbalance: {position_win_rate: {max_spread: 5}}\n",
     "balance.position_win_rate.max_spread: 5 is not a fraction; rates are fractions from 0 to 1 (write 0.05 for 5 points)"),
    (b"game: toy\nplayers: 3\npolicies: [plain]\nbalance: {draw_rate: {min: -0.1}}\n", "balance.draw_rate.min: -0.1 is not a fraction"),
])
def test_bad_scenario_file_is_one_line_exit_2(tmp_path, capsys, monkeypatch, content, needle):
    path = tmp_path / "s.yaml"
    path.write_bytes(content)
    monkeypatch.chdir(tmp_path)
    game = "stop" if b"game: stop" in content else "toy"
    code, _, stderr = run(capsys, "sim", game, "--scenario", str(path), "-q")
    assert code == 2 and needle in stderr and stderr.count("\n") == 1 and "Traceback" not in stderr
    assert list(tmp_path.iterdir()) == [path]


def test_yaml_merge_keys_are_not_duplicates(tmp_path):
    from analyzer.scenario import load_yaml_text
    assert load_yaml_text("base: &b {rolls: 3, edge: 1}\nrules:\n  <<: *b\n  edge: 2\n")["rules"] == {"rolls": 3, "edge": 2}


def test_a_true_or_false_rule_still_takes_true_and_false(capsys):
    g = games.get("stop")
    assert api.load_scenario(g, set=["rules.play_drawn_card=true"]).rules.play_drawn_card is True
    assert api.load_scenario(g, set={"rules.play_drawn_card": False}).rules.play_drawn_card is False


def test_report_of_a_parquet_analyzer_did_not_write(tmp_path, capsys, monkeypatch):
    foreign = tmp_path / "foreign.parquet"
    pl.DataFrame({"a": [1, 2]}).write_parquet(foreign)
    monkeypatch.chdir(tmp_path)
    for args in (["report", "toy", str(foreign)], ["replay", "toy", "--from", str(foreign), "--game", "0"]):
        code, _, stderr = run(capsys, *args)
        assert code == 2 and f"{foreign}: no analyzer run metadata (not written by `analyzer sim`)" in stderr
        assert stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == [foreign]


def test_an_existing_results_file_is_replaced_only_with_force(tmp_path, capsys):
    out = tmp_path / "t.parquet"
    assert run(capsys, "sim", "toy", "--n", "50", "--seed", "1", "--out", str(out), "-q")[0] == 0
    before = out.read_bytes()
    code, _, stderr = run(capsys, "sim", "toy", "--n", "60", "--seed", "2", "--out", str(out), "-q")
    assert code == 2 and f"--out {out}: already exists; add --force to replace it" in stderr
    assert out.read_bytes() == before and sorted(tmp_path.iterdir()) == [out]
    assert run(capsys, "sim", "toy", "--n", "60", "--seed", "2", "--out", str(out), "-q", "--force")[0] == 0
    assert pl.read_parquet(out).height == 60
    sweep = ["sweep", "toy", "--param", "rules.rolls", "--values", "1,2", "--n", "20", "--jobs", "1", "--out", str(out)]
    assert run(capsys, *sweep)[0] == 2 and pl.read_parquet(out).height == 60
    assert run(capsys, *sweep, "--force")[0] == 0 and pl.read_parquet(out).height == 40


def test_sweep_checks_every_value_before_playing_any(tmp_path, capsys, monkeypatch):
    from analyzer import sweep
    played = []
    monkeypatch.setattr(sweep, "sweep", lambda *a, **k: played.append(a))
    code, _, stderr = run(capsys, "sweep", "pig", "--param", "rules.target", "--values", "50,-1", "--n", "10")
    assert code == 2 and "rules.target" in stderr and "-1" in stderr and played == []


def test_bad_yaml_names_file_and_line(tmp_path, capsys):
    path = _bad_yaml(tmp_path, "game: toy\nplayers: [3\n")
    code, _, stderr = run(capsys, "validate", path)
    assert code == 2 and path in stderr and "invalid YAML" in stderr and "line" in stderr


def test_mistyped_field_names_file_and_field(tmp_path, capsys):
    path = _bad_yaml(tmp_path, "game: toy\nplayers: 3\npolicies: [plain]\nrules: {rols: 3}\n")
    code, _, stderr = run(capsys, "sim", "toy", "--scenario", path, "-q")
    assert code == 2 and f"{path}: rules.rols: unknown field" in stderr
    assert not (tmp_path / "results").exists()


def test_validate_ok(capsys):
    code, stdout, _ = run(capsys, "validate", "tests/data/toy/default.yaml")
    assert code == 0 and stdout.startswith("ok tests/data/toy/default.yaml: toy, 3 players")


def test_replay_row_equals_parquet_row(tmp_path, capsys):
    out = tmp_path / "t.parquet"
    assert run(capsys, "sim", "toy", "--n", "50", "--seed", "8", "--out", str(out), "-q")[0] == 0
    code, stdout, _ = run(capsys, "replay", "toy", "--from", str(out), "--game", "17")
    assert code == 0
    rolls = [int(line.split()[-1]) for line in stdout.splitlines() if " rolls " in line]
    totals = [sum(rolls[s::3]) for s in range(3)]
    assert totals == pl.read_parquet(out)["score"][17].to_list()


def test_replay_from_file_rejects_a_game_it_does_not_hold(tmp_path, capsys):
    out = tmp_path / "t.parquet"
    assert run(capsys, "sim", "toy", "--n", "50", "--seed", "8", "--out", str(out), "-q")[0] == 0
    code, _, stderr = run(capsys, "replay", "toy", "--from", str(out), "--game", "50")
    assert code == 2 and f"--game 50: {out} holds games 0..49" in stderr
    assert run(capsys, "replay", "toy", "--from", str(out), "--game", "49")[0] == 0


def test_report_onto_a_file_fails_before_any_work(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t.parquet"
    assert run(capsys, "sim", "toy", "--n", "50", "--out", str(out), "-q")[0] == 0
    played = []
    monkeypatch.setattr(games.get("toy"), "report", lambda *a: played.append(a))
    code, _, stderr = run(capsys, "report", "toy", str(out), "--out", str(out))
    assert code == 2 and "is a file; a report needs a folder" in stderr and played == []


def test_describe_shows_defaults_as_yaml_values_and_every_rule_has_a_meaning(capsys):
    for name in games.names():
        if name == "toy":
            continue
        code, stdout, _ = run(capsys, "games", "--describe", name)
        rules = [line.split(maxsplit=2) for line in stdout.splitlines() if line.startswith("  rules.")]
        assert code == 0 and rules
        assert "(" not in "".join(r[1] for r in rules)  # no Python reprs such as Bonus(credits=0, ...)
        assert all(len(r) == 3 and r[2].strip() for r in rules), f"{name}: a rule parameter without a description"


def test_usage_errors_are_one_line_under_clirunner_and_as_a_process(tmp_path):
    import subprocess
    import sys

    from typer.testing import CliRunner
    r = CliRunner().invoke(cli.app, ["sim", "toy", "--jobs", "abc"], prog_name="analyzer")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "error: analyzer sim: Invalid value for '--jobs'" in r.stderr
    p = subprocess.run([sys.executable, "-m", "analyzer", "replay", "stop"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 2 and p.stderr == "error: analyzer replay: Missing option '--game' (see analyzer replay --help)\n"
    assert list(tmp_path.iterdir()) == []


def test_unpacking_a_file_that_is_not_a_cache_pack_is_one_line(tmp_path, capsys):
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a tar archive\n" * 10)
    code, _, stderr = run(capsys, "cache", "unpack", str(bogus))
    assert code == 2 and stderr.count("\n") == 1
    assert f"{bogus}: not a cache pack (not a tar archive); make one with `analyzer cache pack`" in stderr


def test_ci_check_validates_every_scenario_before_playing_any(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "a_good.yaml").write_text(games.get("pig").default_scenario.read_text())  # it has bounds
    (folder / "b_broken.yaml").write_text("game: pig\nplayers: 2\npolicies: [hold_at]\nrules: {target: -5}\n"
                                         "balance: {length: {max: 30}}\n")
    code, stdout, stderr = run(capsys, "ci", "check", str(folder), "--n", "200", "--out", "reports")
    assert code == 2 and stderr.count("\n") == 1 and "b_broken.yaml" in stderr and "rules.target" in stderr
    assert stdout == "" and not (tmp_path / "reports").exists()  # a_good.yaml was neither played nor written


@pytest.mark.parametrize("call,needle", [
    (lambda a: a.sim("toy", n="abc"), "n='abc': expected a whole number"),
    (lambda a: a.sim("toy", n=2.5), "n=2.5: must be a whole number"),
    (lambda a: a.sim("toy", n=0), "n=0: must be a whole number of at least 1"),
    (lambda a: a.sim("toy", n=True), "n=True: expected a whole number"),
    (lambda a: a.sim("toy", n=10, seed=-1), "seed=-1: must be an integer"),
    (lambda a: a.sim("toy", n=10, seed=2**62), "seed=4611686018427387904: must be an integer from 0 to 2**62-1"),
    (lambda a: a.sim("toy", n=10, jobs=0), "jobs=0: must be at least 1"),
    (lambda a: a.sim("toy", n=10, chunk=0), "chunk=0: must be at least 1 game"),
    (lambda a: a.sim("toy", n=10, until_ci=2), "until_ci=2: a half-width"),
    (lambda a: a.sim("toy", n=10, backend="spark"), "backend='spark': choose from"),
    (lambda a: a.sim("toy", n=10, players=9), "players=9: players must be 2..6"),
    (lambda a: a.sim("toy", n=10, policy="clever"), "policy=clever: unknown policy"),
    (lambda a: a.sim("toy", n=10, set=["norhs"]), "set='norhs': expected KEY=VALUE"),
    (lambda a: a.sim("toy", n=10, set=["rules.rolls=2", "rules.rolls=3"]), "set=rules.rolls: given more than once"),
    (lambda a: a.sim("toy", n=10, resume=True), "resume=True: give out="),
    (lambda a: a.sim("toy", n=10, out="r.parquet", resume=True), "resume=True: nothing to resume for r.parquet"),
    (lambda a: a.sim("toy", n=10, out="r.csv"), "out=r.csv: results are written as parquet only"),
    (lambda a: a.replay("toy", game_id=-1), "game_id=-1: must be a game id >= 0"),
    (lambda a: a.replay("toy", game_id="x"), "game_id='x': must be a game id >= 0"),
    (lambda a: a.read("foreign.parquet"), "foreign.parquet: no analyzer run metadata (not written by `analyzer sim`)"),
])
def test_python_api_errors_name_the_argument_not_the_flag(tmp_path, monkeypatch, call, needle):
    import analyzer
    monkeypatch.chdir(tmp_path)
    pl.DataFrame({"a": [1, 2]}).write_parquet(tmp_path / "foreign.parquet")
    with pytest.raises(analyzer.UserError) as e:
        call(analyzer)
    assert needle in str(e.value) and "--" not in str(e.value).split(":")[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["foreign.parquet"]  # nothing written
