"""STOP (Abacusspiele 2001): a shedding card game, 2-6 players, 112 cards, penalties over hands.

Rules: shared/rules/stop.md, implemented once in `engine.py` (numba kernel), which lists the legal
options of every decision (`decisions.py`) and asks `policies.decide` for one: policies are random,
scripted (shared by every game), greedy and defender; they see the game only through `view.py` (their
own hand and the public table). The scenario schema and its translation to kernel inputs are in
`scenario.py`.

Rule decisions beyond stop.md
-----------------------------
Where stop.md is silent the engine decides as follows (the ones that are real rules ambiguities are
scenario parameters, marked [param]):
- [param first_dealer: random] stop.md says who deals each hand after the first, not who deals the
  first: it is drawn per match from the match's own stream, as players draw for it at a table (so a
  seat's turn position is data, not its index); `seat0` keeps seat 0 as the first dealer in every match.
- Jump-in windows open only right after a card is placed on the discard pile (a normal play, a wild's
  follow-up, a jump-in, an answer, a defensive 0, an X+ forced card), before its effect resolves;
  never on the starter. A card drawn during an effect (2+, X+, Achtung) comes too late for that
  window. The player who placed the card cannot jump in on it (that would be two cards in one move).
- [param jumped_two_plus: stack] a 2+ jumped in on a pending 2+ adds 2 to the draw, like a stacking
  answer, and the draw now targets the jumper's left neighbour; `move` only moves the pending draw.
- A 0 defence (2+, Pause, Swap, X+) is a move: it opens a jump-in window (another identical 0) and
  play continues with the defender's left neighbour. The attacking card's colour for a stacked 2+ or
  a Pause chain is that of the top card (the most recent one in the chain).
- Pause chain: the last adder is never asked to answer its own chain; with k >= players the
  skipping wraps around the table (it may skip the adder too).
- Swap: only players other than the swapper may cancel; a player whose hand would not change (equal
  contents) is not affected. The swapper's own hand is the one left after playing the Swap.
- X+: a target with only symbol cards ignores it and takes their normal turn. The forced card and
  its draw are one action: the victim is out (STOP) only if their hand is empty after drawing. A
  forced card is a placed card: others may jump in on it; a jumped 2+ then has its effect even when
  xplus_card_effects is off. Note that a 0 of any colour is also a legal forced card (draw 0), so
  xplus_zero_cancels barely changes outcomes: greedy and defender end up putting down a 0 either
  way; it matters for the random policy (which cancels only half the time) and for the trace.
- A wild starter (starter_redraw_wild: false) accepts any card on it. starter_effects: the starter
  acts as if the dealer's right neighbour had played it (the dealer is the target; the right
  neighbour chooses a Swap); a wild starter has no effect.
- must_play_if_able also applies to a drawn card when play_drawn_card is on.
- Achtung: any move that takes a hand from 2+ cards to exactly 1 (a wild with its follow-up from 3
  to 1 too); no Achtung penalty after the hand is over. The penalty cards are drawn at once, before
  the jump-in window.
- [param out_player_scores: held] (stop.md) each player scores what they hold once the last card's
  effect has resolved -- the original says each player, so the STOP caller too if cards came back to
  them (a 2+ stack wrapping round, or a last-card Swap, which leaves the swapper with someone's hand);
  `zero` -- the variant where the STOP caller always scores 0.
- [param two_plus_drawer: skipped] (stop.md) the player who draws for a 2+ (or a stack) loses the
  turn and play continues to their left; `plays` -- the other reading: the drawer plays next. A
  cancelling 0 is a move of its own: play continues left of the defender either way.
- [param xplus_card_effects: true] (stop.md, the original's X+ example) the X+ victim's forced 2+
  makes their left neighbour draw 2 (answers and jump-ins as for any 2+); `false` -- no effect.
- hand_turn_cap counts normal turns (a play or a draw/pass); a capped hand is scored as it stands
  and counted in `capped_hands`. [param match_hand_cap: 1000] the same safety for hands in a match.
- [param hand_size: 7] the deal; cards are dealt one at a time from the dealer's left.
- Counting: `moves` counts a wild with its follow-up as one play.
- Restrictions (StopScenario.RESTRICTIONS, `restrict:`) filter a seat's listed options in engine.ask,
  before its policy is asked (every STOP decision is a listed one, so no policy decides past the
  filter); where they forbid every option (a wild as the only legal card under
  never_play_wild) the filter is lifted for that decision and counted in `restrict_lifted`.
- Search (`search`, docs/adding-a-game.md): at a rollout's branch the engine re-deals what the deciding
  seat cannot see (engine.redeal_hidden). The X+ victim's hand is shown to everyone when the X+ is not
  cancelled (also when it is ignored: the table sees it holds only symbols); a Swap's giver knows the
  hand it gave. Rollouts keep both (state `known`) and the re-deal leaves those cards where they are.
Not implemented: nothing of stop.md is left out. The heuristic policies do not remember the X+ victim's
shown hand; they read only their own hand, hand sizes, match totals and the card table (view.py).

Results columns are declared in `columns.py`; trace events in engine.py's docstring and how they
read in `Stop.EVENTS`. The kernel: `engine.play(seed, game_ids, rules, cards, policy, seats,
<outputs>)` with the namedtuples of `scenario.kernel_inputs(scenario)`; compilation notes (no
reference counting, numpy-int constants, the compile cache) are in state.py.
"""
from __future__ import annotations

