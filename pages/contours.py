"""Contours: kernel principal components as lines of constant value over 2-D data.

Schölkopf, Smola & Müller (1998), Fig. 2. Widgets → cached fits and grid
evaluations (one per column, keyed on small values) → pure figure builders.
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
from kpca_ui.links import link_tools
from kpca_ui.points import PointSet, point_picker
from kpca_ui.presenter import presentable
from kpca_ui.shell import camera_format, require_app_shell
from kpca_ui.workers import build, compute, concurrently

require_app_shell()

# Short labels: a bound selectbox keeps its label in the URL.
KERNELS = {
    "poly": "Polynomial",
    "rbf": "Gaussian",
    "laplacian": "Laplacian",
    "sigmoid": "Sigmoid",
    "linear": "Linear",
}
FORMULAS = {
    "poly": "k(x, y) = (γ x·y + c)^d (eq. 22 for γ = 1, c = 0)",
    "rbf": "k(x, y) = exp(−‖x−y‖²/(2σ²)) (eq. 62)",
    "laplacian": "k(x, y) = exp(−‖x−y‖₁/σ)",
    "sigmoid": "k(x, y) = tanh(γ x·y + c) (eq. 63)",
    "linear": "k(x, y) = x·y",
}
SWEEP_NAMES = {
    "degree": "degree d",
    "c": "offset c",
    "gamma": "scale γ",
    "sigma": "width σ",
    "none": "nothing (one column)",
}
SIGMAS = [
    round(mantissa * 10.0**exponent, 6)
    for exponent in range(-3, 4)
    for mantissa in (1, 1.5, 2, 3, 5, 7)
    if mantissa * 10.0**exponent <= 1000
]
RESOLUTIONS = [40, 60, 80, 100, 150, 200]
DEFAULTS = {
    "ct_kernel": "poly",
    "ct_sweep": "degree",
    "ct_values": ct.DEFAULT_VALUES[("poly", "degree")],
    "ct_k": 3,
    "ct_center": True,
    "ct_pca": False,
    "ct_degree": 2,
    "ct_gamma": 1.0,
    "ct_coef0": 0.0,
    "ct_sigma": 1.0,
    "ct_res": 100,
}
# Schölkopf et al. 1998, Fig. 2: parabola, (x·y)^d for d = 1…4, components 1–3.
FIG2 = {
    "ct_data": "parabola",
    "ct_n": 300,
    "ct_noise": 0.2,
    "ct_seed": 0,
    **DEFAULTS,
}
# Three rings and Gaussian kernels: kPC 1 against kPC 2 separates the rings.
RINGS = {
    "ct_data": "three_rings",
    "ct_n": 300,
    "ct_noise": 0.25,
    "ct_seed": 0,
    **DEFAULTS,
    "ct_kernel": "rbf",
    "ct_sweep": "sigma",
    "ct_values": "0.5, 1, 2",
    "ct_pca": True,
}
FIG2_CAPTION = (
    "**What to look at** (Schölkopf, Smola & Müller 1998, Fig. 2). Degree 1 is linear "
    "PCA: the contour lines are straight and orthogonal to the eigenvectors, and there "
    "is no third component, because linear PCA in 2-D has only two non-zero "
    "eigenvalues. From degree 2 on the lines bend along the parabola, and the third "
    "component picks up the variance caused by the noise: its lines run along the "
    "parabola, so its value measures how far a point lies off the curve."
)


def _apply(preset: dict) -> None:
    for key, value in preset.items():
        st.session_state[key] = value


def _reset_sweep() -> None:
    kernel = st.session_state["ct_kernel"]
    options = ct.SWEEPABLE[kernel]
    st.session_state["ct_sweep"] = options[0] if options else "none"
    if options:
        st.session_state["ct_values"] = ct.DEFAULT_VALUES[(kernel, options[0])]


def _reset_values() -> None:
    kernel, sweep = st.session_state["ct_kernel"], st.session_state["ct_sweep"]
    if sweep != "none":
        st.session_state["ct_values"] = ct.DEFAULT_VALUES[(kernel, sweep)]


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


def _spec_key(spec: ct.KernelSpec) -> tuple:
    """Only the parameters the kernel uses, so other widgets do not refit it."""
    used = {
        "poly": (spec.degree, spec.gamma, spec.coef0, 1.0),
        "sigmoid": (2, spec.gamma, spec.coef0, 1.0),
        "rbf": (2, 1.0, 0.0, spec.sigma),
        "laplacian": (2, 1.0, 0.0, spec.sigma),
    }.get(spec.kernel, (2, 1.0, 0.0, 1.0))
    return (spec.kernel, *used)


def _kernel_controls() -> tuple[ct.KernelSpec, str | None, tuple[float, ...], int, bool, bool, int]:
    # Initial values are the widgets' own defaults (value=/index=), so that a URL
    # parameter equal to them means the same thing as no parameter.
    top = st.columns([2, 1.4, 1.6, 1.4])
    kernel = top[0].selectbox(
        "Kernel",
        list(KERNELS),
        format_func=KERNELS.get,
        index=list(KERNELS).index(DEFAULTS["ct_kernel"]),
        key="ct_kernel",
        on_change=_reset_sweep,
        bind="query-params",
    )
    options = [*ct.SWEEPABLE[kernel], "none"]
    if st.session_state.get("ct_sweep", options[0]) not in options:
        st.session_state["ct_sweep"] = options[0]
    top[0].caption(FORMULAS[kernel])
    sweep = top[1].selectbox(
        "Columns sweep",
        options,
        format_func=SWEEP_NAMES.get,
        key="ct_sweep",
        on_change=_reset_values,
        bind="query-params",
        help="Which kernel parameter changes from column to column.",
    )
    parameter = None if sweep == "none" else sweep
    text = top[2].text_input(
        "Values (comma-separated)",
        DEFAULTS["ct_values"],
        key="ct_values",
        disabled=parameter is None,
        bind="query-params",
        help=f"At most {ct.MAX_COLUMNS} values, e.g. 1, 2, 3, 4.",
    )
    n_components = top[3].slider(
        "Components", 1, ct.MAX_COMPONENTS, DEFAULTS["ct_k"], key="ct_k", bind="query-params"
    )
    fixed = st.columns(5)
    center = fixed[3].toggle(
        "Centre in F",
        DEFAULTS["ct_center"],
        key="ct_center",
        bind="query-params",
        help="Centre the mapped data in feature space (eq. 49).",
    )
    pca = fixed[3].checkbox(
        "Linear PCA column",
        DEFAULTS["ct_pca"],
        key="ct_pca",
        bind="query-params",
        help="Add scikit-learn's linear PCA as a first column, for comparison.",
    )

    values: tuple[float, ...] = ()
    if parameter is not None:
        try:
            values = ct.parse_values(text, parameter)
        except ValueError as error:
            default = ct.DEFAULT_VALUES[(kernel, parameter)]
            st.error(f"Values of {SWEEP_NAMES[parameter]}: {error}. Showing {default} instead.")
            values = ct.parse_values(default, parameter)

    spec = ct.KernelSpec(kernel)
    if kernel == "poly" and parameter != "degree":
        degree = fixed[0].slider(
            "Degree d", 1, 10, DEFAULTS["ct_degree"], key="ct_degree", bind="query-params"
        )
        spec = spec.with_value("degree", degree)
    if kernel in ("poly", "sigmoid") and parameter != "gamma":
        gamma = fixed[1].number_input(
            "Scale γ",
            min_value=1e-6,
            max_value=1e6,
            value=DEFAULTS["ct_gamma"],
            step=0.1,
            format="%g",
            key="ct_gamma",
            bind="query-params",
        )
        spec = spec.with_value("gamma", gamma)
    if kernel in ("poly", "sigmoid") and parameter != "c":
        coef0 = fixed[2].number_input(
            "Offset c",
            min_value=-100.0,
            max_value=100.0,
            value=DEFAULTS["ct_coef0"],
            step=0.5,
            format="%g",
            key="ct_coef0",
            bind="query-params",
        )
        spec = spec.with_value("c", coef0)
    if kernel in ("rbf", "laplacian") and parameter != "sigma":
        if st.session_state.get("ct_sigma", DEFAULTS["ct_sigma"]) not in SIGMAS:
            st.session_state["ct_sigma"] = DEFAULTS["ct_sigma"]
        sigma = fixed[0].select_slider(
            "Width σ (log scale)",
            SIGMAS,
            DEFAULTS["ct_sigma"],
            format_func=lambda value: f"{value:g}",
            key="ct_sigma",
            bind="query-params",
        )
        spec = spec.with_value("sigma", sigma)
        fixed[1].caption(f"γ = {spec.engine_gamma:.4g}")
    elif kernel in ("rbf", "laplacian"):
        fixed[0].caption(
            "γ = "
            + ", ".join(f"{spec.with_value('sigma', value).engine_gamma:.3g}" for value in values)
        )
    resolution = fixed[4].select_slider(
        "Grid resolution", RESOLUTIONS, DEFAULTS["ct_res"], key="ct_res", bind="query-params"
    )
    return spec, parameter, values, n_components, center, pca, resolution


@st.fragment
def contour_view(points: PointSet) -> None:
    """Kernel controls, the grid of contour panels and the downloads."""
    spec, parameter, values, n_components, center, pca, resolution = _kernel_controls()
    specs = ct.sweep_specs(spec, parameter, values)
    if pca:
        specs.insert(0, ct.KernelSpec("pca"))
    X = points.X
    columns = tuple(
        concurrently(
            *(
                partial(_column, X, points.key, _spec_key(s), center, n_components, resolution)
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
        tuple(map(_spec_key, specs)),
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
def projection_view(sweep: ct.ContourSweep, slug: str) -> None:
    """The data in two chosen components of one column."""
    st.subheader("The data in kernel principal components")
    choose = st.columns(3)
    n_columns, k = len(sweep.columns), sweep.n_components
    defaults = {"ct_pcol": n_columns - 1, "ct_pi": 1, "ct_pj": min(2, k)}
    limits = {"ct_pcol": n_columns - 1, "ct_pi": k, "ct_pj": k}
    for key, default in defaults.items():
        if st.session_state.get(key, default) > limits[key]:
            st.session_state[key] = default
    column = choose[0].selectbox(
        "Column",
        range(n_columns),
        index=defaults["ct_pcol"],
        format_func=sweep.column_label,
        key="ct_pcol",
        bind="query-params",
    )
    components = list(range(1, k + 1))
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


st.title("Contours of kernel principal components")
st.markdown(
    "Over 2-D data, the lines of constant value of the first kernel principal "
    "components (Schölkopf, Smola & Müller 1998, Fig. 2): straight and orthogonal "
    "for linear PCA, bending as the kernel becomes nonlinear. The value at a point t "
    "is its projection (V^k · Φ(t)) = Σᵢ αᵢᵏ k(xᵢ, t) (eqs. 17, 51)."
)
presets = st.columns([1.3, 1, 2])
presets[0].button(
    "Schölkopf et al. 1998, Fig. 2",
    key="ct_preset_fig2",
    on_click=_apply,
    args=(FIG2,),
    help="Parabola, homogeneous polynomial kernels of degree 1–4, components 1–3.",
)
presets[1].button(
    "Three rings, Gaussian",
    key="ct_preset_rings",
    on_click=_apply,
    args=(RINGS,),
    help="Gaussian kernels on three rings; kPC 1 against kPC 2 separates them.",
)
points = point_picker("ct")
if points.X.shape[1] != 2:
    st.error("The Contours view needs 2-D points: choose a 2-D data set.")
else:
    contour_view(points)
link_tools("ct")
