"""The Demo page's work: the model, the measured cases, the picture of one case.

For someone who does not program: one handwritten digit, the same with noise,
and the noise removed by the classic method (linear PCA) and by the kernel
method (kernel PCA), at one height with their titles in one row. Which digits
and how much noise is measured, not chosen by hand (:mod:`kpca_core.demo`).
The page, ``app_pages/demo.py``, is the layout.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.demo import DemoCases, measure, most_convincing, noisy_digits
from kpca_core.denoise import DEMO_N, PRESETS, DigitDenoiser, DigitSubsets, ImageGrid, Noise
from kpca_core.figures import denoise as figures
from kpca_core.figures.style import export_config
from kpca_ui.links import Domain
from kpca_ui.presenter import presentable
from kpca_ui.views.denoising import DEMO_LEVELS
from kpca_ui.views.denoising_cache import digit_subsets, fitted_model, usps_digits

LINK_DOMAINS: dict[str, Domain] = {}
"""The page takes no setting from a link: it has none."""
NEXT = "dm_next"
"""Key of the "Show me another" button."""
COUNT = "dm_case"
"""Session key of the shown case's place among the convincing ones."""
TITLES = ("Written<br>by hand", "With<br>noise", "Classic<br>method", "Kernel<br>method")
"""Two short lines each, so that they stay apart on a phone's 390 px."""
LEVEL_WORDS = {level: words for words, level in DEMO_LEVELS.items()}
PRESET = next(iter(PRESETS.values()))
"""The model of the Denoising page's default: Mika et al.'s Fig. 4 settings."""


def model_and_digits() -> tuple[DigitDenoiser, DigitSubsets]:
    """The Denoising page's default model and digits (shared with it through the caches)."""
    data = usps_digits()
    subsets = digit_subsets(
        data[0].source, PRESET.n_train_per_class, PRESET.n_test_per_class, 0, data
    )
    return fitted_model(model_key(subsets.source), subsets), subsets


def model_key(source: str) -> tuple:
    """The key of the Demo's model in the Denoising page's cache of fitted models."""
    preset = (PRESET.n_train_per_class, PRESET.n_test_per_class, PRESET.c, PRESET.center)
    return (source, *preset, 0, None, 0.0)


@st.cache_resource(show_spinner=False, max_entries=2)  # the page shows a spinner
def convincing_cases(key: tuple, _model: DigitDenoiser, _subsets: DigitSubsets) -> DemoCases:
    """The noise level with the most convincing test digits, measured once per model
    (``key``, :func:`model_key`: cases measured for another model are never shown)."""
    levels = [level for level in DEMO_LEVELS.values() if level > 0]
    return most_convincing(measure(_model, _subsets.X_test, level) for level in levels)


def case_figure(model: DigitDenoiser, subsets: DigitSubsets, index: int, level: float) -> go.Figure:
    """Four pictures of test digit ``index``: clean, noisy, classic and kernel method."""
    clean = subsets.X_test[index : index + 1]
    noisy = noisy_digits(subsets.X_test, np.array([index]), Noise("gaussian", level))
    linear = model.reconstruct_linear(noisy, DEMO_N["linear"])
    kernel, _ = model.reconstruct_kernel(noisy, DEMO_N["kernel"])
    images = np.stack([clean, noisy, linear, kernel], axis=1)  # (1, 4, pixels)
    grid = ImageGrid(images, subsets.side, ("",), TITLES)
    return figures.demo_figure(grid)


def shown_case(cases: DemoCases) -> int:
    """The test digit to show: the next convincing one after each "Show me another"."""
    place = st.session_state.get(COUNT, 0)
    return int(cases.chosen[place % len(cases.chosen)])


def another() -> None:
    """The "Show me another" button's callback: the next convincing case."""
    st.session_state[COUNT] = st.session_state.get(COUNT, 0) + 1


def show(model: DigitDenoiser, subsets: DigitSubsets, cases: DemoCases) -> None:
    """The case's picture, full width, and the button for another."""
    index = shown_case(cases)
    st.plotly_chart(
        presentable(case_figure(model, subsets, index, cases.level)),
        key="dm_chart",
        config=export_config(f"demo_digit{index}"),
    )
    st.button("Show me another", key=NEXT, on_click=another, icon=":material/refresh:")


def hide_sidebar() -> None:
    """No sidebar on this page: nothing to set, nothing to explain."""
    st.html(
        "<style>[data-testid='stSidebar'], [data-testid='stSidebarCollapsedControl'], "
        "[data-testid='stExpandSidebarButton'] { display: none; }</style>"
    )
