"""The Demo page's work: the model, the measured cases (:mod:`kpca_core.demo`), the pictures
and the verdict."""

from __future__ import annotations

import html

import numpy as np
import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core import denoise, usps
from kpca_core.demo import DemoCases, Verdict, in_turns, measure, most_convincing, percent
from kpca_core.denoise import DigitDenoiser, DigitSubsets, ImageGrid, Noise, demo_images
from kpca_core.figures import denoise as figures
from kpca_core.figures.style import export_config
from kpca_core.figures.words import Description
from kpca_core.handwriting import to_digit
from kpca_ui import pad
from kpca_ui.adapter import in_script_run
from kpca_ui.cache import memo
from kpca_ui.chart import chart
from kpca_ui.explain import text
from kpca_ui.presenter import presentable, prose
from kpca_ui.screen import narrow_listener, narrow_px
from kpca_ui.settings import Settings, flag
from kpca_ui.views.denoising import DEMO_LEVELS
from kpca_ui.views.denoising_cache import digit_sets, digit_subsets, fitted_model

PREFIX = "dm"  # the page's widget keys' prefix (its pad's link parameter is dm_pad)
ANY = "dm_any"
SETTINGS = Settings(
    PREFIX,
    "demo",
    pad.link_setting(PREFIX),
    flag(
        ANY,
        "Any test digit",
        help="Show every test digit in turn, not only those picked to show the difference.",
    ),
)
NEXT = "dm_next"
COUNT = "dm_case"  # session key of the shown digit's place among those shown ("Show me another")
TITLES = ("Written<br>by hand", "With<br>noise", "Classic<br>method", "Kernel<br>method")
"""Two short lines each, so that they stay apart on a phone's 390 px."""
PAD_TITLES = ("Written<br>by you", *TITLES[1:])
PRESET = next(iter(denoise.PRESETS.values()))  # the Denoising default: Mika et al.'s Fig. 4
FIGURE_PX = 300  # the pictures' height: with the verdict under them, one 1280 × 720 screen
PRESENTER_PX = 380  # in presenter mode, where the page's chrome is smaller and the text larger
NOISE_GONE = text("dm_noise_gone")


def digits() -> tuple[usps.DigitsData, usps.DigitsData]:
    """The training and test digits, with one plain line where they are not the full set."""
    data = digit_sets()
    if data[0].source != "USPS" and in_script_run():
        st.caption(usps.FALLBACK_PLAIN)
    return data


def model_and_digits() -> tuple[DigitDenoiser, DigitSubsets]:
    """The Denoising page's default model and digits (shared with it through the caches)."""
    data = digits()
    subsets = digit_subsets(
        data[0].source, PRESET.n_train_per_class, PRESET.n_test_per_class, 0, data
    )
    return fitted_model(model_key(subsets.source), subsets), subsets


def model_key(source: str) -> tuple:
    """The key of the Demo's model in the Denoising page's cache of fitted models."""
    preset = (PRESET.n_train_per_class, PRESET.n_test_per_class, PRESET.c, PRESET.center)
    return (source, *preset, 0, None, 0.0)


@memo
def convincing_cases(key: tuple, _model: DigitDenoiser, _subsets: DigitSubsets) -> DemoCases:
    """The noise level with the most convincing test digits, measured once per model ``key``."""
    levels = [level for level in DEMO_LEVELS.values() if level > 0]
    return most_convincing(
        measure(_model, _subsets.X_test, _subsets.y_test, level) for level in levels
    )


def cleaned(
    model: DigitDenoiser,
    clean: np.ndarray,
    noise: Noise,
    seed: int,
    side: int,
    *,
    titles: tuple[str, ...] = TITLES,
    **counts: int,
) -> tuple[ImageGrid, Verdict]:
    """Four pictures of one digit (written, with noise, classic, kernel) and the verdict;
    ``counts``: ``n_linear``, ``n_kernel`` of :func:`kpca_core.denoise.demo_images`."""
    grid = demo_images(model, clean, noise, side=side, random_state=seed, **counts)
    images = np.concatenate([np.reshape(clean, (1, 1, -1)), grid.images], axis=1)
    return ImageGrid(images, side, ("",), titles), Verdict.of(clean, *grid.images[0])


