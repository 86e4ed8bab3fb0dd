"""The Contours view's figures: the grid of contour panels, the projection, the downloads.

:func:`grid` is the one function that makes the grid and its figure, of the data,
the columns and the space it is drawn in, behind the shared cache
(:mod:`kpca_ui.cache`): the page's run, the live figures of a held slider
(:mod:`kpca_ui.live`), the warm-up and class mode all call it.  The settings are
in :mod:`kpca_ui.views.contours`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from kpca_core import budget
from kpca_core import contours as ct
from kpca_core.drawing import Drawing
from kpca_core.figures import contours as figures
from kpca_core.figures import panels
from kpca_core.figures.style import export_config, is_narrow, projector_plan_height
from kpca_ui import draw
from kpca_ui.cache import memo
from kpca_ui.chart import chart, figure_from_json, json_of
from kpca_ui.explain import explain
from kpca_ui.live import Live
from kpca_ui.points import (
    PointSet,
    copy_source,
    drawing_points,
    drawn_points,
    is_drawn,
    points_of,
    toy_points,
)
from kpca_ui.presenter import figure_px, notice, page_px, presentable, presenter_mode, prose
from kpca_ui.safety import guarded
from kpca_ui.screen import content_px, width_listener
from kpca_ui.shell import nothing_to_draw
from kpca_ui.views import rings
from kpca_ui.views.contours import FIXED, SCREEN, SETTINGS, Columns, columns
from kpca_ui.views.contours import kernel_controls as kernel_controls
from kpca_ui.workers import CANCELLABLE_S, compute, concurrently

FIG2_CAPTION = (
    "**What to look at** (Schölkopf, Smola & Müller 1998, Fig. 2). Degree 1 is linear "
    "PCA: the contour lines are straight and orthogonal to the eigenvectors, and there "
    "is no third component, because linear PCA in 2-D has only two non-zero "
    "eigenvalues. From degree 2 on the lines bend along the parabola, and the third "
    "component picks up the variance caused by the noise: its lines run along the "
    "parabola, so its value measures how far a point lies off the curve."
)
ONE_CALL_S = 0.05
"""Estimated seconds of one core (:mod:`kpca_core.budget`) below which a grid is
computed and drawn in one call to a worker instead of one call per column and one
for the figure.  Fig. 2's grid, its polynomials priced by their features, is
estimated at 18 ms.

Each call costs a round trip to a worker, more than a small column's fit and
evaluation: measured in the server during a drawing's redraw, the grid of six
points took 36 ms in eight calls and 20 ms in one (11 ms of it computing)."""
HELD_RESOLUTION = 50
"""While a slider is held, the grid is computed at most this fine; the release draws it
at the chosen resolution.  A 50 × 50 grid is a quarter of the default 100 × 100's
evaluations (eq. 51): the grid is redrawn more often while the thumb moves."""
ONE_HELD_S = CANCELLABLE_S
"""Estimated seconds of one core below which the grid follows a held slider; a costlier
one is drawn at the release."""
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
DRAWN_COLUMNS = (2, 3)
"""The drawing canvas's and the grid's shares of the row they share."""
DRAWN_PANEL_PX = 120
"""Beside the drawing canvas on a desktop's page a panel is at most this tall, so that the
grid's first two rows end within a 1280 × 720 screen, beside the canvas."""


@dataclass(frozen=True)
class Space:
    """Where the grid is drawn: its width, its panels' largest height, in presenter mode
    the projector figure's height, and the colours of the points' groups (class mode)."""

    width: int = figures.FIGURE_PX
    panel_max_px: float = figures.PANEL_MAX_PX
    projector: int | None = None
    colours: tuple[str, ...] | None = None

    def arguments(self, title: str) -> dict[str, Any]:
        """The figure builder's size arguments
        (:func:`kpca_core.figures.contours.contour_figure_json`)."""
        if self.projector is None:
            sizes = {"title": title, "width_px": self.width, "panel_max_px": self.panel_max_px}
        else:
            # No title: the page's says what the figure shows, and the panels get its room.
            height = projector_plan_height(self.projector, {**figures.FITTED_MARGIN, "t": 20})
            sizes = {"width_px": self.width, "height_px": height}
            sizes["projector_height"] = self.projector
        return {**sizes, "group_colours": self.colours}


