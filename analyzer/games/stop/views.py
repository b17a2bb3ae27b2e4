"""STOP's view check for the game contract (Game.views): a seat sees its own hand, the other hands' sizes,
the discard pile and the match totals; the other hands and the draw pile are hidden. A position is a
seeded hand a few turns in; its decisions are every decision the deciding seat could be asked there (on
the same random stream each), and the re-deal deals the cards it cannot see anew, each hand its size."""
import numpy as np

from ...kernel import new_trace
from . import decisions as O
from . import engine as E
from . import state as S
from .cards import K_PAUSE, K_TWO_PLUS, KIND_NAMES, LAST_NUMBER_KIND, N_COLOURS, N_KINDS, N_TYPES, WILD, colour_of
from .scenario import kernel_inputs

UNCHECKED: dict[str, str] = {}  # random draws from the match's stream, which every ask resets alike
ASK_STREAM = np.uint64(12345)  # the stream each ask starts from: decisions differ only by what they see


class Position:
    def __init__(self, sc, seed: int):
        k = kernel_inputs(sc)
        self.r, self.pol, self.P = k.rules, k.policy, sc.players
        self.s = S.make_state(sc.players, k.cards.penalty, k.cards.draws, k.cards.copies, k.seats, new_trace(0)[0], 0)
        E.reset_match(self.s, seed, 0)
        E.deal(self.s, self.r, 0)
        E.turn_starter(self.s, self.r, 0)
        p = 0
        for _ in range(seed % 3 + 1):  # a few turns in: hands of several sizes, a longer discard pile
            p = S.left(self.s, p)
            if self.s.v[S.HAND_OVER]:
                break
            E.take_turn(self.s, self.r, self.pol, p)
        self.seat = (seed + 1) % sc.players  # the deciding seat


def position(sc, seed: int) -> Position:
    return Position(sc, seed)


def _card(colour: int, kind: str) -> int:
    return colour * int(N_KINDS) + KIND_NAMES.index(kind)


def _yes_no(s) -> int:
    return int(E.offer(s, E.offer(s, 0, O.NO), O.YES))


def decisions(pos: Position) -> list:
    """Every decision the deciding seat could be asked here that has options, each on the same stream;
    the state is restored afterwards (asks write their options into it)."""
    s, p = pos.s, pos.seat
    saved = [a.copy() for a in (s.hand, s.piles, s.v, s.rng)]
    own = sorted({t for t in range(N_TYPES) if s.hand[p, t] > 0})
    zeros = sorted({colour_of(t) for t in own if t != WILD and t % int(N_KINDS) == 0})
    asks = [("play", O.D_PLAY, lambda: int(E.play_options(s, p, S.top(s), False)), 0),
            ("play or draw", O.D_PLAY, lambda: int(E.play_options(s, p, S.top(s), True)), 0),
            ("wild follow-up", O.D_WILD_FOLLOW, lambda: int(E.follow_options(s, p)), 0),
            ("swap", O.D_SWAP, lambda: int(E.swap_options(s, p)), 0),
            ("X+ card", O.D_XPLUS_CARD, lambda: int(E.forced_card_options(s, p)), 0)]
    asks += [(f"play drawn {t}", O.D_PLAY_DRAWN, lambda: _yes_no(s), t) for t in own]
    asks += [(f"jump in {t}", O.D_JUMP_IN, lambda: _yes_no(s), t) for t in own if t != WILD and t % int(N_KINDS) <= LAST_NUMBER_KIND]
    for c in range(int(N_COLOURS)):
        zero = _card(c, "0")
        asks += [(f"answer 2+ {c}", O.D_ANSWER_TWO_PLUS, lambda z=zero: int(E.answer_options(s, p, z, K_TWO_PLUS)), 2),
                 (f"answer Pause {c}", O.D_ANSWER_PAUSE, lambda z=zero: int(E.answer_options(s, p, z, K_PAUSE)),
                  _card(c, "Pause"))]
        if c in zeros:
            asks += [(f"cancel X+ {c}", O.D_XPLUS_CANCEL, lambda: _yes_no(s), _card(c, "X+"))]
            asks += [(f"cancel Swap {c} from {q}", O.D_SWAP_CANCEL, lambda: _yes_no(s), q) for q in range(pos.P) if q != p]
    out = []
    for name, kind, options, context in asks:
        n = options()
        if n > 0:
            s.rng[0] = ASK_STREAM
            out.append((name, int(E.ask(s, pos.r, pos.pol, p, kind, n, context))))
    for a, b in zip((s.hand, s.piles, s.v, s.rng), saved, strict=True):
        a[...] = b
    return out


def hidden(pos: Position) -> np.ndarray:
    """The other hands and the draw pile, as the deciding seat cannot see them."""
    others = [q for q in range(pos.P) if q != pos.seat]
    return np.concatenate([pos.s.hand[others].ravel(), S.draw_pile(pos.s)])


def redeal(pos: Position, rng: np.random.Generator) -> None:
    s = pos.s
    others = [q for q in range(pos.P) if q != pos.seat]
    sizes = [int(s.hand[q, S.SIZE]) for q in others]
    pool = np.array([t for q in others for t in S.hand_list(s, q)] + S.draw_pile(s), np.int64)
    rng.shuffle(pool)
    i = 0
    for q, n in zip(others, sizes, strict=True):
        S.set_hand(s, q, [int(t) for t in pool[i:i + n]])
        i += n
    shuffled = s.v[S.SHUFFLED]
    S.set_piles(s, [int(t) for t in pool[i:]], S.discard_pile(s))
    s.v[S.SHUFFLED] = shuffled  # the pile stays as shuffled as it was
