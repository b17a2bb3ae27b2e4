"""analyzer: Monte Carlo strategy analyzer and balance tool for tabletop games.

    import analyzer
    df = analyzer.sim("stop", n=100_000, seed=7)
"""
__version__ = "0.1.0"

from . import compile_cache  # noqa: E402, F401  (first: kernels are cached with its locator)
from .api import load_scenario, read, replay, report, sim  # noqa: E402
from .errors import UserError  # noqa: E402

__all__ = ["sim", "replay", "report", "read", "load_scenario", "UserError", "__version__"]
