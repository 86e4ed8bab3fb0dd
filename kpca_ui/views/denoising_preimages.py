"""The Denoising view's tabs on the rest of Mika et al. (1999) and on pre-images.

"Table 1" (eleven Gaussians in R^10), "Fig. 3" (reconstruction without noise) and
"Pre-images" (the methods side by side, the fixed point animated).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core import budget
from kpca_core.denoise import DigitDenoiser, DigitSubsets
from kpca_core.figures import preimages as figures
from kpca_core.figures.style import NARROW_PX, is_narrow
from kpca_core.gaussians_table import N_CLUSTERS, N_TEST, N_TRAIN, TOL, GaussiansTable
from kpca_core.preimage_compare import MethodComparison, fig3_findings
from kpca_core.preimage_methods import METHOD_LABELS, METHODS
from kpca_ui.chart import chart
from kpca_ui.explain import explain, text
from kpca_ui.presenter import page_px, presentable, presenter_mode, prose
from kpca_ui.screen import narrow_listener, narrow_px
from kpca_ui.views import denoising as view
from kpca_ui.views import denoising_cache as cache
from kpca_ui.views.denoising_cache import ModelKey
from kpca_ui.views.denoising_tabs import SCREEN, image_export, show_with_numbers, tab_end
from kpca_ui.workers import build

DIGIT_N = (4, 16, 64, 256)  # numbers of components of the methods' comparison on digits
TOY = {"noise": 0.1, "c": 0.5, "seed": 0}  # Fig. 1's 2-D toy, as the "2-D toy" tab opens
FIXED_POINT_PX = 620  # the fixed point's animation in presenter mode: a plot AREA_MIN_PX tall


def show_table1() -> None:
    table = cache.cached_table1()
    width = narrow_px(SCREEN)  # a phone's, once measured: the tables transposed
    fig = build(figures.table1_figure, table, ranges=not presenter_mode(), width_px=width)
    said = figures.describe_table1(table)
    show_with_numbers(
        fig, "dn_table1", "mika1999_table1_gaussians", table.to_frame, plain=True, description=said
    )
    if not prose():
        return
    # under the tables: above, it pushed them below a phone's screen
    st.markdown(text("dn_table1"))
    seeds, restarts, failures = table.seeds, table.restarts.sum(), table.failures.sum()
    st.caption(text("dn_table1_ours", seeds=", ".join(map(str, seeds)), r=restarts, f=failures))
    st.markdown(table1_findings(table))
    tab_end("dn_table1")


def table1_findings(table: GaussiansTable) -> str:
    """Where and why our Table 1 differs from the paper's, with the numbers of this table."""
    paper = table.paper()
    i_wide, i_narrow, i_small, i_mid, i_broad = map(table.sigmas.index, (0.8, 0.05, 0.1, 0.2, 0.4))
    wide = np.nanmax(np.abs(table.mean[i_wide] - paper[i_wide]))
    factor = table.mean[i_narrow, 0] / paper[i_narrow, 0]
    # (mean, low, high, paper) at n = 1 (index 0) or 9, as the paper prints ratios
    narrow, _, _, narrow_paper = table.formatted(i_narrow, 0)
    small, _, _, small_paper = table.formatted(i_small, 0)
    _, low, high, mid_paper = table.formatted(i_mid, 0)
    mid9, _, _, mid9_paper = table.formatted(i_broad, table.n_values.index(9))
    kernel, floor = table.kernel_mse[i_narrow, 0, 0], table.floor[i_narrow, 0]
    wrong = ", ".join(
        f"{count} ({share:.0%} of its error)"
        for count, share in zip(table.wrong[i_mid, 0], table.wrong_share[i_mid, 0], strict=True)
    )
    return text(
        "dn_table1_findings",
        **{"tol": TOL, "wide": wide, "factor": factor, "kernel": kernel, "floor": floor},
        **{"mid9": mid9, "mid9_paper": mid9_paper, "narrow": narrow, "narrow_paper": narrow_paper},
        **{"small": small, "small_paper": small_paper, "low": low, "high": high},
        **{"mid_paper": mid_paper, "seed": table.seeds[0], "n_train": N_TRAIN, "wrong": wrong},
        n_test=N_CLUSTERS * N_TEST,
    )


