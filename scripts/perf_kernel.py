"""Profile a game's kernel with Linux perf, its compiled functions named.

    perf record -g -o /tmp/perf.data .venv/bin/python scripts/perf_kernel.py mlem --n 20000
    perf report -i /tmp/perf.data --no-children --sort sym -g none | grep analyzer

numba's machine code has no symbols perf can read, so a plain `perf record` shows only addresses. This
plays the games in this process on one thread with an empty compile cache (numba then keeps each
function's LLVM module, so its names are known), and at the end writes /tmp/perf-PID.map, the file perf
reads to name JIT code: every compiled function's address, its size taken as the distance to the next
one. Functions LLVM inlined into their caller count as the caller's time; the ones it kept apart are
named. The compile is cold (tens of seconds to minutes, by game) and counted in the profile: sort by
symbol and read the kernel's lines.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path


def demangle(name: str) -> str:
    """numba's Itanium-style name `_ZN8analyzer5games4mlem6engine4landB...E...` as analyzer.games.mlem.engine.land."""
    m = re.match(r"_ZN((?:\d+[A-Za-z_$][\w$]*)+)", name)
    if not m:
        return name
    parts, s = [], m.group(1)
    while s and s[0].isdigit():
        n = int(re.match(r"\d+", s).group())
        digits = len(str(n))
        parts.append(s[digits:digits + n])
        s = s[digits + n:]
    return ".".join(parts).replace("$", "")


def compiled_functions() -> dict[int, str]:
    """Address -> name of every function in every numba library this process compiled."""
    import gc

    from numba.core.dispatcher import Dispatcher

    out: dict[int, str] = {}
    for obj in gc.get_objects():
        if not isinstance(obj, Dispatcher):
            continue
        for cres in obj.overloads.values():
            lib = cres.library
            module = getattr(lib, "_final_module", None)
            if module is None:
                continue
            for fn in module.functions:
                if fn.is_declaration:
                    continue
                try:
                    addr = lib.get_pointer_to_function(fn.name)
                except Exception:
                    continue
                if addr:
                    out.setdefault(addr, demangle(fn.name))
    return out


def write_perf_map(functions: dict[int, str]) -> Path:
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    addrs = sorted(functions)
    with path.open("w") as f:
        for a, b in zip(addrs, addrs[1:] + [addrs[-1] + 4096], strict=True):
            f.write(f"{a:x} {min(b - a, 1 << 20):x} {functions[a]}\n")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--n", type=float, default=20000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="perf-kernel-")
    import analyzer

    analyzer.sim(args.game, n=int(args.n), seed=args.seed, jobs=1, backend="threads", progress=False)
    path = write_perf_map(compiled_functions())
    print(f"{args.game}: {int(args.n)} games; JIT names in {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
