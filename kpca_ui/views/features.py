"""The Features view: kernel PCA as a feature extractor (Schölkopf, Smola & Müller 1998, Sect. 6.3).

The toy (:func:`show_toy`): a linear SVM on kernel components of 2-D points or a drawing;
USPS (:func:`show_table2`): the table of ``bench/features_usps.py`` beside the paper's Table 2.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core import datasets, features, sigma_to_gamma, usps
from kpca_core.drawing import decode, encode
from kpca_core.figures import features as figures
from kpca_core.figures import style
from kpca_core.figures.style import export_config
from kpca_core.figures.words import Description
from kpca_ui import draw
from kpca_ui.cache import memo
from kpca_ui.chart import SESSION, chart
from kpca_ui.cli import app_dir
from kpca_ui.explain import explain, notice_of, text
from kpca_ui.presenter import FIGURE_PX, presentable, presenter_mode, prose
from kpca_ui.screen import controls_place, narrow_listener, narrow_px, on_phone
from kpca_ui.settings import Setting, Settings, choice, number
from kpca_ui.shell import camera
from kpca_ui.views.denoising_cache import progress_bar
from kpca_ui.workers import CELL_NICENESS, LineFull, Turns, compute, in_background

TABS = ("Toy: why it works", "USPS: Table 2")
TABLE_PATH = app_dir() / "assets" / "features_table2.csv"
BENCH_COMMAND = "python bench/features_usps.py"
TABLE_SCREEN = "ft_table_screen"  # the listener measuring the page's width for Table 2
TOY_SCREEN = "ft_toy_screen"  # the same for the toy's regions (on a phone: one below the other)

# ---------------------------------------------------------------- the toy
PREFIX = "ft"
DRAWN = "drawn"
TOY_SETS = {
    "moons": "Two moons",
    "circles": "Two circles",
    "three_rings": "Three rings, radii 1, 2, 4",
    DRAWN: draw.DRAW,
}
LAST_TOY = "ft_last_toy"  # the toy shown last, (name, points, seed): the canvas copies it in
TOY_KERNELS = {"rbf": "Gaussian", "poly": "Polynomial (x·y + 1)^d"}
SIGMAS = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0)
TOY_N_MAX = 50  # components the toy computes once per fit; the slider picks the first n
MAX_TOY_POINTS = 1000
MAX_SEED = 10_000
SETTINGS = Settings(
    PREFIX,
    "features",
    camera(PREFIX),
    choice("ft_tab", "Tab", TABS, widget="tabs", stepping=True),
    choice("ft_data", "Data set", TOY_SETS, cost="data"),
    Setting("ft_draw", "Drawing", "link", longest=4096),
    number(
        "ft_points",
        "Number of points",
        50,
        MAX_TOY_POINTS,
        300,
        step=50,
        cost="data",
        help=f"At most {MAX_TOY_POINTS}: one kernel PCA fit per change, shared by everyone.",
    ),
    number("ft_seed", "Seed", 0, MAX_SEED, 0, step=1, widget="number", cost="data"),
    choice("ft_kernel", "Kernel", TOY_KERNELS, cost="fit"),
    choice("ft_sigma", "Width σ", SIGMAS, default=0.5, widget="select_slider", cost="fit"),
    number("ft_pdegree", "Degree d", 1, 6, 2, cost="fit"),
    number(
        "ft_k",
        "Kernel components n",
        1,
        TOY_N_MAX,
        10,
        stepping=True,
        help="The linear SVM sees the first n kernel principal components (eq. 51).",
    ),
    choice(
        "ft_degree",
        "Degree d of the cell",
        features.TABLE2_DEGREES,
        default=4,
        widget="select_slider",
    ),
    choice(
        "ft_n",
        "Number of components n of the cell",
        features.TABLE2_N,
        default=2048,
        widget="select_slider",
        stepping=True,
    ),
)


def _fit(X: np.ndarray, labels: np.ndarray, kernel: str, parameter: float, **params: float):
    if kernel == "rbf":
        params["gamma"] = sigma_to_gamma(parameter)
    else:
        params.update(degree=int(parameter), gamma=1.0, coef0=1.0)
    return compute(features.toy_features, X, labels, kernel=kernel, n_max=TOY_N_MAX, **params)


@memo
def toy_fit(
    name: str, n_points: int, seed: int, kernel: str, parameter: float
) -> features.ToyFeatures:
    """Kernel PCA of a toy set and the components of the points and the grid (in a worker)."""
    return _fit(*datasets.TOY_2D[name](n_points, random_state=seed), kernel, parameter)


@memo
def drawn_fit(code: str, kernel: str, parameter: float) -> features.ToyFeatures:
    """Kernel PCA of a drawing (its link text ``code``), as :func:`toy_fit` of a toy set; its
    groups are the classes, its grid the canvas's square (the regions are drawn behind it)."""
    drawing, _ = decode(code)
    return _fit(drawing.X, drawing.groups, kernel, parameter, half_width=drawing.half_width)