from ...kernel import Event
from ...search import SearchPlan
from ..base import Game
from . import columns as C
from . import engine as E
from .cards import card_name
from .decisions import SWAP_PASS_LEFT, SWAP_PASS_RIGHT, SWAP_WITH_ONE
from .scenario import StopScenario, kernel_inputs

HOW = {E.HOW_TURN: "plays", E.HOW_DRAWN: "plays the drawn", E.HOW_WILD_FOLLOW: "follows with",
       E.HOW_JUMP: "JUMPS IN with", E.HOW_STACK: "stacks", E.HOW_CANCEL: "cancels with",
       E.HOW_PAUSE_ADD: "adds", E.HOW_XPLUS: "must put down"}
WHY = {E.WHY_TURN: "cannot play, draws", E.WHY_TWO_PLUS: "draws (2+)", E.WHY_XPLUS: "draws (X+)",
       E.WHY_ACHTUNG: "draws (Achtung penalty)"}


def _drawn(cards: list) -> str:
    """The cards of a run of draws (-1: none left to draw, both piles empty)."""
    got = [card_name(x) for x in cards if x >= 0]
    miss = len(cards) - len(got)
    return ", ".join(got) + (f"{' +' if got else ''} {miss} not drawn (both piles empty)" if miss else "")


def _winners(mask: int) -> str:
    seats = [q for q in range(32) if mask >> q & 1]
    return f"winner{'s' if len(seats) > 1 else ''}: {', '.join(f'seat {q}' for q in seats)}"


def _copies(r: dict) -> list[str]:
    return [card_name(r["a"])] * r["b"]


CARD = {"a": card_name}
# records: (kind, player, card, a, b) = kernel.record's (kind, seat, a, b, c)
EVENTS = {
    E.E_HAND: Event("Hand {b}: seat {seat} deals and plays first"),
    E.E_DEAL: Event("  seat {seat} is dealt: {parts}", {"parts": ", ".join}, parts=_copies, run=("seat",)),
    E.E_STARTER: Event({0: "  starter: {a}", E.RETURNED: "  starter: {a} goes back into the pile (reshuffled)"},
                       CARD, by="b"),
    E.E_PLAY: Event("  seat {seat} {b} {a} ({c} left)", {"a": card_name, "b": lambda h: HOW.get(h, "plays")}),
    E.E_DRAW: Event("  seat {seat} {b} {parts} ({c} in hand)", {"b": lambda r: WHY.get(r, "draws"), "parts": _drawn},
                    parts=lambda r: [r["a"]], run=("seat", "b")),
    E.E_PASS: Event("  seat {seat} passes"),
    E.E_RESHUFFLE: Event("  discard pile reshuffled into a new draw pile of {b} cards ({a} stays on top)", CARD),
    E.E_EFFECT: Event("  seat {seat} must draw {b} ({a})", CARD),
    E.E_SKIP: Event("  seat {seat} is skipped ({a}, chain of {b})", CARD),
    E.E_SWAP: Event({SWAP_WITH_ONE: "  seat {seat} chooses: swap hands with seat {c}",
                     SWAP_PASS_LEFT: "  seat {seat} chooses: everyone passes their hand to the left",
                     SWAP_PASS_RIGHT: "  seat {seat} chooses: everyone passes their hand to the right"}, by="b"),
    E.E_SWAP_DONE: Event("  hands swapped"),
    E.E_XPLUS_IGNORED: Event("  seat {seat} holds only symbol cards: {a} ignored", CARD),
    E.E_ACHTUNG: Event("  seat {seat} forgets to call Achtung!"),
    E.E_STOP: Event("  seat {seat} calls STOP"),
    E.E_CAPPED: Event("  hand stopped by hand_turn_cap after {b} turns"),
    E.E_HELD: Event("", parts=_copies, keep="held"),
    E.E_SCORE: Event("  seat {seat} holds {held}: +{b} (total {c})", {"held": lambda cards: ", ".join(cards) or "no cards"}),
    E.E_MATCH_END: Event("Match over after {b} hands; {c}", {"c": _winners}),
}


class Stop(Game):
    name = "stop"
    title = "STOP"
    Scenario = StopScenario
    length_unit = "hands"
    COLUMNS = C.COLUMNS
    kernel = staticmethod(E.play)
    kernel_inputs = staticmethod(kernel_inputs)
    TRACE_CAP = 400_000
    EVENTS = EVENTS
    kernel_releases_gil = True   # engine.play is compiled with nogil=True
    searchable = True            # engine.play takes the control table; decide's head is kernel.ask_policy
    # the default plan's section took 16 min on an idle 2-core machine (2026-12-07), 10 of them the curve's
    # 64 rollouts an option; this one, with the default budget 32 as the curve's top, took 9.4 (566 s)
    search_plan = SearchPlan(budgets=(4, 16, 32), curve_n=80)

    def report(self, df, meta, out):
        from .report import write_report
        return write_report(self, df, meta, out)


GAME = Stop()

__all__ = ["GAME", "Stop", "StopScenario"]
