"""One Space Base game's state is one flat int64 vector `v`, declared by name (`layout`): a copy of it
(`v.copy()`) is the whole game at that point, which `engine.bind` makes playable again. Its first slots
are the game's scalars at fixed offsets (`ST.ROUND`, `ST.D1` ...: compile-time constants); the tables
after them are sized by the scenario (players, cards, colonies, display), their offsets in the data's
LAY (`D.LAY[TAB.PS]`). Two tables hold float64 policy values (AV, BASE), stored bit for bit in their
int64 slots. Column meanings: layout.py. Past the layout's end (`D.LAY[len(TABLES)]`) rides the game's
control row (kernel.A_*, then its search log): engine.play copies the game's row of the kernel's control
table in before the game and back after it, so a decision's `ask` (engine.ask) is read from the state,
and its A_SCRIPT slot is the scripted policy's cursor.

The kernel reads the state through packs (analyzer/kernel_pack.py: one pointer per call, never
reference-counted), whose fields are views of the vector:
- `State` (the rules' st): every table, the scratch of a decision and the trace;
- `Table` (a policy's T): the public scalars (GS, read at ST.*: the round, the dice ...) and tables
  only, what every player sees (views.py checks that nothing else decides), so a policy cannot read
  the deck order or the random stream;
- `Data` (D): the scenario's numbers, read only.
Speed: numba reference-counts every array it reads from a tuple or passes to a function, and the rule
helpers make dozens of calls a turn: packs of borrowed views skip that counting (a quarter of the run
time before). A pack made in jitted code is freed by `release` (engine.play).
"""
import numpy as np
from numba.experimental import structref

from ...kernel import Layout, indices
from ...kernel_internals import jit_plain_ints
from ...kernel_pack import PackType, field, named
from .layout import NAC, NBD, NOPEN, NPS, NSEC, NX, R_DISPLAY, R_MAXDEP, R_NCARD, R_NCOL, R_P

# ---- the game's scalars: v[ST.*] ------------------------------------------------------------------------
SCALARS = [
    ("round", 1), ("active", 1),
    ("d1", 1), ("d2", 1),         # the dice (D2 = D1 + 1)
    ("dset1", 1), ("dset2", 1),   # 1: that die was fixed by a set-die charge before the roll
    ("trigger", 1),               # 1: a player reached trigger_vp (the round is finished)
    ("end", 1),                   # the end reason (layout.END_*)
    ("over", 1),                  # 1: a 'You Win' card fired
    ("tie_rounds", 1), ("start_tie", 1), ("first", 1), ("you_win", 1),
    # hidden from every player
    ("rng", 1),                   # the game's random stream (rng.new_stream), a uint64 in its slot
]
ST = Layout(SCALARS).offsets("ST")

# ---- the tables, sized by the scenario: v[D.LAY[TAB.*]:] --------------------------------------------------
TABLES = (
    # public: a policy's Table
    "PS", "BD", "DEP", "CUBES", "ABL", "AC", "AV", "BASE", "DISP", "COLAV", "OWNER", "COLOWN",
    # hidden
    "DECK", "DP", "OPEN",
)
PUBLIC = TABLES[:TABLES.index("DECK")]
TAB = indices("TAB", TABLES)  # D.LAY[TAB.PS]: where table PS starts


def layout(players: int, cards: int, colonies: int, display: int, deck: int) -> Layout:
    """The state of a game of this size: the scalars, then the tables (shapes as in layout.py)."""
    P, side, sector = players, (players, 2), (players, NSEC + 1)
    shapes = {"PS": (P, NPS), "BD": (*sector, NBD), "DEP": (*sector, cards), "CUBES": (P, cards),
              "ABL": (*side, cards), "AC": (*side, NSEC + 1, NAC), "AV": (*side, NSEC + 1),
              "BASE": (*side, NSEC + 1, NX), "DISP": (3, display), "COLAV": colonies, "OWNER": cards,
              "COLOWN": colonies, "DECK": (3, deck), "DP": (3, 2), "OPEN": (P, NOPEN)}
    return Layout(SCALARS + [(name, shapes[name]) for name in TABLES])


def named_tables(D, v: np.ndarray) -> dict[str, np.ndarray]:
    """Every table of state vector v by name (numpy views: writing them writes v), plus `v` itself, `rng`,
    its random stream, and `ctl`, its control row: for tests and checks."""
    return {**dict(zip(TABLES, tables(D, v), strict=True)), "v": v, "rng": v[ST.RNG:ST.RNG + 1].view(np.uint64),
            "ctl": v[control_at(D):]}