@st.fragment
def show_fig3(model: DigitDenoiser, subsets: DigitSubsets, key: ModelKey) -> None:
    asked, start = map(view.SETTINGS.draw, ("dn_fig3_digit", "dn_fig3_start"), st.columns(2))
    index = min(int(asked), len(subsets.X_test) - 1)
    if index < asked:
        st.info(f"There are {len(subsets.X_test)} test digits: showing the last, {index}.")
    recon = cache.cached_fig3(key, index, start, model, subsets)
    label = subsets.y_test[index]
    title = f"{subsets.source}: test digit {index} (a {label}) rebuilt without noise"
    width = narrow_px(SCREEN)  # a phone's, once measured: the columns in blocks
    fig = build(figures.fig3_figure, recon, title=title, width_px=width)
    name = f"denoise_fig3_digit{index}_{start}"
    said = figures.describe_fig3(recon, title=title)
    show_with_numbers(fig, "dn_fig3", name, recon.to_frame, plain=True, description=said)
    if not prose():
        return
    st.markdown(
        "Mika et al. Fig. 3. Under each image: the fraction ‖z − x‖² / ‖x̄ − x‖² of the "
        f"squared distance left. {fig3_findings(recon, str(label))} "
        f"The iteration (10) started at {view.FIG3_STARTS[start]}."
    )
    tab_end("dn_fig3", recon.grid.restarts)


@st.fragment
def show_preimages(model: DigitDenoiser, subsets: DigitSubsets, key: ModelKey, s: dict) -> None:
    # the figure first, its control under it: above, it pushed the axes below a 1280 × 720 screen
    figure_place = st.container()
    count = view.SETTINGS.draw("dn_pre_digits")
    n_train = len(subsets.X_train)
    cost = budget.preimage_cost(
        int(count), n_train, len(DIGIT_N), METHODS, c=s["c"], digits="digits"
    )
    width = narrow_px(SCREEN)  # a phone's, once measured: the panels one below the other
    # a phone's page, presenter mode's wide one, or the main column at 1280 px
    planned = (
        width if is_narrow(width) else page_px() if presenter_mode() else figures.COMPARISON_PX
    )
    if view.within_budget(f"This comparison ({count} digits, {n_train} training digits)", cost):
        noise, alpha = s["noise"], s["ridge_alpha"]
        with figure_place:
            args = (key, noise, int(count), DIGIT_N, alpha, model, subsets)
            comparison = cache.cached_digit_methods(*args)
            title = f"{subsets.source}: {comparison.n_points} digits, {noise.describe()}"
            fig = build(figures.comparison_figure, comparison, title=title, width_px=planned)
            name = f"preimages_digits_{noise.kind}{noise.level:g}_c{s['c']:g}"
            said = figures.describe_comparison(comparison, title=title)
            show_with_numbers(fig, "dn_methods", name, comparison.to_frame, description=said)
        if prose():
            st.dataframe(method_summary(comparison), hide_index=True)
            st.caption(text("dn_methods", alpha=alpha))
            explain("dn_methods")
    show_fixed_point(show_toy_methods(planned), planned)
    if not prose():
        return
    # under the figures, which it pushed below a 1280 × 720 screen
    st.markdown(text("dn_preimages"))
    narrow_listener(SCREEN, width)


