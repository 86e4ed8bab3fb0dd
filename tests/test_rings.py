"""Deręgowski & Krzyśko's three rings: which component carries the radius, both ways."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import spearmanr
from sklearn.decomposition import KernelPCA as SkKernelPCA

from kpca_core.datasets import three_rings
from kpca_core.figures import rings as figures
from kpca_core.figures import style
from kpca_core.kernels import kernel_matrix, sigma_to_gamma
from kpca_core.rings import DK_GAMMA, fig5_readings, radius_correlations, reading
from kpca_core.spectrum import WidthSweep
from kpca_ui.views.rings import DK_SIGMA, RINGS_CAPTION, RINGS_CLAIMS, RINGS_HELP
from tests.conftest import white_blocks

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def readings():
    X, labels = three_rings(random_state=0)
    return X, labels, fig5_readings(X)


def test_paper_c_centred_radius_is_kpc3(readings) -> None:
    """Centred (the standard kernel PCA), kPC 1–2 are nearly x and y, kPC 3 the radius."""
    _, _, (centred, _) = readings
    np.testing.assert_allclose(centred.correlations, [0.151, 0.066, 0.958], atol=0.005)
    assert centred.radius_component == 3
    assert centred.center is True


def test_paper_c_uncentred_radius_is_kpc1(readings) -> None:
    """Not centred in F (the paper's eq. 3.7 on K), kPC 1 orders the points by radius."""
    _, _, (_, uncentred) = readings
    assert uncentred.correlations[0] == pytest.approx(0.963, abs=0.005)
    assert uncentred.correlations[1] < 0.2
    assert uncentred.radius_component == 1
    assert uncentred.center is False


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_radius_moves_with_centring_on_other_draws(seed: int) -> None:
    centred, uncentred = fig5_readings(three_rings(random_state=seed)[0])
    assert centred.radius_component == 3 and centred.correlations[2] > 0.9
    assert uncentred.radius_component == 1 and uncentred.correlations[0] > 0.9
    assert max(centred.correlations[:2]) < 0.4


@pytest.mark.parametrize("center", [True, False])
def test_components_are_scikit_learns(center: bool) -> None:
    """The components of each reading, against scikit-learn's KernelPCA (up to sign)."""
    X = three_rings(random_state=0)[0]
    ours = reading(X, center=center).components
    if center:
        theirs = SkKernelPCA(3, kernel="rbf", gamma=DK_GAMMA, eigen_solver="dense").fit_transform(X)
    else:  # scikit-learn always centres: uncentred, eigh of K itself (eqs. 12, 17)
        K = kernel_matrix(X, kernel="rbf", gamma=DK_GAMMA)
        values, vectors = np.linalg.eigh(K)
        theirs = vectors[:, ::-1][:, :3] * np.sqrt(values[::-1][:3])  # K α / √(Mλ) (eq. 17)
    signs = np.sign(np.sum(ours * theirs, axis=0))
    np.testing.assert_allclose(ours * signs, theirs, atol=1e-8)


def test_radius_correlations_by_definition() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 2))
    radius = np.linalg.norm(X, axis=1)
    Z = np.column_stack([np.exp(radius), -(radius**3), rng.normal(size=50)])
    rho = radius_correlations(Z, X)
    assert rho[:2] == pytest.approx([1.0, 1.0])  # any monotone function, either sign
    assert rho[2] == pytest.approx(abs(spearmanr(Z[:, 2], radius).statistic))