def priced(specs: tuple[ct.KernelSpec, ...], n_points: int) -> dict[str, list]:
    """The ``kernels`` and ``features`` by which :mod:`kpca_core.budget` prices the columns
    of ``specs`` fitted on ``n_points`` points."""
    return {
        "kernels": [spec.kernel for spec in specs],
        "features": [spec.explicit_features(n_points) for spec in specs],
    }


@memo
def grid(
    points: PointSet,
    specs: tuple[ct.KernelSpec, ...],
    parameter: str | None,
    center: bool,
    n_components: int,
    resolution: int,
    space: Space,
) -> tuple[ct.ContourSweep, go.Figure]:
    """The grid's columns fitted and evaluated, and its figure drawn in ``space``.

    A grid estimated below :data:`ONE_CALL_S` (Fig. 2's polynomials through their
    features, a drawing of a few dozen points) is computed and drawn in one call to a
    worker; a larger one column by column, on both workers at once, then drawn in
    another call.
    """
    X, n_points = points.X, len(points.X)
    drawing = space.arguments(points.title)
    seconds = budget.contour_seconds(n_points, resolution=resolution, **priced(specs, n_points))
    if seconds < ONE_CALL_S:
        settings = {
            "n_components": n_components,
            "center": center,
            "parameter": parameter,
            "labels": points.labels,
            "resolution": resolution,
        }
        with contextlib.suppress(Exception):  # a failure is explained column by column below
            sweep, spec, sent = compute(
                figures.sweep_and_figure_json, X, list(specs), settings, **drawing
            )
            return sweep, figure_from_json(spec, sent)
    made = ct.make_grid(X, resolution)
    calls = (partial(_column, points, spec, resolution, center, n_components) for spec in specs)
    sweep = ct.ContourSweep(
        X, points.labels, made, tuple(concurrently(*calls)), parameter, n_components
    )
    return sweep, figure_from_json(*compute(figures.contour_figure_json, sweep, **drawing))


@memo
def _column(
    points: PointSet, spec: ct.KernelSpec, resolution: int, center: bool, n_components: int
) -> ct.Column:
    """One column of a costly grid, fitted and evaluated in a worker, kept on its own: a
    class that changes one value shares the other columns.  A fit estimated below
    :data:`ONE_CALL_S` is made in the same call as the evaluation; a costlier one is kept
    on its own too (:func:`_fit`), so that another resolution does not fit it again."""
    made = ct.make_grid(points.X, resolution)
    features = spec.explicit_features(len(points.X))
    fit_cost = budget.fit_seconds(len(points.X), spec.kernel, features)
    cost = budget.grid_seconds(len(points.X), resolution, features)
    if fit_cost < ONE_CALL_S:
        with contextlib.suppress(Exception):  # a failure is explained by _fit's own call
            return compute(ct.fitted_column, points.X, spec, made, n_components=n_components,
                           center=center, cost=fit_cost + cost)  # fmt: skip
    return compute(ct.evaluate_column, _fit(points, spec, center, n_components), made, cost=cost)


@memo
def _fit(points: PointSet, spec: ct.KernelSpec, center: bool, n_components: int) -> ct.ColumnFit:
    """A costly column's fit, in a worker; an engine failure becomes its sentence."""
    X = points.X
    cost = budget.fit_seconds(len(X), spec.kernel, spec.explicit_features(len(X)))
    try:
        return compute(ct.fit_column, X, spec, n_components=n_components, center=center, cost=cost)
    except Exception as error:  # an unforeseen engine failure must not reach the screen
        message = f"{spec.formula()}: the eigensolver failed ({error}). Try other parameters."
        empty = np.zeros((len(X), 0))
        return ct.ColumnFit(spec, center, n_components, None, empty, np.zeros(0), np.zeros(0), (),
                            message)  # fmt: skip


