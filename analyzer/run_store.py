"""Where a run's finished chunks go, in game-id order: a table in memory, or a results file written as
the chunks finish.

A file run keeps two things under `<out>.parts/`: a journal of lz4 Arrow IPC parts, one per finished
chunk (nearly free to write and to read back), and the results file itself, which one
pyarrow.parquet.ParquetWriter encodes row group by row group while the run goes on. A parquet file
cannot be read before its footer is written, so after a crash the journal holds what was saved: a
resumed run feeds the journal's parts to a new writer and plays the rest. At the end the file gets
the run's metadata, is renamed to `<out>`, and the folder goes.

Chunks may finish in any order; each sink holds the early finishers until the chunks before them
arrive (at most the chunks in flight), so memory does not grow with n.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Callable

import polars as pl

from . import results
from .errors import UserError, arg

BOUNDS = "chunks, then a tail in quarters"  # how runner.chunk_bounds cuts: parts of older runs differ


class _Ordered:
    """Takes (chunk index, frame) in any order; `_emit` sees the frames in index order. `on_emit(frame)`,
    if set, is told of each frame emitted; when it returns True, the sink takes no more (the run stops)."""

    def __init__(self, chunks: int, restored: set[int] = frozenset()):
        self.chunks, self.restored = chunks, set(restored)
        self._early: dict[int, pl.DataFrame] = {}
        self.next = 0  # chunks 0..next-1 have been emitted
        self.on_emit: Callable[[pl.DataFrame], bool] | None = None
        self.stopped = False

    def add(self, i: int, frame: pl.DataFrame) -> bool:
        """Take chunk i (and emit what is now in order, restored parts included); True once stopped."""
        if not self.stopped:
            self._early[i] = frame
        return self.drain()

    def drain(self) -> bool:
        while not self.stopped and self.next < self.chunks and (self.next in self._early or self.next in self.restored):
            i = self.next
            frame = self._early.pop(i) if i in self._early else self._restore(i)
            self._emit(frame)
            self.next += 1
            self.stopped = bool(self.on_emit and self.on_emit(frame))
        return self.stopped

    def _restore(self, i: int) -> pl.DataFrame:
        raise NotImplementedError

    def _emit(self, frame: pl.DataFrame) -> None:
        raise NotImplementedError


class MemorySink(_Ordered):
    """A run without an output file: the table is concatenated at the end."""

    def __init__(self, chunks: int):
        super().__init__(chunks)
        self.frames: list[pl.DataFrame] = []

    def _emit(self, frame):
        self.frames.append(frame)

    def table(self) -> pl.DataFrame:
        return pl.concat(self.frames)


class FileSink(_Ordered):
    """A run into `out`: the journal and the results file being written (see the module doc)."""

    def __init__(self, out: Path, parts: Path, sizes: list[int], restored: set[int]):
        super().__init__(len(sizes), restored)
        self.out, self.parts, self._sizes = Path(out), parts, sizes
        self._journaled = set(restored)
        self._tmp = parts / "results.parquet.tmp"
        self._writer = None

    def add(self, i, frame):
        if not self.stopped:
            self._guard(lambda: self._journal(i, frame), self.parts)
        return super().add(i, frame)

    def _journal(self, i: int, frame: pl.DataFrame) -> None:
        # pyarrow's IPC writer, not polars': polars' streaming sink was seen to hang for good when a
        # SIGCHLD (a worker process killed) landed in one of its threads
        import pyarrow as pa
        tmp = self.parts / f".part-{i:06d}.arrow.tmp"
        table = frame.to_arrow()
        options = pa.ipc.IpcWriteOptions(compression="lz4")  # half the disk, for ~6 ms per 20k games
        with pa.OSFile(str(tmp), "wb") as f, pa.ipc.new_file(f, table.schema, options=options) as writer:
            writer.write_table(table)
        os.replace(tmp, self.part(i))  # a part is whole or absent
        self._journaled.add(i)

    def part(self, i: int) -> Path:
        return self.parts / f"part-{i:06d}.arrow"

    def _restore(self, i):
        import pyarrow as pa
        with pa.memory_map(str(self.part(i))) as f:
            return pl.from_arrow(pa.ipc.open_file(f).read_all())

    def _emit(self, frame):
        import pyarrow.parquet as pq  # a second of import that runs without a file never pay
        table = frame.to_arrow()
        if self._writer is None:
            self._writer = self._guard(lambda: pq.ParquetWriter(self._tmp, table.schema, compression="zstd"), self._tmp)
        self._guard(lambda: self._writer.write_table(table), self._tmp)

    def saved_games(self) -> int:
        """Games in the journal: what a --resume would not play again."""
        return sum(self._sizes[i] for i in self._journaled)

    def finish(self, meta: dict) -> None:
        """Close the file with the run's metadata, move it to `out` and drop the journal."""
        self._guard(lambda: self._writer.add_key_value_metadata({results.META_KEY: json.dumps(meta)}), self._tmp)
        self._guard(self._writer.close, self._tmp)
        self._guard(lambda: os.replace(self._tmp, self.out), self.out)
        shutil.rmtree(self.parts)

    def abandon(self) -> None:
        """After an error or an interrupt: close the half-written file; the journal stays for --resume."""
        if self._writer is not None:
            try:
                self._writer.close()
            except OSError:
                pass
            self._tmp.unlink(missing_ok=True)

    def _guard(self, write, path: Path):
        """A write that fails (disk full, folder gone or read-only) is one line naming the file; the
        journal's parts stay for --resume."""
        try:
            return write()
        except OSError as e:
            saved = self.saved_games()
            raise UserError(f"{path}: cannot write ({e.strerror or e}); the {saved:,} games saved so far stay in "
                            f"{self.parts.name}: free some space, then rerun with {arg('resume', None)}") from None


