"""The Contours view's settings: kernels, presets and the kernel controls above the grid.

Schölkopf, Smola & Müller (1998), Fig. 2.  The cached fits and the figures are
in :mod:`kpca_ui.views.contours_grid`; the page, ``app_pages/contours.py``, is the layout.
"""

from __future__ import annotations

import streamlit as st

from kpca_core import contours as ct
from kpca_core.figures.contours import FIGURE_PX
from kpca_core.figures.style import is_narrow
from kpca_ui.links import choice, flag, integer, literal, number, replace_with_default, text
from kpca_ui.points import link_domains
from kpca_ui.presenter import presenter_mode, slide_mode
from kpca_ui.screen import content_px
from kpca_ui.shell import camera_domain
from kpca_ui.views.rings import DK_SIGMA, RINGS_HELP

KERNELS = {
    "poly": "Polynomial",
    "rbf": "Gaussian",
    "laplacian": "Laplacian",
    "sigmoid": "Sigmoid",
    "linear": "Linear",
}
FORMULAS = {
    "poly": "k(x, y) = (γ x·y + c)^d (eq. 22 for γ = 1, c = 0)",
    "rbf": "k(x, y) = exp(−‖x−y‖²/(2σ²)) (eq. 62)",
    "laplacian": "k(x, y) = exp(−‖x−y‖₁/σ)",
    "sigmoid": "k(x, y) = tanh(γ x·y + c) (eq. 63)",
    "linear": "k(x, y) = x·y",
}
SWEEP_NAMES = {
    "degree": "degree d",
    "c": "offset c",
    "gamma": "scale γ",
    "sigma": "width σ",
    "none": "nothing (one column)",
}
SIGMAS = [
    round(mantissa * 10.0**exponent, 6)
    for exponent in range(-3, 4)
    for mantissa in (1, 1.5, 2, 3, 5, 7)
    if mantissa * 10.0**exponent <= 1000
]
RESOLUTIONS = [40, 60, 80, 100, 150, 200]
SCREEN = "ct_screen"
"""Key of the listener that measures the page's width (:mod:`kpca_ui.screen`)."""
DEFAULTS = {
    "ct_kernel": "poly",
    "ct_sweep": "degree",
    "ct_values": ct.DEFAULT_VALUES[("poly", "degree")],
    "ct_k": 3,
    "ct_center": True,
    "ct_pca": False,
    "ct_degree": 2,
    "ct_gamma": 1.0,
    "ct_coef0": 0.0,
    "ct_sigma": 1.0,
    "ct_res": 100,
}
# Schölkopf et al. 1998, Fig. 2: parabola, (x·y)^d for d = 1…4, components 1–3.
FIG2 = {
    "ct_data": "parabola",
    "ct_n": 300,
    "ct_noise": 0.2,
    "ct_seed": 0,
    **DEFAULTS,
}
# Three rings and Gaussian kernels σ = 0.5, 1, 2: centred, the radius is kPC 3 at σ = 2
# (kpca_ui/views/rings.py says what the picture shows).
RINGS = {
    "ct_data": "three_rings",
    "ct_n": 300,
    "ct_noise": 0.25,
    "ct_seed": 0,
    **DEFAULTS,
    "ct_kernel": "rbf",
    "ct_sweep": "sigma",
    "ct_values": "0.5, 1, 2",
    "ct_pca": True,
}
# Deręgowski & Krzyśko, Fig. 5: three rings, exp(−c‖x−y‖²) with c = 0.017, centred
# and uncentred side by side (the section of kpca_ui/views/rings.py).
DK_FIG5 = {**RINGS, "ct_values": f"{DK_SIGMA:g}", "ct_pca": False}


LINK_DOMAINS = {
    **link_domains("ct"),
    "ct_kernel": choice(KERNELS.values()),
    "ct_sweep": choice(SWEEP_NAMES.values()),
    "ct_values": text(),
    "ct_k": integer(1, ct.MAX_COMPONENTS),
    "ct_center": flag(),
    "ct_pca": flag(),
    "ct_degree": integer(1, 10),
    "ct_gamma": number(1e-6, 1e6),
    "ct_coef0": number(-100.0, 100.0),
    "ct_sigma": choice(f"{sigma:g}" for sigma in SIGMAS),
    "ct_res": choice(RESOLUTIONS),
    "ct_pcol": text(),  # the columns' labels, checked by the projection's box
    "ct_pi": integer(1, ct.MAX_COMPONENTS),
    "ct_pj": integer(1, ct.MAX_COMPONENTS),
    "ct_img": camera_domain(),
}
"""What each widget of the view accepts from a link (:func:`kpca_ui.links.sanitise_link`)."""


