"""analyzer: Monte Carlo strategy analyzer and balance tool for tabletop games."""
__version__ = "0.1.0"
