"""Simple Card's view check for the game contract (Game.views): a seat sees its own hand, both balancers,
both Risks, every zone's size and the Mains, but the opponent's Main only once face up (a set card is the
"unknown card" to it); the opponent's hand, the order of both decks and the opponent's set card are hidden.

A position is game `seed` of run 0 played by the engine (`engine.play_act`; greedy plays random's seats,
which soon cast themselves out) to an ACT start a few ACTs in where the active seat faces a set card (even
seeds; else the first ACT's) or not (odd seeds), then that ACT begun as the engine begins it (the active
Main back to hand, the draw to 4): its active seat decides. Its decisions are every decision that seat could
be asked there from what it sees, each on the same random stream: turn order, draw, pre-scene technique,
cast, Balance shift, Recall, placement, the contact after each placement; then, with the chosen placement
made, Moving, the contact, Changing (attacking and defending, for each contact) and its card, and Bounce.
Not asked: Picking (it is shown the opponent's hand) and Reading (its own deck's top cards), decided from
the very cards the re-deal moves. The re-deal shuffles the seat's own deck and deals the opponent's unseen
cards (hand, deck and set card, a rank-1 card) anew among them, each zone its size.
"""
import numpy as np

from ... import rng
from ...kernel import A_SCRIPT, RANDOM, new_ctl, new_trace
from . import columns as C
from . import engine as E
from . import packs as K
from . import policies as P
from . import table as T
from . import view as V
from .decisions import (
    CT_BOUNCE,
    CT_CHANGING,
    CT_MOVING,
    CT_RECALL,
    CT_SHIFT,
    D_CAST,
    D_CHANGE,
    D_CHANGE_PLACE,
    D_CONTACT,
    D_DRAW,
    D_FIRST,
    D_MOVE,
    D_PLACE,
    D_POST,
    D_PRE,
    D_RECALL,
    D_SHIFT,
    GO_FIRST,
    GO_SECOND,
    MAX_CARDS,
    MAX_OPTIONS,
    O_CODE,
    O_INDEX,
    PROCEED,
)
from .engine import ask
from .scenario import CT_NAMES, F, R, kernel_inputs

UNCHECKED: dict[str, str] = {}  # random draws from the game's stream, which every ask resets alike
ASK_STREAM = np.uint64(12345)  # the stream each ask starts from: decisions differ only by what they see
PLAYED_ACTS = 2  # ACTs played before the position, plus seed % 3; then on until the seat faces a set card
LAST_ACT = 12  # (even seeds; the first ACT always sets one) or not (odd seeds), up to this ACT


