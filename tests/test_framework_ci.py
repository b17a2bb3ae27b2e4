"""`analyzer ci`: the CI files it writes install analyzer's own distribution, pinned, with every action pinned
and the compiled kernels cached; they pass actionlint; and the workflow's own commands, run in order in a
designer's repository with two commits of a scenario, check it, report it and compare it with the base."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

import analyzer
from analyzer import cli, games
from analyzer.ci import GITLAB, KERNELS, WORKFLOW

ROOT = Path(__file__).resolve().parents[1]


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def designer_repo(tmp_path: Path) -> Path:
    """A repository with a Pig scenario (with bounds) on main, a pull-request branch that edits it, and origin."""
    remote, repo = tmp_path / "origin.git", tmp_path / "designer"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    (repo / "scenarios").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    scenario = repo / "scenarios" / "pig.yaml"
    printed = games.get("pig").default_scenario.read_text().split("\nbalance:")[0]
    scenario.write_text(printed + "\nbalance:\n  length: {min: 5, max: 30}\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "Pig as printed")
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "origin", "main")
    git(repo, "checkout", "-q", "-b", "shorter")
    scenario.write_text(scenario.read_text().replace("target: 100", "target: 60"))
    git(repo, "commit", "-qam", "A shorter game")
    return repo


def test_ci_init_refuses_a_folder_that_is_not_a_repository_or_already_has_the_workflow(tmp_path, capsys):
    assert cli.main(["ci", "init", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not a git repository" in err and list(tmp_path.iterdir()) == []
    git(tmp_path, "init", "-q")
    assert cli.main(["ci", "init", str(tmp_path)]) == 0
    (tmp_path / WORKFLOW).write_text("mine\n")
    assert cli.main(["ci", "init", str(tmp_path)]) == 2
    assert "already exists; pass --force" in capsys.readouterr().err
    assert (tmp_path / WORKFLOW).read_text() == "mine\n"
    assert cli.main(["ci", "init", str(tmp_path), "--force"]) == 0
    assert (tmp_path / WORKFLOW).read_text() != "mine\n"


def installed_requirements(text: str, env: dict) -> list[Requirement]:
    """The requirements of every `pip install` line in `text`, with the CI file's variables filled in."""
    found = []
    for line in re.findall(r"pip install (.+)", text):
        words = shlex.split(re.sub(r"\$\{?(\w+)\}?", lambda m: env[m.group(1)], line))
        found += [Requirement(w) for w in words if not w.startswith("-")]
    return found


@pytest.mark.parametrize("source", [None, "git+https://example.org/designer/analyzer@v0.1.0"])
def test_the_ci_files_install_exactly_the_distribution_in_pyproject(tmp_path, source):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == analyzer.DISTRIBUTION != "analyzer"  # PyPI's `analyzer` is someone else's project
    git(tmp_path, "init", "-q")
    assert cli.main(["ci", "init", str(tmp_path), *(["--source", source] if source else [])]) == 0
    workflow = (tmp_path / WORKFLOW).read_text()
    gitlab = yaml.safe_load((tmp_path / GITLAB).read_text())["balance"]
    for text, env in ((workflow, yaml.safe_load(workflow)["env"]), ("\n".join(gitlab["script"]), gitlab["variables"])):
        (req,) = installed_requirements(text, env)
        assert req.name == project["name"]
        if source:
            assert req.url == source and not req.specifier
        else:  # exactly the version that wrote the file
            assert str(req.specifier) == f"=={analyzer.__version__}" and req.url is None


def test_the_wheel_carries_every_scenario_and_an_installed_package_finds_them(tmp_path):
    """A designer's CI installs the wheel, not this checkout: the games' scenarios (their card data and
    defaults) ship inside the package, through the link analyzer/_scenarios -> scenarios/."""
    link = ROOT / "analyzer" / "_scenarios"
    assert link.is_symlink() and link.resolve() == (ROOT / "scenarios").resolve()
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["analyzer"]
    assert "kernels.lock" in patterns  # the released compiled kernels' pins (analyzer/cache_fetch.py)
    shipped = {p.relative_to(link) for pattern in patterns if pattern.startswith("_scenarios/")
               for p in (ROOT / "analyzer").glob(pattern)}
    assert shipped == {p.relative_to(ROOT / "scenarios") for p in (ROOT / "scenarios").rglob("*.yaml")}
    # installed: the package alone, without the checkout around it
    shutil.copytree(ROOT / "analyzer", tmp_path / "analyzer", ignore=shutil.ignore_patterns("__pycache__"))
    code = "from analyzer import games; print(games.get('pig').default_scenario)"
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)},
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()) == tmp_path / "analyzer" / "_scenarios" / "pig" / "default.yaml"
    assert Path(r.stdout.strip()).is_file()


