"""Space Base (AEG 2018): dice engine-building for 2-5 players.

Rules: engine.py (the compiled rulebook, one kernel), options.py (every decision and how its options
are written), policies.py (numba policies), scenario.py (YAML schema and its number arrays), layout.py
(array columns and event codes), state.py (the kernel's containers).
"""
from __future__ import annotations

import numpy as np

from ..base import Batch, Game
from . import layout as L
from .engine import COLUMNS, run_games
from .scenario import SpacebaseScenario, card_list, kernel_inputs

END_REASONS = {L.END_VP: "trigger VP reached (most VP wins, ties broken by tie rounds)",
               L.END_YOU_WIN: "a 'You Win' card fired",
               L.END_SHARED: "still tied after tie_rounds_cap tie rounds: the win is shared",
               L.END_MAX_ROUNDS: "safety stop at rules.max_rounds (most VP wins, ties shared)"}

MODES = {L.M_FACES: "two faces", L.M_SUM: "the sum", L.M_DOUBLE_SUM: "the sum twice (2X)",
         L.M_DOUBLE_D1: "two faces, the first twice (2X)", L.M_DOUBLE_D2: "two faces, the second twice (2X)"}


class Spacebase(Game):
    name = "spacebase"
    title = "Space Base"
    Scenario = SpacebaseScenario
    length_unit = "rounds"
    columns = {
        **{k: v for k, v in COLUMNS.extra_doc().items() if k != "first_player"},
        "card_buyer": "(n,cards) per shipyard card in scenario order (cards.ships): seat that got it, -1 nobody",
        "colony_buyer": "(n,colonies) per colony in scenario order (cards.colonies): seat that bought it, -1 nobody",
    }

    def __init__(self):
        self._cache: tuple | None = None

    def __getstate__(self):  # the cached kernel arrays (a numba structref) are rebuilt in workers
        return {}

    def __setstate__(self, state):
        self._cache = None

    def inputs(self, scenario) -> tuple:
        """Kernel arrays of a scenario (memoised on its content hash)."""
        h = (scenario.content_hash(), scenario.players, tuple(scenario.seat_policies()))
        if self._cache is None or self._cache[0] != h:
            self._cache = (h, kernel_inputs(scenario))
        return self._cache[1]

    def run_batch(self, scenario, seed, game_ids, trace=False) -> Batch:
        D = self.inputs(scenario)
        ids = np.ascontiguousarray(game_ids, dtype=np.int64)
        ev_cap = 200_000 if trace else 0
        cols, buyer, col_buyer, ev, evn = run_games(seed, ids, D, ev_cap)
        score, win, length = cols.pop("score"), cols.pop("is_winner").astype(bool), cols.pop("length")
        first = cols.pop("first_player")
        extra = {**cols, "card_buyer": buyer, "colony_buyer": col_buyer}
        return Batch(is_winner=win, score=score, length=length, first_player=first, extra=extra,
                     events=ev[:int(evn[0])].copy() if trace else None)

    def describe(self, scenario, events) -> list[str]:
        return describe_events(scenario, events)

    def report(self, df, meta, out):
        from .report import write_report
        return write_report(self, df, meta, out)


