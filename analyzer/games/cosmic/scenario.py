"""Simply Cosmic's scenario schema (the decks, the alien assignment, the rules' open points, the
policies) and its translation into the kernel's inputs (arrays and numbers only).

No card list of Simply Cosmic was found: attack and reinforcement values, the edict names and the
destiny composition are ESTIMATES (each section carries `estimated: true` and its `source`) and every
report header lists them (`estimated()`). Every alien power model is an estimate too.
"""
from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field, field_validator, model_validator

from ...kernel import SHARED_POLICIES, SHARED_POLICY_DOCS
from ...scenario import SEARCH_DOCS, SEARCH_POLICY, ScenarioBase, Strict, Weight, search_weights
from . import state as L
from .cards import window_kinds
from .odds import fill_card_odds

# codes = index (random 0, scripted 1, then ours); search's is kernel.SEARCH + its seat
POLICIES = (*SHARED_POLICIES, "heuristic", "cautious", SEARCH_POLICY)
POLICY_DOCS = {**SHARED_POLICY_DOCS,  # one line each; policies.py says it in full
    "heuristic": "plays the smallest card expected to win, allies where its estimate pays, commits `commit` tokens",
    "cautious": "heuristic, but commits a token fewer, allies only the defense, compromises when no card can win",
    **SEARCH_DOCS,
}


# search's defaults: a game of Cosmic asks a seat ~100 decisions with two or more options (4 players), each
# searched with up to rollouts x options whole games, so the budget is kept small; at a small budget the lenient
# sign test gains more (docs/search.md: 8 rollouts, alpha 0.25 +9.2 points, 0.01 +1.7). 16, not 8: the report's
# curve gains +11.5 [+3.2, +19.8] at 16, where 8's gain is not significant on every seed (+4.0 [-3.2, +11.2])
ROLLOUTS, ALPHA = 16, 0.25


# ---- strong play (issue #25): the heuristics' judgement and what a seat may be forbidden -----------------
def _judgement(commit, second_at, hoard_at):
    """The weights of heuristic and cautious: one layout (policies.W_*), each policy's own defaults."""
    return (
        Weight("expected_card", 10, 0, 30, "what an unseen attack card is assumed to be worth"),
        Weight("commit", commit, 0, 4, "tokens put on the cone (all 4 when the challenge can win the game)", integer=True),
        Weight("second_at", second_at, 0, 100, "challenge a second time when holding an attack card of at least this",
               integer=True),
        Weight("hoard_at", hoard_at, 0, 100, "keep a winning attack card of at least this when the game is not close "
                                            "(play the lowest instead)", integer=True),
        Weight("reinforce_margin", 0, 0, 10, "stage 8: reinforce until my side leads by this (0: only when behind)",
               integer=True),
        Weight("ally_appetite", 0, -10, 10, "join an alliance when its estimated gain (tokens) exceeds this"),
        Weight("base_value", 4, 0, 20, "a foreign base, in tokens, when weighing an alliance"),
        Weight("zap_at", 3, 0, 20, "play a Cosmic Zap when cancelling the power is worth at least this many "
                                   "tokens or cards (one that turns the challenge always is)"),
        Weight("invite_below", 1, 0, 1, "invite allies only while my side's estimated odds of winning without "
                                        "them are below this (1: always, but never onto the ally's last base)"),
    )


WEIGHTS = {"heuristic": _judgement(commit=2, second_at=6, hoard_at=100),
           "cautious": _judgement(commit=1, second_at=12, hoard_at=15),
           **search_weights(rollouts=ROLLOUTS, alpha=ALPHA)}
