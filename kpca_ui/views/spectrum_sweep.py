"""The Spectrum view's sweep, computed once per data and sweep choice, and its figures.

The sweep and the figures built from it are kept in one holder per choice and
shared by every session; the chosen width only re-marks copies of them.  The
settings and texts are in :mod:`kpca_ui.views.spectrum`.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from kpca_core import budget, gamma_to_sigma
from kpca_core import contours as ct
from kpca_core.figures import spectrum as figures
from kpca_core.figures import style
from kpca_core.figures.drawing import canvas_background
from kpca_core.rings import DK_GAMMA
from kpca_core.spectrum import CONSTANT, IDENTITY, WidthSweep
from kpca_ui import draw
from kpca_ui.chart import chart, kept_json
from kpca_ui.explain import explain
from kpca_ui.points import PointSet, copy_source, is_drawn
from kpca_ui.presenter import FIGURE_PX, notice, page_px, presentable, presenter_mode
from kpca_ui.safety import guarded
from kpca_ui.screen import narrow_listener, narrow_px
from kpca_ui.shell import nothing_to_draw
from kpca_ui.views.spectrum import LIMITS, file_stem, range_text, rounding_text
from kpca_ui.workers import HEAVY_S, build, compute, concurrently, in_script_run

# The progress bar appears only when the sweep takes longer than this.
NOTICE = (
    "Narrow widths spread the variance over many components; wide ones give nearly all "
    "of it to the first two."
)
"""Presenter mode's one line under the spectrum and the component maps."""
SWEEP_PX = FIGURE_PX + 80
"""The sweep figures' height on the projector (60 px less on a lesson's slide): their
plots at least AREA_MIN_PX tall under the title and above the legend."""
SCREEN = "sp_screen"
"""The listener of the page's width (a phone's: the maps one below the other)."""
PROGRESS_DELAY_S = 0.3


@st.cache_resource(max_entries=16, show_spinner=False)
def _results(data_key: tuple, sweep_key: tuple) -> dict:
    """An empty holder per data and sweep choice: the sweep, then its figures.

    Filled once by :func:`sweep_holder` (and the figure helpers), instead of caching
    a function, because the sweep's progress bar must not be recorded and
    replayed by the cache.
    """
    return {}


def _cost(points: PointSet, sweep_key: tuple) -> budget.Cost:
    """The sweep's cost by :mod:`kpca_core.budget` (a degree sweep: one width per degree)."""
    kernel, _, n_widths, _, _, max_degree = sweep_key
    if kernel == "degree":
        return budget.sweep_cost(len(points.X), max_degree, "poly")
    return budget.sweep_cost(len(points.X), n_widths, kernel)


def _new_sweep(points: PointSet, sweep_key: tuple, *, center: bool = True) -> WidthSweep:
    """The (unfitted) sweep of this data and sweep choice."""
    kernel, decades, n_widths, degree, coef0, max_degree = sweep_key
    return WidthSweep(
        "poly" if kernel == "degree" else kernel,
        sweep="degree" if kernel == "degree" else "width",
        decades=decades,
        n_widths=n_widths,
        degree=degree,
        coef0=coef0,
        max_degree=max_degree,
        center=center,
        # a heavy sweep keeps to one core, leaving the other to everyone else
        n_jobs=1 if _cost(points, sweep_key).seconds >= HEAVY_S else 2,
    )


def sweep_holder(points: PointSet, sweep_key: tuple) -> dict:
    """The holder of this data and sweep choice, with the sweep computed in it."""
    holder = _results(points.key, sweep_key)
    holder["key"] = (points.key, sweep_key)
    if "sweep" not in holder:
        sweep = _new_sweep(points, sweep_key)
        bar = _DelayedProgress()
        try:
            seconds = _cost(points, sweep_key).seconds
            holder["sweep"] = compute(sweep.fit, points.X, progress=bar, cost=seconds)
        finally:
            bar.close()
    return holder