@memo
def toy_result(key: tuple, n: int, _fit: features.ToyFeatures) -> features.ToyResult:
    """The two linear SVMs and their regions for the first n components of ``toy_fit(*key)``."""
    return features.toy_experiment(_fit, n)


BELOW_TABS_PX = FIGURE_PX - 30  # a tab's figure in presenter mode: below tabs and stepping
TABLE2_TEXT = text("ft_table2")


def _chart(
    fig: go.Figure,
    key: str,
    name: str,
    image_format: str,
    description: Description | None = None,
    **height: int,
) -> None:
    """A figure as drawn now (:func:`presentable`), exported as ``name``, in words if
    ``description`` (:func:`kpca_ui.chart.chart`)."""
    config = export_config(name, image_format=image_format)
    chart(presentable(fig, **height), key=key, config=config, description=description)


def show_toy(image_format: str) -> None:
    """The toy tab: controls (folded on a phone), the two decision-region panels, the
    accuracies, what they show."""
    with controls_place(TOY_SCREEN, "Data, kernel and components n"):
        # one row: in two they pushed the figure below a 1280 × 720 screen
        cols = st.columns([1.1, 1.3, 0.8, 1, 1, 1.3])
        name = SETTINGS.draw("ft_data", cols[0])
        n_points, seed = 0, 0  # a drawing has its own points
        if name != DRAWN:
            n_points = SETTINGS.draw("ft_points", cols[1])
            seed = int(SETTINGS.draw("ft_seed", cols[2]))
        kernel = SETTINGS.draw("ft_kernel", cols[3])
        parameter = float(SETTINGS.draw("ft_sigma" if kernel == "rbf" else "ft_pdegree", cols[4]))
        n = SETTINGS.draw("ft_k", cols[5])
    if name == DRAWN:
        drawn = _drawn_toy(kernel, parameter, n)
        if drawn is None:
            return
        fit, result = drawn
    else:
        draw.sync_link(PREFIX, None)
        st.session_state[LAST_TOY] = (name, n_points, seed)
        key = (name, n_points, seed, kernel, parameter)
        fit = toy_fit(*key)
        result = toy_result(key, n, fit)
    groups = _groups(fit) if name == DRAWN else {}
    label = f"Gaussian, σ = {parameter:g}" if kernel == "rbf" else f"polynomial, d = {parameter:g}"
    if result.n_components < n:
        st.caption(f"This kernel has only {result.n_components} non-zero components.")
    toy_width = narrow_px(TOY_SCREEN)  # a phone's, once measured: the panels stacked
    fig = figures.toy_regions_figure(  # wide in presenter mode, elsewhere perhaps a phone's
        fit, result, kernel_label=label, wide=presenter_mode(), width_px=toy_width, **groups
    )
    export = f"features_toy_{name}_{kernel}{parameter:g}_n{result.n_components}"
    names = {"class_names": groups["class_names"]} if groups else {}
    said = figures.describe_regions(fit, result, kernel_label=label, **names)
    _chart(fig, "ft_toy_chart", export, image_format, said, height=BELOW_TABS_PX)
    notice_of("ft_toy")
    if not prose():  # there the panels' titles say it, and the figure needs the room
        return
    left, right = st.columns(2)
    kernel_share = f"{100 * result.kernel_accuracy:.1f} %"
    left.metric(f"Correct on {result.n_components} kernel components", kernel_share)
    right.metric("Correct on x, y", f"{100 * result.raw_accuracy:.1f} %")
    st.markdown(text("ft_toy"))
    explain("ft_toy")
    narrow_listener(TOY_SCREEN, toy_width)


