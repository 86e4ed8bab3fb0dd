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
from kpca_ui.explain import text
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
RINGS_HELP = (
    "Gaussian kernels σ = 0.5, 1, 2 on three rings. Centred, kPC 1 and kPC 2 are nearly "
    "x and y: at σ = 2 the radius is kPC 3."
)
RINGS_CAPTION = text(
    "ct_rings",
    at_2=RINGS_CLAIMS[(2.0, True)],
    at_1=RINGS_CLAIMS[(1.0, True)],
    floor=min(RINGS_CLAIMS[(s, False)][1] for s in (0.5, 1.0, 2.0)),
)
WHY_CENTRING = text("ct_why_centring")


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
        st.markdown(text("ct_fig5", gamma=DK_GAMMA, sigma=DK_SIGMA))
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