def describe_events(scenario, events) -> list[str]:
    """Readable move-by-move log of one traced game."""
    cards = card_list(scenario)
    cols = scenario.cards.colonies

    def cn(k):
        k = int(k)
        if k < 0:
            return "-"
        c = cards[k]
        lvl = getattr(c, "level", 0)
        nm = f" {c.name}" if getattr(c, "name", "") else ""
        return f"{c.id}{nm} (L{lvl} s{c.sector}, cost {getattr(c, 'cost', 0)})" if lvl else f"{c.id}"

    side = {0: "blue", 1: "red"}
    out: list[str] = []
    for row in np.asarray(events):
        kind, p, a, b, c, d = (int(x) for x in row)
        who = f"seat {p}"
        if kind == L.EV_REFILL:
            out.append(f"  display L{a} slot {b}: {cn(c)}")
        elif kind == L.EV_START:
            out.append(f"start player: {who} moves first" + (" (tie broken at random)" if a else ""))
        elif kind == L.EV_OPENING:
            out.append(f"{who}: opening ship {cn(a)}, paid {c}")
        elif kind == L.EV_LS_BUY:
            out.append(f"{who}: light-speed buy {cn(a)}, paid {c}")
        elif kind == L.EV_BONUS:
            out.append(f"{who}: turn-order bonus +{a} credits +{b} income -> {c} credits, {d} income")
        elif kind == L.EV_TURN:
            out.append(f"== round {a}, {who}'s turn ({b} credits, {c} income, {d} VP)")
        elif kind == L.EV_SET_DIE:
            out.append(f"  {who} sets die {b + 1} to {c} with {cn(a)} ({side[d]})")
        elif kind == L.EV_ROLL:
            fixed = " ".join(f"die {i + 1}" for i in range(2) if c >> i & 1)
            out.append(f"  roll: {a} and {b}" + (f" ({fixed} set before the roll)" if c else ""))
        elif kind == L.EV_REROLL:
            out.append(f"  {who} rerolls die {b + 1} -> {c} with {cn(a)} ({side[d]})")
        elif kind == L.EV_ASSIGN:
            how = MODES.get(a, str(a))
            tgt = f"sector {d}" if a in (L.M_SUM, L.M_DOUBLE_SUM) else f"sectors {b} and {c}"
            out.append(f"  {who} takes {how}: {tgt}")
        elif kind == L.EV_GAIN:
            if a or b or c:
                out.append(f"    {who} gains {a} credits, {b} income, {c} VP")
        elif kind == L.EV_CHARGE:
            extra = f", +{c} credits" if c else ""
            out.append(f"    {who}: charge cube on {cn(a)} ({side[d]}) -> {b}{extra}")
        elif kind == L.EV_FIRE:  # c, d: dice arrow (sum c -> sector d) or 2X (c = assignment mode)
            how = f": sum {c} -> sector {d}" if d else (f": {MODES.get(c, c)}" if c else "")
            out.append(f"  {who} fires {cn(a)} ({side[b]}){how}")
        elif kind == L.EV_BUY:
            out.append(f"  {who} buys {cn(a)} with {c} credits (spends all)")
        elif kind == L.EV_ABILITY_BUY:
            out.append(f"  {who} buys {cn(a)} by ability, paying {b} of {c} credits")
        elif kind == L.EV_COLONY:
            out.append(f"  {who} buys {cols[a].id} (sector {b}, +{c} VP) with {d} credits")
        elif kind == L.EV_NOBUY:
            out.append(f"  {who} buys nothing, keeps {a} credits")
        elif kind == L.EV_CLAIM:
            out.append(f"  {who} claims {cn(a)} free")
        elif kind == L.EV_LOSE_VP:
            out.append(f"  seat {a} loses {b} VP (now {c}) by seat {p}")
        elif kind == L.EV_SWAP:
            out.append(f"  {who} swaps sectors {a} and {b}")
        elif kind == L.EV_EXCHANGE:
            out.append(f"  {who} exchanges {cn(a)} (sector {c}) with {cn(b)} (sector {d})")
        elif kind == L.EV_PLACE:
            out.append(f"  {who} places a charge on {cn(a)}")
        elif kind == L.EV_MOVE:
            out.append(f"  {who} moves a charge from {cn(a)} to {cn(b)}")
        elif kind == L.EV_FLOOR:
            out.append(f"  {who}: credits raised to income {a}")
        elif kind == L.EV_TRIGGER:
            out.append(f"** {who} reaches {a} VP in round {b}: the round is finished")
        elif kind == L.EV_TIE_ROUND:
            seats = [str(s) for s in range(scenario.players) if b >> s & 1]
            out.append(f"== tie round (round {a}) among seats {', '.join(seats)}")
        elif kind == L.EV_END:
            seats = [str(s) for s in range(scenario.players) if c >> s & 1]
            out.append(f"END after {b} rounds ({d} tie rounds): {END_REASONS.get(a, a)}; "
                       f"winner(s): seat {', '.join(seats)}")
        elif kind == L.EV_FINAL:
            out.append(f"  {who}: {a} VP, {b} credits, {c} income, {d} colonies")
        else:
            out.append(f"  event {kind}: {p} {a} {b} {c} {d}")
    return out


GAME = Spacebase()
