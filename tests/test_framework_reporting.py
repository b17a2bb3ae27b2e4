"""The report builder: header honesty (estimated data), Markdown + HTML + PNG output."""
import matplotlib.pyplot as plt

from analyzer import stats
from analyzer.reporting import Report, errorbar_chart


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
    from analyzer.reporting import COMPARE_MAX, COMPARE_MIN, compare_n, comparing, comparisons
    monkeypatch.delenv("ANALYZER_COMPARE_N", raising=False)
    assert compare_n(50_000) == 5_000 and compare_n(1_000_000) == COMPARE_MAX
    assert compare_n(10_000) == COMPARE_MIN and compare_n(500) == 500  # never more than the run holds
    with comparisons(300):
        assert compare_n(50_000) == 300 and comparing()
    with comparisons(None, enabled=False):
        assert not comparing()
    monkeypatch.setenv("ANALYZER_COMPARE_N", "120")  # the tests' setting goes through the same path
    assert compare_n(50_000) == 120


def test_no_compare_on_a_report_that_cannot_skip_its_runs_is_one_line_and_writes_nothing(tmp_path, capsys):
    from analyzer import cli, games
    stop = games.get("stop")
    assert not stop.report_skips_comparisons and games.get("pig").report_skips_comparisons
    res = tmp_path / "results"
    res.mkdir()
    for game in ("pig", "stop"):
        assert cli.main(["sim", game, "--n", "50", "--out", str(res / f"{game}.parquet")]) == 0
    capsys.readouterr()
    assert cli.main(["report", "stop", str(res / "stop.parquet"), "--out", str(tmp_path / "one"), "--no-compare"]) == 2
    assert cli.main(["report", "--all", str(res), "--out", str(tmp_path / "all"), "--no-compare"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all("report stop: --no-compare: this game's report sections are built from "
                                   "comparison runs" in x for x in lines)
    assert not (tmp_path / "one").exists() and not (tmp_path / "all").exists()  # pig's report was not written either


def test_the_index_shows_each_game_s_skill_reading(tmp_path):
    from analyzer.reporting import write_index
    for folder, skill in (("a", "Random wins 5.0% [3.1, 7.3] (n=400) against the hold_at player: skill matters."),
                          ("b", "")):
        rep = Report(f"Report {folder}", _meta([]), 10)
        rep.headline(f"Headline {folder}.")
        rep.skill = skill
        rep.write(tmp_path / folder)
    md = write_index(tmp_path, ["a", "b"]).with_suffix(".md").read_text()
    assert "| skill and luck |" in md and "against the hold_at player: skill matters. | 10 |" in md
    assert "| not measured | 10 |" in md


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
