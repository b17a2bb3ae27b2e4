"""What a game plugs into the framework. Nothing outside analyzer/games/<game>/ knows a game's rules.

A game declares (docs/adding-a-game.md, with Pig as the example):
- `Scenario`: its pydantic schema (a ScenarioBase subclass) and `scenarios/<game>/default.yaml`;
- `COLUMNS`: its result columns (analyzer.kernel.Columns), from which every output is allocated;
- `kernel` and `kernel_inputs`: the compiled entry point, called as
  `kernel(seed, ids, *kernel_inputs(scenario), *outputs.args())`, which only fills the outputs;
- `EVENTS` (or `events(scenario)`): its trace event table, from which `describe` is generated;
- `report`: the balance report built from the results table.
`run_batch` is written once, here.
"""
from __future__ import annotations

import contextlib
import inspect
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import (
    compile_cache,  # (first: every game imports base before its kernels; see compile_cache)
    search,
)
from ..kernel import E_SEARCHED, Columns, Event, decode, new_ctl
from ..scenario import SCENARIOS_DIR, SEARCH_POLICY, ScenarioBase


@dataclass
class Batch:
    """Output of one kernel call over n games with P seats.

    Required columns: `is_winner` (n, P) bool (no winner = a draw), `score` (n, P) numbers, `length`
    (n,) ints. `first_player` (n,): the seat that moved first (None: seat 0 in every game).
    `extra`: the game's own columns, each (n,), (n, P) or (n, P, K); documented in `Game.columns`.
    `events`: trace records of the single traced game (trace=True only); `events_dropped`: records
    past the trace cap (counted, not kept: the replay says it is incomplete).
    """
    is_winner: np.ndarray
    score: np.ndarray
    length: np.ndarray
    extra: dict[str, np.ndarray] = field(default_factory=dict)
    events: np.ndarray | None = None
    first_player: np.ndarray | None = None
    events_dropped: int = 0
    searched: list | None = None  # the traced game's search decisions (analyzer.search.Searched), in order


