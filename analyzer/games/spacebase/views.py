"""Space Base's view check for the game contract (Game.views): every board, credit and display card is
public; the only hidden thing is the order of the three shipyard decks. A position is a few rounds into
a seeded game; its decisions are every ask of every seat (buy, claim, dice assignment, set die, reroll,
firing and what a fired ability does), and the re-deal shuffles the cards still in each deck."""
import numpy as np

from . import GAME
from . import engine as E
from . import layout as L
from .decisions import D_PHASE
from .scenario import card_list, kernel_arrays
from .state import DATA_FIELDS, ST

UNCHECKED: dict[str, str] = {}  # random draws from the dice stream, which the re-deal leaves alone
DICE = [(1, 6), (2, 2), (3, 5), (6, 6), (4, 1)]
CHARGE, SWAPPER = "l2-9", "l2-24"  # a charge card (its abilities' bonus credits count in the heuristics); Kubasov's swap


class Position:
    """A seeded game a few rounds in; its state's tables by name (pos.DECK, pos.PS ...) share the state."""

    def __init__(self, sc, seed: int):
        self.sc, self.P = sc, sc.players
        self.D = GAME.inputs(sc)
        self.st = E.new_state(self.D)
        E.reset(self.D, self.st, seed, 0)
        self.a = E.state_arrays(self.D, self.st)
        self.cards = card_list(sc)
        self.idx = {c.id: i for i, c in enumerate(self.cards)}
        for p in range(self.P):
            E.refresh(self.D, self.st, p)
        for t in range(self.P * (4 + seed % 3)):  # a few rounds in: boards, credits and displays differ
            E.play_turn(self.D, self.st, t % self.P)

    def __getattr__(self, name):
        if name in self.__dict__.get("a", {}):
            return self.a[name]
        raise AttributeError(name)


def position(sc, seed: int) -> Position:
    return Position(sc, seed)


def decisions(pos: Position, card: str = CHARGE) -> list:
    """Every decision of every seat, asked as the engine asks it (`card`: the ship the asks take as
    context); the state is restored afterwards (the asks roll dice into it)."""
    saved = pos.v.copy()
    D, st, c = pos.D, pos.st, pos.idx[card]
    swapper, sector = pos.idx[SWAPPER], pos.cards[c].sector
    out = []
    for p in range(pos.P):
        credits = int(pos.PS[p, L.PL.CRED])
        out.append(("buy", p, E.ask_buy(D, st, p, credits, True)))
        out.append(("ability buy", p, E.ask_buy(D, st, p, credits, False)))
        out += [("claim", p, lv, E.ask_claim(D, st, p, lv)) for lv in range(3)]
        for side in (L.BLUE, L.RED):
            out += [("assign", p, side, d, E.ask_assign(D, st, p, side, *d)) for d in DICE]
            for d in DICE:
                pos.v[ST.D1], pos.v[ST.D2] = d
                out.append(("reroll", p, side, d, E.ask_reroll(D, st, p, c, side)))
            out.append(("set die", p, side, E.ask_set_die(D, st, p, c, side)))
            out.append(("fire", p, side, E.ask_fire(D, st, p, c, side)))
            out.append(("swap", p, side, E.ask_swap(D, st, p, swapper, side)))
            out.append(("exchange", p, side, E.ask_exchange(D, st, p, c, side, sector)))
        out.append(("place", p, E.ask_place(D, st, p, c)))
        out.append(("phase", p, E.ask_yes_no(D, st, p, D_PHASE, 0, 0, 0)))
        src = E.ask_move_source(D, st, p, c)
        out.append(("move", p, src, E.ask_move_target(D, st, p, src) if src >= 0 else None))
    pos.v[:] = saved
    return out


def hidden(pos: Position) -> np.ndarray:
    return pos.DECK.copy()


def redeal(pos: Position, rng: np.random.Generator) -> None:
    """Shuffle the cards still in each deck (a circular buffer from DP[lv, 0], DP[lv, 1] cards)."""
    deck_sizes = kernel_arrays(pos.sc)[DATA_FIELDS.index("LVL_N")]
    for lv in range(3):
        start, count = int(pos.DP[lv, 0]), int(pos.DP[lv, 1])
        slots = (start + np.arange(count)) % deck_sizes[lv]
        pos.DECK[lv, slots] = rng.permutation(pos.DECK[lv, slots])
