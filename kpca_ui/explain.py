"""The explanations beside the figures: "The maths" and "What am I looking at".

One entry per figure in :data:`EXPLANATIONS`, drawn under it by :func:`explain`.
Equation numbers are those of Schölkopf, Smola & Müller (1998) ("SSM") and of
Mika et al. (1999) ("Mika"), as in /work/shared/papers.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from kpca_ui.presenter import presenter_mode

MATHS = "The maths"
WORDS = "What am I looking at"


@dataclass(frozen=True)
class Explanation:
    """What one figure shows.

    Attributes
    ----------
    source : str
        Whose equation numbers these are.
    maths : tuple of (LaTeX, sentence) pairs
        Each equation the figure shows, numbered as in the paper, and one
        sentence on what it says.
    words : str or None
        The figure in plain language, for a reader who does not program;
        None where the page already says it.
    """

    source: str
    maths: tuple[tuple[str, str], ...]
    words: str | None = None


SSM = "Equation numbers: Schölkopf, Smola & Müller (1998)."
MIKA = "Equation numbers: Mika et al. (1999); SSM = Schölkopf, Smola & Müller (1998)."

# ------------------------------------------------------------- kernel PCA
KERNEL_MATRIX = (
    r"K_{ij} = k(\mathbf x_i, \mathbf x_j) = (\Phi(\mathbf x_i)\cdot\Phi(\mathbf x_j))"
    r"\qquad (10)",
    "The kernel compares every pair of the M data points: a dot product in the feature "
    "space F, computed without ever computing Φ.",
)
CENTRING = (
    r"\tilde K = K - 1_M K - K 1_M + 1_M K 1_M \qquad (49)",
    r"Centring in F, with $(1_M)_{ij} = 1/M$: the mean of the mapped points is subtracted, "
    "through the kernel alone.",
)
EIGENPROBLEM = (
    r"M\lambda_k\,\boldsymbol\alpha^k = \tilde K\boldsymbol\alpha^k \qquad (12)",
    r"$\lambda_k$ is the variance of the mapped data along the k-th principal axis "
    r"$\mathbf V^k$ of F; the eigenvalues of $\tilde K$ are $M\lambda_k$.",
)
NORMALISATION = (
    r"M\lambda_k\,(\boldsymbol\alpha^k\cdot\boldsymbol\alpha^k) = 1 \qquad (16, 50)",
    r"Scales $\boldsymbol\alpha^k$ so that the axis $\mathbf V^k = \sum_i \alpha_i^k"
    r"\tilde\Phi(\mathbf x_i)$ has length 1 in F.",
)
PROJECTION = (
    r"f_k(\mathbf t) = (\mathbf V^k\cdot\tilde\Phi(\mathbf t)) = \sum_{i=1}^M \alpha_i^k\,"
    r"\tilde k(\mathbf x_i, \mathbf t) \qquad (17, 51)",
    "The k-th nonlinear principal component of any point t: only kernel values are needed.",
)
TEST_CENTRING = (
    r"\tilde K^{\mathrm{test}} = K^{\mathrm{test}} - 1'_M K - K^{\mathrm{test}} 1_M"
    r" + 1'_M K 1_M \qquad (54)",
    "The centred kernel k̃(xᵢ, t) between the data and new points t (here: the grid), "
    r"with $(1'_M)_{ij} = 1/M$.",
)
SHARE = (
    r"\frac{\lambda_k}{\sum_j \lambda_j},\qquad \sum_j M\lambda_j = \operatorname{tr}\tilde K",
    "The share of the variance in F carried by component k (no equation number: it follows "
    "from (12)).",
)
GAUSSIAN = (
    r"k(\mathbf x, \mathbf y) = \exp\!\Big(-\frac{\|\mathbf x-\mathbf y\|^2}{2\sigma^2}\Big)"
    r"\qquad (62)",
    "The Gaussian kernel of width σ; the Laplacian uses ‖x−y‖₁/ℓ instead, the polynomial "
    r"kernel is $(\mathbf x\cdot\mathbf y + c)^d$ (22, 61).",
)

# -------------------------------------------------------------- denoising
MIKA_KERNEL = (
    r"k(\mathbf x, \mathbf y) = \exp\!\big(-\|\mathbf x-\mathbf y\|^2 / (N c)\big)",
    "The Gaussian kernel of the experiments (Mika Sec. 4), N = number of pixels. Eq. (10) "
    "below writes c for the whole denominator N c.",
)
LINEAR = (
    r"\hat{\mathbf x} = \bar{\mathbf x} + \sum_{k=1}^n "
    r"\big((\mathbf x-\bar{\mathbf x})\cdot\mathbf v_k\big)\,\mathbf v_k",
    r"Linear PCA: the noisy digit x projected onto the first n principal axes $\mathbf v_k$ of the "
    "training digits.",
)
BETA = (
    r"\beta_k = (\mathbf V^k\cdot\Phi(\mathbf x)) = \sum_{i=1}^{\ell}\alpha_i^k\,"
    r"k(\mathbf x, \mathbf x_i)\qquad \text{(SSM 17)}",
    "The first n kernel principal components of the noisy digit x (ℓ training digits).",
)
PROJECTOR = (
    r"P_n\Phi(\mathbf x) = \sum_{k=1}^n \beta_k \mathbf V^k \qquad (4)",
    "Its projection onto the first n axes in F: this is where the noise is removed.",
)
PREIMAGE = (
    r"\rho(\mathbf z) = \|\Phi(\mathbf z) - P_n\Phi(\mathbf x)\|^2 \qquad (5)",
    r"$P_n\Phi(\mathbf x)$ is usually no image of any digit, so the de-noised digit is "
    "the z whose image comes closest.",
)
FIXED_POINT = (
    r"\mathbf z_{t+1} = \frac{\sum_{i=1}^{\ell}\gamma_i\exp(-\|\mathbf z_t-\mathbf x_i\|^2/c)"
    r"\,\mathbf x_i}{\sum_{i=1}^{\ell}\gamma_i\exp(-\|\mathbf z_t-\mathbf x_i\|^2/c)},"
    r"\qquad \gamma_i = \sum_{k=1}^n\beta_k\alpha_i^k \qquad (10)",
    "The fixed-point iteration for Gaussian kernels, started from the noisy digit z₀ = x: a "
    "weighted mean of training digits, the weights favouring those similar to z. With "
    "'Centre in feature space' on, β and γ carry the centring terms of (49, 54); the learned "
    "pre-image, if chosen, replaces (10) by a kernel ridge regression back to pixels.",
)
ERROR = (
    r"E(n) = \frac{1}{L}\sum_{l=1}^{L}\big\|\mathbf z_l(n) - \mathbf x_l\big\|^2",
    "The error plotted: squared distance of each de-noised test digit to its clean original, "
    "summed over pixels (−1…1 scale), averaged over the L test digits.",
)
DENOISING = (MIKA_KERNEL, LINEAR, BETA, PROJECTOR, PREIMAGE, FIXED_POINT)
RHO_KERNEL = (
    r"\rho(\mathbf z) = k(\mathbf z, \mathbf z) - 2\sum_{k=1}^n\beta_k\sum_{i=1}^{\ell}"
    r"\alpha_i^k\,k(\mathbf z, \mathbf x_i) + \Omega \qquad (7)",
    "ρ through the kernel alone: what gradient descent minimises, and what the contours of "
    "the fixed point's animation show.",
)
DISTANCE_PREIMAGE = (
    r"\|\mathbf z - \mathbf x_i\|^2 = -c\,\ln\!\Big(1 - \tfrac12\,"
    r"\|P_n\Phi(\mathbf x) - \Phi(\mathbf x_i)\|^2\Big)",
    "Kwok & Tsang (2004): the feature-space distances to the nearest training points give "
    "input-space distances; z is placed among those points by multidimensional scaling, "
    "without iterating.",
)
RIDGE_PREIMAGE = (
    r"\mathbf z = \sum_{i=1}^{\ell} \mathbf w_i\,\kappa(\boldsymbol\beta, "
    r"\boldsymbol\beta(\mathbf x_i)),\quad \mathbf w = (\mathbf K_\beta + \alpha I)^{-1}X",
    "Bakır et al. (2004): a kernel ridge regression from the n components back to pixels, "
    "learned on the training points (scikit-learn's fit_inverse_transform).",
)

# --------------------------------------------------------------- features
POLYNOMIAL = (
    r"k(\mathbf x, \mathbf y) = (\mathbf x\cdot\mathbf y)^d \qquad (22)",
    "The homogeneous polynomial kernel of Table 2: its feature space holds every product of "
    "d pixels. Here divided by 256^d, which leaves the components' directions unchanged.",
)
LINEAR_SVM = (
    r"f_c(\mathbf t) = \sum_{k=1}^n w_{ck}\,(\mathbf V^k\cdot\tilde\Phi(\mathbf t)) + b_c,"
    r"\qquad \hat y = \arg\max_c f_c(\mathbf t)",
    "A linear classifier on the first n components, one machine per class against the rest; "
    "the class of t is that of the largest f_c (no equation number in SSM: Sect. 6.3 in words).",
)
SVM_OBJECTIVE = (
    r"\min_{\mathbf w, b}\ \tfrac12\|\mathbf w\|^2 + C\sum_i \max\big(0,\,1 - "
    r"y_i f(\mathbf t_i)\big)",
    "The linear support vector machine: a wide margin, against C times the margin errors; C "
    "is chosen on held-out training digits.",
)

EXPLANATIONS: dict[str, Explanation] = {
    "ct_contours": Explanation(
        SSM,
        (
            KERNEL_MATRIX,
            CENTRING,
            EIGENPROBLEM,
            NORMALISATION,
            PROJECTION,
            TEST_CENTRING,
            (
                r"\frac{f_k(\mathbf t)}{\max_i |f_k(\mathbf x_i)|}",
                r"The colour of a panel: $f_k$ over the plane, divided by its largest size "
                r"on the data; the title gives $\lambda_k$ and its share $\lambda_k/\sum\lambda$.",
            ),
        ),
        "Each panel is like a map of the plane with height lines. The dots are the data. The "
        "colour says how strongly each place shows one pattern the method found in the data "
        "(red one way, blue the other, white neither), and each line joins places of equal "
        "value. Rows: the patterns, strongest first. Columns: the kernel settings. Straight, "
        "parallel lines mean ordinary (linear) PCA; bent lines show what the kernel adds.",
    ),
    "ct_projection": Explanation(
        SSM,
        (
            PROJECTION,
            (
                r"f_k(\mathbf x_j) = \sum_{i=1}^M \alpha_i^k \tilde K_{ij} = M\lambda_k\,"
                r"\alpha_j^k \qquad (17, 12)",
                "At the data points the components need no new kernel values: they are the "
                "eigenvectors themselves, scaled.",
            ),
            (
                r"\frac{1}{M}\sum_{j=1}^M f_k(\mathbf x_j)^2 = \lambda_k \qquad (12, 16)",
                r"The spread of the points along axis k is the eigenvalue $\lambda_k$ "
                "(with centring, the points' mean is 0).",
            ),
        ),
        "Each dot is one data point, placed by two of its component values instead of by its "
        "x and y. When the kernel has caught the shape of the data, groups that lie wrapped "
        "around each other in the plane (like rings) come apart here.",
    ),
    "sp_lines": Explanation(
        SSM,
        (
            GAUSSIAN,
            CENTRING,
            EIGENPROBLEM,
            SHARE,
            (
                r"K \to I:\quad \frac{\lambda_k}{\sum_j\lambda_j} = \frac{1}{M-1}",
                r"The narrow limit (Gaussian, Laplacian): $\tilde K = I - 1_M$ has M − 1 equal "
                "eigenvalues and one 0.",
            ),
            (
                r"\tilde K \approx \frac{1}{\sigma^2}\,\widetilde{\mathbf x_i\cdot\mathbf x_j}"
                r"\quad (\sigma \to \infty)",
                "The wide limit of the Gaussian: 1 − ‖x−y‖²/2σ², centred, leaves the centred "
                "dot products, so the shares become linear PCA's (dotted).",
            ),
        ),
        "Read it from left to right: the kernel gets wider. Each line is the share of the "
        "total variation one component carries; the thick line is the first two together. "
        "The dashed line is the width you chose with the slider below.",
    ),
    "sp_components": Explanation(
        SSM,
        (
            SHARE,
            (
                r"n_p = \min\Big\{n : \sum_{k=1}^n \lambda_k \ge p\sum_j\lambda_j\Big\},"
                r"\qquad p = 0.90,\ 0.95",
                "The fewest leading components that carry 90 % (95 %) of the variance in F.",
            ),
        ),
        "How many components you must keep to hold on to 90 % (or 95 %) of the variation, at "
        "each width. Fewer means the kernel sees the data as simpler.",
    ),
    "sp_heatmap": Explanation(
        SSM,
        (
            EIGENPROBLEM,
            (
                r"\log_{10}\frac{\lambda_k}{\sum_j\lambda_j}",
                r"The colour of the cell at width σ and component k; blank where "
                r"$\lambda_k$ is 0 up to rounding.",
            ),
        ),
        "The whole spectrum at once: one column per width, one row per component, the colour "
        "its share of the variation on a log scale (one step is a factor of 10). Where the "
        "colour falls off quickly, a few components carry almost everything.",
    ),
    "sp_bars": Explanation(
        SSM,
        (
            SHARE,
            (
                r"\sum_{k=1}^n \frac{\lambda_k}{\sum_j\lambda_j}",
                "The cumulative share: the variance kept by the first n components.",
            ),
            (
                r"C = \frac{1}{M}\sum_{i=1}^M (\mathbf x_i-\bar{\mathbf x})"
                r"(\mathbf x_i-\bar{\mathbf x})^\top",
                "Linear PCA, for comparison: the shares of the eigenvalues of the covariance "
                "matrix (kernel PCA with k(x, y) = x·y).",
            ),
        ),
        "The spectrum at the width you chose: one bar per component, largest first, and a line "
        "adding them up. Linear PCA is drawn for comparison.",
    ),
    "sp_maps": Explanation(
        SSM,
        (KERNEL_MATRIX, CENTRING, EIGENPROBLEM, NORMALISATION, PROJECTION),
        "The first two components at the chosen width. On 2-D data: the plane coloured by each "
        "component's value, as on the Contours page. On other data: each point placed by its "
        "two component values.",
    ),
    "sp_film": Explanation(
        SSM,
        (SHARE,),
        "Press play: the bars of the spectrum at one width after the other, from narrow to "
        "wide. Watch the variation move from many small shares to a few large ones.",
    ),
    "dn_fig4": Explanation(
        MIKA,
        DENOISING,
        "The top rows are clean digits and the same digits with noise. The rows below are the "
        "noisy digits cleaned up, by linear PCA and by kernel PCA, each keeping n components "
        "(the numbers at the side). Few components: every digit looks like an average digit. "
        "Many: the noise comes back. Compare the two methods at the same n.",
    ),
    "dn_side_by_side": Explanation(
        MIKA,
        (*DENOISING, ERROR),
        "A few test digits: clean, noisy, cleaned by linear PCA and by kernel PCA with the n "
        "you chose. The number under each image is how far it is from the clean digit: "
        "smaller is better.",
    ),
    "dn_error": Explanation(
        MIKA,
        (LINEAR, FIXED_POINT, ERROR),
        "How far the cleaned digits are from the clean ones (lower is better) as more "
        "components are kept, for both methods. Each curve has a best n (starred): too few "
        "components blur the digit, too many keep the noise.",
    ),
    "dn_toy": Explanation(
        MIKA,
        (
            (
                r"k(\mathbf x, \mathbf y) = \exp\!\big(-\|\mathbf x-\mathbf y\|^2 / (2c)\big)",
                "The kernel on 2-D points (N = 2).",
            ),
            PROJECTOR,
            FIXED_POINT,
        ),
        "Grey: noisy points near a half circle and a square. Each is joined by a thin line to "
        "where the method puts it back. Kernel PCA moves points back onto the curve; linear "
        "PCA with one component can only move them onto a straight line.",
    ),
    "dn_demo": Explanation(MIKA, DENOISING),
    "dn_table1": Explanation(
        MIKA,
        (
            (
                r"k(\mathbf x, \mathbf y) = \exp\!\big(-\|\mathbf x-\mathbf y\|^2 / (N c)"
                r"\big),\quad N = 10,\ c = 2\sigma^2",
                "The kernel of the experiment (Mika Sec. 4), one width per row of the table.",
            ),
            PROJECTOR,
            FIXED_POINT,
            (
                r"\frac{\frac1L\sum_l\|\hat{\mathbf x}_l^{\,\mathrm{lin}}(n)-\mathbf c_l\|^2}"
                r"{\frac1L\sum_l\|\mathbf z_l(n)-\mathbf c_l\|^2}",
                "A cell: the mean squared distance of the L = 363 de-noised test points to the "
                "centre c_l of their cluster, linear PCA over kernel PCA.",
            ),
        ),
        "Each row is one amount of noise around eleven cluster centres, each column a number of "
        "components. Red cells: kernel PCA put the noisy points closer to their centres than "
        "linear PCA did, by the factor written in the cell; blue: the other way round. The "
        "lower table is the paper's, coloured the same way, so you can compare cell by cell.",
    ),
    "dn_fig3": Explanation(
        MIKA,
        (
            LINEAR,
            PROJECTOR,
            PREIMAGE,
            FIXED_POINT,
            (
                r"\frac{\|\mathbf z_n - \mathbf x\|^2}{\|\bar{\mathbf x} - \mathbf x\|^2}",
                "The number under each image: the squared distance to the original that is "
                "left after n components, as a fraction of the distance of the mean digit.",
            ),
        ),
        "One clean digit, rebuilt from more and more components (left to right): linear PCA "
        "above, kernel PCA below, the original at the end. The numbers say how far each "
        "picture still is from the original (0 would be exact). Linear PCA creeps towards this "
        "very digit; kernel PCA settles on a typical digit of its kind.",
    ),
    "dn_methods": Explanation(
        MIKA,
        (PREIMAGE, RHO_KERNEL, FIXED_POINT, DISTANCE_PREIMAGE, RIDGE_PREIMAGE, ERROR),
        "The same noisy points cleaned four ways, for several numbers of components n. Left: "
        "how far the results are from the clean points (lower is better; dotted: not cleaned "
        "at all). Middle: how long each method needs per point (log scale). Right: how many "
        "points a method gave up on. A method that is fast but far off, or close but slow, "
        "shows it here.",
    ),
    "dn_fixed_point": Explanation(
        MIKA,
        (PREIMAGE, RHO_KERNEL, FIXED_POINT),
        "Press play. Every blue dot is a noisy point moving, step by step, to its pre-image; "
        "the black line follows one of them over the map of its own ρ(z) (dark = small). Each "
        "step of eq. (10) replaces z by a weighted mean of the training points, the weights "
        "γᵢ exp(−‖z − xᵢ‖²/c) largest for training points near z that pull in the direction "
        "of the point's components. That is how the centre of a single Gaussian cluster is "
        "estimated — the paper's own remark after eq. (10): z is drawn towards training points "
        "with positive γᵢ and pushed from those with negative ones, so it settles in the "
        "middle of the nearby part of the data, like a cluster centre. A cross marks a restart, "
        "where the weights summed to nearly zero and the point jumped to a training point.",
    ),
    "ft_toy": Explanation(
        SSM,
        (GAUSSIAN, CENTRING, EIGENPROBLEM, PROJECTION, TEST_CENTRING, LINEAR_SVM),
        "Each point is coloured by its class; the tinted background is the class the "
        "classifier gives to each place of the plane. Left, the classifier only saw the first n "
        "kernel components of each point; right, it saw x and y. Both classifiers are linear, "
        "but on the left the boundaries bend, because the components themselves do: move n "
        "and watch the left picture follow the data.",
    ),
    "ft_table2": Explanation(
        SSM,
        (POLYNOMIAL, CENTRING, EIGENPROBLEM, PROJECTION, LINEAR_SVM, SVM_OBJECTIVE),
        "Each square is one experiment: the percentage of the 2007 test digits the classifier "
        "got wrong (light is good), for a kernel degree (across) and a number of components "
        "(down). Degree 1 is ordinary PCA and stops at 256, the number of pixels. Left: "
        "computed here; right: the paper. Down each column the errors fall as more "
        "components are used, and the nonlinear columns fall further than the linear one.",
    ),
    "ft_confusion": Explanation(
        SSM,
        (LINEAR_SVM,),
        "Rows: the digit that was written; columns: the digit the classifier said. Only the "
        "mistakes are coloured: the darker, the more often that digit was taken for that one.",
    ),
}


def explain(name: str) -> None:
    """Draw the expanders "The maths" and "What am I looking at" of one figure.

    Parameters
    ----------
    name : str
        A key of :data:`EXPLANATIONS`, e.g. ``"ct_contours"``.

    Nothing in presenter mode, whose style sheet hides expanders: drawn there, their
    equations were typeset by the browser (KaTeX) for nobody, in a lesson's slide
    too, while the slide's first figure waited for the same thread.
    """
    if presenter_mode():
        return
    entry = EXPLANATIONS[name]
    with st.expander(MATHS, icon=":material/functions:"):
        st.caption(entry.source)
        for equation, sentence in entry.maths:
            st.latex(equation)
            st.caption(sentence)
    if entry.words is not None:
        with st.expander(WORDS, icon=":material/visibility:"):
            st.markdown(entry.words)