def _drawn_toy(
    kernel: str, parameter: float, n: int
) -> tuple[features.ToyFeatures, features.ToyResult] | None:
    """The drawing's fit and classifiers, the canvas over their regions; None if none can be had
    (too few points, one group, or points the kernel cannot tell apart: a notice says so)."""
    last = st.session_state.get(LAST_TOY, ("moons", 300, 0))
    drawing = draw.drawn_state(PREFIX, datasets.TOY_2D[last[0]](last[1], random_state=last[2]))
    place, background, drawn = st.container(), None, None
    if len(drawing) >= draw.MIN_POINTS and np.unique(drawing.groups).size < 2:
        st.info(text("ft_one_group"), icon=":material/draw:")
    elif len(drawing) >= draw.MIN_POINTS:
        code = encode(drawing)
        try:
            fit = drawn_fit(code, kernel, parameter)
        except ValueError as error:
            st.info(f"These points give the classifier nothing to work on: {error}.")
        else:
            drawn = fit, toy_result((DRAWN, code, kernel, parameter), n, fit)
            background = figures.canvas_regions(*drawn, _groups(fit)["colours"])
    draw.canvas(PREFIX, background, place=place, large=presenter_mode())
    return drawn


def _groups(fit: features.ToyFeatures) -> dict[str, list[str]]:
    """A drawing's classes for :func:`~kpca_core.figures.features.toy_regions_figure`: their
    names, and their colours as the canvas gives its groups."""
    groups = np.unique(fit.labels)
    names = [f"group {g}" for g in groups]
    return {"class_names": names, "colours": [style.GROUPS[g - 1] for g in groups]}


# ---------------------------------------------------------------- USPS, Table 2
PROTOCOL = text(
    "ft_protocol",
    n_fit=features.KPCA_TRAIN,
    c_grid=", ".join(f"{c:g}" for c in features.C_GRID),
    held_out=100 * features.VALIDATION_FRACTION,
)
LIVE_CELLS = "ft_live_cells"  # the cells this session recomputed live: (degree, n) → cell
CELLS_LINE = 8
"""Sessions waiting for a live cell at most (a minute each); one more is refused."""
CELLS = Turns(places=1, longest=CELLS_LINE)
"""The live cells, one at a time (their worker's one process), in the order asked, one per
session: a session asking again waits behind the others."""


@memo
def shipped_table() -> features.Table2:
    """The table of ``bench/features_usps.py`` shipped in ``assets/``."""
    return features.read_table2(TABLE_PATH.read_text(encoding="utf-8"))


def _live_cells() -> dict[tuple[int, int], features.Table2Cell]:
    """The cells this session recomputed live, shown (marked) to it only: never in the shipped
    table, which only ``bench/features_usps.py`` regenerates."""
    return st.session_state.setdefault(LIVE_CELLS, {})


@memo
def live_cell(degree: int, n: int, n_fit: int) -> features.Table2Cell:
    """Recompute one cell from scratch in the cells' own worker, with progress; cached.

    Below the models' priority (:data:`~kpca_ui.workers.CELL_NICENESS`): it never holds up a fit.
    It waits its turn in :data:`CELLS`, its progress bar saying how many cells come first.

    Raises
    ------
    RuntimeError
        :class:`~kpca_ui.workers.LineFull` when as many sessions wait already, or this one
        recomputes a cell (nothing is cached then).
    """
    report, done = progress_bar(f"Recomputing degree {degree}, n = {n}")

    def waiting(before: int) -> None:
        report(0.0, f"waiting for your turn, {before} cell{'s' * (before != 1)} before yours")

    session = st.session_state.setdefault(SESSION, secrets.token_hex(8))
    try:
        with CELLS.turn(session, waiting):
            return in_background(
                features.recompute_cell,
                degree,
                n,
                n_fit=n_fit,
                progress=report,
                niceness=CELL_NICENESS,
            )
    except LineFull as full:
        raise LineFull(f"{full}; try again in a few minutes") from None
    finally:
        done()


