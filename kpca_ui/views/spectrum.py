"""The Spectrum view's settings and words: kernels, sidebar controls, the texts beside figures.

Its sweep and figures are in :mod:`kpca_ui.views.spectrum_sweep`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.figures import spectrum as figures
from kpca_core.spectrum import IDENTITY, WidthSweep
from kpca_ui.explain import text
from kpca_ui.points import MAX_TOY_POINTS, PointSet, picker
from kpca_ui.presenter import prose
from kpca_ui.settings import Settings, choice, flag, number
from kpca_ui.shell import camera

EXTRA = {"gaussian_clusters": "Eleven Gaussians in R^10 (Mika et al. Table 1)"}
# Short labels: the link holds them.
KERNELS = {
    "rbf": "Gaussian: width σ",
    "laplacian": "Laplacian: width ℓ",
    "poly": "Polynomial: offset c",
    "degree": "Polynomial: degree d",
}
FORMULAS = {
    "rbf": "k(x, y) = exp(−‖x−y‖² / 2σ²)",
    "laplacian": "k(x, y) = exp(−‖x−y‖₁ / ℓ)",
    "poly": "k(x, y) = (x·y + c)^d, c swept",
    "degree": "k(x, y) = (x·y + c)^d, d = 1, 2, …",
}
MAX_WIDTHS = 200
DECADES = (-8.0, 10.0)
SETTINGS = Settings(
    "sp",
    "spectrum",
    *picker("sp", EXTRA),
    choice("sp_kernel", "Kernel and swept parameter", KERNELS, cost="fit"),
    number("sp_coef0", "Offset c", 0.0, 100.0, 1.0, step=0.5, widget="number", cost="fit"),
    number("sp_dmax", "Largest degree", 2, 15, 10, cost="fit"),
    number("sp_degree", "Degree d", 1, 10, 3, cost="fit"),
    number(
        "sp_range",
        "Range, in powers of ten of the data scale",
        *DECADES,
        (-3.0, 2.0),
        widget="range",
        step=0.5,
        cost="fit",
    ),
    number("sp_nw", "Number of widths", 10, MAX_WIDTHS, 60, step=5, cost="fit"),
    number("sp_k", "Leading components drawn", 1, 12, 6),
    camera("sp"),
    # its options, the sweep's widths, are settled by the page
    choice("sp_at", "Chosen width", (), widget="select_slider", stepping=True),
    flag("sp_logbars", "Logarithmic bars"),
    flag("sp_film", "Play the sweep: the spectrum at every width, animated in your browser"),
)


@dataclass(frozen=True)
class Choice:
    """What the sweep is: the kernel and its swept parameter, their range and steps."""

    kernel: str
    decades: tuple[float, float]
    n_widths: int
    degree: int
    coef0: float
    max_degree: int


def choice_of(values: Mapping[str, Any]) -> Choice:
    """The sweep the settings' ``values`` ask for (a degree sweep has no range)."""
    kernel = values["sp_kernel"]
    if kernel == "degree":
        return Choice(kernel, (-3.0, 2.0), 60, 3, float(values["sp_coef0"]), int(values["sp_dmax"]))
    degree = int(values["sp_degree"]) if kernel == "poly" else 3
    low, high = values["sp_range"]
    return Choice(kernel, (float(low), float(high)), int(values["sp_nw"]), degree, 1.0, 10)


def kernel_controls() -> Choice:
    """Sidebar widgets for the kernel and the sweep; the sweep they ask for."""
    sidebar = st.sidebar
    if prose():
        sidebar.subheader("Kernel and sweep")
    kernel = SETTINGS.draw("sp_kernel", sidebar)
    if prose():
        sidebar.caption(FORMULAS[kernel])
    if kernel == "degree":
        SETTINGS.draw("sp_coef0", sidebar)
        SETTINGS.draw("sp_dmax", sidebar)
    else:
        if kernel == "poly":
            SETTINGS.draw("sp_degree", sidebar)
        scale = "mean ‖x‖²" if kernel == "poly" else "median distance"
        SETTINGS.draw("sp_range", sidebar, label=f"{SETTINGS['sp_range'].label} ({scale})")
        SETTINGS.draw("sp_nw", sidebar)
        if prose():
            sidebar.caption(
                f"At most {MAX_WIDTHS} widths and {MAX_TOY_POINTS} points. The sweep takes "
                "about 0.1 s for 60 widths on 300 points, 1.5 s on 1000 and 10 s on 2000 points."
            )
    return choice_of(SETTINGS.values())


def figure_controls() -> int:
    """The sidebar's figure settings; the number of leading components drawn."""
    if prose():
        st.sidebar.subheader("Figures")
    n_leading = SETTINGS.draw("sp_k", st.sidebar)
    SETTINGS.draw("sp_img", st.sidebar, horizontal=True)
    return n_leading


def file_stem(points: PointSet, chosen: Choice) -> str:
    data = "_".join(str(part) for part in points.key[1:]) if points.key[0] == "toy" else "upload"
    if chosen.kernel == "degree":
        sweep = f"degree1-{chosen.max_degree}_c{chosen.coef0:g}"
    else:
        sweep = f"{chosen.kernel}{'_d' + str(chosen.degree) if chosen.kernel == 'poly' else ''}"
        sweep += f"_1e{chosen.decades[0]:g}-1e{chosen.decades[1]:g}x{chosen.n_widths}"
    return f"{data}_{sweep}".replace(" ", "")


def range_text(sweep: WidthSweep, regime: str) -> str | None:
    """Which widths of the sweep are in ``regime`` (its kernel matrix numerically the
    identity, or constant), and what the sweep does there; None if none is."""
    widths = sweep.widths_[sweep.regime_ == regime]
    if widths.size == 0:
        return None
    width = widths.max() if regime == IDENTITY else widths.min()
    said = "sp_identity" if regime == IDENTITY else "sp_constant"
    return text(said, symbol=figures.symbol(sweep), width=width, count=widths.size)


def rounding_text(sweep: WidthSweep, index: int) -> str:
    value = figures.format_parameter(sweep, float(sweep.widths_[index]))
    n_clipped = int(sweep.n_clipped_[index])
    text = (
        f"At {value}, {n_clipped} of the {sweep.n_samples_} eigenvalues are zero up to "
        f"rounding (at most {sweep.floor_[index]:.1e}) and were set to 0"
    )
    if sweep.negative_ratio_[index] > 0:
        text += f"; the most negative was {-sweep.negative_ratio_[index]:.1e} × λ₁"
    text += ". Centring always makes one eigenvalue exactly 0 (the constant direction)."
    if sweep.precision_ == "single":
        text += (
            " The sweep ran in single precision (float32) for speed: normalised "
            "eigenvalues are correct to within 1e-5."
        )
    return text
