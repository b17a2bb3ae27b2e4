"""`analyzer ci`: balance checks in a designer's repository.

`ci init` writes a GitHub workflow and a GitLab CI file. Both run on pushes and pull (merge) requests that
touch scenarios/, and call three commands that hold the logic (so the CI files stay short and testable):
`ci check` (every scenario with a `balance:` block), `ci reports` (every scenario's report) and
`ci compare` (each scenario changed since the base branch, as a Markdown table for the job summary).

They install analyzer's own distribution (analyzer.DISTRIBUTION: PyPI's `analyzer` is another project) at
the version that wrote them, or at a git URL and tag (`ci init --source`), never a bare name; and they keep
the compiled kernels (NUMBA_CACHE_DIR) in the CI's cache under `ci cache-key`, so only a first run compiles.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from .errors import UserError
from .scenario import read_yaml

WORKFLOW = ".github/workflows/balance.yml"
GITLAB = ".gitlab-ci.yml"
KERNELS = ".analyzer-kernels"  # the compiled kernels' folder (NUMBA_CACHE_DIR), cached between runs

# Every action pinned to a full commit SHA (a tag can be moved; a SHA cannot), its release in a comment.
ACTIONS = {
    "checkout": "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1  # v7.0.1",
    "setup-python": "actions/setup-python@5fda3b95a4ea91299a34e894583c3862153e4b97  # v7.0.0",
    "cache": "actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae  # v5.0.5",
    "upload-artifact": "actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f  # v7.0.0",
}
GITLAB_IMAGE = "python:3.11.13-bookworm"  # an exact Python release (with git, for `ci compare`)

GITHUB_YAML = """\
# Balance checks (written by `analyzer ci init`): on every push and pull request that touches scenarios/,
# check each scenario's balance: bounds, regenerate the reports, and on a pull request put the comparison
# with the base branch into the job summary. The compiled kernels are cached between runs: only a run
# with a new analyzer, Python, numba, CPU target or game compiles.
name: balance

on:
  push:
    paths: ["scenarios/**"]
  pull_request:
    paths: ["scenarios/**"]

permissions:
  contents: read

env:
  # what pip installs: this exact release of analyzer's distribution, or
  # "@DIST@ @ git+https://HOST/OWNER/REPO@TAG" (`analyzer ci init --source`); never a bare name
  ANALYZER_PACKAGE: "@PACKAGE@"
  BALANCE_N: "20000"       # games per report and per comparison side
  BALANCE_MAX_N: "320000"  # most games per check: it plays 2,000, 4,000, ... until every bound is decided
  NUMBA_CACHE_DIR: ${{ github.workspace }}/@KERNELS@

jobs:
  balance:
    runs-on: ubuntu-24.04
    steps:
      - uses: @checkout@
        with:
          fetch-depth: 0
      - uses: @setup-python@
        with:
          python-version: "3.11"
      - name: Install analyzer
        run: pip install "$ANALYZER_PACKAGE"
      - name: Name the compiled kernels
        id: kernels
        run: echo "key=$(analyzer ci cache-key scenarios)" >> "$GITHUB_OUTPUT"
      - name: Restore the compiled kernels
        id: restore
        uses: @cache@
        with:
          path: @KERNELS@
          key: ${{ steps.kernels.outputs.key }}
      - name: Fetch the compiled kernels a release published (pinned by SHA-256 in analyzer/kernels.lock)
        if: steps.restore.outputs.cache-hit != 'true'
        run: python -m analyzer.cache_fetch
      - name: Check balance bounds
        run: analyzer ci check scenarios --until-decided --max-n "$BALANCE_MAX_N" --out reports/check
      - name: Regenerate the reports
        if: ${{ !cancelled() }}
        run: analyzer ci reports scenarios --n "$BALANCE_N" --out reports
      - name: Upload the reports
        if: ${{ !cancelled() }}
        uses: @upload-artifact@
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
  image: @IMAGE@
  variables:
    ANALYZER_PACKAGE: "@PACKAGE@"
    BALANCE_N: "20000"
    BALANCE_MAX_N: "320000"
    NUMBA_CACHE_DIR: "$CI_PROJECT_DIR/@KERNELS@"
    GIT_DEPTH: "0"
  # The compiled kernels, kept between jobs. GitLab fixes a cache's key before the job starts, so it names the
  # package and the image (Python, OS); the kernels compile for a portable CPU target, so runners with
  # any x86-64 CPU share them.
  cache:
    key: "@CACHE_KEY@"
    paths:
      - @KERNELS@/
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event" || $CI_PIPELINE_SOURCE == "push"
      changes:
        - scenarios/**/*
  script:
    - pip install "$ANALYZER_PACKAGE"
    - '[ -d "$NUMBA_CACHE_DIR" ] || python -m analyzer.cache_fetch'  # released kernels, pinned by SHA-256, when no cache was kept
    - status=0; analyzer ci check scenarios --until-decided --max-n "$BALANCE_MAX_N" --out reports/check || status=$?
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


