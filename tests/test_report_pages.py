"""The report pages as a reader sees them: headless Chromium (Debian's `chromium`, installed by
.ci/run; skipped by `make test` where it is missing, see conftest.py) opens the all-games index and every report it links, and every image must have loaded and
every local link (file and #anchor) must resolve. Checked on small fresh reports of `report --all`
and on the committed reports under reports/."""
import json
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import analyzer
from analyzer import cli

REPO = Path(__file__).resolve().parents[1]
# Loads pages one by one into an iframe (file pages may read each other's documents only with
# --allow-file-access-from-files), follows their local .html links, and prints what it saw.
HARNESS = """<!doctype html><html><body><script>
const queue = %s, seen = new Set(queue), out = [];
function load(url) {
  return new Promise(res => {
    const f = document.createElement("iframe");
    f.onload = () => {
      const d = f.contentDocument;
      res({url, imgs: [...d.images].map(i => [i.getAttribute("src"), i.complete, i.naturalWidth]),
           links: [...d.querySelectorAll("a[href]")].map(a => a.getAttribute("href")),
           ids: [...d.querySelectorAll("[id]")].map(e => e.id)});
    };
    f.src = url;
    document.body.appendChild(f);
  });
}
(async () => {
  while (queue.length) {
    const page = await load(queue.shift());
    out.push(page);
    for (const href of page.links) {
      const next = new URL(href, new URL(page.url, location.href)).href.split("#")[0];
      if (next.startsWith("file:") && next.endsWith(".html") && !seen.has(next)) { seen.add(next); queue.push(next); }
    }
  }
  const pre = document.createElement("pre");
  pre.id = "result";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script></body></html>"""


def open_pages(browser: str, start: list[Path], tmp_path: Path) -> dict[Path, dict]:
    """What Chromium saw on each page reachable from `start` by local links, by file path."""
    harness = tmp_path / "harness.html"
    harness.write_text(HARNESS % json.dumps([p.resolve().as_uri() for p in start]))
    r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                        "--virtual-time-budget=60000", "--dump-dom", harness.as_uri()],
                       capture_output=True, text=True, timeout=300)
    found = re.search(r'<pre id="result">(.*?)</pre>', r.stdout, re.S)
    assert found, r.stderr[-2000:]
    pages = json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    return {Path(unquote(urlsplit(p["url"]).path)): p for p in pages}


def assert_pages_whole(pages: dict[Path, dict]) -> None:
    for path, page in pages.items():
        for src, complete, width in page["imgs"]:
            assert complete and width > 0, f"{path}: image {src} did not load"
        for href in page["links"]:
            url = urlsplit(href)
            if url.scheme in ("http", "https"):
                continue
            target = (path.parent / unquote(url.path)).resolve() if url.path else path
            assert target.is_file(), f"{path}: link {href} points to a missing file"
            if url.fragment:
                ids = pages[target]["ids"] if target in pages else re.findall(r"id=['\"]([^'\"]+)", target.read_text())
                assert url.fragment in ids, f"{path}: link {href} points to a missing anchor"


@pytest.mark.needs_tool  # chromium (conftest.py)
def test_report_all_index_and_reports_open_whole_in_chromium(chromium, tmp_path, monkeypatch):
    monkeypatch.setenv("ANALYZER_COMPARE_N", "100")
    results = tmp_path / "results"
    results.mkdir()
    for game in ("stop", "pig"):
        analyzer.sim(game, n=300, seed=7, out=results / f"{game}.parquet")
    assert cli.main(["report", "--all", str(results), "--out", str(tmp_path / "reports")]) == 0
    index = tmp_path / "reports" / "index.html"
    pages = open_pages(chromium, [index], tmp_path)
    reports = {tmp_path / "reports" / g / "index.html" for g in ("stop", "pig")}
    assert reports <= set(pages), "the index links every report"
    assert_pages_whole(pages)
    for page in reports:
        assert len(pages[page]["imgs"]) >= 1 and "headline-answers" in pages[page]["ids"]
        assert any(h.startswith("#") for h in pages[page]["links"]), "every report has a table of contents"
    summary = json.loads((tmp_path / "reports" / "stop" / "summary.json").read_text())
    row = index.read_text().split("stop/index.html", 1)[1].split("</tr>", 1)[0]
    # every game at a glance: a short verdict, its headline chart as a thumbnail, the details behind links
    verdict = summary["verdict"].replace("**", "")
    assert verdict.split(":")[0] in row and verdict.split(": ", 1)[1][:40] in row
    assert summary["headline"] not in row and "href='stop/index.html#headline-answers'>details</a>" in row
    assert f"<img src='stop/{summary['chart']}'" in row and summary["chart"] == "position_win_rate.png"
    assert "3 of 3 policy settings" in row and "<td>none</td>" in row  # holds under; no estimated data
    thumbs = [i for i in pages[index.resolve()]["imgs"]]
    assert len(thumbs) == 2 and all(width > 0 for _, _, width in thumbs)  # one loaded thumbnail per game


def test_make_reports_plays_every_game_before_the_index():
    # `make reports` is the index's source: a game it does not play is missing from reports/index.html
    recipe = (REPO / "Makefile").read_text().split("\nreports:", 1)[1].split("\n\n", 1)[0]
    for game in analyzer.games.names():
        assert f"analyzer sim {game} " in recipe, f"make reports does not play {game}"
    assert "report --all results --out reports" in recipe


