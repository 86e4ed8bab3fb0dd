"""A new Spectrum sweep and the figures shown first, made in one call to a worker (issue #36)."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from conftest import figures as sent_figures
from conftest import open_view
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import KernelCenterer

from kpca_core import gamma_to_sigma, sigma_to_gamma
from kpca_core.datasets import three_rings
from kpca_core.figures import spectrum as figures
from kpca_core.figures.spectrum.bundle import default_index, sweep_figures, width_labels
from kpca_core.rings import DK_GAMMA
from kpca_core.spectrum import WidthSweep
from kpca_ui.views import spectrum_sweep

RINGS_QUERY = {"sp_data": "Three rings, radii 1, 2, 4", "sp_n": "300", "sp_noise": "0.25"}


def _json(figure: dict | go.Figure) -> dict:
    return json.loads(pio.to_json(go.Figure(figure, _validate=False), validate=False))


def _share(K: np.ndarray) -> float:
    """(λ₁+λ₂)/Σλ by numpy's full eigenvalue problem, negative rounding set to 0."""
    eigenvalues = np.clip(np.linalg.eigvalsh(K)[::-1], 0, None)
    return float(eigenvalues[:2].sum() / eigenvalues.sum())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_bundle_is_the_sweep_and_figures_made_one_by_one(seed: int) -> None:
    X, labels = three_rings(70, 0.25, seed)
    sigma = gamma_to_sigma(DK_GAMMA)
    marks = ((sigma, "D&K"),)
    made = sweep_figures(
        X,
        labels,
        WidthSweep("rbf", n_widths=20),
        n_leading=4,
        lines_px=400,
        maps_px=600,
        marks=marks,
        compare_at=sigma,
    )
    sweep, index = made.sweep, made.index
    assert index == default_index(sweep)
    # the eigenvalues against scikit-learn's kernel, centred, and numpy's eigvalsh
    for at in (0, index, sweep.widths_.size - 1):
        K = rbf_kernel(X, gamma=sigma_to_gamma(sweep.widths_[at]))
        reference = np.linalg.eigvalsh(KernelCenterer().fit_transform(K))[::-1] / len(X)
        np.testing.assert_allclose(sweep.eigenvalues_[at], reference, rtol=1e-9, atol=1e-13)
    # both shares at D&K's c, and the uncentred sweep, against numpy
    K = rbf_kernel(X, gamma=DK_GAMMA)
    assert made.shares[True] == pytest.approx(_share(KernelCenterer().fit_transform(K)), abs=1e-12)
    assert made.shares[False] == pytest.approx(_share(K), abs=1e-12)
    for at in (0, index, sweep.widths_.size - 1):
        K = rbf_kernel(X, gamma=sigma_to_gamma(sweep.widths_[at]))
        assert made.uncentred.share(2)[at] == pytest.approx(_share(K), abs=1e-10)
    # the figures are the builders' own, at the chosen width
    expected = {
        "bars": figures.spectrum_bars_figure(sweep, index),
        "maps": figures.components_at_figure(sweep, index, labels, width_px=600),
        "lines": figures.ratio_lines_figure(
            sweep, n_leading=4, chosen=index, marks=marks, width_px=400
        ),
        "components": figures.effective_components_figure(sweep, chosen=index),
        "heatmap": figures.spectrum_heatmap_figure(sweep, chosen=index),
        "centring": figures.centring_share_figure(sweep, made.uncentred, marks=marks),
    }
    for name, figure in expected.items():
        assert _json(made.figures[name]) == _json(figure), name
    assert made.figures["marks_frames"].keys() == figures.chosen_frames(sweep).keys()


def test_the_bundle_marks_the_chosen_width_when_it_is_one_of_the_sweeps() -> None:
    X, labels = three_rings(40, 0.25, 0)
    fitted = WidthSweep("rbf", n_widths=12).fit(X)
    chosen = width_labels(fitted)[3]
    made = sweep_figures(
        X, labels, WidthSweep("rbf", n_widths=12), chosen=chosen, lines_px=400, maps_px=600
    )
    assert made.index == 3 and made.uncentred is None and "centring" not in made.figures
    made = sweep_figures(
        X, labels, WidthSweep("rbf", n_widths=12), chosen="nowhere", lines_px=400, maps_px=600
    )
    assert made.index == default_index(made.sweep)


def test_a_data_change_makes_the_sweep_and_its_figures_in_one_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each call waited in the workers' queue behind the other sessions' work: a new sweep
    on the three rings made 11 calls (the sweep, 6 figures, the uncentred sweep, 2 shares,
    the comparison's figure), now 1, and shows the same page."""
    at = open_view("spectrum", query=RINGS_QUERY)
    calls: list[str] = []
    compute, build = spectrum_sweep.compute, spectrum_sweep.build

    def counted(function, *args, **kwargs):
        calls.append(getattr(function, "__name__", str(function)))
        return compute(function, *args, **kwargs)

    def counted_build(builder, *args, **kwargs):
        calls.append(builder.__name__)
        return build(builder, *args, **kwargs)

    monkeypatch.setattr(spectrum_sweep, "compute", counted)
    monkeypatch.setattr(spectrum_sweep, "build", counted_build)
    at.slider("sp_n").set_value(310)
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert calls == ["sweep_figures"]
    shown = {chart.key.rsplit("sp_fig_", 1)[1] for chart in sent_figures(at)}
    assert shown >= {"bars", "maps", "lines", "components", "heatmap", "centring"}
