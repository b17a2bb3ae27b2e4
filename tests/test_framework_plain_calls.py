"""compile_cache types calls between analyzer's functions on plain types: one specialisation per
argument type, not one per constant; a callee that needs the constant still gets it."""
from numba import njit

import analyzer.compile_cache  # noqa: F401  (installs the typing rule)


def _as_analyzers(f):
    f.py_func.__module__ = "analyzer.games.toy"  # the rule covers analyzer's functions only
    return f


def test_constants_share_one_specialisation():
    @njit
    def add(x, k):
        return x + k

    _as_analyzers(add)

    @njit
    def caller(x):
        return add(x, 1) + add(x, 2) + add(x, 3)

    assert caller(10) == 36
    assert len(add.signatures) == 1  # numba's own typing compiles add three times, once per literal


def test_a_callee_that_needs_the_constant_still_gets_it():
    @njit
    def pick(t, i):
        return t[i]  # a heterogeneous tuple: indexable by a literal only

    _as_analyzers(pick)

    @njit
    def caller():
        return pick((1, 2.5), 1)

    assert caller() == 2.5