def method_summary(comparison: MethodComparison) -> pd.DataFrame:
    """One row per method: its best MSE and n, the median time per point, all failures."""
    return pd.DataFrame(
        [
            {
                "method": METHOD_LABELS[curve.method],
                "best MSE": round(float(np.min(curve.mse)), 3),
                "at n": int(curve.n[np.argmin(curve.mse)]),
                "ms per point (median over n)": round(1000 * np.median(curve.seconds_per_point), 3),
                "failures (all n)": int(curve.failures.sum()),
                "restarts (all n)": int(curve.restarts.sum()),
            }
            for curve in comparison.curves
        ]
    )


def show_toy_methods(width: int) -> str:
    """The methods side by side on a 2-D toy set (``width`` px); returns the set chosen."""
    st.subheader("The same methods in the 2-D toy")
    name = view.SETTINGS.draw("dn_pre_set", horizontal=True)
    comparison = cache.cached_toy_methods(name, TOY["noise"], TOY["c"], TOY["seed"])
    title = f"{view.PRE_SETS[name]}: {view.PRE_POINTS} noisy points (noise {TOY['noise']:g})"
    fig = build(figures.comparison_figure, comparison, title=title, width_px=width)
    said = figures.describe_comparison(comparison, title=title)
    show_with_numbers(
        fig, "dn_toy_methods", f"preimages_toy_{name}", comparison.to_frame, description=said
    )
    if prose():
        st.caption(text("dn_toy_methods", width=2 * TOY["c"]))
    return name


def show_fixed_point(name: str, width: int) -> None:
    st.subheader("The fixed point, step by step")
    n, point = map(view.SETTINGS.draw, ("dn_pre_n", "dn_pre_point"), st.columns(2))
    toy = (name, TOY["noise"], TOY["c"], int(n), TOY["seed"])
    data, paths = cache.cached_toy_paths(*toy)
    fig = cache.cached_animation(*toy, int(point), width)
    # taller on the projector, for the slider and its step numbers under the plot
    fig = presentable(fig, height=FIXED_POINT_PX)
    config = image_export(f"fixed_point_{name}_n{n}_point{point}")
    said = figures.describe_fixed_point(paths, data.clean, selected=int(point))
    chart(fig, key="dn_fixed_point_chart", config=config, description=said)
    if not prose():
        return
    restarted = int(paths.restarted.any(axis=0).sum())
    st.caption(
        f"{view.PRE_SETS[name]}, n = {n}: press ▶ play; the animation runs in your browser. "
        f"{int(paths.converged.sum())} of {paths.converged.size} points converged, "
        f"{restarted} restarted (crosses: a restart is a jump to a training point)."
    )
    explain("dn_fixed_point")


def warm(values: Mapping[str, Any]) -> None:
    """What a first visit of the settings ``values`` computes (:mod:`kpca_ui.warmup`): the model,
    the Fig. 4 grid, the error against n, Table 1, the pre-images, the 2-D toy."""
    s = view.experiment(values)
    data = cache.digit_sets()
    subsets = cache.digit_subsets(data[0].source, s["n_train"], s["n_test"], s["seed"], data)
    key = cache.model_key(subsets, s)
    model = cache.fitted_model(key, subsets)
    noise, alpha = s["noise"], s["ridge_alpha"]
    cache.cached_fig4(key, noise, s["method"], alpha, model, subsets)
    cache.cached_sweep(key, noise, False, alpha, model, subsets)
    cache.cached_table1()
    count, name, n = values["dn_pre_digits"], values["dn_pre_set"], values["dn_pre_n"]
    cache.cached_digit_methods(key, noise, count, DIGIT_N, alpha, model, subsets)
    cache.cached_toy_methods(name, TOY["noise"], TOY["c"], TOY["seed"])
    cache.cached_animation(
        name, TOY["noise"], TOY["c"], n, TOY["seed"], values["dn_pre_point"], NARROW_PX
    )
    toy = (values["dn_toy_noise"], values["dn_toy_c"], values["dn_toy_n"], values["dn_toy_seed"])
    for shape in ("half_circle", "square"):
        cache.cached_toy(shape, 200, *toy)
