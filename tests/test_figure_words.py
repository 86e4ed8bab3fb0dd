"""Each figure in words (``kpca_core/figures/words.py`` and the builders' ``describe_…``): the
words and numbers of a description are those of the figure it describes."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from kpca_core import contours as ct
from kpca_core import sigma_to_gamma
from kpca_core.datasets import parabola, three_rings
from kpca_core.denoise import ImageGrid
from kpca_core.features import TABLE2_DEGREES, TABLE2_N, toy_experiment, toy_features
from kpca_core.figures import contours as contour_figures
from kpca_core.figures import denoise as denoise_figures
from kpca_core.figures import features as feature_figures
from kpca_core.figures import spectrum as spectrum_figures
from kpca_core.figures.words import describe_figure, plain
from kpca_core.spectrum import WidthSweep


@pytest.fixture(scope="module")
def fig2() -> ct.ContourSweep:
    X, labels = parabola(300, 0.2, 0)
    specs = ct.sweep_specs(ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", (1, 2, 3, 4))
    return ct.contour_sweep(
        X, specs, n_components=3, parameter="degree", labels=labels, resolution=40
    )


@pytest.fixture(scope="module")
def rings_sweep() -> WidthSweep:
    return WidthSweep("rbf", n_widths=20).fit(three_rings(120, 0.25, 0)[0])


def test_fig2_in_words_gives_every_panel_its_titles_numbers_and_the_lines_shape(fig2) -> None:
    """Per panel, the λ and share its title shows, in its column and row; degree 1's lines
    are straight (a plane), degree 2's on follow the data; the empty panel says why."""
    fig = contour_figures.contour_figure(fig2, title="Parabola")
    said = contour_figures.describe_contours(fig2, title="Parabola")
    titles = [plain(a.text) for a in fig.layout.annotations if "kPC" in a.text]
    assert len(titles) == 12
    for title in titles:  # "degree 2 · kPC 1 λ = 0.326 (61.6%)"
        head, _, value = title.partition(" λ = ")
        column, row = head.split(" · ")
        if value:
            number, share = value.split(" ")
            expected = f"{column}, {row}: λ = {number} ({share.strip('()')} of the variance)"
            assert expected in said.text, (expected, said.text)
    panels = dict(re.findall(r"(degree \d, kPC \d): λ = [^,]*, ([a-z ]+)\.", said.text))
    assert panels["degree 1, kPC 1"] == panels["degree 1, kPC 2"] == "straight parallel lines"
    assert {panels[f"degree {d}, kPC 1"] for d in (2, 3, 4)} == {
        "curved lines that follow the data"
    }
    assert "degree 1, kPC 3: no 3rd component" in said.text
    assert said.label == "Parabola"
    table = said.table
    assert list(table["eigenvalue"]) == pytest.approx(
        [λ for column in fig2.columns for λ in column.fit.eigenvalues]
    )
    assert list(table["contour_lines"][:2]) == ["straight", "straight"]


def test_a_plane_is_straight_and_a_bowl_is_not() -> None:
    xs = ys = np.linspace(-1, 1, 30)
    gx, gy = np.meshgrid(xs, ys)
    assert contour_figures.is_straight(0.3 * gx - 2 * gy + 1, xs, ys)
    assert not contour_figures.is_straight(gx**2 + gy**2, xs, ys)


def test_the_spectrum_in_words_follows_the_sweep(rings_sweep) -> None:
    """The shares at both ends, at the largest (λ₁+λ₂)/Σλ and at the chosen width are the
    sweep's, as the figure's hover writes the width; the table is the sweep's ratios."""
    sweep = rings_sweep
    said = spectrum_figures.describe_ratio_lines(sweep, n_leading=4, chosen=7)
    fig = spectrum_figures.ratio_lines_figure(sweep, n_leading=4, chosen=7)
    assert len([t for t in fig.data if "λ" in (t.name or "") and "/Σλ" in t.name]) >= 4
    two = sweep.share(2)
    width = spectrum_figures.format_parameter(sweep, sweep.widths_[7])
    assert (
        f"is {width}: there λ₁ holds {sweep.ratios_[7, 0]:.1%} of the variance and λ₁+λ₂ "
        f"{two[7]:.1%}" in said.text
    )
    peak = int(np.nanargmax(two))
    assert f"largest, {two[peak]:.1%}, at " in said.text
    first = spectrum_figures.format_parameter(sweep, sweep.widths_[0])
    assert f"At {first} λ₁ holds {sweep.ratios_[0, 0]:.1%}" in said.text
    assert "λ₁ … λ₄" in said.label
    assert np.allclose(said.table["λ2/Σλ"], sweep.ratios_[:, 1])
    assert np.allclose(said.table["(λ1+λ2)/Σλ"], two)


