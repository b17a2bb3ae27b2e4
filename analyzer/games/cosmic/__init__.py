"""Simply Cosmic (Mayfair 1995): the challenge game of Cosmic Encounter for 3-4 players (2 unofficial),
with the eight aliens Filch, Warpish, Loser, Laser, Mind, Sorcerer, Grief and Zombie.

Spec: the project's cosmic rules; the Japanese translation of the rulebook is the authority for the turn
structure. THE DECK CONTENTS AND EVERY POWER MODEL ARE ESTIMATED (scenario.estimated() lists them).

Files: state.py (the rules array and the state declared by name, tokens, hands, decks), decisions.py (the
decision kinds and their options: the vocabulary of rules and policies), context.py (result columns, trace
kinds, asking a seat), engine.py (the turn and the stages of a challenge), cards.py (the card windows),
zaps.py (Card Zap and Cosmic Zap: the answers to a play), timing.py (who acts first), moves.py (tokens
moving), powers.py (the powers, dispatched per timing point), policies.py (the view and the policies),
hidden.py (a search rollout's re-deal of what its seat cannot see), report.py.

Policies: random, scripted (shared); heuristic, cautious (policies.py); search (analyzer/search.py: at its
branch the engine re-deals the other hands, a face-down card not its own and both decks' order, keeping the
hand Mind showed it).

Implemented, stage by stage:
- Pre-challenge: the "at the start of a challenge" cards may be played; then an offense without an
  attack/compromise card discards its hand, draws 7 and starts the turn again, cards first (after
  REDEAL_LIMIT such redeals in a row the turn is skipped: never seen with the default deck).
- 1 Regroup: one offense token from the Warp to a base of its choice (to the cone with no base).
- 2 Destiny: regular; reverse (ally rewards swap); wild (the offense picks another player); instructions
  "most foreign bases, not you" (ties: the offense picks) and "player on your left"; comets Power Outage and
  Tenacious Defense (the first comet applies, draw again; a second is ignored). Own colour: redraw, challenge
  another player's tokens on a planet of your own system (that player defends), or re-establish on an empty
  home planet with 1-4 tokens from your bases (a successful challenge; straight to stage 10). The named
  defense without a challenge card redraws 7 until it has one (checked again at stage 7). The original lets
  it first play any usable card: with this deck's timings no card is usable at either moment (the named
  defense: right after the destiny; stage 7: after the alliance window), so the redraw follows at once.
- 3 Cone: 1-4 tokens from bases (a regrouped token already on the cone counts); emptied planets are lost
  bases. Any planet of the defense's system (the defense defends with 0 tokens where it has none).
- 4-6 Alliances: the offense invites, then the defense; from the offense's left each invited player with
  a token on a base answers: decline, or one side with 1-4 tokens.
- 7 Cards: offense, then defense, face down. An offense without a challenge card ends the turn (everyone's
  cone tokens go home).
- Card windows (cards.py), each in play order round after round until every player passes in a row: the
  pre-challenge phase and stage 10 of each challenge, which share the "at the start of a challenge" icon
  (Mobius Tubes, Warp Break, Plague; stage 10 comes after the win check, before the second challenge,
  and not after an offense without a challenge card at stage 7, whose turn ends at once), after the
  alliances (Force Field; the flares of Loser (wild), Laser, Mind, Sorcerer (wild), Zombie (super)), both cards face down (Loser
  super, Sorcerer super), stage 8 once both attack cards are shown (reinforcements, Emotion Control, the
  Warpish flare, Zombie wild; Cosmic Zap under `cosmic_zap_window: reveal`), a deal just accepted (Quash) and the challenge over (Filch,
  Grief). Every edict or flare played may be cancelled by another player's Card Zap, in play order.
- 8 Reveal: attack vs attack: tokens + card, then the stage-8 window (reinforcements by main players and
  allies, on either side: `reinforce_any_side`), ties to the defense. Warpish's bonus is counted when the
  totals are compared, after the window (a Cosmic Zap answers it then, or in the window under `reveal`). `play_order`:
  the original's timing rule (non-main players from the offense's left, offense, defense), or the spec's
  wording (everyone clockwise from the offense's left) -- the spec and the original differ here, the
  original is the default. Offense wins: offense side lands, defense tokens there and defense allies to the
  Warp; defense wins: offense side to the Warp, defensive allies home + one card or one Warp token per
  token. Reverse cone: allies' rewards swap (winning defensive allies land on the planet; winning offensive
  allies go home and take the rewards). Attack vs compromise: the attack wins; the compromiser takes one
  random card of the other main player per token it lost (allies not counted). Compromise vs compromise:
  cone tokens go home; the offense proposes a deal (a base each way; a base for 2 random cards, either
  way), the defense accepts or not; a base given = the receiver moves one token from its bases to a home
  base of the giver where it has none; no deal: each loses 3 tokens from its bases to the Warp.
- Tokens going home go each to a base of the owner's choice (`home_tokens_split`: free, the original's "any
  planet where it has a base"; together: all to one base). With no base anywhere they go to the Warp
  (`home_without_base`: warp, since an emptied planet is no base to return to; home_planet: onto a home
  planet), and such a player frees nothing from the Warp (no reward token, Warp Break, Mobius Tubes).
- 10 End: after a success (attack won, deal made, re-establish) the offense may challenge again if it holds
  a challenge card; the turn passes left after the second. The win (5 foreign bases; shared) is checked
  after every challenge. `turn_cap` turns: a draw.
- Powers (estimated models, timing points in powers.py): Filch takes the opponent's played card; Warpish
  +1 per token in the Warp (any colour) on an attack reveal; Loser's upset (both must play attack cards if
  able; winner and loser swap after every other effect); Laser (`laser_reading`: eon = the opponent's card
  drawn at random from its challenge cards; ffg = random cards set aside, one per opponent token in the
  challenge, back at the end; a defense left without a challenge card redraws as stage 7 says
  (`laser_ffg_no_card`: redraw; loses: it loses the challenge, the FFG card's text, and a Loser's upset does
  not swap that loss unless `laser_ffg_disarmed_upset` is swaps), an offense ends its turn); Mind sees one main player's hand before alliances and its policy uses it;
  Sorcerer swaps the face-down cards; Grief (`grief_model`, invented); Zombie tokens never go to the Warp
  (they go home; hence no consolation). A power is off with fewer than 3 home bases or under Power Outage;
  `power_loss_timing` after_loss (default): a loss of tokens that costs the third home base (the defense
  losing, Plague, a failed deal's penalty) is still answered by the power (Zombie's tokens go home); immediate:
  the power is gone as the tokens leave.
- Aliens: dealt at random per game (distinct) or fixed per seat; the first player is the first colour
  destiny card turned (`first_player`), the cards turned are shuffled back.

- Edicts (estimated texts, FFG lineage; all 12 playable): Mobius Tubes (offense, start of a challenge:
  every Warp token home), Warp Break (anyone, start of a challenge: all own Warp tokens home), Plague
  (anyone, start of a challenge, FFG counts estimated: another player loses 3 tokens from its bases to the
  Warp and discards one card of each type, its choice), Force Field (anyone, after the alliances: the
  allies its player chooses, of either side, go home), Cosmic Zap (anyone, `cosmic_zap_window`: any_power_use, the
  default, cancels one use of any power as it is about to act -- Laser, Mind, Sorcerer, Loser's declaration and
  swap, Warpish, Filch, Grief, Zombie -- and that power is off for the rest of the challenge; reveal: stage 8
  only, one main player's power off for the challenge), Emotion Control (anyone, stage 8: both attack cards count as compromises; the deal
  follows), Quash (anyone, a deal just accepted: cancelled, it fails and both pay the 3 tokens), Card Zap
  (anyone, in answer to another player's edict or flare: cancelled; a Card Zap is an edict, so it may be
  zapped in turn).
- Flares (all 8; one-shot; Super = own alien with its power on, Wild = anyone else; FFG texts where known,
  else estimated, plain models where a text cannot be played -- cards.py has each): Warpish (Wild +1 per
  own Warp token, Super -1 to the opponent per its own Warp token); Loser (Wild: both sides lose, every
  token in the challenge to the Warp; Super: the upset declared after the cards are chosen); Laser (Wild:
  the opponent's card drawn at random; Super: the same by a non-main Laser on either main player); Mind
  (estimated, both: see one main player's hand; FFG's wild is about drawing cards for others); Sorcerer
  (Wild: the main players exchange aliens for the challenge -- FFG: for good; Super: an allied Sorcerer
  swaps the face-down cards); Zombie (Wild: one token per loss to the Warp goes home for the challenge;
  Super: each ally brings one token from the Warp into the challenge); Filch (plain model of the
  unplayable "steal/cheat" flare -- Wild: take the opponent's played card; Super: take back your own);
  Grief (invented -- Wild: the winner discards a card per token you lost; Super: you take them).

- Fewer than 4 players (`unowned_system: in_play`, the original's setup): every system is on the table with
  its colour's tokens, only the players' destiny colours are dealt, a wild may name an unowned system and
  bases there are foreign; nobody defends it (`unowned_defense`: nobody = 0 tokens, no card, no allies;
  tokens_only = its tokens defend): the offense's card counts its value (a compromise 0), no power or card
  aims at the missing main player, and no reinforcement goes to its side (`unowned_defense_reinforcement`).
  `absent` leaves those systems out. Under `nobody` an unowned planet is a sure base, and the heuristics'
  wild names it (policies.system_defense): at 3 players, heuristic play, shared wins go 14% -> 29% and games
  14.1 -> 9.3 turns against `absent` (20,000 games, seed 5).
"""
from __future__ import annotations