@pytest.mark.needs_tool  # chromium (conftest.py)
def test_index_links_to_short_and_long_estimated_lists_resolve(chromium, tmp_path):
    # a report names a few estimated items in its header and links a long list to its own section
    from analyzer.reporting import Report, Scope, write_index
    for k in (5, 20):
        meta = {"game": f"g{k}", "scenario": {"name": "demo", "players": 2}, "policies": ["a", "a"],
                "estimated": [f"item {i}: a note" for i in range(k)]}
        rep = Report(f"Game with {k} estimates", meta, 10)
        rep.headline("Position 1 wins 50.0% [40.4, 59.6] (n=100).", Scope(["a (all)"], []))
        rep.write(tmp_path / f"g{k}")
    index = write_index(tmp_path, ["g5", "g20"])
    pages = open_pages(chromium, [index], tmp_path)
    assert len(pages) == 3
    assert_pages_whole(pages)
    links = pages[index.resolve()]["links"]
    assert "g5/index.html#what-was-run" in links and "g20/index.html#estimated-data" in links


@pytest.mark.needs_tool  # chromium (conftest.py)
def test_committed_reports_open_whole_in_chromium(chromium, tmp_path):
    start = [REPO / "reports" / "index.html"] if (REPO / "reports" / "index.html").is_file() else \
        sorted((REPO / "reports").glob("*/index.html"))
    assert start, "reports/ holds the committed reports"
    assert_pages_whole(open_pages(chromium, start, tmp_path))


def test_report_all_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for folder in ("empty", "mixed"):
        (tmp_path / folder).mkdir()
    analyzer.sim("pig", n=20, seed=1, out=tmp_path / "mixed" / "pig.parquet")
    (tmp_path / "mixed" / "stop.parquet").write_bytes((tmp_path / "mixed" / "pig.parquet").read_bytes())
    for args, needle in ((["report", "--all", "empty"], "report --all: empty holds no results file named GAME.parquet"),
                         (["report", "--all", "mixed"], "mixed/stop.parquet holds results of 'pig', not 'stop'"),
                         (["report", "stop"], "report: give GAME and RESULTS_PATH")):
        assert cli.main(args) == 2
        err = capsys.readouterr().err
        assert needle in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "mixed"]  # no reports/ written


@pytest.mark.parametrize("game", ["mlem", "simplecard", "spacebase", "cosmic"])
def test_every_report_opens_with_its_headline_answers(game, tmp_path, monkeypatch):
    monkeypatch.setenv("ANALYZER_COMPARE_N", "60")
    df = analyzer.sim(game, n=200, seed=7)
    md = analyzer.report(game, df, out=tmp_path / game).read_text()
    head, rest = md.split("## Headline answers", 1)[1].split("## What was run", 1)
    assert "Contents: [Headline answers](#headline-answers)" in md.split("## Headline answers", 1)[0]
    assert "% [" in head and "(n=" in head and "![" in head  # numbers with intervals, and a chart
    assert "The same verdict under:" in head
    summary = json.loads((tmp_path / game / "summary.json").read_text())
    assert summary["headline"] and summary["headline"] in head and summary["holds_under"]
    assert summary["verdict"].startswith("**") and summary["chart"] and (tmp_path / game / summary["chart"]).is_file()
    assert "## " in rest  # the sections follow the inputs
    # a smaller sample of the run's own setting is not another policy setting
    assert not any(s.startswith(("all heuristic (", "hold_at 20 (all)", "greedy vs greedy (")) for s in summary["not_under"])
    if game == "cosmic":
        assert summary["holds_under"][0] == "this run (all heuristic)" and "all heuristic" not in summary["holds_under"]
        assert "cards-research" not in md
    if game == "mlem":  # an astronaut's worth by restricted play, not by the games a policy chose to send it in
        section = md.split("## Value of each astronaut type", 1)[1].split("\n## ", 1)[0]
        assert "`never_send_satellite`" in section and "selection effect" in section
        assert "win rate: not sent" not in section and not re.search(r"\(n=[1-9]\)", section)


def test_a_space_base_report_of_an_edited_bonus_never_calls_it_printed(tmp_path):
    # `ci reports` of a designer's scenario with a new bonus: its labels come from the diff against the default
    from analyzer.games.spacebase.report import BONUS_VS_NONE, EDITED_VS_NONE
    scenario = tmp_path / "bonus.yaml"
    scenario.write_text(analyzer.games.get("spacebase").default_scenario.read_text()
                        .replace("name: default", "name: bonus", 1))
    sc = analyzer.load_scenario("spacebase", scenario, set=["rules.turn_order_bonus.3.credits=5"])
    df = analyzer.sim("spacebase", n=100, seed=3, scenario=sc)
    md = analyzer.report("spacebase", df, out=tmp_path / "rep", compare=False, progress=False).read_text()
    head = md.split("## Headline answers", 1)[1].split("## What was run", 1)[0]
    assert "printed" not in head and "this scenario's own turn-order bonus" in head and "4: +5cr" in head
    assert f"## {EDITED_VS_NONE}" in md and BONUS_VS_NONE not in md and "printed bonus" not in md
    assert "Rules changed from the game's default scenario: `rules.turn_order_bonus.3.credits=5`" in md
    plain = analyzer.report("spacebase", analyzer.sim("spacebase", n=100, seed=3), out=tmp_path / "plain",
                            compare=False, progress=False).read_text()
    assert "printed turn-order bonus" in plain and f"## {BONUS_VS_NONE}" in plain
