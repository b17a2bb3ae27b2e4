"""Arrays the kernel never reference-counts.

The kernel passes its arrays around in tuples (the state, the data, a seat's policy inputs, the outputs);
numba increments and decrements the reference count of every array of a tuple each time a function
binds it, with atomic instructions, and that counting took about 80% of the kernel's time (perf: two
`lock xadd` instructions). `borrowed(arr)` is a view of `arr` without its reference count: numba's
typing and indexing treat it as an ordinary array. The caller keeps the owning array alive while the
view is used (engine.play holds every owner until its end). The same device as Space Base's state.py
(a candidate for analyzer/kernel.py); its own type name keeps the two apart.
"""
from numba.core import types
from numba.core.datamodel import models
from numba.core.datamodel.registry import default_manager
from numba.extending import intrinsic


class BorrowedArray(types.Array):
    """An array without meminfo: never reference-counted."""

    def __init__(self, dtype, ndim, layout):
        super().__init__(dtype, ndim, layout, name=f"simplecard_borrowed({dtype}, {ndim}d, {layout})")


class BorrowedArrayModel(models.ArrayModel):
    def traverse(self, builder):
        return []


default_manager.register(BorrowedArray, BorrowedArrayModel)


@intrinsic
def borrowed(typingctx, arr):
    """A view of `arr` without its meminfo or parent. The caller must keep `arr` alive while it is used."""
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
