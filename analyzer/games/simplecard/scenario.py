"""Simple Card's scenario schema (the card pool, the decks, the rules' open points, the policies) and its
translation into the kernel's inputs (arrays and numbers only).

The published sample sets are images we do not have: the shipped pool (`scenarios/simplecard/sample.yaml`)
is ours (`pool_status: ours`), and every report header lists it through `estimated()`.
"""
from __future__ import annotations

from collections import Counter
from typing import Literal

import numpy as np
from pydantic import Field, model_validator

from ...kernel import SHARED_POLICIES, SHARED_POLICY_DOCS, indices
from ...scenario import SEARCH_DOCS, SEARCH_POLICY, ScenarioBase, Strict, Weight, search_weights

# codes = index (random 0, scripted 1, then ours); search's is kernel.SEARCH + its seat
POLICIES = (*SHARED_POLICIES, "greedy", "cautious", "ct", SEARCH_POLICY)
POLICY_DOCS = {**SHARED_POLICY_DOCS,  # one line each; policies.py says it in full
    "greedy": "plays for the best margin of each contact from what it sees; no cast techniques",
    "cautious": "greedy, but never risks a Main whose loss would end its game unless the win is sure",
    "ct": "greedy plus cast techniques by thresholds, each while its Risk stays `ct_margin` below the limit",
    **SEARCH_DOCS,
}
# greedy's judgement, shared by cautious and ct (they play greedy's placements): the same first weights
GREEDY_WEIGHTS = (
    Weight("win_value", 1000, 0, 5000, "a placement that wins the contact scores this, plus margin_value a point of "
           "margin, minus its risk points"),
    Weight("margin_value", 100, 0, 500, "score of a point of contact margin of a winning placement, against one "
           "risk point"),
    Weight("defence_value", 100, 0, 500, "score of a point of a set card's weakest defence total, against one risk "
           "point"),
    Weight("second_edge", 0, -10, 10, "go second when the hand's first-contact margin attacking beats defending by "
           "more than this"),
    Weight("exposure", 0, 0, 50, "a winning placement that would then lose its defence against the unknown card "
           "scores this many times its risk points less (0: greedy ignores the defence)"),
)
WEIGHTS = {
    "greedy": GREEDY_WEIGHTS,
    "cautious": (*GREEDY_WEIGHTS,
                 Weight("limit_margin", 0, 0, 30, "a Main is too dear to risk when its loss would bring the Risk "
                        "total within this many points of the limit", integer=True)),
    "ct": (*GREEDY_WEIGHTS,
           Weight("ct_margin", 6, 0, 30, "cast only while the Risk total stays this many points below the limit "
                  "after the cast", integer=True),
           Weight("bounce_risk", 12, 0, 60, "Bounce a Main worth at least this many risk points", integer=True),
           Weight("skip_bonus", 3, 0, 20, "Skip an opponent balancer whose bonus is at least this", integer=True)),
    **search_weights(alpha=0.25),  # few decisive decisions: a lenient test gains most (docs/search.md)
}

CT_NAMES = ("picking", "reading", "balance_shift", "skipping", "moving", "recall", "changing", "bounce")
CT_KINDS = len(CT_NAMES)
READING_DEPTHS = ("active", "passive", "a", "b", "c", "rank", "risk")
# what a seat may be forbidden (`restrict: {SEAT: [...]}`); the order is the kernel's bit order (decisions.py)
# None can ever be lifted (restrict_lifted stays 0): every decision they filter lists an option none forbids, a
# rank-1 card alone (D_PLACE lists each stack after its base alone), PROCEED (D_PRE, D_CHANGE, D_POST) or GO_FIRST.
RESTRICTIONS = {
    "no_rank2_stacks": "never place a rank-2 (or rank-3) stack in the Main",
    **{f"no_ct_{name}": f"never use the cast technique {name}" for name in CT_NAMES},
    "no_go_second": "when choosing the turn order, always go first",
}
RANDOM_DECK = "random"  # seat_decks entry: this seat's deck is drawn from `decks` at random each game
MAX_RANK = 3

# a card's printed numbers, the columns of the cards table: cards[c, F.NAME]...; risk = active + passive + a + b + c
F = indices("F", ["active", "passive", "a", "b", "c", "rank", "risk", "name"])
CONTACTS = ("A", "B", "C")  # contact values are cards[c, F.A + x], x = 0, 1, 2

