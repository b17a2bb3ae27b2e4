"""A fixed group of arrays that the rules pass around as one pointer: `st[0]`, `pol[7]` read like a tuple.

Why: numba passes a tuple of arrays to a non-inlined function as all of its arrays' fields (pointer,
shape, strides...): 7 to 9 words per array, so each call with the zones, the data, the policy arrays
and the outputs pushed some 120 words on the stack, and that marshalling was a large part of the
kernel's time. A Pack is an uncounted structref (analyzer/kernel_internals.py): one pointer per call, never
reference-counted. Its fields are `borrowed` views: whoever makes a Pack keeps the arrays alive, and
one made in jitted code is freed by `release` (engine.play).
"""
import operator

from numba import config, njit, types
from numba.experimental import structref
from numba.extending import overload

from ...kernel_internals import borrowed, register_uncounted

FIELDS = ("f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7")


class PackType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


@register_uncounted
class Pack4Type(PackType):
    pass


@register_uncounted
class Pack6Type(PackType):  # a type class of its own: numba boxes each type class to one proxy class
    pass


@register_uncounted
class Pack8Type(PackType):  # a type class of its own: numba boxes each type class to one proxy class
    pass


class Pack4(structref.StructRefProxy):
    """Four arrays: the zones (n, deck, hand, risk) or the outputs."""


class Pack6(structref.StructRefProxy):
    """Six arrays: the rules' data (rules, enabled, cards, up, mains, bonus: table.rule_tables)."""


class Pack8(structref.StructRefProxy):
    """Eight arrays: the policy inputs and scratch (policy, margin, bounce, script, at, stream, view, options)."""


structref.define_proxy(Pack4, Pack4Type, list(FIELDS[:4]))
structref.define_proxy(Pack6, Pack6Type, list(FIELDS[:6]))
structref.define_proxy(Pack8, Pack8Type, list(FIELDS))

# one getter per position: numba has no getattr by a computed name
_GETTERS = (lambda p, i: p.f0, lambda p, i: p.f1, lambda p, i: p.f2, lambda p, i: p.f3,
            lambda p, i: p.f4, lambda p, i: p.f5, lambda p, i: p.f6, lambda p, i: p.f7)


@overload(operator.getitem)
def _pack_getitem(p, i):
    """pack[k] for a constant k, as for a tuple."""
    if isinstance(p, PackType) and isinstance(i, types.IntegerLiteral):
        return _GETTERS[i.literal_value]


@njit(cache=True)
def pack4(a, b, c, d):
    return Pack4(borrowed(a), borrowed(b), borrowed(c), borrowed(d))


@njit(cache=True)
def pack6(a, b, c, d, e, f):
    return Pack6(borrowed(a), borrowed(b), borrowed(c), borrowed(d), borrowed(e), borrowed(f))


@njit(cache=True)
def pack8(a, b, c, d, e, f, g, h):
    return Pack8(borrowed(a), borrowed(b), borrowed(c), borrowed(d), borrowed(e), borrowed(f), borrowed(g),
                 borrowed(h))


if config.DISABLE_JIT:  # plain Python (scripts/mutants.py --no-jit): the same fields and indexing
    class _PlainPack:
        def __init__(self, *arrays):
            for name, arr in zip(FIELDS[:len(arrays)], arrays, strict=True):
                setattr(self, name, arr)

        def __getitem__(self, k):
            return getattr(self, FIELDS[k])

    def pack4(a, b, c, d):
        return _PlainPack(a, b, c, d)

    def pack6(a, b, c, d, e, f):
        return _PlainPack(a, b, c, d, e, f)

    def pack8(a, b, c, d, e, f, g, h):
        return _PlainPack(a, b, c, d, e, f, g, h)
