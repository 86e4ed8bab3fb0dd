"""The Contours view's figures: cached fits and grid evaluations, the grid, the projection.

Widgets → cached fits and grid evaluations (one per column, keyed on small
values) → pure figure builders (:mod:`kpca_core.figures.contours`).  The
settings are in :mod:`kpca_ui.views.contours`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from kpca_core import budget
from kpca_core import contours as ct
from kpca_core.drawing import Drawing
from kpca_core.figures import contours as figures
from kpca_core.figures import panels
from kpca_core.figures.drawing import canvas_background
from kpca_core.figures.style import export_config, is_narrow, projector_plan_height
from kpca_ui import draw
from kpca_ui.chart import chart, figure_from_json
from kpca_ui.explain import explain
from kpca_ui.live import Live
from kpca_ui.memory import MB, bounded
from kpca_ui.points import (
    PointSet,
    copy_source,
    drawing_points,
    drawn_points,
    is_drawn,
    toy_points,
)
from kpca_ui.presenter import figure_px, notice, page_px, presentable, presenter_mode
from kpca_ui.safety import guarded
from kpca_ui.screen import content_px, width_listener
from kpca_ui.shell import camera_format, nothing_to_draw
from kpca_ui.views import rings
from kpca_ui.views.contours import SCREEN, SIGMAS, kernel_controls, spec_key
from kpca_ui.workers import CANCELLABLE_S, compute, concurrently

FIG2_CAPTION = (
    "**What to look at** (Schölkopf, Smola & Müller 1998, Fig. 2). Degree 1 is linear "
    "PCA: the contour lines are straight and orthogonal to the eigenvectors, and there "
    "is no third component, because linear PCA in 2-D has only two non-zero "
    "eigenvalues. From degree 2 on the lines bend along the parabola, and the third "
    "component picks up the variance caused by the noise: its lines run along the "
    "parabola, so its value measures how far a point lies off the curve."
)
FIGURES_MAX_BYTES = 64 * MB
"""The cached grid figures together (a few hundred kB each at the largest resolution)."""

SWEEPS_MAX_BYTES = 64 * MB
"""The cached small grids together (a few MB each at the finest resolution)."""
ONE_CALL_S = 0.05
"""Estimated seconds of one core (:mod:`kpca_core.budget`) below which a grid is
computed and drawn in one call to a worker instead of one call per column and one
for the figure (:func:`contour_grid_figure`; and a column's fit in the same call as
its evaluation, :func:`_column`).  Fig. 2's grid, its polynomials priced by their
features, is estimated at 18 ms.

Each call costs a round trip to a worker, more than a small column's fit and
evaluation: measured in the server during a drawing's redraw, the grid of six
points took 36 ms in eight calls and 20 ms in one (11 ms of it computing)."""

HELD_RESOLUTION = 50
"""While a slider is held (:class:`HeldGrid`), the grid is computed at
most this fine; the release draws it at the chosen resolution.  A 50 × 50 grid is a
quarter of the default 100 × 100's evaluations (eq. 51), and its lines and pictures are
smaller: the grid is redrawn more often while the thumb moves."""
ONE_HELD_S = CANCELLABLE_S
"""Estimated seconds of one core below which the grid follows a held slider
(:class:`HeldGrid`); a costlier one is drawn at the release."""

FIG2_NOTICE = (
    "Linear PCA (degree 1): straight lines. From degree 2 they bend along the data, "
    "and a higher component measures the distance from the curve."
)
"""Presenter mode's one line under the grid of Fig. 2."""
NOTICE = (
    "Each panel is one component over the plane: its lines join the points it gives "
    "the same value, so they show what that component measures."
)
"""Presenter mode's one line under any other grid."""


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
        return compute(
            ct.fit_column,
            _X,
            kernel_spec,
            n_components=n_components,
            center=center,
            cost=budget.fit_seconds(
                len(_X), kernel_spec.kernel, kernel_spec.explicit_features(len(_X))
            ),
        )
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
    """One column of the grid, fitted and evaluated in a worker.

    A fit estimated below :data:`ONE_CALL_S` is made in the same call as the
    evaluation (one trip to a worker instead of two, and the fit sent once
    instead of three times); a costlier one is cached on its own
    (:func:`_fit`), so that another resolution does not fit it again.
    """
    grid = ct.make_grid(_X, resolution)
    kernel_spec = ct.KernelSpec(*spec)
    features = kernel_spec.explicit_features(len(_X))
    cost = budget.grid_seconds(len(_X), resolution, features)
    fit_cost = budget.fit_seconds(len(_X), kernel_spec.kernel, features)
    if fit_cost < ONE_CALL_S:
        with contextlib.suppress(Exception):  # a failure is explained by _fit's own call
            return compute(
                ct.fitted_column,
                _X,
                kernel_spec,
                grid,
                n_components=n_components,
                center=center,
                cost=fit_cost + cost,
            )
    fit = _fit(_X, data_key, spec, center, n_components)
    return compute(ct.evaluate_column, fit, grid, cost=cost)


