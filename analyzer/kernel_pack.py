"""A fixed group of arrays that the rules pass around as one pointer, its fields read by name: `X.opts`.

Why: numba passes a tuple of arrays to a non-inlined function as all of its arrays' fields (pointer,
shape, strides...): 7 to 9 words per array, so a rule function that takes the state, the data and a
context of a dozen arrays pushes some 100-120 words on the stack at every call, and that marshalling
was a large part of Simple Card's and Simply Cosmic's kernel time. A Pack is an uncounted structref
(kernel_internals.py): one pointer per call, never reference-counted. Its array fields are `borrowed`
views (a scalar field is kept as it is): whoever makes a Pack keeps the arrays alive
(`kernel_internals.keep_alive`), and one made in jitted code is freed by `release`. A field is set with
`pack.name = ...` (e.g. one game's output rows).
"""
from numba import config, types
from numba.experimental import structref
from numba.extending import overload

from .kernel_internals import BorrowedArray, borrowed, register_uncounted


class PackType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


def field(x):
    """What a Pack holds of x: a borrowed view of an array, anything else as it is."""
    return x


@overload(field)
def _field(x):
    if isinstance(x, types.Array) and not isinstance(x, BorrowedArray):
        return lambda x: borrowed(x)
    return lambda x: x


def named(proxy, type_class, fields):
    """Declare a pack with named fields: `type_class` (a PackType subclass) is its numba type and `proxy`
    (a structref.StructRefProxy subclass) its constructor, `proxy(field(a), field(b), ...)` in jitted code
    with the values in the order of `fields`. Both are classes of the caller's module, where the compile
    cache finds them by name. Returns the constructor (under NUMBA_DISABLE_JIT: a plain class)."""
    if config.DISABLE_JIT:
        return _plain_named(tuple(fields))
    register_uncounted(type_class)
    structref.define_proxy(proxy, type_class, list(fields))
    return proxy


def _plain_named(fields):
    class PlainNamedPack:
        __slots__ = fields

        def __init__(self, *values):
            for name, value in zip(fields, values, strict=True):
                setattr(self, name, value)

    return PlainNamedPack