# restrictions (`restrict: {SEAT: [...]}`), in the kernel's bit order (decisions.NO_*)
RESTRICTIONS = {
    "no_power": "never chooses to use its alien power (Laser, Warpish and Zombie act by themselves: "
                "the restriction cannot stop a mandatory power)",
    "no_allies": "never invites an ally and never accepts an invitation",
    "no_deals": "never proposes or accepts a deal (a compromise pair then always fails)",
    "no_compromise": "never plays a compromise as its challenge card, unless it holds no attack card",
}
ALIEN_NAMES = L.ALIEN_NAMES
EDICT_NAMES = L.EDICT_NAMES


class Estimated(Strict):
    estimated: bool = Field(True, description="true while this part is an estimate, not read from the printed game")
    source: str = Field("", description="where the numbers come from")


class AttackCards(Estimated):
    values: dict[int, int] = Field(description="attack value -> number of cards")

    @field_validator("values")
    @classmethod
    def _positive(cls, v):
        if not v or min(v.values()) < 0 or min(v) < 0 or max(v) > 99:
            raise ValueError("attack values must be 0..99 with counts of 0 or more, and at least one value")
        return v


class Reinforcements(Estimated):
    values: dict[int, int] = Field(description="reinforcement bonus -> number of cards")


class Edicts(Estimated):
    counts: dict[Literal[EDICT_NAMES], int] = Field(description="edict name -> number of cards")  # type: ignore[valid-type]


class Destiny(Estimated):
    regular_per_colour: int = Field(4, ge=0, le=8, description="regular destiny cards of each colour in play")
    reverse_per_colour: int = Field(1, ge=0, le=4, description="reverse-cone destiny cards of each colour in play")
    wild: int = Field(2, ge=0, le=8, description="wild destiny cards (the offense picks the defending player)")
    most_foreign_bases: int = Field(1, ge=0, le=4, description="instruction cards 'the player with the most foreign bases, not you'")
    player_on_left: int = Field(1, ge=0, le=4, description="instruction cards 'the player on your left'")
    power_outage: int = Field(1, ge=0, le=4, description="comet 'Power Outage': no alien powers this challenge")
    tenacious_defense: int = Field(1, ge=0, le=4, description="comet 'Tenacious Defense': a defending attack card of 1-10 counts double")


class Deck(Strict):
    attack: AttackCards
    compromise: int = Field(12, ge=0, le=40, description="compromise cards (component list of the original)")
    reinforcements: Reinforcements
    edicts: Edicts
    flares: bool = Field(True, description="one flare per alien (all 8) in the challenge deck; one-shot (Mayfair)")
    destiny: Destiny


class Aliens(Strict):
    assignment: Literal["random", "fixed"] = Field(
        "random", description="random: each game deals distinct aliens at random; fixed: seat k plays `fixed[k]`")
    fixed: list[Literal[ALIEN_NAMES]] = Field(  # type: ignore[valid-type]
        [], description="with assignment fixed: one alien per seat, distinct")