# the kernel's rule vector: rules[R.NAME]
R = indices("R", ["risk_limit", "risk_inclusive", "first_tie_random", "old_balancer", "loss_immediate",
                  "deckout_continuous", "simultaneous", "draw_optional", "stack_needs_opponent_main",
                  "stack_sum", "balancer_bonus", "picking_to_caster", "reading_depth", "moving_to_caster",
                  "recall_just_cast", "changing_max", "act_cap", "changing_alternate",
                  "recall_face_down"])
OLD_UNDER, OLD_RISK, OLD_REMOVED = 0, 1, 2
SIM_DRAW, SIM_ACTIVE_LOSES, SIM_PASSIVE_LOSES = 0, 1, 2


class Card(Strict):
    name: str = Field(description="the card's name; ranks 1-3 of one name are versions of one character")
    rank: Literal[1, 2, 3] = Field(1, description="1; a rank-2 card enters the Main only stacked on a rank-1 of its name")
    active: int = Field(ge=0, le=20, description="active value (能動): added to the contact value when attacking")
    passive: int = Field(ge=0, le=20, description="passive value (受動): added to the contact value when defending")
    a: int = Field(ge=0, le=20, description="contact value A (physical)")
    b: int = Field(ge=0, le=20, description="contact value B (psychic / magic)")
    c: int = Field(ge=0, le=20, description="contact value C (talk)")
    gender: str = ""
    attribute: str = ""
    team: str = ""

    @property
    def key(self) -> str:
        return self.name if self.rank == 1 else f"{self.name}/{self.rank}"

    @property
    def risk(self) -> int:
        return self.active + self.passive + self.a + self.b + self.c


class Deck(Strict):
    name: str
    cards: dict[str, int] = Field(description="card -> copies; a card is its name (rank 1) or name/2, name/3")


class SimpleCardRules(Strict):
    deck_size: int = Field(16, ge=5, le=60, description="cards in a deck (checked when enforce_deck_size)")
    enforce_deck_size: bool = Field(True, description="reject decks that are not exactly deck_size cards "
                                    "(false: the source's beginner advice; a deck still needs 5 cards for the setup)")
    max_copies: int = Field(4, ge=1, le=60, description="most copies of one card in a deck (同じ名前のカードは４枚まで)")
    copy_limit_scope: Literal["name", "name_and_rank"] = Field(
        "name", description="what max_copies counts: every rank of one name together (name), or each rank apart")
    risk_limit: int = Field(30, ge=1, le=500, description="a player whose Risk total reaches this loses "
                            "(the source: 30 or more; also 'over 30' and '25 or more')")
    risk_limit_inclusive: bool = Field(True, description="true: reaching risk_limit loses (>=); false: only passing it (>)")
    first_player_tie: Literal["random", "seat0"] = Field(
        "random", description="equal balancer risk points: who chooses first or second (the source is silent)")
    old_balancer: Literal["under", "risk", "removed"] = Field(
        "under", description="a replaced balancer goes under the new one (out of play), face up to its owner's "
        "Risk (its points count), or to Removed (the source is silent)")
    loss_check: Literal["immediate", "act_end"] = Field(
        "immediate", description="when a Risk total at the limit loses: at once (a cast can lose mid-ACT) or at "
        "the end of the ACT")
    deckout_check: Literal["continuous", "act_start"] = Field(
        "continuous", description="deck and hand both empty loses: checked at once whenever it happens, or only for "
        "the active player after the ACT's return and draw")
    simultaneous_loss: Literal["draw", "active_loses", "passive_loses"] = Field(
        "draw", description="both players reach a losing condition at the same moment (e.g. a tie sends both mains "
        "to Risk): a draw, or the active / passive player loses (not in the source)")
    draw_optional: bool = Field(False, description="ACT step 2 'may draw' (ドローできます): true lets the player choose "
                                "how many to draw; false always draws up to 4")
    stack_needs_opponent_main: bool = Field(
        True, description="a rank-2/3 stack is always face up, so it may be placed only when the opponent's Main "
        "holds a card (false: also onto an empty table, face up, with no contact)")
    stack_values: Literal["top", "sum"] = Field(
        "top", description="a stack's numbers: those of its top card, or the sum over its cards (not in the source)")
    balancer_bonus: bool = Field(True, description="the balancer's lowest contact value(s) raise the same contact "
                                 "values of its owner's main (false: the plain game)")
    enabled_cts: list[Literal["picking", "reading", "balance_shift", "skipping", "moving", "recall", "changing",
                              "bounce"]] = Field(
        list(CT_NAMES), description="cast techniques in play (the source: picking, changing and bounce are mostly enough)")
    picking_target_risk: Literal["opponent", "caster"] = Field(
        "opponent", description="Picking puts the chosen opponent hand card face down (0 points) into whose Risk")
    reading_depth: Literal["active", "passive", "a", "b", "c", "rank", "risk"] = Field(
        "active", description="Reading looks at this number of the cast card's top deck cards (the source: 'the "
        "cast card's number')")
    moving_destination: Literal["owner", "caster"] = Field(
        "owner", description="Moving returns the main card (stack) to its owner's hand, or to the caster's")
    recall_can_take_just_cast: bool = Field(
        False, description="Recall may take back one of the two cards cast to pay for it")
    recall_takes_face_down: bool = Field(
        True, description="Recall may take a face-down Risk card (put there by Picking; worth 0 points) as well: the "
        "original's 'one card in your Risk' (自分のリスクにあるカードを一枚) does not restrict it")
    changing_max_per_contact: int = Field(2, ge=0, le=20, description="Changes allowed in one contact, both sides "
                                          "together (the source is silent)")
    changing_order: Literal["alternate", "while_inferior"] = Field(
        "alternate", description="who may Change at the new judgment: only the other side, in turn (the spec) | "
        "whichever side is inferior, so the same side may Change again (the original's literal text)")
    act_cap: int = Field(400, ge=1, le=100_000, description="safety cap on ACTs; a capped game is a draw (counted)")

    @model_validator(mode="after")
    def _unique_cts(self):
        if len(set(self.enabled_cts)) != len(self.enabled_cts):
            raise ValueError("enabled_cts: a cast technique is listed twice")
        return self


