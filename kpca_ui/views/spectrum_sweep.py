"""The Spectrum view's sweep and its figures, each made by one function behind the shared cache.

Its settings and texts are in :mod:`kpca_ui.views.spectrum`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from functools import partial
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from kpca_core import budget, gamma_to_sigma
from kpca_core import contours as ct
from kpca_core.figures import spectrum as figures
from kpca_core.figures import style
from kpca_core.figures.words import Description
from kpca_core.rings import DK_GAMMA
from kpca_core.spectrum import CONSTANT, IDENTITY, WidthSweep
from kpca_ui import draw
from kpca_ui.cache import memo
from kpca_ui.chart import chart, kept_json
from kpca_ui.explain import EXPLANATIONS, explain, notice_of, text
from kpca_ui.points import PointSet, copy_source, is_drawn, points_of
from kpca_ui.presenter import FIGURE_PX, page_px, presentable, presenter_mode, prose
from kpca_ui.safety import guarded
from kpca_ui.screen import narrow_listener, narrow_px
from kpca_ui.shell import csv_numbers, nothing_to_draw
from kpca_ui.views import spectrum as view
from kpca_ui.views.denoising_cache import progress_bar
from kpca_ui.views.rings import dk_rings
from kpca_ui.views.spectrum import SETTINGS, Choice, choice_of, file_stem
from kpca_ui.workers import HEAVY_S, build, compute, concurrently

SWEEP_PX = FIGURE_PX + 80  # on the projector (a slide: 60 px less), plots ≥ AREA_MIN_PX tall
SCREEN = "sp_screen"  # the listener of the page's width (a phone's: the maps stacked)
PROGRESS_DELAY_S = 0.3  # the progress bar appears only when the sweep takes longer than this
DK_MARK = (gamma_to_sigma(DK_GAMMA), "D&K c = 0.017")  # on the three rings, Gaussian


def _cost(points: PointSet, chosen: Choice) -> budget.Cost:
    """The sweep's cost by :mod:`kpca_core.budget` (a degree sweep: one width per degree)."""
    if chosen.kernel == "degree":
        return budget.sweep_cost(len(points.X), chosen.max_degree, "poly")
    return budget.sweep_cost(len(points.X), chosen.n_widths, chosen.kernel)


def _new_sweep(points: PointSet, chosen: Choice, *, center: bool = True) -> WidthSweep:
    """The (unfitted) sweep of this data and choice, whose fields are its parameters."""
    by_degree = chosen.kernel == "degree"
    return WidthSweep(
        **{**asdict(chosen), "kernel": "poly" if by_degree else chosen.kernel},
        sweep="degree" if by_degree else "width",
        center=center,
        # a heavy sweep keeps to one core, leaving the other to everyone else
        n_jobs=1 if _cost(points, chosen).seconds >= HEAVY_S else 2,
    )


@memo
def sweep(points: PointSet, chosen: Choice) -> WidthSweep:
    """The sweep of this data and choice, in a worker (a bar shows its progress once it
    has taken :data:`PROGRESS_DELAY_S`)."""
    report, done = progress_bar("Sweeping the width", PROGRESS_DELAY_S)
    try:
        cost = _cost(points, chosen).seconds
        return compute(_new_sweep(points, chosen).fit, points.X, progress=report, cost=cost)
    finally:
        done()


@memo
def figure(
    points: PointSet,
    chosen: Choice,
    name: str,
    index: int = 0,
    n_leading: int = 0,
    width: int = 0,
    log: bool = False,
    legend_right: bool = False,
) -> go.Figure | Mapping[str, Any]:
    """The sweep's figure ``name`` marked at ``index``, or the frames that scrub the chosen
    width in the bars or the sweep figures ("bars frames", "marks frames": :func:`chart`'s):
    plain dicts built in the server, 1-2.5 ms each (``bench/spectrum.py --new-sweep``), less
    than a trip to a worker, and serialised once."""
    made = sweep(points, chosen)
    marks = [DK_MARK] if dk_rings(points, made.kernel) else []
    make = {
        "lines": lambda: figures.ratio_lines_figure(
            made, n_leading=n_leading, chosen=index, marks=marks, width_px=width
        ),
        "components": lambda: figures.effective_components_figure(made, chosen=index),
        "heatmap": lambda: figures.spectrum_heatmap_figure(made, chosen=index),
        "bars": lambda: figures.spectrum_bars_figure(
            made, index, log=log, legend_right=legend_right
        ),
        "film": lambda: figures.spectrum_film_figure(made),  # every width, played in the browser
        "centring": lambda: figures.centring_share_figure(
            made, uncentred(points, chosen), marks=marks
        ),
        "bars frames": lambda: figures.spectrum_bars_frames(made, _chosen_default(made), log=log),
        "marks frames": lambda: figures.chosen_frames(made),
    }
    built = make[name]()
    if name.endswith("frames"):  # by the slider's label
        labels = width_labels(made)
        built = {"slider": "sp_at", "frames": {labels[at]: f for at, f in built.items()}}
    return kept_json(built)