class _DelayedProgress:
    """A progress callback that shows a bar only once the work takes a while."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.bar = None

    def __call__(self, fraction: float, message: str) -> None:
        if self.bar is None:
            if time.perf_counter() - self.start < PROGRESS_DELAY_S or not in_script_run():
                return
            self.bar = st.progress(0.0)
        self.bar.progress(min(fraction, 1.0), text=f"Sweeping the width: {message}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.empty()


def _once(holder: dict, key: tuple, make: Callable[[], go.Figure]) -> go.Figure:
    """A figure built once per sweep and shared by every session (never mutated).

    A figure is serialised once, here (:func:`kpca_ui.chart.kept_json`): every later
    run sends the same JSON instead of making it again.
    """
    if key not in holder:
        made = make()
        holder[key] = kept_json(made) if isinstance(made, go.Figure) else made
    return holder[key]


COPY_LOCK = threading.Lock()
# Re-marked sweep figures kept per sweep: three figures at 16 widths.
MARKED_COPIES = 48


def _marked(
    holder: dict,
    key: tuple,
    make: Callable[[], go.Figure],
    sweep: WidthSweep,
    index: int,
) -> go.Figure:
    """A sweep figure with its chosen-width marks at ``index``, shared by every session.

    The figure is built once per sweep (``key``); a chosen width gets a copy of
    it, re-marked (a millisecond, where a new figure takes tens), which every
    session then shares and nobody mutates: scrubbing the width redraws without
    rebuilding, and a width that any session chose before costs nothing.  The
    last ``MARKED_COPIES`` copies per sweep are kept, so memory stays bounded.
    """
    copies = holder.setdefault("marked", OrderedDict())
    token = (*key, index)
    with COPY_LOCK:
        if token in copies:
            copies.move_to_end(token)
            return copies[token]
    if key not in holder:
        # built at this very width, so it is its own re-marked copy
        copy = _once(holder, key, make)
    else:
        with COPY_LOCK:  # plotly touches the figure it copies: not safe across sessions
            copy = figures.copy_figure(holder[key])
        figures.move_chosen(copy, sweep, index)
        kept_json(copy)  # marked: serialised once, as the figures of :func:`_once`
    with COPY_LOCK:
        copies[token] = copy
        while len(copies) > MARKED_COPIES:
            copies.popitem(last=False)
    return copy


def _maps(
    holder: dict, sweep: WidthSweep, labels: np.ndarray | None, index: int, width: int
) -> go.Figure:
    """Eigenvectors at one width (a full KernelPCA fit there): contours, or a projection,
    planned for a page ``width`` wide.

    Costed as a fit of the sweep's points (``budget.maps_seconds``), so that at
    2000 points (~7 s) it takes the heavy lane and is cancelled with its session.
    """
    cost = budget.maps_seconds(sweep.n_samples_, sweep.kernel_params(index)["kernel"])
    return _once(
        holder,
        ("maps", index, width),
        lambda: build(
            figures.components_at_figure, sweep, index, labels, width_px=width, cost=cost
        ),
    )


@st.cache_data(max_entries=16, show_spinner=False)
def _csv(_sweep: WidthSweep, data_key: tuple, sweep_key: tuple) -> bytes:
    return _sweep.to_frame().to_csv(index=False).encode()


@st.cache_resource(max_entries=16, show_spinner=False)
def dk_share(_X: np.ndarray, data_key: tuple, center: bool) -> float:
    """(λ₁+λ₂)/Σλ of the Gaussian kernel at Deręgowski & Krzyśko's c, centred or not."""
    sweep = WidthSweep("rbf", widths=[gamma_to_sigma(DK_GAMMA)], center=center, n_jobs=1)
    cost = budget.sweep_seconds(len(_X), 1, "rbf")
    return float(compute(sweep.fit, _X, cost=cost).share(2)[0])


def uncentred_sweep(holder: dict, points: PointSet, sweep_key: tuple) -> np.ndarray:
    """(λ₁+λ₂)/Σλ at the sweep's widths without centring in feature space, once per sweep.

    Only that share is shown, so only the two largest eigenvalues are computed
    (:meth:`kpca_core.spectrum.WidthSweep.leading_shares`); it needs the widths, not
    the sweep, so it can run beside it.  Costed as the sweep itself (an upper
    bound): a large one takes the heavy lane and is cancelled when its session
    stops waiting.
    """
    if "uncentred" not in holder:
        cost = budget.sweep_seconds(len(points.X), sweep_key[2], "rbf")
        shares = _new_sweep(points, sweep_key, center=False).leading_shares
        holder["uncentred"] = compute(shares, points.X, cost=cost)
    return holder["uncentred"]


