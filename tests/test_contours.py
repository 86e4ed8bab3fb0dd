"""The Contours computation against independent answers: scikit-learn and numpy."""

import dataclasses

import numpy as np
import pytest
from scipy import linalg
from scipy.spatial import cKDTree
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.metrics.pairwise import laplacian_kernel

from kpca_core import contours as ct
from kpca_core.datasets import circles, parabola, three_rings
from kpca_core.kernels import kernel_matrix

N_COMPONENTS = 3


def _data(seed: int) -> np.ndarray:
    return parabola(120, 0.2, seed)[0]


def assert_equal_up_to_sign(ours: np.ndarray, theirs: np.ndarray, rtol: float = 1e-6) -> None:
    """Columns equal up to one sign each, relative to the column's size."""
    assert ours.shape == theirs.shape
    for k in range(ours.shape[1]):
        sign = np.sign(ours[:, k] @ theirs[:, k])
        scale = np.max(np.abs(theirs[:, k]))
        np.testing.assert_allclose(ours[:, k], sign * theirs[:, k], atol=rtol * scale)


KERNEL_CASES = [
    (ct.KernelSpec("poly", degree=2, gamma=1.0, coef0=0.0), "poly", {"degree": 2, "coef0": 0}),
    (ct.KernelSpec("poly", degree=3, gamma=1.0, coef0=0.0), "poly", {"degree": 3, "coef0": 0}),
    (ct.KernelSpec("poly", degree=4, gamma=0.5, coef0=1.0), "poly", {"degree": 4, "coef0": 1}),
    (ct.KernelSpec("rbf", sigma=0.5), "rbf", {}),
    (ct.KernelSpec("rbf", sigma=2.0), "rbf", {}),
    (ct.KernelSpec("laplacian", sigma=1.0), "laplacian", {}),
]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(("spec", "kernel", "params"), KERNEL_CASES)
def test_grid_values_agree_with_scikit_learn(spec, kernel, params, seed):
    X = _data(seed)
    grid = ct.make_grid(X, resolution=30)
    column = ct.evaluate_column(ct.fit_column(X, spec, n_components=N_COMPONENTS), grid)
    assert column.error is None
    ours = column.values.reshape(N_COMPONENTS, -1).T * column.scales
    if kernel == "laplacian":  # scikit-learn's KernelPCA takes it as a precomputed matrix
        reference = SkKernelPCA(N_COMPONENTS, kernel="precomputed", eigen_solver="dense")
        reference.fit(laplacian_kernel(X, gamma=spec.engine_gamma))
        expected = reference.transform(laplacian_kernel(grid.points, X, gamma=spec.engine_gamma))
    else:
        reference = SkKernelPCA(
            N_COMPONENTS, kernel=kernel, gamma=spec.engine_gamma, eigen_solver="dense", **params
        ).fit(X)
        expected = reference.transform(grid.points)
    assert_equal_up_to_sign(ours, expected, rtol=1e-4)
    np.testing.assert_allclose(column.fit.eigenvalues, reference.eigenvalues_ / len(X), rtol=1e-8)


@pytest.mark.parametrize("seed", [0, 3])
def test_indefinite_sigmoid_agrees_with_an_eigendecomposition(seed):
    """Sigmoid kernels are indefinite: check against eigh of the centred K directly."""
    X = _data(seed)
    spec = ct.KernelSpec("sigmoid", gamma=2.0, coef0=0.0)
    grid = ct.make_grid(X, resolution=20)
    column = ct.evaluate_column(ct.fit_column(X, spec, n_components=N_COMPONENTS), grid)
    K = kernel_matrix(X, kernel="sigmoid", gamma=2.0, coef0=0.0)
    M = len(X)
    J = np.eye(M) - 1.0 / M
    mu, u = linalg.eigh(J @ K @ J)
    mu, u = mu[::-1][:N_COMPONENTS], u[:, ::-1][:, :N_COMPONENTS]
    alphas = u / np.sqrt(mu)
    Kt = kernel_matrix(grid.points, X, kernel="sigmoid", gamma=2.0, coef0=0.0)
    Kt_centred = (Kt - Kt.mean(axis=1, keepdims=True)) - K.mean(axis=0) + K.mean()
    expected = Kt_centred @ alphas
    ours = column.values.reshape(N_COMPONENTS, -1).T * column.scales
    assert_equal_up_to_sign(ours, expected, rtol=1e-4)
    np.testing.assert_allclose(column.fit.eigenvalues, mu / M, rtol=1e-8)


