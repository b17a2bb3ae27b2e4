"""STOP scenario schema (YAML -> validated model) and its translation into kernel inputs.

Everything the kernel reads is numbers: `kernel_inputs(scenario)` returns two namedtuples of int64 /
float64 scalars and small int64 arrays (`Rules`, `Policy`). Their numba types never depend on the
values, so editing a YAML (a penalty, a rule flag, the number of copies) never forces a recompile.
"""
from __future__ import annotations

from collections import namedtuple
from typing import ClassVar, Literal

import numpy as np
from pydantic import Field, model_validator

from ...kernel import SHARED_POLICIES, SHARED_POLICY_DOCS
from ...scenario import SEARCH_DOCS, SEARCH_POLICY, ScenarioBase, Strict, Weight, search_weights
from . import cards as C

# the policies' judgement (`weights: {greedy: {...}}`, or one seat's in `seat_weights`), in the kernel's
# order (policies.W_*); the defaults are the policies as policies.py describes them
WEIGHTS = {
    "greedy": (
        Weight("pause_zero_at", 2, 0, 20, "cancels a Pause with a 0 only when holding at most this many cards",
               integer=True),
        Weight("attack_bonus", 0, -50, 50, "sheds its attack cards (2+, Pause, X+) as if they carried this many "
               "more penalty points", integer=True),
        Weight("swap_cancel_margin", 0.0, -100.0, 100.0, "cancels a Swap with a 0 when the incoming hand is "
               "expected to cost more than its own hand without the 0 plus this many points"),
        Weight("unseen_card_value", 1.0, 0.0, 3.0, "what a card it cannot see (one to draw, one in another's "
               "hand) is worth, in mean deck penalties: the X+ cost and the Swap's incoming hand"),
    ),
    "defender": (
        Weight("hoard", 2, 0, 20, "keeps up to this many 0s and 2+s back for answering attacks", integer=True),
        Weight("attack_lead", 0.0, -200.0, 200.0, "plays its attack cards first when its left neighbour's match "
               "total less this many points is the lowest of the others' (equal: no more cards in hand)"),
        Weight("swap_cancel_cards", 0, -5, 10, "cancels a Swap with a 0 when the incoming hand has more than this "
               "many cards above its own without the 0 (equal: when it is expected to cost more)", integer=True),
    ),
    **search_weights(),
}
# what a seat may be forbidden (`restrict: {SEAT: [...]}`); the order is the kernel's bit order
# (decisions.NO_JUMP_IN, ...)
RESTRICTIONS = {
    "no_jump_in": "never jumps in out of turn",
    "never_cancel_with_zero": "never plays a 0 to cancel an attack (2+, Pause, Swap, X+); a 0 stays an ordinary card",
    "never_stack": "never answers a 2+ with a 2+ or a Pause with a Pause (takes the draw or the skip, or cancels)",
    "never_play_wild": "never plays a free-choice (wild) card, unless it is the only card it may play",
}


class NumberCard(Strict):
    copies: int = Field(ge=0, le=20, description="copies in each of the 4 colours")
    penalty: int = Field(ge=0, le=1000, description="hand penalty when held at the end of a hand")
    draws: int = Field(ge=0, le=50, description="cards drawn when this is the X+ victim's forced card")


class SymbolCard(Strict):
    copies: int = Field(ge=0, le=20, description="copies in each of the 4 colours")
    penalty: int = Field(ge=0, le=1000)


class WildCard(Strict):
    copies: int = Field(ge=0, le=40, description="black cards in the deck (not per colour)")
    penalty: int = Field(ge=0, le=1000)


