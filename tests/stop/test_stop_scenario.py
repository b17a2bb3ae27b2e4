"""STOP scenarios: the published defaults, validation messages, card data reaching the kernel as arrays
(a YAML edit never recompiles), and the readable replay."""
from pathlib import Path

import numba
import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.games.stop import GAME
from analyzer.games.stop import engine as E
from analyzer.games.stop.cards import N_TYPES, card_name
from analyzer.games.stop.scenario import StopRules, kernel_inputs
from analyzer.scenario import load

SPEC_DEFAULTS = dict(starter_redraw_wild=True, starter_effects=False, play_drawn_card=False, must_play_if_able=True,
                     jump_in_priority="clockwise", achtung_forget_rate=0.0, two_plus_drawer="skipped",
                     xplus_zero_cancels=True, xplus_card_effects=True, out_player_scores="held", match_limit=500,
                     hand_turn_cap=2000)


def test_default_scenario_is_the_published_game():
    sc = load(GAME)
    assert sc.players == 4 and sc.policies == ["greedy"]
    assert "Abacusspiele" in sc.source and "MASH" in sc.source
    for k, v in SPEC_DEFAULTS.items():
        assert getattr(sc.rules, k) == v, k
        assert StopRules.model_fields[k].default == v, k
    assert sc.cards.total() == 112
    assert GAME.default_scenario.read_text().count("#") > 20          # commented for designers


@pytest.mark.parametrize("name", ["default.yaml", "house-rules.yaml"])
def test_scenario_files_name_no_file_users_do_not_have(name):
    text = (Path(GAME.scenario_dir) / name).read_text()
    assert "shared/" not in text and "originals" not in text and "stop.md" not in text


def test_house_rules_scenario():
    sc = load(GAME, Path(GAME.scenario_dir) / "house-rules.yaml")
    assert sc.rules.play_drawn_card is True
    assert sc.rules.model_dump() == {**load(GAME).rules.model_dump(), "play_drawn_card": True}


@pytest.mark.parametrize("override,message", [
    ("rules.jump_in_priority=counterclockwise", "jump_in_priority"),
    ("rules.achtung_forget_rate=1.5", "achtung_forget_rate"),
    ("rules.match_limit=0", "match_limit"),
    ("rules.hand_turn_cap=-1", "hand_turn_cap"),
    ("rules.jumped_two_plus=sometimes", "jumped_two_plus"),
    ("rules.two_plus_drawer=draws", "two_plus_drawer"),
    ("rules.out_player_scores=half", "out_player_scores"),
    ("rules.play_drawn_cards=true", "unknown field"),
    ("rules.hand_size=30", "non-wild cards"),
    ("cards.wild.penalty=-5", "penalty"),
    ("policies=[cheater]", "unknown policy"),
    ("players=7", "players must be 2..6"),
])
def test_invalid_scenarios_are_rejected_with_the_field(override, message):
    with pytest.raises(UserError, match=message):
        load(GAME, sets=[override])


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="counts compiled signatures (mutants.py --no-jit)")
def test_card_data_reaches_the_kernel_as_arrays_without_recompiling(card):
    base = load(GAME)
    GAME.run_batch(base, 0, np.arange(2))
    n_sigs = len(E.play.signatures)
    edited = load(GAME, sets=["cards.xplus.penalty=400", "cards.six_nine.copies=3", "rules.match_limit=300"])
    k = kernel_inputs(edited)
    assert k.cards.penalty[card("red X+")] == 400 and k.cards.copies.sum() == 108
    a = GAME.run_batch(base, 0, np.arange(20))
    b = GAME.run_batch(edited, 0, np.arange(20))
    assert len(E.play.signatures) == n_sigs                       # no new compilation
    assert (b.extra["invariant_errors"] == 0).all()                    # 108-card deck conserved
    assert b.length.mean() < a.length.mean()                           # costlier X+ and a lower limit


def test_replay_reads_move_by_move():
    sc = load(GAME, players=3, policies=["random"], sets=["rules.achtung_forget_rate=0.3"])
    b = GAME.run_batch(sc, 2, np.array([4]), trace=True)
    lines = GAME.describe(sc, b.events)
    text = "\n".join(lines)
    assert lines[0] == f"Hand 1: seat {b.first_player[0]} deals and plays first"
    assert "seat 0 is dealt:" in text and "starter:" in text
    assert "calls STOP" in text and " plays " in text and "draws" in text
    assert f"Match over after {b.length[0]} hands" in lines[-1]
    for p in range(3):
        assert f"(total {b.score[0, p]})" in text


def test_card_names_round_trip(card):
    for t in range(N_TYPES):
        assert card(card_name(t)) == t
    assert card("green 6/9") == 2 * 12 + 6 and card("wild") == 48


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="reads the compiled kernel's options")
def test_the_kernel_runs_without_the_gil_so_local_runs_use_threads():
    from analyzer.runner import local_backend
    assert E.play.targetoptions["nogil"] and GAME.kernel_releases_gil
    assert local_backend(GAME) == "threads"
