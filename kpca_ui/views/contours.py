"""The Contours view's settings, presets and controls (Schölkopf, Smola & Müller 1998, Fig. 2).

:data:`SETTINGS` declares every setting once; :func:`columns` turns their values
(the page's, a preset's, the warm-up's) into the grid's columns, and
:mod:`kpca_ui.views.contours_grid` draws them.  The page, ``app_pages/contours.py``,
is the layout.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import streamlit as st

from kpca_core import contours as ct
from kpca_core.figures.contours import FIGURE_PX
from kpca_core.figures.style import is_narrow
from kpca_ui.points import picker
from kpca_ui.presenter import presenter_mode, slide_mode
from kpca_ui.screen import content_px
from kpca_ui.settings import Setting, Settings, choice, flag, literal, number
from kpca_ui.shell import camera
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
_LOW, _HIGH = ct.LIMITS["sigma"]
SIGMAS = tuple(
    round(mantissa * 10.0**exponent, 6)
    for exponent in range(math.floor(math.log10(_LOW)), math.floor(math.log10(_HIGH)) + 1)
    for mantissa in (1, 1.5, 2, 3, 5, 7)
    if _LOW <= mantissa * 10.0**exponent <= _HIGH
)
"""The widths σ the slider offers, on a log scale: over the widths a column may have
(:data:`kpca_core.contours.LIMITS`)."""
RESOLUTIONS = (40, 60, 80, 100, 150, 200)
SCREEN = "ct_screen"
"""Key of the listener that measures the page's width (:mod:`kpca_ui.screen`)."""
FIXED = {"degree": "ct_degree", "gamma": "ct_gamma", "c": "ct_coef0", "sigma": "ct_sigma"}
"""The setting of each kernel parameter, when the columns do not sweep it."""


def switched(kernel: str) -> dict[str, Any]:
    """The settings a switch to ``kernel`` sets: the columns sweep its first parameter, at
    their usual values (the kernel's callback; the warm-up's switches from each preset)."""
    options = ct.SWEEPABLE[kernel]
    values = {"ct_values": ct.DEFAULT_VALUES[(kernel, options[0])]} if options else {}
    return {"ct_sweep": options[0] if options else "none", **values}


