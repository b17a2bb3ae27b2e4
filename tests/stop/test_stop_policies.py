"""STOP policies do what policies.py says they do, on hand-built positions, and decide only from what
their player can see."""
import inspect
from collections import Counter

import numpy as np
import pytest

from analyzer.games.stop import decisions as O
from analyzer.games.stop import policies as Po
from analyzer.games.stop import state as S
from analyzer.games.stop.cards import COLOUR_NAMES, WILD, card_name, colour_of
from analyzer.games.stop.scenario import StopScenario, kernel_inputs


def choose(pos, p, top, allow_draw=False):
    return pos.choice(O.D_PLAY, p, top, allow_draw)


def test_greedy_sheds_the_highest_penalty_and_keeps_zeros_last(position):
    assert choose(position(hands={0: ["red 0", "red 8", "red Swap", "blue 3"]}), 0, "red 3") == "red Swap"
    assert choose(position(hands={0: ["red 0", "red 1"]}), 0, "red 3") == "red 1"
    assert choose(position(hands={0: ["red 0", "blue 3"]}), 0, "red 3") == "blue 3"
    assert choose(position(hands={0: ["red 0", "blue 8"]}), 0, "red 3") == "red 0"
    assert choose(position(hands={0: ["wild", "blue 8"]}), 0, "red 3") == "wild"


def test_greedy_stacks_a_two_plus_rather_than_spending_its_zero_defender_cancels(position):
    for policy, expect in (("greedy", "blue 2+"), ("defender", "red 0")):
        pos = position(policies=[policy], hands={1: ["red 0", "blue 2+", "green 5"]})
        assert pos.choice(O.D_ANSWER_TWO_PLUS, 1, "red", context=2) == expect


def test_greedy_spends_a_zero_on_a_pause_only_with_two_cards_or_fewer(position):
    pos = position(hands={1: ["red 0", "green 5", "green 7"]})
    assert pos.choice(O.D_ANSWER_PAUSE, 1, "red") == O.ACCEPT
    pos = position(hands={1: ["red 0", "green 5"]})
    assert pos.choice(O.D_ANSWER_PAUSE, 1, "red") == "red 0"
    pos = position(sets=["weights.greedy.pause_zero_at=3"], hands={1: ["red 0", "green 5", "green 7"]})
    assert pos.choice(O.D_ANSWER_PAUSE, 1, "red") == "red 0"


def test_greedy_xplus_card_trades_draws_against_penalty(position):
    pos = position(hands={1: ["blue 0", "green 6/9", "yellow 1"]})
    assert pos.choice(O.D_XPLUS_CARD, 1) == "blue 0"        # draw nothing
    pos = position(hands={1: ["blue 2+", "yellow 1"]})
    assert pos.choice(O.D_XPLUS_CARD, 1) == "blue 2+"       # 2*14-20 < 14-1
    pos = position(sets=["cards.two_plus.penalty=5"], hands={1: ["blue 2+", "yellow 1"]})
    assert pos.choice(O.D_XPLUS_CARD, 1) == "yellow 1"      # 2*14-5 > 14-1


def test_greedy_cancels_a_swap_only_when_the_incoming_hand_is_expected_to_be_worse(position):
    # seat 2 keeps blue 1 (penalty 1) without its 0; seat 0's 2 face-down cards are worth 2 x 14 = 28
    pos = position(hands={0: ["green 8", "yellow 7"], 2: ["red 0", "blue 1"], 3: ["green 1"]})
    assert pos.choice(O.D_SWAP_CANCEL, 2, context=0)
    # against one card (expected 14) a kept hand of 20 is worse: no cancel
    pos = position(hands={2: ["red 0", "blue 2+"], 3: ["green 1"]})
    assert not pos.choice(O.D_SWAP_CANCEL, 2, context=3)
    pos = position(hands={2: ["red 0", "blue 8"], 3: ["green 1"]})
    assert pos.choice(O.D_SWAP_CANCEL, 2, context=3)


def test_defender_cancels_a_swap_that_would_give_it_more_cards(position):
    pos = position(policies=["defender"], hands={0: ["green 1", "green 3"], 2: ["red 0", "blue 2+"], 3: ["green 1"]})
    assert pos.choice(O.D_SWAP_CANCEL, 2, context=0)           # 2 cards in, 1 kept
    assert not pos.choice(O.D_SWAP_CANCEL, 2, context=3)       # 1 in, 1 kept: 20 > 14 expected


