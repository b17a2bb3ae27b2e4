"""The report builder: header honesty (estimated data), Markdown + HTML + PNG output."""
import matplotlib.pyplot as plt

from analyzer import stats
from analyzer.charts import errorbar_chart
from analyzer.reporting import Report


def _meta(estimated):
    return {"scenario": {"name": "demo", "players": 2}, "scenario_hash": "abc", "policies": ["a", "b"],
            "seed": 3, "analyzer_version": "0.1.0", "estimated": estimated, "command": "analyzer sim demo"}


def test_report_writes_markdown_html_and_png(tmp_path):
    rep = Report("Demo report", _meta(["card-x", "card-y"]), 1234)
    rep.section("Seats", "Some **bold** text")
    est = [stats.proportion(40, 100), stats.proportion(60, 100)]
    rep.table(["seat", "win rate"], [[0, est[0].fmt(pct=True)], [1, est[1]]])
    rep.figure(errorbar_chart(["a", "b"], est, "t", "y", pct=True, reference=0.5), "chart.png", "A chart")
    index = rep.write(tmp_path)
    md = index.read_text()
    html = (tmp_path / "index.html").read_text()
    assert "Estimated data (not the published game): 2 items:** card-x, card-y" in md
    assert "1,234 games, seed 3" in md and "| 0 | 40.0% [30.9, 49.8] (n=100) |" in md
    assert "<b>Estimated data" in html and "<img src='chart.png'" in html
    assert (tmp_path / "chart.png").read_bytes()[:4] == b"\x89PNG"
    assert plt.get_fignums() == []  # figures are closed once written


def test_header_says_when_nothing_is_estimated(tmp_path):
    md = Report("R", _meta([]), 10).write(tmp_path).read_text()
    assert "Estimated data: none" in md


def test_header_states_the_stopping_rule_of_a_run_until_confident(tmp_path):
    from toygame import GAME as TOY

    import analyzer
    out = tmp_path / "u.parquet"
    analyzer.sim(TOY, n=50_000, seed=1, until_ci=0.03, out=out)
    meta = analyzer.results.read_meta(out)
    md = Report("R", meta, meta["n"]).write(tmp_path / "rep").read_text()
    assert f"it stopped at {meta['n']:,} games (the target was reached)" in md
    assert "at most 3.00 percentage points" in md and "confidence sequence" in md and "optional stopping" in md


def test_page_opens_with_headlines_then_contents_inputs_and_sections(tmp_path):
    import json

    from analyzer.reporting import Scope
    rep = Report("R", _meta(["x"]), 10)
    rep.section("Details", "the inputs and tables")
    rep.table(["command"], [["`analyzer replay demo --game 1`"]])
    rep.headline("Position 1 wins 40.0% [30.9, 49.8] (n=100).", Scope(["a (all)"], ["b (all) (no verdict)"]))
    rep.headline_figure(errorbar_chart(["a", "b"], [stats.proportion(4, 10)] * 2, "t", "y"), "h.png", "Headline chart")
    md = rep.write(tmp_path).read_text()
    html = (tmp_path / "index.html").read_text()
    order = [md.index(s) for s in ("Contents: [Headline answers](#headline-answers)", "## Headline answers",
                                   "Position 1 wins", "![Headline chart](h.png)", "## What was run",
                                   "Estimated data (not", "## Details")]
    assert order == sorted(order)
    assert "The same verdict under: a (all); a different one under: b (all) (no verdict)." in md
    assert "<a href='#details'>Details</a>" in html and "<h2 id='details'>" in html
    assert "<td><code>analyzer replay demo --game 1</code></td>" in html  # no raw backticks in tables
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["headline"] == "Position 1 wins 40.0% [30.9, 49.8] (n=100)."
    assert summary["holds_under"] == ["a (all)"] and summary["estimated"] == ["x"]


def test_a_long_estimated_list_is_summarised_and_linked_in_full(tmp_path):
    items = [f"card-{k}" for k in range(57)]
    rep = Report("R", _meta(items), 10)
    rep.write(tmp_path)
    html = (tmp_path / "index.html").read_text()
    head = html.split("<h2 id='what-was-run'>", 1)[1].split("<h2", 1)[0]
    assert "57 items:</b> card-0, card-1" in head and "card-7 and 49 more (<a href='#estimated-data'>full list</a>)" in head
    assert "card-8" not in head
    full = html.split("<h2 id='estimated-data'>Estimated data</h2>", 1)[1]
    assert "card-8" in full and "card-56." in full