class CosmicRules(Strict):
    wins_needed: int = Field(5, ge=1, le=15, description="foreign bases needed to win (5)")
    hand_size: int = Field(7, ge=1, le=15, description="cards dealt and redrawn (7)")
    turn_cap: int = Field(200, ge=1, le=10_000, description="safety cap on turns; a capped game is a draw (counted)")
    laser_reading: Literal["eon", "ffg"] = Field(
        "eon", description="Laser: eon = the opponent's challenge card is drawn at random from their challenge cards; "
                           "ffg = before alliances, set aside at random as many of the opponent's cards as they have "
                           "tokens in the challenge (until it ends)")
    laser_ffg_no_card: Literal["redraw", "loses"] = Field(
        "redraw", description="laser_reading ffg, a defense left with no challenge card by the cards Laser set "
                              "aside: redraw = it discards and draws anew until it has one (the original's stage 7, "
                              "checked again there because powers may have taken cards); loses = it loses the "
                              "challenge (the FFG Laser card's text)")
    laser_ffg_disarmed_upset: Literal["loses", "swaps"] = Field(
        "loses", description="laser_ffg_no_card loses, a defense that declared Loser's upset and is then left with "
                             "no challenge card by Laser: loses = it loses the challenge and the upset never swaps "
                             "that (the FFG Laser text: the disarmed player 'loses the encounter'; no card is "
                             "revealed, so no result is compared for the upset to swap); swaps = its loss is the "
                             "result the upset swaps after every other effect (the Loser text), so the defense wins")
    grief_model: Literal["estimated_sorrow", "none"] = Field(
        "estimated_sorrow", description="Grief (text not found): estimated_sorrow = when Grief as a main player loses "
                                        "tokens to the Warp, the winning main player discards one random card per token; "
                                        "none = Grief has no power")
    play_order: Literal["timing", "clockwise"] = Field(
        "timing", description="order of the stage-8 card plays (reinforcements): timing = the original's timing rule "
                              "(non-main players clockwise from the offense's left, then offense, then defense); "
                              "clockwise = the spec's wording (everyone clockwise from the offense's left)")
    reinforce_any_side: bool = Field(True, description="main players and allies may add reinforcements to either side (original)")
    reverse_offense_allies: Literal["home"] = Field(
        "home", description="reverse cone: winning offensive allies' tokens go to any of their bases (the only reading)")
    consolation_pick: Literal["random"] = Field("random", description="consolation cards are taken at random from the winner's hand")
    reshuffle_empty_decks: Literal[True] = Field(True, description="an empty deck is reshuffled from its discards")
    unowned_system: Literal["in_play", "absent"] = Field(
        "in_play", description="fewer than 4 players: in_play = every system is on the table with its colour's 20 "
                               "tokens (the original's setup); only the absent colours' destiny cards are removed, a "
                               "wild destiny may name an unowned system, and bases there count as foreign; absent = "
                               "the systems of absent colours are left out")
    unowned_defense: Literal["nobody", "tokens_only"] = Field(
        "nobody", description="who defends a planet of an unowned system (no rule says): nobody = no player: 0 "
                              "defending tokens, no card, no allies, no rewards (its colour's tokens stay, out of the "
                              "challenge, like other colours on a challenged planet); tokens_only = its colour's "
                              "tokens there defend with their count (and go to the Warp when the offense wins). "
                              "Either way the offense's card counts its value (a compromise 0)")
    unowned_defense_reinforcement: Literal["refused", "allowed"] = Field(
        "refused", description="unowned_defense nobody (tokens_only: always allowed, its tokens defend), a "
                               "reinforcement for the defense of an unowned planet: "
                               "refused = none is offered (nobody is on that side, as no card aims at its missing "
                               "main player); allowed = reinforce_any_side lets the offense's side add it there "
                               "(the rules allow either side and do not foresee a side without a player)")
    cosmic_zap_window: Literal["any_power_use", "reveal"] = Field(
        "any_power_use", description="when a Cosmic Zap is played: any_power_use = whenever an alien power is about "
                                     "to act, in answer to that use (the estimated text: any time, cancel one use of "
                                     "one power; it is then off for the rest of the challenge); reveal = only at stage "
                                     "8 with both attack cards shown, on a main player's power")
    wild_destiny_own_colour: bool = Field(
        True, description="a wild destiny may name the offense's own colour (the original: 'any colour'; it then "
                          "offers the own-colour choices); false = only the other colours")
    reestablish_max_tokens: int = Field(
        0, ge=0, le=20, description="tokens a re-establish may put on the planet (the original: 'one or more'); "
                                    "0 = no cap, 4 = the cone's limit")
    deal_base_from: Literal["any_base", "home_system"] = Field(
        "any_base", description="the base a deal gives: any_base = any base of the giver (the original: 'one of "
                                "your bases'); home_system = a base in the giver's home system")
    zapped_owner_flare: Literal["super", "wild"] = Field(
        "super", description="the owner of a flare whose power is zapped this challenge plays: super = its Super "
                             "side (the original's Wild is for a flare not yours or a lost power: fewer than 3 home "
                             "bases); wild = its Wild side")
    home_tokens_split: Literal["free", "together"] = Field(
        "free", description="tokens going home (defensive allies, cone tokens after a deal or a lost stage 7, freed "
                            "Warp tokens, Zombie's): free = each to a base of the owner's choice (the original: "
                            "'any planet where they have a base'); together = all to one base")
    home_without_base: Literal["warp", "home_planet"] = Field(
        "warp", description="tokens going home when their owner has no base anywhere: warp = they go to the Warp "
                            "(the original: an emptied planet is no longer a base and takes no tokens back), and "
                            "such a player frees no token from the Warp; home_planet = they land on a home planet "
                            "of the owner's choice")
    power_loss_timing: Literal["after_loss", "immediate"] = Field(
        "after_loss", description="a loss of tokens that takes a player below 3 home bases (losing as the defense, "
                                  "Plague, a failed deal): after_loss = the power it costs still answers that loss "
                                  "(Zombie's tokens go home), and is lost once it is done; immediate = the power is "
                                  "gone as the tokens leave the planet")
    first_player: Literal["destiny", "seat0"] = Field(
        "destiny", description="destiny: the first colour destiny card turned picks the start player (original); seat0")


