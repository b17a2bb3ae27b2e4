"""A fixed group of arrays that the rules pass around as one pointer: `X[0]`, `pol[7]` read like a tuple.

Why: numba passes a tuple of arrays to a non-inlined function as all of its arrays' fields (pointer,
shape, strides...): 7 to 9 words per array, so a rule function that takes the state, the data and a
context of a dozen arrays pushes some 100-120 words on the stack at every call, and that marshalling
was a large part of Simple Card's and Simply Cosmic's kernel time. A Pack is an uncounted structref
(kernel_internals.py): one pointer per call, never reference-counted. Its array fields are `borrowed`
views (a scalar field is kept as it is): whoever makes a Pack keeps the arrays alive, and one made in
jitted code is freed by `release`. A field is set with `pack.f<k> = ...` (e.g. one game's output rows).

A pack may name its fields instead (`named`: `X.opts`, `X.g = ...`), for a group passed around so
widely that a position number would be read in dozens of places.
"""
import operator

from numba import config, njit, types
from numba.experimental import structref
from numba.extending import overload

from .kernel_internals import BorrowedArray, borrowed, register_uncounted

FIELDS = tuple(f"f{k}" for k in range(8))


class PackType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


# a type class per size: numba boxes each type class to one proxy class
@register_uncounted
class Pack4Type(PackType):
    pass


@register_uncounted
class Pack6Type(PackType):
    pass


@register_uncounted
class Pack8Type(PackType):
    pass


class Pack4(structref.StructRefProxy):
    pass


class Pack6(structref.StructRefProxy):
    pass


class Pack8(structref.StructRefProxy):
    pass


structref.define_proxy(Pack4, Pack4Type, list(FIELDS[:4]))
structref.define_proxy(Pack6, Pack6Type, list(FIELDS[:6]))
structref.define_proxy(Pack8, Pack8Type, list(FIELDS[:8]))

# one getter per position: numba has no getattr by a computed name
_GETTERS = (lambda p, i: p.f0, lambda p, i: p.f1, lambda p, i: p.f2, lambda p, i: p.f3,
            lambda p, i: p.f4, lambda p, i: p.f5, lambda p, i: p.f6, lambda p, i: p.f7)


@overload(operator.getitem)
def _pack_getitem(p, i):
    """pack[k] for a constant k, as for a tuple."""
    if isinstance(p, PackType) and isinstance(i, types.IntegerLiteral):
        return _GETTERS[i.literal_value]


def field(x):
    """What a Pack holds of x: a borrowed view of an array, anything else as it is."""
    return x


@overload(field)
def _field(x):
    if isinstance(x, types.Array) and not isinstance(x, BorrowedArray):
        return lambda x: borrowed(x)
    return lambda x: x


@njit(cache=True)
def pack4(a, b, c, d):
    return Pack4(field(a), field(b), field(c), field(d))


@njit(cache=True)
def pack6(a, b, c, d, e, f):
    return Pack6(field(a), field(b), field(c), field(d), field(e), field(f))


@njit(cache=True)
def pack8(a, b, c, d, e, f, g, h):
    return Pack8(field(a), field(b), field(c), field(d), field(e), field(f), field(g), field(h))


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


if config.DISABLE_JIT:  # plain Python (scripts/mutants.py --no-jit): the same fields and indexing
    class _PlainPack:
        def __init__(self, *values):
            for name, value in zip(FIELDS[:len(values)], values, strict=True):
                setattr(self, name, value)

        def __getitem__(self, k):
            return getattr(self, FIELDS[k])

    def pack4(*values):
        return _PlainPack(*values)

    pack6 = pack8 = pack4