def affordable_resolution(
    n_points: int, specs: tuple[ct.KernelSpec, ...], resolution: int
) -> int | None:
    """The grid resolution within the request budget, with a notice; ``None`` and why if none is.

    The cost model is :mod:`kpca_core.budget`.
    """
    priced_columns = priced(specs, n_points)
    cost, affordable = budget.contour_cost(n_points, resolution=resolution, **priced_columns)
    if not cost.fits:
        nothing_to_draw(
            cost.refusal(f"This grid ({n_points} points, {len(specs)} columns)"), st.error
        )
        return None
    if affordable != resolution:
        full = budget.contour_seconds(n_points, resolution=resolution, **priced_columns)
        st.info(
            f"Drawn at grid resolution {affordable} instead of {resolution}: at {resolution} "
            f"this grid would take about {full:.0f} s of computing, above the "
            f"{budget.REQUEST_BUDGET_S:.0f} s this shared server allows per request."
        )
    return affordable


# ------------------------------------------------------------------------ the page


@st.fragment
@guarded("ct", "the contour grid")
def contour_view(points: PointSet) -> None:
    """Kernel controls, then what they draw (:func:`contour_body`).

    A change of the controls reruns this fragment alone, the rest of the page untouched.
    The page's width is measured here, after both: its report reruns the controls too,
    which a phone's page folds away under the figure's title.
    """
    try:
        chosen = kernel_controls(fold=is_drawn(points))
    except ValueError as error:  # values a link gave that the sweep cannot use: told above
        st.error(str(error))
        return
    contour_body(points, chosen)
    if not presenter_mode():  # a phone's page is narrower than the grid's planned width
        width_listener(SCREEN, content_px(SCREEN, figures.FIGURE_PX), figures.FIGURE_PX)


@st.fragment
@guarded("ct", "the contour grid")
def contour_body(points: PointSet, chosen: Columns) -> None:
    """The drawing canvas if drawn, the grid of contour panels, the projection, the downloads.

    A fragment of its own: a canvas edit reruns it alone, so the drawing is read again
    here and the kernel controls above are neither run nor sent again.
    """
    drawn = is_drawn(points)
    if drawn:
        points = drawn_points("ct")
        # the canvas and the grid it changes side by side, both on one screen
        canvas_place, grid_place = st.columns(DRAWN_COLUMNS)
        if len(points.X) < draw.MIN_POINTS:
            drawing_canvas(canvas_place, None)
            return
    with grid_place if drawn else contextlib.nullcontext():
        sweep = contour_grid(points, chosen)
    if sweep is None:
        if drawn:
            drawing_canvas(canvas_place, None)
        return
    column_errors(sweep)  # under the grid, which it pushed off the first screen
    column_notices(sweep)
    if drawn:  # made once the grid is sent, while the browser draws it
        drawing_canvas(canvas_place, *canvas_background_of(sweep, points, chosen.center))
    is_fig2 = _is_fig2(points, chosen)
    shown = (points, chosen.spec, chosen.parameter, chosen.values)
    is_rings = rings.is_rings_preset(*shown) and chosen.center
    notice(FIG2_NOTICE if is_fig2 else rings.RINGS_NOTICE if is_rings else NOTICE)
    width = content_px(SCREEN, figures.FIGURE_PX)
    if prose():
        if is_fig2 or is_rings:
            st.info(FIG2_CAPTION if is_fig2 else rings.RINGS_CAPTION)
        st.caption(
            "Each panel shows one component's value over the plane, divided by its largest "
            "|value| on the data points, so that one colour scale (red positive, blue "
            "negative, white 0) fits every panel; λ and its share of the variance are in the "
            f"title. Contour lines every {panels.LEVEL_STEP:g} of that scale."
        )
        explain("ct_contours")
    projection_view(sweep, ct.sweep_slug(sweep), width)
    if rings.has_dk_width(points, chosen.spec, chosen.parameter, chosen.values):
        rings.fig5_section(points, SETTINGS.value("ct_img"), width)
    downloads(sweep)


def space_of(points: PointSet) -> Space:
    """The space the page gives the grid: presenter mode's screen, the page's (a phone's)
    width, or the share of the row beside the drawing canvas."""
    width = content_px(SCREEN, figures.FIGURE_PX)
    planned = page_px() if presenter_mode() else width
    panel_max_px = figures.PANEL_MAX_PX
    if is_drawn(points):
        planned = grid_beside_canvas_px(planned)
        panel_max_px = panel_max_px if is_narrow(width) else DRAWN_PANEL_PX
    return Space(planned, panel_max_px, figure_px() if presenter_mode() else None)


