"""A lower bound for the Space Base kernel: the work no Space Base engine can skip, and nothing else.

It plays 58 turns per game (the mean length of a 4-player default game), each with the cheapest form
of the work every turn needs:
- roll two dice from the project's random stream;
- each of the 4 players takes faces or sum from a per-sector value table and adds its three reward
  counters (credits, income, VP);
- the active player scores all 18 display ships (a cost check, then sector odds x the card's value
  minus the replaced card's), buys the best, updates that sector's tables and refills the slot;
- the income floor.
Setup shuffles three 48-card decks and lays out 4 starting boards.

It has no reward arrows, charge abilities, colonies, claims, end-of-game check, tie rounds, trace
checks or output columns, and its cards are random numbers: it is not a game, only a measure of what
the real kernel (`analyzer/games/spacebase/engine.py`) costs beyond the unavoidable. `make bench`
reports both in the same run.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

from analyzer.rng import below, new_stream, shuffle

TURNS = 58
PLAYERS = 4
DECK = 48
SLOTS = 18  # 3 levels x 6 face-up ships


@njit(cache=True)
def _game(seed, gid, cards, PR, decks, AV, AC, ST, disp, drawn, ps):
    cost, sector, vb, vr, cc, ci, cv, rc = cards
    ST[0] = new_stream(seed, gid)[0]
    for lv in range(3):
        for i in range(DECK):
            decks[lv, i] = 12 + lv * DECK + i
        shuffle(ST, decks[lv], DECK)
        drawn[lv] = 6
        for j in range(6):
            disp[lv * 6 + j] = decks[lv, j]
    for p in range(PLAYERS):
        ps[p, 0] = 5
        ps[p, 1] = 0
        ps[p, 2] = 0
        for s in range(1, 13):
            c = s - 1  # starting ship of sector s
            AV[p, 0, s] = vb[c]
            AV[p, 1, s] = vr[c]
            AC[p, 0, s, 0] = cc[c]
            AC[p, 0, s, 1] = ci[c]
            AC[p, 0, s, 2] = cv[c]
            AC[p, 0, s, 3] = c
            AC[p, 1, s, 0] = rc[c]
            AC[p, 1, s, 1] = 0
            AC[p, 1, s, 2] = 0
    for t in range(TURNS):
        a = t % PLAYERS
        d1 = below(ST, 6) + 1
        d2 = below(ST, 6) + 1
        ds = d1 + d2
        for k in range(PLAYERS):
            p = (a + k) % PLAYERS
            side = 0 if k == 0 else 1
            if AV[p, side, ds] > AV[p, side, d1] + AV[p, side, d2]:
                for f in range(3):
                    ps[p, f] += AC[p, side, ds, f]
            else:
                for f in range(3):
                    ps[p, f] += AC[p, side, d1, f] + AC[p, side, d2, f]
        credits = ps[a, 0]
        best = -1
        best_score = 0.0
        for j in range(SLOTS):
            k = disp[j]
            if cost[k] > credits:
                continue
            pos = sector[k]
            old = AC[a, 0, pos, 3]
            gain = PR[pos] * (vb[k] + 3.0 * vr[old] - vb[old])
            score = 8.0 * gain - 0.6 * cost[k] - 0.25 * (credits - cost[k])
            if score > best_score:
                best_score = score
                best = j
        if best >= 0:
            k = disp[best]
            pos = sector[k]
            old = AC[a, 0, pos, 3]
            AV[a, 0, pos] = vb[k]
            AV[a, 1, pos] += vr[old]
            AC[a, 0, pos, 0] = cc[k]
            AC[a, 0, pos, 1] = ci[k]
            AC[a, 0, pos, 2] = cv[k]
            AC[a, 0, pos, 3] = k
            AC[a, 1, pos, 0] += rc[old]
            lv = best // 6
            disp[best] = decks[lv, drawn[lv] % DECK]
            drawn[lv] += 1
            ps[a, 0] = 0
        if ps[a, 0] < ps[a, 1]:
            ps[a, 0] = ps[a, 1]
    return ps[0, 2]


@njit(cache=True)
def _games(seed, n, cards, PR):
    decks = np.zeros((3, DECK), np.int32)
    AV = np.zeros((PLAYERS, 2, 13), np.float64)
    AC = np.zeros((PLAYERS, 2, 13, 4), np.int32)
    ST = np.zeros(1, np.uint64)
    disp = np.zeros(SLOTS, np.int32)
    drawn = np.zeros(3, np.int64)
    ps = np.zeros((PLAYERS, 3), np.int32)
    total = 0
    for g in range(n):
        total += _game(seed, g, cards, PR, decks, AV, AC, ST, disp, drawn, ps)
    return total


def _cards():
    rng = np.random.default_rng(0)
    nc = 12 + 3 * DECK
    ints = [rng.integers(0, 4, nc).astype(np.int32) for _ in range(4)]
    return (rng.integers(1, 12, nc).astype(np.int32),
            np.concatenate([np.arange(1, 13), rng.integers(1, 13, 3 * DECK)]).astype(np.int32),
            rng.random(nc), rng.random(nc), *ints)


def games_per_s(n: int, repeats: int = 5) -> float:
    """Best of `repeats` runs of n floor games in this process (compiled first)."""
    cards = _cards()
    PR = np.array([0.0] + [(6 - abs(7 - s)) / 36 + 1 / 6 for s in range(1, 13)])
    _games(1, 10, cards, PR)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        _games(1, n, cards, PR)
        best = min(best, time.perf_counter() - t0)
    return n / best
