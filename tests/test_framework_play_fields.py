"""The strong-play fields every scenario has (weights, seat_weights, restrict): validated to one line
naming the field, handed to the kernel per seat, and absent from a scenario's hash while empty."""
import numpy as np
import pytest

import analyzer
from analyzer.errors import UserError
from analyzer.games import get

PIG = get("pig")


@pytest.mark.parametrize("sets,message", [
    ({"weights.greedy.x": 1}, "weights.greedy: policy 'greedy' has no weights in pig"),
    ({"weights.hold_at.nerve": 1}, "weights.hold_at.nerve: unknown weight; this policy's weights are hold_at"),
    ({"weights.hold_at.hold_at": 101}, "weights.hold_at.hold_at: 101 is outside its range [1, 100]"),
    ({"weights.hold_at.hold_at": 20.5}, "weights.hold_at.hold_at: must be a whole number"),
    ({"seat_weights.2.hold_at": 20}, "seat_weights.2: no such seat (seats are 0..1)"),
    ({"restrict": {0: ["no_such_element"]}}, "restrict.0: unknown restriction 'no_such_element' for pig; choose from no_early_hold"),
    ({"restrict": {5: ["no_early_hold"]}}, "restrict.5: no such seat (seats are 0..1)"),
])
def test_bad_play_fields_are_one_line_naming_the_field(sets, message):
    with pytest.raises(UserError) as e:
        analyzer.load_scenario(PIG, set=sets)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_seat_weights_on_a_seat_whose_policy_has_none_is_refused():
    with pytest.raises(UserError, match="seat_weights.1: seat 1 plays 'random', policy 'random' has no weights"):
        analyzer.load_scenario(PIG, policy=["hold_at", "random"], set={"seat_weights.1.hold_at": 20})


def test_kernel_inputs_per_seat():
    sc = analyzer.load_scenario(PIG, players=3, policy=["hold_at", "random", "hold_at"],
                                set={"weights.hold_at.hold_at": 25, "seat_weights.2.hold_at": 12,
                                     "restrict": {1: ["no_early_hold"]}})
    assert sc.weight_rows()[:, :1].tolist() == [[25.0], [0.0], [12.0]]  # as wide as search's weights, the most
    assert sc.restrict_masks().tolist() == [0, 1, 0]


def test_empty_play_fields_leave_the_hash_and_yaml_as_before():
    sc = analyzer.load_scenario(PIG, set={"weights": {}})
    assert not any(k in sc.to_yaml() for k in ("weights", "seat_weights", "restrict"))
    tuned = analyzer.load_scenario(PIG, set={"weights.hold_at.hold_at": 21})
    assert tuned.content_hash() != sc.content_hash() and "weights" in tuned.to_yaml()
    same = analyzer.load_scenario(PIG, set={"weights.hold_at.hold_at": 20})  # the default, said aloud
    assert np.array_equal(same.weight_rows(), sc.weight_rows())
