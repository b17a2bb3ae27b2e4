"""The designer's loop on the command line: compare, check, sweep and tune (STOP for the issue's two
boundary behaviours of compare, Pig elsewhere: it compiles fast)."""
import re

import pytest

import analyzer
from analyzer import cli, games
from analyzer.errors import MAX_SEED

STOP = str(games.get("stop").default_scenario)
PIG = games.get("pig").default_scenario
PIG_WITHOUT_BOUNDS = PIG.read_text().split("\nbalance:")[0] + "\n"  # the default ships bounds; tests set their own


def verdicts(text: str) -> dict[str, str]:
    """measure -> verdict from `compare --markdown` output."""
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    return {r[0].strip("| "): r[-1].strip(" |") for r in rows[1:]}


def one_line_error(capsys, text: str) -> None:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and text in err, err


def test_a_scenario_compared_with_itself_changes_nothing(capsys):
    assert cli.main(["compare", "stop", STOP, STOP, "--n", "1000", "--markdown", "-q", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    got = verdicts(text)
    # the same scenario plays the same games: every row says so, and the headline says why
    assert len(got) == 10 and set(got.values()) == {"identical games"}
    assert "spread between positions (best - worst win rate)" in got
    assert "**The edit changed no decision and no outcome**: both sides played identical games" in text


def test_a_shorter_stop_match_changes_its_length_and_nothing_unrelated(capsys):
    assert cli.main(["compare", "stop", STOP, "--set", "rules.match_limit=300", "--n", "2000", "--markdown", "-q",
                     "--jobs", "1"]) == 0
    got = verdicts(capsys.readouterr().out)
    assert got["length"] == "changed"
    # scores accumulate to the limit, so they move with it; who wins from which position, draws and stalls do not
    assert got["mean score"] == "changed"
    unrelated = [k for k in got if k.startswith(("position", "spread between positions")) or k in ("draw rate", "safety stop rate")]
    assert len(unrelated) == 7 and all(got[k] == "no change detected at this n" for k in unrelated)


def test_compare_writes_a_report_with_a_forest_plot(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert cli.main(["compare", "pig", str(PIG), "--set", "rules.target=50", "--n", "500", "-q", "--out", str(out)]) == 0
    md = (out / "index.md").read_text()
    assert "p (Holm)" in md and "| length |" in md and "changed" in md and "n = 500 games" in md
    assert (out / "index.html").exists() and (out / "forest.png").stat().st_size > 0
    # the headline answers: the rows that changed, with their differences, and the forest plot
    head = md.split("## Headline answers", 1)[1].split("## What was run", 1)[0]
    assert re.search(r"\*\*\d+ of 8 rows changed\*\* \(Holm p < 0.05\): .*length [\d.]+ -> [\d.]+, -", head), head
    assert "![" in head and "forest.png" in head
    # the header names the edit by its diff: the base is the default, the variant is not
    header = md.split("## What was run", 1)[1]
    assert "The base's rules: the game's default scenario." in header and "Rules: the game's default" not in md
    assert "the base with `rules.target=50`. Its rules changed from the game's default scenario: `rules.target=50`." in header


def test_a_compare_report_of_a_stop_edit_never_calls_it_the_default(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert cli.main(["compare", "stop", STOP, "--set", "rules.match_limit=300", "--n", "500", "-q", "--jobs", "1",
                     "--out", str(out)]) == 0
    md = (out / "index.md").read_text()
    assert "Rules: the game's default scenario" not in md and "`rules.match_limit=300`" in md.split("## What was run")[1]
    head = md.split("## Headline answers", 1)[1].split("## What was run", 1)[0]
    assert "rows changed" in head and "length" in head


def test_results_files_compare_paired_when_they_hold_the_same_games(tmp_path, capsys):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    analyzer.sim("pig", n=400, seed=3, out=a)
    analyzer.sim("pig", n=400, seed=3, set={"rules.target": 60}, out=b)
    assert cli.main(["compare", "pig", str(a), str(b), "--markdown"]) == 0
    text = capsys.readouterr().out
    assert "paired: both sides played the same seeded games" in text and verdicts(text)["length"] == "changed"


def test_results_of_two_games_or_two_player_counts_do_not_compare(tmp_path, capsys):
    pig2, pig3, stop = tmp_path / "p2.parquet", tmp_path / "p3.parquet", tmp_path / "s.parquet"
    analyzer.sim("pig", n=50, out=pig2)
    analyzer.sim("pig", n=50, players=3, out=pig3)
    analyzer.sim("stop", n=20, out=stop)
    out = tmp_path / "rep"
    assert cli.main(["compare", "pig", str(pig2), str(stop), "--out", str(out)]) == 2
    one_line_error(capsys, "holds results of 'stop', not 'pig'")
    assert cli.main(["compare", "pig", str(pig2), str(pig3), "--out", str(out)]) == 2
    one_line_error(capsys, "3 players, but")
    assert not out.exists()


def scenario(tmp_path, balance: str):
    f = tmp_path / "pig.yaml"
    f.write_text(PIG_WITHOUT_BOUNDS + "balance:\n" + balance)
    return f


@pytest.mark.parametrize("bounds,code,state", [
    ("  length: {min: 15, max: 25}\n  draw_rate: {max: 0.01}\n", 0, "PASS"),
    ("  length: {max: 12}\n", 1, "FAIL"),
    ("  position_win_rate: {max_spread: 0.07}\n", 3, "UNDECIDED"),  # about 0.07 at n=2,000
])
def test_check_exit_codes_and_report(tmp_path, capsys, bounds, code, state):
    out = tmp_path / "rep"
    assert cli.main(["check", "pig", "--scenario", str(scenario(tmp_path, bounds)), "--n", "2000", "-q",
                     "--out", str(out)]) == code
    assert state in capsys.readouterr().out
    md = (out / "index.md").read_text()
    assert f"| {state} |" in md and "2,000" in md
    # the headline answers: the overall result with its exit code, then the verdict of every bound
    head = md.split("## Headline answers", 1)[1].split("## What was run", 1)[0]
    overall = {0: "**Every bound passes**", 1: "**A bound is broken**", 3: "**Undecided**"}[code]
    assert overall in head and f"exit {code}" in head
    assert head.count(f"**{state}** `") >= 1 and head.count("** `") == bounds.count(": {") + bounds.count(", ")


@pytest.mark.parametrize("seed", [7, MAX_SEED])  # each look plays seed + look: the largest seed too
def test_until_decided_adds_games_until_the_bound_is_decided(tmp_path, capsys, seed):
    f = scenario(tmp_path, "  position_win_rate: {max_spread: 0.2}\n")
    assert cli.main(["check", "pig", "--scenario", str(f), "--n", "200", "--until-decided", "--max-n", "12800",
                     "--seed", str(seed), "-q", "--out", str(tmp_path / "rep")]) == 0
    text = capsys.readouterr().out
    # the spread (about 0.07) needs more than 200 games to fall below 0.2 at the spent level
    played = int(re.search(r"([\d,]+) games \(seeds", text).group(1).replace(",", ""))
    assert 200 < played < 12_800 and "equal shares over 7 planned looks" in text


def test_bad_bounds_and_missing_bounds_are_one_line_errors_that_write_nothing(tmp_path, capsys):
    out = tmp_path / "rep"
    bad = scenario(tmp_path, "  faction_win_rate: {max_deviation: 0.08}\n")
    assert cli.main(["check", "pig", "--scenario", str(bad), "--n", "100", "--out", str(out)]) == 2
    one_line_error(capsys, "balance.faction_win_rate: pig has no measure 'faction_win_rate'")
    (tmp_path / "plain.yaml").write_text(PIG_WITHOUT_BOUNDS)
    assert cli.main(["check", "pig", "--scenario", str(tmp_path / "plain.yaml"), "--n", "100", "--out", str(out)]) == 2
    one_line_error(capsys, "balance: no bounds to check")
    assert not out.exists()


def test_two_field_sweep_draws_a_heatmap(tmp_path, capsys):
    png = tmp_path / "h.png"
    assert cli.main(["sweep", "pig", "--param", "rules.target", "--values", "50,100", "--param", "rules.first_player",
                     "--values", "random,seat0", "--n", "300", "-q", "--heatmap", str(png)]) == 0
    assert "50, seat0" in capsys.readouterr().out and png.stat().st_size > 0


def test_tune_for_length_picks_the_target_that_gives_it_and_prints_it_ready_to_paste(capsys):
    assert cli.main(["tune", "pig", "--target", "length", "--goal", "10", "--n", "300", "--check-n", "500", "-q"]) == 0
    out = capsys.readouterr().out
    assert "best of 5 candidates" in out and "rules.target=50" in out and "tuned" in out and "as given" in out
    assert "significantly lower" in out and "Paste it: --set rules.target=50" in out


def pig_tuning(tmp_path, values: str):
    f = tmp_path / "pig.yaml"
    f.write_text(PIG_WITHOUT_BOUNDS.split("\ntune:")[0] + f"\ntune:\n  rules.target: [{values}]\n")
    return str(f)


def test_tune_says_nothing_beats_the_scenario_when_the_search_keeps_it(tmp_path, capsys):
    # a mean length near 20 turns: the printed target of 100 gives it, 40 does not
    assert cli.main(["tune", "pig", "--scenario", pig_tuning(tmp_path, "40, 100"), "--target", "length", "--goal", "20",
                     "--n", "300", "--check-n", "500", "-q"]) == 0
    out = capsys.readouterr().out
    assert "rules.target=100 (the scenario as given)" in out
    assert "Nothing in this space beats the scenario as given at this n" in out and "Proposal" not in out


def test_tune_never_proposes_a_setting_that_is_not_significantly_better(tmp_path, capsys):
    # 100 and 101 points to win: at seed 2 the search's luck picks 101, and fresh games cannot tell them apart
    assert cli.main(["tune", "pig", "--scenario", pig_tuning(tmp_path, "100, 101"), "--n", "300", "--check-n", "1000",
                     "--seed", "2", "-q"]) == 0
    out = capsys.readouterr().out
    assert "): rules.target=101\n" in out and "not significantly lower" in out
    assert "Nothing in this space beats the scenario as given at this n" in out and "Proposal" not in out


def test_a_tune_candidate_that_makes_no_valid_scenario_fails_before_any_game(tmp_path, capsys):
    f = tmp_path / "pig.yaml"
    f.write_text(PIG_WITHOUT_BOUNDS.split("\ntune:")[0] + "\ntune:\n  rules.target: [50, -3]\n")
    assert cli.main(["tune", "pig", "--scenario", str(f), "--n", "100", "-q"]) == 2
    one_line_error(capsys, "tune: rules.target=-3: rules.target: Input should be greater than or equal to 1")


def test_every_playing_command_says_when_it_compiles(capsys, monkeypatch):
    """Not only sim: a command whose games count on one bar shows the compile too (outside a terminal, a line)."""
    from analyzer import compile_cache
    monkeypatch.setattr(compile_cache, "is_warm", lambda folder: False)  # as on a first run
    monkeypatch.setattr(compile_cache, "expected_seconds", lambda folder: 42)
    monkeypatch.setattr(compile_cache, "record_seconds", lambda folder, s: None)
    assert cli.main(["compare", "pig", str(PIG), "--set", "rules.target=80", "--n", "200"]) == 0
    said = capsys.readouterr().err.splitlines()
    assert said[0] == "compiling pig (once per machine, about 42 s)" and said[1].startswith("compiled pig in ")
    assert said[2].startswith("pig compare: 400 games in") and len(said) == 3
    assert cli.main(["compare", "pig", str(PIG), "--set", "rules.target=80", "--n", "200", "-q"]) == 0
    assert capsys.readouterr().err == ""  # -q: nothing