@pytest.mark.parametrize("degree", [1, 2, 3])
def test_uncentred_components_are_the_eigenvectors_of_the_raw_kernel(degree):
    """Without centring the eigenproblem is eq. 12 on K itself."""
    X = _data(2)
    spec = ct.KernelSpec("poly", degree=degree, gamma=1.0, coef0=1.0)
    grid = ct.make_grid(X, resolution=15)
    column = ct.evaluate_column(
        ct.fit_column(X, spec, n_components=N_COMPONENTS, center=False), grid
    )
    K = kernel_matrix(X, kernel="poly", degree=degree, gamma=1.0, coef0=1.0)
    mu, u = linalg.eigh(K)
    mu, u = mu[::-1][:N_COMPONENTS], u[:, ::-1][:, :N_COMPONENTS]
    expected = kernel_matrix(grid.points, X, kernel="poly", degree=degree, gamma=1.0, coef0=1.0)
    expected = expected @ (u / np.sqrt(mu))
    n = column.n_components
    ours = column.values.reshape(n, -1).T * column.scales
    assert_equal_up_to_sign(ours, expected[:, :n], rtol=1e-4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_linear_pca_column_is_the_svd_of_the_centred_data(seed):
    X = three_rings(90, 0.25, seed)[0]
    fit = ct.fit_column(X, ct.KernelSpec("pca"), n_components=5)
    centred = X - X.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    np.testing.assert_allclose(fit.eigenvalues, s**2 / len(X), rtol=1e-10)
    assert_equal_up_to_sign(fit.projections, centred @ vt.T)
    assert fit.n_components == 2


def test_linear_pca_column_equals_the_degree_one_column_with_the_same_signs():
    """(x·y)^1 centred is linear PCA (Fig. 2, first column); signs follow one rule."""
    X = _data(4)
    grid = ct.make_grid(X, resolution=25)
    pca = ct.evaluate_column(ct.fit_column(X, ct.KernelSpec("pca"), n_components=3), grid)
    degree_1 = ct.evaluate_column(
        ct.fit_column(X, ct.KernelSpec("poly", degree=1, gamma=1.0, coef0=0.0), n_components=3),
        grid,
    )
    assert pca.n_components == degree_1.n_components == 2
    np.testing.assert_allclose(pca.fit.eigenvalues, degree_1.fit.eigenvalues, rtol=1e-9)
    np.testing.assert_allclose(pca.scales, degree_1.scales, rtol=1e-9)
    np.testing.assert_allclose(pca.values, degree_1.values, atol=1e-5)


def test_shares_are_eigenvalues_over_the_trace():
    X = _data(5)
    spec = ct.KernelSpec("rbf", sigma=0.7)
    fit = ct.fit_column(X, spec, n_components=4)
    K = kernel_matrix(X, kernel="rbf", gamma=spec.engine_gamma)
    M = len(X)
    J = np.eye(M) - 1.0 / M
    total = np.trace(J @ K @ J) / M
    np.testing.assert_allclose(fit.shares, fit.eigenvalues / total, rtol=1e-8)


def test_scales_are_the_largest_magnitude_on_the_data():
    X = _data(6)
    column = ct.evaluate_column(
        ct.fit_column(X, ct.KernelSpec("poly", degree=2), n_components=3), ct.make_grid(X, 10)
    )
    np.testing.assert_allclose(column.scales, np.abs(column.fit.projections).max(axis=0))


@pytest.mark.parametrize("margin", [0.0, 0.15, 0.5])
def test_grid_covers_the_data_with_the_same_margin_on_both_axes(margin):
    X = circles(80, 0.05, 0)[0] * [3.0, 1.0]
    grid = ct.make_grid(X, resolution=17, margin=margin)
    assert grid.xs.size == grid.ys.size == 17
    pad = margin * np.ptp(X[:, 0])
    np.testing.assert_allclose(
        [grid.xs[0], grid.xs[-1]], [X[:, 0].min() - pad, X[:, 0].max() + pad]
    )
    np.testing.assert_allclose(
        [grid.ys[0], grid.ys[-1]], [X[:, 1].min() - pad, X[:, 1].max() + pad]
    )
    points = grid.points
    assert points.shape == (17 * 17, 2)
    np.testing.assert_array_equal(points[:17, 0], grid.xs)  # x runs fastest
    assert np.all(points[:17, 1] == grid.ys[0])


@pytest.mark.parametrize("seed", [0, 1])
def test_a_sweep_around_other_points_evaluates_its_fit_on_their_plane(seed):
    """``around``: the grid of the other points' plane (a held figure keeps the drawn one's),
    the columns the fit of the sweep's own points evaluated there (eq. 51)."""
    X, wider = parabola(60, 0.1, seed)[0], parabola(60, 0.6, seed + 1)[0]
    spec = ct.KernelSpec("poly", degree=2)
    own = ct.contour_sweep(X, [spec], n_components=2, resolution=9)
    held = ct.contour_sweep(X, [spec], n_components=2, resolution=9, around=wider)
    expected = ct.make_grid(wider, 9)
    np.testing.assert_array_equal(held.grid.xs, expected.xs)
    np.testing.assert_array_equal(held.grid.ys, expected.ys)
    np.testing.assert_allclose(held.columns[0].fit.eigenvalues, own.columns[0].fit.eigenvalues)
    again = ct.evaluate_column(own.columns[0].fit, expected)
    np.testing.assert_allclose(held.columns[0].values, again.values, rtol=1e-5, atol=1e-6)


def test_make_grid_refuses_points_that_are_not_2d():
    with pytest.raises(ValueError, match="2-D points"):
        ct.make_grid(np.zeros((5, 3)))


def test_fig2_has_two_linear_components_and_a_small_noise_component():
    """Schölkopf et al. Fig. 2: degree 1 gives 2 eigenvalues; degree 2 a third, small one."""
    X = parabola(300, 0.2, 0)[0]
    specs = ct.sweep_specs(ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", (1, 2, 3, 4))
    sweep = ct.contour_sweep(X, specs, n_components=3, parameter="degree", resolution=20)
    assert [column.n_components for column in sweep.columns] == [2, 3, 3, 3]
    third = sweep.columns[1].fit
    assert third.shares[2] < 0.1 < third.shares[1]
    reason = ct.missing_reason(sweep.columns[0], 2)
    assert reason.startswith("no 3rd component")
    assert "only two non-zero eigenvalues" in reason
    assert [sweep.column_label(c) for c in range(4)] == [f"degree {d}" for d in (1, 2, 3, 4)]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (ct.KernelSpec("linear"), "the linear kernel in 2-D has only two non-zero eigenvalues"),
        (ct.KernelSpec("pca"), "linear PCA in 2-D has only two non-zero eigenvalues"),
        (
            ct.KernelSpec("poly", degree=2, coef0=0.0),
            "has only three non-zero eigenvalues (its feature space has dimension 3)",
        ),
        (
            ct.KernelSpec("poly", degree=2, coef0=1.0),
            "dimension 6, and centring removes the constant monomial",
        ),
    ],
)
def test_missing_components_are_explained(spec, expected):
    X = _data(7)
    column = ct.evaluate_column(ct.fit_column(X, spec, n_components=8), ct.make_grid(X, 10))
    assert column.n_components < 8
    reason = ct.missing_reason(column, column.n_components)
    assert reason.startswith(f"no {ct.ordinal(column.n_components + 1)} component")
    assert expected in reason


