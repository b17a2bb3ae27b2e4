"""A lower bound for the Simple Card kernel: the work no Simple Card engine can skip, and nothing else.

Per game:
- setup: shuffle two 16-card decks from the project's random stream, deal 4 cards each and a balancer;
- ACTs until a Risk total reaches 30 (about 6, as in a default greedy game): the active player returns
  its Main to hand, draws back to 4, scans its hand for the card of best margin over the three contacts
  against the passive Main (totals with the balancer bonus), places it, and the lower total goes to its
  owner's Risk (a tie: both).

It has no stacks, no set cards, no cast techniques, no policies' views or option lists, no trace checks
or output columns, and its cards are random numbers: it is not the game, only a measure of what the real
kernel (`analyzer/games/simplecard/engine.py`) costs beyond the unavoidable. `make bench` reports both.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

from analyzer.rng import below, new_stream, shuffle

DECK = 16
LIMIT = 30


@njit(cache=True)
def _bonus(cards, bal, x):
    low = min(cards[bal, 2], min(cards[bal, 3], cards[bal, 4]))
    return low if cards[bal, 2 + x] == low else 0


@njit(cache=True)
def _game(seed, gid, cards, deck, hand, hn, dn, main, bal, risk):
    st = new_stream(seed, gid)
    for p in range(2):
        for k in range(DECK):
            deck[p, k] = int(below(st, cards.shape[0]))
        shuffle(st, deck[p], DECK)
        dn[p] = DECK - 5
        hn[p] = 4
        for k in range(4):
            hand[p, k] = deck[p, DECK - 1 - k]
        bal[p] = deck[p, DECK - 5]
        main[p] = -1
        risk[p] = 0
    a = 0
    for act in range(1, 200):
        b = 1 - a
        if main[a] >= 0:
            hand[a, hn[a]] = main[a]
            hn[a] += 1
            main[a] = -1
        while hn[a] < 4 and dn[a] > 0:
            dn[a] -= 1
            hand[a, hn[a]] = deck[a, dn[a]]
            hn[a] += 1
        if hn[a] == 0:
            return act
        best, best_m = 0, -1000
        for i in range(hn[a]):
            c = hand[a, i]
            for x in range(3):
                m = cards[c, 2 + x] + cards[c, 0] + _bonus(cards, bal[a], x)
                if main[b] >= 0:
                    m -= cards[main[b], 2 + x] + cards[main[b], 1] + _bonus(cards, bal[b], x)
                if m > best_m:
                    best, best_m = i, m
        main[a] = hand[a, best]
        hand[a, best] = hand[a, hn[a] - 1]
        hn[a] -= 1
        if main[b] >= 0:
            if best_m <= 0:
                risk[a] += cards[main[a], 5]
                main[a] = -1
            if best_m >= 0:
                risk[b] += cards[main[b], 5]
                main[b] = -1
        if risk[0] >= LIMIT or risk[1] >= LIMIT:
            return act
        a = b
    return 200


@njit(cache=True)
def _games(seed, n, cards):
    deck = np.zeros((2, DECK), np.int64)
    hand = np.zeros((2, DECK), np.int64)
    hn = np.zeros(2, np.int64)
    dn = np.zeros(2, np.int64)
    main = np.zeros(2, np.int64)
    bal = np.zeros(2, np.int64)
    risk = np.zeros(2, np.int64)
    total = 0
    for g in range(n):
        total += _game(seed, g, cards, deck, hand, hn, dn, main, bal, risk)
    return total


def _cards() -> np.ndarray:
    """56 random cards: active, passive, a, b, c (0..5) and their risk points."""
    rng = np.random.default_rng(0)
    values = rng.integers(0, 6, (56, 5))
    return np.column_stack([values, values.sum(axis=1)]).astype(np.int64)


def games_per_s(n: int, repeats: int = 5) -> float:
    """Best of `repeats` runs of n floor games in this process (compiled first)."""
    cards = _cards()
    _games(1, 10, cards)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        _games(1, n, cards)
        best = min(best, time.perf_counter() - t0)
    return n / best


if __name__ == "__main__":
    print(f"{games_per_s(100_000):,.0f} floor games/s; mean ACTs {_games(1, 10_000, _cards()) / 10_000:.1f}")