@bounded(FIGURES_MAX_BYTES)
@st.cache_resource(max_entries=32, show_spinner=False)
def _contour_figure(
    _sweep: ct.ContourSweep,
    key: tuple,
    title: str,
    projector: tuple[int, int] | None = None,
    width: int = figures.FIGURE_PX,
    group_colours: tuple[str, ...] | None = None,
    panel_max_px: float = figures.PANEL_MAX_PX,
) -> go.Figure:
    """The grid figure, built once per setting and shared by every session (never mutated).

    Building it takes ~25 ms (an image and contour lines per panel); the class
    that opened the same preset shares one. It is ``width`` pixels wide (a
    phone's is narrower than the page's). For a ``projector``, (width,
    height) in pixels, it is planned for presenter mode's screen (or a
    lesson's slide): that width, every row within that height.
    """
    # its JSON made in the worker too, once: the server sends it as it is on every run
    return figure_from_json(
        *compute(
            figures.contour_figure_json,
            _sweep,
            group_colours=group_colours,
            **_sizes(title, projector, width, panel_max_px),
        )
    )


def _sizes(
    title: str, projector: tuple[int, int] | None, width: int, panel_max_px: float
) -> dict[str, Any]:
    """The grid figure's size arguments (:func:`_contour_figure`'s)."""
    if projector is None:
        return {"title": title, "width_px": width, "panel_max_px": panel_max_px}
    width, height = projector
    # No title: the page's says what the figure shows, and the panels get its room.
    height = projector_plan_height(height, {**figures.FITTED_MARGIN, "t": 20})
    return {"width_px": width, "height_px": height}


@st.cache_resource(max_entries=32, show_spinner=False)
def _background(
    _fit: ct.ColumnFit,
    data_key: tuple,
    spec: tuple,
    center: bool,
    n_components: int,
    half_width: float,
) -> dict | None:
    """The picture behind the drawing canvas: kPC 1 of a fitted column over the canvas's square."""
    return compute(canvas_background, _fit, half_width)


@bounded(SWEEPS_MAX_BYTES)
@st.cache_resource(max_entries=32, show_spinner=False)
def _small_grid(
    _X: np.ndarray,
    _labels: np.ndarray | None,
    data_key: tuple,
    specs: tuple[tuple, ...],
    parameter: str | None,
    center: bool,
    n_components: int,
    resolution: int,
    title: str,
    projector: tuple[int, int] | None,
    width: int,
    group_colours: tuple[str, ...] | None,
    panel_max_px: float,
) -> tuple[ct.ContourSweep, go.Figure]:
    """Every column of a small grid fitted and evaluated, and its figure built, in one
    call to a worker (:func:`_contour_figure`'s sizes)."""
    sweep, spec, sent = compute(
        figures.sweep_and_figure_json,
        _X,
        [ct.KernelSpec(*spec) for spec in specs],
        {
            "n_components": n_components,
            "center": center,
            "parameter": parameter,
            "labels": _labels,
            "resolution": resolution,
        },
        group_colours=group_colours,
        **_sizes(title, projector, width, panel_max_px),
    )
    return sweep, figure_from_json(spec, sent)