@pytest.mark.parametrize("source", ["https://example.org/r@v1", "git+https://example.org/r", "analyzer", "git+https://x/r@v1 evil"])
def test_ci_init_refuses_a_source_that_is_not_a_git_url_and_tag(tmp_path, capsys, source):
    git(tmp_path, "init", "-q")
    assert cli.main(["ci", "init", str(tmp_path), "--source", source]) == 2
    assert "expected a git URL with a tag" in capsys.readouterr().err
    assert not (tmp_path / WORKFLOW).exists() and not (tmp_path / GITLAB).exists()


def test_every_action_is_pinned_to_a_commit_and_the_compiled_kernels_are_cached(tmp_path):
    git(tmp_path, "init", "-q")
    assert cli.main(["ci", "init", str(tmp_path)]) == 0
    workflow = yaml.safe_load((tmp_path / WORKFLOW).read_text())
    steps = workflow["jobs"]["balance"]["steps"]
    for step in steps:
        if "uses" in step:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
    (cache,) = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
    assert cache["with"]["path"] == KERNELS and workflow["env"]["NUMBA_CACHE_DIR"].endswith(f"/{KERNELS}")
    assert cache["with"]["key"] == "${{ steps.kernels.outputs.key }}"
    names = [s.get("name") for s in steps]
    assert names.index("Name the compiled kernels") < names.index("Restore the compiled kernels") < names.index("Check balance bounds")
    gitlab = yaml.safe_load((tmp_path / GITLAB).read_text())["balance"]
    assert re.fullmatch(r"python:\d+\.\d+\.\d+-\w+", gitlab["image"])  # an exact Python release
    assert gitlab["cache"]["paths"] == [f"{KERNELS}/"] and gitlab["variables"]["NUMBA_CACHE_DIR"].endswith(f"/{KERNELS}")
    assert analyzer.__version__ in gitlab["cache"]["key"] and "/" not in gitlab["cache"]["key"]
    for check in (next(s["run"] for s in steps if s.get("name") == "Check balance bounds"),
                  next(s for s in gitlab["script"] if "ci check" in s)):
        assert "--until-decided --max-n \"$BALANCE_MAX_N\"" in check


def test_the_cache_key_names_version_python_os_cpu_and_games(tmp_path, capsys):
    from analyzer import cache_pack
    (tmp_path / "a").mkdir()
    for name, game in (("a/one.yaml", "pig"), ("two.yaml", "stop"), ("three.yaml", "pig")):
        (tmp_path / name).write_text(f"game: {game}\n")
    assert cli.main(["ci", "cache-key", str(tmp_path)]) == 0
    key = capsys.readouterr().out.strip()
    m = cache_pack.machine()
    for part in (analyzer.DISTRIBUTION, analyzer.__version__, f"numba{m['numba']}", f"py{m['python']}", m["platform"],
                 m["cpu"]):
        assert part in key, part
    assert key.endswith("-pig-stop") and re.fullmatch(r"[\w.-]+", key)


@pytest.mark.needs_tool  # actionlint: skipped where it is missing, required by .ci/run (conftest.py)
def test_the_generated_workflow_passes_actionlint(actionlint, tmp_path):
    git(tmp_path, "init", "-q")
    assert cli.main(["ci", "init", str(tmp_path)]) == 0
    r = subprocess.run(actionlint, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    gitlab = yaml.safe_load((tmp_path / GITLAB).read_text())["balance"]
    assert gitlab["artifacts"]["paths"] == ["reports/"] and any("ci check scenarios" in s for s in gitlab["script"])


def test_the_workflow_commands_run_in_order_in_a_designers_repository(tmp_path):
    repo = designer_repo(tmp_path)
    assert cli.main(["ci", "init", str(repo)]) == 0
    workflow = yaml.safe_load((repo / WORKFLOW).read_text())
    steps = [s for s in workflow["jobs"]["balance"]["steps"] if "run" in s and s["name"] != "Install analyzer"]
    assert [s["name"] for s in steps] == [
        "Name the compiled kernels", "Fetch the compiled kernels a release published (pinned by SHA-256 in analyzer/kernels.lock)",
        "Check balance bounds", "Regenerate the reports", "Compare with the base branch"]
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs"
    # the checkout's own kernel cache stands in for the restored one (NUMBA_CACHE_DIR names a GitHub path)
    variables = {k: v for k, v in workflow["env"].items() if k != "NUMBA_CACHE_DIR"}
    env = {**os.environ, **variables, "BALANCE_N": "300", "BALANCE_MAX_N": "2000", "BASE_REF": "main",
           "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    git(repo, "fetch", "-q", "origin")
    for step in steps:
        r = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, (step["name"], r.stderr[-2000:])
    assert re.fullmatch(r"key=analyzer-kernels-[\w.-]+-pig\n", outputs.read_text())
    assert "| PASS |" in (repo / "reports" / "check" / "pig" / "index.md").read_text()
    assert (repo / "reports" / "pig" / "index.html").exists()
    text = summary.read_text()
    assert "`pig.yaml` at origin/main against this change" in text
    assert "| length |" in text and "changed" in text.split("| length |")[1].splitlines()[0]
