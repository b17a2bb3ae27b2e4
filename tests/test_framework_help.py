"""`--help`: every command has an example and meaningful metavars, the command list is not cut
mid-phrase, and every policy of every game says what it does (`games --describe` and `sim --help`)."""
import re

import pytest
import typer

from analyzer import cli, games
from analyzer.kernel import SHARED_POLICY_DOCS

COMMANDS = sorted(typer.main.get_command(cli.app).commands)
GAMES = [g for g in games.names() if g != "toy"]


def help_of(capsys, *args) -> str:
    assert cli.main([*args, "--help"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_one_example_and_no_python_type_names(capsys, command):
    text = help_of(capsys, command)
    assert len(re.findall(rf"Example: analyzer {command} \S", text)) == 1
    parameters = text.split("Arguments:")[-1]
    assert "Options:" in parameters and "<" not in parameters, f"{command}: a Python type name: {parameters}"


def test_the_command_list_gives_whole_summaries(capsys):
    text = help_of(capsys)
    listing = text.split("Commands:")[1].splitlines()
    assert {line.split()[0] for line in listing if line.strip()} == set(COMMANDS)
    assert not [line for line in listing if "(e.g." in line or line.rstrip().endswith("...")]


@pytest.mark.parametrize("game", GAMES)
def test_every_policy_says_what_it_does(game):
    g = games.get(game)
    assert set(g.Scenario.POLICY_DOCS) == set(g.policies)
    assert all(doc.strip() for doc in g.Scenario.POLICY_DOCS.values())


@pytest.mark.parametrize("game", GAMES)
def test_describe_lists_each_policy_with_its_line(capsys, game):
    assert cli.main(["games", "--describe", game]) == 0
    lines = capsys.readouterr().out.splitlines()
    g = games.get(game)
    for policy in g.policies:
        assert f"  {policy:<22} {g.Scenario.POLICY_DOCS[policy]}" in lines


def test_sim_help_lists_every_games_policies(capsys):
    text = " ".join(help_of(capsys, "sim").split())  # undo the help's wrapping
    for policy, doc in SHARED_POLICY_DOCS.items():
        assert f"{policy} (every game) {doc}" in text
    for game in GAMES:
        g = games.get(game)
        for policy in g.playing_policies:
            if policy not in SHARED_POLICY_DOCS:
                assert f"{game}: {policy} {g.Scenario.POLICY_DOCS[policy]}" in text


def test_the_games_listing_names_scripted_as_a_test_tool(capsys):
    assert cli.main(["games"]) == 0
    stop = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("stop "))
    assert "policies: random, greedy, defender, search (plans) (and scripted, for tests)" in stop


def test_every_game_offers_search(capsys):
    assert cli.main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for game in GAMES:
        assert games.get(game).searchable
        assert "search (plans)" in next(line for line in lines if line.startswith(f"{game} "))
