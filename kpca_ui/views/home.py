"""The Home view's contents: the five steps of kernel PCA, the views, the gallery of figures
(each card a link into a view with a paper's settings)."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.figures.words import Description
from kpca_ui.chart import chart
from kpca_ui.presenter import KEY as PRESENTER
from kpca_ui.presenter import presentable, presenter_mode, prose
from kpca_ui.settings import Settings
from kpca_ui.shell import NAVIGATION
from kpca_ui.views import contours, denoising, features, spectrum
from kpca_ui.views import home_pictures as pictures

STEPS = [
    (
        "1. Kernel matrix",
        r"K_{ij} = k(\mathbf{x}_i, \mathbf{x}_j) = (\Phi(\mathbf{x}_i)\cdot\Phi(\mathbf{x}_j))"
        r"\quad (10)",
        "Compare every pair of the M training points with the kernel.",
    ),
    (
        "2. Centring in feature space",
        r"\tilde K = K - 1_M K - K 1_M + 1_M K 1_M \quad (49)",
        "Subtract the mean of the mapped points, through the kernel alone; every entry of "
        "the M × M matrix 1_M is 1/M.",
    ),
    (
        "3. Eigenproblem",
        r"M\lambda\,\boldsymbol\alpha = \tilde K\boldsymbol\alpha \quad (12)",
        "The eigenvalues λ are the variances along the principal axes in F.",
    ),
    (
        "4. Normalisation",
        r"M\lambda_k\,(\boldsymbol\alpha^k\cdot\boldsymbol\alpha^k) = 1 \quad (16, 50)",
        "Scale each α so that its axis V^k = Σ α_i Φ(x_i) has unit length in F.",
    ),
    (
        "5. Projection",
        r"(\mathbf V^k\cdot\Phi(\mathbf t)) = \sum_{i=1}^M \alpha_i^k\,"
        r"\tilde k(\mathbf x_i, \mathbf t) \quad (17, 51)",
        "The k-th nonlinear principal component of a new point t.",
    ),
]

# what each view shows (a caption), by its script; its link's name and icon: shell.NAVIGATION
VIEWS = {
    "contours": "kernel principal components as contour lines on 2-D data (Fig. 2)",
    "spectrum": "how the kernel width shapes the eigenvalues",
    "denoising": "linear vs kernel PCA on noisy handwritten digits (Mika et al. 1999)",
    "demo": "can a computer clean up handwriting? (no maths)",
    "features": "a linear classifier on kernel components, the paper's Table 2 on USPS",
    "lesson": "kernel PCA in 10 steps, for a lecture (step with ← / →)",
}


@dataclass(frozen=True)
class Card:
    """One gallery card: a link into a view (its ``settings``) opened with ``values`` (the
    others at their defaults), and its picture's name in :data:`.home_pictures.BUILDERS`."""

    settings: Settings
    title: str
    values: Mapping[str, Any]
    caption: str
    picture: str

    @property
    def page(self) -> str:
        return f"app_pages/{self.settings.page}.py"

    @property
    def query(self) -> dict[str, str]:
        """The link's parameters."""
        return self.settings.link(self.values)


GALLERY: list[Card] = [
    Card(
        contours.SETTINGS,
        "Schölkopf et al. 1998, Fig. 2",
        contours.PRESETS["fig2"].values,
        "Polynomial kernels of degree 1–4 on a noisy parabola. Linear PCA (degree 1) has "
        "only two non-zero eigenvalues; with degree 2 the third component picks up the noise.",
        "fig2",
    ),
    Card(
        spectrum.SETTINGS,
        "The spectrum as the width varies",
        {"sp_data": "three_rings"},
        "Three rings: narrow Gaussians make every point its own component, wide ones behave "
        "like linear PCA, with the first two components taking all the variance.",
        "rings",
    ),
    Card(
        denoising.SETTINGS,
        "Mika et al. 1999, Fig. 1",
        {"dn_tab": "2-D toy"},
        "A half circle and a square outline: kernel PCA moves noisy points back onto the "
        "curve, linear PCA can only put them on a line.",
        "toy",
    ),
    Card(
        denoising.SETTINGS,
        "Mika et al. 1999, Fig. 4 (Gaussian noise)",
        {"dn_tab": "Fig. 4 grid"},
        "Handwritten digits with Gaussian noise σ = 0.5, rebuilt from n = 1, 4, 16, 64, 256 "
        "components: kernel PCA gives clean digits where linear PCA keeps the noise.",
        "gaussian_digits",
    ),
    Card(
        denoising.SETTINGS,
        "Mika et al. 1999, Fig. 4 (speckle noise)",
        {"dn_tab": "Fig. 4 grid", "dn_noise": "speckle"},
        "The same with speckle noise p = 0.4: each pixel turns black or white.",
        "speckle_digits",
    ),
    Card(
        contours.SETTINGS,
        "Deręgowski & Krzyśko, Fig. 5",
        contours.PRESETS["dk5"].values,
        "Three rings at their c = 0.017: not centred in feature space, kPC 1 orders the "
        "points by radius, as the paper says; centred, the radius is kPC 3.",
        "fig5",
    ),
    Card(
        features.SETTINGS,
        "Schölkopf et al. 1998, Table 2",
        {"ft_tab": "USPS: Table 2"},
        "A linear SVM on polynomial kernel components of USPS digits: far fewer test errors "
        "than on the same number of linear components, computed here beside the paper's.",
        "table2",
    ),
]
"""The gallery, in order: append a :class:`Card` to add one."""


DEMO_ENTRY = "No maths: watch a computer clean up handwriting"  # first under the title


def demo_entry() -> None:
    """The Demo's entry at the top of the page: a large link and one line saying what it is."""
    with st.container(border=True, key="home_demo"):
        st.page_link(
            "app_pages/demo.py", label=f"**{DEMO_ENTRY}**", icon=":material/auto_fix_high:"
        )
        if prose():
            st.caption(
                "A noisy handwritten digit cleaned up two ways, side by side, and how much of "
                "the noise each removed. You can also write your own digit."
            )


def five_steps() -> None:
    """Each step of kernel PCA: a heading, its equation and a line of words."""
    for title, equation, words in STEPS:
        st.subheader(title)
        st.latex(equation)
        if prose():
            st.caption(words)


def view_links() -> None:
    """A link into each view, with a line saying what it shows."""
    for page, name, icon in NAVIGATION:
        if page in VIEWS:
            st.page_link(f"app_pages/{page}.py", label=name, icon=icon)
            if prose():
                st.caption(VIEWS[page])


def classic_figures_gallery(per_row: int = 3) -> None:
    """A card per classic figure with its picture, opening its view with the paper's settings."""
    keep = {PRESENTER: "true"} if presenter_mode() else {}  # a lecturer stays in presenter mode
    for start in range(0, len(GALLERY), per_row):
        row = GALLERY[start : start + per_row]
        for column, card in zip(st.columns(per_row), row, strict=False):
            with column.container(border=True):
                # the card's title stays shown in presenter mode
                st.markdown(f"<p><b>{html.escape(card.title)}</b></p>", unsafe_allow_html=True)
                chart(  # in presenter mode as much larger as the room is, as a figure
                    presentable(pictures.picture(card.picture), height=pictures.HEIGHT_PX),
                    key=f"home_pic_{start}_{card.picture}",
                    config={"staticPlot": True},
                    description=Description(card.title, card.caption),
                )
                if prose():
                    st.caption(card.caption)
                st.page_link(
                    card.page,
                    label="Open",
                    icon=":material/open_in_new:",
                    query_params={**card.query, **keep},
                )