class CosmicScenario(ScenarioBase):
    POLICIES = POLICIES
    POLICY_DOCS = POLICY_DOCS
    WEIGHTS = WEIGHTS
    RESTRICTIONS = RESTRICTIONS
    ROLLOUT_POLICY = "heuristic"  # search's rollouts where there is no tuned.yaml (the shipped one tunes heuristic)
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    rules: CosmicRules = CosmicRules()
    deck: Deck
    aliens: Aliens = Aliens()

    @model_validator(mode="after")
    def _check(self):
        if self.aliens.assignment == "fixed":
            if len(self.aliens.fixed) != self.players or len(set(self.aliens.fixed)) != self.players:
                raise ValueError(f"aliens.fixed: give {self.players} distinct aliens, one per seat")
        kinds = len(self.deck.attack.values) + 1 + len(self.deck.reinforcements.values) + len(self.deck.edicts.counts) + 8
        if kinds > L.KMAX:
            raise ValueError(f"deck: at most {L.KMAX} different cards, got {kinds}")
        if card_count(self.deck) > L.DECKMAX:
            raise ValueError(f"deck: at most {L.DECKMAX} cards, got {card_count(self.deck)}")
        if sum(self.deck.attack.values.values()) + self.deck.compromise < 1:
            raise ValueError("deck: needs at least one attack or compromise card")
        return self

    def estimated(self) -> list[str]:
        d = self.deck
        parts = [(f"deck.attack values ({sum(d.attack.values.values())} cards)", d.attack),
                 ("deck.reinforcements values", d.reinforcements),
                 ("deck.edicts names and counts", d.edicts),
                 ("deck.destiny composition", d.destiny)]
        out = [f"{name}: {part.source or 'estimate'}" for name, part in parts if part.estimated]
        out.append("every alien power model (no power text found; Grief's entirely invented: grief_model)")
        out.append("edict texts (FFG lineage; Plague's 3 tokens and one card of each type from FFG)")
        out.append("flare texts (Mayfair wild/super texts not found; FFG texts where known, else estimated; "
                   "Filch's and Mind's plain models, Grief's invented)")
        return out


def card_count(deck: Deck) -> int:
    return (sum(deck.attack.values.values()) + deck.compromise + sum(deck.reinforcements.values.values())
            + sum(deck.edicts.counts.values()) + (8 if deck.flares else 0))