def _course(widths: np.ndarray, share: np.ndarray) -> str:
    """How (λ₁+λ₂)/Σλ runs as the kernel widens: "rises monotonically", or where it peaks."""
    finite = share[np.isfinite(share)]
    if np.all(np.diff(finite) >= -1e-12):
        return "rises monotonically"
    peak = float(widths[np.nanargmax(share)])
    return f"does not rise monotonically (largest at σ = {peak:.3g})"


def _chosen_default(sweep: WidthSweep) -> int:
    """The width nearest the data scale (the middle of the degrees)."""
    if sweep.sweep == "degree":
        return min(2, sweep.widths_.size - 1)
    return int(np.argmin(np.abs(np.log(sweep.widths_ / sweep.scale_))))


def width_labels(sweep: WidthSweep) -> list[str]:
    """The swept widths as the chosen-width slider shows them, with more digits if they repeat."""
    for digits in (3, 6, 12):
        labels = [f"{width:.{digits}g}" for width in sweep.widths_]
        if len(set(labels)) == len(labels):
            return labels
    return [f"{label} (#{i + 1})" for i, label in enumerate(labels)]


def _marks(points: PointSet, sweep: WidthSweep) -> list[tuple[float, str]]:
    if points.key[:2] == ("toy", "three_rings") and sweep.kernel == "rbf":
        return [(gamma_to_sigma(DK_GAMMA), "D&K c = 0.017")]
    return []


