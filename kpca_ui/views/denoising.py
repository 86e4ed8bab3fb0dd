"""The Denoising view's settings: presets, the experiment's sidebar, the words about them.

Mika et al. (1999).  The cached work (digits, models, sweeps, grids) is in
:mod:`kpca_ui.views.denoising_cache`, the body of each tab in
:mod:`kpca_ui.views.denoising_tabs`; the page, ``app_pages/denoising.py``, is the layout.
"""

from __future__ import annotations

import streamlit as st

from kpca_core import budget, gamma_to_sigma
from kpca_core.denoise import PRESETS, SWEEP_N, Noise, kernel_gamma
from kpca_ui.links import choice, flag, integer, number
from kpca_ui.pad import link_domain as pad_domain
from kpca_ui.shell import camera_domain, camera_format

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
TABS = [
    "Fig. 4 grid",
    "Side by side",
    "Error vs n",
    "2-D toy",
    "Demo",
    "Table 1",
    "Fig. 3",
    "Pre-images",
    "Write a digit",
]
DEMO_LEVELS = {"none": 0.0, "a little": 0.2, "some": 0.4, "a lot": 0.6, "very much": 0.8}
GAUSSIAN_PRESET = next(iter(PRESETS))
TOY_WIDTHS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
MAX_SEED = 2**31 - 1
MAX_TEST_INDEX = 999
"""The largest test digit Fig. 3 may be asked for (the last one is shown if there are fewer)."""
FIG3_STARTS = {
    "mean": "the mean training digit (reconstruction)",
    "digit": "the digit itself (as in de-noising)",
}
DIGIT_COUNTS = (10, 20, 50, 100)
"""How many noisy digits the pre-images' comparison may use. With the paper's 3000 training
digits its time is mostly the kernel ridge map's four fits (one per n), whatever the count."""
PRE_SETS = {"half_circle": "Half circle", "square": "Square"}
"""The 2-D sets of the pre-images' toy (Mika et al. Fig. 1)."""
PRE_POINTS = 200
LINK_DOMAINS = {
    "dn_img": camera_domain(),
    "dn_pad": pad_domain(),  # the "Write a digit" tab's writing (kpca_ui/pad.py)
    "dn_train": integer(10, MAX_TRAIN_PER_CLASS),
    "dn_test": integer(5, MAX_TEST_PER_CLASS),
    "dn_seed": integer(0, MAX_SEED),
    "dn_c": choice(WIDTHS),
    "dn_center": flag(),
    "dn_noise": choice(NOISE_KINDS.values()),
    "dn_sigma": number(0.0, 1.5),
    "dn_p": number(0.0, 1.0),
    "dn_train_noisy": flag(),
    "dn_method": choice(METHODS.values()),
    "dn_ridge": choice(RIDGE_ALPHAS),
    "dn_tab": choice(TABS),
    "dn_n": choice(SWEEP_N),
    "dn_sbs_count": integer(1, 10),
    "dn_sbs_draw": integer(0, 10_000),
    "dn_sweep_ridge": flag(),
    "dn_toy_noise": number(0.0, 0.3),
    "dn_toy_c": choice(TOY_WIDTHS),
    "dn_toy_n": integer(1, 20),
    "dn_toy_seed": integer(0, 10_000),
    "dn_demo_digit": choice(range(10)),
    "dn_demo_noise": choice(DEMO_LEVELS),
    "dn_fig3_digit": integer(0, MAX_TEST_INDEX),
    "dn_fig3_start": choice(FIG3_STARTS.values()),
    "dn_pre_digits": choice(DIGIT_COUNTS),
    "dn_pre_set": choice(PRE_SETS.values()),
    "dn_pre_n": integer(1, 20),
    "dn_pre_point": integer(0, PRE_POINTS - 1),
}
"""What each widget of the view accepts from a link (:func:`kpca_ui.links.sanitise_link`)."""


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