def test_games_per_comparison_run_follow_the_input_within_limits_or_the_setting(monkeypatch):
    from analyzer.report_runs import COMPARE_MAX, COMPARE_MIN, compare_n, comparing, comparisons
    monkeypatch.delenv("ANALYZER_COMPARE_N", raising=False)
    assert compare_n(50_000) == 5_000 and compare_n(1_000_000) == COMPARE_MAX
    assert compare_n(10_000) == COMPARE_MIN and compare_n(500) == 500  # never more than the run holds
    with comparisons(300):
        assert compare_n(50_000) == 300 and comparing()
    with comparisons(None, enabled=False):
        assert not comparing()
    monkeypatch.setenv("ANALYZER_COMPARE_N", "120")  # the tests' setting goes through the same path
    assert compare_n(50_000) == 120


def test_every_report_writes_under_no_compare_without_a_comparison_run(tmp_path):
    from analyzer import api, cli, games
    res = tmp_path / "results"
    res.mkdir()
    for game in games.names():
        assert cli.main(["sim", game, "--n", "60", "--out", str(res / f"{game}.parquet"), "-q"]) == 0
    for game in games.names():
        info: dict = {}
        api.report(game, res / f"{game}.parquet", tmp_path / game, compare=False, info=info, progress=False)
        assert info["comparison_runs"] == 0, game
        text = (tmp_path / game / "index.md").read_text()
        assert "not run (--no-compare)" in text and "Skill and luck: not run (--no-compare)." in text, game


def test_the_index_shows_each_game_s_skill_reading(tmp_path):
    from analyzer.reporting import write_index
    for folder, skill in (("a", "Random wins 5.0% [3.1, 7.3] (n=400) against the hold_at player: skill matters."),
                          ("b", "")):
        rep = Report(f"Report {folder}", _meta([]), 10)
        rep.headline(f"Headline {folder}.")
        rep.skill = skill
        rep.write(tmp_path / folder)
    md = write_index(tmp_path, ["a", "b"]).with_suffix(".md").read_text()
    assert "| skill and luck |" in md and "| skill matters | none | 10 |" in md  # the reading's few words
    assert "| not measured | none | 10 |" in md


def test_one_report_bar_counts_announced_and_unannounced_runs_to_one_total():
    import io

    from rich.console import Console

    from analyzer.progress import ReportProgress
    screen = io.StringIO()
    with ReportProgress("pig", 5, console=Console(file=screen, force_terminal=True, color_system=None, width=120)) as bar:
        bar.plan(300)  # announced ahead: three runs of 100
        bar.start(50)  # a run the report asks for by itself: the total grows
        bar.advance(50)
        bar.start(100, planned=True)
        bar.advance(100)
        bar.unplan(100)  # an announced run whose results were already there
        bar.start(100, planned=True)
        bar.advance(100)
        assert (bar.total, bar.done, bar.runs, bar.planned_at_start) == (250, 250, 3, 300)
    text = screen.getvalue().split("\r")[-1]  # the last frame
    assert "pig comparison runs (3)" in text and "250/250 games" in text and "ETA" in text


def test_the_header_names_every_rule_change_and_never_calls_an_edit_published(tmp_path):
    meta = {**_meta([]), "changed_rules": ["rules.match_limit=300"]}
    md = Report("R", meta, 10).write(tmp_path / "a").read_text()
    assert "Rules changed from the game's default scenario: `rules.match_limit=300`." in md
    assert "Rules: the game's default scenario" not in md
    assert "comes from the published game, except the changes named above" in md
    # a comparison: the base as it is, the variant by its diff against the base and the game's default
    meta = {**_meta([]), "changed_rules": [], "variant": {"name": "short", "hash": "ff", "changes": ["rules.match_limit=300"],
                                                          "changed_rules": ["rules.match_limit=300"]}}
    md = Report("R", meta, 10).write(tmp_path / "b").read_text()
    assert "Base: scenario **demo**" in md and "The base's rules: the game's default scenario." in md
    assert ("Variant: scenario **short** (hash `ff`), the base with `rules.match_limit=300`. Its rules changed from "
            "the game's default scenario: `rules.match_limit=300`.") in md


def test_a_win_rate_axis_holds_the_fair_share_and_two_points_either_side():
    from analyzer.charts import FAIR_MARGIN
    close = [stats.Estimate(0.2510, 0.2503, 0.2520, 10**6), stats.Estimate(0.2504, 0.2495, 0.2512, 10**6)]
    for labels in (["p1", "p2"], ["a long label one", "a long label two"]):  # vertical, then horizontal
        fig = errorbar_chart(labels, close, "t", "win rate", pct=True, reference=0.25)
        ax = fig.axes[0]
        lo, hi = ax.get_ylim() if len(labels[0]) < 12 else ax.get_xlim()
        assert lo <= 25 - FAIR_MARGIN and hi >= 25 + FAIR_MARGIN, (lo, hi)
        plt.close(fig)
    wide = [stats.Estimate(0.40, 0.38, 0.42, 1000), stats.Estimate(0.10, 0.08, 0.12, 1000)]
    fig = errorbar_chart(["p1", "p2"], wide, "t", "win rate", pct=True, reference=0.25)
    lo, hi = fig.axes[0].get_ylim()
    assert lo <= 8 and hi >= 42  # data wider than the margin keeps its own span
    plt.close(fig)