def presses(values: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The settings each press the grid's chart draws ahead sets, from ``values``: each preset
    button's (its widget key) that changes them and each other kernel's of the select box
    (``ct_kernel=`` its label).  A press that changes nothing is left out: its run would send
    the chart the same figure, so the one drawn ahead would stay."""
    pressed = {
        f"ct_preset_{name}": dict(preset.values)
        for name, preset in PRESETS.items()
        if any(values.get(key) != value for key, value in preset.values.items())
    }
    for kernel, label in KERNELS.items():
        if kernel != values["ct_kernel"]:
            pressed[f"ct_kernel={label}"] = {"ct_kernel": kernel, **switched(kernel)}
    return pressed


def _reset_sweep() -> None:
    for key, value in switched(SETTINGS.value("ct_kernel")).items():
        SETTINGS.keep(key, value)


def _reset_values() -> None:
    """The sweep's callback: its usual values."""
    kernel, sweep = SETTINGS.value("ct_kernel"), SETTINGS.value("ct_sweep")
    if sweep != "none":
        SETTINGS.keep("ct_values", ct.DEFAULT_VALUES[(kernel, sweep)])


SETTINGS = Settings(
    "ct",
    "contours",
    *picker("ct", live=True),
    choice("ct_kernel", "Kernel", KERNELS, cost="fit"),
    choice(
        "ct_sweep",
        "Columns sweep",
        SWEEP_NAMES,
        help="Which kernel parameter changes from column to column.",
        cost="fit",
    ),
    Setting(
        "ct_values",
        "Values (comma-separated)",
        "text",
        ct.DEFAULT_VALUES[("poly", "degree")],
        help=f"At most {ct.MAX_COLUMNS} values, e.g. 1, 2, 3, 4.",
        cost="fit",
    ),
    number("ct_k", "Components", 1, ct.MAX_COMPONENTS, 3, live=True, stepping=True),
    flag(
        "ct_center",
        "Centre in F",
        True,
        help="Centre the mapped data in feature space (eq. 49).",
        cost="fit",
    ),
    flag(
        "ct_pca",
        "Add linear PCA",
        widget="checkbox",
        help="Add scikit-learn's linear PCA as a first column, for comparison.",
        cost="fit",
    ),
    number("ct_degree", "Degree d", *ct.LIMITS["degree"], 2, live=True, cost="fit"),
    number(
        "ct_gamma",
        "Scale γ",
        *ct.LIMITS["gamma"],
        1.0,
        step=0.1,
        format="%g",
        widget="number",
        cost="fit",
    ),
    number(
        "ct_coef0",
        "Offset c",
        *ct.LIMITS["c"],
        0.0,
        step=0.5,
        format="%g",
        widget="number",
        cost="fit",
    ),
    choice(
        "ct_sigma",
        "Width σ (log scale)",
        {sigma: f"{sigma:g}" for sigma in SIGMAS},
        default=1.0,
        widget="select_slider",
        live=True,
        cost="fit",
    ),
    choice("ct_res", "Grid resolution", RESOLUTIONS, default=100, widget="select_slider"),
    choice("ct_pcol", "Column", ()),  # the columns' labels: settled by the projection
    choice("ct_pi", "Horizontal: kPC", range(1, ct.MAX_COMPONENTS + 1)),
    choice("ct_pj", "Vertical: kPC", range(1, ct.MAX_COMPONENTS + 1), default=2),
    camera("ct"),
)


@dataclass(frozen=True)
class Preset:
    """A button's settings: the papers' figures, the three rings."""

    label: str
    values: Mapping[str, Any]
    help: str


_KEPT = ("ct_draw", "ct_pcol", "ct_pi", "ct_pj", "ct_img")
"""What a preset leaves as it is: a drawing, and the picture's own settings (projection, camera)."""
_DEFAULTS = {k: v for k, v in SETTINGS.defaults.items() if k not in _KEPT}
_FIG2 = {**_DEFAULTS, "ct_data": "parabola", "ct_n": 300, "ct_noise": 0.2, "ct_seed": 0}
_RINGS = {
    **_DEFAULTS,
    "ct_data": "three_rings",
    "ct_n": 300,
    "ct_noise": 0.25,
    "ct_seed": 0,
    "ct_kernel": "rbf",
    "ct_sweep": "sigma",
    "ct_values": "0.5, 1, 2",
    "ct_pca": True,
}
PRESETS = {
    # Schölkopf et al. 1998, Fig. 2: parabola, (x·y)^d for d = 1…4, components 1–3.
    "fig2": Preset(
        "Schölkopf et al. 1998, Fig. 2",
        _FIG2,
        "Parabola, homogeneous polynomial kernels of degree 1–4, components 1–3.",
    ),
    # Three rings and Gaussian kernels σ = 0.5, 1, 2: centred, the radius is kPC 3 at σ = 2
    # (kpca_ui/views/rings.py says what the picture shows).
    "rings": Preset("Three rings, Gaussian", _RINGS, RINGS_HELP),
    # Deręgowski & Krzyśko, Fig. 5: three rings, exp(−c‖x−y‖²) with c = 0.017, centred and
    # uncentred side by side (the section of kpca_ui/views/rings.py).
    "dk5": Preset(
        "Deręgowski & Krzyśko, Fig. 5",
        {**_RINGS, "ct_values": f"{DK_SIGMA:g}", "ct_pca": False},
        "Three rings at their c = 0.017: the components centred and not centred in "
        "feature space, side by side, and which of them carries the radius.",
    ),
}
"""The preset buttons, in order."""


@dataclass(frozen=True)
class Columns:
    """The grid's columns as the settings give them."""

    spec: ct.KernelSpec
    """The kernel, with the parameters the columns do not sweep."""
    parameter: str | None
    values: tuple[float, ...]
    pca: bool
    center: bool
    n_components: int
    resolution: int

    @property
    def specs(self) -> tuple[ct.KernelSpec, ...]:
        """Every column's kernel (only the parameters it uses: a cache's key), linear PCA's
        first if it is added."""
        specs = [spec.used() for spec in ct.sweep_specs(self.spec, self.parameter, self.values)]
        return (ct.KernelSpec("pca"), *specs) if self.pca else tuple(specs)


def columns(values: Mapping[str, Any]) -> Columns:
    """The grid's columns from the settings' ``values`` (:class:`ValueError` for values of
    the sweep it cannot use)."""
    kernel, sweep = values["ct_kernel"], values["ct_sweep"]
    parameter = None if sweep == "none" or sweep not in ct.SWEEPABLE[kernel] else sweep
    spec = ct.KernelSpec(kernel)
    for name in ct.SWEEPABLE[kernel]:
        if name != parameter:
            spec = spec.with_value(name, values[FIXED[name]])
    swept = ct.parse_values(values["ct_values"], parameter) if parameter else ()
    return Columns(
        spec,
        parameter,
        swept,
        bool(values["ct_pca"]),
        bool(values["ct_center"]),
        int(values["ct_k"]),
        int(values["ct_res"]),
    )


def _usable_values() -> str | None:
    """Before the values box is drawn: values the sweep cannot use (from a link, or typed)
    are replaced by the sweep's defaults, in the box and in the link; what was wrong."""
    kernel, sweep = SETTINGS.value("ct_kernel"), SETTINGS.value("ct_sweep")
    if sweep == "none":
        return None
    try:
        ct.parse_values(SETTINGS.value("ct_values"), sweep)
    except ValueError as error:
        default = ct.DEFAULT_VALUES[(kernel, sweep)]
        SETTINGS.keep("ct_values", default)
        return (
            f"Values of {SWEEP_NAMES[sweep]}: {literal(str(error), 80)}. Showing {default} instead."
        )
    return None


def kernel_controls(fold: bool = False) -> Columns:
    """The kernel, the swept parameter and its values, and the grid's settings.

    On a phone's page (measured, :data:`SCREEN`) they stack into a column taller than
    the screen, so they are folded into one expander and the figure comes first; so
    too with ``fold`` (a drawing: its canvas and the grid it refits on one screen, a
    lesson's slide too).
    """
    phone = is_narrow(content_px(SCREEN, FIGURE_PX)) and not presenter_mode()
    folded = phone or (fold and (slide_mode() or not presenter_mode()))
    with st.expander("Kernel and columns", icon=":material/tune:") if folded else nullcontext():
        top = st.columns([2, 1.4, 1.6, 1.4])
        kernel = SETTINGS.draw("ct_kernel", top[0], on_change=_reset_sweep)
        options = (*ct.SWEEPABLE[kernel], "none")
        SETTINGS.settle("ct_sweep", options, options[0])
        if not presenter_mode():
            top[0].caption(FORMULAS[kernel])
        sweep = SETTINGS.draw("ct_sweep", top[1], options=options, on_change=_reset_values)
        replaced = _usable_values()
        SETTINGS.draw("ct_values", top[2], disabled=sweep == "none")
        SETTINGS.draw("ct_k", top[3])
        fixed = st.columns(5)
        SETTINGS.draw("ct_center", fixed[3])
        SETTINGS.draw("ct_pca", fixed[3])
        if replaced:
            st.error(replaced)
        places = {"degree": 0, "gamma": 1, "c": 2, "sigma": 0}
        for name in ct.SWEEPABLE[kernel]:
            if name != sweep:
                SETTINGS.draw(FIXED[name], fixed[places[name]])
        chosen = columns(SETTINGS.values())
        if kernel in ("rbf", "laplacian") and not presenter_mode():
            widths = chosen.values if chosen.parameter == "sigma" else (chosen.spec.sigma,)
            gammas = [chosen.spec.with_value("sigma", s).engine_gamma for s in widths]
            place = fixed[0] if chosen.parameter == "sigma" else fixed[1]
            place.caption("γ = " + ", ".join(f"{gamma:.4g}" for gamma in gammas))
        SETTINGS.draw("ct_res", fixed[4])
        return chosen


def preset_buttons() -> None:
    """The buttons that set the papers' figures or the three rings (none in presenter mode)."""
    if presenter_mode():
        return
    with st.container(horizontal=True, key="ct_presets"):
        for name, preset in PRESETS.items():
            st.button(
                preset.label,
                key=f"ct_preset_{name}",
                on_click=SETTINGS.apply,
                args=(preset.values,),
                help=preset.help,
            )