def test_digits_in_words_say_which_and_how_much_noise_each_method_removed() -> None:
    """Fig. 4's rows: the share of the noisy digits' mean squared error each removed."""
    rng = np.random.RandomState(0)
    errors = np.array([[0.0, 0.0], [40.0, 60.0], [30.0, 20.0], [10.0, 5.0]])
    grid = ImageGrid(
        rng.uniform(-1, 1, (4, 2, 16)),
        4,
        ("original", "noisy", "linear n = 4", "kernel n = 4"),
        ("3", "7"),
        errors=errors,
    )
    said = denoise_figures.describe_grid(grid, title="USPS: Gaussian noise")
    assert "2 digits (3, 7)" in said.text
    assert "linear n = 4: squared error 25 against the noisy digits' 50, 50% of" in said.text
    assert "kernel n = 4: squared error 7.5 against the noisy digits' 50, 85% of" in said.text
    assert len(said.table) == 8
    demo = ImageGrid(
        rng.uniform(-1, 1, (1, 3, 16)),
        4,
        ("",),
        ("With noise", "Classic method", "Kernel method"),
        errors=np.array([[80.0, 40.0, 20.0]]),
    )
    said = denoise_figures.describe_grid(demo, title="The handwritten 5")
    assert "Kernel method: squared error 20 against the noisy digits' 80, 75% of" in said.text


def test_any_figure_in_words_has_its_title_axes_and_named_traces(rings_sweep) -> None:
    """The description of a figure without a builder's own words: its title, axes' titles
    and the names of its traces, as plain text (no HTML)."""
    for fig in (
        spectrum_figures.effective_components_figure(rings_sweep, chosen=3),
        spectrum_figures.spectrum_heatmap_figure(rings_sweep, chosen=3),
        spectrum_figures.spectrum_bars_figure(rings_sweep, 5),
    ):
        said = describe_figure(fig)
        assert said.label == plain(fig.layout.title.text) != ""
        assert "<" not in said.text
        for axis in (fig.layout.xaxis, fig.layout.yaxis):
            assert plain(axis.title.text) in said.text
        for trace in fig.data:
            if trace.name and trace.showlegend is not False and trace.type == "scatter":
                assert f"{plain(trace.name)} ({len(trace.y)} points)" in said.text


def test_the_decision_regions_in_words_give_the_titles_accuracies_and_each_class_share() -> None:
    """The accuracies the panels' titles show, and each class's share of each panel's
    regions (its pixels); the table, per class."""
    X, y = three_rings(150, random_state=0)
    fit = toy_features(X, y, kernel="rbf", gamma=sigma_to_gamma(1.0), grid_size=30)
    result = toy_experiment(fit, 8)
    fig = feature_figures.toy_regions_figure(fit, result, kernel_label="Gaussian, σ = 1")
    said = feature_figures.describe_regions(fit, result, kernel_label="Gaussian, σ = 1")
    titles = " ".join(plain(a.text) for a in fig.layout.annotations)
    for accuracy in (result.kernel_accuracy, result.raw_accuracy):
        assert f"{100 * accuracy:.1f} % correct" in titles
        assert f"{100 * accuracy:.1f} % correct" in said.text
    share = float(np.mean(result.kernel_regions == np.unique(y)[0]))
    assert f"class {np.unique(y)[0]} {share:.0%}" in said.text
    assert said.table["share of the plane, x and y"].sum() == pytest.approx(1.0)


