"""The README is followed literally by new users: every `analyzer` command line it shows parses (options
and arguments exist), and every command and Python block runs, in order, on a fresh copy of the repository
with its counts cut. Reports' comparison runs are made small here."""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from analyzer import cli

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README.read_text(), flags=re.S)


def command_lines() -> list[list[str]]:
    text = "\n".join(blocks("sh")).replace("\\\n", " ")
    return [shlex.split(line.split("#")[0]) for line in text.splitlines() if line.strip().startswith("analyzer ")]


def test_readme_has_python_and_command_examples():
    assert blocks("python") and len(command_lines()) >= 5


@pytest.mark.parametrize("argv", command_lines(), ids=lambda a: " ".join(a[:3]))
def test_readme_command_parses(argv):
    group = typer.main.get_command(cli.app)
    name, *args = argv[1:]
    command = group.get_command(None, name)
    assert command is not None, f"README uses an unknown command: {name}"
    command.make_context(name, list(args))  # raises on an unknown option or a missing argument


# ---- the README followed literally, in order --------------------------------------------------------------
# Counts cut so that every example runs in seconds; an option the line leaves out gets its cut added where its
# default is large. `tune` plays --n games per candidate and round, and `strength` --n games per budget and seat,
# each of them thousands of playouts, so their cuts are smaller.
CUTS = {"--n": 2000, "--max-n": 4000, "--check-n": 1000, "--budget": 2000, "--compare-n": 200}
SMALL_N = {"tune": 200, "strength": 10}
ADDED = {"sim": ("--n",), "compare": ("--n",), "sweep": ("--n",), "tune": ("--n", "--check-n")}
# Lines not run, and why (every one still parses: test_readme_command_parses).
SKIPPED = {
    "make": "the make targets run the whole suite or a million games; CI runs make test and make check itself",
    "bench": "measures speed for minutes and writes bench/out; `make bench` is its own job",
    "spacebase": "Space Base's cold compile takes 85 s or more; its sweep and tune are tested in test_end_to_end",
}


def readme_blocks() -> list[tuple[str, str]]:
    """Every sh and python block of the README, in order."""
    return re.findall(r"```(sh|python)\n(.*?)```", README.read_text(), flags=re.S)


def runnable(code: str) -> list[list[str]]:
    """A sh block's command lines (continuations joined, comments dropped)."""
    text = code.replace("\\\n", " ")
    return [shlex.split(line.split("#")[0]) for line in text.splitlines() if line.split("#")[0].strip()]


def skipped(argv: list[str]) -> str | None:
    return next((why for word, why in SKIPPED.items() if word in argv[:3]), None)


def plays_nothing(argv: list[str]) -> bool:
    """`sim --until-ci` (its count is --max-n) and `compare` of two results files take no --n."""
    return "--until-ci" in argv or any(a.endswith(".parquet") for a in argv if argv[1] == "compare")


def cut(argv: list[str]) -> list[str]:
    """The command with each count cut (and added where the default is large); `cache pack` packs the two
    games this walk-through plays (every game would compile the four others, minutes each)."""
    argv = list(argv)
    command = argv[1]
    for flag, small in CUTS.items():
        small = SMALL_N.get(command, small) if flag == "--n" else small
        if flag in argv:
            i = argv.index(flag) + 1
            argv[i] = str(min(small, int(float(argv[i].replace("_", "")))))
        elif flag in ADDED.get(command, ()) and not plays_nothing(argv):
            argv += [flag, str(small)]
    if argv[1:3] == ["cache", "pack"] and not any(g in argv for g in ("stop", "pig")):
        argv[3:3] = ["stop", "pig"]
    return argv


def fresh_copy(tmp_path: Path) -> Path:
    """The repository's files as a fresh clone has them (a git repository, for `ci init`), with this
    checkout's compiled kernels of STOP and Pig, warmed first: a cache keyed by the sources' contents loads
    in any copy of them (analyzer/compile_cache.py)."""
    import analyzer
    for game in ("stop", "pig"):
        analyzer.sim(game, n=10, progress=False)
    copy = tmp_path / "clone"
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in tracked:
        src = ROOT / name
        if src.is_file() and not src.is_symlink():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, copy / name)
        elif src.is_symlink():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).symlink_to(os.readlink(src))
    for cache in (ROOT / "analyzer").rglob("__pycache__"):
        shutil.copytree(cache, copy / cache.relative_to(ROOT), dirs_exist_ok=True,
                        ignore=lambda _, names: [n for n in names if not n.endswith((".nbi", ".nbc"))])
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)
    return copy


def test_every_readme_command_and_code_block_runs_in_order_on_a_fresh_copy(tmp_path):
    """Each sh line and python block, in the README's order, with the counts cut (CUTS): a new user who
    follows the README meets no error. Exit 3 of `check` (a bound undecided at the cut n) is its documented
    answer, not a failure; the lines in SKIPPED are left out, each for the reason given there."""
    copy = fresh_copy(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(copy), "ANALYZER_COMPARE_N": "200", "ANALYZER_COMPARE_JOBS": "1"}
    ran = 0
    for lang, code in readme_blocks():
        if lang == "python":
            code = re.sub(r"\bn=[\d_]+", "n=2000", code)
            steps = [("python", [sys.executable, "-c", code])]
        else:
            steps = [(" ".join(argv), argv) for argv in runnable(code)]
        for shown, argv in steps:
            if lang == "sh" and skipped(argv):
                continue
            if lang == "sh":
                assert argv[0] == "analyzer", f"README runs something other than analyzer or make: {shown}"
                argv = [sys.executable, "-m", *cut(argv)]
            r = subprocess.run(argv, cwd=copy, env=env, capture_output=True, text=True, timeout=900)
            allowed = (0, 3) if argv[3:4] == ["check"] or argv[3:5] == ["ci", "check"] else (0,)
            assert r.returncode in allowed, f"README: `{shown}` exited {r.returncode}: {r.stderr[-1500:]}"
            ran += 1
    assert ran >= 30