@pytest.mark.parametrize("sigma", [1e-4, 1e-3])
@pytest.mark.parametrize("kernel", ["rbf", "laplacian"])
def test_a_tiny_width_is_explained_not_drawn(kernel, sigma):
    X = _data(0)
    column = ct.evaluate_column(
        ct.fit_column(X, ct.KernelSpec(kernel, sigma=sigma), n_components=3), ct.make_grid(X, 10)
    )
    assert column.n_components == 0
    assert "so small that every point is its own component" in column.error
    assert "Increase σ" in column.error
    assert "so small" in ct.missing_reason(column, 0)


def test_a_huge_width_is_explained_as_a_constant_kernel_matrix():
    X = _data(0)
    grid = ct.make_grid(X, 10)
    constant = ct.evaluate_column(
        ct.fit_column(X, ct.KernelSpec("rbf", sigma=1e8), n_components=3), grid
    )
    assert constant.n_components == 0
    assert "kernel matrix is constant" in constant.error
    nearly = ct.evaluate_column(
        ct.fit_column(X, ct.KernelSpec("rbf", sigma=300.0), n_components=3), grid
    )
    assert nearly.error is None and nearly.n_components == 3
    assert any("nearly constant" in note for note in nearly.notes)
    assert np.all(np.isfinite(nearly.values))


