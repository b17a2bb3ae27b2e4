"""Kernel containers: the scenario's numbers (`Data`) and one game's state (`State`) as numba
structrefs, so a helper receives two pointers instead of dozens of arrays (cheap calls, small IR).
Field meanings: layout.py. Both are built only from numpy arrays, so any YAML gives the same types.

Speed: numba reference-counts every array it reads from a field and every structref it passes to a
function; the rule helpers make dozens of calls and hundreds of field reads a turn, and that
counting took a quarter of the run time. So nothing inside the kernel is counted (the tools and the
why: analyzer/kernel_internals.py):
- the fields hold `borrowed` views; the owning arrays are kept alive by the struct's `OWN` tuple;
- D and S themselves are uncounted structrefs: one made in jitted code is therefore freed only by an
  explicit `release` (engine.play_batch), or by Python once returned to it.
"""
from numba.core import types
from numba.experimental import structref

from ...kernel_internals import borrowed, jit_plain_ints, jit_plain_ints_inline, register_uncounted

DATA_FIELDS = ["CT", "COLT", "R", "BONUS", "VALS", "WP", "POL", "PR", "RM", "LVL_IDS", "LVL_N", "SCRIPT", "OWN"]
STATE_FIELDS = ["PS", "BD", "DEP", "CUBES", "AV", "AC", "ABL", "G", "DECK", "DP", "DISP", "COLAV", "OWNER",
                "ST", "COLOWN", "OPTS", "ALLOWED", "BASE", "OPEN", "EV", "EVN",
                # every seat's starting board and tables (rows of PS, BD, DEP, BASE, AV, AC, ABL)
                "SB_PS", "SB_BD", "SB_DEP", "SB_BASE", "SB_AV", "SB_AC", "SB_ABL",
                "AT",  # [1] the scripted policy's cursor: decisions taken from SCRIPT so far this game
                "OWN"]
ARRAY_FIELDS = STATE_FIELDS[:-1]  # what engine.state_arrays returns (OWN holds the owning arrays)


@register_uncounted
class DataType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


@register_uncounted
class StateType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class Data(structref.StructRefProxy):
    """CT card table, COLT colonies, R rules, BONUS turn-order bonus, VALS/WP/POL/PR policy numbers per
    seat (read only by policies.py), RM each seat's restrictions (decisions.py), LVL_IDS/LVL_N ship ids
    per level, SCRIPT the scripted policy's option indices."""


class State(structref.StructRefProxy):
    """One game's state; see layout.py for the columns."""


structref.define_proxy(Data, DataType, DATA_FIELDS)
structref.define_proxy(State, StateType, STATE_FIELDS)


jit = jit_plain_ints             # numpy's error model, one compile per argument type (kernel_internals)
jit_inline = jit_plain_ints_inline


@jit
def make_data(CT, COLT, R, BONUS, VALS, WP, POL, PR, RM, LVL_IDS, LVL_N, SCRIPT):
    """The kernel's Data: borrowed fields, the arrays themselves kept alive in OWN."""
    return Data(borrowed(CT), borrowed(COLT), borrowed(R), borrowed(BONUS), borrowed(VALS), borrowed(WP),
                borrowed(POL), borrowed(PR), borrowed(RM), borrowed(LVL_IDS), borrowed(LVL_N), borrowed(SCRIPT),
                (CT, COLT, R, BONUS, VALS, WP, POL, PR, RM, LVL_IDS, LVL_N, SCRIPT))