def test_the_spectrum_at_one_width_in_words_reads_as_its_bars(rings_sweep) -> None:
    """The bars' words give the bars' own heights, and the counts their cumulative share."""
    sweep, index = rings_sweep, 12
    said = spectrum_figures.describe_spectrum_bars(sweep, index)
    bars = spectrum_figures.spectrum_bars_figure(sweep, index).data
    heights, cumulative = np.asarray(bars[0].y, float), np.asarray(bars[1].y, float)
    for k in range(5):
        assert f"λ{chr(0x2081 + k)} {heights[k]:.1%}" in said.text
    assert np.allclose(said.table["λk/Σλ"], heights, rtol=1e-6)
    assert np.allclose(said.table["cumulative share"], cumulative, rtol=1e-6)
    half = int(np.argmax(np.cumsum(sweep.ratios_[index]) >= 0.5 - 1e-12)) + 1
    assert f"{half} for 50%" in said.text
    assert f"λ₁ holds {bars[2].y[0]:.1%}" in said.text  # linear PCA's diamond


def test_the_effective_components_in_words_read_as_the_lines(rings_sweep) -> None:
    sweep = rings_sweep
    said = spectrum_figures.describe_effective_components(sweep, chosen=12)
    fig = spectrum_figures.effective_components_figure(sweep, chosen=12)
    (kernel_90,) = [t for t in fig.data if t.name == "kernel PCA, 90 %"]
    (linear_90,) = [t for t in fig.data if t.name == "linear PCA, 90 %"]
    counts = np.asarray(kernel_90.y, float)
    for i in (0, counts.size - 1, 12):
        width = spectrum_figures.format_parameter(sweep, sweep.widths_[i])
        assert f"at {width}: {counts[i]:.0f} components for 90%" in said.text
    assert f"needs {linear_90.y[0]:.0f} components for 90%" in said.text
    assert np.allclose(said.table["components for 90%"], counts)


def test_the_whole_spectrum_in_words_counts_its_coloured_cells(rings_sweep) -> None:
    sweep = rings_sweep
    said = spectrum_figures.describe_spectrum_heatmap(sweep, chosen=12)
    z = np.asarray(spectrum_figures.spectrum_heatmap_figure(sweep, chosen=12).data[0].z, float)
    coloured = np.isfinite(z).sum(axis=0)  # z is components × widths
    for i in (0, z.shape[1] - 1, 12):
        assert f"{coloured[i]} of {sweep.n_samples_} eigenvalues are non-zero" in said.text
        assert f"10^{np.nanmin(z[:, i]):.1f} of the variance" in said.text
    assert np.array_equal(said.table["non-zero eigenvalues"], coloured)


def test_the_projection_in_words_gives_the_points_range_and_the_groups_share() -> None:
    """The numbers are the figure's own points; the share between groups (η²) is checked
    against pandas' group means; two far blobs put all of kPC 1 between them."""
    X, labels = three_rings(150, 0.1, 0)
    sweep = ct.contour_sweep(X, [ct.KernelSpec("rbf", sigma=1.0)], n_components=2, labels=labels)
    said = contour_figures.describe_projection(sweep, 0, 1, 2)
    fig = contour_figures.projection_figure(sweep, 0, 1, 2)
    drawn = np.concatenate([np.asarray(t.x, float) for t in fig.data])
    assert f"kPC 1 runs from {drawn.min():.3g} to {drawn.max():.3g}" in said.text
    table = said.table
    means = table.groupby("group")["kPC 2"].transform("mean")
    eta = ((means - table["kPC 2"].mean()) ** 2).sum() / table["kPC 2"].var(ddof=0) / len(table)
    assert f"and {eta:.0%} of kPC 2's" in said.text
    assert len(table) == len(X) and set(table["group"]) == set(labels)
    missing = contour_figures.describe_projection(sweep, 0, 1, 3)
    assert "kPC 3" in missing.label and len(missing.text) > len(missing.label) + 2
    rng = np.random.RandomState(0)
    blobs = np.vstack([rng.normal(-5, 0.3, (40, 2)), rng.normal(5, 0.3, (40, 2))])
    two = ct.contour_sweep(
        blobs, [ct.KernelSpec("poly", degree=1)], n_components=2, labels=[0] * 40 + [1] * 40
    )
    assert "lies 100% of kPC 1's variance" in contour_figures.describe_projection(two, 0, 1, 2).text