def test_fig5_figure_draws_both_readings(readings) -> None:
    _, labels, (centred, uncentred) = readings
    fig = figures.fig5_figure(
        (centred, uncentred), labels, group_names=["r = 1", "r = 2", "r = 4"], gamma=DK_GAMMA
    )
    assert len(fig.data) == 6  # three rings in each of the two panels
    left = [t for t in fig.data if t.xaxis == "x"]
    right = [t for t in fig.data if t.xaxis == "x2"]
    inner = labels == 0
    np.testing.assert_allclose(left[0].x, centred.components[inner, 0], rtol=1e-6)
    np.testing.assert_allclose(left[0].y, centred.components[inner, 2], rtol=1e-6)
    np.testing.assert_allclose(right[0].y, uncentred.components[inner, 1], rtol=1e-6)
    assert [t.marker.color for t in left] == list(style.GROUPS[:3])
    assert fig.layout.yaxis.title.text == "kPC 3 (|ρ| 0.96)"
    assert fig.layout.xaxis2.title.text == "kPC 1 (|ρ| 0.96)"
    titles = [a.text for a in fig.layout.annotations]
    assert "kPC 1 0.15, kPC 2 0.07, kPC 3 0.96" in titles[0].replace("<br>", " ")
    assert titles[1].startswith("<b>Not centred in F")
    assert "0.017" in fig.layout.title.text
    assert [t.name for t in left] == ["r = 1", "r = 2", "r = 4"]
    assert white_blocks(fig) == []  # the page's background on the dark theme too


# ------------------------------------------- the captions say what is drawn
@pytest.mark.parametrize(("setting", "claimed"), list(RINGS_CLAIMS.items()), ids=str)
def test_the_rings_caption_states_what_the_components_show(setting, claimed) -> None:
    """Each |ρ| the "Three rings, Gaussian" caption prints, recomputed on the preset's data."""
    sigma, center = setting
    X = three_rings(300, 0.25, 0)[0]
    measured = reading(X, gamma=sigma_to_gamma(sigma), center=center).correlations
    for component, value in claimed.items():
        assert measured[component - 1] == pytest.approx(value, abs=0.005), component
        if center:
            assert f"{value:.2f}" in RINGS_CAPTION
    if not center:  # the caption prints the smallest uncentred kPC 1, "or more"
        floor = min(c[1] for (_, centred), c in RINGS_CLAIMS.items() if not centred)
        assert f"|ρ| {floor:.2f} or more" in RINGS_CAPTION
        assert measured[0] >= floor - 0.005


def test_the_rings_help_names_the_radius_component() -> None:
    """The button's words: centred, at σ = 2, kPC 3 is the radius and kPC 1–2 are not."""
    X = three_rings(300, 0.25, 0)[0]
    centred = reading(X, gamma=sigma_to_gamma(2.0))
    assert centred.radius_component == 3 and "the radius is kPC 3" in RINGS_HELP
    assert max(centred.correlations[:2]) < 0.35


def test_the_dk_width_is_their_c() -> None:
    assert sigma_to_gamma(DK_SIGMA) == pytest.approx(DK_GAMMA, rel=1e-4)


def test_the_documentation_shows_these_readings(readings) -> None:
    """The site's numbers on the rings (``docs/macros.py``, computed as it is built) are the
    readings above and the Spectrum's shares at D&K's c, not copies of an older run."""
    X, _, (centred, uncentred) = readings
    spec = importlib.util.spec_from_file_location("macros", ROOT / "docs" / "macros.py")
    macros = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(macros)
    facts = macros.rings_facts()
    assert facts["centred"] == [f"{value:.2f}" for value in centred.correlations]
    assert facts["centred_radius"] == centred.radius_component
    assert facts["uncentred_kpc1"] == f"{uncentred.correlations[0]:.3f}"
    # |ρ| < 1: the claim holds closely, not exactly
    assert uncentred.correlations[0] < 0.99
    # the paper samples "in a circle"; the app's points lie on the circles
    assert np.allclose(np.linalg.norm(X[:100], axis=1), 1.0)
    shares = [
        WidthSweep("rbf", widths=[DK_SIGMA], center=center, n_jobs=1).fit(X).share(2)[0]
        for center in (True, False)
    ]
    assert (facts["share_centred"], facts["share_uncentred"]) == tuple(f"{v:.3f}" for v in shares)
