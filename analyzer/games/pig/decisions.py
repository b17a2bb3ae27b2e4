"""The decisions of a Pig player and how their options are written: the vocabulary the rules
(engine.py, which lists the legal options) and the policies (policies.py, which return the index of
one) share. Nothing here decides anything.

  kind       options (in this order)     the view (view.fill_view)
  D_TURN     ROLL, HOLD                  turn total, target, every score

Pig has one decision, so the engine never passes its kind; a game with several passes D_* to decide.
"""
D_TURN = 0
ROLL, HOLD = 0, 1  # D_TURN's options

# restrictions (PigScenario.RESTRICTIONS, in bit order): the engine filters the listed options by them
NO_EARLY_HOLD = 1 << 0  # never hold a turn total under 20, unless holding wins