def contour_grid_figure(
    points: PointSet,
    specs: list[ct.KernelSpec],
    parameter: str | None,
    center: bool,
    n_components: int,
    resolution: int,
    projector: bool = False,
    width: int = figures.FIGURE_PX,
    group_colours: tuple[str, ...] | None = None,
    panel_max_px: float = figures.PANEL_MAX_PX,
) -> tuple[ct.ContourSweep, go.Figure]:
    """The fitted and evaluated columns of the grid and its figure, through the caches
    shared by every session.

    A grid estimated below :data:`ONE_CALL_S` (Fig. 2's polynomials through their
    features, a drawing of a few dozen points) is computed and drawn in one call to a
    worker; a larger one column by column, on both workers at once, each column cached
    on its own (a class that changes one value of the preset shares the other
    columns), then drawn in another.

    The figure is ``width`` pixels wide (panels at most ``panel_max_px`` tall); for a
    ``projector`` it is planned for presenter mode's screen (or a lesson's slide):
    ``width`` is then the projector page's width it is given.  With ``group_colours``
    the points are drawn in their group's colour (:func:`kpca_core.figures.contour_figure`).
    """
    X, keys = points.X, tuple(map(spec_key, specs))
    planned = (width, figure_px()) if projector else None
    sizes = (points.title, planned, width, group_colours, panel_max_px)
    if budget.contour_seconds(len(X), resolution=resolution, **priced(specs, len(X))) < ONE_CALL_S:
        with contextlib.suppress(Exception):  # a failure is explained column by column below
            return _small_grid(
                X,
                points.labels,
                points.key,
                keys,
                parameter,
                center,
                n_components,
                resolution,
                *sizes,
            )
    columns = tuple(
        concurrently(
            *(
                partial(_column, X, points.key, key, center, n_components, resolution)
                for key in keys
            )
        )
    )
    sweep = ct.ContourSweep(
        X, points.labels, ct.make_grid(X, resolution), columns, parameter, n_components
    )
    key = (points.key, keys, parameter, center, n_components, resolution)
    return sweep, _contour_figure(sweep, key, *sizes)


@st.fragment
@guarded("ct", "the contour grid")
def contour_view(points: PointSet) -> None:
    """Kernel controls, then what they draw (:func:`contour_body`).

    A change of the controls reruns this fragment alone, the rest of the page untouched.
    The page's width is measured here, after both: its report reruns the controls too,
    which a phone's page folds away under the figure's title (:func:`kernel_controls`).
    """
    contour_body(points, *kernel_controls(fold=is_drawn(points)))
    if not presenter_mode():  # a phone's page is narrower than the grid's planned width
        width_listener(SCREEN, content_px(SCREEN, figures.FIGURE_PX), figures.FIGURE_PX)


@st.fragment
@guarded("ct", "the contour grid")
def contour_body(
    points: PointSet,
    spec: ct.KernelSpec,
    parameter: str | None,
    values: tuple[float, ...],
    n_components: int,
    center: bool,
    pca: bool,
    resolution: int,
) -> None:
    """The drawing canvas if drawn, the grid of contour panels, the projection, the downloads.

    A fragment of its own, with the kernel settings :func:`contour_view` read:
    a canvas edit reruns it alone, so the drawing is read again here and the
    kernel controls above are neither run nor sent again (~25 messages fewer
    per click for the browser to apply).
    """
    drawn = is_drawn(points)
    if drawn:
        points = drawn_points("ct")
        # the canvas and the grid it changes side by side, both on one screen (a phone
        # stacks them)
        canvas_place, grid_place = st.columns(DRAWN_COLUMNS)
        if len(points.X) < draw.MIN_POINTS:
            drawing_canvas(canvas_place, None)
            return
    with grid_place if drawn else contextlib.nullcontext():
        sweep = contour_grid(points, spec, parameter, values, n_components, center, pca, resolution)
    if sweep is None:
        if drawn:
            drawing_canvas(canvas_place, None)
        return
    slug = ct.sweep_slug(sweep)
    image_format = st.session_state.get("ct_img", "png")
    width = content_px(SCREEN, figures.FIGURE_PX)
    column_errors(sweep)  # under the grid, which it pushed off the first screen
    column_notices(sweep)
    if drawn:
        # Made once the grid is sent, while the browser draws it. Made beside the grid
        # on the other worker, it delayed the grid by 13-15 ms (medians of 40 paired
        # clicks in Chromium) and reached the page within the same update.
        drawing_canvas(canvas_place, *canvas_background_of(sweep, points))
    is_fig2 = _is_fig2(points, spec, parameter, values, center)
    is_rings = rings.is_rings_preset(points, spec, parameter, values) and center
    notice(FIG2_NOTICE if is_fig2 else rings.RINGS_NOTICE if is_rings else NOTICE)
    if is_fig2:
        st.info(FIG2_CAPTION)
    if is_rings:
        st.info(rings.RINGS_CAPTION)
    st.caption(
        "Each panel shows one component's value over the plane, divided by its largest "
        "|value| on the data points, so that one colour scale (red positive, blue "
        "negative, white 0) fits every panel; λ and its share of the variance are in the "
        f"title. Contour lines every {panels.LEVEL_STEP:g} of that scale."
    )
    explain("ct_contours")
    projection_view(sweep, slug, width)
    if rings.has_dk_width(points, spec, parameter, values):
        rings.fig5_section(points, image_format, width)
    _downloads(sweep, slug)


