"""The Contours view's figures: the grid of contour panels, the projection, the numbers.

:func:`grid` is the one function that makes the grid and its figure, from the data, the
columns and the space it is drawn in, behind the shared cache (:mod:`kpca_ui.cache`):
the page's run, the live figures of a held slider (:mod:`kpca_ui.live`), the warm-up
and class mode all call it.  The settings are in :mod:`kpca_ui.views.contours`.
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
from kpca_ui.chart import SESSION, chart, figure_from_json, json_of
from kpca_ui.explain import explain, notice_of, text
from kpca_ui.live import Live, after
from kpca_ui.points import PointSet, drawing_points, drawn_points, is_drawn, points_of
from kpca_ui.presenter import figure_px, page_px, presentable, presenter_mode, prose, room_scale
from kpca_ui.safety import guarded
from kpca_ui.screen import content_px, width_listener
from kpca_ui.shell import csv_numbers, nothing_to_draw
from kpca_ui.views import rings
from kpca_ui.views.contours import (
    FIXED,
    SCREEN,
    SETTINGS,
    Columns,
    columns,
    kernel_controls,
    presses,
)
from kpca_ui.workers import CANCELLABLE_S, compute, concurrently

ONE_CALL_S = 0.05
"""Estimated seconds of one core (:mod:`kpca_core.budget`) below which a grid is computed
and drawn in one call to a worker, not one per column and one for the figure: a round
trip costs more than a small column (Fig. 2's grid is estimated at 18 ms)."""
HELD_RESOLUTION = 50
"""While a slider is held the grid is at most this fine (a quarter of the default's
evaluations, eq. 51), so that it follows the thumb; the release draws the chosen one."""
ONE_HELD_S = CANCELLABLE_S
"""Estimated seconds below which the grid follows a held slider; a costlier one waits for
the release."""
DRAWN_COLUMNS = (2, 3)
"""The drawing canvas's and the grid's shares of the row they share."""
DRAWN_PANEL_PX = 120
"""Beside the drawing canvas on a desktop a panel is at most this tall: the grid's first
two rows end within a 1280 × 720 screen."""


@dataclass(frozen=True)
class Space:
    """Where the grid is drawn: its width, its panels' largest height, in presenter mode the
    projector figure's height and the screen's :func:`room_scale`, and the colours of the
    points' groups (class mode)."""

    width: int = figures.FIGURE_PX
    panel_max_px: float = figures.PANEL_MAX_PX
    projector: int | None = None
    colours: tuple[str, ...] | None = None
    room: float = 1.0

    def arguments(self, title: str) -> dict[str, Any]:
        """The figure builder's size arguments (:func:`figures.contour_figure_json`)."""
        if self.projector is None:
            sizes = {"title": title, "width_px": self.width, "panel_max_px": self.panel_max_px}
        else:  # no title: the page's says it, and the panels get its room
            height = projector_plan_height(self.projector, {**figures.FITTED_MARGIN, "t": 20})
            sizes = {"width_px": self.width, "height_px": height}
            sizes |= {"projector_height": self.projector, "panel_max_px": self.panel_max_px}
            sizes |= {"room": self.room}
        return {**sizes, "group_colours": self.colours}


def priced(specs: tuple[ct.KernelSpec, ...], X: np.ndarray) -> dict[str, list]:
    """The ``kernels``, ``features`` and ``narrowness`` by which :mod:`kpca_core.budget`
    prices the columns of ``specs`` fitted on the points ``X``."""
    return {
        "kernels": [spec.kernel for spec in specs],
        "features": [spec.explicit_features(len(X)) for spec in specs],
        "narrowness": [spec.narrowness(X) for spec in specs],
    }


def seconds(points: PointSet, chosen: Columns) -> float:
    """The grid's estimated seconds of one core (:mod:`kpca_core.budget`)."""
    X = points.X
    return budget.contour_seconds(len(X), resolution=chosen.resolution, **priced(chosen.specs, X))


@memo
def grid(
    points: PointSet, chosen: Columns, space: Space, around: PointSet | None = None
) -> tuple[ct.ContourSweep, go.Figure]:
    """The grid's columns fitted and evaluated over the plane of ``points`` (or of
    ``around``: :func:`held_figure`), and its figure drawn in ``space``: in one call to a
    worker below :data:`ONE_CALL_S`, else column by column on both workers at once (each
    column kept on its own, :func:`_column`), then drawn in another call."""
    X, drawing = points.X, space.arguments(points.title)
    made = _in_one_call(points, chosen, space, around)
    if made is not None:
        return made[0], figure_from_json(*made[1:])
    shape = (chosen.resolution, chosen.center, chosen.n_components, around)
    made = tuple(concurrently(*(partial(_column, points, spec, *shape) for spec in chosen.specs)))
    made_grid = ct.make_grid((points if around is None else around).X, chosen.resolution)
    sweep = ct.ContourSweep(
        X, points.labels, made_grid, made, chosen.parameter, chosen.n_components
    )
    return sweep, figure_from_json(*compute(figures.contour_figure_json, sweep, **drawing))


def _in_one_call(
    points: PointSet, chosen: Columns, space: Space, around: PointSet | None
) -> tuple | None:
    """The sweep and its figure's data and JSON in one call to a worker
    (:func:`figures.sweep_and_figure_json`), or ``None`` for a grid of :data:`ONE_CALL_S` or
    more, or a failure (explained column by column)."""
    if seconds(points, chosen) >= ONE_CALL_S:
        return None
    settings = dict(
        n_components=chosen.n_components,
        center=chosen.center,
        parameter=chosen.parameter,
        labels=points.labels,
        resolution=chosen.resolution,
        around=None if around is None else around.X,
    )
    with contextlib.suppress(Exception):
        drawing = space.arguments(points.title)
        return compute(
            figures.sweep_and_figure_json, points.X, list(chosen.specs), settings, **drawing
        )
    return None


@memo
def held_json(points: PointSet, chosen: Columns, space: Space, around: PointSet | None) -> str:
    """The JSON alone of :func:`grid`'s figure, for a figure only sent (a held slider's): no
    figure object made, no sweep kept."""
    made = _in_one_call(points, chosen, space, around)
    return made[2] if made is not None else json_of(grid(points, chosen, space, around)[1])


@memo
def _column(
    points: PointSet,
    spec: ct.KernelSpec,
    resolution: int,
    center: bool,
    n_components: int,
    around: PointSet | None,
) -> ct.Column:
    """One column of a costly grid (over the plane of ``points``, or of ``around``), kept on
    its own (a class that changes one value shares the others); a costly fit is kept apart
    too (:func:`_fit`), for another resolution."""
    X, made = points.X, ct.make_grid((points if around is None else around).X, resolution)
    features = spec.explicit_features(len(X))
    fit_cost = budget.fit_seconds(len(X), spec.kernel, features, narrowness=spec.narrowness(X))
    cost = budget.grid_seconds(len(X), resolution, features, kernel=spec.kernel)
    if fit_cost < ONE_CALL_S:
        with contextlib.suppress(Exception):  # a failure is explained by _fit's own call
            fitted = ct.fitted_column, X, spec, made
            return compute(*fitted, n_components=n_components, center=center, cost=fit_cost + cost)
    return compute(ct.evaluate_column, _fit(points, spec, center, n_components), made, cost=cost)


@memo
def _fit(points: PointSet, spec: ct.KernelSpec, center: bool, n_components: int) -> ct.ColumnFit:
    """A costly column's fit, in a worker; an engine failure becomes its sentence."""
    X, features = points.X, spec.explicit_features(len(points.X))
    cost = budget.fit_seconds(len(X), spec.kernel, features, narrowness=spec.narrowness(X))
    try:
        return compute(ct.fit_column, X, spec, n_components=n_components, center=center, cost=cost)
    except Exception as error:  # an unforeseen engine failure must not reach the screen
        message = f"{spec.formula()}: the eigensolver failed ({error}). Try other parameters."
        empty = np.zeros((len(X), 0)), np.zeros(0), np.zeros(0), ()
        return ct.ColumnFit(spec, center, n_components, None, *empty, message)


def affordable(points: PointSet, chosen: Columns) -> Columns | None:
    """``chosen`` at a resolution within the request budget, with a notice if lowered;
    ``None`` and why if none is (:mod:`kpca_core.budget`)."""
    n, asked = len(points.X), chosen.resolution
    cost, resolution = budget.contour_cost(n, resolution=asked, **priced(chosen.specs, points.X))
    if not cost.fits:
        nothing_to_draw(
            cost.refusal(f"This grid ({n} points, {len(chosen.specs)} columns)"), st.error
        )
        return None
    if resolution != asked:
        took = {"seconds": seconds(points, chosen), "budget": budget.REQUEST_BUDGET_S}
        st.info(text("ct_resolution", resolution=resolution, asked=asked, **took))
    return replace(chosen, resolution=resolution)


# ------------------------------------------------------------------------ the page


@st.fragment
@guarded("ct", "the contour grid")
def contour_view(points: PointSet) -> None:
    """Kernel controls, then what they draw (:func:`contour_body`): a change reruns this
    fragment alone.  The page's width is measured last (a phone's folds the controls)."""
    after(st.session_state.get(SESSION, ""))  # the held figure asked for beside this run
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
    """The drawing canvas if drawn, the grid, the projection, the numbers: a fragment, so
    that a canvas edit reruns it alone (the drawing is read again here)."""
    drawn = is_drawn(points)
    if drawn:
        points = drawn_points("ct")
        canvas_place, grid_place = st.columns(DRAWN_COLUMNS)  # side by side, on one screen
        if len(points.X) < draw.MIN_POINTS:
            drawing_canvas(canvas_place)
            return
    with grid_place if drawn else contextlib.nullcontext():
        sweep = contour_grid(points, chosen)
    if sweep is None:
        if drawn:
            drawing_canvas(canvas_place)
        return
    column_notes(sweep)  # under the grid, which they pushed off the first screen
    if drawn:  # made once the grid is sent, while the browser draws it
        drawing_canvas(canvas_place, *canvas_background_of(sweep, points, chosen.center))
    classic = classic_of(points, chosen)
    notice_of(classic or "ct_contours")
    width = content_px(SCREEN, figures.FIGURE_PX)
    if prose():
        if classic:
            st.info(caption(classic))
        st.caption(text("ct_panels", step=panels.LEVEL_STEP))
        explain("ct_contours")
    projection_view(sweep, ct.sweep_slug(sweep), width)
    if rings.has_dk_width(points, chosen.spec, chosen.parameter, chosen.values):
        rings.fig5_section(points, SETTINGS.value("ct_img"), width)
    downloads(sweep)


def space_of(points: PointSet) -> Space:
    """The space the page gives the grid: presenter mode's screen, the page's (a phone's)
    width, or the share of the row beside the drawing canvas."""
    width = content_px(SCREEN, figures.FIGURE_PX)
    planned, panel_max_px = (page_px() if presenter_mode() else width), figures.PANEL_MAX_PX
    if is_drawn(points):
        planned = grid_beside_canvas_px(planned)
        panel_max_px = panel_max_px if is_narrow(width) else DRAWN_PANEL_PX
    return Space(
        planned, panel_max_px, figure_px() if presenter_mode() else None, room=room_scale()
    )


@guarded("ct", "the grid's chart")
def contour_grid(points: PointSet, chosen: Columns) -> ct.ContourSweep | None:
    """The grid's chart; the sweep it draws, or ``None`` where none is affordable.  While a
    live slider is held, or a point of the drawing dragged, the chart draws
    :func:`held_figure`'s figures, asked for without a run of the page."""
    fitting = affordable(points, chosen)
    if fitting is None:
        return None
    space = space_of(points)
    sweep, figure = grid(points, fitting, space)
    config = export_config(
        f"contours_{ct.sweep_slug(sweep)}", image_format=SETTINGS.value("ct_img")
    )
    # the figure's own width, figures.FIGURE_PX, or the screen's in presenter mode
    width = "stretch" if space.projector else "content"
    live = live_grid(points, dict(SETTINGS.values()), space)
    said = figures.describe_contours(sweep, title=figure.layout.title.text)
    chart(figure, width=width, key="ct_contours", config=config, live=live, description=said)
    return sweep


def live_grid(points: PointSet, values: Mapping[str, Any], space: Space) -> Live | None:
    """What the grid's chart follows without a run of the page: the live settings drawn with
    these settings, and a drawing's edits; ``None`` for a grid estimated at
    :data:`ONE_HELD_S` or more at the held resolution (drawn at the release)."""
    chosen = columns(values)
    held = replace(chosen, resolution=min(chosen.resolution, HELD_RESOLUTION))
    if seconds(points, held) >= ONE_HELD_S:
        return None
    shown = {"ct_k", *(FIXED[p] for p in ct.SWEEPABLE[chosen.spec.kernel] if p != chosen.parameter)}
    shown |= {"ct_noise"} if points.key[0] == "toy" else set()
    sliders = tuple(s for key, s in SETTINGS.entries.items() if s.live and key in shown)
    figure = partial(held_figure, points, dict(values), space)
    return Live(
        figure,
        sliders,
        (points.key, tuple(values.items()), space),
        "ct" if is_drawn(points) else None,
        tuple(presses(values)),
    )


DATA = frozenset({"ct_data", "ct_n", "ct_noise", "ct_seed"})
"""The settings that choose the points (:func:`kpca_ui.points.points_of`)."""


def held_figure(
    points: PointSet, values: dict[str, Any], space: Space, slider: str, value: Any
) -> str:
    """The grid figure's JSON with ``slider`` at ``value`` (the drawing ``value`` when
    ``slider`` is ``"drawing"``; the settings a press sets when ``slider`` is one of
    :func:`presses`), at most :data:`HELD_RESOLUTION` fine: :func:`grid` of the page's
    settings but those."""
    around = None  # the plane of the points drawn
    if isinstance(value, Drawing):
        points = drawing_points(value)
    else:
        pressed = presses(values)
        changed = pressed.get(slider, {slider: value})
        values = {**values, **changed}
        if DATA & changed.keys():  # new points: the noise's, a preset's
            # a held slider's in the page's plane: the panels hold still under the hand and
            # the chart sets the figure in place (chart.js, swap); a preset's in their own
            around = None if slider in pressed else points
            points = points_of(SETTINGS, values)
    chosen = columns(values)
    held = replace(chosen, resolution=min(chosen.resolution, HELD_RESOLUTION))
    return held_json(points, held, space, around)


def column_notes(sweep: ct.ContourSweep) -> None:
    """Why a column has no picture, one warning per reason naming every column it holds for;
    then one notice per cause over all columns (:func:`kpca_core.contours.merge_notes`)."""
    labels = [sweep.column_label(c) for c in range(len(sweep.columns))]
    reasons: dict[str, list[str]] = {}
    for label, column in zip(labels, sweep.columns, strict=True):
        if column.error is not None:
            reasons.setdefault(column.error, []).append(label)
    for reason, named in reasons.items():
        st.warning(f"**{', '.join(named)}**: {reason}")
    notes = [(label, column.notes) for label, column in zip(labels, sweep.columns, strict=True)]
    for merged in ct.merge_notes(notes):
        st.info(merged)


def grid_beside_canvas_px(width: int) -> int:
    """The grid's width beside the drawing canvas in a row ``width`` pixels wide (all of it on
    a phone's page, where the columns stand one above the other)."""
    return width if is_narrow(width) else round(width * DRAWN_COLUMNS[1] / sum(DRAWN_COLUMNS)) - 16


def canvas_background_of(sweep: ct.ContourSweep, points: PointSet, center: bool) -> tuple:
    """The picture behind the canvas, kPC 1 of the column the projection shows, and what it
    is ("kPC 1 of degree 2")."""
    labels = column_labels(sweep)  # the projection's Column box holds a label
    chosen = SETTINGS.value("ct_pcol")
    c = labels.index(chosen) if chosen in labels else len(labels) - 1
    half = draw.current_drawing("ct").half_width
    made = draw.background(points.X, points.key, sweep.columns[c].fit.spec, center, half)
    return made, f"kPC 1 of {labels[c]}" if made is not None else None


def drawing_canvas(place: Any, background: dict | None = None, behind: str | None = None) -> None:
    """The Contours view's drawing canvas over ``background``, in ``place``; ``behind`` names
    the component the background shows."""
    draw.canvas("ct", background, place=place, large=presenter_mode(), behind=behind)


@st.fragment
@guarded("ct", "the projection")
def projection_view(sweep: ct.ContourSweep, slug: str, width: int = figures.FIGURE_PX) -> None:
    """The data in two chosen components of one column, planned for ``width`` px."""
    if prose():
        st.subheader("The data in kernel principal components")
    choose = st.columns(3)
    # The Column box's options are the columns' labels, not their positions: a position
    # keeps its value when the columns change while its label changes under it.
    labels = column_labels(sweep)
    components = list(range(1, sweep.n_components + 1))
    second = min(2, sweep.n_components)
    SETTINGS.settle("ct_pcol", labels, labels[-1])
    SETTINGS.settle("ct_pi", components, 1)
    SETTINGS.settle("ct_pj", components, second)
    label = SETTINGS.draw("ct_pcol", choose[0], options=labels, index=len(labels) - 1)
    i = SETTINGS.draw("ct_pi", choose[1], options=components)
    j = SETTINGS.draw("ct_pj", choose[2], options=components, index=second - 1)
    column = labels.index(label)
    fig = figures.projection_figure(sweep, column, i, j, width_px=width)
    config = export_config(f"contours-kpc{i}-kpc{j}_{slug}", image_format=SETTINGS.value("ct_img"))
    said = figures.describe_projection(sweep, column, i, j)
    chart(presentable(fig), key="ct_projection", config=config, description=said)
    if prose():
        explain("ct_projection")


def column_labels(sweep: ct.ContourSweep) -> list[str]:
    """The columns' labels ("degree 2", "σ = 0.5", "linear PCA"), made unique if they repeat."""
    labels = [column.fit.spec.label(sweep.parameter) for column in sweep.columns]
    if len(set(labels)) < len(labels):
        labels = [f"{label} (column {c + 1})" for c, label in enumerate(labels)]
    return labels


@guarded("ct", "the downloads")
def downloads(sweep: ct.ContourSweep) -> None:
    """The numbers behind the grid as CSV (made when asked for), and the camera's format."""
    if not prose():
        return
    slug = ct.sweep_slug(sweep)
    st.subheader("Numbers and pictures")
    left, right = st.columns([3, 1])
    tables = (
        ("Eigenvalues (CSV)", "eigenvalues", ct.eigenvalues_table),
        ("Points' components (CSV)", "points", ct.points_table),
        ("Values on the grid (CSV)", "grid", ct.grid_table),
    )
    files = [
        (label, f"ct_dl_{name}", f"contours-{name}_{slug}.csv", lambda t=table: ct.to_csv(t(sweep)))
        for label, name, table in tables
    ]
    with left:
        csv_numbers("ct", files)
    SETTINGS.draw("ct_img", right, horizontal=True)


def classic_of(points: PointSet, chosen: Columns) -> str | None:
    """Which classic figure the page shows, whose caption and presenter line apply: ``"ct_fig2"``
    (Fig. 2's data and columns), ``"ct_rings"`` (the three rings' preset, centred) or ``None``."""
    spec = chosen.spec
    if (
        points.key[:2] == ("toy", "parabola")
        and (spec.kernel, chosen.parameter) == ("poly", "degree")
        and chosen.values[:2] == (1, 2)
        and (spec.gamma, spec.coef0) == (1, 0)
        and chosen.center
    ):
        return "ct_fig2"
    three = rings.is_rings_preset(points, spec, chosen.parameter, chosen.values) and chosen.center
    return "ct_rings" if three else None


def caption(classic: str) -> str:
    """The caption of the classic figure ``classic`` (:func:`classic_of`)."""
    return text("ct_fig2") if classic == "ct_fig2" else rings.RINGS_CAPTION


def warm(values: Mapping[str, Any]) -> None:
    """The grid a desktop's first visit of the settings ``values`` draws (:mod:`kpca_ui.warmup`)."""
    grid(points_of(SETTINGS, values), columns(values), Space())
