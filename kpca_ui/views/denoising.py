"""The Denoising view's settings (Mika et al. 1999): presets, the sidebar, the words about them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from kpca_core import budget
from kpca_core.denoise import PRESETS, SWEEP_N, Noise
from kpca_ui.pad import link_setting as pad_setting
from kpca_ui.presenter import prose
from kpca_ui.settings import Setting, Settings, choice, flag, number
from kpca_ui.shell import camera

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
PAPER = "Mika et al. 1999, "  # every preset's name starts so; the select shows the rest
TABS = (
    *("Fig. 4 grid", "Side by side", "Error vs n", "2-D toy", "Demo", "Table 1", "Fig. 3"),
    *("Pre-images", "Write a digit"),
)
DEMO_LEVELS = {"none": 0.0, "a little": 0.2, "some": 0.4, "a lot": 0.6, "very much": 0.8}
TOY_WIDTHS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
MAX_SEED = 2**31 - 1
MAX_TEST_INDEX = 999  # the largest test digit Fig. 3 may be asked for
FIG3_STARTS = {
    "mean": "the mean training digit (reconstruction)",
    "digit": "the digit itself (as in de-noising)",
}
DIGIT_COUNTS = (10, 20, 50, 100)  # how many noisy digits the pre-images' comparison may use
PRE_SETS = {"half_circle": "Half circle", "square": "Square"}  # the pre-images' 2-D toy sets
PRE_POINTS = 200


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


def _box(key: str, label: str, high: int, **kw: Any) -> Setting:
    """A number box of whole numbers from 0 (default 0) to ``high``."""
    return number(key, label, 0, high, 0, step=1, widget="number", **kw)


def _slider(key: str, label: str, options: Any, default: Any, **kw: Any) -> Setting:
    """A select slider over ``options``."""
    return choice(key, label, options, default=default, widget="select_slider", **kw)


_PAPER = _preset_state(next(iter(PRESETS)))  # the Gaussian preset
SETTINGS = Settings(
    "dn",
    "denoising",
    camera("dn"),
    pad_setting("dn"),  # the "Write a digit" tab's writing (kpca_ui/pad.py)
    number(
        "dn_train",
        "Training digits per class",
        10,
        MAX_TRAIN_PER_CLASS,
        _PAPER["dn_train"],
        step=10,
        cost="fit",
        help=f"The paper uses 300, the most this shared server allows ({10 * MAX_TRAIN_PER_CLASS} "
        "digits): kernel PCA keeps all eigenvectors of an M × M matrix, and 5000 digits "
        "took 40 s of a core that the other students' views need.",
    ),
    number(
        "dn_test",
        "Test digits per class",
        5,
        MAX_TEST_PER_CLASS,
        _PAPER["dn_test"],
        step=5,
        cost="data",
        help="The paper uses 50.",
    ),
    _box("dn_seed", "Seed", MAX_SEED, cost="fit", help="Draws the digits and the noise."),
    _slider(
        "dn_c",
        "Width c (Mika et al., per pixel)",
        WIDTHS,
        _PAPER["dn_c"],
        cost="fit",
        help="k(x, y) = exp(−‖x − y‖² / (N c)), N = number of pixels; the paper's c = 0.5.",
    ),
    flag(
        "dn_center",
        "Centre in feature space",
        _PAPER["dn_center"],
        cost="fit",
        help="Subtract the mean in feature space (eq. 49). The paper's equations are "
        "written without centring; the preset leaves it off.",
    ),
    choice("dn_noise", "Noise type", NOISE_KINDS, widget="radio"),
    number(
        "dn_sigma",
        "Standard deviation σ (0–1 intensity scale)",
        0.0,
        1.5,
        _PAPER["dn_sigma"],
        step=0.05,
        help="σ on a scale where 0 is white paper and 1 full ink; the USPS files store "
        "−1…1, so the noise added to them has standard deviation 2σ.",
    ),
    number("dn_p", "Probability p that a pixel turns black or white", 0.0, 1.0, 0.4, step=0.05),
    flag(
        "dn_train_noisy",
        "Train on noisy digits too",
        widget="checkbox",
        cost="fit",
        help="The paper trains on clean digits; this adds the same kind of noise to them.",
    ),
    choice("dn_method", "Method", METHODS, widget="radio"),
    _slider(
        "dn_ridge",
        "Ridge parameter α",
        RIDGE_ALPHAS,
        1.0,
        help="Regularisation of the learned map from components back to pixels "
        "(scikit-learn's fit_inverse_transform).",
    ),
    choice("dn_tab", "Tab", TABS, widget="tabs", stepping=True),
    _slider(
        "dn_n",
        "Number of components n",
        SWEEP_N,
        64,
        stepping=True,
        help="On a log scale. Kernel PCA can use more components than there are pixels.",
    ),
    number("dn_sbs_count", "How many digits", 1, 10, 6),
    _box("dn_sbs_draw", "Draw", 10_000, help="Another set of digits."),
    flag(
        "dn_sweep_ridge",
        "Add the learned pre-image (kernel ridge; one fit per n, slower)",
        widget="checkbox",
    ),
    number("dn_toy_noise", "Noise", 0.0, 0.3, 0.1, step=0.01, cost="fit"),
    _slider("dn_toy_c", "Width c", TOY_WIDTHS, 0.5, cost="fit"),
    number("dn_toy_n", "Kernel components", 1, 20, 4, stepping=True),
    _box("dn_toy_seed", "Seed", 10_000, cost="fit"),
    choice("dn_demo_digit", "Which digit?", range(10)),
    _slider("dn_demo_noise", "How much noise?", tuple(DEMO_LEVELS), "some", stepping=True),
    _box(
        "dn_fig3_digit",
        "Test digit (0 = the first)",
        MAX_TEST_INDEX,
        help="The paper shows the first digit of its test set.",
    ),
    choice(
        "dn_fig3_start",
        "Start the iteration (10) at",
        FIG3_STARTS,
        widget="radio",
        help="Reconstruction may not use the digit itself; de-noising may (the paper, Sect. 4).",
    ),
    _slider(
        "dn_pre_digits",
        "Noisy test digits compared",
        DIGIT_COUNTS,
        20,
        help="Spread over the test set; each method runs at every n on the same digits.",
    ),
    choice("dn_pre_set", "Data set", PRE_SETS, widget="radio"),
    number("dn_pre_n", "Kernel components", 1, 20, 4, cost="fit"),
    _box(
        "dn_pre_point",
        "Point whose ρ(z) is drawn",
        PRE_POINTS - 1,
        help="Its path is traced in black over the contours of its own ρ(z).",
    ),
)
DEFAULTS = SETTINGS.defaults


def _apply_preset() -> None:
    name = st.session_state["dn_preset"]
    if name in PRESETS:
        SETTINGS.apply(_preset_state(name))


SIDEBAR = {  # the experiment's settings in the sidebar, under their headings
    "Digits": ("dn_train", "dn_test", "dn_seed"),
    "Kernel": ("dn_c", "dn_center"),
    "Noise": ("dn_noise", "dn_sigma", "dn_p", "dn_train_noisy"),
    "Pre-image": ("dn_method", "dn_ridge", "dn_img"),
}


def sidebar_settings() -> dict[str, object]:
    """The experiment's controls, in the sidebar; the experiment they set up."""
    side = st.sidebar
    if prose():
        side.header("Experiment")
    # drawn at the top, filled last: from what the widgets below show, however they got it
    preset_slot = side.container() if prose() else None
    for heading, keys in SIDEBAR.items():
        if prose():
            side.subheader(heading)
        for key in keys:
            shown_with = {"dn_sigma": "gaussian", "dn_p": "speckle", "dn_ridge": "ridge"}.get(key)
            if shown_with not in (None, SETTINGS.value("dn_noise"), SETTINGS.value("dn_method")):
                continue  # the other kind of noise's level, or the learned pre-image's α
            SETTINGS.draw(
                key, side, **({"horizontal": True} if key in ("dn_noise", "dn_img") else {})
            )
            if key == "dn_train" and prose():
                side.caption(
                    f"At most {MAX_TRAIN_PER_CLASS} per class ({10 * MAX_TRAIN_PER_CLASS} "
                    "digits, about 4 s to fit on one core). A fitted model is kept for everyone."
                )
    values = SETTINGS.values()
    # the preset whose settings are these widgets' values
    matches = (n for n in PRESETS if _preset_state(n).items() <= values.items())
    st.session_state["dn_preset"] = next(matches, CUSTOM)
    if preset_slot is not None:
        preset_slot.selectbox(
            "Preset",
            [*PRESETS, CUSTOM],
            # the paper named in the help: its full name was cut in the sidebar at 1280 px
            format_func=lambda name: name.removeprefix(PAPER),
            key="dn_preset",
            on_change=_apply_preset,
            help="The settings that reproduce Mika et al. (1999), Fig. 4; see 'What the "
            "preset means'.",
        )
    return experiment(values)


def experiment(values: Mapping[str, Any]) -> dict[str, Any]:
    """The experiment the settings' ``values`` set up (the page's, a gallery card's)."""
    kind, method = values["dn_noise"], values["dn_method"]
    return {
        "n_train": int(values["dn_train"]),
        "n_test": int(values["dn_test"]),
        "seed": int(values["dn_seed"]),
        "c": float(values["dn_c"]),
        "center": bool(values["dn_center"]),
        "noise": Noise(kind, float(values["dn_sigma" if kind == "gaussian" else "dn_p"])),
        "train_noisy": bool(values["dn_train_noisy"]),
        "method": method,
        "ridge_alpha": float(values["dn_ridge"]) if method == "ridge" else 1.0,
    }


def within_budget(request: str, cost: budget.Cost) -> bool:
    """Whether ``request`` (named with its sizes) fits the per-request budget
    (:mod:`kpca_core.budget`); if not, an error box says what to reduce."""
    if not cost.fits:
        st.error(cost.refusal(request))
    return cost.fits