@memo
def maps(points: PointSet, chosen: Choice, index: int, width: int) -> go.Figure:
    """Eigenvectors at one width (a full KernelPCA fit there): contours, or a projection,
    planned for a page ``width`` wide; costed as a fit (at 2000 points, ~7 s: the heavy lane)."""
    made = sweep(points, chosen)
    cost = budget.maps_seconds(made.n_samples_, made.kernel_params(index)["kernel"])
    fig = build(figures.components_at_figure, made, index, points.labels, width_px=width, cost=cost)
    return kept_json(fig)


@memo
def sweep_csv(points: PointSet, chosen: Choice) -> bytes:
    """The sweep's numbers as CSV."""
    return sweep(points, chosen).to_frame().to_csv(index=False).encode()


@memo
def dk_share(points: PointSet, center: bool) -> float:
    """(λ₁+λ₂)/Σλ of the Gaussian kernel at Deręgowski & Krzyśko's c, centred or not."""
    at_c = WidthSweep("rbf", widths=[gamma_to_sigma(DK_GAMMA)], center=center, n_jobs=1)
    cost = budget.sweep_seconds(len(points.X), 1, "rbf")
    return float(compute(at_c.fit, points.X, cost=cost).share(2)[0])


@memo
def uncentred(points: PointSet, chosen: Choice) -> np.ndarray:
    """(λ₁+λ₂)/Σλ at the sweep's widths without centring in feature space: only the two
    largest eigenvalues (:meth:`~kpca_core.spectrum.WidthSweep.leading_shares`), from the
    widths alone, so beside the sweep; costed as the sweep itself (an upper bound)."""
    cost = budget.sweep_seconds(len(points.X), chosen.n_widths, "rbf")
    return compute(_new_sweep(points, chosen, center=False).leading_shares, points.X, cost=cost)


def _course(widths: np.ndarray, share: np.ndarray) -> str:
    """How (λ₁+λ₂)/Σλ runs as the kernel widens: "rises monotonically", or where it peaks."""
    finite = share[np.isfinite(share)]
    if np.all(np.diff(finite) >= -1e-12):
        return "rises monotonically"
    peak = float(widths[np.nanargmax(share)])
    return f"does not rise monotonically (largest at σ = {peak:.3g})"


def _chosen_default(made: WidthSweep) -> int:
    """The width nearest the data scale (the middle of the degrees)."""
    if made.sweep == "degree":
        return min(2, made.widths_.size - 1)
    return int(np.argmin(np.abs(np.log(made.widths_ / made.scale_))))


def width_labels(made: WidthSweep) -> list[str]:
    """The swept widths as the chosen-width slider shows them, with more digits if they repeat."""
    for digits in (3, 6, 12):
        labels = [f"{width:.{digits}g}" for width in made.widths_]
        if len(set(labels)) == len(labels):
            return labels
    return [f"{label} (#{i + 1})" for i, label in enumerate(labels)]


def _show(
    fig: go.Figure,
    name: str,
    stem: str,
    frames: dict | None = None,
    height: int | None = FIGURE_PX,
    description: Description | None = None,
) -> None:
    """Figure ``name`` in the chart ``sp_fig_<name>`` (in presenter mode a copy ``height`` px
    tall, unless None: shared figures stay), in words if ``description``
    (:func:`kpca_ui.chart.chart`), and its explanation if it has one."""
    config = style.export_config(f"spectrum-{name}_{stem}", image_format=SETTINGS.value("sp_img"))
    fig = fig if height is None else presentable(fig, height=height)
    chart(fig, key=f"sp_fig_{name}", config=config, frames=frames, description=description)
    if f"sp_{name}" in EXPLANATIONS:
        explain(f"sp_{name}")


