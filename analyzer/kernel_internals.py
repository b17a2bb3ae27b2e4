"""numba internals that some kernels use for speed, in one place: none of it is needed to write a
game (plain `@njit(cache=True)` functions over numpy arrays are first-class, see analyzer/games/pig/),
and each piece says what it costs to leave out. STOP (`jit_no_refcount`) and Space Base (the rest)
measured these on their kernels.

Why: numba reference-counts every array it passes to a non-inlined function or reads from a tuple or
struct field (an atomic increment and decrement, each through a function call). A rule engine that
makes dozens of small calls a turn spent a quarter (Space Base) to 40% (STOP) of its run time on that
counting. Code that never allocates can skip it:
- `jit_no_refcount`: njit(cache=True, _nrt=False): no counting in the function at all. Flags not given
  are inherited from the caller, so a function that allocates must say `_nrt=True`.
- `borrowed(arr)`: a view of an array without its meminfo (type BorrowedArray, an ordinary array to
  numba's typing and indexing), never counted; the caller keeps the owning array alive.
- `register_uncounted(StructRefType)`: a structref whose model is never counted, so passing it costs
  nothing; one made in jitted code is freed only by an explicit `release`, or by Python once returned.
- `jit_plain_ints`: njit with numpy's error model, compiled once per argument *type*: numba would
  otherwise compile one copy per literal value a caller passes and per integer width.
- `trailing_zeros(x)`: the index of the lowest set bit, one machine instruction.
- kernel_pack.py builds on these: a group of arrays passed as one pointer.
These files are part of every kernel's cache key (analyzer/kernel.py), so editing one rebuilds them.

Under NUMBA_DISABLE_JIT=1 (`scripts/mutants.py --no-jit`, a debugger) the intrinsics cannot run, so
the end of this module swaps in plain-Python equivalents: a borrowed view is the array itself.
"""
from numba import config, literal_unroll, njit
from numba.core import cgutils, types
from numba.core.datamodel import models
from numba.core.datamodel.registry import default_manager
from numba.core.imputils import impl_ret_borrowed, lower_getattr_generic, lower_setattr_generic
from numba.core.typing.templates import AttributeTemplate, infer_getattr
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

jit_no_refcount = njit(cache=True, _nrt=False)
jit_no_refcount_inline = njit(cache=True, _nrt=False, inline="always")


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


class UncountedModel(models.StructRefModel):
    """numba's structref model without reference counting."""

    def traverse(self, builder):
        return []


def register_uncounted(struct_type):
    """`structref.register` with UncountedModel, its fields read and set in place (`_fields`)."""
    default_manager.register(struct_type, UncountedModel)
    define_attributes(struct_type)
    return struct_type


def _fields(context, builder, struct_type, ref):
    """The structref's payload in place. numba reads its address through the runtime (NRT_MemInfo_data_fast),
    which a function compiled with _nrt=False may not call; it is the fourth word of the meminfo (refct,
    dtor, dtor_info, data: numba/core/runtime/nrt.cpp), so loading it there lets every kernel function,
    counted or not, read a pack."""
    meminfo = cgutils.create_struct_proxy(struct_type)(context, builder, value=ref).meminfo
    words = builder.bitcast(meminfo, cgutils.voidptr_t.as_pointer())
    data = builder.load(builder.gep(words, [cgutils.int32_t(3)]))
    payload = struct_type.get_data_type()
    data = builder.bitcast(data, context.data_model_manager[payload].get_value_type().as_pointer())
    return cgutils.create_struct_proxy(payload)(context, builder, ref=data)


def define_attributes(struct_type):
    """structref.define_attributes with the payload found by `_fields`: typing and lowering of `ref.name`
    and `ref.name = value` (counted as numba counts it: nothing for a borrowed array or a scalar)."""
    @infer_getattr
    class Attribute(AttributeTemplate):
        key = struct_type

        def generic_resolve(self, typ, attr):
            return typ.field_dict.get(attr)

    @lower_getattr_generic(struct_type)
    def getattr_impl(context, builder, typ, val, attr):
        value = getattr(_fields(context, builder, typ, val), attr)
        return impl_ret_borrowed(context, builder, typ.field_dict[attr], value)

    @lower_setattr_generic(struct_type)
    def setattr_impl(context, builder, sig, args, attr):
        (ref_type, value_type), (ref, value) = sig.args, args
        fields = _fields(context, builder, ref_type, ref)
        value = context.cast(builder, value, value_type, ref_type.field_dict[attr])
        context.nrt.incref(builder, value_type, value)
        context.nrt.decref(builder, value_type, getattr(fields, attr))  # after the incref: it may be the same
        setattr(fields, attr, value)


@intrinsic
def release(typingctx, ref):
    """Drop the one reference an uncounted structref made in jitted code holds."""
    if not isinstance(ref, types.StructRef) or not isinstance(default_manager.lookup(ref), UncountedModel):
        return None

    def codegen(context, builder, sig, args):
        meminfo = cgutils.create_struct_proxy(sig.args[0])(context, builder, value=args[0]).meminfo
        context.nrt.decref(builder, types.MemInfoPointer(types.voidptr), meminfo)
        return context.get_dummy_value()

    return types.none(ref), codegen


def jit_plain_ints(fn):
    """`njit(cache=True, error_model="numpy")` (numpy's error model: no zero-division checks), compiled
    once per argument type: signed integers of any width and literal values are typed as int64."""
    disp = njit(cache=True, error_model="numpy")(fn)
    orig = disp.get_call_template

    def plain(t):
        t = types.unliteral(t)
        if isinstance(t, types.Integer) and t.signed:
            return types.int64
        return t

    def get_call_template(args, kws):
        return orig(tuple(plain(a) for a in args), {k: plain(v) for k, v in kws.items()})

    disp.get_call_template = get_call_template
    return disp


def jit_plain_ints_inline(fn):
    """`jit_plain_ints`' flags plus inline="always", for tiny hot-path helpers (pasted into callers)."""
    return njit(cache=True, error_model="numpy", inline="always")(fn)


if config.DISABLE_JIT:  # plain-Python stand-ins; see the module doc
    def borrowed(arr):
        return arr

    def release(ref):
        return None

    def trailing_zeros(x):
        x = int(x)
        return (x & -x).bit_length() - 1

    def jit_plain_ints(fn):
        return fn


@njit(cache=True)
def keep_alive(*owners):
    """A real use of the arrays whose borrowed views a pack holds, placed after the pack's last use: numba
    frees a variable right after its last use, and a borrowed view does not count as one. Writes one
    element of each (owners are non-empty arrays)."""
    for a in literal_unroll(owners):
        a.flat[0] = a.flat[0]