def test_table2_in_words_reads_as_its_cells() -> None:
    """The lowest errors and the outlined cell as the two heatmaps hold them."""
    rng = np.random.RandomState(0)
    shape = (len(TABLE2_N), len(TABLE2_DEGREES))
    errors, paper = rng.uniform(4, 12, shape), rng.uniform(4, 12, shape)
    errors[2, 3] = 3.25  # the lowest: degree 4, n = 128
    said = feature_figures.describe_table2(errors, paper=paper, chosen=(7, 2048))
    ours, theirs = (
        np.asarray(t.z, float)
        for t in feature_figures.table2_figure(errors, paper=paper, chosen=(7, 2048)).data[:2]
    )
    assert f"Lowest here: {np.nanmin(ours):.1f} % at degree 4, n = 128" in said.text
    r, c = np.unravel_index(np.argmin(theirs), theirs.shape)
    assert f"in the paper: {theirs[r, c]:.1f} % at degree {TABLE2_DEGREES[c]}" in said.text
    assert f"n = 2048: {ours[-1, -1]:.1f} % here, {theirs[-1, -1]:.1f} % in the paper" in said.text
    assert said.text.count(" here.") == 2  # the two claims, each as it holds
    assert np.allclose(said.table["test error here (%)"], ours.ravel())


def test_the_error_curves_in_words_read_as_their_best_marks() -> None:
    """Each method's best n and error are the figure's starred points."""
    from kpca_core.denoise import ErrorCurve, ErrorSweep

    n = np.array([1, 2, 4, 8, 16, 32])
    rng = np.random.RandomState(1)
    sweep = ErrorSweep(
        ErrorCurve("linear PCA", n, rng.uniform(20, 50, n.size)),
        ErrorCurve("kernel PCA", n, rng.uniform(10, 50, n.size)),
        baseline_mse=60.0,
    )
    said = denoise_figures.describe_error_curve(sweep, chosen_n=8, title_prefix="USPS")
    fig = denoise_figures.error_curve_figure(sweep, chosen_n=8, title_prefix="USPS")
    for method in ("linear PCA", "kernel PCA"):
        (star,) = [t for t in fig.data if t.name == f"best n, {method}"]
        assert f"{method}: lowest {star.y[0]:.3g} at n = {star.x[0]:.0f}." in said.text
    (kernel,) = [t for t in fig.data if t.name == "kernel PCA"]
    assert f"kernel PCA {kernel.y[list(kernel.x).index(8)]:.3g}." in said.text
    assert f"{sweep.ratio_at_best:.2f}× better at the best n" in fig.layout.title.text
    assert f"{sweep.ratio_at_best:.2f}× better at the best n" in said.text


def test_table1_and_the_preimage_methods_in_words_read_as_their_figures() -> None:
    from kpca_core.figures import preimages as preimage_figures
    from kpca_core.gaussians_table import gaussians_table
    from kpca_core.preimage_compare import toy_comparison

    table = gaussians_table((0.05, 0.1), (1, 2, 4), (0,))
    said = preimage_figures.describe_table1(table)
    z = np.asarray(preimage_figures.table1_figure(table).data[0].z, float)  # log10 ratios
    assert f"kernel PCA better in {np.sum(z > 0)} of {z.size} cells" in said.text
    assert len(said.table) == z.size

    comparison = toy_comparison("half_circle", noise=0.1, c=0.5, random_state=0)
    said = preimage_figures.describe_comparison(comparison)
    fig = preimage_figures.comparison_figure(comparison)
    errors = [t for t in fig.data if t.xaxis == "x" and t.x[0] is not None]  # error against n
    assert len(errors) == len(comparison.curves)
    for trace, curve in zip(errors, comparison.curves, strict=True):
        best = int(np.argmin(trace.y))
        assert f"lowest error {trace.y[best]:.3g} at n = {trace.x[best]:.0f}" in said.text
        assert curve.label in said.text