@guarded("ct", "the grid's chart")
def contour_grid(
    points: PointSet,
    spec: ct.KernelSpec,
    parameter: str | None,
    values: tuple[float, ...],
    n_components: int,
    center: bool,
    pca: bool,
    resolution: int,
) -> ct.ContourSweep | None:
    """The grid's chart; the sweep it draws, or ``None`` where none is affordable.

    While one of its :func:`live_sliders` is held, or a point of the drawing is
    dragged, the chart draws :class:`HeldGrid`'s figures, asked for by the browser
    without a script run.
    """
    drawn = is_drawn(points)
    specs = column_specs(spec, parameter, values, pca)
    resolution = affordable_resolution(len(points.X), specs, resolution)
    if resolution is None:
        return None
    image_format = st.session_state.get("ct_img", "png")
    projector = presenter_mode()
    width = content_px(SCREEN, figures.FIGURE_PX)
    planned = page_px() if projector else width
    panel_max_px = figures.PANEL_MAX_PX
    if drawn:  # the grid's share of the row beside the canvas
        planned = grid_beside_canvas_px(planned)
        panel_max_px = panel_max_px if is_narrow(width) else DRAWN_PANEL_PX
    sweep, figure = contour_grid_figure(
        points,
        specs,
        parameter,
        center,
        n_components,
        resolution,
        projector,
        planned,
        panel_max_px=panel_max_px,
    )
    held = HeldGrid(
        points,
        spec,
        parameter,
        values,
        pca,
        center,
        n_components,
        resolution,
        (planned, figure_px()) if projector else None,
        planned,
        panel_max_px,
    )
    chart(
        presentable(figure),
        # the figure's own width, figures.FIGURE_PX, or the screen's in presenter mode
        width="stretch" if projector else "content",
        key="ct_contours",
        config=export_config(f"contours_{ct.sweep_slug(sweep)}", image_format=image_format),
        live=held.live(),
    )
    return sweep


def priced(specs: list[ct.KernelSpec], n_points: int) -> dict[str, list]:
    """The ``kernels`` and ``features`` by which :mod:`kpca_core.budget` prices the columns
    of ``specs`` fitted on ``n_points`` points (:func:`kpca_core.budget.contour_seconds`)."""
    return {
        "kernels": [spec.kernel for spec in specs],
        "features": [spec.explicit_features(n_points) for spec in specs],
    }


def column_specs(
    spec: ct.KernelSpec, parameter: str | None, values: tuple[float, ...], pca: bool
) -> list[ct.KernelSpec]:
    """The grid's columns: ``spec`` at each of ``values`` of ``parameter``, after linear
    PCA's if ``pca``."""
    specs = ct.sweep_specs(spec, parameter, values)
    return [ct.KernelSpec("pca"), *specs] if pca else specs


