"""Space Base (AEG 2018): dice engine-building for 2-5 players.

Rules: engine.py (the compiled rulebook, one kernel), decisions.py (every decision and how its options
are written), charge.py (charge-square rules the policies read too), view.py (what a deciding seat
sees), policies.py (numba policies: an option index from the view), scenario.py (YAML schema and its
number arrays), layout.py (array columns, card fields F.* and trace record kinds E_*), state.py (one
game's whole state, a flat int64 vector by name, and the packs the kernel reads it through). The
trace reads by `event_table` below.
"""
from __future__ import annotations

from ...kernel import Event
from ..base import Game
from . import columns as C
from . import engine as E
from . import layout as L
from .scenario import SpacebaseScenario, card_list, kernel_inputs

END_REASONS = {L.END_VP: "trigger VP reached (most VP wins, ties broken by tie rounds)",
               L.END_YOU_WIN: "a 'You Win' card fired",
               L.END_SHARED: "still tied after tie_rounds_cap tie rounds: the win is shared",
               L.END_MAX_ROUNDS: "safety stop at rules.max_rounds (most VP wins, ties shared)"}

MODES = {L.M_FACES: "two faces", L.M_SUM: "the sum", L.M_DOUBLE_SUM: "the sum twice (2X)",
         L.M_DOUBLE_D1: "two faces, the first twice (2X)", L.M_DOUBLE_D2: "two faces, the second twice (2X)"}
SIDES = {L.BLUE: "blue", L.RED: "red"}


class Spacebase(Game):
    name = "spacebase"
    title = "Space Base"
    Scenario = SpacebaseScenario
    length_unit = "rounds"
    COLUMNS = C.COLUMNS
    kernel = staticmethod(E.play)
    kernel_releases_gil = True  # engine.play is compiled with nogil=True
    searchable = True  # engine.play takes the control table; decide's head is kernel.ask_policy
    TRACE_CAP = 200_000

    def __init__(self):
        self._cache: tuple | None = None

    def __getstate__(self):  # the cached kernel arrays (a numba structref) are rebuilt in workers
        return {}

    def __setstate__(self, state):
        self._cache = None

    def inputs(self, scenario):
        """The kernel's Data of a scenario (memoised on its content hash: building it walks every card)."""
        h = (scenario.content_hash(), scenario.players, tuple(scenario.seat_policies()))
        if self._cache is None or self._cache[0] != h:
            self._cache = (h, kernel_inputs(scenario))
        return self._cache[1]

    def kernel_inputs(self, scenario) -> tuple:
        return (self.inputs(scenario),)

    def events(self, scenario) -> dict[int, Event]:
        return event_table(scenario)

    def report(self, df, meta, out):
        from .report import write_report
        return write_report(self, df, meta, out)


