"""Home: kernel PCA in five steps, and the way into each view."""

import streamlit as st

from pages.common import require_app_shell

require_app_shell()

st.title("Kernel PCA Explorer")
st.markdown(
    "Kernel PCA finds the directions of largest variance of your data after a "
    "nonlinear map Φ into a feature space F, without ever computing Φ: every "
    "step needs only the kernel k(x, y) = Φ(x)·Φ(y). "
    "Equation numbers follow Schölkopf, Smola & Müller (1998)."
)

STEPS = [
    (
        "1. Kernel matrix",
        r"K_{ij} = k(\mathbf{x}_i, \mathbf{x}_j) = (\Phi(\mathbf{x}_i)\cdot\Phi(\mathbf{x}_j))"
        r"\qquad (10)",
        "Compare every pair of the M training points with the kernel.",
    ),
    (
        "2. Centring in feature space",
        r"\tilde K = K - 1_M K - K 1_M + 1_M K 1_M,\quad (1_M)_{ij} = 1/M \qquad (49)",
        "Subtract the mean of the mapped points, through the kernel alone.",
    ),
    (
        "3. Eigenproblem",
        r"M\lambda\,\boldsymbol\alpha = \tilde K\boldsymbol\alpha \qquad (12)",
        "The eigenvalues λ are the variances along the principal axes in F.",
    ),
    (
        "4. Normalisation",
        r"M\lambda_k\,(\boldsymbol\alpha^k\cdot\boldsymbol\alpha^k) = 1 \qquad (16, 50)",
        "Scale each α so that its axis V^k = Σ α_i Φ(x_i) has unit length in F.",
    ),
    (
        "5. Projection",
        r"(\mathbf V^k\cdot\Phi(\mathbf t)) = \sum_{i=1}^M \alpha_i^k\,"
        r"\tilde k(\mathbf x_i, \mathbf t) \qquad (17, 51)",
        "The k-th nonlinear principal component of a new point t.",
    ),
]

for title, equation, words in STEPS:
    st.subheader(title)
    st.latex(equation)
    st.caption(words)

st.header("The views")
VIEWS = [
    (
        "pages/contours.py",
        "Contours: kernel principal components as contour lines on 2-D data (Fig. 2)",
        ":material/line_curve:",
    ),
    (
        "pages/spectrum.py",
        "Spectrum: how the kernel width shapes the eigenvalues",
        ":material/bar_chart:",
    ),
    (
        "pages/denoising.py",
        "Denoising: linear vs kernel PCA on noisy handwritten digits (Mika et al. 1999)",
        ":material/blur_off:",
    ),
]
for page, label, icon in VIEWS:
    st.page_link(page, label=label, icon=icon)
