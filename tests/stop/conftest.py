"""The STOP tests' one position builder, reached through fixtures: `position` builds a concrete
position (hands, piles, top card) as kernel state, `card` / `cards` name cards as in the rulebook
("red 5", "blue 2+", "green 6/9", "yellow Pause", "wild"), and `replay_check` replays a traced game's
card movements independently of the kernel."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from analyzer.games.stop import GAME
from analyzer.games.stop import decisions as O
from analyzer.games.stop import engine as E
from analyzer.games.stop import state as S
from analyzer.games.stop.cards import COLOUR_NAMES, K_PAUSE, K_TWO_PLUS, KIND_NAMES, N_KINDS, WILD, card_name
from analyzer.games.stop.decisions import SWAP_PASS_LEFT, SWAP_WITH_ONE
from analyzer.games.stop.scenario import kernel_inputs
from analyzer.kernel import A_SCRIPT, new_trace
from analyzer.rng import new_stream
from analyzer.scenario import load

YES_NO = (O.D_PLAY_DRAWN, O.D_JUMP_IN, O.D_SWAP_CANCEL, O.D_XPLUS_CANCEL)


def card_of(name: str) -> int:
    """'red 5' -> card type; 'wild' -> WILD."""
    if name == "wild":
        return int(WILD)
    colour, kind = name.split(" ", 1)
    return COLOUR_NAMES.index(colour) * int(N_KINDS) + KIND_NAMES.index(kind)


def cards_of(*names: str) -> list[int]:
    return [card_of(n) for n in names]


class Position:
    """A kernel state for a hand-built position. Seats' policies default to greedy (deterministic
    except ties, which the tests avoid)."""
    card = staticmethod(card_of)
    cards = staticmethod(cards_of)

    def __init__(self, players=4, policies=("greedy",), sets=(), hands=None, draw=(), discard=(), seed=0):
        self.scenario = load(GAME, sets=list(sets), players=players, policies=list(policies))
        k = kernel_inputs(self.scenario)
        self.r, self.pol = k.rules, k.policy
        self.s = S.make_state(players, k.cards.penalty, k.cards.draws, k.cards.copies, k.seats, new_trace(20000)[0], 20000)
        self.s.rng[0] = new_stream(seed, 0)[0]
        for p in range(players):
            S.set_hand(self.s, p, cards_of(*(hands or {}).get(p, ())))
        S.set_piles(self.s, cards_of(*draw), cards_of(*discard))

    # -- reading the position --
    def hand(self, p) -> list[str]:
        return sorted(card_name(t) for t in S.hand_list(self.s, p))

    def size(self, p) -> int:
        return int(self.s.hand[p, S.SIZE])

    @property
    def top(self) -> str:
        return card_name(S.top(self.s))

    @property
    def discard(self) -> list[str]:
        return [card_name(t) for t in S.discard_pile(self.s)]

    @property
    def draw_pile(self) -> list[str]:
        return [card_name(t) for t in S.draw_pile(self.s)]

    @property
    def hand_over(self) -> bool:
        return bool(self.s.v[S.HAND_OVER])

    def events(self, kind=None) -> list[tuple]:
        n = int(self.s.v[S.TRACE_N])
        rows = [tuple(int(x) for x in e) for e in self.s.ev[:n]]
        return [e for e in rows if kind is None or e[0] == kind]

    def plays(self) -> list[tuple[int, str, int]]:
        """(player, card, how) of every card played, in order."""
        return [(p, card_name(c), a) for _, p, c, a, _ in self.events(E.E_PLAY)]

    # -- acting --
    def settle(self, src, played):
        t = card_of(played)
        return int(E.settle(self.s, self.r, self.pol, src, t, E.effect_of(t), E.TWO, E.WINDOW))

    def play(self, p, name):
        """p plays `name` from their hand as their turn (the card must be in the hand)."""
        return int(E.play_from_hand(self.s, self.r, self.pol, p, card_of(name), E.HOW_TURN))

    def turn(self, p):
        return int(E.take_turn(self.s, self.r, self.pol, p))

    # -- deciding: the options the engine lists, the option p's policy takes --
    def options(self, kind, p, *ctx) -> int:
        """List the options of a decision as the engine does (decisions.py); returns how many."""
        s = self.s
        if kind == O.D_PLAY:
            top, allow_draw = ctx
            return int(E.play_options(s, p, card_of(top), allow_draw))
        if kind == O.D_WILD_FOLLOW:
            return int(E.follow_options(s, p))
        if kind in (O.D_ANSWER_TWO_PLUS, O.D_ANSWER_PAUSE):
            alt = K_TWO_PLUS if kind == O.D_ANSWER_TWO_PLUS else K_PAUSE
            return int(E.answer_options(s, p, card_of(f"{ctx[0]} 0"), alt))
        if kind == O.D_SWAP:
            return int(E.swap_options(s, p))
        if kind == O.D_XPLUS_CARD:
            return int(E.forced_card_options(s, p))
        return int(E.offer(s, E.offer(s, 0, O.NO), O.YES))     # yes / no

    def option_value(self, kind, name):
        """The option a test names: a card name, (mode, target) for a Swap, or the option itself
        (O.YES, O.ACCEPT, O.DRAW_INSTEAD...)."""
        if isinstance(name, str):
            return card_of(name)
        if kind == O.D_SWAP:
            return int(O.swap_option(np.int64(name[0]), np.int64(name[1])))
        return int(name)

    def index_of(self, kind, p, name, *ctx) -> int | None:
        """The index of the named option among those the engine lists for p's decision of `kind` in
        this position: what a script gives to choose it. None when it is the only option: the engine
        does not ask, so the script has no entry for it."""
        n = self.options(kind, p, *ctx)
        listed = [int(x) for x in self.s.v[S.OPTS:S.OPTS + n]]
        k = listed.index(self.option_value(kind, name))
        return None if n == 1 else k

    def script(self, *indices):
        """Give the scripted seats these option indices (from index_of; None: not asked), in game order."""
        self.pol = self.pol._replace(script=np.array([k for k in indices if k is not None], np.int64))
        self.s.v[S.CTL + A_SCRIPT] = 0

    def choice(self, kind, p, *ctx, context=0):
        """What p's policy chooses at a decision of `kind`: a card name, O.DRAW_INSTEAD / O.ACCEPT (-1),
        True / False for yes-no decisions, (mode, target) for a Swap."""
        n = self.options(kind, p, *ctx)
        v = int(E.ask(self.s, self.r, self.pol, p, kind, n, context))
        if kind == O.D_SWAP:
            mode = v // int(O.MODE_STRIDE)
            return mode, (v % int(O.MODE_STRIDE) if mode == O.SWAP_WITH_ONE else -1)
        if kind in YES_NO:
            return v == O.YES
        return card_name(v) if v >= 0 else v


def check_replay(events: np.ndarray, players: int, deck_size: int = 112, penalties=None,
                 out_zero: bool = False) -> dict:
    """Replay a traced match's card movements independently of the kernel and check them: every card
    leaving a hand was held, a draw fails only when both piles are exhausted, the cards held at each
    hand end (E_HELD) are exactly the replayed hands, every hand's score is the penalty of those
    cards, totals accumulate, and deck + hands + discards always hold deck_size cards.
    Returns a summary (hands, totals, ...)."""
    hands: list[Counter] = []
    pile = disc = 0
    totals = [0] * players
    held_seen: list[Counter] = []
    n_hands = 0
    out = -1
    summary = {"hands": 0, "plays": 0, "draws": 0, "failed_draws": 0, "swaps": 0}
    for kind, p, c, a, b in (tuple(int(x) for x in e) for e in events):
        if kind == E.E_HAND:
            n_hands += 1
            hands = [Counter() for _ in range(players)]
            held_seen = [Counter() for _ in range(players)]
            pile, disc = deck_size, 0
            out = -1
        elif kind == E.E_STOP:
            assert out == -1 and sum(hands[p].values()) == 0
            out = p
        elif kind == E.E_DEAL:
            hands[p][c] += a
            pile -= a
        elif kind == E.E_STARTER:
            if a == 0:
                pile -= 1
                disc += 1
        elif kind == E.E_PLAY:
            assert hands[p][c] > 0, f"seat {p} played {card_name(c)} it does not hold"
            hands[p][c] -= 1
            disc += 1
            assert sum(hands[p].values()) == b, "cards-left field disagrees with the replay"
            summary["plays"] += 1
        elif kind == E.E_DRAW:
            if c < 0:
                assert pile == 0 and disc <= 1, "a draw failed although cards were available"
                summary["failed_draws"] += 1
            else:
                assert pile > 0
                hands[p][c] += 1
                pile -= 1
                summary["draws"] += 1
        elif kind == E.E_RESHUFFLE:
            assert pile == 0 and disc - 1 == a
            pile, disc = a, 1
        elif kind == E.E_SWAP_DONE:
            summary["swaps"] += 1
            mode, target = a, b
            if mode == SWAP_WITH_ONE:
                hands[p], hands[target] = hands[target], hands[p]
            elif mode == SWAP_PASS_LEFT:      # everyone passes to the left: q gets q-1's hand
                hands = [hands[(q - 1) % players] for q in range(players)]
            else:
                hands = [hands[(q + 1) % players] for q in range(players)]
        elif kind == E.E_HELD:
            held_seen[p][c] += a
        elif kind == E.E_SCORE:
            assert +hands[p] == +held_seen[p], f"hand {n_hands}: seat {p} holds {held_seen[p]}, replay {hands[p]}"
            if penalties is not None:
                expect = 0 if (out_zero and p == out) else sum(int(penalties[t]) * k for t, k in hands[p].items())
                assert a == expect, f"seat {p} scored {a}, its cards are worth {expect}"
            totals[p] += a
            assert totals[p] == b, "running total disagrees"
            assert pile + disc + sum(sum(h.values()) for h in hands) == deck_size, "cards not conserved"
        elif kind == E.E_MATCH_END:
            summary["match_hands"] = a
            summary["winner_mask"] = b
    summary["hands"] = n_hands
    summary["totals"] = totals
    return summary


@pytest.fixture
def position():
    """The builder: position(players=4, policies=("greedy",), sets=(), hands={seat: [names]}, draw=(),
    discard=(), seed=0) -> Position."""
    return Position


@pytest.fixture
def card():
    """'red 5' -> its card type."""
    return card_of


@pytest.fixture
def cards():
    return cards_of


@pytest.fixture
def replay_check():
    return check_replay
