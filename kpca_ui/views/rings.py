"""The three rings in the Contours view: what each rings preset's picture shows.

The captions' numbers come from ``RINGS_CLAIMS``, which the tests recompute, so a caption
cannot drift from its picture.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from kpca_core import contours as ct
from kpca_core import gamma_to_sigma
from kpca_core.figures import rings as figures
from kpca_core.figures.style import FONT_SCALE, export_config
from kpca_core.rings import DK_GAMMA, Reading, fig5_readings
from kpca_ui.cache import memo
from kpca_ui.chart import chart
from kpca_ui.points import PointSet
from kpca_ui.presenter import page_px, presentable, presenter_mode, prose
from kpca_ui.workers import build, compute

DK_SIGMA = float(f"{gamma_to_sigma(DK_GAMMA):.4g}")  # σ for Deręgowski & Krzyśko's c = 0.017
RING_NAMES = ("radius 1", "radius 2", "radius 4")

# (σ, centred) → {component: |Spearman ρ| with ‖x‖} on three_rings(300, 0.25, seed 0)
RINGS_CLAIMS = {
    (2.0, True): {1: 0.29, 2: 0.24, 3: 0.90},
    (1.0, True): {2: 0.75, 3: 0.56},
    (0.5, False): {1: 0.96},
    (1.0, False): {1: 0.96},
    (2.0, False): {1: 0.97},
}
_AT_2, _AT_1 = RINGS_CLAIMS[(2.0, True)], RINGS_CLAIMS[(1.0, True)]
RINGS_HELP = (
    "Gaussian kernels σ = 0.5, 1, 2 on three rings. Centred, kPC 1 and kPC 2 are nearly "
    "x and y: at σ = 2 the radius is kPC 3."
)
RINGS_CAPTION = (
    "**What to look at** (three rings, Gaussian σ = 0.5, 1, 2, centred in F). At σ = 2, "
    "the projection below, kPC 1 and kPC 2 are nearly the linear x and y (|Spearman ρ| "
    f"with the radius ‖x‖ {_AT_2[1]:.2f} and {_AT_2[2]:.2f}), so their scatter keeps the "
    f"outer rings around each other; the radius is kPC 3 ({_AT_2[3]:.2f}): choose it as "
    f"an axis and the rings lie in bands. At σ = 1 the radius is shared by kPC 2 "
    f"({_AT_1[2]:.2f}) and kPC 3 ({_AT_1[3]:.2f}). Switch “Centre in F” off and kPC 1 "
    "orders the points by radius at every one of these widths (|ρ| "
    f"{min(RINGS_CLAIMS[(s, False)][1] for s in (0.5, 1.0, 2.0)):.2f} or more)."
)
RINGS_NOTICE = (  # presenter mode's one line under the grid of the three rings preset
    "At σ = 2 the first two components are nearly x and y; the radius, which tells "
    "the rings apart, is the third."
)
WHY_CENTRING = (
    "**Why centring moves the radius**: without centring, the first axis points at the "
    "mean of the mapped points Φ(x), so kPC 1 measures how similar a point is to the data "
    "as a whole, which falls with its distance from the centre; centring subtracts that "
    "mean, so at this wide kernel the largest variation left is the position in the plane "
    "(x and y) and the radius comes third."
)


def dk_rings(points: PointSet, kernel: str) -> bool:
    """Whether the points are Deręgowski & Krzyśko's three rings and the kernel a Gaussian."""
    return points.key[:2] == ("toy", "three_rings") and kernel == "rbf"


def is_rings_preset(
    points: PointSet, spec: ct.KernelSpec, parameter: str | None, values: tuple[float, ...]
) -> bool:
    """Whether the Contours settings are those of the "Three rings, Gaussian" preset."""
    preset_widths = parameter == "sigma" and tuple(values) == (0.5, 1.0, 2.0)
    return dk_rings(points, spec.kernel) and preset_widths


def has_dk_width(
    points: PointSet, spec: ct.KernelSpec, parameter: str | None, values: tuple[float, ...]
) -> bool:
    """Whether the three rings are shown with a Gaussian of Deręgowski & Krzyśko's c."""
    sigmas = values if parameter == "sigma" else (spec.sigma,)
    return dk_rings(points, spec.kernel) and any(np.isclose(s, DK_SIGMA, rtol=1e-3) for s in sigmas)


@memo
def _readings(points: PointSet) -> tuple[Reading, Reading]:
    return compute(fig5_readings, points.X, gamma=DK_GAMMA)


def reading_words(reading: Reading) -> str:
    """Which component carries the radius in one reading, with every |ρ|."""
    name = "Centred in F" if reading.center else "Not centred in F"
    k = reading.radius_component
    others = ", ".join(
        f"kPC {j} {rho:.2f}" for j, rho in enumerate(reading.correlations, start=1) if j != k
    )
    return (
        f"**{name}**: the radius is kPC {k} (|Spearman ρ| with ‖x‖ "
        f"{reading.correlations[k - 1]:.2f}; {others})."
    )


def fig5_section(points: PointSet, image_format: str, width: int = figures.WIDTH_PX) -> None:
    """Deręgowski & Krzyśko's Fig. 5, centred and not, planned for ``width`` px (or the page's)."""
    st.subheader("Deręgowski & Krzyśko, Fig. 5: centred and not centred")
    if prose():
        st.markdown(
            f"k(x, y) = exp(−c‖x − y‖²) with their c = {DK_GAMMA} (σ = {DK_SIGMA:g}). They "
            "write that *the first kernel principal direction gives a meaningful order of how "
            "far each observation is away from the origin*. Whether it does depends on "
            "centring in feature space (eq. 49), which the paper never mentions: it centres "
            "only the inputs, which leaves a Gaussian kernel unchanged. The points here lie "
            "on the circles of radius 1, 2 and 4; the paper samples them *from a uniform "
            "distribution in a circle*, which can also mean inside the disc."
        )
    readings = _readings(points)
    projector = presenter_mode()
    fig = build(
        figures.fig5_figure,
        readings,
        points.labels,
        group_names=RING_NAMES,
        gamma=DK_GAMMA,
        width_px=page_px() if projector else width,
        text_scale=FONT_SCALE if projector else 1.0,
    )
    config = export_config("contours-deregowski-krzysko-fig5", image_format=image_format)
    said = figures.describe_fig5(readings, points.labels, group_names=RING_NAMES, gamma=DK_GAMMA)
    chart(presentable(fig), key="ct_fig5", config=config, description=said)
    if prose():
        for reading in readings:
            st.markdown(reading_words(reading))
        st.info(WHY_CENTRING)
