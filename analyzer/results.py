"""The results table: one row per game, written to parquet with the run's metadata.

Common columns (every game): game_id, seed, scenario_hash, n_players, policy (per seat), first_player
(the seat that moved first), outcome (win, shared or draw), winner (seat, -1 unless one seat won),
is_winner (per seat), score (per seat), length. A seat is a player's identity (its policy, faction...);
its turn position is data: position 1 is `first_player`, position 2 the seat after it, and so on.
Per-seat columns are lists indexed by seat; per-seat, per-kind columns are lists of lists ([seat][kind]).
A game's own columns follow (see `analyzer games --describe GAME`).
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

from .errors import UserError, arg

META_KEY = "analyzer"
COMMON_COLUMNS = {
    "game_id": "the game's id in the run (with the seed it fixes the game's random stream)",
    "seed": "the run's seed",
    "scenario_hash": "hash of the validated scenario",
    "n_players": "number of seats",
    "policy": "policy per seat",
    "first_player": "the seat that moved first (turn position 1)",
    "outcome": "win (one seat won), shared (several seats share the win) or draw (nobody won, e.g. a capped game)",
    "winner": "the winning seat when outcome is win, else -1",
    "is_winner": "per seat: won or shared the win",
    "score": "per seat: final score",
    "length": "game length (unit per game)",
}


OUTCOMES = ("win", "shared", "draw")


def _column(name: str, values: np.ndarray) -> pl.Series:
    if values.ndim == 1:
        return pl.Series(name, values)
    # (n, seats[, kinds]) -> (nested) lists per row; they read back unchanged in pandas and duckdb
    inner = pl.from_numpy(values.reshape(-1)[:1]).dtypes[0]
    for _ in range(values.ndim - 1):
        inner = pl.List(inner)
    return pl.Series(name, values).cast(inner)


def outcome_codes(is_winner: np.ndarray) -> np.ndarray:
    """0 win, 1 shared, 2 draw (indices into OUTCOMES) from the (n, P) winners matrix."""
    count = is_winner.sum(axis=1)
    return np.where(count == 1, 0, np.where(count > 1, 1, 2)).astype(np.int8)


def _constant(name: str, value, n: int, dtype) -> pl.Series:
    # one value repeated in Rust: building n Python lists for `policy` cost more than some kernels
    return pl.Series(name, [value], dtype=dtype).new_from_index(0, n)


def to_frame(batch, game_ids: np.ndarray, seed: int, scenario) -> pl.DataFrame:
    n = len(game_ids)
    wins = batch.is_winner.astype(bool)
    outcome = outcome_codes(wins)
    winner = np.where(outcome == 0, wins.argmax(axis=1), -1).astype(np.int8)
    first = np.zeros(n, np.int8) if batch.first_player is None else batch.first_player.astype(np.int8)
    seats = scenario.seat_policies()
    cols = [
        pl.Series("game_id", game_ids.astype(np.int64)),
        pl.Series("seed", np.full(n, seed, np.int64)),
        _constant("scenario_hash", scenario.content_hash(), n, pl.Categorical),
        pl.Series("n_players", np.full(n, scenario.players, np.int8)),
        _constant("policy", seats, n, pl.List(pl.Categorical)),
        pl.Series("first_player", first),
        pl.Series("outcome", outcome).replace_strict(dict(enumerate(OUTCOMES)), return_dtype=pl.Enum(OUTCOMES)),
        pl.Series("winner", winner),
        _column("is_winner", wins),
        _column("score", batch.score),
        pl.Series("length", batch.length),
    ]
    cols += [_column(k, v) for k, v in batch.extra.items()]
    return pl.DataFrame(cols)


def matrix(df, col: str) -> np.ndarray:
    """A list column of equal-length lists (per seat, per card) as an (n, k) numpy array, without
    going through Python objects (a million rows of 132 cards would otherwise take minutes)."""
    flat = df[col].explode().to_numpy()
    return flat.reshape(df.height, -1) if df.height else np.zeros((0, 0), flat.dtype)


def by_position(df, col: str) -> np.ndarray:
    """A per-seat column as (n, P) with columns in turn order: [:, 0] is the first player's value."""
    values = matrix(df, col)
    seats = values.shape[1]
    order = (df["first_player"].to_numpy()[:, None] + np.arange(seats)) % seats
    return np.take_along_axis(values, order, axis=1)


