"""The trace recorder and event table, and per-kind columns without a seat axis: what Space Base
needs of analyzer.kernel beyond the five-field record (a fourth number d, records that read
differently by a field, records that read as no line, one value per card and game)."""
from types import SimpleNamespace

import numpy as np

from analyzer.kernel import Columns, Event, PerKind, decode, new_trace, record


def test_a_six_wide_trace_keeps_d_and_counts_the_records_past_its_cap():
    ev, tn = new_trace(2, 6)
    cap = np.int64(2)
    record(ev, tn, cap, 1, 0, 5, 6, 7, 8)
    record(ev, tn, cap, 2, 1, 0, 0, 0)  # no d: 0
    record(ev, tn, cap, 1, 0, 1, 1, 1, 1)
    assert ev.tolist() == [[1, 0, 5, 6, 7, 8], [2, 1, 0, 0, 0, 0]] and tn.tolist() == [2, 1]


def test_an_event_picks_its_text_by_a_field_or_by_the_record_and_none_is_no_line():
    table = {1: Event({0: "seat {seat} takes the faces {b} and {c}", 1: "seat {seat} takes the sum: sector {d}"}, by="a"),
             2: Event({True: "seat {seat} gains {a}", False: None}, {"seat": lambda s: s + 1}, by=lambda r: r["a"] != 0)}
    events = np.array([[1, 0, 0, 3, 4, 7], [1, 1, 1, 3, 4, 7], [2, 0, 0, 0, 0, 0], [2, 1, 5, 0, 0, 0]], np.int32)
    assert decode(events, table) == ["seat 0 takes the faces 3 and 4", "seat 1 takes the sum: sector 7", "seat 2 gains 5"]


def test_a_per_kind_column_without_seats_is_n_by_k():
    cols = Columns(game={"length": "rounds"}, seat={"score": "VP", "is_winner": "won"},
                   kinds={"buyer": PerKind("seat that bought each card", lambda sc: 3, "cards", np.int8, per_seat=False)},
                   trace_width=6)
    out = cols.outputs(2, SimpleNamespace(players=4), 10)
    assert out.kinds[0].shape == (2, 3) and out.ev.shape == (10, 6)
    out.kinds[0][:] = -1
    assert cols.named(out)["buyer"].dtype == np.int8 and cols.doc()["buyer"] == "(n,cards) seat that bought each card"