@st.fragment
@guarded("sp", "the figures at the chosen width")
def chosen_width_view(
    holder: dict,
    points: PointSet,
    sweep_key: tuple,
    n_leading: int,
    image_format: str,
) -> None:
    """Everything that moves with the chosen width; reruns alone when it changes.

    Nothing here recomputes the sweep: the three sweep figures are only
    re-marked, and the spectrum and maps at a width are built once.
    """
    sweep = holder["sweep"]
    # The slider's options are the widths as shown, not their positions: a position
    # keeps its value under a new sweep while its width changes, and the browser
    # would go on showing (and the URL keep) the old sweep's width.
    labels = width_labels(sweep)
    if st.session_state.get("sp_at") not in labels:
        st.session_state["sp_at"] = labels[_chosen_default(sweep)]
    stem = file_stem(points, sweep_key)
    marks = _marks(points, sweep)

    def show(fig: go.Figure, name: str, frames: dict | None = None) -> None:
        # the sweep figures, below the ones the slider moves, taller on the projector: their
        # legends under the plot left it 100 px on a lesson's slide
        height = SWEEP_PX if name in ("lines", "components", "heatmap") else FIGURE_PX
        chart(
            presentable(fig, height=height),  # a copy in presenter mode: shared figures stay
            key=f"sp_fig_{name}",
            config=style.export_config(f"spectrum-{name}_{stem}", image_format=image_format),
            frames=frames,
        )
        explain(f"sp_{name}")

    def marked(name: str, make: Callable[[], go.Figure], *extra: object) -> go.Figure:
        return _marked(holder, (name, *extra), make, sweep, index)

    # The figures above the slider are drawn after it, so that they use the
    # value it returns: on a link's first run that is the URL's value. In presenter
    # mode they go below the figures the slider moves, which must fit the screen.
    above = None if presenter_mode() else st.container()
    index = labels.index(
        st.select_slider(
            f"Chosen {figures.parameter_label(sweep)}: its spectrum and components, and the "
            "dashed line in the sweep figures",
            options=labels,
            key="sp_at",
            bind="query-params",
        )
    )
    log_bars = st.toggle("Logarithmic bars", key="sp_logbars", bind="query-params")
    # Side by side on the projector's wide page; elsewhere the maps get the page's width
    # under the spectrum (in 3/5 of it beside the bars, each map was ~140 × 120 px).
    below_left, below_right = (
        st.columns([2, 3]) if presenter_mode() else (st.container(), st.container())
    )
    value = figures.format_parameter(sweep, float(sweep.widths_[index]))
    width = narrow_px(SCREEN)  # a phone's, once measured
    narrow = style.is_narrow(width)
    # the width a sweep figure is planned for: a phone's page, or half of presenter
    # mode's wide page or of a desktop's (two a row)
    half = width if narrow else page_px() // 2 if presenter_mode() else figures.PANEL_PX

    def maps() -> go.Figure | str:
        """The component maps at this width, or why there are none."""
        if sweep.regime_[index] == CONSTANT:
            return (
                f"At {value} every entry of the kernel matrix rounds to the same number, so "
                "a plain kernel PCA, which the component maps need, sees no differences "
                "between the points. Choose a narrower width to see the components."
            )
        try:
            return _maps(holder, sweep, points.labels, index, width if narrow else figures.MAPS_PX)
        except ValueError as error:
            return f"The components at {value} cannot be computed: {error}"

    # What the slider asks for comes first, the spectrum and the maps at this width
    # (built at the same time: the maps in a worker); the browser draws the charts in
    # the order they arrive, so the marks on the sweep figures above follow them.
    # The sweep's own figures are built here, in the server: plain dicts, 1-2.5 ms
    # each (bench/spectrum.py --new-sweep), less than a trip to a worker, whose queue
    # a storm of sessions makes seconds long.
    bars, components_or_reason = concurrently(
        lambda: _once(
            holder,
            ("bars", index, log_bars, presenter_mode()),
            lambda: figures.spectrum_bars_figure(
                sweep,
                index,
                log=log_bars,
                legend_right=presenter_mode(),  # a projector's short figure
            ),
        ),
        maps,
    )
    with below_left:
        show(bars, "bars", bars_frames(holder, sweep, labels, index, log_bars))
    with below_right:
        if isinstance(components_or_reason, str):
            shown = st.info if sweep.regime_[index] == CONSTANT else st.warning
            shown(components_or_reason)
        else:
            show(components_or_reason, "maps")
    if above is None:
        notice(NOTICE)
        above = st.container()
    left, right = above.columns(2)
    with left:
        lines = marked(
            "lines",
            lambda: figures.ratio_lines_figure(
                sweep,
                n_leading=n_leading,
                chosen=index,
                marks=marks,
                width_px=half,
            ),
            n_leading,
            half,
        )
        show(lines, "lines", marks_frames(holder, sweep, labels))
    with right:
        components = marked(
            "components", lambda: figures.effective_components_figure(sweep, chosen=index)
        )
        show(components, "components", marks_frames(holder, sweep, labels))
    left, right = above.columns([3, 2])
    with left:
        heatmap = marked("heatmap", lambda: figures.spectrum_heatmap_figure(sweep, chosen=index))
        show(heatmap, "heatmap", marks_frames(holder, sweep, labels))
    with right:
        st.markdown("#### The two limits")
        st.markdown(LIMITS["degree" if sweep.sweep == "degree" else sweep.kernel])
        for regime in (IDENTITY, CONSTANT):
            text = range_text(sweep, regime)
            if text:
                st.caption(text)
    st.caption(rounding_text(sweep, index))
    narrow_listener(SCREEN, width)


def bars_frames(
    holder: dict, sweep: WidthSweep, labels: list[str], index: int, log: bool
) -> dict | None:
    """Scrubbing the chosen width: the spectrum bars at every width, by the slider's label.

    Made once per sweep (and bar scale) and shared; the browser moves through them
    while the slider is dragged (:func:`kpca_ui.chart.chart`'s ``frames``).
    """
    if np.isnan(sweep.ratios_[index, 0]):
        return None  # no bars at this width: nothing a frame could change
    return _once(
        holder,
        ("bars_frames", log),
        lambda: _frames(labels, figures.spectrum_bars_frames(sweep, index, log=log)),
    )


def marks_frames(holder: dict, sweep: WidthSweep, labels: list[str]) -> dict:
    """Scrubbing the chosen width: a sweep figure's dashed line and label at every width.

    Made once per sweep and shared; the browser moves the marks while the slider is
    dragged, as the spectrum bars move (:func:`bars_frames`).
    """
    return _once(holder, ("marks_frames",), lambda: _frames(labels, figures.chosen_frames(sweep)))


def _frames(labels: list[str], every: dict) -> dict:
    """The chosen-width slider's frames by its labels, serialised once (shared by every run)."""
    return kept_json(
        {"slider": "sp_at", "frames": {labels[at]: frame for at, frame in every.items()}}
    )


