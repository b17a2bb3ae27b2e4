"""analyzer: Monte Carlo strategy analyzer and balance tool for tabletop games.

    import analyzer
    df = analyzer.sim("stop", n=100_000, seed=7)
"""
__version__ = "0.1.0"
# The distribution that installs this package (pyproject.toml's name): PyPI's `analyzer` is another project,
# so anything that installs analyzer (the CI files `analyzer ci init` writes) names this one.
DISTRIBUTION = "tabletop-balance-analyzer"

from .errors import UserError  # noqa: E402

__all__ = ["sim", "replay", "report", "read", "load_scenario", "UserError", "__version__", "DISTRIBUTION"]
_API = {"sim": "api", "replay": "api", "report": "api", "load_scenario": "api", "read": "api"}


def __getattr__(name: str):
    """The API on first use: `import analyzer` (and `analyzer --help`) pays for numba and polars only
    when something is run. Every module that defines a kernel imports compile_cache first itself."""
    from importlib import import_module
    if name in _API:
        return getattr(import_module(f".{_API[name]}", __name__), name)
    try:  # a submodule, e.g. analyzer.results
        return import_module(f".{name}", __name__)
    except ModuleNotFoundError:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}") from None
