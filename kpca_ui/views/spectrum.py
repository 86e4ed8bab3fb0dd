"""The Spectrum view's settings and words: kernels, sidebar controls, the texts beside figures.

The sweep and its figures are in :mod:`kpca_ui.views.spectrum_sweep`; the page,
``app_pages/spectrum.py``, is the layout.
"""

from __future__ import annotations

import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.figures import spectrum as figures
from kpca_core.spectrum import IDENTITY, WidthSweep
from kpca_ui.links import choice, flag, integer, number, pair, text
from kpca_ui.points import MAX_TOY_POINTS, PointSet, link_domains
from kpca_ui.shell import camera_domain, camera_format

EXTRA = {"gaussian_clusters": ("Eleven Gaussians in R^10 (Mika et al. Table 1)", 0.1)}
# Short labels: a bound selectbox keeps its label in the URL.
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
LINK_DOMAINS = {
    **link_domains("sp", EXTRA),
    "sp_kernel": choice(KERNELS.values()),
    "sp_coef0": number(0.0, 100.0),
    "sp_dmax": integer(2, 15),
    "sp_degree": integer(1, 10),
    "sp_range": pair(*DECADES),
    "sp_nw": integer(10, MAX_WIDTHS),
    "sp_k": integer(1, 12),
    "sp_img": camera_domain(),
    "sp_at": text(),  # the sweep's widths, checked by the chosen-width slider
    "sp_logbars": flag(),
    "sp_film": flag(),
}
"""What each widget of the view accepts from a link (:func:`kpca_ui.links.sanitise_link`)."""

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


def kernel_controls() -> tuple:
    """Sidebar widgets for the kernel and the sweep; returns the sweep key."""
    sidebar = st.sidebar
    sidebar.subheader("Kernel and sweep")
    kernel = sidebar.selectbox(
        "Kernel and swept parameter",
        list(KERNELS),
        format_func=KERNELS.get,
        key="sp_kernel",
        bind="query-params",
    )
    sidebar.caption(FORMULAS[kernel])
    degree, coef0, max_degree = 3, 1.0, 10
    decades, n_widths = (-3.0, 2.0), 60
    if kernel == "degree":
        coef0 = sidebar.number_input(
            "Offset c", 0.0, 100.0, 1.0, step=0.5, key="sp_coef0", bind="query-params"
        )
        max_degree = sidebar.slider("Largest degree", 2, 15, 10, key="sp_dmax", bind="query-params")
    else:
        if kernel == "poly":
            degree = sidebar.slider("Degree d", 1, 10, 3, key="sp_degree", bind="query-params")
        scale = "mean ‖x‖²" if kernel == "poly" else "median distance"
        decades = sidebar.slider(
            f"Range, in powers of ten of the data scale ({scale})",
            *DECADES,
            (-3.0, 2.0),
            step=0.5,
            key="sp_range",
            bind="query-params",
        )
        n_widths = sidebar.slider(
            "Number of widths", 10, MAX_WIDTHS, 60, step=5, key="sp_nw", bind="query-params"
        )
        sidebar.caption(
            f"At most {MAX_WIDTHS} widths and {MAX_TOY_POINTS} points. The sweep takes about "
            "0.1 s for 60 widths on 300 points, 1.5 s on 1000 and 10 s on 2000 points."
        )
    return kernel, tuple(float(d) for d in decades), int(n_widths), degree, float(coef0), max_degree


def figure_controls() -> tuple[int, str]:
    sidebar = st.sidebar
    sidebar.subheader("Figures")
    n_leading = sidebar.slider(
        "Leading components drawn", 1, 12, 6, key="sp_k", bind="query-params"
    )
    return n_leading, camera_format(sidebar, "sp_img")


def file_stem(points: PointSet, sweep_key: tuple) -> str:
    kernel, decades, n_widths, degree, coef0, max_degree = sweep_key
    data = "_".join(str(part) for part in points.key[1:]) if points.key[0] == "toy" else "upload"
    if kernel == "degree":
        sweep = f"degree1-{max_degree}_c{coef0:g}"
    else:
        sweep = f"{kernel}{'_d' + str(degree) if kernel == 'poly' else ''}"
        sweep += f"_1e{decades[0]:g}-1e{decades[1]:g}x{n_widths}"
    return f"{data}_{sweep}".replace(" ", "")


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