def computed_sweep(points: PointSet, sweep_key: tuple) -> dict | None:
    """The holder of this data and sweep choice with its sweep, or ``None`` and why not.

    A drawing of too few points has no sweep (its canvas says so), nor has a range of
    widths whose two ends meet (said here); a sweep over the per-request budget is
    refused with what to reduce.
    """
    if is_drawn(points) and len(points.X) < draw.MIN_POINTS:
        return None
    kernel, (low, high) = sweep_key[:2]
    if kernel != "degree" and low >= high:  # the range slider's two ends dragged together
        nothing_to_draw(
            f"The range of widths is empty: it goes from 10^{low:g} to 10^{high:g}. Drag its "
            "two ends apart to sweep the widths between them."
        )
        return None
    cost = _cost(points, sweep_key)
    if not cost.fits:
        nothing_to_draw(cost.refusal(f"This sweep ({len(points.X)} points)", "sweep"), st.error)
        return None
    try:
        holder = _results(points.key, sweep_key)
        if "sweep" not in holder and _dk_shown(points, sweep_key):
            # the comparison needs the widths only: asked for beside the sweep, one wait
            # in the workers' queue instead of one after the sweep's and the maps'
            concurrently(
                lambda: sweep_holder(points, sweep_key),
                *_dk_calls(holder, points, sweep_key),
            )
        return sweep_holder(points, sweep_key)
    except ValueError as error:
        st.error(f"The spectrum cannot be computed for these settings: {error}")
        return None


def _dk_applies(points: PointSet, sweep_key: tuple) -> bool:
    """Whether the page compares with Deręgowski & Krzyśko: the three rings, the Gaussian
    kernel, outside presenter mode (where it hid its text: above the figures the slider
    moves, it pushed them below a projector's screen)."""
    return (
        not presenter_mode() and points.key[:2] == ("toy", "three_rings") and sweep_key[0] == "rbf"
    )


def _dk_seconds(points: PointSet, sweep_key: tuple) -> tuple[float, float]:
    """The sweep's estimated seconds and the comparison's on top of it."""
    sweep_s = _cost(points, sweep_key).seconds
    return sweep_s, budget.comparison_seconds(len(points.X), sweep_key[2])


def _dk_shown(points: PointSet, sweep_key: tuple) -> bool:
    """Whether the comparison is computed and shown (:func:`dk_note`): it applies and fits
    the per-request budget with the sweep."""
    return _dk_applies(points, sweep_key) and sum(_dk_seconds(points, sweep_key)) <= (
        budget.REQUEST_BUDGET_S
    )


def _dk_calls(holder: dict, points: PointSet, sweep_key: tuple) -> list[Callable[[], object]]:
    """The comparison's three worker calls: the uncentred shares, and the centred and
    uncentred shares at D&K's c."""
    return [
        lambda: uncentred_sweep(holder, points, sweep_key),
        *(lambda c=center: dk_share(points.X, points.key, c) for center in (True, False)),
    ]


def dk_note(holder: dict, points: PointSet, image_format: str) -> None:
    """On the three rings, what Deręgowski & Krzyśko report and what the maths gives.

    Both formulations: centred in feature space (eq. 49, the sweep above) and
    not centred (K itself, the paper's eq. 3.7), their (λ₁+λ₂)/Σλ in one figure;
    outside presenter mode only.
    """
    if not _dk_applies(points, holder["key"][1]):
        return
    centred = holder["sweep"]
    sweep_s, extra_s = _dk_seconds(points, holder["key"][1])
    if sweep_s + extra_s > budget.REQUEST_BUDGET_S:
        st.info(
            "Deręgowski & Krzyśko (Fig. 4) report a maximum of (λ₁+λ₂)/Σλ at "
            f"c = {DK_GAMMA} (σ = {gamma_to_sigma(DK_GAMMA):.2f}). Comparing it with the "
            f"kernel not centred would sweep the {centred.widths_.size} widths again, about "
            f"{extra_s:.0f} s more on top of this sweep's {sweep_s:.0f} s: over this shared "
            f"server's {budget.REQUEST_BUDGET_S:.0f} s per request. With fewer points or "
            "widths the comparison is shown here."
        )
        return
    # three worker calls at once (already made beside a new sweep): each waits in the
    # workers' queue once, not in turn
    uncentred, *shares = concurrently(*_dk_calls(holder, points, holder["key"][1]))
    at_c = dict(zip((True, False), shares, strict=True))
    courses = [_course(centred.widths_, share) for share in (centred.share(2), uncentred)]
    st.info(
        "Deręgowski & Krzyśko (Fig. 4) report a maximum of (λ₁+λ₂)/Σλ at "
        f"c = {DK_GAMMA} (σ = {gamma_to_sigma(DK_GAMMA):.2f}). With the centred kernel "
        f"of the standard formulation the share {courses[0]} as the kernel widens, "
        "towards 1 (linear PCA on 2-D data); without centring in feature space (K itself, "
        f"as the paper solves it) it {courses[1]} too, towards 1 (K → 1 1ᵀ). At "
        f"their c it is {at_c[True]:.3f} centred and {at_c[False]:.3f} not centred on "
        "these points."
    )
    fig = _once(
        holder,
        ("centring",),
        lambda: figures.centring_share_figure(centred, uncentred, marks=_marks(points, centred)),
    )
    chart(
        presentable(fig),
        key="sp_fig_centring",
        config=style.export_config(
            f"spectrum-centring_{file_stem(points, holder['key'][1])}", image_format=image_format
        ),
    )


