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


LIMITS = {
    "rbf": (
        "**Narrow σ**: every point is similar only to itself, the kernel matrix "
        "tends to the identity, and every point becomes its own component: all "
        "M − 1 eigenvalues of the centred matrix are equal (each a share 1/(M − 1) "
        "of the variance). Nothing about the shape of the data is learnt.\n\n"
        "**Wide σ**: exp(−‖x−y‖²/2σ²) ≈ 1 − ‖x−y‖²/2σ², and after centring only the "
        "dot products x·y are left: kernel PCA becomes linear PCA. On 2-D data the "
        "first two components then take all the variance, (λ₁+λ₂)/Σλ → 1.\n\n"
        "In between, the width decides how many components the data need."
    ),
    "laplacian": (
        "**Narrow ℓ**: as for the Gaussian, the kernel matrix tends to the identity "
        "and every point becomes its own component.\n\n"
        "**Wide ℓ**: exp(−‖x−y‖₁/ℓ) ≈ 1 − ‖x−y‖₁/ℓ. The L1 distance is not a squared "
        "distance, so the limit is *not* linear PCA: the variance stays spread over "
        "many components, and (λ₁+λ₂)/Σλ levels off below 1."
    ),
    "poly": (
        "**Small c**: (x·y + c)^d becomes the homogeneous (x·y)^d, whose feature "
        "space holds only the monomials of degree exactly d (d + 1 of them in 2-D).\n\n"
        "**Large c**: (x·y + c)^d = c^d (1 + x·y/c)^d ≈ c^d (1 + d x·y/c): after "
        "centring only x·y is left, and kernel PCA becomes linear PCA.\n\n"
        "There is no narrow limit: a polynomial kernel matrix never tends to the identity."
    ),
    "degree": (
        "**Degree 1** is linear PCA (with an offset that centring removes).\n\n"
        "**Each further degree** adds the monomials of that degree to the feature "
        "space: C(N + d, d) − 1 directions after centring in N dimensions, so the "
        "variance spreads over more and more components."
    ),
}


def range_text(sweep: WidthSweep, regime: str) -> str | None:
    widths = sweep.widths_[sweep.regime_ == regime]
    if widths.size == 0:
        return None
    name = figures.symbol(sweep)
    if regime == IDENTITY:
        return (
            f"For {name} ≤ {widths.max():.3g} ({widths.size} widths) the kernel matrix is "
            "numerically the identity: every off-diagonal entry is below the machine "
            "epsilon. These widths are shaded and labelled."
        )
    return (
        f"For {name} ≥ {widths.min():.3g} ({widths.size} widths) every entry of the kernel "
        "matrix rounds to the same number: K is numerically constant, and centring K "
        "itself would leave only rounding noise. The sweep centres K − 1 instead "
        "(computed by expm1, exact to the last digit), which centring treats the same, "
        "so the spectrum shown there is the true one. These widths are shaded."
    )


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