def _apply(preset: dict) -> None:
    for key, value in preset.items():
        st.session_state[key] = value


def _reset_sweep() -> None:
    kernel = st.session_state["ct_kernel"]
    options = ct.SWEEPABLE[kernel]
    st.session_state["ct_sweep"] = options[0] if options else "none"
    if options:
        st.session_state["ct_values"] = ct.DEFAULT_VALUES[(kernel, options[0])]


def _reset_values() -> None:
    kernel, sweep = st.session_state["ct_kernel"], st.session_state["ct_sweep"]
    if sweep != "none":
        st.session_state["ct_values"] = ct.DEFAULT_VALUES[(kernel, sweep)]


def spec_key(spec: ct.KernelSpec) -> tuple:
    """Only the parameters the kernel uses, so other widgets do not refit it."""
    used = {
        "poly": (spec.degree, spec.gamma, spec.coef0, 1.0),
        "sigmoid": (2, spec.gamma, spec.coef0, 1.0),
        "rbf": (2, 1.0, 0.0, spec.sigma),
        "laplacian": (2, 1.0, 0.0, spec.sigma),
    }.get(spec.kernel, (2, 1.0, 0.0, 1.0))
    return (spec.kernel, *used)


def _replace_unusable_values(kernel: str, parameter: str | None) -> str | None:
    """Before the values box is drawn: values the sweep cannot use (from a link, or typed)
    are replaced by the sweep's defaults, in the box and in the URL; what was wrong, or None.
    """
    given = st.session_state.get("ct_values", st.query_params.get("ct_values"))
    if parameter is None or given is None:
        return None
    try:
        ct.parse_values(given, parameter)
    except ValueError as error:
        default = ct.DEFAULT_VALUES[(kernel, parameter)]
        replace_with_default("ct_values", default)
        return (
            f"Values of {SWEEP_NAMES[parameter]}: {literal(str(error), 80)}. "
            f"Showing {default} instead."
        )
    return None


def kernel_controls(
    fold: bool = False,
) -> tuple[ct.KernelSpec, str | None, tuple[float, ...], int, bool, bool, int]:
    """The kernel, the swept parameter and its values, and the grid's settings.

    On a phone's page (measured, :data:`SCREEN`) they stack into a column taller than
    the screen, so they are folded into one expander and the figure comes first; so
    too with ``fold`` (a drawing: its canvas and the grid it refits on one screen, a
    lesson's slide too).
    """
    phone = is_narrow(content_px(SCREEN, FIGURE_PX)) and not presenter_mode()
    if phone or (fold and (slide_mode() or not presenter_mode())):
        with st.expander("Kernel and columns", icon=":material/tune:"):
            return _kernel_controls()
    return _kernel_controls()