def pictures(
    grid: ImageGrid, verdict: Verdict, key: str, name: str, what: str, note: str = ""
) -> None:
    """The four pictures, full width, under them in words ``what`` they show (their text
    alternative), the verdict: how much of the noise each method removed, in one line and a
    bar for each, and a ``note`` on the verdict."""
    width = narrow_px(f"{key}_screen")  # a phone's, once measured: the pictures in rows
    fig = figures.demo_figure(grid, width_px=width, height_px=FIGURE_PX)
    shown = figures.demo_text(grid, what)
    said = Description(what[:1].upper() + what[1:], f"{shown} {verdict.words().capitalize()}.")
    config = export_config(name)
    chart(presentable(fig, height=PRESENTER_PX), key=key, config=config, description=said)
    st.caption(shown)
    st.markdown(
        '<p style="font-size: 1.5rem; font-weight: 700; margin: 0">'
        f"{html.escape(verdict.words().capitalize())}</p>",
        unsafe_allow_html=True,
    )
    shares = {"Kernel method": verdict.kernel, "Classic method": verdict.classic}
    for column, (method, share) in zip(st.columns(2), shares.items(), strict=True):
        column.progress(min(max(share, 0.0), 1.0), text=f"{method}: {percent(share)}")
    if note:
        st.markdown(note)
    if prose():
        st.caption(NOISE_GONE)
    narrow_listener(f"{key}_screen", width)


def noise_of(cases: DemoCases) -> Noise:
    """The noise the Demo adds: Gaussian, at the measured cases' level."""
    return Noise("gaussian", cases.level)


def another() -> None:
    """The "Show me another" button's callback: the next convincing case."""
    st.session_state[COUNT] = st.session_state.get(COUNT, 0) + 1


def first() -> None:
    """The "Any test digit" toggle's callback: its sequence from the start."""
    st.session_state[COUNT] = 0


def selection(cases: DemoCases, every: bool) -> str:
    """How the digits shown were chosen, in one plain sentence with the measured numbers:
    the digits where the kernel method wins clearly, or (``every``) all, with the medians."""
    n = cases.errors.shape[1]
    if every:
        median = cases.median()
        kernel, classic = (percent(share, short=True) for share in (median.kernel, median.classic))
        return text("dm_every", n=n, kernel=kernel, classic=classic)
    amount = next(name for name, level in DEMO_LEVELS.items() if level == cases.level)
    return text("dm_picked", wins=cases.n_wins, n=n, amount=amount)


def show(model: DigitDenoiser, subsets: DigitSubsets, cases: DemoCases) -> None:
    """One sentence, the button for another and the choice of any test digit; the digit's
    pictures, its verdict and which digits are shown (:func:`selection`)."""
    words, controls = st.columns([4, 1], vertical_alignment="center")
    controls.button("Show me another", key=NEXT, on_click=another, icon=":material/refresh:")
    every = SETTINGS.draw(ANY, controls, on_change=first)
    if prose():
        words.markdown(text("dm_lead", n_train=len(subsets.X_train)))
    order = in_turns(subsets.y_test) if every else cases.chosen
    index = int(order[st.session_state.get(COUNT, 0) % len(order)])  # one more per "another"
    grid, verdict = cleaned(model, subsets.X_test[index], noise_of(cases), index, subsets.side)
    what = f"a handwritten {subsets.y_test[index]}, test digit #{index} of {len(subsets.X_test)}"
    pictures(grid, verdict, "dm_chart", f"demo_digit{index}", what, selection(cases, every))


@st.fragment
def write_a_digit(
    prefix: str, model: DigitDenoiser, side: int, noise: Noise, **counts: int
) -> None:
    """The pad, and beside it the written digit cleaned up by both methods (``counts``: as
    :func:`cleaned`'s), with the verdict (a fragment: a stroke reruns only this)."""
    writing = pad.written(prefix)
    left, right = st.columns([1, 2], vertical_alignment="top")
    with left:
        pad.pad(prefix)
        st.button(
            "Add noise again",
            key=f"{prefix}_pad_again",
            on_click=pad.noise_again,
            args=(prefix,),
            icon=":material/grain:",
            disabled=not len(writing),
        )
    with right, st.container(key=f"{prefix}_pad_result"):
        try:
            clean = to_digit(writing, side)
        except ValueError as empty:
            st.info(str(empty), icon=":material/edit:")
            return
        seed = pad.noise_seed(prefix)
        grid, verdict = cleaned(model, clean, noise, seed, side, titles=PAD_TITLES, **counts)
        what = "the digit you wrote"
        pictures(grid, verdict, f"{prefix}_pad_chart", f"{prefix}_your_digit", what)


def warm(values: object = None) -> None:
    """The Demo's model (the Denoising view's default) and its measured cases."""
    model, subsets = model_and_digits()
    convincing_cases(model_key(subsets.source), model, subsets)