def fit_digits() -> int:
    """Training digits the live kernel PCA is fitted on: the paper's 3000 (or
    ``KPCA_FEATURES_FIT``, fewer, for the tests), or all of them, as chosen where words are."""
    value = os.environ.get("KPCA_FEATURES_FIT", "").strip()
    paper = int(value) if value.isdigit() and int(value) > 0 else features.KPCA_TRAIN
    if not prose():
        return paper
    options = {
        paper: f"the first {paper} training digits (the paper)",
        features.ALL_TRAIN: f"all {features.ALL_TRAIN} training digits (randomized solver)",
    }
    return st.radio(
        "Kernel PCA fitted on", options, format_func=options.get, key="ft_fit", horizontal=True
    )


@memo
def usps_test_digits(usps_dir: str | None) -> tuple[np.ndarray, np.ndarray] | str:
    """The 2007 USPS test digits, or why they cannot be had (keyed on ``KPCA_USPS_DIR``)."""
    try:
        return usps.load_usps("test")
    except usps.USPSError as error:
        return str(error)


def shown_grid(table: features.Table2) -> tuple[np.ndarray, np.ndarray]:
    """The errors shown: the shipped table with the live cells put in; and where they are."""
    errors, live = table.errors.copy(), np.zeros(table.errors.shape, bool)
    for (degree, n), cell in _live_cells().items():
        where = features.TABLE2_N.index(n), features.TABLE2_DEGREES.index(degree)
        errors[where], live[where] = cell.test_error, True
    return errors, live


def grid_csv(table: features.Table2, errors: np.ndarray, live: np.ndarray) -> str:
    """The grid shown as CSV: the shipped table's provenance as ``#`` lines, then the cells."""
    lines = [f"# {key}: {value}" for key, value in table.provenance.items()]
    lines.append("degree,n_components,test_error,paper_error,source")
    for degree, n in features.table2_cells_planned():
        i, j = features.TABLE2_N.index(n), features.TABLE2_DEGREES.index(degree)
        source = "computed live" if live[i, j] else "shipped table"
        paper = features.paper_error(degree, n)
        lines.append(f"{degree},{n},{errors[i, j]:.2f},{'' if np.isnan(paper) else paper},{source}")
    return "\n".join(lines) + "\n"


def show_table2(image_format: str) -> None:
    """The USPS tab: the grid beside the paper's, the claims, the chosen cell, the protocol."""
    table = shipped_table()
    provenance = table.provenance
    phone = on_phone(TABLE_SCREEN)  # the words under the figure: it starts on the first screen
    if prose() and not phone:
        st.markdown(TABLE2_TEXT)
    with controls_place(TABLE_SCREEN, "The cell: degree d and components n"):
        cols = st.columns(2)
        degree = int(SETTINGS.draw("ft_degree", cols[0]))
        n = int(SETTINGS.draw("ft_n", cols[1]))
    errors, live = shown_grid(table)
    width = narrow_px(TABLE_SCREEN)  # a phone's: the two grids stacked
    fig = figures.table2_figure(errors, live=live, chosen=(degree, n), width_px=width)
    said = figures.describe_table2(errors, live=live, chosen=(degree, n))
    _chart(fig, "ft_table_chart", "features_table2", image_format, said, height=BELOW_TABS_PX)
    notice_of("ft_table2")
    if not prose():
        show_cell(table, degree, n, image_format)
        return
    if phone:
        st.markdown(TABLE2_TEXT)
    ours, paper = ("Above", "Below") if style.is_narrow(width) else ("Left", "Right")
    made = {"command": BENCH_COMMAND, "date": "?", "commit": "?", "machine": "?", **provenance}
    marked = {"mark": figures.LIVE_MARK, "live": int(live.sum())}
    st.caption(text("ft_table2_made", ours=ours, paper=paper, **made, **marked))
    explain("ft_table2")
    ours, paper = features.table2_claims(errors), features.table2_claims(features.PAPER_TABLE2)
    for i, (mine, theirs) in enumerate(zip(ours, paper, strict=True), start=1):
        verdict = ":green[holds]" if mine.holds else ":orange[holds only in part]"
        st.markdown(f"**Claim {'i' * i}: {mine.statement}** Here: {verdict}. {mine.detail}")
        st.caption(f"On the paper's own numbers: {theirs.detail}")
    st.markdown(
        "**Where the numbers differ from the paper.** " + features.differences_from_paper(errors)
    )
    st.download_button(
        "The grid (CSV)",
        data=grid_csv(table, errors, live),
        file_name="features_table2.csv",
        mime="text/csv",
        on_click="ignore",
        key="ft_csv",
    )
    show_cell(table, degree, n, image_format)
    st.markdown(PROTOCOL)
    narrow_listener(TABLE_SCREEN, width)