@st.fragment
@guarded("sp", "the figures at the chosen width")
def chosen_width_view(points: PointSet, chosen: Choice, n_leading: int) -> None:
    """Everything that moves with the chosen width, rerun alone when it changes: the sweep
    figures only re-marked, the spectrum and maps at a width built once."""
    made = sweep(points, chosen)
    # The slider's options are the widths as shown, not their positions: a position
    # keeps its value under a new sweep while its width changes.
    labels = width_labels(made)
    SETTINGS.settle("sp_at", labels, labels[_chosen_default(made)])
    projector = presenter_mode()  # read here: the calls below run outside the session's script
    stem = file_stem(points, chosen)
    # The figures above the slider are drawn after it, so that they use the value it
    # returns.  In presenter mode they go below the figures the slider moves.
    above = None if projector else st.container()
    label = (
        f"Chosen {figures.parameter_label(made)}: its spectrum and components, and the "
        "dashed line in the sweep figures"
    )
    index = labels.index(SETTINGS.draw("sp_at", options=labels, label=label))
    log_bars = SETTINGS.draw("sp_logbars")
    # Side by side on the projector's wide page; elsewhere the maps get the page's width
    # under the spectrum (in 3/5 of it beside the bars, each map was ~140 × 120 px).
    below_left, below_right = st.columns([2, 3]) if projector else (st.container(), st.container())
    value = figures.format_parameter(made, float(made.widths_[index]))
    width = narrow_px(SCREEN)  # a phone's, once measured
    narrow = style.is_narrow(width)
    # a sweep figure's planned width: a phone's page, else half the page (two a row)
    half = width if narrow else page_px() // 2 if projector else figures.PANEL_PX

    def maps_or_reason() -> go.Figure | str:
        if made.regime_[index] == CONSTANT:
            return text("sp_constant_maps", value=value)
        try:
            return maps(points, chosen, index, width if narrow else figures.MAPS_PX)
        except ValueError as error:
            return f"The components at {value} cannot be computed: {error}"

    # what the slider asks for first: the spectrum and the maps (in a worker) at once
    spectrum, components_or_reason = concurrently(
        lambda: figure(points, chosen, "bars", index, log=log_bars, legend_right=projector),
        maps_or_reason,
    )
    with below_left:
        scrub = not np.isnan(made.ratios_[index, 0])  # a spectrum to scrub through
        frames = figure(points, chosen, "bars frames", log=log_bars) if scrub else None
        _show(
            spectrum, "bars", stem, frames, description=figures.describe_spectrum_bars(made, index)
        )
    with below_right:
        if isinstance(components_or_reason, str):
            (st.info if made.regime_[index] == CONSTANT else st.warning)(components_or_reason)
        else:
            said = figures.describe_components_at(components_or_reason)
            _show(components_or_reason, "maps", stem, description=said)
    if above is None:
        notice_of("sp_spectrum")  # under the spectrum and the component maps
        above = st.container()
    # the sweep figures, below the ones the slider moves, taller on the projector
    moving = figure(points, chosen, "marks frames")
    left, right = above.columns(2)
    with left:
        lines = figure(points, chosen, "lines", index, n_leading, half)
        said = figures.describe_ratio_lines(made, n_leading=n_leading, chosen=index)
        _show(lines, "lines", stem, moving, SWEEP_PX, said)
    with right:
        said = figures.describe_effective_components(made, chosen=index)
        _show(
            figure(points, chosen, "components", index), "components", stem, moving, SWEEP_PX, said
        )
    left, right = above.columns([3, 2])
    with left:
        said = figures.describe_spectrum_heatmap(made, chosen=index)
        _show(figure(points, chosen, "heatmap", index), "heatmap", stem, moving, SWEEP_PX, said)
    if prose():
        with right:
            st.markdown("#### The two limits")
            st.markdown(text(f"sp_limits_{'degree' if made.sweep == 'degree' else made.kernel}"))
            for regime in (IDENTITY, CONSTANT):
                if shaded := view.range_text(made, regime):
                    st.caption(shaded)
        st.caption(view.rounding_text(made, index))
    narrow_listener(SCREEN, width)


def computed(points: PointSet, chosen: Choice) -> bool:
    """Whether this data and choice have a sweep (computed now if not yet); if not, why
    (a drawing of too few points: its canvas says so)."""
    if is_drawn(points) and len(points.X) < draw.MIN_POINTS:
        return False
    low, high = chosen.decades
    if chosen.kernel != "degree" and low >= high:  # the range slider's two ends dragged together
        nothing_to_draw(text("sp_empty_range", low=low, high=high))
        return False
    cost = _cost(points, chosen)
    if not cost.fits:
        nothing_to_draw(cost.refusal(f"This sweep ({len(points.X)} points)", "sweep"), st.error)
        return False
    try:
        seconds = _dk_seconds(points, chosen)
        if seconds and sum(seconds) <= budget.REQUEST_BUDGET_S:
            # it needs only the widths: beside the sweep, one wait in the workers' queue
            concurrently(lambda: sweep(points, chosen), *_dk_calls(points, chosen))
        sweep(points, chosen)
    except ValueError as error:
        st.error(f"The spectrum cannot be computed for these settings: {error}")
        return False
    return True