def _matching_preset(values: dict[str, object]) -> str:
    """The preset whose settings are these widgets' values, or :data:`CUSTOM`."""
    for name in PRESETS:
        if all(values.get(k) == v for k, v in _preset_state(name).items()):
            return name
    return CUSTOM


DEFAULTS = {**_preset_state(GAUSSIAN_PRESET), "dn_p": 0.4, "dn_seed": 0, "dn_ridge": 1.0}
"""Every widget's starting value is its own default (``value=``): a bound widget leaves
its default out of the URL, so this is also what a link without the parameter means,
and any other value, its lowest included, stays in the link."""


def sidebar_settings() -> dict[str, object]:
    """The experiment's controls, in the sidebar; returns their values."""
    side = st.sidebar
    side.header("Experiment")
    # The preset box is drawn at the top but filled last, from what the widgets
    # below show (after a link, a preset or a change of one's own alike).
    preset_slot = side.container()
    side.subheader("Digits")
    n_train = side.slider(
        "Training digits per class",
        10,
        MAX_TRAIN_PER_CLASS,
        DEFAULTS["dn_train"],
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
        DEFAULTS["dn_test"],
        step=5,
        key="dn_test",
        bind="query-params",
        help="The paper uses 50.",
    )
    seed = side.number_input(
        "Seed",
        0,
        MAX_SEED,
        DEFAULTS["dn_seed"],
        step=1,
        key="dn_seed",
        bind="query-params",
        help="Draws the digits and the noise.",
    )
    side.subheader("Kernel")
    c = side.select_slider(
        "Width c (Mika et al., per pixel)",
        WIDTHS,
        DEFAULTS["dn_c"],
        key="dn_c",
        bind="query-params",
        help="k(x, y) = exp(−‖x − y‖² / (N c)), N = number of pixels; the paper's c = 0.5.",
    )
    center = side.toggle(
        "Centre in feature space",
        DEFAULTS["dn_center"],
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
        index=list(NOISE_KINDS).index(DEFAULTS["dn_noise"]),
        key="dn_noise",
        bind="query-params",
        horizontal=True,
    )
    if kind == "gaussian":
        level = side.slider(
            "Standard deviation σ (0–1 intensity scale)",
            0.0,
            1.5,
            DEFAULTS["dn_sigma"],
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
            DEFAULTS["dn_p"],
            step=0.05,
            key="dn_p",
            bind="query-params",
            persist_state="page",
        )
    train_noisy = side.checkbox(
        "Train on noisy digits too",
        DEFAULTS["dn_train_noisy"],
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
            DEFAULTS["dn_ridge"],
            key="dn_ridge",
            bind="query-params",
            persist_state="page",
            help="Regularisation of the learned map from components back to pixels "
            "(scikit-learn's fit_inverse_transform).",
        )
    camera_format(side, "dn_img")
    shown = {"dn_train": n_train, "dn_test": n_test, "dn_c": c, "dn_center": center}
    shown |= {"dn_noise": kind, "dn_sigma" if kind == "gaussian" else "dn_p": level}
    st.session_state["dn_preset"] = _matching_preset({**shown, "dn_train_noisy": train_noisy})
    preset_slot.selectbox(
        "Preset",
        [*PRESETS, CUSTOM],
        # the paper named in the help: its full name was cut in the sidebar at 1280 px
        format_func=lambda name: name.removeprefix(PAPER),
        key="dn_preset",
        on_change=_apply_preset,
        help="The settings that reproduce Mika et al. (1999), Fig. 4; see 'What the preset means'.",
    )
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


PAPER = "Mika et al. 1999, "
"""What every preset's name starts with; the select shows the rest ("Fig. 4 (Gaussian
noise)"), its help names the paper."""


def within_budget(request: str, cost: budget.Cost) -> bool:
    """Whether ``request`` fits the per-request budget; if not, an error box says what to reduce.

    ``request`` names it with its sizes, e.g. "This error curve (3000 training and
    500 test digits)"; the cost model is :mod:`kpca_core.budget`.
    """
    if cost.fits:
        return True
    st.error(cost.refusal(request))
    return False


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