@guarded("ct", "the grid's chart")
def contour_grid(points: PointSet, chosen: Columns) -> ct.ContourSweep | None:
    """The grid's chart; the sweep it draws, or ``None`` where none is affordable.

    While one of its live sliders is held, or a point of the drawing is dragged, the
    chart draws the figures of :func:`live_grid`, asked for by the browser without a
    run of the page.
    """
    resolution = affordable_resolution(len(points.X), chosen.specs, chosen.resolution)
    if resolution is None:
        return None
    space = space_of(points)
    chosen = replace(chosen, resolution=resolution)
    sweep, figure = grid(points, chosen.specs, chosen.parameter, chosen.center,
                         chosen.n_components, resolution, space)  # fmt: skip
    chart(
        figure,
        # the figure's own width, figures.FIGURE_PX, or the screen's in presenter mode
        width="stretch" if space.projector else "content",
        key="ct_contours",
        config=export_config(
            f"contours_{ct.sweep_slug(sweep)}", image_format=SETTINGS.value("ct_img")
        ),
        live=live_grid(points, dict(SETTINGS.values()), space),
    )
    return sweep


def live_grid(points: PointSet, values: Mapping[str, Any], space: Space) -> Live | None:
    """What the grid's chart follows without a run of the page: the live settings drawn with
    these settings, and a drawing's edits; ``None`` for a grid estimated to take
    :data:`ONE_HELD_S` or more at the held resolution (drawn at the release)."""
    chosen = columns(values)
    held = min(chosen.resolution, HELD_RESOLUTION)
    n_points = len(points.X)
    if (
        budget.contour_seconds(n_points, resolution=held, **priced(chosen.specs, n_points))
        >= ONE_HELD_S
    ):
        return None
    shown = {"ct_k", *(FIXED[p] for p in ct.SWEEPABLE[chosen.spec.kernel] if p != chosen.parameter)}
    if points.key[0] == "toy":
        shown.add("ct_noise")
    sliders = tuple(s for key, s in SETTINGS.entries.items() if s.live and key in shown)
    drawing = "ct" if is_drawn(points) else None
    return Live(
        partial(held_figure, points, dict(values), space),
        sliders,
        (points.key, tuple(values.items()), space),
        drawing,
    )


def held_figure(
    points: PointSet, values: dict[str, Any], space: Space, slider: str, value: Any
) -> str:
    """The grid figure's JSON with ``slider`` at ``value`` (the drawing ``value`` when
    ``slider`` is ``"drawing"``), at most :data:`HELD_RESOLUTION` fine: :func:`grid` of
    the settings the page has but that one."""
    if isinstance(value, Drawing):
        points = drawing_points(value)
    elif slider == "ct_noise":
        _, name, n_samples, _, seed = points.key
        points = toy_points(name, n_samples, value, seed, SETTINGS["ct_data"].name(name))
    else:
        values = {**values, slider: value}
    chosen = columns(values)
    held = min(chosen.resolution, HELD_RESOLUTION)
    _, figure = grid(
        points, chosen.specs, chosen.parameter, chosen.center, chosen.n_components, held, space
    )
    return json_of(figure)


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


def grid_beside_canvas_px(width: int) -> int:
    """The grid's width beside the drawing canvas in a row ``width`` pixels wide (all of
    it on a phone's page, where the columns stand one above the other)."""
    if is_narrow(width):
        return width
    return round(width * DRAWN_COLUMNS[1] / sum(DRAWN_COLUMNS)) - 16


def canvas_background_of(
    sweep: ct.ContourSweep, points: PointSet, center: bool
) -> tuple[dict | None, str | None]:
    """The picture behind the canvas with the ``points`` drawn, kPC 1 of the column the
    projection shows, and what it is ("kPC 1 of degree 2")."""
    labels = column_labels(sweep)  # the projection's Column box holds a label
    chosen = SETTINGS.value("ct_pcol")
    c = labels.index(chosen) if chosen in labels else len(labels) - 1
    spec = sweep.columns[c].fit.spec
    made = draw.background(
        points.X, points.key, spec, center, draw.current_drawing("ct").half_width
    )
    return made, f"kPC 1 of {labels[c]}" if made is not None else None


