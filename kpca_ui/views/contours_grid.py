"""The Contours view's figures: cached fits and grid evaluations, the grid, the projection.

Widgets → cached fits and grid evaluations (one per column, keyed on small
values) → pure figure builders (:mod:`kpca_core.figures.contours`).  The
settings are in :mod:`kpca_ui.views.contours`.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from kpca_core import contours as ct
from kpca_core.figures import contours as figures
from kpca_core.figures import panels
from kpca_core.figures.style import export_config
from kpca_ui.explain import explain
from kpca_ui.points import PointSet
from kpca_ui.presenter import presentable
from kpca_ui.safety import guarded
from kpca_ui.shell import camera_format
from kpca_ui.views.contours import kernel_controls, spec_key
from kpca_ui.workers import build, compute, concurrently

FIG2_CAPTION = (
    "**What to look at** (Schölkopf, Smola & Müller 1998, Fig. 2). Degree 1 is linear "
    "PCA: the contour lines are straight and orthogonal to the eigenvectors, and there "
    "is no third component, because linear PCA in 2-D has only two non-zero "
    "eigenvalues. From degree 2 on the lines bend along the parabola, and the third "
    "component picks up the variance caused by the noise: its lines run along the "
    "parabola, so its value measures how far a point lies off the curve."
)


@st.cache_resource(max_entries=96, show_spinner=False)
def _fit(
    _X: np.ndarray,
    data_key: tuple,
    spec: tuple,
    center: bool,
    n_components: int,
) -> ct.ColumnFit:
    kernel_spec = ct.KernelSpec(*spec)
    try:
        return compute(ct.fit_column, _X, kernel_spec, n_components=n_components, center=center)
    except Exception as error:  # an unforeseen engine failure must not reach the screen
        return ct.ColumnFit(
            kernel_spec,
            center,
            n_components,
            None,
            np.zeros((len(_X), 0)),
            np.zeros(0),
            np.zeros(0),
            (),
            f"{kernel_spec.formula()}: the eigensolver failed ({error}). Try other parameters.",
        )


@st.cache_resource(max_entries=96, show_spinner=False)
def _column(
    _X: np.ndarray,
    data_key: tuple,
    spec: tuple,
    center: bool,
    n_components: int,
    resolution: int,
) -> ct.Column:
    fit = _fit(_X, data_key, spec, center, n_components)
    return compute(ct.evaluate_column, fit, ct.make_grid(_X, resolution))


@st.cache_resource(max_entries=32, show_spinner=False)
def _contour_figure(_sweep: ct.ContourSweep, key: tuple, title: str) -> go.Figure:
    """The grid figure, built once per setting and shared by every session (never mutated).

    Building it takes ~25 ms (an image and contour lines per panel); the class
    that opened the same preset shares one.
    """
    return build(figures.contour_figure, _sweep, title=title)


@st.fragment
@guarded("ct", "the contour grid")
def contour_view(points: PointSet) -> None:
    """Kernel controls, the grid of contour panels and the downloads."""
    spec, parameter, values, n_components, center, pca, resolution = kernel_controls()
    specs = ct.sweep_specs(spec, parameter, values)
    if pca:
        specs.insert(0, ct.KernelSpec("pca"))
    X = points.X
    columns = tuple(
        concurrently(
            *(
                partial(_column, X, points.key, spec_key(s), center, n_components, resolution)
                for s in specs
            )
        )
    )
    sweep = ct.ContourSweep(
        X, points.labels, ct.make_grid(X, resolution), columns, parameter, n_components
    )
    for c, column in enumerate(columns):
        label = sweep.column_label(c)
        if column.error is not None:
            st.warning(f"**{label}**: {column.error}")
        for note in column.notes:
            st.info(f"**{label}**: {note}")

    slug = ct.sweep_slug(sweep)
    image_format = st.session_state.get("ct_img", "png")
    figure_key = (
        points.key,
        tuple(map(spec_key, specs)),
        parameter,
        center,
        n_components,
        resolution,
    )
    st.plotly_chart(
        presentable(_contour_figure(sweep, figure_key, points.title)),
        width="content",  # the figure's own width, figures.FIGURE_PX
        key="ct_contours",
        config=export_config(f"contours_{slug}", image_format=image_format),
    )
    if _is_fig2(points, spec, parameter, values, center):
        st.info(FIG2_CAPTION)
    st.caption(
        "Each panel shows one component's value over the plane, divided by its largest "
        "|value| on the data points, so that one colour scale (red positive, blue "
        "negative, white 0) fits every panel; λ and its share of the variance are in the "
        f"title. Contour lines every {panels.LEVEL_STEP:g} of that scale."
    )
    explain("ct_contours")
    projection_view(sweep, slug)
    _downloads(sweep, slug)


@st.fragment
@guarded("ct", "the projection")
def projection_view(sweep: ct.ContourSweep, slug: str) -> None:
    """The data in two chosen components of one column."""
    st.subheader("The data in kernel principal components")
    choose = st.columns(3)
    # The Column box's options are the columns' labels, not their positions: a
    # position keeps its value when the columns change while its label changes
    # under it, and the browser would go on showing (and sending back) the old one.
    labels = column_labels(sweep)
    components = list(range(1, sweep.n_components + 1))
    choices = {"ct_pcol": labels, "ct_pi": components, "ct_pj": components}
    defaults = {"ct_pcol": labels[-1], "ct_pi": 1, "ct_pj": min(2, sweep.n_components)}
    for key, options in choices.items():
        # Membership, not order: a value left from other columns may be of any type.
        if st.session_state.get(key, defaults[key]) not in options:
            st.session_state[key] = defaults[key]
    label = choose[0].selectbox(
        "Column", labels, index=len(labels) - 1, key="ct_pcol", bind="query-params"
    )
    column = labels.index(label)
    i = choose[1].selectbox("Horizontal: kPC", components, key="ct_pi", bind="query-params")
    j = choose[2].selectbox(
        "Vertical: kPC",
        components,
        index=defaults["ct_pj"] - 1,
        key="ct_pj",
        bind="query-params",
    )
    image_format = st.session_state.get("ct_img", "png")
    st.plotly_chart(
        presentable(figures.projection_figure(sweep, column, i, j)),
        key="ct_projection",
        config=export_config(f"contours-kpc{i}-kpc{j}_{slug}", image_format=image_format),
    )
    explain("ct_projection")


def column_labels(sweep: ct.ContourSweep) -> list[str]:
    """The columns' labels ("degree 2", "σ = 0.5", "linear PCA"), made unique if they repeat."""
    labels = [sweep.column_label(c) for c in range(len(sweep.columns))]
    if len(set(labels)) < len(labels):
        labels = [f"{label} (column {c + 1})" for c, label in enumerate(labels)]
    return labels


@guarded("ct", "the downloads")
def _downloads(sweep: ct.ContourSweep, slug: str) -> None:
    st.subheader("Numbers and pictures")
    row = st.columns(4)
    tables = (
        ("Eigenvalues (CSV)", "eigenvalues", ct.eigenvalues_table),
        ("Components of the data points (CSV)", "points", ct.points_table),
        ("Values on the grid (CSV)", "grid", ct.grid_table),
    )
    for column, (label, name, table) in zip(row, tables, strict=False):
        column.download_button(
            label,
            data=lambda table=table: ct.to_csv(table(sweep)),
            file_name=f"contours-{name}_{slug}.csv",
            mime="text/csv",
            on_click="ignore",
            key=f"ct_dl_{name}",
        )
    camera_format(row[3], "ct_img")


def _is_fig2(
    points: PointSet,
    spec: ct.KernelSpec,
    parameter: str | None,
    values: tuple[float, ...],
    center: bool,
) -> bool:
    return (
        points.key[:2] == ("toy", "parabola")
        and spec.kernel == "poly"
        and parameter == "degree"
        and values[:2] == (1, 2)
        and spec.gamma == 1
        and spec.coef0 == 0
        and center
    )
