"""What a Space Base player may know when deciding, built by the rules. Every board, credit, cube,
display card and die is public: a policy reads them in place, in the public tables (state.Table: the
game's public scalars, the boards and the reward tables the rules keep of them), and the view adds the
decision itself (`fill_view`): who decides, what, its context (decisions.py) and the seat's
restrictions. Never the deck order or the random stream (views.py checks it). The engine fills it at
every decision; policies.py only reads it.
"""
from ...kernel_internals import jit_plain_ints_inline

V_SEAT, V_KIND = 0, 1
V_X, V_Y, V_Z = 2, 3, 4            # the decision's context (decisions.py)
V_RESTRICT = 5                     # the seat's restrictions (decisions.NO_* bits)
VIEW_SIZE = 6


@jit_plain_ints_inline
def fill_view(view, p, kind, x, y, z, restrict):
    """The one place a player's view is built."""
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_X] = x
    view[V_Y] = y
    view[V_Z] = z
    view[V_RESTRICT] = restrict