def open_journal(out: Path, manifest: dict, resume: bool) -> tuple[Path, set[int], dict]:
    """The journal folder of a run into `out`, the chunk numbers already in it and the manifest in
    force. A resumed run takes the journal's chunk size: results never depend on it, nor on --jobs."""
    parts = out.with_name(out.name + ".parts")
    if parts.exists():
        if not resume:
            raise UserError(f"{parts}: an unfinished run is there; pass {arg('resume', None)} to continue it or delete it")
        try:
            old = json.loads((parts / "manifest.json").read_text())
        except (OSError, ValueError):
            raise UserError(f"{parts}: manifest.json is missing or damaged; delete the folder and rerun") from None
        diff = [k for k in manifest if k != "chunk" and old.get(k) != manifest[k]]
        if diff:
            raise UserError(f"{parts}: {arg('resume', None)} with a different run ({', '.join(diff)} differ); delete it or rerun as before")
        return parts, {int(p.stem.split("-")[1]) for p in parts.glob("part-*.arrow")}, old
    if resume:
        raise UserError(f"{arg('resume', None)}: nothing to resume for {out} (no interrupted run in {parts.name}); "
                        "run it without resuming")
    try:
        parts.mkdir(parents=True)
        (parts / "manifest.json").write_text(json.dumps(manifest, indent=1))
    except OSError as e:
        raise UserError(f"{parts}: cannot write ({e.strerror or e})") from None
    return parts, set(), manifest


def finished_run(out: Path, manifest: dict) -> dict | None:
    """The metadata of `out` when it already holds the finished run that `manifest` describes."""
    if not Path(out).is_file() or out.with_name(out.name + ".parts").exists():
        return None
    try:
        meta = results.read_meta(out)
    except UserError:
        return None
    same = all(meta.get(k) == manifest[k] for k in ("game", "scenario_hash", "seed"))
    asked = meta.get("stopping", {}).get("max_n", meta.get("n"))
    return meta if same and asked == manifest["n"] else None
