"""`analyzer ci`: balance checks in a designer's repository.

`ci init` writes a GitHub workflow and a GitLab CI file. Both run on pushes and pull (merge) requests that
touch scenarios/, and call three commands that hold the logic (so the CI files stay short and testable):
`ci check` (every scenario with a `balance:` block), `ci reports` (every scenario's report) and
`ci compare` (each scenario changed since the base branch, as a Markdown table for the job summary).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from .errors import UserError
from .scenario import read_yaml

WORKFLOW = ".github/workflows/balance.yml"
GITLAB = ".gitlab-ci.yml"

GITHUB_YAML = """\
# Balance checks (written by `analyzer ci init`): on every push and pull request that touches scenarios/,
# check each scenario's balance: bounds, regenerate the reports, and on a pull request put the comparison
# with the base branch into the job summary.
name: balance

on:
  push:
    paths: ["scenarios/**"]
  pull_request:
    paths: ["scenarios/**"]

permissions:
  contents: read

env:
  ANALYZER_PACKAGE: analyzer   # what pip installs, e.g. "analyzer==0.1.0" or a git URL
  BALANCE_N: "20000"           # games per check, report and comparison side

jobs:
  balance:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - name: Install analyzer
        run: pip install "$ANALYZER_PACKAGE"
      - name: Check balance bounds
        run: analyzer ci check scenarios --n "$BALANCE_N" --out reports/check
      - name: Regenerate the reports
        if: ${{ !cancelled() }}
        run: analyzer ci reports scenarios --n "$BALANCE_N" --out reports
      - name: Upload the reports
        if: ${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: balance-reports
          path: reports/
      - name: Compare with the base branch
        if: ${{ !cancelled() && github.event_name == 'pull_request' }}
        env:
          BASE_REF: ${{ github.base_ref }}
        run: analyzer ci compare scenarios --base "origin/$BASE_REF" --n "$BALANCE_N" >> "$GITHUB_STEP_SUMMARY"
"""

GITLAB_YAML = """\
# Balance checks (written by `analyzer ci init`): see .github/workflows/balance.yml for the same steps.
balance:
  image: python:3.11
  variables:
    ANALYZER_PACKAGE: analyzer
    BALANCE_N: "20000"
    GIT_DEPTH: "0"
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event" || $CI_PIPELINE_SOURCE == "push"
      changes:
        - scenarios/**/*
  script:
    - pip install "$ANALYZER_PACKAGE"
    - status=0; analyzer ci check scenarios --n "$BALANCE_N" --out reports/check || status=$?
    - analyzer ci reports scenarios --n "$BALANCE_N" --out reports
    - >
      if [ -n "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME" ]; then
      git fetch origin "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME" &&
      analyzer ci compare scenarios --base "origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME" --n "$BALANCE_N" > reports/compare.md;
      fi
    - exit $status
  artifacts:
    when: always
    paths:
      - reports/
"""


def init(folder: Path, force: bool = False) -> list[Path]:
    """Write both CI files into the git repository at `folder`; nothing is written on an error."""
    folder = Path(folder)
    if not folder.is_dir():
        raise UserError(f"ci init {folder}: no such folder")
    inside = subprocess.run(["git", "-C", str(folder), "rev-parse", "--is-inside-work-tree"],
                            capture_output=True, text=True)
    if inside.returncode != 0 or inside.stdout.strip() != "true":
        raise UserError(f"ci init {folder}: not a git repository (run `git init` first)")
    targets = {folder / WORKFLOW: GITHUB_YAML, folder / GITLAB: GITLAB_YAML}
    if not force:
        for path in targets:
            if path.exists():
                raise UserError(f"ci init {folder}: {path.relative_to(folder)} already exists; pass --force to overwrite it")
    for path, text in targets.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(targets)


def scenario_files(folder: Path) -> list[Path]:
    folder = Path(folder)
    if not folder.is_dir():
        raise UserError(f"{folder}: no such folder of scenarios")
    return sorted(p for p in folder.rglob("*.yaml") if p.is_file())


def report_name(path: Path, folder: Path) -> Path:
    """Where a scenario's report goes under a reports folder: its path below `folder`, without .yaml (two
    games' default.yaml must not share a report)."""
    return Path(path).relative_to(folder).with_suffix("")


def game_of(path: Path) -> str:
    data = read_yaml(path)
    if "game" not in data:
        raise UserError(f"{path}: game: missing; say which game this scenario is for")
    return str(data["game"])


def has_bounds(path: Path) -> bool:
    return bool(read_yaml(path).get("balance"))


def changed_since(base: str, folder: Path) -> list[tuple[Path, str | None]]:
    """Scenarios under `folder` that differ from git revision `base`: (path, the base's text or None if new)."""
    diff = subprocess.run(["git", "diff", "--name-only", base, "--", str(folder)], capture_output=True, text=True)
    if diff.returncode != 0:
        raise UserError(f"--base {base}: not a git revision here ({diff.stderr.strip().splitlines()[0] if diff.stderr else 'git failed'})")
    top = Path(subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip())
    out = []
    for name in diff.stdout.split():
        path = top / name
        if path.suffix != ".yaml" or not path.exists():
            continue
        old = subprocess.run(["git", "show", f"{base}:{name}"], capture_output=True, text=True)
        out.append((path, old.stdout if old.returncode == 0 else None))
    return out