@guarded("sp", "the film of the sweep")
def sweep_film(holder: dict, points: PointSet, sweep_key: tuple, image_format: str) -> None:
    """On request, the spectrum at every width as an animation played in the browser.

    The film is built and sent only on request: its frames hold the spectrum at
    every width, a large figure that most visits never play.
    """
    if st.toggle(
        "Play the sweep: the spectrum at every width, animated in your browser",
        key="sp_film",
        bind="query-params",
    ):
        sweep = holder["sweep"]
        film = _once(holder, ("film",), lambda: figures.spectrum_film_figure(sweep))
        chart(
            film,
            key="sp_fig_film",
            config=style.export_config(
                f"spectrum-film_{file_stem(points, sweep_key)}", image_format=image_format
            ),
        )
        explain("sp_film")


@guarded("sp", "the download of the sweep")
def sweep_csv_download(holder: dict, points: PointSet, sweep_key: tuple) -> None:
    """The download button of the sweep's numbers, built only when clicked."""
    sweep = holder["sweep"]
    st.download_button(
        "Download the sweep (CSV)",
        lambda: _csv(sweep, points.key, sweep_key),
        on_click="ignore",
        file_name=f"spectrum_{file_stem(points, sweep_key)}.csv",
        mime="text/csv",
        key="sp_csv",
    )


def _spec_at(sweep: WidthSweep, index: int) -> ct.KernelSpec:
    """The sweep's kernel at one width, as the Contours view writes it."""
    params = sweep.kernel_params(index)
    if params["kernel"] == "rbf":
        return ct.KernelSpec("rbf", sigma=gamma_to_sigma(params["gamma"]))
    if params["kernel"] == "laplacian":
        return ct.KernelSpec("laplacian", sigma=1.0 / params["gamma"])
    return ct.KernelSpec("poly", degree=params["degree"], gamma=1.0, coef0=params["coef0"])


@st.cache_resource(max_entries=32, show_spinner=False)
def _background(
    _X: np.ndarray, data_key: tuple, spec: ct.KernelSpec, half_width: float
) -> dict | None:
    """The picture behind the drawing canvas: kPC 1 at the chosen width over its square."""
    fit = compute(ct.fit_column, _X, spec, n_components=1, center=True)
    return compute(canvas_background, fit, half_width)


def drawing_canvas(holder: dict | None, points: PointSet) -> None:
    """The drawing canvas, when the points are drawn, over kPC 1 at the chosen width.

    The chosen width is the one of the page's last full run: moving its slider
    reruns only the figures below, and the next edit brings the canvas along.
    """
    if not is_drawn(points):
        return
    background = None
    if holder is not None:
        sweep = holder["sweep"]
        index = st.session_state.get("sp_at")
        if index not in range(sweep.widths_.size):
            index = _chosen_default(sweep)
        background = _background(
            points.X, points.key, _spec_at(sweep, index), draw.current_drawing("sp").half_width
        )
    draw.canvas("sp", background, can_copy=copy_source("sp") is not None)
