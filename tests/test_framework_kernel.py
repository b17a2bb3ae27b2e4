"""The kernel toolkit every game builds on: state declared by name, outputs from declared columns."""
import numpy as np
import pytest

from analyzer.kernel import Columns, Layout, PerKind


def test_a_layout_gives_offsets_and_reads_the_state_back_by_name():
    lay = Layout([("tokens", (2, 3)), ("warp", 3), ("turn", 1)])
    at = lay.offsets("At")
    assert (at.TOKENS, at.WARP, at.TURN, at.SIZE) == (0, 6, 9, 10)
    state = lay.new()
    state[at.TOKENS + 1 * 3 + 2] = 7   # tokens[1, 2]
    state[at.WARP + 1] = 4
    state[at.TURN] = 9
    assert lay.dump(state) == {"tokens": [[0, 0, 0], [0, 0, 7]], "warp": [0, 4, 0], "turn": 9}
    assert lay.format(state).splitlines()[-1] == "turn: 9"
    lay.field(state, "warp")[2] = 5   # a view: writes go to the state
    assert state[at.WARP + 2] == 5


def test_a_layout_refuses_a_field_declared_twice():
    with pytest.raises(ValueError, match="warp"):
        Layout([("warp", 2), ("warp", 1)])


class _Sc:
    players = 3
    spaces = 4


def test_outputs_are_allocated_from_the_declared_columns_and_named_back():
    cols = Columns(game={"length": "turns"}, seat={"score": "points", "is_winner": "won"},
                   kinds={"faces": PerKind("per face", 6), "at": PerKind("per space", lambda sc: sc.spaces, "W", np.int64)})
    out = cols.outputs(5, _Sc(), 0)
    assert out.g.shape == (5, 1) and out.s.shape == (5, 3, 2)
    assert [k.shape for k in out.kinds] == [(5, 3, 6), (5, 3, 4)] and out.first.shape == (5,) and out.cap == 0
    assert len(out.args()) == 2 + 2 + 4
    out.kinds[1][4, 2, 3] = 2 ** 40
    named = cols.named(out)
    assert list(named) == ["length", "score", "is_winner", "faces", "at"]
    assert named["faces"].dtype == np.int32 and named["at"][4, 2, 3] == 2 ** 40
    assert cols.extra_doc() == {"faces": "(n,P,6) per face", "at": "(n,P,W) per space"}