def test_a_width_below_the_grid_spacing_is_noted():
    X = _data(0)
    column = ct.evaluate_column(
        ct.fit_column(X, ct.KernelSpec("laplacian", sigma=0.01), n_components=3),
        ct.make_grid(X, 40),
    )
    assert column.error is None
    assert any("smaller than the grid spacing" in note for note in column.notes)
    assert any("almost every point is its own component" in note for note in column.notes)


def _kpc1_dips_between_neighbours(fit: ct.ColumnFit, X: np.ndarray) -> float:
    """The picture: the share of nearest-neighbour pairs (same sign) between which kPC 1
    falls below half its value at both ends, i.e. two separate bumps, not one shape."""
    _, j = cKDTree(X).query(X, k=2)
    ends = fit.model.transform(X)[:, 0]
    middle = fit.model.transform((X + X[j[:, 1]]) / 2)[:, 0]
    same = np.sign(ends) == np.sign(ends[j[:, 1]])
    dip = np.abs(middle) < 0.5 * np.minimum(np.abs(ends), np.abs(ends[j[:, 1]]))
    return float(np.sum(dip & same) / max(np.sum(same), 1))


def _ten_points() -> np.ndarray:
    return np.random.default_rng(1).uniform(-2, 2, (10, 2)) * 5 / 3


@pytest.mark.parametrize(
    ("X", "sigma", "separate"),
    [
        # a 10-point drawing at σ = 0.5: the picture is one smooth split, and the old
        # rule (M × the first share < 2) said every point was its own component
        (_ten_points(), 0.5, False),
        (_ten_points(), 1.0, False),
        (_ten_points(), 0.3, True),
        (np.c_[np.linspace(-1.8, 1.8, 10), np.zeros(10)], 0.15, False),
        (_data(0), 0.05, False),
    ],
)
def test_too_small_a_width_is_said_where_the_picture_shows_a_bump_per_point(X, sigma, separate):
    fit = ct.fit_column(X, ct.KernelSpec("rbf", sigma=sigma), n_components=3)
    said = any(note.cause == "separate" for note in fit.notes)
    dips = _kpc1_dips_between_neighbours(fit, X)
    assert said == separate
    assert (dips > 0.2) if separate else (dips == 0.0)


def test_notes_of_one_cause_merge_into_one_sentence_with_every_columns_number():
    note = ct.Note("indefinite", "the most negative eigenvalue is {} of the largest.", "18.1%")
    other = ct.Note("indefinite", note.template, "22.5%")
    flat = ct.Note("flat", "{} flat: not drawn.", "kPC 3 is")
    merged = ct.merge_notes([("c = 1", (note,)), ("c = 2", (other, flat))])
    assert merged == [
        "**c = 1, 2**: the most negative eigenvalue is 18.1% and 22.5% of the largest.",
        "**c = 2**: kPC 3 is flat: not drawn.",
    ]
    assert "18.1% of the largest" in note and str(note) == note.text


def test_an_indefinite_sigmoid_says_how_negative():
    X = _data(1)
    fit = ct.fit_column(X, ct.KernelSpec("sigmoid", gamma=3.0, coef0=1.0), n_components=3)
    ratio = fit.model.negative_eigenvalue_ratio_
    assert ratio > 0.01
    (note,) = [note for note in fit.notes if "indefinite" in note]
    assert f"{ratio:.1%} of the largest" in note


def test_an_overflowing_polynomial_is_explained():
    X = _data(0) * 1e16
    column = ct.evaluate_column(
        ct.fit_column(X, ct.KernelSpec("poly", degree=10), n_components=3), ct.make_grid(X, 10)
    )
    assert column.n_components == 0
    assert "overflows" in column.error and "Lower the degree" in column.error


def test_overflow_in_the_margin_beyond_the_data_is_explained():
    """K is finite on the data but the grid's wide margin overflows: no inf panel."""
    X = _data(0)
    X = X / np.linalg.norm(X, axis=1).max() * 10.0**14.99
    column = ct.evaluate_column(
        ct.fit_column(X, ct.KernelSpec("poly", degree=10), n_components=2),
        ct.make_grid(X, 10, margin=5.0),
    )
    assert column.fit.error is None
    assert "overflows on the grid" in column.error
    assert column.values.shape[0] == 0


@pytest.mark.parametrize("exponent", [15.3, 16.0, 40.0])
def test_kernels_that_would_overflow_in_the_centring_are_explained(exponent):
    """Finite K whose centring sums overflow: refused before fitting, with the size."""
    X = _data(1)
    X = X / np.linalg.norm(X, axis=1).max() * 10.0**exponent
    fit = ct.fit_column(X, ct.KernelSpec("poly", degree=10), n_components=2)
    assert fit.n_components == 0
    assert "overflows on these data" in fit.error
    assert f"1e{20 * exponent:.0f}" in fit.error