def event_table(scenario) -> dict[int, Event]:
    """How each trace record (kind, seat, a, b, c, d) of a game of `scenario` reads: card numbers
    become their names, colony numbers their ids, seat masks seat lists."""
    cards = card_list(scenario)
    colonies = scenario.cards.colonies

    def card(k):
        if k < 0:
            return "-"
        c = cards[k]
        lvl = getattr(c, "level", 0)
        nm = f" {c.name}" if getattr(c, "name", "") else ""
        return f"{c.id}{nm} (L{lvl} s{c.sector}, cost {getattr(c, 'cost', 0)})" if lvl else f"{c.id}"

    def seats(mask):
        return ", ".join(str(s) for s in range(scenario.players) if mask >> s & 1)

    def fixed(mask):  # the dice a set-die charge fixed before the roll
        dice = " ".join(f"die {i + 1}" for i in range(2) if mask >> i & 1)
        return f" ({dice} set before the roll)" if mask else ""

    who = "seat {seat}"
    sided = {"a": card, "d": SIDES.get}
    assign = {m: f"  {who} takes {how}: " + ("sector {d}" if m in (L.M_SUM, L.M_DOUBLE_SUM) else "sectors {b} and {c}")
              for m, how in MODES.items()}
    fire = {0: f"  {who} fires {{a}} ({{b}})", "arrow": f"  {who} fires {{a}} ({{b}}): sum {{c}} -> sector {{d}}",
            **{m: f"  {who} fires {{a}} ({{b}}): {how}" for m, how in MODES.items() if m != L.M_FACES}}
    return {
        L.E_REFILL: Event("  display L{a} slot {b}: {c}", {"c": card}),
        L.E_START: Event(f"start player: {who} moves first{{a}}", {"a": lambda t: " (tie broken at random)" if t else ""}),
        L.E_OPENING: Event(f"{who}: opening ship {{a}}, paid {{c}}", {"a": card}),
        L.E_LS_BUY: Event(f"{who}: light-speed buy {{a}}, paid {{c}}", {"a": card}),
        L.E_BONUS: Event(f"{who}: turn-order bonus +{{a}} credits +{{b}} income -> {{c}} credits, {{d}} income"),
        L.E_TURN: Event(f"== round {{a}}, {who}'s turn ({{b}} credits, {{c}} income, {{d}} VP)"),
        L.E_SET_DIE: Event(f"  {who} sets die {{b}} to {{c}} with {{a}} ({{d}})", {**sided, "b": lambda i: i + 1}),
        L.E_ROLL: Event("  roll: {a} and {b}{c}", {"c": fixed}),
        L.E_REROLL: Event(f"  {who} rerolls die {{b}} -> {{c}} with {{a}} ({{d}})", {**sided, "b": lambda i: i + 1}),
        L.E_ASSIGN: Event(assign, by="a"),
        L.E_GAIN: Event({True: f"    {who} gains {{a}} credits, {{b}} income, {{c}} VP", False: None},
                         by=lambda r: (r["a"], r["b"], r["c"]) != (0, 0, 0)),
        L.E_CHARGE: Event(f"    {who}: charge cube on {{a}} ({{d}}) -> {{b}}{{c}}",
                           {**sided, "c": lambda n: f", +{n} credits" if n else ""}),
        L.E_FIRE: Event(fire, {"a": card, "b": SIDES.get}, by=lambda r: "arrow" if r["d"] else r["c"]),
        L.E_BUY: Event(f"  {who} buys {{a}} with {{c}} credits (spends all)", {"a": card}),
        L.E_ABILITY_BUY: Event(f"  {who} buys {{a}} by ability, paying {{b}} of {{c}} credits", {"a": card}),
        L.E_COLONY: Event(f"  {who} buys {{a}} (sector {{b}}, +{{c}} VP) with {{d}} credits",
                           {"a": lambda q: colonies[q].id}),
        L.E_NOBUY: Event(f"  {who} buys nothing, keeps {{a}} credits"),
        L.E_CLAIM: Event(f"  {who} claims {{a}} free", {"a": card}),
        L.E_LOSE_VP: Event("  seat {a} loses {b} VP (now {c}) by seat {seat}"),
        L.E_SWAP: Event(f"  {who} swaps sectors {{a}} and {{b}}"),
        L.E_EXCHANGE: Event(f"  {who} exchanges {{a}} (sector {{c}}) with {{b}} (sector {{d}})", {"a": card, "b": card}),
        L.E_PLACE: Event(f"  {who} places a charge on {{a}}", {"a": card}),
        L.E_MOVE: Event(f"  {who} moves a charge from {{a}} to {{b}}", {"a": card, "b": card}),
        L.E_FLOOR: Event(f"  {who}: credits raised to income {{a}}"),
        L.E_TRIGGER: Event(f"** {who} reaches {{a}} VP in round {{b}}: the round is finished"),
        L.E_TIE_ROUND: Event("== tie round (round {a}) among seats {b}", {"b": seats}),
        L.E_END: Event("END after {b} rounds ({d} tie rounds): {a}; winner(s): seat {c}",
                        {"a": lambda r: END_REASONS.get(r, r), "c": seats}),
        L.E_FINAL: Event(f"  {who}: {{a}} VP, {{b}} credits, {{c}} income, {{d}} colonies"),
    }


GAME = Spacebase()
