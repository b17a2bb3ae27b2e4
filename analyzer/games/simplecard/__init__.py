"""Simple Card (SIMPLE_CARD, a doujin card game by COINS-STYLE): a two-player duel of character cards with
balancers, rank-2/3 stacks and cast techniques.

Spec: the project's Simple Card rules (a restatement of the Japanese original). THE CARD POOL IS OURS
(`pool_status: ours`): the published sample sets are images we do not have; scenarios/simplecard/sample.yaml
ships 56 cards of our own (A-, B-, C-strong and balanced profiles, six names with rank-2 versions, one
rank-3 line) and five decks; every report header lists them.

Rule decisions (each open point is a named field of `rules`, default first):
- Decks: `deck_size: 16`, `max_copies: 4` counted over every rank of a name (`copy_limit_scope: name`);
  a rank-2/3 card needs the rank below of its name in the pool. `enforce_deck_size: false` with
  `risk_limit: 10` is the source's beginner preset (`--set rules.risk_limit=10 --set rules.enforce_deck_size=false`).
- Setup: shuffle, 4 to hand, the next card onto the Balance. The higher balancer (risk points) chooses
  to go first or second; a tie: a random seat chooses (`first_player_tie: random` | `seat0`).
- ACT: the active Main returns to hand; draw to 4 (`draw_optional: false`: always); pre-scene CTs; the
  SCENE: the active player must place a card, face up if the passive Main holds one, else set face
  down; a rank-2 (rank-3) card only stacked on the rank-1 (and rank-2) of its name, all from hand at
  once, always face up, so only when the passive Main holds a card (`stack_needs_opponent_main: true`);
  a stack's numbers are its top card's (`stack_values: top` | `sum`) and it shares one fate.
- CONTACT (only if the passive Main holds a card): the active player chooses A, B or C, then set cards
  open. Totals: chosen value + active (attacker) / passive (defender) value + the balancer bonus: the
  balancer's lowest contact value raises every contact value tied for lowest (A3 B2 C1: C +1; A3 B4 C3:
  A +3 and C +3; `balancer_bonus: true`). Higher wins; the loser's Main (whole stack) goes face up to
  its Risk; a tie sends both. The winner's card stays.
- Losing: Risk total at `risk_limit: 30` (`risk_limit_inclusive: true`: reaching it), checked at once
  (`loss_check: immediate` | `act_end`); deck and hand both empty (`deckout_check: continuous` |
  `act_start`); the active player cannot place a Main (no rank-1 card in hand). Both at the same
  moment: `simultaneous_loss: draw` (| `active_loses` | `passive_loses`). `act_cap` (400): a draw.
- Cast techniques (`enabled_cts`, default all; to cast = a hand card face up into your own Risk):
  Picking (cast 1; an opponent hand card face down, worth 0, into `picking_target_risk: opponent` |
  `caster`), Reading (cast 1; reorder the top N of your deck, N = `reading_depth: active` value of the
  cast card), Balance shift (once per ACT, no cast; a hand card becomes your balancer), Skipping (cast
  1; the opponent's top deck card onto the opponent's Balance), Moving (cast 1; a Main, whole stack, to
  `moving_destination: owner`'s hand | the caster's), Recall (cast 2; a Risk card to hand, not
  one of the two just cast: `recall_can_take_just_cast: false`; a face-down one too, worth 0 points, as the
  original's 「自分のリスクにあるカードを一枚」 says: `recall_takes_face_down: true` | `false`), Changing (the inferior side, never on a tie: cast 1, the Main to hand, another
  rank-1 hand card face up as Main, judge again; then only the other side may Change, in turn: `changing_order:
  alternate` | `while_inferior`; `changing_max_per_contact: 2` in all), Bounce
  (post-scene, cast 1; your Main to hand). A replaced balancer: `old_balancer: under` | `risk` | `removed`.
  Pre-scene CTs may be used in any number and order; a cast at the limit loses at once (loss_check), before
  its technique resolves.
- A decision with a single legal option is not asked (the scripted policy's script skips it).

Policies: random, scripted (shared); greedy, cautious, ct (see policies.py); search (analyzer/search.py: at
its branch the engine re-deals its own deck and the opponent's unseen cards, keeping what it has seen). The balancers, Risk totals,
zone sizes and face-up Mains are public; a set card is the "unknown card" (the pool's mean) to the
opponent until it opens.
"""
from __future__ import annotations