def card_table(deck: Deck) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(type, value, copies) of each card kind: attacks by rising value, compromise, reinforcements,
    edicts (value = edict code), flares (value = alien code)."""
    rows = [(L.C_ATTACK, v, c) for v, c in sorted(deck.attack.values.items())]
    rows.append((L.C_COMPROMISE, 0, deck.compromise))
    rows += [(L.C_REINF, v, c) for v, c in sorted(deck.reinforcements.values.items())]
    rows += [(L.C_EDICT, EDICT_NAMES.index(name), c) for name, c in deck.edicts.counts.items()]
    rows += [(L.C_FLARE, a, 1 if deck.flares else 0) for a in range(len(ALIEN_NAMES))]
    t = np.array(rows, np.int64)
    return t[:, 0].copy(), t[:, 1].copy(), t[:, 2].copy()


def challenge_kinds(ctype: np.ndarray) -> int:
    """How many kinds lead the card table as challenge cards (attack, compromise); none may follow."""
    challenge = (ctype == L.C_ATTACK) | (ctype == L.C_COMPROMISE)
    n = int(np.argmin(challenge)) if not challenge.all() else len(ctype)
    assert not challenge[n:].any(), "card_table must list the challenge cards first"
    return n


def kernel_inputs(sc: CosmicScenario) -> tuple:
    """(rules array, policy codes, weights per seat, restrictions per seat, script): engine.play's inputs;
    the rules array's fields: state.RULES."""
    r, d = sc.rules, sc.deck.destiny
    ctype, cval, copies = card_table(sc.deck)
    data = L.RULES.new()
    rule = {name: L.RULES.field(data, name) for name in L.RULES.shapes}  # views: writing one writes data
    rule["players"][0] = sc.players
    rule["wins"][0] = r.wins_needed
    rule["hand"][0] = r.hand_size
    rule["cap"][0] = r.turn_cap
    rule["laser_ffg"][0] = r.laser_reading == "ffg"
    rule["laser_loses"][0] = r.laser_ffg_no_card == "loses"
    rule["grief"][0] = r.grief_model == "estimated_sorrow"
    rule["order_timing"][0] = r.play_order == "timing"
    rule["any_side"][0] = r.reinforce_any_side
    rule["first_destiny"][0] = r.first_player == "destiny"
    rule["fixed_aliens"][0] = sc.aliens.assignment == "fixed"
    rule["zap_any_use"][0] = r.cosmic_zap_window == "any_power_use"
    rule["unowned_in_play"][0] = r.unowned_system == "in_play"
    rule["unowned_tokens"][0] = r.unowned_defense == "tokens_only"
    rule["wild_own"][0] = r.wild_destiny_own_colour
    rule["reestablish_max"][0] = r.reestablish_max_tokens
    rule["deal_any_base"][0] = r.deal_base_from == "any_base"
    rule["zapped_super"][0] = r.zapped_owner_flare == "super"
    rule["home_together"][0] = r.home_tokens_split == "together"
    rule["homeless_warp"][0] = r.home_without_base == "warp"
    rule["loss_after"][0] = r.power_loss_timing == "after_loss"
    rule["disarmed_swap"][0] = r.laser_ffg_disarmed_upset == "swaps"
    rule["unowned_reinf"][0] = r.unowned_defense_reinforcement == "allowed"
    rule["alien"][:len(sc.aliens.fixed)] = [ALIEN_NAMES.index(name) for name in sc.aliens.fixed]
    rule["kinds"][0] = len(ctype)
    rule["challenge_kinds"][0] = challenge_kinds(ctype)
    for name, values in (("ctype", ctype), ("cval", cval), ("copies", copies)):
        rule[name][:len(ctype)] = values
    rule["window_n"][:], rule["window_kinds"][:] = window_kinds(ctype, cval, r.cosmic_zap_window == "reveal")
    rule["destiny"][:] = (d.regular_per_colour, d.reverse_per_colour, d.wild, d.most_foreign_bases, d.player_on_left,
                          d.power_outage, d.tenacious_defense)
    fill_card_odds(data)
    return data, sc.policy_codes(), sc.weight_rows(), sc.restrict_masks(), sc.script_codes()