@dataclass(frozen=True, eq=False)
class HeldGrid:
    """The grid's figure while a slider is held, at the value under the thumb, or while
    a point of the drawing is dragged, with the drawing's points.

    The settings of :func:`contour_grid` but the held slider's (the data's noise,
    the kernel's degree or width, :func:`live_sliders`) or the drawing, and at most
    :data:`HELD_RESOLUTION` fine: the grid and its figure in one call to a worker,
    ~25 ms of computing for Fig. 2.  :mod:`kpca_ui.live` answers the browser's
    requests with :meth:`figure_json`, outside any script run (nothing here calls
    Streamlit).
    """

    points: PointSet
    spec: ct.KernelSpec
    parameter: str | None
    values: tuple[float, ...]
    pca: bool
    center: bool
    n_components: int
    resolution: int
    projector: tuple[int, int] | None
    width: int
    panel_max_px: float

    def live(self) -> Live | None:
        """The chart's ``live``, or ``None`` when neither a slider nor a drawing is
        followed: a grid estimated to take :data:`ONE_HELD_S` or more is drawn by the
        page's run (at the slider's release)."""
        specs = column_specs(self.spec, self.parameter, self.values, self.pca)
        held = min(self.resolution, HELD_RESOLUTION)
        n_points = len(self.points.X)
        if (
            budget.contour_seconds(n_points, resolution=held, **priced(specs, n_points))
            >= ONE_HELD_S
        ):
            return None
        sliders = live_sliders(self.points, self.spec, self.parameter)
        drawing = "ct" if is_drawn(self.points) else None
        settings = (
            self.points.key,
            spec_key(self.spec),
            self.parameter,
            self.values,
            self.pca,
            self.center,
            self.n_components,
            self.resolution,
            self.projector,
            self.width,
            self.panel_max_px,
        )
        return Live(self.figure_json, sliders, settings, drawing) if sliders or drawing else None

    def figure_json(self, slider: str, value: float | Drawing) -> str:
        """The grid figure's JSON with ``slider`` at ``value`` (the drawing ``value`` when
        ``slider`` is ``"drawing"``), as the page's chart sends it."""
        if isinstance(value, Drawing):
            points, spec = drawing_points(value), self.spec
        else:
            points, spec = _at_live_value(self.points, self.spec, slider, value)
        n_components = round(value) if slider == "ct_k" else self.n_components
        resolution = min(self.resolution, HELD_RESOLUTION)
        return compute(
            figures.sweep_figure_json,
            points.X,
            column_specs(spec, self.parameter, self.values, self.pca),
            {
                "n_components": n_components,
                "center": self.center,
                "parameter": self.parameter,
                "labels": points.labels,
                "resolution": resolution,
            },
            projector_height=None if self.projector is None else self.projector[1],
            **_sizes(points.title, self.projector, self.width, self.panel_max_px),
        )


def live_sliders(
    points: PointSet, spec: ct.KernelSpec, parameter: str | None
) -> dict[str, tuple[float, float]]:
    """The sliders the grid follows while they are held, with their ranges: the number
    of components, the toy data's noise, and the kernel's degree or width σ when the
    columns do not sweep it (:func:`kpca_ui.chart.chart`'s ``live``)."""
    sliders = {"ct_k": (1.0, float(ct.MAX_COMPONENTS))}
    if points.key[0] == "toy":
        sliders["ct_noise"] = (0.0, 1.0)
    if spec.kernel == "poly" and parameter != "degree":
        sliders["ct_degree"] = (1.0, 10.0)
    if spec.kernel in ("rbf", "laplacian") and parameter != "sigma":
        sliders["ct_sigma"] = (min(SIGMAS), max(SIGMAS))
    return sliders


def _at_live_value(
    points: PointSet, spec: ct.KernelSpec, slider: str, value: float
) -> tuple[PointSet, ct.KernelSpec]:
    """The data and kernel with the held slider's value (:func:`live_sliders`; the number
    of components is :meth:`HeldGrid.figure_json`'s)."""
    if slider == "ct_noise":
        _, name, n_samples, _, seed = points.key
        return toy_points(name, n_samples, value, seed), spec
    if slider == "ct_degree":
        return points, spec.with_value("degree", round(value))
    if slider == "ct_sigma":
        return points, spec.with_value("sigma", value)
    return points, spec


def column_errors(sweep: ct.ContourSweep) -> None:
    """Under the grid, why a column has no picture (its empty panel points here): one
    warning per reason, naming every column it holds for."""
    reasons: dict[str, list[str]] = {}
    for c, column in enumerate(sweep.columns):
        if column.error is not None:
            reasons.setdefault(column.error, []).append(sweep.column_label(c))
    for reason, labels in reasons.items():
        st.warning(f"**{', '.join(labels)}**: {reason}")


def column_notices(sweep: ct.ContourSweep) -> None:
    """Under the grid, one notice per cause over all columns
    (:func:`kpca_core.contours.merge_notes`)."""
    labels = [sweep.column_label(c) for c in range(len(sweep.columns))]
    labelled = [(label, column.notes) for label, column in zip(labels, sweep.columns, strict=True)]
    for notice_text in ct.merge_notes(labelled):
        st.info(notice_text)


