"""Per-game counter-based random streams.

Every game draws from its own SplitMix64 stream keyed by (seed, game id), so a game's outcome
depends only on the seed, its id and the scenario -- never on chunking, worker count or backend.
A stream is a one-element uint64 array (numba passes arrays by reference, so kernels can advance
it in place). All arithmetic stays in uint64 so numba never promotes to float.
"""
import numpy as np
from numba import njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TWO_POW_M53 = 1.0 / 9007199254740992.0


@njit(cache=True)
def _mix(z):
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def new_stream(seed, game_id):
    """The stream of game `game_id` in run `seed`: the key is a mix of both, so nearby ids and seeds
    give unrelated streams."""
    s = np.empty(1, np.uint64)
    s[0] = _mix(_mix(np.uint64(seed) + _GAMMA) ^ (np.uint64(game_id) * _GAMMA))
    return s


@njit(cache=True)
def next_u64(state):
    state[0] += _GAMMA
    return _mix(state[0])


@njit(cache=True)
def uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> _S11) * _TWO_POW_M53


@njit(cache=True)
def below(state, n):
    """An int in [0, n). Scaling 53 random bits keeps the bias below n / 2**53 (nil for game sizes)."""
    return np.int64(uniform(state) * n)


@njit(cache=True)
def shuffle(state, arr, n):
    """Fisher-Yates shuffle of arr[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