def test_swap_choice_takes_the_fewest_cards_first_clockwise_on_ties(position):
    hands = {0: ["red 8"], 1: ["blue 1", "blue 3", "blue 4"], 2: ["wild", "wild"], 3: ["green 5", "green 7"]}
    for policy in ("greedy", "defender"):
        pos = position(policies=[policy], hands=hands)
        assert pos.choice(O.D_SWAP, 0) == (O.SWAP_WITH_ONE, 2)
        pos = position(policies=[policy], hands={**hands, 3: ["green 5"]})
        assert pos.choice(O.D_SWAP, 0) == (O.SWAP_WITH_ONE, 3)
        pos = position(policies=[policy], hands={**hands, 0: ["red 8", "red 1"], 2: ["red 1", "red 3", "red 4"]})
        assert pos.choice(O.D_SWAP, 1) == (O.SWAP_WITH_ONE, 3)    # 3 and 0 tie at 2


def test_defender_hoards_keepers_and_attacks_the_threat_on_its_left(position):
    hands = {0: ["red 0", "red 2+", "red 8", "red Pause"], 1: ["blue 1"], 2: ["blue 3"], 3: ["blue 4"]}
    pos = position(policies=["defender"], hands=hands)
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [100, 200, 50, 300]            # threat: seat 2, not on its left
    assert choose(pos, 0, "red 3") == "red Pause"                   # highest non-keeper (10 > 8)
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [100, 20, 50, 300]             # threat: seat 1, its left neighbour
    assert choose(pos, 0, "red 3") == "red 2+"                      # attack cards first, 2+ is the costliest
    pos = position(policies=["defender"], hands={0: ["red 0", "red 2+", "blue 8"]})
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [0, 100, 0, 100]               # threat: seat 2
    assert choose(pos, 0, "red 3", allow_draw=True) == O.DRAW_INSTEAD   # only hoarded keepers: rather draw
    assert choose(pos, 0, "red 3", allow_draw=False) == "red 2+"


def test_random_is_uniform_over_the_listed_options(position, card):
    """Two copies of red 5 are one option (the same move): red 5, red 7, red 1 and "draw instead" are
    taken a quarter of the time each; yes and no half the time each."""
    jumps, plays = 0, Counter()
    for seed in range(400):
        pos = position(policies=["random"], hands={1: ["red 5", "red 5", "red 7", "red 1"]}, seed=seed)
        jumps += pos.choice(O.D_JUMP_IN, 1, context=card("red 5"))
        plays[choose(pos, 1, "red 3", allow_draw=True)] += 1
    assert 160 < jumps < 240          # binomial(400, 1/2): 99.99% within
    assert set(plays) == {"red 5", "red 7", "red 1", O.DRAW_INSTEAD}
    assert all(60 < k < 140 for k in plays.values()), plays


def test_scripted_takes_the_scripts_option_indices_in_order_then_the_first(position):
    pos = position(policies=["scripted"], sets=["script=[2, 0, 1]"], hands={0: ["red 1", "red 5", "red 7"]})
    assert [choose(pos, 0, "red 3") for _ in range(4)] == ["red 7", "red 1", "red 5", "red 1"]


# ---- what a player may see ---------------------------------------------------------------------------
# Built positions seen by seat 1: its own hand, the other hands' sizes (their cards are hidden), the
# discard pile, the match totals. Each decision is asked on the position as built and again after the
# hidden cards are dealt anew: the decision must not change.

VIEWS = [
    dict(own=["red 0", "red 2+", "blue 7", "red Pause", "wild", "green 6/9"], sizes={0: 3, 2: 1, 3: 5},
         discard=["yellow 3", "red 3"], totals=[100, 50, 200, 20]),
    dict(own=["blue 0", "yellow Swap", "green 1", "blue 2+"], sizes={0: 6, 2: 2, 3: 2},
         discard=["green 4", "blue 4"], totals=[10, 300, 10, 250]),
    dict(own=["red 5", "red 5", "yellow Pause", "blue 0", "green X+", "yellow 0"], sizes={0: 1, 2: 4, 3: 7},
         discard=["red 8", "red 5"], totals=[400, 0, 30, 60]),
]