DRAWN_COLUMNS = (2, 3)
"""The drawing canvas's and the grid's shares of the row they share."""
DRAWN_PANEL_PX = 120
"""Beside the drawing canvas on a desktop's page a panel is at most this tall, so that the
grid's first two rows (60 px of title, 50 px of titles above each row) end within a
1280 × 720 screen, beside the canvas (the second row was cut by the screen's foot)."""


def grid_beside_canvas_px(width: int) -> int:
    """The grid's width beside the drawing canvas in a row ``width`` pixels wide (all of
    it on a phone's page, where the columns stand one above the other)."""
    if is_narrow(width):
        return width
    return round(width * DRAWN_COLUMNS[1] / sum(DRAWN_COLUMNS)) - 16


def canvas_background_of(
    sweep: ct.ContourSweep, points: PointSet
) -> tuple[dict | None, str | None]:
    """The picture behind the canvas with the ``points`` drawn, kPC 1 of the column the
    projection shows, and what it is ("kPC 1 of degree 2")."""
    labels = column_labels(sweep)  # the projection's Column box holds a label
    chosen = st.session_state.get("ct_pcol")
    c = labels.index(chosen) if chosen in labels else len(labels) - 1
    fit = sweep.columns[c].fit
    half_width = draw.current_drawing("ct").half_width
    background = _background(
        fit, points.key, spec_key(fit.spec), fit.center, sweep.n_components, half_width
    )
    return background, f"kPC 1 of {labels[c]}" if background is not None else None


def drawing_canvas(
    place: DeltaGenerator, background: dict | None, behind: str | None = None
) -> None:
    """The Contours view's drawing canvas over ``background`` (or none), in ``place``;
    ``behind`` names the component the background shows."""
    can_copy = copy_source("ct") is not None
    draw.canvas(
        "ct",
        background,
        can_copy=can_copy,
        place=place,
        large=presenter_mode(),
        behind=behind,
    )


def affordable_resolution(n_points: int, specs: list[ct.KernelSpec], resolution: int) -> int | None:
    """The grid resolution within the request budget, with a notice; ``None`` and why if none is.

    The cost model is :mod:`kpca_core.budget`.
    """
    columns = priced(specs, n_points)
    cost, affordable = budget.contour_cost(n_points, resolution=resolution, **columns)
    limit = budget.REQUEST_BUDGET_S
    if not cost.fits:
        refusal = cost.refusal(f"This grid ({n_points} points, {len(specs)} columns)")
        nothing_to_draw(refusal, st.error)
        return None
    if affordable != resolution:
        full = budget.contour_seconds(n_points, resolution=resolution, **columns)
        st.info(
            f"Drawn at grid resolution {affordable} instead of {resolution}: at {resolution} "
            f"this grid would take about {full:.0f} s of computing, above the {limit:.0f} s "
            "this shared server allows per request."
        )
    return affordable


@st.fragment
@guarded("ct", "the projection")
def projection_view(sweep: ct.ContourSweep, slug: str, width: int = figures.FIGURE_PX) -> None:
    """The data in two chosen components of one column, planned for ``width`` px."""
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
    chart(
        presentable(figures.projection_figure(sweep, column, i, j, width_px=width)),
        key="ct_projection",
        config=export_config(f"contours-kpc{i}-kpc{j}_{slug}", image_format=image_format),
    )
    explain("ct_projection")


def column_labels(sweep: ct.ContourSweep) -> list[str]:
    """The columns' labels ("degree 2", "σ = 0.5", "linear PCA"), made unique if they repeat."""
    return spec_labels([column.fit.spec for column in sweep.columns], sweep.parameter)


def spec_labels(specs: list[ct.KernelSpec], parameter: str | None) -> list[str]:
    """The labels of the columns of ``specs``, as :func:`column_labels` gives them."""
    labels = [spec.label(parameter) for spec in specs]
    if len(set(labels)) < len(labels):
        labels = [f"{label} (column {c + 1})" for c, label in enumerate(labels)]
    return labels


@guarded("ct", "the downloads")
def _downloads(sweep: ct.ContourSweep, slug: str) -> None:
    st.subheader("Numbers and pictures")
    row = st.columns(4)
    tables = (
        ("Eigenvalues (CSV)", "eigenvalues", ct.eigenvalues_table),
        ("Points' components (CSV)", "points", ct.points_table),
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