from ...kernel import Event
from ...search import SearchPlan
from ..base import Game
from . import engine as E
from . import state as L
from .columns import COLUMNS
from .context import (
    E_ALLY,
    E_CAP,
    E_CARDS,
    E_CONE,
    E_CONSOLATION,
    E_COSMIC_ZAP,
    E_DEAL,
    E_DEFENDER,
    E_DESTINY,
    E_DISARMED,
    E_FIRST,
    E_HOME,
    E_LAND,
    E_NO_BASE,
    E_NO_CARD,
    E_PLAY,
    E_POWER,
    E_REDEAL,
    E_REESTABLISH,
    E_REGROUP,
    E_RESULT,
    E_REWARD,
    E_STUCK,
    E_TOTALS,
    E_TURN,
    E_WARP,
    E_WIN,
    E_ZAP,
)
from .decisions import DEAL_DEFENSE_BASE, DEAL_NONE, DEAL_OFFENSE_BASE, DEAL_SWAP
from .powers import FX_FILCH, FX_GRIEF, FX_LASER_ASIDE, FX_LASER_RANDOM, FX_MIND, FX_NAMES, FX_SWAP_RESULT, FX_WARPISH
from .scenario import CosmicScenario, card_table, kernel_inputs

DEALS = {DEAL_NONE: "no offer", DEAL_SWAP: "a base each way", DEAL_OFFENSE_BASE: "a base for the offense, 2 cards back",
         DEAL_DEFENSE_BASE: "a base for the defense, 2 cards back"}
