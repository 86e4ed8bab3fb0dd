"""Small pictures of the gallery's figures, built by the views' own figure builders on small,
fixed data, once per server (the digits: Fig. 4's first rows, which need no digits model)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core import contours as ct
from kpca_core.datasets import parabola, three_rings
from kpca_core.denoise import Noise, first_of_each_class, toy_denoising
from kpca_core.figures import contours as contour_figures
from kpca_core.figures import denoise as denoise_figures
from kpca_core.figures import features as features_figures
from kpca_core.figures import rings as rings_figures
from kpca_core.figures import spectrum as spectrum_figures
from kpca_core.rings import fig5_readings
from kpca_core.spectrum import WidthSweep
from kpca_ui.cache import memo
from kpca_ui.views.denoising_cache import digit_sets
from kpca_ui.views.features import shipped_table

HEIGHT_PX = 180  # every picture's height: one row of cards reads as one row


def _small(fig: go.Figure) -> go.Figure:
    """A thumbnail of a short fixed height, without words: on a card's width they were cut
    at its edge or ran into the next panel's; the card's title and caption say them."""
    fig = go.Figure(fig.to_dict(), _validate=False)
    fig.update_layout(
        height=HEIGHT_PX,
        width=None,
        title=None,
        showlegend=False,
        margin={"l": 0, "r": 0, "t": 0, "b": 0},
    )
    fig.layout.annotations = ()
    if "coloraxis" in fig.layout:
        fig.update_layout(coloraxis_showscale=False)
    fig.update_xaxes(showticklabels=False, title=None)
    fig.update_yaxes(showticklabels=False, title=None)
    fig.update_traces(showscale=False, texttemplate="", selector={"type": "heatmap"})
    return fig


def _fig2() -> go.Figure:
    """Fig. 2's first component at degrees 1 and 2 (the whole grid is too small on a card)."""
    X, labels = parabola(150, noise=0.2, random_state=0)
    specs = ct.sweep_specs(ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", (1, 2))
    grid = ct.make_grid(X, 30)
    columns = tuple(
        ct.evaluate_column(ct.fit_column(X, spec, n_components=1), grid) for spec in specs
    )
    sweep = ct.ContourSweep(X, labels, grid, columns, "degree", 1)
    return contour_figures.contour_figure(sweep)


def _rings() -> go.Figure:
    X, _ = three_rings(150, noise=0.25, random_state=0)
    sweep = WidthSweep(kernel="rbf", n_widths=20).fit(X)
    return spectrum_figures.spectrum_heatmap_figure(sweep)


def _fig5() -> go.Figure:
    X, labels = three_rings(150, noise=0.25, random_state=0)
    return rings_figures.fig5_figure(fig5_readings(X), labels)


def _digits(noise: Noise) -> go.Figure:
    _, test = digit_sets()
    clean = test.images[first_of_each_class(test.labels)][:5]
    rows = np.stack([clean, noise.apply(clean, 1)])
    return denoise_figures.mosaic_figure(
        rows, side=test.side, row_labels=("", ""), column_labels=("",) * len(clean)
    )


BUILDERS = {
    "fig2": _fig2,
    "rings": _rings,
    "toy": lambda: denoise_figures.toy_figure(
        [toy_denoising(name, n_samples=100) for name in ("half_circle", "square")]
    ),
    "fig5": _fig5,
    "table2": lambda: features_figures.table2_figure(shipped_table().errors),
    "gaussian_digits": lambda: _digits(Noise("gaussian", 0.5)),
    "speckle_digits": lambda: _digits(Noise("speckle", 0.4)),
}
"""The pictures by name, as :class:`kpca_ui.views.home.Card` names them."""


@memo
def picture(name: str) -> go.Figure:
    """The picture called ``name``, built once per server (never mutated)."""
    return _small(BUILDERS[name]())
