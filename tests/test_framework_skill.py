"""The strong-play report sections (analyzer.skill, issue #25) on Pig: tuned play, what each element is
worth and skill and luck, with and without a tuned file, and under --no-compare."""
import re
import shutil
from pathlib import Path

import pytest

import analyzer
from analyzer import cli, games, skill, train

PIG = games.get("pig")
REPO = Path(__file__).resolve().parents[1]
NUMBER = r"(\d+\.\d+)% \[(\d+\.\d+), (\d+\.\d+)\] \(n=([\d,]+)\)"


@pytest.fixture
def scenarios(tmp_path, monkeypatch):
    """Pig's scenario folder as a temporary copy (a test may add tuned.yaml to it)."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(REPO / "scenarios/pig/default.yaml", folder)
    monkeypatch.setattr(type(PIG), "scenario_dir", property(lambda self: folder))
    return folder


def tuned_file(folder: Path, hold_at: int) -> None:
    (folder / "tuned.yaml").write_text(
        "game: pig\nname: tuned\ndescription: 'Tuned hold_at: a test file.'\nplayers: 2\npolicies: [hold_at]\n"
        f"weights:\n  hold_at: {{hold_at: {hold_at}}}\n")


def section(md: str, title: str) -> str:
    return md.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def row(text: str, first_cell: str) -> list[str]:
    [line] = [x for x in text.splitlines() if x.startswith(f"| {first_cell} |")]
    return [c.strip() for c in line.strip("|").split("|")]


def number(cell: str) -> tuple[float, float, float, int]:
    value, lo, hi, n = re.search(NUMBER, cell).groups()
    return float(value), float(lo), float(hi), int(n.replace(",", ""))


def report(tmp_path, n=2_000, compare_n=400, hold_at=20, **kw) -> tuple[str, dict]:
    df = analyzer.sim("pig", n=n, seed=3, set={"weights.hold_at.hold_at": hold_at}, progress=False)
    info = {}
    index = analyzer.report("pig", df, out=tmp_path / "rep", compare_n=compare_n, info=info, progress=False, **kw)
    return index.read_text(), info


def test_without_a_tuned_file_the_sections_say_so_and_random_loses_to_the_heuristic(scenarios, tmp_path):
    md, _ = report(tmp_path)
    assert "No tuned player: pig has no tuned.yaml (`analyzer train pig` writes one)." in section(md, "Tuned play")
    luck = section(md, "Skill and luck")
    value, lo, hi, n = number(row(luck, "random")[1])
    assert n == 400 and hi < 50.0  # random alone against hold_at, rotated over both seats (200 games each)
    assert "Random wins" in luck and "against the hold_at player (its own share 50.0%)" in luck and ": skill matters." in luck
    assert "below 50% of that share" in luck and "at or above 80%" in luck  # the thresholds are stated
    assert row(luck, "random")[2:] == ["50.0%", "below the field's own"]  # Pig: one winner a game, so 1/P exactly


def test_a_tuned_file_adds_the_tuned_verdict_and_random_loses_to_the_tuned_player(scenarios, tmp_path):
    tuned_file(scenarios, 25)
    md, _ = report(tmp_path)
    tuned = section(md, "Tuned play")
    assert "hold_at=25 (default 20)" in tuned and "Tuned hold_at: a test file." in tuned
    cells = row(tuned, "tuned hold_at (all)")
    p1, p2 = number(cells[1]), number(cells[2])
    assert p1[3] == p2[3] == 400 and abs(p1[0] + p2[0] - 100) < 0.2  # two positions' win rates of real games
    assert row(tuned, "this run: hold_at (all)")[-1] == "2,000" and row(tuned, "random (all)")[-1] == "400"
    assert re.search(r"The largest move is position \d: [+-]\d+\.\d points \[[+-]\d+\.\d, [+-]\d+\.\d\] \(n=400\)", tuned)
    luck = section(md, "Skill and luck")
    assert number(row(luck, "tuned hold_at")[1])[3] == 400
    reading = re.search(r"\*\*Random wins " + NUMBER + r" against the tuned hold_at player \(its own share 50\.0%\)", luck)
    assert reading and float(reading.group(3)) < 50.0
    summary = (tmp_path / "rep" / "summary.json").read_text()
    assert "against the tuned hold_at player" in summary  # the index shows the reading


def test_a_restriction_priced_against_the_field_it_changes(scenarios, tmp_path):
    # The field holds at 5; a seat that may never hold under 20 plays hold-at-20 in effect: clearly stronger.
    md, _ = report(tmp_path, hold_at=5)
    cells = row(section(md, "What each element is worth"), "`no_early_hold`")
    value, lo, hi, n = number(cells[2])
    assert n == 400 and cells[3] == "50.0%" and lo > 50.0 and cells[4] == "above the field's own"
    assert cells[5] == "0 (0.00 a game)"  # holding at 20 or rolling: some option always remains


def test_a_restriction_that_changes_no_decision_reads_exactly_fair(scenarios, tmp_path):
    # hold_at 20 never holds under 20: the restricted seat plays the same games as everyone else.
    md, _ = report(tmp_path, hold_at=20)
    cells = row(section(md, "What each element is worth"), "`no_early_hold`")
    assert number(cells[2])[0] == 50.0 and cells[4] == "no difference detected at this n"


def test_no_compare_skips_every_comparison_and_says_so(scenarios, tmp_path):
    tuned_file(scenarios, 25)
    md, info = report(tmp_path, compare_n=None, compare=False)
    for title in (*skill.TITLES, "The verdict under other policies"):
        assert f"{title}: not run (--no-compare)." in section(md, title)
    assert "Comparison runs: not run (--no-compare)" in md
    assert info["comparison_runs"] == info["comparison_games"] == 0


def test_the_progress_total_announces_the_sections_runs_and_counts_every_game(scenarios, tmp_path):
    tuned_file(scenarios, 25)
    seen = []
    md, info = report(tmp_path, n=1_000, compare_n=100, on_run=lambda n, s, meta: seen.append(n))
    # announced before the first run: tuned play (random and tuned, 100 games each), then 2 seats x 50 games
    # and 50 of the field alone for the one restriction and for each one-seat measure (random, tuned, random
    # against tuned); then under search play, a small report's: every seat searching and the tuned player
    # on a tenth of 100 games each, and the strength curve at one budget on a twentieth per rotation (2
    # rotations and the field alone)
    assert info["planned_at_start"] == 200 + 4 * (100 + 50) + 2 * 10 + 5 * (1 + 2)
    assert info["comparison_runs"] == len(seen) and info["comparison_games"] == sum(seen)
    # played: Pig's own two runs (its third, hold_at 20 (all), is the run's own setting: not played again) and
    # the announced ones, less the two both asked for (random (all), and hold_at 25 (all), which is tuned (all))
    # and the field alone asked thrice (hold_at 20): each played once
    assert sum(seen) == 200 + 800 - 200 - 2 * 50 + 2 * 10 + 5 * 3 and seen.count(50) == 10
    # the bar ends full: the strength curve's runs, played outside compare_run, count against the games
    # announced for them rather than adding to the total a second time
    assert info["comparison_total"] == info["comparison_games"]


def test_cli_compare_n_and_no_compare(scenarios, tmp_path, capsys):
    res = tmp_path / "pig.parquet"
    assert cli.main(["sim", "pig", "--n", "600", "--seed", "2", "--out", str(res)]) == 0
    assert cli.main(["report", "pig", str(res), "--out", str(tmp_path / "a"), "--compare-n", "60"]) == 0
    err = capsys.readouterr().err
    assert "comparison run 1: 60 games" in err and " 30 games" in err  # the one-seat runs: 2 seats x 30
    assert cli.main(["report", "pig", str(res), "--out", str(tmp_path / "b"), "--no-compare"]) == 0
    assert "comparison run" not in capsys.readouterr().err
    assert "Skill and luck: not run (--no-compare)." in (tmp_path / "b" / "index.md").read_text()
    assert cli.main(["report", "pig", str(res), "--out", str(tmp_path / "c"), "--no-compare", "--compare-n", "9"]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and not (tmp_path / "c").exists()


def test_a_tuned_file_for_a_policy_without_weights_is_one_line(scenarios, tmp_path):
    (scenarios / "tuned.yaml").write_text("game: pig\nplayers: 2\npolicies: [random]\n")
    with pytest.raises(analyzer.errors.UserError, match=r"tuned.yaml: policies: a tuned file plays one policy"):
        train.tuned_player(PIG)


def test_a_game_passes_its_own_headline_measure_to_tuned_play(scenarios, tmp_path):
    from analyzer import stats
    from analyzer.report_runs import comparisons
    from analyzer.reporting import Report
    tuned_file(scenarios, 30)
    out = tmp_path / "pig.parquet"
    df = analyzer.sim("pig", n=400, seed=5, out=out, progress=False)
    meta = analyzer.results.read_meta(out)

    def length(d):  # a headline that is not the position win rates: the share of games over 20 turns, and a mean
        long = stats.proportion(int((d["length"] > 20).sum()), d.height)
        return skill.Verdict({"over 20 turns": long, "mean turns": stats.bootstrap_mean(d["length"].to_numpy())},
                             "long games" if long.value > 0.5 else "short games", means={"mean turns"})

    rep = Report("R", meta, df.height)
    with comparisons(200):
        skill.sections(rep, PIG, df, meta, verdict=length)
    tuned = section(rep.write(tmp_path / "rep").read_text(), "Tuned play")
    cells = row(tuned, "tuned hold_at (all)")
    assert cells[0:1] + cells[3:] == ["tuned hold_at (all)", "long games" if number(cells[1])[0] > 50 else "short games", "200"]
    assert "%" in cells[1] and "%" not in cells[2] and 10 < float(cells[2].split()[0]) < 40  # a rate, and a mean in turns
    assert "The largest move is over 20 turns:" in tuned and "hold_at=30 (default 20)" in tuned
    assert re.search(r"The means move, in their own units: mean turns [+-]\d+\.\d\d \[", tuned)


def test_a_headline_of_several_rates_names_the_strong_and_the_weak():
    from analyzer import stats
    v = skill.rates_verdict({"a": stats.proportion(60, 100), "b": stats.proportion(50, 100),
                             "c": stats.proportion(10, 100)}, 0.45)
    assert v.label == "strong: a; weak: c" and list(v.numbers) == ["a", "b", "c"]


def test_a_tuned_file_whose_weights_do_not_match_its_policy_stops_the_report_before_any_work(scenarios, tmp_path, capsys):
    (scenarios / "tuned.yaml").write_text("game: pig\nplayers: 2\npolicies: [hold_at]\nweights:\n  hold_at: {hold_on: 3}\n")
    res = tmp_path / "pig.parquet"
    assert cli.main(["sim", "pig", "--n", "50", "--out", str(res)]) == 0
    capsys.readouterr()
    assert cli.main(["report", "pig", str(res), "--out", str(tmp_path / "rep"), "--compare-n", "20"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tuned.yaml" in err and "hold_on: unknown weight" in err
    assert not (tmp_path / "rep").exists()


def test_a_difference_of_two_rates_stays_within_100_points_and_of_two_means_is_the_normal_one():
    from analyzer.stats import Estimate, proportion
    few = skill.difference(proportion(3, 3), proportion(0, 3))  # every game against none, on three games
    assert few.value == 1 and -1 <= few.lo < few.hi <= 1
    a, b = Estimate(5.0, 4.0, 6.0, 100), Estimate(3.0, 2.5, 3.5, 100)  # symmetric: the normal approximation
    assert skill.difference(a, b).lo == pytest.approx(2 - 1.25 ** 0.5)
    assert skill.difference(a, b).hi == pytest.approx(2 + 1.25 ** 0.5)
