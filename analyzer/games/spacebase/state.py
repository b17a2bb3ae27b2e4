"""Kernel containers: the scenario's numbers (`Data`) and one game's state (`State`) as numba
structrefs, so a helper receives two pointers instead of dozens of arrays (cheap calls, small IR).
Field meanings: layout.py. Both are built only from numpy arrays, so any YAML gives the same types.

Speed: numba reference-counts every array it reads from a field and every structref it passes to a
function (an atomic increment and decrement, each through a function call); the rule helpers make
dozens of calls and hundreds of field reads a turn, and that counting took a quarter of the run
time. So nothing inside the kernel is counted:
- the fields hold `borrowed` views (type `BorrowedArray`: an ordinary array to numba's typing and
  indexing, without reference counting); the owning arrays are kept alive by the struct's `OWN` tuple;
- D and S themselves are `UncountedModel` structrefs: one made in jitted code is therefore freed only
  by an explicit `release` (engine.run_games), or by Python once returned to it.
"""
from numba.core import cgutils, types
from numba.core.datamodel import models
from numba.core.datamodel.registry import default_manager
from numba.experimental import structref
from numba.extending import intrinsic


class BorrowedArray(types.Array):
    """An array numba never reference-counts (no meminfo): see the module doc."""

    def __init__(self, dtype, ndim, layout):
        super().__init__(dtype, ndim, layout, name=f"borrowed({dtype}, {ndim}d, {layout})")


class BorrowedArrayModel(models.ArrayModel):
    def traverse(self, builder):
        return []


default_manager.register(BorrowedArray, BorrowedArrayModel)


@intrinsic
def borrowed(typingctx, arr):
    """A view of `arr` without its meminfo or parent: never reference-counted. The caller must keep
    `arr` alive while the view is used."""
    if not isinstance(arr, types.Array) or isinstance(arr, BorrowedArray):
        return None
    view = BorrowedArray(arr.dtype, arr.ndim, arr.layout)

    def codegen(context, builder, sig, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        dst = context.make_array(arr)(context, builder)
        context.populate_array(dst, data=src.data, shape=src.shape, strides=src.strides,
                               itemsize=src.itemsize, meminfo=None, parent=None)
        return dst._getvalue()

    return view(arr), codegen

DATA_FIELDS = ["CT", "COLT", "R", "BONUS", "VALS", "WP", "POL", "PR", "LVL_IDS", "LVL_N", "OWN"]
STATE_FIELDS = ["PS", "BD", "DEP", "CUBES", "AV", "AC", "ABL", "G", "DECK", "DP", "DISP", "COLAV", "OWNER",
                "ST", "COLOWN", "OPTS", "BASE", "OPEN", "EV", "EVN",
                # every seat's starting board and tables (rows of PS, BD, DEP, BASE, AV, AC, ABL)
                "SB_PS", "SB_BD", "SB_DEP", "SB_BASE", "SB_AV", "SB_AC", "SB_ABL", "OWN"]
ARRAY_FIELDS = STATE_FIELDS[:-1]  # what engine.state_arrays returns (OWN holds the owning arrays)


class UncountedModel(models.StructRefModel):
    """numba's structref model without reference counting: passing D or S to a helper costs nothing."""

    def traverse(self, builder):
        return []


def register_uncounted(struct_type):
    """`structref.register` with UncountedModel."""
    default_manager.register(struct_type, UncountedModel)
    structref.define_attributes(struct_type)
    return struct_type


@intrinsic
def release(typingctx, ref):
    """Drop the one reference a structref made in jitted code holds (see the module doc)."""
    if not isinstance(ref, (DataType, StateType)):
        return None

    def codegen(context, builder, sig, args):
        meminfo = cgutils.create_struct_proxy(sig.args[0])(context, builder, value=args[0]).meminfo
        context.nrt.decref(builder, types.MemInfoPointer(types.voidptr), meminfo)
        return context.get_dummy_value()

    return types.none(ref), codegen


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
    seat, LVL_IDS/LVL_N ship ids per level."""


class State(structref.StructRefProxy):
    """One game's state; see layout.py for the columns."""


structref.define_proxy(Data, DataType, DATA_FIELDS)
structref.define_proxy(State, StateType, STATE_FIELDS)


def jit(fn):
    """`numba.njit(cache=True, error_model="numpy")` for the kernel's helpers (numpy's error model:
    no zero-division checks, which the kernel never needs), compiled once per argument *type*: numba
    would otherwise compile a separate copy for every constant argument value a caller passes
    (BLUE/RED, event codes, flags...) and for every integer width (a card id read from an int32
    array vs. a Python int in a test), which multiplied the compile time. Calls from jitted code pass
    plain int64 / bool instead (the conversion is free)."""
    from numba import njit
    from numba.core import types as nbtypes

    disp = njit(cache=True, error_model="numpy")(fn)
    orig = disp.get_call_template

    def plain(t):
        t = nbtypes.unliteral(t)
        if isinstance(t, nbtypes.Integer) and t.signed:
            return nbtypes.int64
        return t

    def get_call_template(args, kws):
        return orig(tuple(plain(a) for a in args), {k: plain(v) for k, v in kws.items()})

    disp.get_call_template = get_call_template
    return disp


def jit_inline(fn):
    """`jit`'s flags plus inline="always", for the tiny helpers of the hot path (emit, draw, station,
    gain_rate...): numba pastes them into their callers, saving a call."""
    from numba import njit

    return njit(cache=True, error_model="numpy", inline="always")(fn)


@jit
def make_data(CT, COLT, R, BONUS, VALS, WP, POL, PR, LVL_IDS, LVL_N):
    """The kernel's Data: borrowed fields, the arrays themselves kept alive in OWN."""
    return Data(borrowed(CT), borrowed(COLT), borrowed(R), borrowed(BONUS), borrowed(VALS), borrowed(WP),
                borrowed(POL), borrowed(PR), borrowed(LVL_IDS), borrowed(LVL_N),
                (CT, COLT, R, BONUS, VALS, WP, POL, PR, LVL_IDS, LVL_N))