EXTREMES = (
    [ct.KernelSpec("rbf", sigma=s) for s in (1e-4, 3e-3, 1e-2, 0.1, 10.0, 1e3, 1e4)]
    + [ct.KernelSpec("laplacian", sigma=s) for s in (1e-4, 1e-2, 1e4)]
    + [
        ct.KernelSpec("poly", degree=d, gamma=g, coef0=c)
        for d in (1, 7, 10)
        for g, c in ((1.0, 0.0), (1e3, 100.0))
    ]
    + [ct.KernelSpec("sigmoid", gamma=g, coef0=c) for g in (1e-3, 1e3) for c in (-100.0, 0.0, 5.0)]
)


@pytest.mark.parametrize("spec", EXTREMES, ids=lambda spec: spec.formula())
def test_extreme_parameters_give_finite_panels_or_an_explanation(spec):
    X = three_rings(150, 0.25, 0)[0]
    column = ct.evaluate_column(ct.fit_column(X, spec, n_components=4), ct.make_grid(X, 20))
    assert np.all(np.isfinite(column.values))
    assert np.all(column.scales > 0)
    if column.n_components < 4:
        assert ct.missing_reason(column, column.n_components)


@pytest.mark.parametrize(
    ("text", "parameter", "values"),
    [
        ("1, 2, 3, 4", "degree", (1, 2, 3, 4)),
        ("0.1;0.5  2", "sigma", (0.1, 0.5, 2.0)),
        ("−1, 0, 1", "c", (-1.0, 0.0, 1.0)),
    ],
)
def test_parse_values(text, parameter, values):
    assert ct.parse_values(text, parameter) == values


@pytest.mark.parametrize(
    ("text", "parameter", "message"),
    [
        ("", "degree", "at least one value"),
        ("1, two", "degree", "'two' is not a number"),
        ("2.5", "degree", "whole number"),
        ("0", "sigma", "outside"),
        ("11", "degree", "outside"),
        ("1, 1", "degree", "repeated"),
        ("1,2,3,4,5,6,7", "degree", "too many"),
        ("inf", "c", "not a finite number"),
    ],
)
def test_parse_values_says_what_is_wrong(text, parameter, message):
    with pytest.raises(ValueError, match=message):
        ct.parse_values(text, parameter)


def test_default_values_parse():
    for (kernel, parameter), text in ct.DEFAULT_VALUES.items():
        assert parameter in ct.SWEEPABLE[kernel]
        assert ct.parse_values(text, parameter)


def test_tables_and_csv_hold_the_numbers_of_the_figure():
    X, labels = three_rings(60, 0.25, 0)
    specs = [ct.KernelSpec("pca"), *ct.sweep_specs(ct.KernelSpec("rbf"), "sigma", (0.5, 1.0))]
    sweep = ct.contour_sweep(
        X, specs, n_components=3, parameter="sigma", labels=labels, resolution=12
    )
    eigen = ct.eigenvalues_table(sweep)
    assert list(eigen["column"]) == ["linear PCA"] * 2 + ["σ = 0.5"] * 3 + ["σ = 1"] * 3
    np.testing.assert_allclose(eigen["eigenvalue"][2:5], sweep.columns[1].fit.eigenvalues)
    points = ct.points_table(sweep)
    assert points.shape == (60, 3 + 2 + 3 + 3)
    np.testing.assert_array_equal(points["group"], labels)
    np.testing.assert_allclose(points["σ = 1: kPC 2"], sweep.columns[2].fit.projections[:, 1])
    grid = ct.grid_table(sweep)
    assert len(grid) == 12 * 12 * 8
    first = grid[(grid["column"] == "σ = 0.5") & (grid["component"] == 1)]
    raw = sweep.columns[1].values[0].ravel() * sweep.columns[1].scales[0]
    np.testing.assert_allclose(first["value"], raw, rtol=1e-6)
    text = ct.to_csv(eigen)
    assert (
        text.splitlines()[0]
        == "column,kernel,component,eigenvalue,share_of_variance,max_abs_on_data"
    )
    assert len(text.splitlines()) == 9


