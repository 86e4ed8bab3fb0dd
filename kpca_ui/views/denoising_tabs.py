"""The Denoising view's tabs: Fig. 4, side by side, error vs n, the 2-D toy, the demos.

Each ``show_*`` draws one tab's body (settings: :mod:`kpca_ui.views.denoising`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core import budget, denoise
from kpca_core.denoise import DEMO_N, FIG4_N, SWEEP_N, DigitDenoiser, DigitSubsets, ImageGrid, Noise
from kpca_core.figures import denoise as figures
from kpca_core.figures.style import export_config, is_narrow
from kpca_core.figures.words import Description
from kpca_ui.chart import chart
from kpca_ui.explain import explain, notice_of, text
from kpca_ui.presenter import FIGURE_PX, PLAIN_FIGURE_PX, presentable, presenter_mode, prose
from kpca_ui.safety import guarded
from kpca_ui.screen import narrow_listener, narrow_px, on_phone
from kpca_ui.shell import csv_numbers
from kpca_ui.views import denoising_cache as cache
from kpca_ui.views.demo import write_a_digit
from kpca_ui.views.denoising import DEMO_LEVELS, SETTINGS, within_budget
from kpca_ui.views.denoising_cache import ModelKey
from kpca_ui.workers import build

EXAMPLE = "dn_demo_example"  # session key: the Demo tab's "another example" count
FIXED = "choose the fixed-point pre-image in the sidebar"  # when the learned one is too costly
SCREEN = "dn_screen"  # the listener measuring the page's width (a phone's: titles broken to fit)
BELOW_CONTROL_PX = FIGURE_PX - 60  # presenter mode: below the tabs and a stepping control
FRAMES_BUDGET_S = 5.0  # the side-by-side grid's frames at every n are made up to this cost


def image_export(name: str) -> dict:
    """The figure's toolbar config: the camera button saves ``name`` as PNG or SVG."""
    return export_config(name, image_format=SETTINGS.value("dn_img"))


def show_with_numbers(
    fig: go.Figure,
    key: str,
    name: str,
    table: Callable[[], pd.DataFrame],
    *,
    height: int = FIGURE_PX,
    plain: bool = False,
    frames: dict | None = None,
    description: Description | None = None,
) -> None:
    """Draw a figure (chart ``<key>_chart``, saved as ``name``), its line of what to notice
    and the numbers behind it as CSV; ``height`` as in :func:`kpca_ui.presenter.presentable`,
    ``plain`` with no stepping control above it, ``frames`` the chart's scrubbing frames,
    ``description`` the figure in words (:func:`kpca_ui.chart.chart`)."""
    fig = presentable(fig, height=PLAIN_FIGURE_PX if plain else height, control=not plain)
    chart(
        fig, key=f"{key}_chart", config=image_export(name), frames=frames, description=description
    )
    notice_of(key)
    if prose():
        csv = (f"{key}_csv", f"{name}.csv", lambda: table().to_csv(index=False))
        csv_numbers(key, [("The numbers behind this figure (CSV)", *csv)])


@guarded("dn", "the Fig. 4 grid")
def show_fig4(model: DigitDenoiser, subsets: DigitSubsets, key: ModelKey, s: dict) -> None:
    n_train, method = len(subsets.X_train), s["method"]
    cost = budget.preimage_cost(
        10, n_train, len(FIG4_N), (method,), c=s["c"], digits=None, without_ridge=FIXED
    )
    if not within_budget(f"This grid ({n_train} training digits)", cost):
        return
    noise = s["noise"]
    grid = cache.cached_fig4(key, noise, method, s["ridge_alpha"], model, subsets)
    title = f"{subsets.source}: {noise.describe()}"
    width = narrow_px(SCREEN)
    fig = build(figures.fig4_figure, grid, title=title, width_px=width, halves=presenter_mode())
    name = f"denoise_fig4_{noise.kind}{noise.level:g}_c{s['c']:g}"
    said = figures.describe_grid(grid, title=title)
    show_with_numbers(fig, "dn_fig4", name, grid.to_frame, plain=True, description=said)
    if prose():
        st.caption(text("dn_fig4", n_values=", ".join(map(str, FIG4_N))))
        tab_end("dn_fig4", grid.restarts)


