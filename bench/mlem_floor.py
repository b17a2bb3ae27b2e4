"""A lower bound for the MLEM kernel: the bare expedition loop, the work no MLEM engine can skip.

It plays 11 expeditions per game (the mean length of a 4-player default game), each with the cheapest
form of the work every expedition needs, on the default mat's faces, afterburner pips and crash odds:
- take-off: each of the 4 players boards the first astronaut it has at home;
- travel: roll the pool from the project's random stream and group the faces; no allowed face is a
  crash (everyone goes home); otherwise score every combination of usable groups as the expected_value
  policy does (distance x the chance the pool left survives there, from the per-scenario table) and
  take the best;
- landing (spaces 6+): each astronaut aboard compares a value table's points here with the survival-
  weighted best of the next 3 spaces, and leaves (placed, points added) or stays; deep space empties
  the rocket.

It has no powers, moons filling up, planets and their majorities, goals, commander hand-over, views,
options lists, end checks, trace checks or output columns: it is not a game, only a measure of what
the real kernel (`analyzer/games/mlem/engine.py`) costs beyond the unavoidable. `make bench` reports
both in the same run.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

import analyzer
from analyzer.games import get
from analyzer.games.mlem.scenario import BODY_MOON, BODY_PLANET, DICE, FIRST_LANDING_SPACE, board_arrays, crash_table
from analyzer.rng import below, new_stream

EXPEDITIONS = 11
PLAYERS = 4
TYPES = 8
AHEAD = 3
FACE_SYMBOL = np.array([1, 2, 2, 3, 4, 5], np.int64)


@njit(cache=True)
def _travel(roll, pos, pool, allowed, ab, crash, last):
    """(new space, dice left) of the best use of the roll, or (-1, 0) for a crash."""
    usable = 0
    for s in range(1, 6):
        if roll[s] > 0 and allowed[pos, s]:
            usable |= 1 << (s - 1)
    if usable == 0:
        return -1, 0
    best_to, best_pool, best = pos, pool, -1.0
    for mask in range(1, 32):
        if mask & ~usable:
            continue
        move, used = 0, 0
        for s in range(1, 6):
            if mask & (1 << (s - 1)):
                move += roll[s] * (ab[pos] if s == 5 else s)
                used += 0 if s == 5 else roll[s]
        to = min(pos + move, last)
        left = max(pool - used, 1)
        score = 1e9 + to if to == last else to * (1.0 - crash[left, to])
        if score > best:
            best, best_to, best_pool = score, to, left
    return best_to, best_pool


@njit(cache=True)
def _game(seed, gid, allowed, ab, crash, value, roll, at, seat, aboard, pts):
    stream = new_stream(seed, gid)
    last = len(ab) - 1
    at[:] = 0
    pts[:] = 0
    for e in range(EXPEDITIONS):
        for k in range(PLAYERS):  # take-off
            p = (e + k) % PLAYERS
            seat[k], aboard[k] = p, 0
            for t in range(TYPES):
                if at[p, t] == 0:
                    at[p, t], aboard[k] = 1, t + 1
                    break
        pos, pool = 0, DICE
        while True:
            roll[:] = 0
            for _ in range(pool):
                roll[FACE_SYMBOL[below(stream, 6)]] += 1
            pos, pool = _travel(roll, pos, pool, allowed, ab, crash, last)
            if pos < 0:  # crash: everyone aboard goes home
                for k in range(PLAYERS):
                    if aboard[k]:
                        at[seat[k], aboard[k] - 1] = 0
                break
            if pos < FIRST_LANDING_SPACE:
                continue
            ahead = 0
            for s in range(pos + 1, min(pos + AHEAD, last) + 1):
                ahead = max(ahead, value[s])
            stay_worth = (1.0 - crash[pool, pos]) * ahead
            left = 0
            for k in range(PLAYERS):
                if aboard[k] and (pos == last or value[pos] >= stay_worth):
                    at[seat[k], aboard[k] - 1] = 2
                    pts[seat[k]] += value[pos]
                    aboard[k] = 0
                left += aboard[k] > 0
            if left == 0:
                break
    return pts.max()


@njit(cache=True)
def _games(seed, n, allowed, ab, crash, value):
    roll = np.zeros(6, np.int64)
    at = np.zeros((PLAYERS, TYPES), np.int64)
    seat = np.zeros(PLAYERS, np.int64)
    aboard = np.zeros(PLAYERS, np.int64)
    pts = np.zeros(PLAYERS, np.int64)
    total = 0
    for g in range(n):
        total += _game(seed, g, allowed, ab, crash, value, roll, at, seat, aboard, pts)
    return total


def _board():
    """The default mat's faces, pips and crash odds; a body's points as its best moon or 1st place."""
    board = analyzer.load_scenario(get("mlem")).board
    allowed, ab, kind, ident, moon_start, moon_value, planet_points = board_arrays(board)[:7]
    value = np.zeros(len(ab), np.int64)
    for s in range(len(ab)):
        if kind[s] == BODY_MOON:
            value[s] = moon_value[moon_start[ident[s] + 1] - 1]
        elif kind[s] == BODY_PLANET:
            value[s] = planet_points[ident[s], 0]
    value[-1] = board.comet
    return allowed, ab, crash_table(allowed), value


def games_per_s(n: int, repeats: int = 5) -> float:
    """Best of `repeats` runs of n floor games in this process (compiled first)."""
    board = _board()
    _games(1, 10, *board)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        _games(1, n, *board)
        best = min(best, time.perf_counter() - t0)
    return n / best
