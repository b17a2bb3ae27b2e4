"""Scenario files: YAML (safe loader) -> validated, typed, hashed scenario.

A scenario holds everything that defines a run besides the seed and the number of games: the player
count, each seat's policy, the rules' parameters and the game's data (cards, boards). Games subclass
`ScenarioBase`; pydantic does the validation and `extra="forbid"` catches misspelt fields.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal, get_args, get_origin

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from .errors import UserError, arg


class Strict(BaseModel):
    """Base of every scenario section: unknown fields are errors, ints are not silently floats."""
    model_config = ConfigDict(extra="forbid", strict=False, validate_assignment=True)

    @field_validator("*", mode="before")
    @classmethod
    def _bools_are_true_or_false(cls, value, info: ValidationInfo):
        # pydantic's lax mode reads 1, "yes" or "on" as true: a yes/no rule takes only true or false
        annotation = cls.model_fields[info.field_name].annotation
        yes_no = annotation is bool or (get_origin(annotation) is Literal
                                        and all(isinstance(a, bool) for a in get_args(annotation)))
        if yes_no and not isinstance(value, bool):
            raise ValueError("must be true or false")
        return value


@dataclass(frozen=True)
class Weight:
    """One named number of a policy's judgement (a threshold, a value, a risk appetite). `default` is the
    policy as written, so a scenario that sets no weight plays exactly as before; [low, high] is both the
    legal range and the range `analyzer train` searches. integer: the policy reads it as a whole number.
    log: a scale factor whose range spans decades (0.01..10): train searches it evenly in its logarithm,
    so 0.01..0.1 gets as many candidates as 1..10."""
    name: str
    default: float
    low: float
    high: float
    doc: str
    integer: bool = False
    log: bool = False

    def __post_init__(self):
        if self.log and self.low <= 0:
            raise ValueError(f"weight {self.name}: a log-scaled range must lie above 0")


# the strong-play fields (weights, seat_weights, restrict, and search's rollout player): left out of a
# scenario's hash and YAML while empty, so every run made before they existed keeps its hash
PLAY_FIELDS = ("weights", "seat_weights", "restrict", "rollout_policy", "rollout_weights")

# The player that searches (analyzer/search.py), in every game that lists it in its POLICIES: its code is
# kernel.SEARCH + its seat, not its index. Its one weight is its budget.
SEARCH_POLICY = "search"


def search_weights(rollouts: int = 32, alpha: float = 0.01) -> dict[str, tuple[Weight, ...]]:
    """search's weights with a game's defaults: its budget, and how sure it must be to leave its rollout
    player's choice. alpha trades two costs that differ by game: a game of dozens of close decisions (Pig)
    loses more to switching on noise than it gains, one of few decisive ones (Simple Card) gains from a
    lenient test (docs/search.md measures both)."""
    return {SEARCH_POLICY: (
        Weight("rollouts", rollouts, 1, 4096, "games played out from each option of a decision, on average (the "
               "budget: rollouts x options per decision)", integer=True),
        Weight("alpha", alpha, 0.0, 1.0, "leave the rollout policy's own choice only for an option that did better in "
               "significantly more of the same worlds than worse (a one-sided sign test at this level); 1: plain "
               "flat Monte Carlo"),
    )}


SEARCH_DOCS = {SEARCH_POLICY: "plans every decision: plays each option out many times from worlds consistent with "
                              "what it has seen (the hidden cards re-dealt, its own dice), with `rollout_policy` after "
                              "it, and takes the option that won most (flat Monte Carlo, sequential halving)"}
TUNED_FILE = "tuned.yaml"  # scenarios/GAME/tuned.yaml: the game's tuned player (analyzer train writes it)


class ScenarioBase(Strict):
    game: str
    name: str = "custom"
    description: str = ""
    source: str = ""
    players: int
    policies: list[str]
    script: list[int] = Field([], description="scripted policy: the option index of each decision, in game order (tests)")
    # The designer's loop (analyzer.balance, analyzer.tune): bounds that `check` applies and the candidate
    # values `tune` searches. They define no game, so they stay out of the hash and of a run's metadata.
    balance: dict[str, Any] | None = Field(None, exclude=True, description="bounds on balance measures (analyzer check)")
    tune: dict[str, list] | None = Field(None, exclude=True, description="field -> candidate values (analyzer tune)")

    # Tuned and restricted play (docs/adding-a-game.md, "Weights and restrictions"). A game declares its
    # policies' weights in WEIGHTS and its restrictions in RESTRICTIONS; the kernel gets them per seat
    # from weight_rows() and restrict_masks().
    weights: dict[str, dict[str, float]] = Field(
        {}, description="policy -> weight -> value: that policy's judgement wherever it plays (e.g. from tuned.yaml)")
    seat_weights: dict[int, dict[str, float]] = Field(
        {}, description="seat -> weight -> value: one seat's own weights, over `weights` (analyzer train's candidate)")
    restrict: dict[int, list[str]] = Field(
        {}, description="seat -> restrictions: options that seat may never choose (unless none is left)")
    rollout_policy: str = Field(
        "", description="search: the policy every search seat plays in its rollouts ('' = the game's tuned player "
                        "of scenarios/GAME/tuned.yaml, else its ROLLOUT_POLICY), filled in when a seat searches")
    rollout_weights: dict[str, float] = Field({}, description="search: the rollout policy's weights")

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 6
    # every game's policies start with SHARED_POLICIES (random, scripted: analyzer.kernel), whose codes
    # are the same everywhere; a policy's code is its index here
    POLICIES: ClassVar[tuple[str, ...]] = ()
    POLICY_DOCS: ClassVar[dict[str, str]] = {}  # policy -> what it does, one line
    WEIGHTS: ClassVar[dict[str, tuple[Weight, ...]]] = {}  # policy -> its weights, in the kernel's order
    RESTRICTIONS: ClassVar[dict[str, str]] = {}  # restriction -> what the seat may never do; bit i = i-th
    ROLLOUT_POLICY: ClassVar[str] = ""  # search's rollout policy where the game has no tuned player: its best

    @model_validator(mode="before")
    @classmethod
    def _rollout_player(cls, data):
        """A scenario where a seat searches names its rollout player: the game's tuned player by default
        (its policy and weights from tuned.yaml), else ROLLOUT_POLICY; so its hash and a run's metadata
        say what the rollouts played, and an edit of tuned.yaml is never picked up silently."""
        if (isinstance(data, dict) and SEARCH_POLICY in (data.get("policies") or ())
                and not data.get("rollout_policy") and SEARCH_POLICY in cls.POLICIES):
            policy, weights = cls.ROLLOUT_POLICY, {}
            tuned = SCENARIOS_DIR / str(data.get("game", "")) / TUNED_FILE
            if tuned.is_file():
                t = read_yaml(tuned)
                policy, weights = t["policies"][0], t.get("weights", {}).get(t["policies"][0], {})
            data = {**data, "rollout_policy": policy, "rollout_weights": {**weights, **data.get("rollout_weights", {})}}
        return data

    @model_validator(mode="after")
    def _check_seats(self):
        if not self.MIN_PLAYERS <= self.players <= self.MAX_PLAYERS:
            raise ValueError(f"players must be {self.MIN_PLAYERS}..{self.MAX_PLAYERS}, got {self.players}")
        if len(self.policies) not in (1, self.players):
            raise ValueError(f"policies needs 1 entry or one per seat ({self.players}), got {len(self.policies)}")
        for p in self.policies:
            if p not in self.POLICIES:
                raise ValueError(f"unknown policy {p!r}; choose from {', '.join(self.POLICIES)}")
        return self

    @model_validator(mode="after")
    def _check_balance_and_tune(self):
        if self.balance is not None:
            from . import balance
            balance.check_block(self.balance, _measure_groups(self.game), self.game)
        for key, values in (self.tune or {}).items():
            # candidates are checked when `tune` plays them (before any game): an edit elsewhere in the
            # scenario, e.g. a shorter list, must not make the file unreadable
            if not values:
                raise ValueError(f"tune.{key}: give at least one candidate value")
        return self

    @model_validator(mode="after")
    def _check_play_fields(self):
        for policy, values in self.weights.items():
            if policy not in self.WEIGHTS:
                raise ValueError(f"weights.{policy}: {_no_weights(self, policy)}")
            _check_weights(self.WEIGHTS[policy], values, f"weights.{policy}")
        policies = self.seat_policies()
        for seat, values in self.seat_weights.items():
            if not 0 <= seat < self.players:
                raise ValueError(f"seat_weights.{seat}: no such seat (seats are 0..{self.players - 1})")
            if policies[seat] not in self.WEIGHTS:
                raise ValueError(f"seat_weights.{seat}: seat {seat} plays {policies[seat]!r}, "
                                 f"{_no_weights(self, policies[seat])}")
            _check_weights(self.WEIGHTS[policies[seat]], values, f"seat_weights.{seat}")
        if SEARCH_POLICY in policies:
            self._check_rollout_player()
        for seat, names in self.restrict.items():
            if not 0 <= seat < self.players:
                raise ValueError(f"restrict.{seat}: no such seat (seats are 0..{self.players - 1})")
            for name in names:
                if name not in self.RESTRICTIONS:
                    from .restrict import unknown
                    raise ValueError(f"restrict.{seat}: {unknown(name, self, self.game)}")
        return self

    def _check_rollout_player(self) -> None:
        players = [p for p in self.POLICIES if p not in ("scripted", SEARCH_POLICY)]
        if self.rollout_policy not in players:
            why = {SEARCH_POLICY: "search cannot be its own rollout policy",
                   "scripted": "scripted replays a test's script, it is not a player"}.get(
                self.rollout_policy, f"{self.game} has no policy {self.rollout_policy!r}")
            raise ValueError(f"rollout_policy: {why}; choose from {', '.join(players)}")
        if self.rollout_weights and self.rollout_policy not in self.WEIGHTS:
            raise ValueError(f"rollout_weights: {_no_weights(self, self.rollout_policy)}")
        if self.rollout_weights:
            _check_weights(self.WEIGHTS[self.rollout_policy], self.rollout_weights, "rollout_weights")

    def rollout_weights_of(self) -> dict[str, float]:
        """The weights a search seat's rollouts play with: the rollout policy's defaults, then rollout_weights."""
        return {**{w.name: w.default for w in self.WEIGHTS.get(self.rollout_policy, ())}, **self.rollout_weights}

    def weights_of(self, seat: int) -> dict[str, float]:
        """The weights seat `seat` plays with: its policy's defaults, then `weights`, then `seat_weights`."""
        policy = self.seat_policies()[seat]
        own = {w.name: w.default for w in self.WEIGHTS.get(policy, ())}
        return {**own, **self.weights.get(policy, {}), **self.seat_weights.get(seat, {})}

    def weight_rows(self) -> np.ndarray:
        """The kernel's weights: float64[P, W], row p = seat p's weights in its policy's WEIGHTS order
        (zeros past them, and for a policy without weights); W >= 1 so the array always has a column."""
        width = max([len(ws) for ws in self.WEIGHTS.values()] + [1])
        rows = np.zeros((self.players, width), np.float64)
        for seat, policy in enumerate(self.seat_policies()):
            # the kernel never reads search's own weights (its budget is search.py's): past its branch a
            # search seat plays the rollout policy, with the rollout policy's weights
            weights = self.rollout_weights_of() if policy == SEARCH_POLICY else self.weights_of(seat)
            rows[seat, : len(weights)] = list(weights.values())
        return rows

    def restrict_masks(self) -> np.ndarray:
        """The kernel's restrictions: int64[P], bit i of entry p set when seat p plays under the i-th
        RESTRICTIONS entry (0: unrestricted, and the kernel must then play exactly as it did before)."""
        names = list(self.RESTRICTIONS)
        masks = np.zeros(self.players, np.int64)
        for seat, chosen in self.restrict.items():
            for name in chosen:
                masks[seat] |= np.int64(1) << np.int64(names.index(name))
        return masks

    def seat_policies(self) -> list[str]:
        """One policy name per seat (a single entry applies to every seat)."""
        return self.policies * self.players if len(self.policies) == 1 else list(self.policies)

    def policy_codes(self) -> np.ndarray:
        """Each seat's policy code for the kernel: its index in POLICIES (random 0, scripted 1, ...); a
        search seat's is kernel.SEARCH + its seat."""
        from .kernel import SEARCH
        return np.array([SEARCH + seat if p == SEARCH_POLICY else self.POLICIES.index(p)
                         for seat, p in enumerate(self.seat_policies())], np.int64)

    def search_seats(self) -> list[int]:
        return [seat for seat, p in enumerate(self.seat_policies()) if p == SEARCH_POLICY]

    def script_codes(self) -> np.ndarray:
        """The scripted policy's option indices, for the kernel."""
        return np.array(self.script, np.int64)

    def per_seat(self, values: list) -> list:
        """A setting given once for every seat or once per seat, as one value per seat."""
        return values * self.players if len(values) == 1 else list(values)

    def estimated(self) -> list[str]:
        """Names of data items that are estimates, not the published game (listed in every report)."""
        return []

    def dump(self) -> dict:
        """The scenario as YAML values, without the strong-play fields while they are empty (PLAY_FIELDS)."""
        data = self.model_dump(mode="json")
        return {k: v for k, v in data.items() if not (k in PLAY_FIELDS and not v)}

    def content_hash(self) -> str:
        blob = json.dumps(self.dump(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.dump(), sort_keys=False, allow_unicode=True)


def _no_weights(scenario: ScenarioBase, policy: str) -> str:
    tunable = ", ".join(scenario.WEIGHTS) or "none"
    return f"policy {policy!r} has no weights in {scenario.game} (policies with weights: {tunable})"


def _check_weights(declared: tuple[Weight, ...], values: dict[str, float], where: str) -> None:
    by_name = {w.name: w for w in declared}
    for name, value in values.items():
        w = by_name.get(name)
        if w is None:
            raise ValueError(f"{where}.{name}: unknown weight; this policy's weights are {', '.join(by_name)}")
        if isinstance(value, bool) or not math.isfinite(value) or not w.low <= value <= w.high:
            raise ValueError(f"{where}.{name}: {value:g} is outside its range [{w.low:g}, {w.high:g}]")
        if w.integer and value != int(value):
            raise ValueError(f"{where}.{name}: must be a whole number, got {value!r}")


def _measure_groups(game: str) -> dict[str, str]:
    """The measure groups a game's balance bounds may name (the common ones for a game outside the registry)."""
    from . import games
    from .measures import COMMON_GROUPS
    return games.get(game).measure_groups() if game in games.names() else COMMON_GROUPS


def differences(old, new, prefix: str) -> list[str]:
    """Where `new` differs from `old` (nested dicts and lists of YAML values), as 'dotted.key=value'."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [d for k in new for d in differences(old.get(k), new[k], f"{prefix}.{k}")]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [d for i, (a, b) in enumerate(zip(old, new, strict=True)) for d in differences(a, b, f"{prefix}.{i}")]
    if old == new:
        return []
    return [f"{prefix}={json.dumps(new)}"]


_TREE = Path(__file__).resolve().parents[1]
# a source checkout's scenarios/; an installed wheel carries them inside the package (analyzer/_scenarios)
SCENARIOS_DIR = _TREE / "scenarios" if (_TREE / "pyproject.toml").is_file() else _TREE / "analyzer" / "_scenarios"

# libyaml's safe loader when present: the pure-Python one took 0.6 s for a 56-card scenario, at every start
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class UniqueKeyLoader(SAFE_LOADER):
    """The safe loader, refusing a key given twice in one mapping: plain YAML keeps the last one, so a
    forgotten earlier line would silently lose to a later one."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<: *base` then a field of its own is how YAML shares a block, not a duplicate
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, Hashable):
                continue  # the safe constructor refuses it below
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