@st.fragment
@guarded("dn", "the side-by-side digits")
def show_side_by_side(model: DigitDenoiser, subsets: DigitSubsets, key: ModelKey, s: dict) -> None:
    places = _controls(3, "How many digits, which")
    n, count, draw = map(SETTINGS.draw, ("dn_n", "dn_sbs_count", "dn_sbs_draw"), places)
    n_train, method, noise = len(subsets.X_train), s["method"], s["noise"]
    cost = budget.preimage_cost(
        count, n_train, 1, (method,), c=s["c"], digits="digits", without_ridge=FIXED
    )
    if not within_budget(f"These {count} digits ({n_train} training digits)", cost):
        return
    rng = np.random.RandomState(int(draw))
    pick = np.sort(rng.choice(len(subsets.X_test), min(count, len(subsets.X_test)), replace=False))
    digits = (key, noise, tuple(int(i) for i in pick), method, s["ridge_alpha"])
    grid = cache.cached_side_by_side(digits, n, model, subsets)
    width = narrow_px(SCREEN)
    title = f"{subsets.source}: {noise.describe()}"
    frames = None  # the grid at every n, for the n slider to scrub
    scrub = budget.preimage_cost(count, n_train, len(SWEEP_N), (method,), c=s["c"])
    if scrub.seconds <= FRAMES_BUDGET_S:
        frames = cache.side_by_side_frames(digits, title, width, model, subsets)
    fig = build(figures.side_by_side_figure, grid, title=f"{title}, n = {n}", width_px=width)
    name = f"denoise_side_by_side_{noise.kind}{noise.level:g}_n{n}"
    said = figures.describe_grid(grid, title=f"{title}, n = {n}")
    show_with_numbers(
        fig, "dn_sbs", name, grid.to_frame, height=BELOW_CONTROL_PX, frames=frames, description=said
    )
    if prose():
        # under the figure, which they pushed off a phone's screen
        if n > model.n_linear_max_:
            st.info(text("dn_linear_all", n=n, n_max=model.n_linear_max_))
        if n > model.n_kernel_max_:
            st.info(text("dn_kernel_all", n=n, n_max=model.n_kernel_max_))
        noisy, linear, kernel = (grid.errors[row].mean() for row in (1, 2, 3))
        st.markdown(text("dn_sbs", noisy=noisy, linear=linear, kernel=kernel))
        tab_end("dn_side_by_side", grid.restarts)


def _controls(count: int, folded: str, shown: int = 0) -> list:
    """``count`` columns for a tab's controls; on a phone, the ``shown`` one (n) alone and the
    rest folded in an expander labelled ``folded``: the figure on the first screen."""
    if not on_phone(SCREEN):
        return st.columns(count)
    place, rest = st.container(), st.expander(folded, icon=":material/tune:")
    return [place if i == shown else rest for i in range(count)]


def tab_end(explained: str, restarts: int = 0) -> None:
    """The end of a tab's words: "The maths" and "What am I looking at" of figure
    ``explained``, how often the fixed point restarted, and the listener measuring the page."""
    explain(explained)
    if restarts:
        st.caption(text("dn_restarts", restarts=restarts))
    narrow_listener(SCREEN, narrow_px(SCREEN))


@guarded("dn", "the error against n")
def show_error_curve(model: DigitDenoiser, subsets: DigitSubsets, key: ModelKey, s: dict) -> None:
    ridge = SETTINGS.draw("dn_sweep_ridge")
    n_values = sum(n <= model.n_kernel_max_ for n in SWEEP_N)
    n_train, n_test = len(subsets.X_train), len(subsets.X_test)
    cost = budget.preimage_cost(
        n_test,
        n_train,
        n_values,
        ("fixed-point", "ridge") if ridge else ("fixed-point",),
        c=s["c"],
        digits="test digits per class",
        per_class=10,
        without_ridge="leave out the learned pre-image",
    )
    request = f"This error curve ({n_train} training and {n_test} test digits, {n_values} n"
    if not within_budget(request + (", learned pre-image too)" if ridge else ")"), cost):
        return
    noise = s["noise"]
    sweep = cache.cached_sweep(key, noise, ridge, s["ridge_alpha"], model, subsets)
    n_same, ratio_same = sweep.largest_same_n_ratio
    title = f"{subsets.source}: {noise.describe()}, {len(subsets.X_test)} test digits"
    width = narrow_px(SCREEN)
    fig = figures.error_curve_figure(
        sweep, chosen_n=SETTINGS.value("dn_n"), title_prefix=title, width_px=width
    )
    name = f"denoise_error_vs_n_{noise.kind}{noise.level:g}_c{s['c']:g}"
    said = figures.describe_error_curve(sweep, chosen_n=SETTINGS.value("dn_n"), title_prefix=title)
    show_with_numbers(
        fig, "dn_error", name, sweep.to_frame, height=BELOW_CONTROL_PX, description=said
    )
    if not prose():
        return
    # the numbers under the figure, which then starts within the first screen
    cols = st.columns(4)
    cols[0].metric("Best n, linear PCA", sweep.linear.best_n, help="Smallest error")
    cols[1].metric("Best n, kernel PCA", sweep.kernel.best_n)
    cols[2].metric("Ratio at the best n", f"{sweep.ratio_at_best:.2f}×", help="linear / kernel")
    cols[3].metric("Largest same-n ratio", f"{ratio_same:.1f}×", help=f"at n = {n_same}")
    st.caption(text("dn_error", restarts=sweep.restarts))
    tab_end("dn_error")


