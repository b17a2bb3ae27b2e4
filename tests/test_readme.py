"""The README is followed literally by new users: its Python blocks run, and every `analyzer` command
line it shows parses (options and arguments exist). Reports' comparison runs are made small here."""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from analyzer import cli

README = Path(__file__).resolve().parents[1] / "README.md"


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


def test_readme_python_blocks_run(tmp_path):
    env = dict(os.environ, ANALYZER_COMPARE_N="1000", ANALYZER_COMPARE_JOBS="1")
    # the README's Python block reads the results file that `make sim` writes
    subprocess.run([sys.executable, "-m", "analyzer", "sim", "stop", "--n", "200", "--out", "results/stop.parquet", "-q"],
                   cwd=tmp_path, env=env, check=True, timeout=600)
    for code in blocks("python"):
        r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, r.stderr[-2000:]
