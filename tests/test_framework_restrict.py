"""`--restrict SEAT:NAME` on sim, compare and check (and `restrict=` in the Python API): it sets the
scenario's restrict: field, changes what the restricted seat does, and every mistake is one line, exit 2,
nothing written."""
import sys
import types

import pytest

import analyzer
from analyzer import cli, games, results
from analyzer.scenario import ScenarioBase

PIG = games.get("pig")
# Pig's no_early_hold binds only on a seat that would hold under 20: here, every seat holds at 10
EARLY = "weights:                   #", "weights: {hold_at: {hold_at: 10}}  #"


def run(capsys, *args) -> tuple[int, str, str]:
    code = cli.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def early(tmp_path):
    """A Pig scenario whose seats hold at 10 (its weights line replaced)."""
    text = PIG.default_scenario.read_text(encoding="utf-8").replace(*EARLY).replace("  hold_at: {hold_at: 20}", "#")
    path = tmp_path / "early.yaml"
    path.write_text(text, encoding="utf-8")
    assert analyzer.load_scenario(PIG, path).weights_of(1) == {"hold_at": 10}
    return path


def test_the_api_restrict_is_the_scenario_field(early):
    by_flag = analyzer.sim(PIG, n=300, seed=2, scenario=early, restrict=["1:no_early_hold"])
    by_field = analyzer.sim(PIG, n=300, seed=2, scenario=early, set={"restrict": {1: ["no_early_hold"]}})
    free = analyzer.sim(PIG, n=300, seed=2, scenario=early)
    assert by_flag.drop("scenario_hash").equals(by_field.drop("scenario_hash"))
    assert not by_flag["holds"].equals(free["holds"])
    assert analyzer.load_scenario(PIG, early, restrict={1: "no_early_hold"}).restrict == {1: ["no_early_hold"]}


def test_sim_restrict_plays_the_restricted_seat_and_records_it(tmp_path, capsys, early):
    out = tmp_path / "r.parquet"
    assert run(capsys, "sim", "pig", "--scenario", str(early), "--n", "400", "--restrict", "1:no_early_hold",
               "--out", str(out), "-q")[0] == 0
    df, meta = results.read(out)
    assert meta["scenario"]["restrict"] == {"1": ["no_early_hold"]}
    # seat 1 never holds under 20: it holds less often than seat 0, which holds at 10
    holds = results.matrix(df, "holds").sum(axis=0)
    assert holds[1] < holds[0]


def test_several_names_per_seat_by_comma_or_repeat():
    sc = analyzer.load_scenario(PIG, restrict=["0:no_early_hold", "1:no_early_hold,no_early_hold"])
    assert sc.restrict == {0: ["no_early_hold"], 1: ["no_early_hold"]} and sc.restrict_masks().tolist() == [1, 1]


def test_compare_restrict_applies_to_the_variant(tmp_path, capsys, early):
    code, text, _ = run(capsys, "compare", "pig", str(early), "--restrict", "1:no_early_hold", "--n", "2000", "-q",
                        "--markdown")
    assert code == 0 and "--restrict 1:no_early_hold" in text
    assert "changed" in text.replace("no change", "")  # seat 1 forbidden to hold at 10 plays another game
    # a row for the spread between the positions and one for the restricted seat
    rows = {line.split(" | ")[0].strip("| "): line for line in text.splitlines() if line.startswith("| ")}
    assert "spread between positions (best - worst win rate)" in rows
    assert "| changed |" in rows["seat 1 win rate (restricted in the variant: no_early_hold)"]
    assert "never bound" not in text


def test_a_restriction_that_never_binds_says_so(tmp_path, capsys):
    # the default hold_at 20 never holds under 20, so no_early_hold leaves every game as it was
    code, text, _ = run(capsys, "compare", "pig", str(PIG.default_scenario), "--restrict", "1:no_early_hold",
                        "--n", "500", "-q", "--markdown")
    assert code == 0
    assert "**The restriction never bound: 0 decisions changed" in text and "no change detected" not in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == 9 and all(line.endswith("| the restriction never bound |") for line in rows)
    assert any(line.startswith("| seat 1 win rate (restricted in the variant: no_early_hold) |") for line in rows)


def test_check_restrict_plays_the_restricted_scenario(tmp_path, capsys, early):
    tables = []
    for extra in ([], ["--restrict", "1:no_early_hold"]):
        code, text, _ = run(capsys, "check", "pig", "--scenario", str(early), "--n", "500", *extra,
                            "--out", str(tmp_path / f"rep{len(extra)}"), "-q")
        assert code in (0, 1, 3)
        tables.append(text.split("report:")[0])
    assert tables[0] != tables[1]


@pytest.fixture
def other_game(monkeypatch):
    """A second registered game that declares a restriction Pig lacks."""
    class OtherScenario(ScenarioBase):
        POLICIES = ("plain",)
        RESTRICTIONS = {"no_gadgets": "never play a gadget"}
    module = types.ModuleType("otherrestricted")
    module.GAME = types.SimpleNamespace(Scenario=OtherScenario)
    monkeypatch.setitem(sys.modules, "otherrestricted", module)
    monkeypatch.setitem(games._MODULES, "other", "otherrestricted")


BAD = [
    ("1no_early_hold", "--restrict 1no_early_hold: expected SEAT:NAME, e.g. 1:no_early_hold"),
    ("1:", "--restrict 1:: expected SEAT:NAME"),
    ("one:no_early_hold", "--restrict one:no_early_hold: the seat must be a seat number (0, 1, ...), got 'one'"),
    ("2:no_early_hold", "--restrict 2:no_early_hold: no seat 2 in a 2-player game (seats are 0..1)"),
    ("-1:no_early_hold", "the seat must be a seat number"),
    ("1:no_such_thing", "--restrict 1:no_such_thing: unknown restriction 'no_such_thing' for pig; choose from no_early_hold"),
    ("0:no_gadgets", "--restrict 0:no_gadgets: 'no_gadgets' is a restriction of "),
]


@pytest.mark.parametrize("command", ["sim", "compare", "check"])
@pytest.mark.parametrize("given,message", BAD)
def test_bad_restrict_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, other_game, command, given, message):
    where = {"sim": ["--out", str(tmp_path / "r.parquet")], "compare": [str(PIG.default_scenario), "--out", str(tmp_path / "cmp")],
             "check": ["--scenario", str(PIG.default_scenario), "--out", str(tmp_path / "rep")]}[command]
    code, _, err = run(capsys, command, "pig", *where, "--restrict", given, "--n", "100", "-q")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    if "no_gadgets" in given:
        assert "other" in err and "not of pig; pig's: no_early_hold" in err
    assert list(tmp_path.iterdir()) == []


def test_a_scenario_files_restriction_of_another_game_names_that_game(tmp_path, other_game):
    with pytest.raises(analyzer.UserError, match=r"restrict.0: 'no_gadgets' is a restriction of other, not of pig"):
        analyzer.load_scenario(PIG, set={"restrict": {0: ["no_gadgets"]}})


def test_results_files_are_compared_as_they_are(tmp_path, capsys):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"  # refused before either file is read
    code, _, err = run(capsys, "compare", "pig", str(a), str(b), "--restrict", "1:no_early_hold")
    assert code == 2 and "--restrict" in err and "results files are compared as they are" in err