@st.fragment
@guarded("dn", "the 2-D toy")
def show_toy() -> None:
    keys = ("dn_toy_noise", "dn_toy_c", "dn_toy_n", "dn_toy_seed")
    noise, c, n, seed = map(SETTINGS.draw, keys, _controls(4, "Noise, width, seed", shown=2))
    results = [
        cache.cached_toy(name, 200, noise, c, n, int(seed)) for name in ("half_circle", "square")
    ]
    fig = presentable(
        figures.toy_figure(results, one_row=presenter_mode()), height=BELOW_CONTROL_PX
    )
    config = image_export(f"denoise_toy_noise{noise:g}_c{c:g}_n{n}")
    said = figures.describe_toy(results, noise=noise)
    chart(fig, key="dn_toy_chart", config=config, description=said)
    notice_of("dn_toy")
    if not prose():
        return
    st.caption(f"k(x, y) = exp(−‖x − y‖² / {2 * c:g}) (N c with N = 2), 200 points per set.")
    # what it shows under the figure, which it pushed below a 1280 × 720 screen
    st.markdown(text("dn_toy"))
    # its listener too: on a phone the controls above are folded (_controls)
    tab_end("dn_toy", sum(r.restarts for r in results))


@st.fragment
@guarded("dn", "the demo")
def show_demo(model: DigitDenoiser, subsets: DigitSubsets) -> None:
    left, right = st.columns([1, 3])
    digit = SETTINGS.draw("dn_demo_digit", left)
    if prose() and left.button("Another handwritten example", key="dn_demo_next"):
        st.session_state[EXAMPLE] = st.session_state.get(EXAMPLE, 0) + 1
    level = SETTINGS.draw("dn_demo_noise", right)
    examples = np.flatnonzero(subsets.y_test == digit)
    index = examples[st.session_state.get(EXAMPLE, 0) % len(examples)]
    original = ImageGrid(subsets.X_test[index][np.newaxis, np.newaxis], subsets.side, ("",), ("",))
    width = narrow_px(SCREEN)  # a phone's, once measured: the pictures in rows
    # the original in a quarter of the page (a phone's: all of it), the three in the rest
    alone = width if is_narrow(width) else width // 3
    fig = presentable(figures.demo_figure(original, width_px=alone))
    config = image_export(f"denoise_demo_original_{digit}")
    said = Description(f"A handwritten {digit}", f"A handwritten {digit}, without noise.")
    chart(fig, key="dn_demo_original", config=config, place=left, description=said)
    if prose():
        left.caption("Written by hand")
    noise = Noise("gaussian", DEMO_LEVELS[level])
    grid = denoise.demo_images(
        model, subsets.X_test[index], noise, side=subsets.side, random_state=int(index)
    )
    fig = presentable(figures.demo_figure(grid, width_px=width))
    config = image_export(f"denoise_demo_{digit}_{level.replace(' ', '_')}")
    said = figures.describe_grid(grid, title=f"The handwritten {digit} with {level} noise")
    chart(fig, key="dn_demo_chart", config=config, place=right, description=said)
    if not prose():
        return
    st.markdown(text("dn_demo", n_train=len(subsets.X_train)))
    with st.expander("How it works, for the technically minded"):
        n_kernel = min(DEMO_N["kernel"], model.n_kernel_max_)
        counts = {"n_linear": DEMO_N["linear"], "n_kernel": n_kernel}
        st.markdown(text("dn_demo_how", **counts, sigma=noise.level, source=subsets.source))
    tab_end("dn_demo")


@guarded("dn", "your handwriting")
def show_pad(model: DigitDenoiser, subsets: DigitSubsets, s: dict) -> None:
    """A digit written on the pad, cleaned by the sidebar's model at the sidebar's noise."""
    n = st.session_state.get("dn_n")  # the Side by side tab's, once it has been shown
    n_linear, n_kernel = (n, n) if n else (DEMO_N["linear"], DEMO_N["kernel"])
    noise = s["noise"]
    if prose():
        st.markdown(text("dn_pad", side=subsets.side, source=subsets.source))
    write_a_digit("dn", model, subsets.side, noise, n_linear=n_linear, n_kernel=n_kernel)
    if not prose():
        return
    which_n = "the Side by side tab's n" if n else "the paper's best for Gaussian noise"
    counts = {"n_linear": n_linear, "n_kernel": min(n_kernel, model.n_kernel_max_)}
    model_words = {"n_train": len(subsets.X_train), "c": s["c"], "noise": noise.describe()}
    st.caption(text("dn_pad_model", **model_words, **counts, which_n=which_n))