def test_slug_names_kernel_sweep_and_fixed_parameters():
    X = _data(0)
    specs = ct.sweep_specs(ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", (1, 2, 3, 4))
    sweep = ct.contour_sweep(X, specs, n_components=3, parameter="degree", resolution=5)
    assert ct.sweep_slug(sweep) == "poly_degree-1-2-3-4_gamma1_c0_k3"
    rbf = ct.contour_sweep(
        X, [ct.KernelSpec("rbf", sigma=0.5)], n_components=2, center=False, resolution=5
    )
    assert ct.sweep_slug(rbf) == "rbf_sigma0.5_k2_uncentred"


def test_formulas_name_the_kernel_and_its_numbers():
    assert ct.KernelSpec("poly", degree=2, gamma=1.0, coef0=0.0).formula() == "(x·y)^2"
    assert ct.KernelSpec("poly", degree=3, gamma=0.5, coef0=-1.0).formula() == "(0.5 x·y − 1)^3"
    assert ct.KernelSpec("rbf", sigma=0.5).formula().endswith("γ = 2")
    assert ct.KernelSpec("laplacian", sigma=4.0).engine_gamma == 0.25
    assert ct.KernelSpec("sigmoid", gamma=2.0, coef0=1.0).formula() == "tanh(2 x·y + 1)"


def test_fit_column_refuses_too_many_components():
    with pytest.raises(ValueError, match="n_components"):
        ct.fit_column(_data(0), ct.KernelSpec("linear"), n_components=ct.MAX_COMPONENTS + 1)


class Stop(Exception):
    """Raised by a progress callback: the request was cancelled."""


def _stop_at(reports: list[tuple[float, str]], after: int | None = None):
    """A progress callback recording its reports and raising :class:`Stop` at report ``after``."""

    def progress(fraction: float, message: str) -> None:
        reports.append((fraction, message))
        if len(reports) == after:
            raise Stop

    return progress


class CountingModel:
    """A fitted model that counts its ``transform`` calls (the blocks of the grid)."""

    def __init__(self, model) -> None:
        self.model, self.calls = model, 0

    def transform(self, X: np.ndarray) -> np.ndarray:
        self.calls += 1
        return self.model.transform(X)


def test_a_column_fit_reports_its_steps_and_stops_when_its_callback_raises():
    X, spec = _data(0), ct.KernelSpec("rbf", sigma=0.5)
    reports: list[tuple[float, str]] = []
    ct.fit_column(X, spec, n_components=3, progress=_stop_at(reports))
    fractions = [fraction for fraction, _ in reports]
    assert len(fractions) > 2 and fractions == sorted(fractions) and fractions[-1] == 1.0
    stopped: list[tuple[float, str]] = []
    with pytest.raises(Stop):
        ct.fit_column(X, spec, n_components=3, progress=_stop_at(stopped, 1))
    assert stopped == reports[:1]  # nothing after the first step's report


def test_a_grid_evaluation_reports_each_block_and_stops_when_its_callback_raises(monkeypatch):
    X = _data(0)
    fit = ct.fit_column(X, ct.KernelSpec("rbf", sigma=0.5), n_components=3)
    grid = ct.make_grid(X, 50)
    whole = ct.evaluate_column(fit, grid)
    monkeypatch.setattr(ct.evaluate, "GRID_BLOCK_VALUES", len(X) * 256)  # 256 grid points
    counted = dataclasses.replace(fit, model=CountingModel(fit.model))
    reports: list[tuple[float, str]] = []
    blocked = ct.evaluate_column(counted, grid, progress=_stop_at(reports))
    n_blocks = -(-50 * 50 // 256)
    assert counted.model.calls == n_blocks and len(reports) == n_blocks + 1
    assert [fraction for fraction, _ in reports] == sorted(f for f, _ in reports)
    np.testing.assert_array_equal(blocked.values, whole.values)  # the engine's own blocks
    counted = dataclasses.replace(fit, model=CountingModel(fit.model))
    with pytest.raises(Stop):
        ct.evaluate_column(counted, grid, progress=_stop_at([], 3))
    assert counted.model.calls == 2  # stopped before the third block


def test_a_fitted_column_is_the_fit_then_its_evaluation():
    X = _data(0)
    spec, grid = ct.KernelSpec("poly", degree=3), ct.make_grid(X, 20)
    one = ct.fitted_column(X, spec, grid, n_components=3, center=False)
    two = ct.evaluate_column(ct.fit_column(X, spec, n_components=3, center=False), grid)
    np.testing.assert_array_equal(one.values, two.values)
    np.testing.assert_array_equal(one.fit.eigenvalues, two.fit.eigenvalues)
    assert one.fit.center is False and one.notes == two.notes