def test_the_index_shows_every_game_at_a_glance(tmp_path):
    import json

    from analyzer.reporting import Scope, write_index
    for folder, verdict, holds, fails in (
            ("a", "**Unbalanced**: position 2 wins 61.0%, position 1 39.0% (fair share 50.0%): 22.0 points apart; "
                  "beyond chance (p<1e-300, n=10).", ["x (all)", "y (all)"], ["z (all) (no verdict, n=5)"]),
            ("b", "", [], [])):
        rep = Report(f"Report {folder}", _meta(["card-1: a note", "card-2"]), 10)
        long = f"Headline {folder}: " + "position 1 wins 39.0% [30.0, 48.0] (n=10); " * 6
        rep.headline(long, Scope(holds, fails) if holds else None, short=verdict)
        rep.headline_figure(errorbar_chart(["p1", "p2"], [stats.proportion(4, 10)] * 2, "t", "y"), "h.png", "chart")
        rep.headline("A second headline.")
        rep.search = "holds" if folder == "a" else ""
        rep.write(tmp_path / folder)
    assert json.loads((tmp_path / "a" / "summary.json").read_text())["chart"] == "h.png"
    md = write_index(tmp_path, ["a", "b"]).with_suffix(".md").read_text()
    row_a, row_b = (line for line in md.splitlines() if line.startswith("| [Report"))
    assert "**Unbalanced**: position 2 wins 61.0%" in row_a and "([details](a/index.md#headline-answers))" in row_a
    assert "[![Report a: headline chart](a/h.png)](a/h.png)" in row_a  # the headline chart as a thumbnail
    assert "2 of 3 policy settings; not under: z (all)" in row_a and "| holds |" in row_a
    assert "[2 items](a/index.md#what-was-run)" in row_a
    assert "[30.0, 48.0]" not in row_a  # the long sentence stays behind the details link...
    assert "Headline b: position 1 wins 39.0% [30.0, 48.0] (n=10); …" in row_b  # ...or its first clause without a verdict
    html = (tmp_path / "index.html").read_text()
    assert "<a href='a/h.png'><img src='a/h.png' alt='Report a: headline chart'></a>" in html
    assert "| under search play |" in md and "| not measured |" in row_b


def test_a_comparison_run_of_the_run_s_own_setting_is_the_run():
    from analyzer import games, simulation
    from analyzer.report_runs import is_the_run
    pig = games.get("pig")
    meta = simulation.run_meta(pig, analyzer_scenario(pig), 0, 100)
    assert is_the_run(pig, meta) and is_the_run(pig, meta, {"weights.hold_at.hold_at": 20}, policies=["hold_at"])
    assert not is_the_run(pig, meta, {"weights.hold_at.hold_at": 25}, policies=["hold_at"])
    assert not is_the_run(pig, meta, policies=["random"]) and not is_the_run(pig, meta, players=3)
    assert is_the_run(pig, meta, policies=["hold_at", "hold_at"])  # one policy per seat, written out


def analyzer_scenario(game):
    from analyzer import scenario
    return scenario.load(game)


def test_the_position_headline_names_every_position_and_its_short_verdict():
    import analyzer
    from analyzer import positions
    s = positions.Summary.of(analyzer.sim("stop", n=300, seed=1))
    sentence = s.sentence()
    assert all(f"position {k}" in sentence for k in (1, 2, 3, 4)) and "(n=300 games each)" in sentence
    assert sentence.count("(n=") == 1  # n once, not after every position
    short = s.short()
    assert short.startswith(("**Unbalanced**", "**No imbalance found**")) and "n=300" in short and "p" in short


def test_every_file_a_scenario_cites_is_in_the_repository():
    # a scenario's sources and estimated items are printed in every report: a file they name must exist
    import re
    from pathlib import Path

    from analyzer import games, scenario
    repo = Path(__file__).resolve().parents[1]
    present = {p.name for p in repo.rglob("*") if ".git" not in p.parts and ".venv" not in p.parts}
    for name in games.names():
        g = games.get(name)
        texts = [f.read_text() for f in sorted(g.scenario_dir.glob("*.yaml"))] + scenario.load(g).estimated()
        for text in texts:
            for cited in re.findall(r"[\w.-]+\.(?:yaml|yml|md|csv|json)\b", text):
                assert Path(cited).name in present, f"{name}: cites {cited}, which is not in the repository"
