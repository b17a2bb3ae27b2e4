"""Where a game's cold compile goes: each compiled function's own time, and how much of it is LLVM.

    python bench/compile_profile.py GAME [--top 15]

Plays 20 games of GAME in this process with an empty numba cache (a fresh temporary NUMBA_CACHE_DIR),
listening to numba's compile events. A function's compile includes its callees' (numba compiles a
callee while typing its caller), so each function's own time is its compile less the compiles nested
in it; the LLVM part (the `numba:llvm_lock` spans: optimising the function's module, with the code of
everything it calls linked in, and emitting its machine code) is counted the same way. Also prints the
object code the cache received (what a first run emits). Measured figures: docs/performance.md.
"""
from __future__ import annotations

import argparse
import collections
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--top", type=int, default=15, help="functions listed, by own time")
    args = ap.parse_args()
    cache = tempfile.mkdtemp(prefix="compile_profile_")
    os.environ["NUMBA_CACHE_DIR"] = cache  # before numba is imported: nothing cached, everything compiles
    from numba.core import event

    from analyzer import api

    spans: list[tuple[float, bool, str, object]] = []

    class Recorder(event.Listener):
        def on_start(self, ev):
            spans.append((time.perf_counter(), True, ev.kind, ev.data))

        def on_end(self, ev):
            spans.append((time.perf_counter(), False, ev.kind, ev.data))

    for kind in ("numba:compile", "numba:llvm_lock"):
        event.register(kind, Recorder())
    t0 = time.perf_counter()
    api.sim(args.game, n=20, seed=1, progress=False)
    wall = time.perf_counter() - t0
    own, llvm, count = collections.Counter(), collections.Counter(), collections.Counter()
    stack: list[str] = []
    llvm_open: list[float] = []
    last = None
    for ts, starts, kind, data in spans:
        if kind == "numba:compile":
            if stack and last is not None:
                own[stack[-1]] += ts - last
            if starts:
                stack.append(_name(data))
                count[stack[-1]] += 1
            else:
                stack.pop()
            last = ts
        elif starts:
            llvm_open.append(ts)
        else:
            begun = llvm_open.pop()
            if not llvm_open and stack:
                llvm[stack[-1]] += ts - begun
    objects = [p.stat().st_size for p in Path(cache).rglob("*.nbc")]
    shutil.rmtree(cache, ignore_errors=True)
    total, total_llvm = sum(own.values()), sum(llvm.values())
    print(f"{args.game}: {wall:.1f} s wall, {total:.1f} s compiling {len(own)} functions "
          f"({sum(count.values())} compiles), LLVM {total_llvm:.1f} s ({100 * total_llvm / max(total, 1e-9):.0f}%); "
          f"object code cached {sum(objects) / 1e6:.1f} MB in {len(objects)} objects, the largest "
          f"{max(objects, default=0) / 1e6:.2f} MB, {sum(s > 300_000 for s in objects)} over 300 KB")
    for name, seconds in own.most_common(args.top):
        print(f"{seconds:7.2f} s  LLVM {llvm[name]:6.2f} s  x{count[name]}  {name}")


def _name(data) -> str:
    f = getattr(data.get("dispatcher") if isinstance(data, dict) else None, "py_func", None)
    return f"{getattr(f, '__module__', None) or '?'}.{getattr(f, '__name__', '?')}"


if __name__ == "__main__":
    main()