def test_fig3_in_words_reads_as_the_fractions_under_the_digits() -> None:
    """Each method's first, last and lowest fraction as written under its digits."""
    from kpca_core.figures import preimages as preimage_figures
    from kpca_core.preimage_compare import Reconstruction

    rng = np.random.RandomState(0)
    n = np.array([1, 2, 4, 8, 16, 20])
    linear, kernel = np.linspace(0.9, 0.1, n.size), np.array([0.8, 0.5, 0.3, 0.35, 0.4, 0.45])
    errors = np.vstack([np.append(linear, 0.0), np.append(kernel, 0.0)]) * 50
    grid = ImageGrid(
        rng.uniform(-1, 1, (2, n.size + 1, 16)),
        4,
        ("linear PCA", "kernel PCA"),
        (*map(str, n), "original 7"),
        errors=errors,
    )
    recon = Reconstruction(grid, linear, kernel, n)
    said = preimage_figures.describe_fig3(recon, title="Test digit 3 (a 7)")
    fig = preimage_figures.fig3_figure(recon, title="Test digit 3 (a 7)")
    under = np.array([float(a.text) for a in fig.layout.annotations]).reshape(2, n.size)
    for method, row in zip(("Linear PCA", "Kernel PCA"), under, strict=True):
        low = int(np.argmin(row))
        assert (
            f"{method}: {row[0]:.2f} at n = 1, {row[-1]:.2f} at n = 20, lowest {row[low]:.2f} "
            f"at n = {n[low]}." in said.text
        )
    assert "linear PCA comes closer to this very digit, kernel PCA draws a more prototypical 7" in (
        said.text
    )
    assert "rebuilt from n = 1, 2, 4, 8, 16, 20 components" in said.text
    assert "**" not in said.text and said.label == "Test digit 3 (a 7)"
    assert np.allclose(said.table["fraction_kernel"], kernel)


def test_the_toy_in_words_says_how_far_the_points_moved_towards_the_curve() -> None:
    """The mean distances to the curve are those of the figure's own points."""
    from kpca_core.denoise import distance_to_curve, toy_denoising

    assert distance_to_curve("half_circle", [[0, 2], [0, 0], [2, -1], [0.6, 0.8]]) == (
        pytest.approx([1, 1, np.sqrt(2), 0])
    )
    assert distance_to_curve("square", [[0, 0], [0.5, 1], [2, 3], [0.2, -0.9]]) == (
        pytest.approx([1, 0, np.sqrt(5), 0.1])
    )
    results = [toy_denoising(name, n_samples=60, noise=0.15) for name in ("half_circle", "square")]
    said = denoise_figures.describe_toy(results, noise=0.15)
    fig = denoise_figures.toy_figure(results)
    points = [t for t in fig.data if t.mode == "markers"]  # per panel: noisy, de-noised
    assert "standard deviation 0.15" in said.text
    for r, result in enumerate(results):
        noisy, kernel, linear = (points[4 * r], points[4 * r + 1], points[4 * r + 3])
        assert kernel.name == "de-noised, kernel PCA" and noisy.name == "noisy data"

        def mean(trace, name=result.name):
            return distance_to_curve(name, np.column_stack([trace.x, trace.y])).mean()

        assert (
            f"goes from {mean(noisy):.3g} (noisy) to {mean(kernel):.3g} by kernel PCA with "
            f"{result.n_kernel} components and to {mean(linear):.3g} by linear PCA"
        ) in said.text
        if result.name == "half_circle":  # on the square, kernel PCA rounds the corners
            assert mean(kernel) < mean(noisy)
    assert len(said.table) == 6


def test_the_fixed_point_in_words_reads_as_its_frames() -> None:
    """Steps, start and end of the selected point's path, and the distances to the clean
    points at the first and last frame, as the animation's frames hold them."""
    from kpca_core.figures import preimages as preimage_figures
    from kpca_core.preimage_compare import toy_paths

    toy, paths = toy_paths("half_circle", n_samples=40, max_steps=15)
    fig = preimage_figures.fixed_point_animation(paths, toy.noisy, selected=3, grid_size=20)
    said = preimage_figures.describe_fixed_point(paths, toy.clean, selected=3)
    last = len(fig.frames) - 1
    assert f"an animation of {last} steps" in said.text
    assert f"converged in {last} steps" in fig.layout.title.text.replace("<br>", " ")
    first_z, last_z = (
        np.column_stack([fig.frames[t].data[0].x, fig.frames[t].data[0].y]) for t in (0, last)
    )
    for t, z in ((0, first_z), (last, last_z)):
        mean = np.linalg.norm(z - toy.clean, axis=1).mean()
        assert f"{mean:.3g} at step {t}" in said.text
    path = fig.frames[last].data[1]
    assert path.name == "path of point 3"
    start, end = (path.x[0], path.y[0]), (path.x[-1], path.y[-1])
    assert f"goes from ({start[0]:.2f}, {start[1]:.2f}) to ({end[0]:.2f}, {end[1]:.2f})" in (
        said.text
    )
    away = np.linalg.norm(np.array(end, float) - toy.clean[3])
    assert f"to {away:.3g}, ρ from" in said.text
    assert len(said.table) == last + 1


