"""Pig, the rulebook as one compiled kernel (and, with tracing on, the recorder `analyzer replay` reads).

The rules (a public-domain dice game, as the template of the game contract):
- The first player is drawn at random (`first_player: random`) or is seat 0 (`seat0`); turns go
  clockwise, seat p to seat p + 1.
- On a turn the player rolls one die. A 1 ends the turn and the points rolled this turn are lost (a
  bust). Any other face adds to the turn total, and the player decides: roll again or hold.
- Holding adds the turn total to the player's score and ends the turn. A player whose score reaches
  the target (`target`, at least: `>=`) when holding wins at once.
- After `turn_cap` turns without a winner the game stops: a draw (nobody wins).
"""
import numpy as np
from numba import njit

from ... import rng
from ...kernel import keep_allowed, record
from .columns import FACES, G, S
from .decisions import HOLD, NO_EARLY_HOLD, ROLL
from .policies import decide
from .view import fill_view

# trace record kinds: (kind, seat, a, b, c); how each reads is Pig.EVENTS
E_FIRST, E_ROLL, E_BUST, E_HOLD, E_WIN, E_CAP = 1, 2, 3, 4, 5, 6


@njit(cache=True)
def play_turn(p, target, score, stream, policy, weights, restrict, script, ask, options, allowed, view, s, faces,
              ev, tn, cap):
    """Seat p's turn; returns True if p wins by holding."""
    turn_total = 0
    while True:
        d = rng.below(stream, FACES) + 1
        s[p, S.ROLLS] += 1
        faces[p, d - 1] += 1
        if d == 1:
            record(ev, tn, cap, E_BUST, p, turn_total, 0, 0)
            s[p, S.BUSTS] += 1
            return False
        turn_total += d
        record(ev, tn, cap, E_ROLL, p, d, turn_total, 0)
        options[0] = ROLL
        options[1] = HOLD
        n = 2
        if restrict[p] & NO_EARLY_HOLD and turn_total < 20 and score[p] + turn_total < target:
            allowed[0], allowed[1] = True, False
            n = keep_allowed(options, n, allowed)  # ROLL is always left: nothing to lift
        fill_view(view, p, turn_total, target, score)
        k = decide(policy[p], view, options, n, stream, script, ask, weights[p])
        if options[k] == HOLD:
            score[p] += turn_total
            s[p, S.HOLDS] += 1
            record(ev, tn, cap, E_HOLD, p, turn_total, score[p], 0)
            return score[p] >= target


@njit(cache=True, nogil=True)  # releases the GIL: the runner plays chunks on threads (Game.kernel_releases_gil)
def play(seed, ids, ctl, target, turn_cap, first_random, policy, weights, restrict, script, g, s, faces, first, ev, tn,
         cap):
    """The kernel (Game.kernel): games `ids` of run `seed`, each under its control row ctl[i] (kernel.A_*:
    all zeros unless a seat searches), written into the outputs the framework allocated from COLUMNS
    (whole-game columns g[n, G], per-seat columns s[n, P, S], rolls per face faces[n, P, 6], the first
    player first[n], the trace ev/tn/cap)."""
    players = s.shape[1]
    score = np.zeros(players, np.int64)
    options = np.zeros(2, np.int64)
    allowed = np.zeros(2, np.bool_)
    view = np.zeros(2 + players, np.int64)
    for i in range(len(ids)):
        stream = rng.new_stream(seed, ids[i])
        score[:] = 0
        ask = (ctl[i], ev, tn, cap)
        p = rng.below(stream, players) if first_random else 0
        first[i] = p
        record(ev, tn, cap, E_FIRST, p, 0, 0, 0)
        while True:
            if g[i, G.LENGTH] == turn_cap:
                g[i, G.CAPPED] = 1
                record(ev, tn, cap, E_CAP, -1, turn_cap, 0, 0)
                break
            g[i, G.LENGTH] += 1
            if play_turn(p, target, score, stream, policy, weights, restrict, script, ask, options, allowed, view,
                         s[i], faces[i], ev, tn, cap):
                s[i, p, S.IS_WINNER] = 1
                record(ev, tn, cap, E_WIN, p, score[p], 0, 0)
                break
            p = p + 1 if p + 1 < players else 0
        for q in range(players):
            s[i, q, S.SCORE] = score[q]

