"""STOP (Abacusspiele 2001): a shedding card game, 2-6 players, 112 cards, penalties over hands.

Rules: shared/rules/stop.md, implemented once in `engine.py` (numba kernel), which lists the legal
options of every decision (`options.py`) and asks `policies.decide` for one: policies are random,
scripted (shared by every game), greedy and defender; they see the game only through `view.py` (their
own hand and the public table). The scenario schema and its translation to kernel inputs are in
`scenario.py`.

Rule decisions beyond stop.md
-----------------------------
Where stop.md is silent the engine decides as follows (the ones that are real rules ambiguities are
scenario parameters, marked [param]):
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
Not implemented: nothing of stop.md is left out. Showing the X+ victim's hand to everyone has no
effect because no policy remembers what it was shown; policies read only their own hand, hand sizes,
match totals and the card table (view.py).

Results columns are documented in `Stop.columns`; trace events in engine.py's docstring. The kernel:
`engine.simulate(rules, cards, policy, seats, seed, game_ids, ev_cap)` with the namedtuples of
`scenario.kernel_inputs(scenario)`; compilation notes (no reference counting, numpy-int constants,
the compile cache) are in state.py.
"""
from __future__ import annotations

import numpy as np

from ..base import Batch, Game
from . import engine as E
from . import state as S
from .cards import card_name
from .options import SWAP_PASS_LEFT, SWAP_PASS_RIGHT
from .scenario import StopScenario, kernel_inputs

TRACE_CAP = 400_000

_HOW = {E.H_TURN: "plays", E.H_DRAWN: "plays the drawn", E.H_WILD_FOLLOW: "follows with",
        E.H_JUMP: "JUMPS IN with", E.H_STACK: "stacks", E.H_CANCEL: "cancels with",
        E.H_PAUSE_ADD: "adds", E.H_XPLUS: "must put down"}
_WHY = {E.R_TURN: "cannot play, draws", E.R_TWO_PLUS: "draws (2+)", E.R_XPLUS: "draws (X+)",
        E.R_ACHTUNG: "draws (Achtung penalty)"}


class Stop(Game):
    name = "stop"
    title = "STOP"
    Scenario = StopScenario
    length_unit = "hands"
    columns = {
        "first_hand_penalty": "(n,P) penalty each seat scored in hand 1 (seat 0 deals and plays first)",
        "symbol_penalty": "(n,P) part of the final total from symbol cards (Pause, Swap, X+, wild)",
        "hands_out": "(n,P) hands in which the seat called STOP (played its last card)",
        "dealer_rel_penalty": "(n,P) total penalty by position relative to each hand's dealer "
                              "(column 0 = the dealer, 1 = the dealer's left, ...), summed over hands",
        "dealer_rel_out": "(n,P) hands won (STOP called) by position relative to the dealer",
        "penalty_sumsq": "(n,P) sum over hands of the squared hand penalty (per-hand spread = "
                         "sumsq/length - (score/length)^2)",
        "capped_hands": "(n,) hands stopped by hand_turn_cap (scored as they stood)",
        "moves": "(n,) card plays: normal plays (a wild with its follow-up counts once), jump-ins, "
                 "answers (stack, add, cancelling 0) and X+ forced cards",
        "jump_ins": "(n,) jump-ins (out-of-turn plays of an identical number card)",
        "turns": "(n,) normal turns taken (plays and draws)",
        "cards_drawn": "(n,) cards drawn from the pile (turn draws, 2+, X+, Achtung)",
        "reshuffles": "(n,) times the discard pile was shuffled into a new draw pile",
        "zero_cancels": "(n,) attacks (2+, Pause, Swap, X+) cancelled with a same-colour 0",
        "achtung_penalties": "(n,) forgotten Achtung calls (2 penalty cards each)",
        "match_capped": "(n,) 1 if the match hit match_hand_cap before anyone reached match_limit",
        "invariant_errors": "(n,) card-conservation check failures at hand ends (always 0 unless a bug)",
    }

    def run_batch(self, scenario: StopScenario, seed: int, game_ids: np.ndarray, trace: bool = False) -> Batch:
        k = kernel_inputs(scenario)
        ids = np.ascontiguousarray(game_ids, dtype=np.int64)
        if int(seed) < 0:
            raise ValueError("seed must be >= 0")
        out_g, out_s, ev, n_ev = E.simulate(k.rules, k.cards, k.policy, k.seats, int(seed), ids,
                                            TRACE_CAP if trace else 0)
        extra = {}
        for i, name in enumerate(S.GAME_COLUMNS):
            if name != "length":
                extra[name] = out_g[:, i].copy()
        for i, name in enumerate(S.SEAT_COLUMNS):
            if name not in ("score", "is_winner"):
                extra[name] = out_s[:, :, i].copy()
        events = None
        if trace:
            events = ev
            if n_ev > len(ev):  # mark truncation with a final record
                events = np.vstack([ev, np.array([[0, -1, -1, int(n_ev), 0]], np.int32)])
        return Batch(is_winner=out_s[:, :, S.S_WIN].astype(bool), score=out_s[:, :, S.S_SCORE].copy(),
                     length=out_g[:, 0].copy(), extra=extra, events=events)

    def describe(self, scenario: StopScenario, events: np.ndarray) -> list[str]:
        return describe_events(events)

    def report(self, df, meta, out):
        from .report import write_report
        return write_report(self, df, meta, out)


