"""The report charts a reader must be able to read: the MLEM mat drawn space by space, the Cosmic
matchup heatmap (scale that fits every cell, readable text on every colour, intervals), and interval
charts whose long labels never overlap."""
import matplotlib.colors as mcolors
import numpy as np
import yaml

from analyzer import stats
from analyzer.charts import errorbar_chart
from analyzer.games.base import SCENARIOS_DIR
from analyzer.games.cosmic.report import heatmap
from analyzer.games.mlem.report import board_figure


def texts(fig) -> list[str]:
    return [t.get_text() for t in fig.axes[0].texts]


def test_the_mlem_mat_is_drawn_space_by_space():
    sc = yaml.safe_load((SCENARIOS_DIR / "mlem" / "default.yaml").read_text())
    fig = board_figure(sc)
    drawn = texts(fig)
    spaces = sc["board"]["spaces"]
    moon_values = [v for m in sc["board"]["moons"] for v in m["values"]]
    # every space's number and every moon's points, each drawn once
    assert sorted(int(t) for t in drawn if t.isdigit()) == sorted([*range(len(spaces) - 1), *moon_values])
    assert "deep\nspace" in drawn
    for i, sp in enumerate(spaces[:-1]):  # faces and afterburner pips under every space
        ab = f"AB={sp['ab']}" if sp["ab"] else "no AB"
        assert f"{' '.join(str(f) for f in sp['faces'])}\n{ab}" in drawn, i
    for planet in sc["board"]["planets"]:
        assert "/".join(str(v) for v in planet["points"]) in drawn


def test_the_matchup_heatmap_fits_every_cell_and_keeps_its_text_readable():
    rate = np.full((8, 8), 0.30)
    rate[2, :] = [0.48, 0.50, np.nan, 0.52, 0.49, 0.51, 0.50, 0.48]  # a row far above a fair 30%
    rate[4, :] = 0.14
    np.fill_diagonal(rate, np.nan)
    n = np.full((8, 8), 400)
    fig = heatmap(rate, n, fair=0.30)
    image = fig.axes[0].images[0]
    lo, hi = image.norm.vmin, image.norm.vmax
    assert lo <= 14 and hi >= 52 and abs((lo + hi) / 2 - 30) < 1e-9  # centred on fair, nothing clipped
    for t in fig.axes[0].texts:
        cell = image.cmap(image.norm(float(t.get_text().split("\n")[0])))
        dark = 0.299 * cell[0] + 0.587 * cell[1] + 0.114 * cell[2] < 0.5
        assert mcolors.to_hex(t.get_color()) == ("#ffffff" if dark else "#000000")
    half = 50 * np.subtract(*stats.wilson(0.52 * 400, 400)[2:0:-1])
    assert f"52\n±{half:.0f}" in texts(fig)


def test_long_labels_make_a_horizontal_chart():
    est = [stats.proportion(30, 100), stats.proportion(50, 100)]
    fig = errorbar_chart(["starter_redraw_wild: false", "must_play_if_able: false"], est, "t", "hands")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["starter_redraw_wild: false (n=100)",
                                                           "must_play_if_able: false (n=100)"]
    assert ax.get_xlabel() == "hands"
