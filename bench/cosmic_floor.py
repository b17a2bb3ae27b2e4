"""A lower bound for the Simply Cosmic kernel: the work no Simply Cosmic engine can skip, and nothing else.

It plays 17 challenges per game (the mean of a 4-player default game), each with the cheapest form of
the work every challenge needs:
- turn a destiny card (reshuffling the 26-card deck when it runs out) to name the defense;
- move 1-4 tokens from a base to the cone and aim at a planet of the defense's system;
- each main player scans its hand (per-kind counts) for its highest attack card and plays it;
- compare the totals; the winner's side lands or the losers' tokens go to the Warp; one Warp token back.
Setup lays out 4 systems of 5 planets with 4 tokens, shuffles the 84-card deck and deals 7 to each.

It has no alliances, compromises, deals, rewards, powers, edicts, flares, decisions, redraws, win
check, trace checks or output columns: it is not a game, only a measure of what the real kernel
(`analyzer/games/cosmic/`) costs beyond the unavoidable. `make bench` reports both in the same run.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

from analyzer.rng import below, new_stream, shuffle

CHALLENGES = 17
PLAYERS = 4
PLANETS = 5 * PLAYERS
KINDS = 48
DECK = 84
DESTINY = 26


@njit(cache=True)
def _game(seed, gid, value, deck, dest, hand, tok, warp):
    st = new_stream(seed, gid)
    for i in range(DECK):
        deck[i] = i % KINDS
    shuffle(st, deck, DECK)
    for i in range(DESTINY):
        dest[i] = i % PLAYERS
    shuffle(st, dest, DESTINY)
    hand[:, :] = 0
    tok[:, :] = 0
    warp[:] = 0
    top = 0
    for p in range(PLAYERS):
        for k in range(5):
            tok[5 * p + k, p] = 4
        for _ in range(7):
            hand[p, deck[top]] += 1
            top += 1
    d = DESTINY
    total = 0
    for c in range(CHALLENGES):
        off = c % PLAYERS
        if d == DESTINY:
            shuffle(st, dest, DESTINY)
            d = 0
        de = dest[d]
        d += 1
        if de == off:
            de = (off + 1) % PLAYERS
        n = 1 + below(st, 4)
        src = 5 * off + below(st, 5)
        n = min(n, tok[src, off])
        tok[src, off] -= n
        planet = 5 * de + below(st, 5)
        cards = np.zeros(2, np.int64)
        for side in range(2):
            q = off if side == 0 else de
            best = 0
            for k in range(KINDS):
                if hand[q, k] > 0 and value[k] > value[best]:
                    best = k
            if hand[q, best] > 0:
                hand[q, best] -= 1
                if top < DECK:
                    hand[q, deck[top]] += 1
                    top += 1
            cards[side] = value[best]
        if n + cards[0] > tok[planet, de] + cards[1]:
            warp[de] += tok[planet, de]
            tok[planet, de] = 0
            tok[planet, off] += n
        else:
            warp[off] += n
        if warp[off] > 0:
            warp[off] -= 1
            tok[5 * off, off] += 1
        total += tok[planet, off]
    return total


@njit(cache=True)
def _games(seed, n, value):
    deck = np.zeros(DECK, np.int64)
    dest = np.zeros(DESTINY, np.int64)
    hand = np.zeros((PLAYERS, KINDS), np.int64)
    tok = np.zeros((PLANETS, PLAYERS), np.int64)
    warp = np.zeros(PLAYERS, np.int64)
    total = 0
    for g in range(n):
        total += _game(seed, g, value, deck, dest, hand, tok, warp)
    return total


def games_per_s(n: int, repeats: int = 5) -> float:
    """Best of `repeats` runs of n floor games in this process (compiled first)."""
    value = np.random.default_rng(0).integers(0, 40, KINDS).astype(np.int64)
    _games(1, 10, value)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        _games(1, n, value)
        best = min(best, time.perf_counter() - t0)
    return n / best