class SimpleCardScenario(ScenarioBase):
    POLICIES = POLICIES
    POLICY_DOCS = POLICY_DOCS
    WEIGHTS = WEIGHTS
    RESTRICTIONS = RESTRICTIONS
    ROLLOUT_POLICY = "greedy"  # search's rollouts where there is no tuned.yaml (the shipped one tunes greedy)
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    pool_status: Literal["ours", "published"] = Field(
        "ours", description="ours: the card pool is the project's own (the published sample sets are images we do "
        "not have); published once the real cards are typed in")
    cards: list[Card] = Field(description="the card pool")
    decks: list[Deck] = Field(description="the decks (16 cards, at most 4 of one name)")
    seat_decks: list[str] = Field(["random"], description="each seat's deck by name (one entry for both seats, or "
                                  "one per seat); random: drawn from `decks` at random each game")
    rules: SimpleCardRules = SimpleCardRules()

    @model_validator(mode="after")
    def _check_pool_and_decks(self):
        keys = [c.key for c in self.cards]
        for i, c in enumerate(self.cards):
            if keys.count(c.key) > 1:
                raise ValueError(f"cards.{i}: {c.key!r} is defined twice")
            if c.rank > 1 and f"{c.name}/{c.rank - 1}".removesuffix("/1") not in keys:
                raise ValueError(f"cards.{i}: rank-{c.rank} {c.name!r} has no rank-{c.rank - 1} card of the same name")
        names = [d.name for d in self.decks]
        for j, d in enumerate(self.decks):
            self._check_deck(j, d, set(keys))
            if names.count(d.name) > 1 or d.name == RANDOM_DECK:
                raise ValueError(f"decks.{j}.name: {d.name!r} is used twice or reserved")
        if len(self.seat_decks) not in (1, self.players):
            raise ValueError(f"seat_decks: give 1 deck or one per seat ({self.players}), got {len(self.seat_decks)}")
        for k, s in enumerate(self.seat_decks):
            if s != RANDOM_DECK and s not in names:
                raise ValueError(f"seat_decks.{k}: no deck named {s!r}; decks: {', '.join(names)} (or random)")
        return self

    def _check_deck(self, j: int, d: Deck, keys: set[str]) -> None:
        r = self.rules
        for key, n in d.cards.items():
            if key not in keys:
                raise ValueError(f"decks.{j}.cards.{key}: no such card in `cards`")
            if n < 1:
                raise ValueError(f"decks.{j}.cards.{key}: copies must be at least 1, got {n}")
        total = sum(d.cards.values())
        if r.enforce_deck_size and total != r.deck_size:
            raise ValueError(f"decks.{j}.cards: {d.name!r} has {total} cards; a deck is {r.deck_size} (rules.deck_size)")
        if total < 5:
            raise ValueError(f"decks.{j}.cards: {d.name!r} has {total} cards; the setup needs at least 5")
        scope = Counter()
        for key, n in d.cards.items():
            scope[key.split("/")[0] if r.copy_limit_scope == "name" else key] += n
        for what, n in scope.items():
            if n > r.max_copies:
                raise ValueError(f"decks.{j}.cards: {d.name!r} has {n} copies of {what!r}; at most {r.max_copies} "
                                 f"(rules.max_copies, counted by {r.copy_limit_scope})")

    def estimated(self) -> list[str]:
        if self.pool_status == "published":
            return []
        return [f"card pool (ours, not the published sets): {len(self.cards)} cards", *[c.key for c in self.cards]]

    def deck_names(self) -> list[str]:
        return [d.name for d in self.decks]