def position_summary(path: Path, players: int) -> tuple[int, list[float], float]:
    """(games, win rate by turn position, mean length) of a results file, streamed: memory stays flat
    at any n (a 1e7-game file read whole for this would take gigabytes)."""
    first = pl.col("first_player").cast(pl.Int64)
    rates = [pl.col("is_winner").list.get((first + k) % players).cast(pl.Float64).mean().alias(f"p{k}")
             for k in range(players)]
    row = pl.scan_parquet(path).select(pl.len().alias("n"), *rates, pl.col("length").mean()).collect(
        engine="streaming").row(0)
    return row[0], list(row[1:-1]), row[-1]


def check_writable(out: Path, replace: bool = True) -> None:
    """Fail before simulating if `out` can't be written (nothing is created here), is not a .parquet
    name (the only format written), or, unless `replace`, already exists."""
    out = Path(out)
    if out.is_dir():
        raise UserError(f"{arg('out', str(out))}: is a directory; give a file name such as {out}/results.parquet")
    if out.suffix != ".parquet":
        raise UserError(f"{arg('out', str(out))}: results are written as parquet only; name the file {out.with_suffix('.parquet')}")
    if out.exists() and not replace:
        raise UserError(f"{arg('out', str(out))}: already exists; add --force to replace it")
    check_can_create(out)


def check_can_create(out: Path) -> None:
    """Fail before any work if the file `out` could not be written: the nearest existing folder above it
    must take a new file (nothing is created here), and an existing `out` must be writable."""
    out = Path(out)
    parent = out.parent
    while not parent.exists():
        parent = parent.parent
    try:  # permission bits don't tell root the truth (e.g. /proc): try a throw-away file
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError:
        raise UserError(f"{arg('out', str(out))}: cannot write into {parent}") from None
    if out.exists() and not os.access(out, os.W_OK):
        raise UserError(f"{arg('out', str(out))}: file is not writable")


def check_report_dir(out: Path) -> None:
    """Fail before a report's comparison runs (minutes) if its folder can't be written."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"{arg('out', str(out))}: is a file; a report needs a folder")
    folder = out
    while not folder.exists():
        folder = folder.parent
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError:
        raise UserError(f"{arg('out', str(out))}: cannot write into {folder}") from None


@contextlib.contextmanager
def atomic_path(out: Path):
    """A temporary name beside `out` to write to; renamed to `out` on success, so readers never see
    half a file."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    try:
        yield tmp
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)


def write_atomic(df: pl.DataFrame | pl.LazyFrame, out: Path, meta: dict | None = None) -> None:
    """Write a table (a LazyFrame is streamed: a run's parts are never all in memory at once)."""
    metadata = {META_KEY: json.dumps(meta)} if meta else None
    with atomic_path(out) as tmp:
        if isinstance(df, pl.LazyFrame):
            df.sink_parquet(tmp, metadata=metadata)
        else:
            df.write_parquet(tmp, metadata=metadata)


def read_meta(path: str | Path) -> dict:
    """A results file's run metadata (scenario, seed, n, command, versions, timings)."""
    path = _existing(path)
    try:
        raw = pl.read_parquet_metadata(path).get(META_KEY)
    except Exception as e:  # polars raises several error types for non-parquet input
        raise UserError(f"{path}: not a readable parquet results file ({type(e).__name__})") from None
    return json.loads(raw) if raw else {}


def run_meta(path: str | Path, game: str) -> dict:
    """A results file's run metadata, checked to be an `analyzer sim` run of `game`."""
    meta = read_meta(path)
    if "scenario" not in meta:
        raise UserError(f"{path}: no analyzer run metadata (not written by `analyzer sim`)")
    if meta.get("game") != game:
        raise UserError(f"{path}: holds results of {meta.get('game')!r}, not {game!r}")
    return meta


def read(path: str | Path) -> tuple[pl.DataFrame, dict]:
    """A results file written by `analyzer sim` and its run metadata (another parquet file is refused)."""
    meta = read_meta(path)
    if "scenario" not in meta:
        raise UserError(f"{path}: no analyzer run metadata (not written by `analyzer sim`)")
    try:
        return pl.read_parquet(path), meta
    except Exception as e:
        raise UserError(f"{path}: not a readable parquet results file ({type(e).__name__})") from None


def _existing(path: str | Path) -> Path:
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{path}: no such results file")
    return path