def drawing_canvas(place: Any, background_image: dict | None, behind: str | None = None) -> None:
    """The Contours view's drawing canvas over ``background_image`` (or none), in ``place``;
    ``behind`` names the component the background shows."""
    can_copy = copy_source("ct") is not None
    draw.canvas(
        "ct",
        background_image,
        can_copy=can_copy,
        place=place,
        large=presenter_mode(),
        behind=behind,
    )


@st.fragment
@guarded("ct", "the projection")
def projection_view(sweep: ct.ContourSweep, slug: str, width: int = figures.FIGURE_PX) -> None:
    """The data in two chosen components of one column, planned for ``width`` px."""
    if prose():
        st.subheader("The data in kernel principal components")
    choose = st.columns(3)
    # The Column box's options are the columns' labels, not their positions: a
    # position keeps its value when the columns change while its label changes under it.
    labels = column_labels(sweep)
    components = list(range(1, sweep.n_components + 1))
    SETTINGS.settle("ct_pcol", labels, labels[-1])
    SETTINGS.settle("ct_pi", components, 1)
    SETTINGS.settle("ct_pj", components, min(2, sweep.n_components))
    label = SETTINGS.draw("ct_pcol", choose[0], options=labels, index=len(labels) - 1)
    i = SETTINGS.draw("ct_pi", choose[1], options=components)
    j = SETTINGS.draw("ct_pj", choose[2], options=components, index=min(2, sweep.n_components) - 1)
    chart(
        presentable(figures.projection_figure(sweep, labels.index(label), i, j, width_px=width)),
        key="ct_projection",
        config=export_config(
            f"contours-kpc{i}-kpc{j}_{slug}", image_format=SETTINGS.value("ct_img")
        ),
    )
    if prose():
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


@st.fragment
@guarded("ct", "the downloads")
def downloads(sweep: ct.ContourSweep) -> None:
    """The numbers behind the grid as CSV, built when their popover is opened, and the
    camera's format."""
    if not prose():
        return
    slug = ct.sweep_slug(sweep)
    st.subheader("Numbers and pictures")
    left, right = st.columns([3, 1])
    with left:
        tables = {
            "Eigenvalues (CSV)": ("eigenvalues", ct.eigenvalues_table),
            "Points' components (CSV)": ("points", ct.points_table),
            "Values on the grid (CSV)": ("grid", ct.grid_table),
        }
        csv_downloads("ct", slug, sweep, tables)
    SETTINGS.draw("ct_img", right, horizontal=True)


def csv_downloads(
    prefix: str, slug: str, source: Any, tables: Mapping[str, tuple[str, Any]]
) -> None:
    """Download buttons of ``tables`` ({label: (name, table of ``source``)}) in a popover,
    their files made when it is opened (a grid's values are megabytes)."""
    popover = st.popover(
        "The numbers (CSV)", icon=":material/download:", key=f"{prefix}_numbers", on_change="rerun"
    )
    if not popover.open:
        return
    for label, (name, table) in tables.items():
        popover.download_button(
            label,
            data=ct.to_csv(table(source)),
            file_name=f"contours-{name}_{slug}.csv",
            mime="text/csv",
            on_click="ignore",
            key=f"{prefix}_dl_{name}",
        )


def _is_fig2(points: PointSet, chosen: Columns) -> bool:
    """Whether the page shows Fig. 2's data and columns (its caption applies)."""
    spec = chosen.spec
    return (
        points.key[:2] == ("toy", "parabola")
        and (spec.kernel, chosen.parameter) == ("poly", "degree")
        and chosen.values[:2] == (1, 2)
        and (spec.gamma, spec.coef0) == (1, 0)
        and chosen.center
    )


def warm(values: Mapping[str, Any]) -> None:
    """The grid a desktop's first visit of the settings ``values`` draws (:mod:`kpca_ui.warmup`)."""
    chosen = columns(values)
    grid(points_of(SETTINGS, values), chosen.specs, chosen.parameter, chosen.center,
         chosen.n_components, chosen.resolution, Space())  # fmt: skip