from ...kernel import Event
from ..base import Game
from . import columns as C
from . import engine as E
from .scenario import CONTACTS, CT_NAMES, SimpleCardScenario, kernel_inputs

END_TEXT = {E.END_CAP: "the ACT cap", E.END_RISK: "Risk total at the limit", E.END_DECKOUT: "deck and hand empty",
            E.END_CANNOT_PLACE: "cannot place a Main"}


def events(sc: SimpleCardScenario) -> dict[int, Event]:
    """The trace table, with this scenario's card and deck names."""
    keys = [c.key for c in sc.cards]
    decks = sc.deck_names()

    def card(c):
        return keys[c] if c >= 0 else "-"

    c_ = {"a": card}
    return {
        E.E_SETUP: Event("seat {seat} plays deck {a}; balancer {b} ({c} risk points)", {"a": lambda d: decks[d], "b": card}),
        E.E_CHOOSE: Event("seat {seat} chooses: seat {a} goes first"),
        E.E_ACT: Event("ACT {a}: seat {seat} is active"),
        E.E_RETURN: Event("  seat {seat}'s Main {a} ({b} cards) returns to hand", c_),
        E.E_DRAW: Event("  seat {seat} draws {a}: hand {b}, deck {c}"),
        E.E_CAST: Event("  seat {seat} casts {a} for {b}: Risk {c}", {"a": card, "b": lambda k: CT_NAMES[k]}),
        E.E_PICK: Event("  seat {seat} picks {a}: face down into seat {b}'s Risk", c_),
        E.E_READ: Event("  seat {seat} reads the top {a} cards (cast {b})", {"b": card}),
        E.E_SHIFT: Event("  seat {seat} shifts {a} onto its Balance (was {b})", {"a": card, "b": card}),
        E.E_SKIP: Event("  seat {c} skips: {a} onto seat {seat}'s Balance (was {b})", {"a": card, "b": card}),
        E.E_MOVE: Event("  seat {seat} moves seat {a}'s Main {b} to seat {c}'s hand", {"b": card}),
        E.E_RECALL: Event("  seat {seat} recalls {a}: Risk {b}", c_),
        E.E_PLACE: Event("  seat {seat} places {a} ({b} cards) {c}", {"a": card, "c": lambda u: "face up" if u else "set face down"}),
        E.E_CONTACT: Event("  seat {seat} chooses contact {a}", {"a": lambda x: CONTACTS[x]}),
        E.E_OPEN: Event("  seat {seat}'s set card opens: {a}", c_),
        E.E_TOTALS: Event("  {c}: active seat {seat} {a} against {b}", {"c": lambda x: CONTACTS[x]}),
        E.E_CHANGE: Event("  seat {seat} changes its Main {b} for {a}", {"a": card, "b": card}),
        E.E_DESTROY: Event("  seat {seat}'s Main {a} is destroyed: +{b} Risk, total {c}", c_),
        E.E_TIE: Event("  a tie at {a}: both Mains are destroyed"),
        E.E_BOUNCE: Event("  seat {seat} bounces its Main {a} ({b} cards) to hand", c_),
        E.E_LOSE: Event("seat {seat} loses: {a} (Risk {b})", {"a": lambda r: END_TEXT[r]}),
        E.E_WIN: Event("seat {seat} wins"),
        E.E_DRAWN: Event("both lose at once: a draw"),
        E.E_CAP: Event("ACT cap of {a} reached: a draw"),
    }


class SimpleCard(Game):
    name = "simplecard"
    title = "Simple Card (our own card pool)"
    Scenario = SimpleCardScenario
    length_unit = "ACTs"
    COLUMNS = C.COLUMNS
    kernel = staticmethod(E.play)
    kernel_releases_gil = True  # E.play is compiled with nogil=True
    kernel_inputs = staticmethod(kernel_inputs)
    searchable = True  # engine.ask re-deals what the search seat cannot see at its branch (engine.redeal)

    def events(self, scenario) -> dict[int, Event]:
        return events(scenario)

    def seat_roles(self, scenario, row) -> list[str]:
        return [f"deck {scenario.decks[d].name}" for d in row["faction"]]

    def report(self, df, meta, out):
        from .report import write_report
        return write_report(self, df, meta, out)


GAME = SimpleCard()