SIDES = ("offense", "defense")
ARG_UNUSED = (L.MOBIUS_TUBES, L.WARP_BREAK, L.FORCE_FIELD, L.EMOTION_CONTROL, L.QUASH)  # edicts played without a target


def card_names(scenario) -> list[str]:
    t, v, _ = card_table(scenario.deck)
    names = {L.C_ATTACK: "attack {}", L.C_COMPROMISE: "compromise", L.C_REINF: "reinforcement +{}"}
    out = []
    for typ, val in zip(t.tolist(), v.tolist(), strict=True):
        if typ == L.C_EDICT:
            out.append(f"edict {L.EDICT_NAMES[val]}")
        elif typ == L.C_FLARE:
            out.append(f"flare {L.ALIEN_NAMES[val]}")
        else:
            out.append(names[typ].format(val))
    return out


def planet(pl: int) -> str:
    return "the cone" if pl < 0 else f"planet {pl % 5} of system {pl // 5}"


def card_target(scenario):
    """What a played card's arg names, in words: Plague a seat, a reinforcement the side it helps, an
    edict without a target nothing, every other card a side."""
    t, v, _ = card_table(scenario.deck)

    def words(r):
        kind, arg = r["a"], r["b"]
        if t[kind] == L.C_EDICT and v[kind] == L.PLAGUE:
            return [f" on seat {arg}"]
        if t[kind] == L.C_REINF:
            return [f" for the {SIDES[arg]}"]
        if t[kind] == L.C_EDICT and v[kind] in ARG_UNUSED:
            return []
        return [f" on the {SIDES[arg]} side"]
    return words


def power_effect(fx: int, c: int, cards: list[str]) -> str:
    """What E_POWER's c says for the effect fx, in words."""
    if fx == FX_FILCH:
        return f": {cards[c]}"
    if fx == FX_WARPISH:
        return f": +{c}"
    if fx == FX_SWAP_RESULT:
        return f": the {SIDES[1 - c]} wins"
    if fx in (FX_LASER_RANDOM, FX_MIND):
        return f" (seat {c})"
    if fx in (FX_LASER_ASIDE, FX_GRIEF):
        return f": {c} cards"
    return ""