def _kernel_controls() -> tuple[ct.KernelSpec, str | None, tuple[float, ...], int, bool, bool, int]:
    # Initial values are the widgets' own defaults (value=/index=), so that a URL
    # parameter equal to them means the same thing as no parameter.
    top = st.columns([2, 1.4, 1.6, 1.4])
    kernel = top[0].selectbox(
        "Kernel",
        list(KERNELS),
        format_func=KERNELS.get,
        index=list(KERNELS).index(DEFAULTS["ct_kernel"]),
        key="ct_kernel",
        on_change=_reset_sweep,
        bind="query-params",
    )
    options = [*ct.SWEEPABLE[kernel], "none"]
    if st.session_state.get("ct_sweep", options[0]) not in options:
        st.session_state["ct_sweep"] = options[0]
    top[0].caption(FORMULAS[kernel])
    sweep = top[1].selectbox(
        "Columns sweep",
        options,
        format_func=SWEEP_NAMES.get,
        key="ct_sweep",
        on_change=_reset_values,
        bind="query-params",
        help="Which kernel parameter changes from column to column.",
    )
    parameter = None if sweep == "none" else sweep
    replaced = _replace_unusable_values(kernel, parameter)
    text = top[2].text_input(
        "Values (comma-separated)",
        DEFAULTS["ct_values"],
        key="ct_values",
        disabled=parameter is None,
        bind="query-params",
        help=f"At most {ct.MAX_COLUMNS} values, e.g. 1, 2, 3, 4.",
    )
    n_components = top[3].slider(
        "Components", 1, ct.MAX_COMPONENTS, DEFAULTS["ct_k"], key="ct_k", bind="query-params"
    )
    fixed = st.columns(5)
    center = fixed[3].toggle(
        "Centre in F",
        DEFAULTS["ct_center"],
        key="ct_center",
        bind="query-params",
        help="Centre the mapped data in feature space (eq. 49).",
    )
    pca = fixed[3].checkbox(
        "Add linear PCA",
        DEFAULTS["ct_pca"],
        key="ct_pca",
        bind="query-params",
        help="Add scikit-learn's linear PCA as a first column, for comparison.",
    )

    values = ct.parse_values(text, parameter) if parameter is not None else ()
    if replaced:
        st.error(replaced)

    spec = ct.KernelSpec(kernel)
    if kernel == "poly" and parameter != "degree":
        degree = fixed[0].slider(
            "Degree d", 1, 10, DEFAULTS["ct_degree"], key="ct_degree", bind="query-params"
        )
        spec = spec.with_value("degree", degree)
    if kernel in ("poly", "sigmoid") and parameter != "gamma":
        gamma = fixed[1].number_input(
            "Scale γ",
            min_value=1e-6,
            max_value=1e6,
            value=DEFAULTS["ct_gamma"],
            step=0.1,
            format="%g",
            key="ct_gamma",
            bind="query-params",
        )
        spec = spec.with_value("gamma", gamma)
    if kernel in ("poly", "sigmoid") and parameter != "c":
        coef0 = fixed[2].number_input(
            "Offset c",
            min_value=-100.0,
            max_value=100.0,
            value=DEFAULTS["ct_coef0"],
            step=0.5,
            format="%g",
            key="ct_coef0",
            bind="query-params",
        )
        spec = spec.with_value("c", coef0)
    if kernel in ("rbf", "laplacian") and parameter != "sigma":
        if st.session_state.get("ct_sigma", DEFAULTS["ct_sigma"]) not in SIGMAS:
            st.session_state["ct_sigma"] = DEFAULTS["ct_sigma"]
        sigma = fixed[0].select_slider(
            "Width σ (log scale)",
            SIGMAS,
            DEFAULTS["ct_sigma"],
            format_func=lambda value: f"{value:g}",
            key="ct_sigma",
            bind="query-params",
        )
        spec = spec.with_value("sigma", sigma)
        fixed[1].caption(f"γ = {spec.engine_gamma:.4g}")
    elif kernel in ("rbf", "laplacian"):
        fixed[0].caption(
            "γ = "
            + ", ".join(f"{spec.with_value('sigma', value).engine_gamma:.3g}" for value in values)
        )
    resolution = fixed[4].select_slider(
        "Grid resolution", RESOLUTIONS, DEFAULTS["ct_res"], key="ct_res", bind="query-params"
    )
    return spec, parameter, values, n_components, center, pca, resolution


def preset_buttons() -> None:
    """The buttons that set the papers' figures or the three rings."""
    presets = st.columns([1.3, 1, 1.5, 0.5])
    presets[0].button(
        "Schölkopf et al. 1998, Fig. 2",
        key="ct_preset_fig2",
        on_click=_apply,
        args=(FIG2,),
        help="Parabola, homogeneous polynomial kernels of degree 1–4, components 1–3.",
    )
    presets[1].button(
        "Three rings, Gaussian",
        key="ct_preset_rings",
        on_click=_apply,
        args=(RINGS,),
        help=RINGS_HELP,
    )
    presets[2].button(
        "Deręgowski & Krzyśko, Fig. 5",
        key="ct_preset_dk5",
        on_click=_apply,
        args=(DK_FIG5,),
        help="Three rings at their c = 0.017: the components centred and not centred in "
        "feature space, side by side, and which of them carries the radius.",
    )