def card_arrays(sc: SimpleCardScenario) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cards[C + 1, F], up[C + 1] = the card of the same name one rank up or -1, decks[D, 1 + len]: each
    deck's length, then its card ids). Name ids index the distinct names in pool order. The extra last
    row is the "unknown card" a policy assumes for a face-down card: the pool's rank-1 mean, rounded
    (the pool is printed, public information)."""
    names = list(dict.fromkeys(c.name for c in sc.cards))
    keys = [c.key for c in sc.cards]
    cards = np.zeros((len(sc.cards) + 1, len(F)), np.int64)
    up = np.full(len(sc.cards) + 1, -1, np.int64)
    for i, c in enumerate(sc.cards):
        cards[i] = [c.active, c.passive, c.a, c.b, c.c, c.rank, c.risk, names.index(c.name)]
        higher = f"{c.name}/{c.rank + 1}"
        if higher in keys:
            up[i] = keys.index(higher)
    ones = cards[:-1][cards[:-1, F.RANK] == 1]
    cards[-1] = np.rint(ones.mean(axis=0))
    cards[-1, F.RANK], cards[-1, F.NAME] = 1, -1
    width = max(sum(d.cards.values()) for d in sc.decks)
    decks = np.full((len(sc.decks), width + 1), -1, np.int64)  # column 0: the deck's length
    for j, d in enumerate(sc.decks):
        ids = [keys.index(k) for k, n in d.cards.items() for _ in range(n)]
        decks[j, 0] = len(ids)
        decks[j, 1:1 + len(ids)] = ids
    return cards, up, decks


def rule_vector(sc: SimpleCardScenario) -> np.ndarray:
    r = sc.rules
    values = {
        "risk_limit": r.risk_limit, "risk_inclusive": r.risk_limit_inclusive,
        "first_tie_random": r.first_player_tie == "random",
        "old_balancer": ("under", "risk", "removed").index(r.old_balancer),
        "loss_immediate": r.loss_check == "immediate", "deckout_continuous": r.deckout_check == "continuous",
        "simultaneous": ("draw", "active_loses", "passive_loses").index(r.simultaneous_loss),
        "draw_optional": r.draw_optional, "stack_needs_opponent_main": r.stack_needs_opponent_main,
        "stack_sum": r.stack_values == "sum", "balancer_bonus": r.balancer_bonus,
        "picking_to_caster": r.picking_target_risk == "caster", "reading_depth": READING_DEPTHS.index(r.reading_depth),
        "moving_to_caster": r.moving_destination == "caster", "recall_just_cast": r.recall_can_take_just_cast,
        "changing_max": r.changing_max_per_contact, "act_cap": r.act_cap,
        "changing_alternate": r.changing_order == "alternate", "recall_face_down": r.recall_takes_face_down,
    }
    return np.array([int(values[name.lower()]) for name in R.__members__], np.int64)


def kernel_inputs(sc: SimpleCardScenario) -> tuple:
    """(rules, enabled CTs[8], cards, up, decks, seat decks (-1 random), policy codes, weights, restrictions,
    script): engine.play's inputs."""
    names = sc.deck_names()
    seat_decks = [-1 if s == RANDOM_DECK else names.index(s) for s in sc.per_seat(sc.seat_decks)]
    enabled = np.array([name in sc.rules.enabled_cts for name in CT_NAMES], np.int64)
    cards, up, decks = card_arrays(sc)
    return (rule_vector(sc), enabled, cards, up, decks, np.array(seat_decks, np.int64), sc.policy_codes(),
            sc.weight_rows(), sc.restrict_masks(), sc.script_codes())