class Position:
    """A seeded game at the start of an ACT of `seat` (its Main returned, its hand drawn to 4); the zones
    and the engine's packs over them (the position keeps their arrays alive)."""

    def __init__(self, sc, seed: int):
        rules, enabled, cards, up, decks, seat_decks, policy, weights, restrict, script = kernel_inputs(sc)
        self.rules, self.enabled, self.cards, self.up = rules, enabled, cards, up
        self.policy, self.weights, self.codes = policy, weights, policy.copy()  # the seats' own policies ask
        self.tables = T.rule_tables(cards, up, rules)
        self.n = np.zeros((2, T.N_FIELDS), np.int64)
        self.deck, self.hand, self.risk = (np.zeros((2, MAX_CARDS), np.int64) for _ in range(3))
        self.seen = np.zeros((2, 2, len(cards)), np.int64)
        self.ctl, self.stream = new_ctl(1)[0], rng.new_stream(0, seed)  # no search: the control row counts the script
        self.ev, self.tn = new_trace(0)
        self.view, self.options = np.zeros(V.VIEW_SIZE, np.int64), np.zeros((MAX_OPTIONS, 3), np.int64)
        self.g, self.s = np.zeros(len(C.COLUMNS.game), np.int64), np.zeros((2, len(C.COLUMNS.seat)), np.int64)
        self.cts, self.played = np.zeros((2, len(CT_NAMES)), np.int64), np.zeros((2, len(cards) // C.BITS + 1), np.int64)
        self.gs = np.zeros(3, np.int64)
        self.zones = K.new_zones(self.n, self.deck, self.hand, self.risk, self.seen)
        self.data = K.new_data(rules, enabled, cards, up, *self.tables)
        self.pol = K.new_policy(policy, weights, restrict, script, self.ctl, self.stream, self.view, self.options,
                                self.ev, self.tn, np.int64(0))
        self.rows = K.new_rows(self.g, self.s, self.cts, self.played)
        ev, tn = new_trace(0)
        cap = np.int64(0)
        E.setup(self.zones, self.data, decks, seat_decks, self.stream, self.s, ev, tn, cap)
        policy[policy == RANDOM] = P.GREEDY  # random soon casts itself out of the game: greedy plays its seats
        a = int(E.first_player(self.zones, self.data, self.pol, self.g, self.s, ev, tn, cap))
        target, found, live = PLAYED_ACTS + seed % 3, None, None
        for t in range(LAST_ACT + 1):
            live = (self._snapshot(), a)  # an ACT's start, the game undecided
            if self.faces_set_card(a) == (seed % 2 == 0):
                found = live
                if t >= target:  # the first such ACT from `target` on, else the last one before it
                    break
            E.play_act(a, self.zones, self.data, self.pol, self.rows, self.gs, ev, tn, cap)
            if self.gs[E.GS_OVER]:
                break
            a = 1 - a
        arrays, a = found or live
        self._restore(arrays)
        policy[:] = self.codes
        self.gs[:] = 0
        self.seat = a
        if self.n[a, T.N_MAIN_H] > 0:  # the ACT's first steps: the active Main returns, the hand is drawn to 4
            E.main_to_hand(self.zones, self.data, a, a)
        self.drawn = min(max(E.HAND_TARGET - int(self.n[a, T.N_HAND]), 0), int(self.n[a, T.N_DECK]))
        for _ in range(self.drawn):
            E.draw(self.zones, a)

    def faces_set_card(self, a):
        q = 1 - a
        return self.n[q, T.N_MAIN_H] > 0 and not self.n[q, T.N_MAIN_UP]

    def _arrays(self):
        return self.n, self.deck, self.hand, self.risk, self.seen, self.stream, self.ctl, self.options, self.view

    def _snapshot(self):
        return [x.copy() for x in self._arrays()]

    def _restore(self, saved):
        for x, y in zip(self._arrays(), saved, strict=True):
            x[...] = y

    def ask(self, kind, m, active=None, contact=-1, changes_left=0, cast_for=-1):
        """The option row (code, index, card) the seat's policy picks among the m listed, asked by the
        engine's own `ask` (the view it builds, the unknown card for a set one), from the stream ASK_STREAM."""
        p = self.seat
        self.stream[0], self.ctl[A_SCRIPT] = ASK_STREAM, 0
        k = ask(kind, p, p if active is None else active, self.zones, self.data, self.pol, m, contact, changes_left,
                 cast_for)
        return self.options[int(k)].tolist()

    def list_options(self, rows):
        for k, row in enumerate(rows):
            self.options[k] = row
        return len(rows)


def position(sc, seed: int) -> Position:
    return Position(sc, seed)


def decisions(pos: Position) -> list:
    """Every decision the seat could be asked here that has two options or more; the contact it would
    choose after each placement it may make; then, its placement made, the decisions of the contact and
    after. The position is restored afterwards."""
    saved = pos._snapshot()
    p, n, hand = pos.seat, pos.n, pos.hand
    changes = int(pos.rules[R.CHANGING_MAX])
    own_hand = [(0, i, int(hand[p, i])) for i in range(n[p, T.N_HAND])]
    asks = [("turn order", D_FIRST, lambda: pos.list_options([(GO_FIRST, 0, 0), (GO_SECOND, 0, 0)]), {}),
            ("draw", D_DRAW, lambda: pos.list_options([(j, 0, 0) for j in range(pos.drawn + 1)]), {}),
            ("pre-scene", D_PRE, lambda: int(E.list_pre_scene(p, pos.zones, pos.data, pos.options, False)), {}),
            ("pre-scene, shifted", D_PRE, lambda: int(E.list_pre_scene(p, pos.zones, pos.data, pos.options, True)), {}),
            ("shift", D_SHIFT, lambda: pos.list_options(own_hand), {"cast_for": CT_SHIFT}),
            ("recall", D_RECALL, lambda: pos.list_options(_recallable(pos)), {"cast_for": CT_RECALL}),
            ("place", D_PLACE, lambda: int(E.list_placements(p, pos.zones, pos.data, pos.options)),
             {"changes_left": changes if pos.enabled[CT_CHANGING] else 0})]
    asks += [(f"cast for {name}", D_CAST, lambda: pos.list_options(own_hand), {"cast_for": t})
             for t, name in enumerate(CT_NAMES) if pos.enabled[t]]
    out = _asked(pos, asks)
    placements = pos.options[:E.list_placements(p, pos.zones, pos.data, pos.options)].tolist()
    if placements and n[1 - p, T.N_MAIN_H] > 0:  # the contact it would choose after each placement it may make
        before = pos._snapshot()
        for option in placements:
            _place(pos, option)
            out += [(f"contact after {option}", pos.ask(D_CONTACT, pos.list_options([(x, 0, 0) for x in range(3)])))]
            pos._restore(before)
    if placements:  # none: the seat loses, nothing follows
        _place(pos, dict(out).get("place", placements[0]))  # a single placement is not asked
        out += _asked(pos, _after_placing(pos, changes))
    pos._restore(saved)
    return out


def _asked(pos, asks):
    out = []
    for name, kind, options, context in asks:
        pos.options[...] = 0  # a listing writes only the columns it uses
        m = int(E.restrict(kind, pos.seat, pos.pol, options(), np.zeros_like(pos.s)))
        if m > 1:
            out.append((name, pos.ask(kind, m, **context)))
    return out


def _recallable(pos):
    """Recall's options (engine.recall): the seat's face-up Risk cards, then its face-down ones."""
    p, risk = pos.seat, pos.risk
    rows = []
    for down in range(1 + int(pos.rules[R.RECALL_FACE_DOWN])):
        rows += [(down, i, max(risk[p, i], -1 - risk[p, i])) for i in range(pos.n[p, T.N_RISK_N]) if (risk[p, i] < 0) == down]
    return rows


def _place(pos, option):
    """The placement (height, hand index, top card) made as engine.place makes it."""
    p, n, up = pos.seat, pos.n, pos.up
    h, base = option[O_CODE], int(E.take_from_hand(pos.zones, p, option[O_INDEX]))
    c = base
    for _ in range(h - 1):
        c = up[c]
        E.take_from_hand(pos.zones, p, E.find_in_hand(pos.zones, p, c, -1))
    n[p, T.N_MAIN_BASE], n[p, T.N_MAIN_H] = base, h
    n[p, T.N_MAIN_UP] = n[1 - p, T.N_MAIN_H] > 0 or h > 1


def _after_placing(pos, changes):
    """The asks once the seat's Main is placed: Moving, and with an opposing Main the contact, Changing
    (attacking and, as if the opponent attacked, defending) for each contact and the card it changes to;
    then Bounce."""
    p, n, hand, cards = pos.seat, pos.n, pos.hand, pos.cards
    unknown = cards.shape[0] - 1
    mains = [(q, 0, int(n[q, T.N_MAIN_BASE]) if n[q, T.N_MAIN_UP] else unknown) for q in (1 - p, p) if n[q, T.N_MAIN_H] > 0]
    hand_ = [int(hand[p, i]) for i in range(n[p, T.N_HAND])]
    ones = sum(cards[c, F.RANK] == 1 for c in hand_)
    cast_change = [(PROCEED, 0, 0)] + [(CT_CHANGING, i, c) for i, c in enumerate(hand_) if ones - (cards[c, F.RANK] == 1) >= 1]
    change_to = [(1, i, c) for i, c in enumerate(hand_) if cards[c, F.RANK] == 1]
    asks = [("move", D_MOVE, lambda: pos.list_options(mains), {"cast_for": CT_MOVING})]
    if n[1 - p, T.N_MAIN_H] > 0:
        asks.append(("contact", D_CONTACT, lambda: pos.list_options([(x, 0, 0) for x in range(3)]), {}))
        for x in range(3) if pos.enabled[CT_CHANGING] else ():
            for side, active in (("attacking", p), ("defending", 1 - p)):
                context = {"active": active, "contact": x, "changes_left": changes, "cast_for": CT_CHANGING}
                asks += [(f"change {x} {side}", D_CHANGE, lambda: pos.list_options(cast_change), context),
                         (f"change to {x} {side}", D_CHANGE_PLACE, lambda: pos.list_options(change_to), context)]
    if pos.enabled[CT_BOUNCE] and hand_:
        asks.append(("bounce", D_POST, lambda: pos.list_options([(PROCEED, 0, 0), (CT_BOUNCE, 0, 0)]), {}))
    return asks


def _unseen(pos):
    """The seat's own deck, and the opponent's hand, deck and set card (if its Main is set face down)."""
    p, q, n = pos.seat, 1 - pos.seat, pos.n
    set_card = [int(n[q, T.N_MAIN_BASE])] if n[q, T.N_MAIN_H] > 0 and not n[q, T.N_MAIN_UP] else []
    return pos.deck[p, :n[p, T.N_DECK]], pos.hand[q, :n[q, T.N_HAND]], pos.deck[q, :n[q, T.N_DECK]], set_card


def hidden(pos: Position) -> np.ndarray:
    return np.concatenate([np.asarray(x, np.int64) for x in _unseen(pos)])


def redeal(pos: Position, rng: np.random.Generator) -> None:
    """The seat's deck shuffled; the opponent's hand, deck and set card dealt anew from the same cards,
    each zone its size, the set card a rank-1 card (only a rank-1 card is ever set)."""
    own_deck, opp_hand, opp_deck, set_card = _unseen(pos)
    own_deck[...] = rng.permutation(own_deck)
    pool = rng.permutation(np.concatenate([opp_hand, opp_deck, np.asarray(set_card, np.int64)]))
    if set_card:
        i = next(i for i, c in enumerate(pool) if pos.cards[c, F.RANK] == 1)
        pos.n[1 - pos.seat, T.N_MAIN_BASE] = pool[i]
        pool = np.delete(pool, i)
    opp_hand[...], opp_deck[...] = pool[:len(opp_hand)], pool[len(opp_hand):]