def _dk_seconds(points: PointSet, chosen: Choice) -> tuple[float, float] | None:
    """The sweep's estimated seconds and the comparison's on top, if the page compares with
    Deręgowski & Krzyśko (:func:`dk_rings`; not in presenter mode: it pushed the figures down)."""
    if not (prose() and dk_rings(points, chosen.kernel)):
        return None
    return _cost(points, chosen).seconds, budget.comparison_seconds(len(points.X), chosen.n_widths)


def _dk_calls(points: PointSet, chosen: Choice) -> list:
    """The comparison's three worker calls: the uncentred shares, and the centred and
    uncentred shares at D&K's c."""
    return [
        lambda: uncentred(points, chosen),
        *(lambda c=center: dk_share(points, c) for center in (True, False)),
    ]


def dk_note(points: PointSet, chosen: Choice) -> None:
    """On the three rings, what Deręgowski & Krzyśko report and what the maths gives: the
    (λ₁+λ₂)/Σλ centred (eq. 49) and not (K itself, their eq. 3.7), in one figure."""
    if (seconds := _dk_seconds(points, chosen)) is None:
        return
    made = sweep(points, chosen)
    sweep_s, extra_s = seconds
    reported = {"gamma": DK_GAMMA, "sigma": gamma_to_sigma(DK_GAMMA)}
    if sweep_s + extra_s > budget.REQUEST_BUDGET_S:
        costs = {"widths": made.widths_.size, "extra": extra_s, "sweep": sweep_s}
        st.info(text("sp_dk_costly", **reported, **costs, budget=budget.REQUEST_BUDGET_S))
        return
    # at once (already asked for beside a new sweep: computed)
    not_centred, centred_at_c, not_centred_at_c = concurrently(*_dk_calls(points, chosen))
    courses = [_course(made.widths_, share) for share in (made.share(2), not_centred)]
    at_c = {"centred": centred_at_c, "not_centred": not_centred_at_c}
    st.info(text("sp_dk", **reported, courses=courses, **at_c))
    said = figures.describe_centring(made, not_centred, marks=[DK_MARK])
    _show(
        figure(points, chosen, "centring"), "centring", file_stem(points, chosen), description=said
    )


@guarded("sp", "the film and the download of the sweep")
def sweep_extras(points: PointSet, chosen: Choice) -> None:
    """On request, the spectrum at every width as an animation played in the browser (a
    large figure that most visits never play); the sweep's numbers as CSV, made when asked."""
    stem = file_stem(points, chosen)
    if SETTINGS.draw("sp_film"):
        said = figures.describe_spectrum_film(sweep(points, chosen))
        _show(figure(points, chosen, "film"), "film", stem, height=None, description=said)
    if prose():
        maker = partial(sweep_csv, points, chosen)
        csv_numbers("sp", [("Download the sweep (CSV)", "sp_csv", f"spectrum_{stem}.csv", maker)])


def _spec_at(made: WidthSweep, index: int) -> ct.KernelSpec:
    """The sweep's kernel at one width, as the Contours view writes it."""
    params = made.kernel_params(index)
    if params["kernel"] == "rbf":
        return ct.KernelSpec("rbf", sigma=gamma_to_sigma(params["gamma"]))
    if params["kernel"] == "laplacian":
        return ct.KernelSpec("laplacian", sigma=1.0 / params["gamma"])
    return ct.KernelSpec("poly", degree=params["degree"], gamma=1.0, coef0=params["coef0"])


def drawing_canvas(points: PointSet, chosen: Choice, has_sweep: bool) -> None:
    """The drawing canvas, when the points are drawn, over kPC 1 at the chosen width of the
    page's last full run (its slider reruns only the figures below)."""
    if not is_drawn(points):
        return
    background = None
    if has_sweep:
        made = sweep(points, chosen)
        labels = width_labels(made)
        chosen_label = SETTINGS.value("sp_at")
        index = labels.index(chosen_label) if chosen_label in labels else _chosen_default(made)
        half = draw.current_drawing("sp").half_width
        background = draw.background(points.X, points.key, _spec_at(made, index), True, half)
    draw.canvas("sp", background, can_copy=copy_source("sp") is not None)


def warm(values: Mapping[str, Any]) -> None:
    """The sweep a first visit of the settings ``values`` computes and, on the three rings,
    the comparison with Deręgowski & Krzyśko (:mod:`kpca_ui.warmup`)."""
    points, chosen = points_of(SETTINGS, values), choice_of(values)
    sweep(points, chosen)
    if dk_rings(points, chosen.kernel):
        for call in _dk_calls(points, chosen):
            call()