# YAML 1.1 reads yes/no/on/off as booleans; here, as in YAML 1.2, only true and false are, and a yes/no
# rule given `yes` or `1` is refused (Strict) instead of guessed
BOOL_TAG = "tag:yaml.org,2002:bool"
UniqueKeyLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != BOOL_TAG]
    for first, resolvers in SAFE_LOADER.yaml_implicit_resolvers.items()}
UniqueKeyLoader.add_implicit_resolver(BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def load_yaml_text(text: str):
    """YAML text -> Python values (safe types only, duplicate keys refused)."""
    return yaml.load(text, Loader=UniqueKeyLoader)


def read_yaml(path: Path) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not a YAML text file (byte {e.start} is not UTF-8)") from None
    except FileNotFoundError:
        raise UserError(f"{path}: no such scenario file") from None
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror}") from None
    try:
        data = load_yaml_text(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise UserError(f"{path}: invalid YAML{where}: {_yaml_problem(e)}") from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: a scenario must be a YAML mapping of fields, got {type(data).__name__}")
    return data


def _yaml_problem(e: yaml.YAMLError) -> str:
    return getattr(e, "problem", None) or str(e).splitlines()[0]


def parse_override(text: str) -> tuple[str, Any]:
    """'rules.play_drawn_card=true' -> ('rules.play_drawn_card', True); the value is read as YAML."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise UserError(f"{arg('set', repr(text))}: expected KEY=VALUE, e.g. rules.match_limit=300")
    try:
        value = load_yaml_text(raw) if raw.strip() else ""
    except yaml.YAMLError as e:
        raise UserError(f"{arg('set', repr(text))}: the value is not valid YAML ({_yaml_problem(e)})") from None
    return key.strip(), value


def apply_override(data: dict, key: str, value: Any) -> None:
    """Set a dotted path in nested dicts/lists; list items are addressed by index (bonus.2.credits)."""
    parts = key.split(".")
    node: Any = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        where = ".".join(parts[: i + 1])
        if isinstance(node, list):
            if not part.lstrip("-").isdigit() or not -len(node) <= int(part) < len(node):
                raise UserError(f"{arg('set', key)}: {where} is not an index of a list of {len(node)}")
            idx = int(part)
            if last:
                node[idx] = value
            else:
                node = node[idx]
        elif isinstance(node, dict):
            if last:
                node[part] = value
            else:
                node = node.setdefault(part, {})
        else:
            raise UserError(f"{arg('set', key)}: {'.'.join(parts[:i])} is a value, not a section")


def validate(schema: type[ScenarioBase], data: dict, origin: str) -> ScenarioBase:
    """Validate data against a game's schema; the first problem becomes a one-line UserError."""
    try:
        return schema.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"]) or "(top level)"
        msg = err["msg"].removeprefix("Value error, ")
        got = ""
        if err["type"] not in ("missing", "extra_forbidden") and not isinstance(err.get("input"), (dict, list)):
            got = f" (got {err.get('input')!r})"
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        more = f" [+{e.error_count() - 1} more]" if e.error_count() > 1 else ""
        where = "" if not err["loc"] and msg.startswith(("balance.", "tune.", *(f"{f}." for f in PLAY_FIELDS))) else f"{loc}: "  # they name their field
        raise UserError(f"{origin}: {where}{msg}{got}{more}") from None


def _check_flags(schema: type[ScenarioBase], data: dict, players: int | None, policies: list[str] | None) -> None:
    """Errors in --players/--policy (players=, policy=) name the argument, not the scenario file they override."""
    if players is not None and not schema.MIN_PLAYERS <= players <= schema.MAX_PLAYERS:
        raise UserError(f"{arg('players', str(players))}: players must be {schema.MIN_PLAYERS}..{schema.MAX_PLAYERS}")
    seats = players if players is not None else data.get("players")
    if policies:
        flag = arg("policy", ",".join(policies))
        for p in policies:
            if p not in schema.POLICIES:
                raise UserError(f"{flag}: unknown policy {p!r}; choose from {', '.join(schema.POLICIES)}")
        if isinstance(seats, int) and len(policies) not in (1, seats):
            raise UserError(f"{flag}: give one policy for every seat or one per seat ({seats}), not {len(policies)}")
    elif players is not None and len(data.get("policies") or ()) not in (1, players):
        raise UserError(f"{arg('players', str(players))}: the scenario names {len(data['policies'])} seat policies; "
                        f"add --policy with one policy or {players}")


def load(game, path: str | Path | None = None, sets: tuple[str, ...] | list[str] = (),
         players: int | None = None, policies: list[str] | None = None, restrict=None) -> ScenarioBase:
    """Read a scenario of `game` (its default.yaml when path is None), apply `--set KEY=VALUE`
    overrides, then the --players/--policy/--restrict shortcuts, and validate."""
    path = Path(path) if path is not None else game.default_scenario
    data = read_yaml(path)
    if data.get("game", game.name) != game.name:
        raise UserError(f"{path}: game: this scenario is for {data.get('game')!r}, not {game.name!r}")
    data.setdefault("game", game.name)
    overrides = [parse_override(text) for text in sets]
    for key, value in overrides:
        if [k for k, _ in overrides].count(key) > 1:  # like a duplicate YAML key: which one was meant?
            raise UserError(f"{arg('set', key)}: given more than once")
        apply_override(data, key, value)
    _check_flags(game.Scenario, data, players, policies)
    if players is not None:
        data["players"] = players
    if policies:
        data["policies"] = list(policies)
    if restrict and isinstance(data.get("players"), int):  # a missing or bad player count: validate says so
        from . import restrict as rs
        data["restrict"] = rs.parse(restrict, game.Scenario, data["players"], game.name)
    origin = str(path) + (" with --set" if sets else "") if (sets or players or policies or restrict) else str(path)
    return validate(game.Scenario, data, origin)