def test_the_component_maps_in_words_read_as_their_pictures(rings_sweep) -> None:
    """Per panel ("component k"), its λ and share as the fit and the bars have them, and the
    share of its picture that is red (positive) as the picture's own pixels; on data in more
    dimensions, each component's range as the figure's points."""
    from kpca_core.figures import panels
    from kpca_core.spectrum import component_grid
    from tests.conftest import png_pixels

    sweep, index = rings_sweep, 12
    fig = spectrum_figures.components_at_figure(sweep, index)
    said = spectrum_figures.describe_components_at(fig)
    model = sweep.fit_at(index, n_components=2)
    _, _, values = component_grid(model, sweep.X_fit_)
    titles = [a.text for a in fig.layout.annotations if a.text.startswith("component")]
    pictures = [m for m in fig.layout.images if m.name != "data"]
    assert len(titles) == len(pictures) == 2
    for k, picture in enumerate(pictures):
        rgb = png_pixels(picture.source)
        index_of = {tuple(c): i for i, c in enumerate(panels.PALETTE.tolist())}
        shades = np.array([index_of[tuple(c)] for c in rgb.reshape(-1, 3).tolist()])
        red = float(np.mean(shades > 127.5))
        positive = float(np.mean(values[k] > 0))
        assert abs(red - positive) < 0.01
        λ, ratio = model.eigenvalues_[k], sweep.ratios_[index, k]
        assert f"Component {k + 1}: λ = {λ:.3g} ({ratio:.1%} of the variance); positive on " in (
            said.text
        )
        assert f"positive on {positive:.0%} of the map" in said.text
        scores = model.transform(sweep.X_fit_)[:, k] / np.abs(values[k]).max()
        assert f"on the data from {scores.min():.2f} to {scores.max():.2f}." in said.text
    assert said.label == plain(fig.layout.title.text)
    assert np.allclose(said.table["λk/Σλ"], sweep.ratios_[index, :2])

    rng = np.random.RandomState(0)
    wide = WidthSweep("rbf", n_widths=10).fit(rng.normal(size=(80, 5)))
    fig = spectrum_figures.components_at_figure(wide, 5, labels=np.arange(80) % 2)
    said = spectrum_figures.describe_components_at(fig)
    for k, axis in enumerate("xy"):
        drawn = np.concatenate([np.asarray(t[axis], float) for t in fig.data])
        assert f"Component {k + 1}: λ = " in said.text
        assert f"on the data from {drawn.min():.2f} to {drawn.max():.2f}." in said.text
    assert "positive on" not in said.text


def test_the_film_in_words_reads_as_its_first_and_last_frames(rings_sweep) -> None:
    """The widths it runs over (its slider), and at the first and last frame λ₁'s share (the
    first bar), (λ₁+λ₂)/Σλ (the frame's title) and the components for 90% (the cumulative
    line), as the frames draw them."""
    sweep = rings_sweep
    fig = spectrum_figures.spectrum_film_figure(sweep)
    said = spectrum_figures.describe_spectrum_film(sweep)
    steps = fig.layout.sliders[0].steps
    assert f"an animation of {len(fig.frames)} frames" in said.text
    for end, frame in (("First", fig.frames[0]), ("Last", fig.frames[-1])):
        bars, cumulative = (np.asarray(t.y, float) for t in frame.data[:2])
        title = plain(frame.layout.title.text)
        width, _, two = title.partition(": (λ₁+λ₂)/Σλ = ")
        assert (
            f"{end} frame, {width}: λ₁ holds {bars[0]:.1%} of the variance, λ₁+λ₂ "
            f"{float(two):.1%}; "
        ) in said.text
        count, beyond = re.search(
            f"{end} frame.*?; (\\d+) components? for 90%( \\(beyond the 20 bars\\))?",
            said.text,
        ).groups()
        if cumulative[-1] >= 0.9 + 1e-6:  # reached within the bars: where the line crosses 90%
            assert int(count) == np.argmax(cumulative >= 0.9 - 1e-6) + 1 and not beyond
        else:
            assert int(count) > len(bars) and beyond
    for step in (steps[0], steps[-1]):
        assert f"= {step.label}" in said.text
    assert np.allclose(said.table["λ1/Σλ"], sweep.ratios_[:, 0])