class StopCards(Strict):
    """The 112-card deck of the published game (defaults). Copies of coloured kinds are per colour."""
    zero: NumberCard = NumberCard(copies=2, penalty=0, draws=0)
    one: NumberCard = NumberCard(copies=2, penalty=1, draws=1)
    two_plus: NumberCard = NumberCard(copies=2, penalty=20, draws=2)
    three: NumberCard = NumberCard(copies=2, penalty=3, draws=3)
    four: NumberCard = NumberCard(copies=2, penalty=4, draws=4)
    five: NumberCard = NumberCard(copies=2, penalty=5, draws=5)
    six_nine: NumberCard = NumberCard(copies=4, penalty=9, draws=9)
    seven: NumberCard = NumberCard(copies=2, penalty=7, draws=7)
    eight: NumberCard = NumberCard(copies=2, penalty=8, draws=8)
    pause: SymbolCard = SymbolCard(copies=2, penalty=10)
    swap: SymbolCard = SymbolCard(copies=2, penalty=30)
    xplus: SymbolCard = SymbolCard(copies=2, penalty=40)
    wild: WildCard = WildCard(copies=8, penalty=50)

    def per_kind(self):
        specs = [getattr(self, f) for f in C.KIND_FIELDS]
        return ([s.copies for s in specs], [s.penalty for s in specs],
                [getattr(s, "draws", 0) for s in specs])

    def total(self) -> int:
        copies, _, _ = self.per_kind()
        return C.N_COLOURS * sum(copies) + self.wild.copies

    def non_wild(self) -> int:
        return self.total() - self.wild.copies


class StopRules(Strict):
    # --- parameters named in the rules spec, stop.md (defaults = the spec) ---
    starter_redraw_wild: bool = Field(True, description="a wild turned up as starter goes back, reshuffle, turn again")
    starter_effects: bool = Field(False, description="an action card turned up as starter has its effect")
    play_drawn_card: bool = Field(False, description="the card drawn when unable to play may be played at once")
    must_play_if_able: bool = Field(True, description="a player holding a legal card must play one")
    jump_in_priority: Literal["clockwise"] = Field(
        "clockwise", description="several jumpers: clockwise from the player after the last player (only option)")
    achtung_forget_rate: float = Field(0.0, ge=0.0, le=1.0,
                                       description="chance to forget calling Achtung at one card (draw 2)")
    two_plus_drawer: Literal["skipped", "plays"] = Field(
        "skipped", description="after drawing for a 2+, the drawer loses the turn and play continues to their "
                               "left (skipped), or the drawer plays next (plays)")
    xplus_zero_cancels: bool = Field(True, description="a 0 of the X+'s colour cancels it entirely")
    xplus_card_effects: bool = Field(
        True, description="the X+ victim's forced number card has its own effect (a forced 2+ makes their left "
                          "neighbour draw 2, as in the original's X+ example); false: it has none")
    out_player_scores: Literal["held", "zero"] = Field(
        "held", description="each player scores their hand, the STOP caller too: cards that came back to the "
                            "caller count (held, the original's 'each player'); zero: the caller always scores 0")
    match_limit: int = Field(500, ge=1, le=1_000_000, description="the match ends when a total reaches this")
    hand_turn_cap: int = Field(2000, ge=1, le=1_000_000, description="safety cap on turns in one hand (counted)")
    # --- decisions beyond stop.md (see analyzer/games/stop/__init__.py, "Rule decisions") ---
    hand_size: int = Field(7, ge=1, le=30, description="cards dealt to each player")
    jumped_two_plus: Literal["stack", "move"] = Field(
        "stack", description="a 2+ jumped in on a pending 2+ adds 2 (stack) or only moves the draw (move)")
    match_hand_cap: int = Field(1000, ge=1, le=1_000_000, description="safety cap on hands in one match (counted)")
    first_dealer: Literal["random", "seat0"] = Field(
        "random", description="who deals (and plays first in) the first hand: drawn at random per match, as "
                              "players draw for it at a table (the rules name no first dealer), or always seat 0")