def _seat(p: int) -> str:
    return f"seat {p}"


def describe_events(events: np.ndarray) -> list[str]:
    """Trace records -> readable lines, move by move."""
    lines: list[str] = []
    held: dict[int, list[str]] = {}
    dealt: dict[int, list[str]] = {}
    i = 0
    n = len(events)
    while i < n:
        kind, p, c, a, b = (int(x) for x in events[i])
        i += 1
        if kind == 0:
            lines.append(f"(trace truncated: {a} records produced)")
        elif kind == E.E_HAND:
            lines.append(f"Hand {a}: {_seat(p)} deals and plays first")
            dealt = {}
        elif kind == E.E_DEAL:
            dealt.setdefault(p, []).extend([card_name(c)] * a)
            if i >= n or int(events[i][0]) != E.E_DEAL:
                for q in sorted(dealt):
                    lines.append(f"  {_seat(q)} is dealt: {', '.join(dealt[q])}")
        elif kind == E.E_STARTER:
            if a:
                lines.append(f"  starter: {card_name(c)} goes back into the pile (reshuffled)")
            else:
                lines.append(f"  starter: {card_name(c)}")
        elif kind == E.E_PLAY:
            left = f"({b} left)"
            lines.append(f"  {_seat(p)} {_HOW.get(a, 'plays')} {card_name(c)} {left}")
        elif kind == E.E_DRAW:
            # merge consecutive draws of the same player and reason
            cards = [c]
            while i < n and int(events[i][0]) == E.E_DRAW and int(events[i][1]) == p and int(events[i][3]) == a:
                cards.append(int(events[i][2]))
                b = int(events[i][4])
                i += 1
            got = [card_name(x) for x in cards if x >= 0]
            miss = sum(1 for x in cards if x < 0)
            txt = f"  {_seat(p)} {_WHY.get(a, 'draws')} {', '.join(got) if got else ''}"
            if miss:
                txt += f"{' +' if got else ''} {miss} not drawn (both piles empty)"
            lines.append(txt.rstrip() + f" ({b} in hand)")
        elif kind == E.E_PASS:
            lines.append(f"  {_seat(p)} passes")
        elif kind == E.E_RESHUFFLE:
            lines.append(f"  discard pile reshuffled into a new draw pile of {a} cards ({card_name(c)} stays on top)")
        elif kind == E.E_EFFECT:
            lines.append(f"  {_seat(p)} must draw {a} ({card_name(c)})")
        elif kind == E.E_SKIP:
            lines.append(f"  {_seat(p)} is skipped ({card_name(c)}, chain of {a})")
        elif kind == E.E_SWAP:
            if a == SWAP_PASS_LEFT:
                what = "everyone passes their hand to the left"
            elif a == SWAP_PASS_RIGHT:
                what = "everyone passes their hand to the right"
            else:
                what = f"swap hands with {_seat(b)}"
            lines.append(f"  {_seat(p)} chooses: {what}")
        elif kind == E.E_SWAP_DONE:
            lines.append("  hands swapped")
        elif kind == E.E_XPLUS_IGNORED:
            lines.append(f"  {_seat(p)} holds only symbol cards: {card_name(c)} ignored")
        elif kind == E.E_ACHTUNG:
            lines.append(f"  {_seat(p)} forgets to call Achtung!")
        elif kind == E.E_STOP:
            lines.append(f"  {_seat(p)} calls STOP")
        elif kind == E.E_CAPPED:
            lines.append(f"  hand stopped by hand_turn_cap after {a} turns")
        elif kind == E.E_HELD:
            held.setdefault(p, []).extend([card_name(c)] * a)
        elif kind == E.E_SCORE:
            cards = ", ".join(held.pop(p, [])) or "no cards"
            lines.append(f"  {_seat(p)} holds {cards}: +{a} (total {b})")
        elif kind == E.E_MATCH_END:
            winners = [q for q in range(32) if b >> q & 1]
            lines.append(f"Match over after {a} hands; winner{'s' if len(winners) > 1 else ''}: "
                         f"{', '.join(_seat(q) for q in winners)}")
        else:
            lines.append(f"  (unknown event {kind} {p} {c} {a} {b})")
    return lines


GAME = Stop()

__all__ = ["GAME", "Stop", "StopScenario", "describe_events"]