def test_centring_in_words_reads_as_its_two_lines(rings_sweep) -> None:
    """Each line's share at the narrowest and widest width and the width where they differ
    most, as the two lines draw them; the mark's label."""
    from kpca_core.spectrum import WidthSweep as Sweep

    sweep = rings_sweep
    uncentred = Sweep("rbf", n_widths=20, center=False).fit(sweep.X_fit_).share(2)
    marks = [(5.39, "D&K c = 0.017")]
    fig = spectrum_figures.centring_share_figure(sweep, uncentred, marks=marks)
    said = spectrum_figures.describe_centring(sweep, uncentred, marks=marks)
    centred, plain_k = (np.asarray(t.y, float) for t in fig.data)
    assert [t.name for t in fig.data] == ["centred in F (eq. 49)", "not centred (K itself)"]
    x = np.asarray(fig.data[0].x, float)
    for name, y in (("Centred in F", centred), ("Not centred", plain_k)):
        assert f"{name}: from {y[0]:.3f} at σ = {x[0]:.3g} to {y[-1]:.3f} at σ = {x[-1]:.3g}" in (
            said.text
        )
    gap = np.abs(centred - plain_k)
    far = int(np.nanargmax(gap))
    assert (
        f"most apart at σ = {x[far]:.3g}: {centred[far]:.3f} centred, {plain_k[far]:.3f} not"
        in (said.text)
    )
    assert "D&K c = 0.017 at σ = 5.39" in said.text
    assert np.allclose(said.table["Not centred"], uncentred)


def test_fig5_in_words_gives_each_panel_its_radius_component_and_the_rings_on_kpc1() -> None:
    """Per panel, the component that carries the radius with its |ρ| as the panel's title
    writes it, and the rings' ranges along kPC 1 as the points lie; whether they overlap."""
    from kpca_core.figures import rings as ring_figures
    from kpca_core.rings import DK_GAMMA, fig5_readings

    X, labels = three_rings(60, 0.0, 0)
    readings = fig5_readings(X, gamma=DK_GAMMA)
    names = ("radius 1", "radius 2", "radius 4")
    fig = ring_figures.fig5_figure(readings, labels, group_names=names, gamma=DK_GAMMA)
    said = ring_figures.describe_fig5(readings, labels, group_names=names, gamma=DK_GAMMA)
    assert said.label == plain(fig.layout.title.text)
    titles = [plain(a.text) for a in fig.layout.annotations]
    for panel, (reading, title) in enumerate(zip(readings, titles, strict=True)):
        values = dict(re.findall(r"kPC (\d) (\d\.\d\d)", title))
        k = max(values, key=lambda j: float(values[j]))
        assert f"the radius is kPC {k} (|Spearman ρ| {values[k]})" in said.text
        traces = [t for t in fig.data if t.xaxis == ("x" if panel == 0 else "x2")]
        ranges = [(np.min(t.x), np.max(t.x)) for t in traces]
        for name, (low, high) in zip(names, ranges, strict=True):
            assert f"{name} from {low:.3g} to {high:.3g}" in said.text
        ordered = sorted(ranges)
        apart = all(a[1] < b[0] for a, b in itertools.pairwise(ordered))
        words = "apart" if apart else "overlapping"
        heading = "Centred in F" if reading.center else "Not centred in F"
        found = re.findall(
            r"(\w+ centred in F|Centred in F)[^:]*: the radius is kPC \d \(\|Spearman "
            r"ρ\| [\d.]+\)\. Along kPC 1, the rings lie (\w+)",
            said.text,
        )
        assert dict(found)[heading] == words
    assert len(said.table) == 2 * readings[0].correlations.size


