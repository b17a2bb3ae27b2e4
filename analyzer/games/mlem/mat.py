"""MLEM's mat and rules as the kernel reads them: one pack (analyzer/kernel_pack.py), its arrays read by
name (`board.kind[space]`). A tuple of eleven arrays cost every call of a rule or policy function some 80
words on the stack, and those calls (a landing's value, space by space, at each decision) were most of
the kernel's time; a pack is one pointer.

`as_mat` builds it in jitted code from scenario.kernel_inputs' board tuple, whose arrays it borrows (the
caller keeps them alive); Python callers use `mat_of`, which keeps them alive itself."""
from numba import njit
from numba.experimental import structref

from ...kernel_pack import PackType, field, named

MAT_FIELDS = (
    "allowed",        # allowed[space, symbol]: the faces that count there (symbol codes 1-5)
    "ab",             # the afterburner pips of each space
    "kind",           # each space's body: scenario.BODY_*
    "ident",          # which moon group or planet a space touches (-1: none)
    "moon_start",     # moon group g holds moons moon_start[g] .. moon_start[g + 1] - 1, nearest first
    "moon_value",     # each moon's points
    "planet_points",  # planet_points[planet, rank]
    "goals",          # the four goal tokens' points
    "leave_cap",      # leave_cap[row, space]: the most leaving there can earn (scenario.leave_cap)
    "crash",          # crash[dice, space]: the chance a roll of that many dice shows no usable face
    "rules",          # the rule vector (scenario.R)
)


class MatType(PackType):
    pass


class _Mat(structref.StructRefProxy):
    pass


Mat = named(_Mat, MatType, MAT_FIELDS)


@njit(cache=True)
def as_mat(board):
    """The pack over the board tuple's arrays (borrowed: the caller keeps the tuple alive)."""
    return Mat(field(board[0]), field(board[1]), field(board[2]), field(board[3]), field(board[4]), field(board[5]),
               field(board[6]), field(board[7]), field(board[8]), field(board[9]), field(board[10]))


def mat_of(board: tuple):
    """as_mat for Python callers (tests, the view check): the pack holds the tuple, so its arrays live as
    long as it does."""
    mat = as_mat(board)
    mat.owner = board
    return mat