# ---- packs -----------------------------------------------------------------------------------------------
DATA_FIELDS = (
    "CT", "COLT", "R", "BONUS",  # cards, colonies, rules, turn-order bonus (layout.py)
    "VALS", "WP",                # each seat's policy numbers (from its weights: layout.py), read by policies
    "POL",                       # each seat's policy code
    "PR",                        # each seat's sector odds, read by policies
    "RM",                        # each seat's restrictions (decisions.py)
    "PHASES",                    # how many phases each seat's policy has (decisions.D_PHASE)
    "LVL_IDS", "LVL_N",          # the ships of each level
    "SCRIPT",                    # the scripted policy's option indices
    "LAY",                       # where each table of the state starts (TAB.*), and its size last
    "OWN",                       # the arrays themselves (the fields above are borrowed views)
)
TABLE_FIELDS = ("GS", *PUBLIC)  # GS: the public scalars, v[:ST.RNG]
STATE_FIELDS = (
    "v",                         # the state vector
    *TABLES,                     # its tables (views)
    "rng",                       # its random stream (a view of its one slot)
    "ctl",                       # the game's control row (kernel.A_*, then its search log): v past the layout
    "OPTS", "ALLOWED",           # a decision's options; which of them a restricted seat may take
    "VIEW",                      # the deciding seat's view (view.py)
    "T",                         # the public tables (a Table): what the policies read
    "SB_PS", "SB_BD", "SB_DEP", "SB_BASE", "SB_AV", "SB_AC", "SB_ABL",  # every seat's starting board
    "EV", "EVN", "cap",          # the trace (kernel.record; cap 0: off)
    "OWN",                       # the owning arrays: (v, the starting boards' vector, EV, EVN, the scratch)
)


class DataType(PackType):
    pass


class TableType(PackType):
    pass


class StateType(PackType):
    pass


class _Data(structref.StructRefProxy):
    pass


class _Table(structref.StructRefProxy):
    pass


class _State(structref.StructRefProxy):
    pass


Data = named(_Data, DataType, DATA_FIELDS)
Table = named(_Table, TableType, TABLE_FIELDS)
State = named(_State, StateType, STATE_FIELDS)


@jit_plain_ints
def make_data(CT, COLT, R, BONUS, VALS, WP, POL, PR, RM, PHASES, LVL_IDS, LVL_N, SCRIPT, LAY):
    """The kernel's Data: borrowed fields, the arrays themselves kept alive in OWN."""
    return Data(field(CT), field(COLT), field(R), field(BONUS), field(VALS), field(WP), field(POL), field(PR),
                field(RM), field(PHASES), field(LVL_IDS), field(LVL_N), field(SCRIPT), field(LAY),
                (CT, COLT, R, BONUS, VALS, WP, POL, PR, RM, PHASES, LVL_IDS, LVL_N, SCRIPT, LAY))


@jit_plain_ints
def control_at(D):
    """Where the control row starts in a state vector: past the layout's tables."""
    return D.LAY[len(TABLES)]


@jit_plain_ints
def table(D, v, f, n):
    """The n slots of table f in state vector v."""
    at = D.LAY[f]
    return v[at:at + n]


@jit_plain_ints
def tables(D, v):
    """The tables of state vector v (TABLES order), as views shaped as in `layout`."""
    R = D.R
    P, nc, ncol, dsz, deck = R[R_P], R[R_NCARD], max(1, R[R_NCOL]), R[R_DISPLAY], D.LVL_IDS.shape[1]
    sec = NSEC + 1
    return (table(D, v, TAB.PS, P * NPS).reshape((P, NPS)),
            table(D, v, TAB.BD, P * sec * NBD).reshape((P, sec, NBD)),
            table(D, v, TAB.DEP, P * sec * R[R_MAXDEP]).reshape((P, sec, R[R_MAXDEP])),
            table(D, v, TAB.CUBES, P * nc).reshape((P, nc)),
            table(D, v, TAB.ABL, P * 2 * nc).reshape((P, 2, nc)),
            table(D, v, TAB.AC, P * 2 * sec * NAC).reshape((P, 2, sec, NAC)),
            table(D, v, TAB.AV, P * 2 * sec).view(np.float64).reshape((P, 2, sec)),
            table(D, v, TAB.BASE, P * 2 * sec * NX).view(np.float64).reshape((P, 2, sec, NX)),
            table(D, v, TAB.DISP, 3 * dsz).reshape((3, dsz)),
            table(D, v, TAB.COLAV, ncol), table(D, v, TAB.OWNER, nc), table(D, v, TAB.COLOWN, ncol),
            table(D, v, TAB.DECK, 3 * deck).reshape((3, deck)),
            table(D, v, TAB.DP, 6).reshape((3, 2)),
            table(D, v, TAB.OPEN, P * NOPEN).reshape((P, NOPEN)))