def package_spec(source: str | None = None) -> str:
    """What the CI files install: this distribution at this version, or at a git URL and tag (`--source`)."""
    from . import DISTRIBUTION, __version__
    if source is None:
        return f"{DISTRIBUTION}=={__version__}"
    url, _, ref = source.rpartition("@")
    if not source.startswith("git+") or "://" not in url or not ref or "/" in ref or any(c in source for c in " \"'$"):
        raise UserError(f"--source {source!r}: expected a git URL with a tag, e.g. git+https://github.com/OWNER/REPO@v{__version__}")
    return f"{DISTRIBUTION} @ {source}"


def files(source: str | None = None) -> dict[str, str]:
    """The two CI files' paths and texts, installing `package_spec(source)`."""
    from . import DISTRIBUTION
    spec = package_spec(source)
    gitlab_key = re.sub(r"[^A-Za-z0-9._-]+", "-", f"analyzer-kernels-{spec}-{GITLAB_IMAGE}")
    fill = {"@PACKAGE@": spec, "@DIST@": DISTRIBUTION, "@KERNELS@": KERNELS,
            "@IMAGE@": GITLAB_IMAGE, "@CACHE_KEY@": gitlab_key, **{f"@{k}@": v for k, v in ACTIONS.items()}}
    texts = {WORKFLOW: GITHUB_YAML, GITLAB: GITLAB_YAML}
    for key, value in fill.items():
        texts = {path: text.replace(key, value) for path, text in texts.items()}
    return texts


def init(folder: Path, force: bool = False, source: str | None = None) -> list[Path]:
    """Write both CI files into the git repository at `folder`; nothing is written on an error."""
    folder = Path(folder)
    texts = files(source)
    if not folder.is_dir():
        raise UserError(f"ci init {folder}: no such folder")
    inside = subprocess.run(["git", "-C", str(folder), "rev-parse", "--is-inside-work-tree"],
                            capture_output=True, text=True)
    if inside.returncode != 0 or inside.stdout.strip() != "true":
        raise UserError(f"ci init {folder}: not a git repository (run `git init` first)")
    targets = {folder / path: text for path, text in texts.items()}
    if not force:
        for path in targets:
            if path.exists():
                raise UserError(f"ci init {folder}: {path.relative_to(folder)} already exists; pass --force to overwrite it")
    for path, text in targets.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(targets)


def cache_key(folder: Path) -> str:
    """The compiled kernels' cache key for the scenarios under `folder`: what a cache file is valid for
    (analyzer's distribution, version and sources, numba, Python, OS and CPU target: "generic" by default) and the games that
    will be compiled (a scenario of a new game makes a new key, so its kernels are saved too)."""
    import platform

    from . import DISTRIBUTION, __version__, cache_pack, compile_cache
    used = sorted({game_of(f) for f in scenario_files(folder)})
    m = cache_pack.machine()
    parts = ["analyzer-kernels", DISTRIBUTION, __version__, compile_cache.sources_stamp(compile_cache.PACKAGE)[:12],
             f"numba{m['numba']}", f"py{platform.python_version()}", m["platform"], m["cpu"], *used]
    return re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(parts))


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