class Game(ABC):
    name: str
    title: str
    Scenario: type[ScenarioBase]
    length_unit: str  # what `length` counts, e.g. "hands" or "rounds"
    COLUMNS: Columns
    TRACE_CAP = 100_000  # trace records kept of a replayed game; past it they are counted
    EVENTS: dict[int, Event] = {}  # trace record kind -> how it reads (or override `events`)

    @staticmethod
    def kernel(seed, ids, *args):
        """The compiled entry point: plays games `ids` of run `seed` into the outputs at the end of args."""
        raise NotImplementedError

    @staticmethod
    def kernel_inputs(scenario) -> tuple:
        """The scenario as the kernel's inputs (numpy arrays and numbers), in the kernel's order."""
        raise NotImplementedError

    @property
    def columns(self) -> dict[str, str]:
        """The game's own result columns -> their shape and meaning (from COLUMNS)."""
        return self.COLUMNS.extra_doc()
    # True once the kernel entry that run_batch calls is compiled with nogil=True: the runner then plays
    # the chunks on threads of one process (its default); while a kernel holds the GIL, threads would
    # take turns, so local runs use worker processes (loky) instead
    kernel_releases_gil: bool = False
    # True once the game's kernel takes the control table (kernel.A_*) after `ids` and its decide heads are
    # kernel.ask_policy: it then offers the `search` policy (analyzer/search.py)
    searchable: bool = False
    search_plan = search.SearchPlan()  # what its report plays under search (analyzer/search_report.py)

    @property
    def policies(self) -> tuple[str, ...]:
        return self.Scenario.POLICIES

    @property
    def playing_policies(self) -> tuple[str, ...]:
        """The scripted players, which play by themselves at the kernel's speed: all but `scripted`, which
        replays a test's script, and `search`, which plans each decision by playing the game out
        (analyzer/search.py) and which a report plays in a section of its own."""
        return tuple(p for p in self.Scenario.POLICIES if p not in ("scripted", SEARCH_POLICY))

    @property
    def scenario_dir(self) -> Path:
        return SCENARIOS_DIR / self.name

    @property
    def default_scenario(self) -> Path:
        return self.scenario_dir / "default.yaml"

    def scenario_files(self) -> list[Path]:
        return sorted(self.scenario_dir.glob("*.yaml"))

    def run_batch(self, scenario: ScenarioBase, seed: int, game_ids: np.ndarray, trace: bool = False) -> Batch:
        """Play the games `game_ids` of run `seed` (checked where the user gave it: errors.check_run). Each game
        uses only rng.new_stream(seed, game_id)."""
        ids = np.ascontiguousarray(game_ids, dtype=np.int64)
        out = self.COLUMNS.outputs(len(ids), scenario, self.TRACE_CAP if trace else 0)
        searched = None
        if len(ids):
            inputs = self.kernel_inputs(scenario)
            if not self.searchable:
                self.kernel(np.int64(seed), ids, *inputs, *out.args())
            else:
                # with a search seat, its decisions are made first (search.plan); this run replays them
                planned = search.plan(self, scenario, seed, ids, inputs) if scenario.search_seats() else None
                self.kernel(np.int64(seed), ids, planned.ctl if planned else new_ctl(len(ids)), *inputs, *out.args())
                searched = planned.searched[0] if planned and trace else None
        cols = self.COLUMNS.named(out)
        score, wins, length = cols.pop("score"), cols.pop("is_winner"), cols.pop("length")
        return Batch(is_winner=wins.astype(bool), score=score, length=length, first_player=out.first, extra=cols,
                     events=out.events() if trace else None, events_dropped=int(out.tn[1]), searched=searched)

    def events(self, scenario: ScenarioBase) -> dict[int, Event]:
        """The trace event table; a game whose records name scenario data (cards, decks) builds it here."""
        return self.EVENTS

    def describe(self, scenario: ScenarioBase, events: np.ndarray, searched: list | None = None) -> list[str]:
        """Turn one game's trace events into readable lines, move by move; with `searched` (Batch.searched),
        each search decision's options with their estimated values and rollouts."""
        table = self.events(scenario)
        if searched is not None:
            table = {**table, E_SEARCHED: Event("{a}", fields={"a": lambda d: search.describe(searched[d], d)})}
        return decode(events, table)

    @abstractmethod
    def report(self, df, meta: dict, out: Path) -> "list":
        """Write the game's report sections (see analyzer.reporting) for results `df` into `out`."""

    def seat_roles(self, scenario: ScenarioBase, row: dict) -> list[str]:
        """What each seat plays besides its policy (an alien, a deck...), from the game's results row;
        empty where the game gives seats no role."""
        return [""] * scenario.players

    def who_is_who(self, scenario: ScenarioBase, row: dict) -> list[str]:
        """The lines every replay starts with: per seat its policy, its role and who moves first."""
        roles = self.seat_roles(scenario, row)
        return [f"seat {s}: {policy}" + _own_weights(scenario, s) + (f", {role}" if role else "")
                + (f", restricted: {', '.join(scenario.restrict[s])}" if scenario.restrict.get(s) else "")
                + (", moves first" if s == row["first_player"] else "")
                for s, (policy, role) in enumerate(zip(scenario.seat_policies(), roles, strict=True))]

    def measure_groups(self) -> dict[str, str]:
        """Balance measure groups (what a `balance:` bound may name) -> meaning: the common ones, then
        the game's own (`GROUPS` in analyzer/games/<game>/measures.py, where it has that module)."""
        from .. import measures
        own = self._measures_module()
        return {**measures.COMMON_GROUPS, **(own.GROUPS if own else {})}

    def measures(self, df, scenario: ScenarioBase) -> list:
        """The balance measures (analyzer.measures.Measure) of results `df` played from `scenario`."""
        from .. import measures
        own = self._measures_module()
        return measures.common(df) + (own.measures(df, scenario) if own else [])

    def _measures_module(self):
        return self._own_module("measures")

    def views(self):
        """The game's view check (analyzer/games/<game>/views.py; None without one), which the contract
        (tests/test_contract.py) runs for every policy: from a seeded position, every decision of every
        seat, the information hidden from them re-dealt, and the decisions again. The module declares
        `position(scenario, seed)`: a position of the scenario's game; `decisions(position)`: every decision
        its deciding seats' policies make there, as comparable values (the position left as found);
        `hidden(position)`: what no deciding seat may see, as an array; `redeal(position, rng)`: that
        information re-dealt in place, consistently with every seat's view (numpy Generator `rng`); and
        `UNCHECKED`: policy -> why its decisions may follow the re-dealt information (random drawing from
        the stream it re-deals)."""
        return self._own_module("views")

    def _own_module(self, name: str):
        import importlib
        import importlib.util
        try:
            found = importlib.util.find_spec(f"analyzer.games.{self.name}.{name}")
        except ModuleNotFoundError:  # a game outside analyzer/games (the tests' toy)
            found = None
        return importlib.import_module(found.name) if found else None

    def warm_up(self, scenario: ScenarioBase) -> None:
        """Compile (or load from cache) the kernel by playing one game; a cold compile with the cycle
        collector eased (compile_cache.collector_relaxed), a cache load as it is."""
        cold = not compile_cache.is_warm(Path(inspect.getfile(type(self))).parent)
        with compile_cache.collector_relaxed() if cold else contextlib.nullcontext():
            self.run_batch(scenario, 0, np.zeros(1, np.int64))


def view_redeals(views, scenario: ScenarioBase, seeds, rng: np.random.Generator) -> list[tuple[bool, bool]]:
    """The view check (Game.views) at each seed: (what no deciding seat may see changed, some decision
    changed) after the hidden information is re-dealt. The contract wants (True, False) everywhere; a test
    that makes a policy peek wants a change somewhere."""
    out = []
    for seed in seeds:
        pos = views.position(scenario, seed)
        before, hidden = views.decisions(pos), views.hidden(pos)
        assert before, "views.decisions gave no decision"
        views.redeal(pos, rng)
        out.append((not np.array_equal(views.hidden(pos), hidden), views.decisions(pos) != before))
    return out


def _own_weights(scenario: ScenarioBase, seat: int) -> str:
    """' (weights a=1, b=2)' where the seat's weights differ from its policy's defaults, else ''."""
    defaults = {w.name: w.default for w in scenario.WEIGHTS.get(scenario.seat_policies()[seat], ())}
    changed = {k: v for k, v in scenario.weights_of(seat).items() if v != defaults[k]}
    return f" (weights {', '.join(f'{k}={v:g}' for k, v in changed.items())})" if changed else ""
