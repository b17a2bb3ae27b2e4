"""The statistics behind every report number, checked against exact or textbook values."""
import numpy as np
import pytest

from analyzer import stats


def test_wilson_matches_textbook_values():
    # Wilson 95% for 8/10 = [0.4902, 0.9433] (Newcombe 1998, table I)
    p, lo, hi = stats.wilson(8, 10)
    assert p == 0.8 and lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    _, lo, hi = stats.wilson(0, 20)
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.1611, abs=1e-4)


def test_wilson_covers_true_p_about_95_percent():
    rng = np.random.default_rng(0)
    k = rng.binomial(200, 0.3, size=4000)
    _, lo, hi = stats.wilson(k, 200)
    cover = np.mean((lo <= 0.3) & (0.3 <= hi))
    assert 0.93 < cover < 0.97


def test_seat_fairness_chi_square():
    fair = stats.seat_fairness([250, 250, 250, 250])
    assert fair.chi2 == 0 and fair.p_value == 1.0 and fair.dof == 3
    skewed = stats.seat_fairness([300, 250, 250, 200])
    assert skewed.chi2 == pytest.approx(20.0) and skewed.p_value < 0.001


def test_bootstrap_mean_interval_matches_normal_theory():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 50, 20_000)
    est = stats.bootstrap_mean(x, seed=2)
    se = x.std() / np.sqrt(len(x))
    assert est.value == pytest.approx(x.mean())
    assert est.hi - est.lo == pytest.approx(2 * 1.96 * se, rel=0.1)
    cont = stats.bootstrap_mean(rng.normal(size=10_000), seed=3)  # many distinct values: resampling path
    assert cont.lo < cont.value < cont.hi and cont.n == 10_000


def test_estimate_formatting_shows_interval_and_n():
    assert stats.proportion(30, 100).fmt(pct=True) == "30.0% [21.9, 39.6] (n=100)"