def redeal(view, seed, pos):
    """Hands for every seat: seat 1's own cards, and for the others cards of the right count drawn at
    random from what seat 1 cannot see (the deck minus its hand and the discards); the rest, shuffled,
    is the draw pile. seed None: one fixed deal. `pos`: a position of the same deck."""
    copies = kernel_inputs(pos.scenario).cards.copies
    unseen = Counter({t: int(c) for t, c in enumerate(copies)}) - Counter(pos.cards(*view["own"], *view["discard"]))
    pool = np.array(sorted(unseen.elements()))
    np.random.default_rng(seed if seed is not None else 0).shuffle(pool)
    hands, i = {1: list(view["own"])}, 0
    for q, n in view["sizes"].items():
        hands[q] = [card_name(t) for t in pool[i:i + n]]
        i += n
    return hands, [card_name(t) for t in pool[i:]]


def decisions(pos, view):
    """Every decision seat 1 could be asked in this position (with the same random stream each)."""
    s, p = pos.s, 1
    own = pos.cards(*view["own"])
    number = [t for t in own if t != WILD and t % 12 <= 8]
    zero_colours = sorted({colour_of(t) for t in own if t != WILD and t % 12 == 0})
    out = {}
    seed = np.uint64(s.rng[0])

    def ask(name, kind, *ctx, context=0):
        s.rng[0] = seed
        out[name] = pos.choice(kind, p, *ctx, context=context)

    ask("play", O.D_PLAY, view["discard"][-1], False)
    ask("play or draw", O.D_PLAY, view["discard"][-1], True)
    if WILD in own:
        ask("wild follow-up", O.D_WILD_FOLLOW)
    for t in set(own):
        ask(f"play drawn {t}", O.D_PLAY_DRAWN, context=t)
    for t in set(number):
        ask(f"jump in {t}", O.D_JUMP_IN, context=t)
    for c in zero_colours:
        colour = COLOUR_NAMES[c]
        ask(f"answer 2+ {c}", O.D_ANSWER_TWO_PLUS, colour, context=2)
        ask(f"answer Pause {c}", O.D_ANSWER_PAUSE, colour, context=pos.card(f"{colour} Pause"))
        ask(f"cancel X+ {c}", O.D_XPLUS_CANCEL, context=pos.card(f"{colour} X+"))
        for q in (0, 2, 3):
            ask(f"cancel Swap {c} from {q}", O.D_SWAP_CANCEL, context=q)
    ask("swap", O.D_SWAP)
    ask("X+ card", O.D_XPLUS_CARD)
    return out


@pytest.mark.parametrize("policy", StopScenario.POLICIES)
@pytest.mark.parametrize("v", range(len(VIEWS)))
def test_decisions_depend_only_on_the_players_view(policy, v, position):
    view = VIEWS[v]

    def dealt(seed):
        hands, draw = redeal(view, seed, position())
        pos = position(policies=[policy], hands=hands, draw=draw, discard=view["discard"], seed=5)
        pos.s.v[S.TOTAL:S.TOTAL + 4] = view["totals"]
        return pos
    seen = decisions(dealt(None), view)
    assert len(seen) >= 8
    for seed in range(6):
        assert decisions(dealt(seed), view) == seen, f"seat 1's decision changed when hidden cards moved ({seed})"


def test_policies_are_given_the_view_never_the_state():
    """decide has the common call, and no decision function takes the state (`s`): what a policy sees
    is what the engine passes."""
    def python(f):  # the Python function behind a dispatcher (plain already under NUMBA_DISABLE_JIT)
        return getattr(f, "py_func", f)

    params = list(inspect.signature(python(Po.decide)).parameters)
    assert params == ["code", "view", "options", "n_options", "stream", "script", "ask", "weights",
                      "hand", "sizes", "r"]
    own = [name for name, f in vars(Po).items() if inspect.isfunction(python(f)) and python(f).__module__ == Po.__name__]
    assert "greedy" in own and "defender" in own
    for name in own:
        assert "s" not in inspect.signature(python(getattr(Po, name))).parameters, name
