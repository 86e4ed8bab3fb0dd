"""Denoising: linear vs kernel PCA on noisy handwritten digits (Mika et al. 1999)."""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from kpca_core import usps
from kpca_core.denoise import (
    DEMO_N,
    FIG4_N,
    PRESETS,
    SWEEP_N,
    DigitDenoiser,
    DigitSubsets,
    ErrorSweep,
    ImageGrid,
    Noise,
    ToyDenoising,
    demo_images,
    error_sweep,
    fig4_grid,
    kernel_gamma,
    sample_digits,
    side_by_side,
    toy_denoising,
)
from kpca_core.figures import denoise as figures
from kpca_core.figures.style import export_config
from kpca_core.kernels import gamma_to_sigma
from kpca_ui.explain import explain
from kpca_ui.links import link_tools
from kpca_ui.presenter import presentable
from kpca_ui.shell import camera_format, require_app_shell
from kpca_ui.workers import at_low_priority, build

require_app_shell()

# M ≤ 5000 training digits: the fit (all M eigenvectors) takes about 10 s alone
# on the 2-core server and 0.6 GB while it runs; 300 per class (the paper) about 3 s.
MAX_TRAIN_PER_CLASS = 300
MAX_TEST_PER_CLASS = 100
WIDTHS = (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
RIDGE_ALPHAS = (1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0)
NOISE_KINDS = {"gaussian": "Gaussian", "speckle": "Speckle (salt and pepper)"}
METHODS = {
    "fixed-point": "Fixed point (Mika et al. eq. 10)",
    "ridge": "Learned (kernel ridge regression)",
}
CUSTOM = "Custom settings"
TABS = ["Fig. 4 grid", "Side by side", "Error vs n", "2-D toy", "Demo"]
DEMO_LEVELS = {"none": 0.0, "a little": 0.2, "some": 0.4, "a lot": 0.6, "very much": 0.8}
GAUSSIAN_PRESET = next(iter(PRESETS))

# (source, train per class, test per class, c, centre, seed, training-noise kind, level)
ModelKey = tuple[str, int, int, float, bool, int, str | None, float]


# ------------------------------------------------------------ cached work
@st.cache_resource(show_spinner=False, ttl="1h", max_entries=4)
def load_digits(
    usps_dir: str | None, data_home: str | None, base_urls: tuple[str, ...]
) -> tuple[usps.DigitsData, usps.DigitsData]:
    """USPS training and test digits (or the 8×8 fallback), keyed on where they come from.

    The progress bar is created here, so that Streamlit can replay it on a
    cache hit (where it ends empty at once).
    """
    report, done = progress_bar("Loading the USPS digits")
    test, train = (
        usps.load_digits_with_fallback(
            subset, data_home=data_home, base_urls=base_urls, progress=_half(report, i)
        )
        for i, subset in enumerate(("test", "train"))  # the small file first
    )
    done()
    return train, test


def _half(progress: Callable[[float, str], None], i: int) -> Callable[[float, str], None]:
    """Report the i-th of two downloads as the i-th half of one bar."""

    def report(fraction: float, message: str) -> None:
        progress((i + fraction) / 2, message)

    return report


@st.cache_resource(show_spinner=False, max_entries=4)
def digit_subsets(
    source: str, n_train: int, n_test: int, seed: int, _data: tuple[usps.DigitsData, ...]
) -> DigitSubsets:
    train, test = _data
    return sample_digits(
        (train.images, train.labels),
        (test.images, test.labels),
        n_train,
        n_test,
        side=train.side,
        source=source,
        random_state=seed,
    )


@st.cache_resource(show_spinner=False, max_entries=2)  # ~150 MB each for M = 3000
def fitted_model(key: ModelKey, _subsets: DigitSubsets) -> DigitDenoiser:
    """Linear and kernel PCA on the training digits, cached across reruns and sessions."""
    _, _, _, c, center, seed, noise_kind, noise_level = key
    X = _subsets.X_train
    if noise_kind is not None:
        X = Noise(noise_kind, noise_level).apply(X, seed + 2)
    report, done = progress_bar(f"Fitting linear and kernel PCA on {len(X)} digits")
    try:
        return at_low_priority(DigitDenoiser(c, center=center).fit, X, progress=report)
    finally:
        done()


def noisy_test_digits(key: ModelKey, noise: tuple[str, float], subsets: DigitSubsets) -> np.ndarray:
    """The test digits with this noise, drawn with the seed after the model's (``key[5]``)."""
    return Noise(*noise).apply(subsets.X_test, key[5] + 1)


@st.cache_resource(show_spinner=False, max_entries=8)
def cached_sweep(
    key: ModelKey,
    noise: tuple[str, float],
    ridge: bool,
    ridge_alpha: float,
    _model: DigitDenoiser,
    _subsets: DigitSubsets,
) -> ErrorSweep:
    noisy = noisy_test_digits(key, noise, _subsets)
    report, done = progress_bar("Computing the error for every n")
    sweep = error_sweep(
        _model,
        _subsets.X_test,
        noisy,
        SWEEP_N,
        ridge=ridge,
        ridge_alpha=ridge_alpha,
        progress=report,
    )
    done()
    return sweep


@st.cache_resource(show_spinner=False, max_entries=16)
def cached_fig4(
    key: ModelKey,
    noise: tuple[str, float],
    method: str,
    ridge_alpha: float,
    _model: DigitDenoiser,
    _subsets: DigitSubsets,
) -> ImageGrid:
    noisy = noisy_test_digits(key, noise, _subsets)
    return fig4_grid(
        _model,
        _subsets.X_test,
        noisy,
        _subsets.y_test,
        side=_subsets.side,
        n_values=FIG4_N,
        method=method,
        ridge_alpha=ridge_alpha,
    )


@st.cache_resource(show_spinner=False, max_entries=64)
def cached_side_by_side(
    key: ModelKey,
    noise: tuple[str, float],
    pick: tuple[int, ...],
    n: int,
    method: str,
    ridge_alpha: float,
    _model: DigitDenoiser,
    _subsets: DigitSubsets,
) -> ImageGrid:
    """The side-by-side grid, shared by every session that asks for the same digits."""
    rows = list(pick)
    noisy = noisy_test_digits(key, noise, _subsets)[rows]
    return side_by_side(
        _model,
        _subsets.X_test[rows],
        noisy,
        _subsets.y_test[rows],
        n,
        side=_subsets.side,
        method=method,
        ridge_alpha=ridge_alpha,
    )


@st.cache_data(show_spinner=False, max_entries=32)
def cached_toy(
    name: str, n_samples: int, noise: float, c: float, n: int, seed: int
) -> ToyDenoising:
    return toy_denoising(
        name, n_samples=n_samples, noise=noise, c=c, n_components=n, random_state=seed
    )


def progress_bar(text: str) -> tuple[Callable[[float, str], None], Callable[[], None]]:
    """A ``progress(fraction, message)`` callback drawing a bar, and a function removing it."""
    bar = st.progress(0.0, text=text)

    def report(fraction: float, message: str) -> None:
        bar.progress(min(max(fraction, 0.0), 1.0), text=f"{text}: {message}")

    return report, bar.empty


# ---------------------------------------------------------------- settings
def _preset_state(name: str) -> dict[str, object]:
    preset = PRESETS[name]
    level = "dn_sigma" if preset.noise.kind == "gaussian" else "dn_p"
    return {
        "dn_train": preset.n_train_per_class,
        "dn_test": preset.n_test_per_class,
        "dn_c": preset.c,
        "dn_center": preset.center,
        "dn_noise": preset.noise.kind,
        level: preset.noise.level,
        "dn_train_noisy": False,
    }


def _apply_preset() -> None:
    name = st.session_state["dn_preset"]
    if name in PRESETS:
        st.session_state.update(_preset_state(name))


def _matching_preset() -> str:
    for name in PRESETS:
        if all(st.session_state.get(k) == v for k, v in _preset_state(name).items()):
            return name
    return CUSTOM


def _init_state() -> None:
    defaults = {
        "dn_preset": GAUSSIAN_PRESET,
        **_preset_state(GAUSSIAN_PRESET),
        "dn_p": 0.4,
        "dn_seed": 0,
        "dn_method": "fixed-point",
        "dn_ridge": 1.0,
    }
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    # The preset box shows which preset the settings match, whatever changed them.
    st.session_state["dn_preset"] = _matching_preset()


def sidebar_settings() -> dict[str, object]:
    """The experiment's controls, in the sidebar; returns their values."""
    _init_state()
    side = st.sidebar
    side.header("Experiment")
    side.selectbox(
        "Preset",
        [*PRESETS, CUSTOM],
        key="dn_preset",
        on_change=_apply_preset,
        help="The settings that reproduce Mika et al. (1999), Fig. 4; see 'What the preset means'.",
    )
    side.subheader("Digits")
    n_train = side.slider(
        "Training digits per class",
        10,
        MAX_TRAIN_PER_CLASS,
        step=10,
        key="dn_train",
        bind="query-params",
        help=f"The paper uses 300, the most this shared server allows ({10 * MAX_TRAIN_PER_CLASS} "
        "digits): kernel PCA keeps all eigenvectors of an M × M matrix, and 5000 digits "
        "took 40 s of a core that the other students' views need.",
    )
    side.caption(
        f"At most {MAX_TRAIN_PER_CLASS} per class ({10 * MAX_TRAIN_PER_CLASS} digits, about "
        "4 s to fit on one core). A fitted model is kept for everyone."
    )
    n_test = side.slider(
        "Test digits per class",
        5,
        MAX_TEST_PER_CLASS,
        step=5,
        key="dn_test",
        bind="query-params",
        help="The paper uses 50.",
    )
    seed = side.number_input(
        "Seed",
        0,
        2**31 - 1,
        step=1,
        key="dn_seed",
        bind="query-params",
        help="Draws the digits and the noise.",
    )
    side.subheader("Kernel")
    c = side.select_slider(
        "Width c (Mika et al., per pixel)",
        WIDTHS,
        key="dn_c",
        bind="query-params",
        help="k(x, y) = exp(−‖x − y‖² / (N c)), N = number of pixels; the paper's c = 0.5.",
    )
    center = side.toggle(
        "Centre in feature space",
        key="dn_center",
        bind="query-params",
        help="Subtract the mean in feature space (eq. 49). The paper's equations are "
        "written without centring; the preset leaves it off.",
    )
    side.subheader("Noise")
    kind = side.radio(
        "Noise type",
        list(NOISE_KINDS),
        format_func=NOISE_KINDS.get,
        key="dn_noise",
        bind="query-params",
        horizontal=True,
    )
    if kind == "gaussian":
        level = side.slider(
            "Standard deviation σ (0–1 intensity scale)",
            0.0,
            1.5,
            step=0.05,
            key="dn_sigma",
            bind="query-params",
            persist_state="page",
            help="σ on a scale where 0 is white paper and 1 full ink; the USPS files store "
            "−1…1, so the noise added to them has standard deviation 2σ.",
        )
    else:
        level = side.slider(
            "Probability p that a pixel turns black or white",
            0.0,
            1.0,
            step=0.05,
            key="dn_p",
            bind="query-params",
            persist_state="page",
        )
    train_noisy = side.checkbox(
        "Train on noisy digits too",
        key="dn_train_noisy",
        bind="query-params",
        help="The paper trains on clean digits; this adds the same kind of noise to them.",
    )
    side.subheader("Pre-image")
    method = side.radio(
        "Method", list(METHODS), format_func=METHODS.get, key="dn_method", bind="query-params"
    )
    ridge_alpha = 1.0
    if method == "ridge":
        ridge_alpha = side.select_slider(
            "Ridge parameter α",
            RIDGE_ALPHAS,
            key="dn_ridge",
            bind="query-params",
            persist_state="page",
            help="Regularisation of the learned map from components back to pixels "
            "(scikit-learn's fit_inverse_transform).",
        )
    camera_format(side, "dn_img")
    return {
        "n_train": int(n_train),
        "n_test": int(n_test),
        "seed": int(seed),
        "c": float(c),
        "center": bool(center),
        "noise": Noise(kind, float(level)),
        "train_noisy": bool(train_noisy),
        "method": method,
        "ridge_alpha": float(ridge_alpha),
    }


def _export(name: str) -> dict:
    """The figure's toolbar config: the camera button saves ``name`` as PNG or SVG."""
    return export_config(name, image_format=st.session_state.get("dn_img", "png"))


def _show_with_numbers(
    fig: go.Figure, key: str, name: str, table: Callable[[], pd.DataFrame]
) -> None:
    """Draw a figure and offer the numbers behind it.

    The chart's key is ``<key>_chart`` and its camera button saves ``name``; the
    CSV download (``<key>_csv``) is built only when clicked.
    """
    st.plotly_chart(presentable(fig), key=f"{key}_chart", config=_export(name))
    st.download_button(
        "The numbers behind this figure (CSV)",
        data=lambda: table().to_csv(index=False),
        file_name=f"{name}.csv",
        mime="text/csv",
        on_click="ignore",
        key=f"{key}_csv",
    )


def width_caption(c: float, n_pixels: int) -> str:
    gamma = kernel_gamma(c, n_pixels)
    return (
        f"Kernel width: c = {c:g} per pixel, i.e. k(x, y) = exp(−‖x − y‖² / {n_pixels * c:g}) "
        f"on the [−1, 1] grey values (N = {n_pixels} pixels); as a Gaussian width "
        f"σ = {gamma_to_sigma(gamma):.2f} in exp(−‖x − y‖² / (2σ²))."
    )


PRESET_EXPLANATION = """
The paper writes the kernel as k(x, y) = exp(−‖x − y‖² / (N c)) with N = 256 pixels and
c = 0.5, and adds Gaussian noise with σ = 0.5 — without saying on which grey scale. The
preset reads it literally: **c = 0.5 applied to the grey values as distributed
(−1 … 1), i.e. k = exp(−‖x − y‖² / 128), no centring in feature space, and the noise
σ = 0.5 on a 0 – 1 intensity scale** (so 1.0 on the files' −1 … 1 scale); speckle noise
p = 0.4. Measured on USPS with the paper's protocol (300 training and 50 test digits per
class, seed 0), kernel PCA then has 1.85× (Gaussian) and 1.27× (speckle) lower error
than linear PCA at the best n — the paper reports 1.6× and 1.2× — and on the paper's grid
of powers of 2 the best n are the paper's: 32 (linear), 512 and 256 (kernel), with up
to 8.5× at equal n. Other readings give smaller ratios: centring with N c = the mean
squared distance between digits (about 240) and σ = 0.5 on the −1 … 1 scale gives 1.47×
and 1.02×; the same without centring 1.57× and 1.16×.

**Error measure**: the squared distance between a reconstructed digit and its clean
original, summed over the pixels (on the −1 … 1 scale), averaged over the test digits.
"""


# -------------------------------------------------------------------- tabs
def show_fig4(model: DigitDenoiser, subsets: DigitSubsets, key: ModelKey, s: dict) -> None:
    noise: Noise = s["noise"]
    grid = cached_fig4(
        key, (noise.kind, noise.level), s["method"], s["ridge_alpha"], model, subsets
    )
    title = f"{subsets.source}: {noise.describe()}"
    _show_with_numbers(
        build(figures.fig4_figure, grid, title=title),
        "dn_fig4",
        f"denoise_fig4_{noise.kind}{noise.level:g}_c{s['c']:g}",
        grid.to_frame,
    )
    st.caption(
        "Like Mika et al. Fig. 4: the first test digit of each class, its noisy version, "
        f"then linear PCA and kernel PCA from n = {', '.join(map(str, FIG4_N))} components."
    )
    explain("dn_fig4")
    _restart_note(grid.restarts)


@st.fragment
def show_side_by_side(model: DigitDenoiser, subsets: DigitSubsets, key: ModelKey, s: dict) -> None:
    left, middle, right = st.columns(3)
    n = left.select_slider(
        "Number of components n",
        SWEEP_N,
        value=64,
        key="dn_n",
        bind="query-params",
        persist_state="page",
        help="On a log scale. Kernel PCA can use more components than there are pixels.",
    )
    count = middle.slider(
        "How many digits", 1, 10, 6, key="dn_sbs_count", bind="query-params", persist_state="page"
    )
    draw = right.number_input(
        "Draw",
        0,
        10_000,
        0,
        key="dn_sbs_draw",
        bind="query-params",
        persist_state="page",
        help="Another set of digits.",
    )
    _explain_n(n, model, subsets)
    rng = np.random.RandomState(int(draw))
    pick = np.sort(rng.choice(len(subsets.X_test), min(count, len(subsets.X_test)), replace=False))
    noise: Noise = s["noise"]
    grid = cached_side_by_side(
        key,
        (noise.kind, noise.level),
        tuple(int(i) for i in pick),
        n,
        s["method"],
        s["ridge_alpha"],
        model,
        subsets,
    )
    _show_with_numbers(
        build(
            figures.side_by_side_figure,
            grid,
            title=f"{subsets.source}: {noise.describe()}, n = {n}",
        ),
        "dn_sbs",
        f"denoise_side_by_side_{noise.kind}{noise.level:g}_n{n}",
        grid.to_frame,
    )
    errors = grid.errors
    st.markdown(
        f"Squared error to the clean digit (under each image), mean over these digits: "
        f"noisy **{errors[1].mean():.1f}**, linear PCA **{errors[2].mean():.1f}**, "
        f"kernel PCA **{errors[3].mean():.1f}**."
    )
    explain("dn_side_by_side")
    _restart_note(grid.restarts)


def _explain_n(n: int, model: DigitDenoiser, subsets: DigitSubsets) -> None:
    if n > model.n_linear_max_:
        st.info(
            f"Linear PCA has only {model.n_linear_max_} components (at most one per pixel): "
            f"n = {n} uses all {model.n_linear_max_}, which gives back the noisy digit unchanged."
        )
    if n > model.n_kernel_max_:
        st.info(
            f"Kernel PCA has {model.n_kernel_max_} components here (one per training digit "
            f"with a non-zero eigenvalue): n = {n} uses all of them. Use more training "
            "digits per class for more components."
        )


def _restart_note(restarts: int) -> None:
    if restarts:
        st.caption(
            f"The fixed-point iteration restarted {restarts} time(s) from another start, "
            "where its denominator vanished or turned negative."
        )


def show_error_curve(model: DigitDenoiser, subsets: DigitSubsets, key: ModelKey, s: dict) -> None:
    ridge = st.checkbox(
        "Add the learned pre-image (kernel ridge; one fit per n, slower)",
        key="dn_sweep_ridge",
        bind="query-params",
        persist_state="page",
    )
    noise: Noise = s["noise"]
    sweep = cached_sweep(key, (noise.kind, noise.level), ridge, s["ridge_alpha"], model, subsets)
    n_same, ratio_same = sweep.largest_same_n_ratio
    cols = st.columns(4)
    cols[0].metric("Best n, linear PCA", sweep.linear.best_n, help="Smallest error")
    cols[1].metric("Best n, kernel PCA", sweep.kernel.best_n)
    cols[2].metric("Ratio at the best n", f"{sweep.ratio_at_best:.2f}×", help="linear / kernel")
    cols[3].metric("Largest same-n ratio", f"{ratio_same:.1f}×", help=f"at n = {n_same}")
    title = f"{subsets.source}: {noise.describe()}, {len(subsets.X_test)} test digits"
    _show_with_numbers(
        figures.error_curve_figure(
            sweep, chosen_n=st.session_state.get("dn_n"), title_prefix=title
        ),
        "dn_error",
        f"denoise_error_vs_n_{noise.kind}{noise.level:g}_c{s['c']:g}",
        sweep.to_frame,
    )
    st.caption(
        "Mean over the test digits of the squared distance between the reconstruction and "
        "the clean digit (summed over pixels). Ratios above 1: kernel PCA is better. "
        f"Fixed-point restarts over the sweep: {sweep.restarts}."
    )
    explain("dn_error")


@st.fragment
def show_toy() -> None:
    st.markdown(
        "Mika et al. Fig. 1: noisy points on a half circle and on a square outline (grey), "
        "each joined to its de-noised version (colour). Kernel PCA follows the curve; linear "
        "PCA with one component can only put the points on a straight line."
    )
    cols = st.columns(4)
    noise = cols[0].slider(
        "Noise",
        0.0,
        0.3,
        0.1,
        step=0.01,
        key="dn_toy_noise",
        bind="query-params",
        persist_state="page",
    )
    c = cols[1].select_slider(
        "Width c",
        (0.05, 0.1, 0.2, 0.5, 1.0, 2.0),
        0.5,
        key="dn_toy_c",
        bind="query-params",
        persist_state="page",
    )
    n = cols[2].slider(
        "Kernel components", 1, 20, 4, key="dn_toy_n", bind="query-params", persist_state="page"
    )
    seed = cols[3].number_input(
        "Seed", 0, 10_000, 0, key="dn_toy_seed", bind="query-params", persist_state="page"
    )
    st.caption(f"k(x, y) = exp(−‖x − y‖² / {2 * c:g}) (N c with N = 2), 200 points per set.")
    results = [cached_toy(name, 200, noise, c, n, int(seed)) for name in ("half_circle", "square")]
    st.plotly_chart(
        presentable(figures.toy_figure(results)),
        key="dn_toy_chart",
        config=_export(f"denoise_toy_noise{noise:g}_c{c:g}_n{n}"),
    )
    explain("dn_toy")
    _restart_note(sum(r.restarts for r in results))


@st.fragment
def show_demo(model: DigitDenoiser, subsets: DigitSubsets) -> None:
    left, right = st.columns([1, 3])
    digit = left.selectbox(
        "Which digit?", list(range(10)), key="dn_demo_digit", bind="query-params"
    )
    if left.button("Another handwritten example", key="dn_demo_next"):
        st.session_state["dn_demo_example"] = st.session_state.get("dn_demo_example", 0) + 1
    level = right.select_slider(
        "How much noise?", list(DEMO_LEVELS), value="some", key="dn_demo_noise", bind="query-params"
    )
    examples = np.flatnonzero(subsets.y_test == digit)
    index = examples[st.session_state.get("dn_demo_example", 0) % len(examples)]
    original = ImageGrid(subsets.X_test[index][np.newaxis, np.newaxis], subsets.side, ("",), ("",))
    left.plotly_chart(
        presentable(figures.demo_figure(original)),
        key="dn_demo_original",
        config=_export(f"denoise_demo_original_{digit}"),
    )
    left.caption("Written by hand")
    grid = demo_images(
        model,
        subsets.X_test[index],
        Noise("gaussian", DEMO_LEVELS[level]),
        side=subsets.side,
        random_state=int(index),
    )
    right.plotly_chart(
        presentable(figures.demo_figure(grid)),
        key="dn_demo_chart",
        config=_export(f"denoise_demo_{digit}_{level.replace(' ', '_')}"),
    )
    st.markdown(
        f"#### The computer has looked at {len(subsets.X_train)} handwritten digits: the "
        "classic method keeps only the most common strokes, so much of the noise stays, "
        "while the kernel method redraws the digit from similar examples it has seen."
    )
    with st.expander("How it works, for the technically minded"):
        st.markdown(
            f"Classic method: linear PCA with {DEMO_N['linear']} components. Kernel method: "
            f"kernel PCA (Gaussian kernel) with {min(DEMO_N['kernel'], model.n_kernel_max_)} "
            "components and the fixed-point pre-image of Mika et al. (1999), eq. 10 — the "
            f"best numbers of components for Gaussian noise in the paper. Noise: Gaussian, "
            f"σ = {DEMO_LEVELS[level]:g} on a 0–1 intensity scale. Digits: {subsets.source}."
        )
    explain("dn_demo")


# -------------------------------------------------------------------- page
st.title("Denoising handwritten digits")
st.markdown(
    "Mika et al. (1999) removed noise from handwritten digits by projecting them onto the "
    "first n principal components and mapping the result back to an image. With kernel PCA "
    "(a Gaussian kernel) the de-noised digits come out much cleaner than with linear PCA."
)

settings = sidebar_settings()
with st.expander("What the preset means (scales, error measure)"):
    st.markdown(PRESET_EXPLANATION)

data = load_digits(
    os.environ.get(usps.USPS_ENV_VAR),
    os.environ.get("SCIKIT_LEARN_DATA"),
    tuple(usps.USPS_BASE_URLS),
)
train_data, test_data = data
if train_data.message or test_data.message:
    st.warning(train_data.message or test_data.message, icon=":material/cloud_off:")
for note in {train_data.note, test_data.note} - {None}:
    st.caption(note)
if train_data.source != "USPS":
    st.info(
        f"These are the **{train_data.source}**, not USPS: every figure is labelled so. "
        "With only 64 pixels and about 140 training digits per class the numbers differ "
        "from the paper's."
    )

subsets = digit_subsets(
    train_data.source, settings["n_train"], settings["n_test"], settings["seed"], data
)
if (subsets.n_train_per_class, subsets.n_test_per_class) != (
    settings["n_train"],
    settings["n_test"],
):
    st.info(
        f"The {subsets.source} have fewer digits of some class than asked for: using "
        f"{len(subsets.X_train)} training and {len(subsets.X_test)} test digits "
        "(all there are of the rarest classes)."
    )
n_pixels = subsets.X_train.shape[1]
st.caption(
    f"{subsets.source}: {len(subsets.X_train)} training and {len(subsets.X_test)} test digits, "
    f"{subsets.side} × {subsets.side} pixels. " + width_caption(settings["c"], n_pixels)
)

noise_setting: Noise = settings["noise"]
model_key: ModelKey = (
    subsets.source,
    settings["n_train"],
    settings["n_test"],
    settings["c"],
    settings["center"],
    settings["seed"],
    noise_setting.kind if settings["train_noisy"] else None,
    noise_setting.level if settings["train_noisy"] else 0.0,
)
try:
    model = fitted_model(model_key, subsets)
except ValueError as error:
    st.error(f"Kernel PCA could not be fitted with these settings: {error}. Try another width c.")
    st.stop()

tabs = st.tabs(TABS, key="dn_tab", on_change="rerun", bind="query-params")
with tabs[0]:
    if tabs[0].open:
        show_fig4(model, subsets, model_key, settings)
with tabs[1]:
    if tabs[1].open:
        show_side_by_side(model, subsets, model_key, settings)
with tabs[2]:
    if tabs[2].open:
        show_error_curve(model, subsets, model_key, settings)
with tabs[3]:
    if tabs[3].open:
        show_toy()
with tabs[4]:
    if tabs[4].open:
        show_demo(model, subsets)
link_tools("dn")