class StopScenario(ScenarioBase):
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 6
    # code = index (random 0, scripted 1, then ours); search's is kernel.SEARCH + its seat
    POLICIES: ClassVar[tuple[str, ...]] = (*SHARED_POLICIES, "greedy", "defender", SEARCH_POLICY)
    POLICY_DOCS: ClassVar[dict[str, str]] = {**SHARED_POLICY_DOCS,  # policies.py says it in full
        "greedy": "sheds its highest-penalty card first, keeps its 0s to cancel attacks, stacks 2+ on 2+",
        "defender": "hoards 0s and 2+s as answers, attacks the player closest to winning when on its left",
        **SEARCH_DOCS}
    WEIGHTS = WEIGHTS
    RESTRICTIONS = RESTRICTIONS
    ROLLOUT_POLICY: ClassVar[str] = "greedy"

    rules: StopRules = StopRules()
    cards: StopCards = StopCards()

    @model_validator(mode="after")
    def _check_deck(self):
        need = self.players * self.rules.hand_size + 1
        if self.cards.non_wild() < need:
            raise ValueError(f"cards: {self.players} players x {self.rules.hand_size} cards + a starter "
                             f"need {need} non-wild cards, the deck has {self.cards.non_wild()}")
        if self.cards.total() > 4000:
            raise ValueError(f"cards: {self.cards.total()} cards is more than the 4000 supported")
        return self


# ---- kernel inputs ---------------------------------------------------------------------------------
# Scalars only in Rules (free to pass to every jitted helper); the card table and the seat policies are
# small int64 arrays that the kernel copies into its state once per batch; Policy holds the seats'
# weights (float64[P, W], scenario.weight_rows), restrictions (int64[P] bit masks) and the script.

Rules = namedtuple("Rules", [
    # in stop.md order (flags are int64 0/1)
    "starter_redraw_wild", "starter_effects", "play_drawn_card", "must_play_if_able",
    "jump_in_priority", "achtung_forget_rate", "two_plus_drawer_plays", "xplus_zero_cancels",
    "xplus_card_effects", "out_player_scores_zero", "match_limit", "hand_turn_cap",
    # decisions beyond stop.md
    "hand_size", "jumped_two_plus_stacks", "match_hand_cap", "first_dealer_random",
    # derived from the card table: mean penalty of a card of the deck (the policies' estimate of an
    # unseen card: greedy's X+ cost, the expected penalty of a face-down hand in a Swap)
    "mean_penalty",
])
Cards = namedtuple("Cards", ["penalty", "draws", "copies"])   # int64[49] each, indexed by card type
Policy = namedtuple("Policy", ["weights", "restrict", "script"])
KernelInputs = namedtuple("KernelInputs", ["rules", "cards", "policy", "seats"])  # seats: int64[P] codes

JUMP_IN_CLOCKWISE = 0


def card_arrays(cards: StopCards) -> Cards:
    copies, penalty, draws = cards.per_kind()
    _, _, tcopies, tpen, tdraws, _ = C.type_table(copies, penalty, draws, cards.wild.copies,
                                                  cards.wild.penalty)
    return Cards(penalty=tpen, draws=tdraws, copies=tcopies)


def rules_tuple(rules: StopRules, cards: Cards) -> Rules:
    i = np.int64
    mean = float((cards.copies * cards.penalty).sum() / max(1, int(cards.copies.sum())))
    return Rules(
        starter_redraw_wild=i(rules.starter_redraw_wild), starter_effects=i(rules.starter_effects),
        play_drawn_card=i(rules.play_drawn_card), must_play_if_able=i(rules.must_play_if_able),
        two_plus_drawer_plays=i(rules.two_plus_drawer == "plays"),
        jump_in_priority=i(JUMP_IN_CLOCKWISE), achtung_forget_rate=float(rules.achtung_forget_rate),
        xplus_zero_cancels=i(rules.xplus_zero_cancels), xplus_card_effects=i(rules.xplus_card_effects),
        match_limit=i(rules.match_limit), hand_turn_cap=i(rules.hand_turn_cap),
        hand_size=i(rules.hand_size), jumped_two_plus_stacks=i(rules.jumped_two_plus == "stack"),
        out_player_scores_zero=i(rules.out_player_scores == "zero"), match_hand_cap=i(rules.match_hand_cap),
        first_dealer_random=i(rules.first_dealer == "random"), mean_penalty=mean,
    )


def kernel_inputs(scenario: StopScenario) -> KernelInputs:
    """The scenario as numbers for the kernel."""
    cards = card_arrays(scenario.cards)
    policy = Policy(weights=scenario.weight_rows(), restrict=scenario.restrict_masks(), script=scenario.script_codes())
    return KernelInputs(rules_tuple(scenario.rules, cards), cards, policy, scenario.policy_codes())