def test_the_confusion_matrix_in_words_gives_the_accuracy_and_the_most_confused_pair() -> None:
    rng = np.random.RandomState(0)
    confusion = np.diag(rng.randint(150, 250, 10)) + rng.randint(0, 4, (10, 10)) * (
        1 - np.eye(10, dtype=int)
    )
    confusion[4, 9] = 17  # the most confused: a true 4 read as a 9
    fig = feature_figures.confusion_figure(confusion)
    said = feature_figures.describe_confusion(confusion)
    counts = np.asarray(fig.data[0].text, int)
    wrong = np.asarray(fig.data[0].z, float)  # the coloured cells: the errors
    total, errors = counts.sum(), int(np.nansum(wrong))
    assert f"{total - errors} of {total} test digits right ({(total - errors) / total:.1%})" in (
        said.text
    )
    r, c = np.unravel_index(np.nanargmax(wrong), wrong.shape)
    assert f"most often a true {fig.data[0].y[r]} read as {fig.data[0].x[c]}: {17} digits" in (
        said.text
    )
    assert said.table["count"].sum() == total


def test_the_misclassified_digits_in_words_say_how_many_and_which() -> None:
    rng = np.random.RandomState(0)
    true, predicted = rng.randint(0, 10, 15), rng.randint(0, 10, 15)
    predicted[predicted == true] = (true[predicted == true] + 1) % 10
    fig = feature_figures.misclassified_figure(rng.uniform(-1, 1, (15, 256)), true, predicted)
    said = feature_figures.describe_misclassified(true, predicted)
    shown = list(fig.layout.xaxis.ticktext)
    assert f"15 test digits misclassified; the first {len(shown)} shown" in said.text
    assert ", ".join(shown) in said.text
    assert len(said.table) == 15
    none = feature_figures.describe_misclassified(true[:0], predicted[:0])
    assert "no misclassified digits" in none.text


def test_contours_with_groups_in_words_count_each_group_and_say_what_kpc1_does() -> None:
    """Each group's points as the figure's markers hold them, and the share of kPC 1's
    variance between the groups, checked against pandas' group means (η²)."""
    import pandas as pd

    X, labels = three_rings(40, 0.1, 0)
    labels = labels + 1  # a class's groups are 1, 2, 3
    sweep = ct.contour_sweep(X, [ct.KernelSpec("rbf", sigma=1.0)], n_components=2, labels=labels)
    colours = ("#E69F00", "#56B4E9", "#009E73")
    fig = contour_figures.contour_figure(sweep, title="The class's points", group_colours=colours)
    said = contour_figures.describe_contours(sweep, title="The class's points")
    markers = [t for t in fig.data if (t.name or "").startswith("group ")]
    assert len(markers) == 3
    for trace in markers:  # a group's markers in each of the two panels
        assert f"{trace.name}: {len(trace.x) // 2} points" in said.text
    kpc1 = pd.Series(sweep.columns[0].fit.projections[:, 0])
    means = kpc1.groupby(labels).transform("mean")
    eta = ((means - kpc1.mean()) ** 2).sum() / ((kpc1 - kpc1.mean()) ** 2).sum()
    column = sweep.column_label(0)
    assert f"{column}: {eta:.0%} of kPC 1's variance on the data lies between the groups" in (
        said.text
    )


def test_the_digit_wall_in_words_says_which_digits_and_how_much_each_method_changed() -> None:
    """Per digit its name and the mean squared change of each method, read from the wall's
    own tiles (written, classic, kernel rows per band)."""
    rng = np.random.RandomState(0)
    side, columns, names = 4, 3, ["D3", "D4", "D5", "D6"]
    images = np.full((6, columns, side**2), -1.0)
    for i in range(len(names)):
        band, c = divmod(i, columns)
        images[3 * band : 3 * band + 3, c] = rng.uniform(-1, 1, (3, side**2))
    fig = denoise_figures.mosaic_figure(
        images, side=side, row_labels=["Written", "Classic", "Kernel"] * 2, column_labels=[""] * 3
    )
    said = denoise_figures.describe_wall(images, names, of=9)
    z, step = np.asarray(fig.data[0].z, float), side + 1
    assert "4 digits, the latest of 9: D3, D4, D5, D6" in said.text
    for i, name in enumerate(names):
        band, c = divmod(i, columns)
        tiles = [
            z[(3 * band + r) * step : (3 * band + r) * step + side, c * step : c * step + side]
            for r in range(3)
        ]
        classic, kernel = (np.mean((t - tiles[0]) ** 2) for t in tiles[1:])
        assert f"{name}: classic {classic:.3f}, kernel {kernel:.3f}" in said.text
    assert len(said.table) == 4