def events(scenario) -> dict[int, Event]:
    cards = card_names(scenario)
    card = {"a": lambda k: cards[k], "b": lambda k: cards[k]}
    return {
        E_FIRST: Event("seat {seat} starts (first colour destiny card)"),
        E_TURN: Event("turn {a}: seat {seat} is the offense"),
        E_REDEAL: Event("  seat {seat} has no challenge card: discards and draws {a}"),
        E_REGROUP: Event("  seat {seat} regroups a token from the Warp to {a}", {"a": planet}),
        E_DESTINY: Event("  seat {seat} draws destiny: {a} (colour {b})", {"a": lambda k: L.DESTINY_NAMES[k]}),
        E_DEFENDER: Event({False: "  seat {seat} defends (system {a}, {b} cone, comet: {c})",
                           True: "  nobody defends the unowned system {a} ({b} cone, comet: {c})"},
                          {"b": lambda r: "reverse" if r else "regular",
                           "c": lambda k: L.DESTINY_NAMES[k].removeprefix("comet: ") if k else "none"},
                          by=lambda r: r["seat"] >= scenario.players),
        E_REESTABLISH: Event("  seat {seat} re-establishes {a} with {b} tokens", {"a": planet}),
        E_CONE: Event({False: "  seat {seat} puts {a} tokens on the cone aimed at {b} (defense seat {c})",
                       True: "  seat {seat} puts {a} tokens on the cone aimed at {b} (nobody defends)"},
                      {"b": planet}, by=lambda r: r["c"] >= scenario.players),
        E_ALLY: Event("  seat {seat} joins the {a} with {b} tokens", {"a": lambda s: {1: "offense", 2: "defense"}[s]}),
        E_POWER: Event("  seat {seat}'s {a} {b}{parts}", {"a": lambda a: L.ALIEN_NAMES[a], "b": lambda f: FX_NAMES[f],
                                                       "parts": "".join},
                       parts=lambda r: [power_effect(r["b"], r["c"], cards)]),
        E_CARDS: Event("  reveal: offense seat {seat} {a}, defense {b}",
                       {**card, "b": lambda k: cards[k] if k >= 0 else "no card (nobody defends)"}),
        E_PLAY: Event("  seat {seat} plays {a}{parts}", {"a": lambda k: cards[k], "parts": "".join},
                      parts=card_target(scenario)),
        E_ZAP: Event("  seat {seat} card-zaps {a} played by seat {b}", {"a": lambda k: cards[k]}),
        E_COSMIC_ZAP: Event("  seat {seat} cosmic-zaps seat {a}'s {b}: cancelled for the challenge",
                            {"b": lambda a: L.ALIEN_NAMES[a]}),
        E_TOTALS: Event("  totals: offense {a}, defense {b}"),
        E_RESULT: Event("  seat {seat} wins the challenge as the {a}", {"a": lambda won: SIDES[1 - won]}),
        E_LAND: Event("  seat {seat} lands {a} tokens on {b}", {"b": planet}),
        E_WARP: Event({False: "  seat {seat} loses {a} tokens to the Warp",
                       True: "  the unowned colour {seat} loses {a} tokens to the Warp"},
                      by=lambda r: r["seat"] >= scenario.players),
        E_HOME: Event("  seat {seat} returns {a} tokens to {b}", {"b": planet}),
        E_NO_BASE: Event("  seat {seat} has no base to return {a} tokens to: they go to the Warp"),
        E_REWARD: Event("  seat {seat} is rewarded: {a} cards, {b} tokens freed"),
        E_CONSOLATION: Event("  seat {seat} takes {a} consolation cards from seat {b}"),
        E_DEAL: Event({DEAL_NONE: "  deal: seat {seat} makes no offer to seat {c}",
                       **dict.fromkeys((DEAL_SWAP, DEAL_OFFENSE_BASE, DEAL_DEFENSE_BASE), "  deal: seat {seat} offers {a} to seat {c}: {b}")},
                      {"a": lambda x: DEALS[x], "b": lambda x: "accepted" if x else "refused"}, by="a"),
        E_DISARMED: Event("  seat {seat} has no challenge card left by Laser's set-aside: it loses the challenge"),
        E_NO_CARD: Event("  seat {seat} has no challenge card at stage 7: the turn ends"),
        E_WIN: Event("seat {seat} wins with {a} foreign bases"),
        E_CAP: Event("turn cap of {a} turns reached: a draw"),
        E_STUCK: Event("  seat {seat} found no challenge card in 50 redeals: the turn is skipped"),
    }


class Cosmic(Game):
    name = "cosmic"
    title = "Simply Cosmic (estimated deck and powers)"
    Scenario = CosmicScenario
    length_unit = "turns"
    COLUMNS = COLUMNS
    kernel = staticmethod(E.play)
    kernel_releases_gil = True  # E.play is compiled with nogil=True
    kernel_inputs = staticmethod(kernel_inputs)
    searchable = True  # context.ask re-deals what the search seat cannot see at its branch (hidden.py)
    # one search seat plays ~3,100 rollouts a game at its default 8 per option (~99 decisions; about 1.3 s on
    # one core at load 10): at this size "Under search play" takes a few minutes on 2 cores (the whole report
    # of a 1e5-game run, every comparison run included, took 7 min 15 s at load 1-3 on 2026-12-07)
    search_plan = SearchPlan(rollouts=8, n=100, budgets=(2, 8, 16), curve_n=50)
    TRACE_CAP = 200_000

    def events(self, scenario):
        return events(scenario)

    def seat_roles(self, scenario, row) -> list[str]:
        return [f"alien {L.ALIEN_NAMES[a]}" for a in row["faction"]]

    def report(self, df, meta, out):
        from .report import write_report
        return write_report(self, df, meta, out)


GAME = Cosmic()