def show_cell(table: features.Table2, degree: int, n: int, image_format: str) -> None:
    """The chosen cell: its numbers, and (once computed live) its confusions and digits."""
    st.subheader(f"The cell d = {degree}, n = {n}")
    if degree == 1 and n > features.LINEAR_MAX_COMPONENTS:
        st.info("Degree 1 is linear PCA: there are only 256 components (the pixels).")
        return
    cols = st.columns(3)
    cols[0].metric("Test error, shipped table", f"{table.error(degree, n):.2f} %")
    cols[1].metric("The paper's", f"{features.paper_error(degree, n):.1f} %")
    where = features.TABLE2_N.index(n), features.TABLE2_DEGREES.index(degree)
    cols[2].metric("C chosen on held-out digits", f"{table.C[where]:g}")
    digits = usps_test_digits(os.environ.get(usps.USPS_ENV_VAR))
    if isinstance(digits, str):
        st.info(f"USPS is not available ({digits}): a cell cannot be recomputed live here.")
        return
    n_fit = fit_digits()
    cell = _live_cells().get((degree, n))
    if cell is None or cell.n_fit != n_fit:
        if not prose():
            return
        st.caption(text("ft_recompute", n_fit=n_fit, svms=len(features.C_GRID) + 1))
        if st.button("Recompute this cell live", key="ft_live", icon=":material/refresh:"):
            try:
                _live_cells()[(degree, n)] = live_cell(degree, n, n_fit)
            except (usps.USPSError, ValueError, MemoryError, RuntimeError) as error:
                st.error(f"The cell could not be recomputed: {error}.")
                return
            st.rerun()
        return
    (images, labels), wrong = digits, cell.misclassified
    if prose():
        st.markdown(text("ft_live", cell=cell, wrong=wrong.size, n=labels.size))
    name = f"d{degree}_n{n}"
    fig, said = figures.confusion_figure(cell.confusion), figures.describe_confusion(cell.confusion)
    _chart(fig, "ft_confusion_chart", f"features_confusion_{name}", image_format, said)
    if prose():
        explain("ft_confusion")
    wrong_digits = images[wrong], labels[wrong], cell.predictions[wrong]
    fig = figures.misclassified_figure(*wrong_digits, title="Misclassified")
    said = figures.describe_misclassified(*wrong_digits[1:], title="Misclassified")
    _chart(fig, "ft_wrong_chart", f"features_misclassified_{name}", image_format, said)


def warm(values: Mapping[str, Any]) -> None:
    """The toy's fit and classifiers at the settings ``values`` (:mod:`kpca_ui.warmup`)."""
    kernel = values["ft_kernel"]
    parameter = values["ft_sigma"] if kernel == "rbf" else values["ft_pdegree"]
    key = (values["ft_data"], values["ft_points"], values["ft_seed"], kernel, float(parameter))
    if key[0] != DRAWN:
        toy_result(key, values["ft_k"], toy_fit(*key))
