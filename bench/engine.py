"""Engine benchmarks: the same work through kpca_core and scikit-learn, in one process.

    python bench/engine.py                  # the two targets of the engine issues
    python bench/engine.py --solvers        # the solvers side by side (auto: kpca_core.budget)
    python bench/engine.py --kernels        # our kernel formulas against sklearn.metrics.pairwise
    python bench/engine.py --inverse-start  # where inverse_transform's fixed point starts (USPS)
    python bench/engine.py --large          # past the dense solver: randomized, Nyström

1. The Fig. 2 grid: parabola with 300 points; homogeneous polynomial kernels of
   degree 1–4; first 3 components; projections of a 100 × 100 grid.
   Target: ours ≤ 40 ms and ≥ 10× faster than scikit-learn.  Also printed:
   the time of the estimator's input and parameter validation in that work.
2. A Gaussian kernel on 3000 points in 256 dimensions, all components.
   Target: no slower than scikit-learn's dense solver, within 1.15× of a bare
   ``scipy.linalg.eigh(driver="evd")`` of the same centred matrix (the floor);
   the fit's stages are timed one by one.  Ours, scikit-learn's and the
   floor run in turn, so that the machine's slow spells (2 cores shared with
   other tenants) fall on all three alike.

``--large`` (issue 34), in one run:

3. Nyström, 50 000 × 50 (anisotropic Gaussian data, variances 0.85^(2j)),
   rbf, 2000 landmarks, 50 components.  Targets: fit ≤ 30 s on 2 cores
   (the CPU time of all threads is printed too: on a shared machine the
   wall time measures the other tenants), peak memory ≤ 4 GB (tracemalloc's
   peak of the fit, and the process's maximum resident size so far).  Then
   its error against the exact
   solution at 5000 × 50, where the exact one fits: leading eigenvalues and
   components of 500 held-out points.
4. The randomized solver on the 7291 USPS training digits (256 pixels),
   rbf with Mika et al.'s c = 0.5, 256 components: ours against
   scikit-learn's ``eigen_solver="randomized"`` (same algorithm,
   ``_randomized_eigsh``; target ratio ≥ 1), and the relative error of its
   leading 50 eigenvalues against ARPACK's converged ones (target ≤ 1e-6).

``--inverse-start`` and ``--large`` need the USPS digits (``KPCA_USPS_DIR``).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
import tracemalloc
from functools import partial
from pathlib import Path

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import eigsh
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.metrics import pairwise

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results import save
from bench.timing import interleaved_medians, median_time
from kpca_core import KernelPCA
from kpca_core.datasets import parabola
from kpca_core.eigenproblem import center_kernel
from kpca_core.kernel_pca import _all_finite
from kpca_core.kernels import kernel_matrix

COLUMNS = ["work", "ours (ms)", "scikit-learn (ms)", "ratio"]
RATIO = "ratio = scikit-learn's time / ours: above 1 we are faster."


def report(name: str, ours: float, theirs: float, target: str) -> list[object]:
    """Print one comparison; return it as a row of :data:`COLUMNS`."""
    print(
        f"{name:<46} ours {ours * 1e3:9.1f} ms   scikit-learn {theirs * 1e3:9.1f} ms   "
        f"ratio {theirs / ours:6.1f}x   ({target})"
    )
    return [name, ours * 1e3, theirs * 1e3, theirs / ours]


def fig2_grid(repeats: int) -> list[object]:
    X, _ = parabola(300, random_state=0)
    axis = np.linspace(-1.2, 1.2, 100)
    grid = np.column_stack([g.ravel() for g in np.meshgrid(axis, axis)])
    params = {"kernel": "poly", "gamma": 1.0, "coef0": 0.0}

    def ours() -> list[np.ndarray]:
        return [
            KernelPCA(3, degree=d, random_state=0, **params).fit(X).transform(grid)
            for d in (1, 2, 3, 4)
        ]

    def theirs() -> list[np.ndarray]:
        return [SkKernelPCA(3, degree=d, **params).fit(X).transform(grid) for d in (1, 2, 3, 4)]

    def validation() -> None:
        for d in (1, 2, 3, 4):
            model = KernelPCA(3, degree=d, random_state=0, **params)
            model._validate_params()
            model._validate_input(X, reset=True)
            model._validate_input(grid, reset=False)

    t_ours = median_time(ours, repeats)
    row = report(
        "Fig. 2 grid (300 pts, degrees 1-4, 3 comps, 100x100)",
        t_ours,
        median_time(theirs, repeats),
        "target: ours <= 40 ms and >= 10x",
    )
    t_valid = median_time(validation, repeats)
    print(
        f"{'  of which validation (4 fits, 4 transforms)':<46} {t_valid * 1e3:9.2f} ms   "
        f"{t_valid / t_ours:6.1%} of ours"
    )
    return row


def gaussian_all_components(repeats: int) -> tuple[list[object], float]:
    X = np.random.RandomState(0).rand(3000, 256)
    gamma = 1.0 / (256 * X.var())

    def ours() -> KernelPCA:
        return KernelPCA(kernel="rbf", gamma=gamma, eigen_solver="auto").fit(X)

    def theirs() -> SkKernelPCA:
        return SkKernelPCA(kernel="rbf", gamma=gamma, eigen_solver="dense").fit(X)

    K, _, _ = center_kernel(kernel_matrix(X, kernel="rbf", gamma=gamma), overwrite=True)
    times = interleaved_medians(
        {"ours": ours, "theirs": theirs, "floor": lambda: linalg.eigh(K, driver="evd")}, repeats
    )
    t_ours, t_floor = times["ours"], times["floor"]
    row = report(
        "Gaussian, 3000 x 256, all components", t_ours, times["theirs"], "target: ratio >= 1"
    )
    print(
        f"{'  floor: bare scipy.linalg.eigh(evd) of K':<46} {t_floor * 1e3:9.1f} ms   "
        f"ours / floor {t_ours / t_floor:5.2f}   (target <= 1.15)"
    )
    fit_stages(X, gamma, t_floor)
    fit_around_eigh(X, gamma, repeats)
    return row, t_ours / t_floor


def fit_stages(X: np.ndarray, gamma: float, t_floor: float) -> None:
    """Each stage of ``KernelPCA.fit`` timed alone (one run each after a warm-up)."""
    model = KernelPCA(kernel="rbf", gamma=gamma)
    K = kernel_matrix(X, kernel="rbf", gamma=gamma)
    center_kernel(K, overwrite=True)  # centring K̃ again changes nothing: same work
    mu, u = linalg.eigh(K, driver="evd")
    M = len(X)
    scale = float(np.abs(kernel_matrix(X, kernel="rbf", gamma=gamma)).max())
    stages = {
        "validation (validate_data, parameters)": lambda: (
            model._validate_params(),
            model._validate_input(X, reset=True),
        ),
        "kernel matrix (eq. 10)": lambda: kernel_matrix(X, kernel="rbf", gamma=gamma),
        "finite checks (2 x K)": lambda: (_all_finite(K), _all_finite(K)),
        "centring in place (eq. 49)": lambda: center_kernel(K, overwrite=True),
        "eigh: scipy.linalg.eigh(evd) (ours, on a copy of K)": lambda: linalg.eigh(
            K.copy().T, driver="evd", overwrite_a=True, check_finite=False
        ),
        "normalisation: sort, rank, signs, scale (eq. 50)": lambda: model._normalise(
            mu, u, M, float(mu.min()), float(np.trace(K)), scale
        ),
    }
    total = 0.0
    for name, work in stages.items():
        t = median_time(work, 1)
        total += t
        print(f"    {name:<50} {t * 1e3:9.1f} ms   {t / t_floor:5.2f} x floor")
    print(f"    {'sum of the stages':<50} {total * 1e3:9.1f} ms   {total / t_floor:5.2f} x floor")


def fit_around_eigh(X: np.ndarray, gamma: float, repeats: int) -> None:
    """The time a real fit spends before and after its eigensolver, from its progress marks."""
    before, after = [], []
    for _ in range(repeats):
        marks: dict[str, float] = {}

        def mark(_: float, message: str, marks: dict[str, float] = marks) -> None:
            marks[message] = time.perf_counter()

        start = time.perf_counter()
        KernelPCA(kernel="rbf", gamma=gamma).fit(X, progress=mark)
        end = time.perf_counter()
        before.append(marks["eigenproblem (eq. 12)"] - start)
        after.append(end - marks["normalisation (eq. 50)"])
    print(
        f"    {'in the fit itself: before eigh / after eigh':<50} "
        f"{statistics.median(before) * 1e3:6.0f} ms / {statistics.median(after) * 1e3:4.0f} ms"
    )


def kernel_table(repeats: int) -> None:
    """Our kernel formulas against ``sklearn.metrics.pairwise`` (the project's rule)."""
    rng = np.random.RandomState(0)
    block, train, big = rng.rand(256, 2), rng.rand(300, 2), rng.rand(3000, 256)
    poly = {"degree": 3, "gamma": 0.5, "coef0": 1.0}
    cases = {
        "Fig. 2 block (256 x 300, 2-D), poly d=3": (
            partial(kernel_matrix, block, train, kernel="poly", **poly),
            partial(pairwise.polynomial_kernel, block, train, **poly),
        ),
        "Fig. 2 block (256 x 300, 2-D), rbf": (
            partial(kernel_matrix, block, train, kernel="rbf", gamma=0.5),
            partial(pairwise.rbf_kernel, block, train, gamma=0.5),
        ),
        "large fit (3000 x 3000, 256-D), rbf": (
            partial(kernel_matrix, big, kernel="rbf", gamma=1 / 256),
            partial(pairwise.rbf_kernel, big, gamma=1 / 256),
        ),
    }
    rows = [
        report(name, median_time(ours, repeats), median_time(theirs, repeats), "kernel_matrix")
        for name, (ours, theirs) in cases.items()
    ]
    save(
        "engine_kernels",
        "Kernel matrices: kernel_matrix against sklearn.metrics.pairwise",
        COLUMNS,
        rows,
        note=f"Medians of {repeats}; {RATIO}",
    )


def inverse_starts(n_values: tuple[int, ...] = (16, 64, 256)) -> None:
    """Where the fixed point of ``inverse_transform`` starts, measured on Mika et al.'s Fig. 4.

    The protocol of ``bench/denoise_usps.py``: 300 training and 50 test USPS
    digits per class (seed 0), the noise of each preset (seed 1), k = exp(−‖x −
    y‖² / (N c)), c = 0.5.  From the components β of each noisy digit alone,
    eq. (10) is iterated from each candidate start; the MSE to the clean digit
    is printed (summed over pixels, mean over the 500 digits; lower is better).
    The noisy digit itself, the paper's start, is not known to
    ``inverse_transform`` and is shown for reference.
    """
    from kpca_core.denoise import PRESETS, kernel_gamma, sample_digits, squared_errors
    from kpca_core.preimage import expansion_weights
    from kpca_core.usps import load_usps

    data = sample_digits(
        load_usps("train"), load_usps("test"), 300, 50, side=16, source="USPS", random_state=0
    )
    X = data.X_train
    for center in (False, True):
        model = KernelPCA(kernel="rbf", gamma=kernel_gamma(0.5, X.shape[1]), center=center)
        model.fit(X)
        for label, preset in PRESETS.items():
            noisy = preset.noise.apply(data.X_test, 1)
            components = model.transform(noisy)
            print(f"\n{label}, centring {'on' if center else 'off'}: MSE after eq. (10) from")
            for n in n_values:
                beta = components[:, :n]
                weights = expansion_weights(beta, model.alphas_[:, :n], center=center)
                sums = weights.sum(axis=1, keepdims=True)
                largest = X[np.argmax(weights, axis=1)]
                ridge = model._ridge_map(n, model.alpha).predict(beta)
                starts = {
                    "largest weight (chosen)": largest,
                    "weighted mean": np.where(np.abs(sums) > 1e-12, weights @ X / sums, largest),
                    "ridge answer": ridge,
                    "noisy (paper)": noisy,
                }
                row = []
                for start in starts.values():
                    Z, _ = model._fixed_point(beta, start, 300, 1e-6, 0)
                    row.append(squared_errors(Z, data.X_test).mean())
                cells = "  ".join(
                    f"{name} {mse:7.2f}" for name, mse in zip(starts, row, strict=True)
                )
                ridge_mse = squared_errors(ridge, data.X_test).mean()
                print(f"  n = {n:>4}: {cells}  | ridge map alone {ridge_mse:7.2f}")


def nystrom_large(n_samples: int = 50_000, n_landmarks: int = 2000) -> None:
    """Nyström kernel PCA of 50 000 points: time, memory, and its error at a size exact fits."""

    def data(n: int, seed: int) -> np.ndarray:
        return np.random.RandomState(seed).randn(n, 50) * 0.85 ** np.arange(50)

    X = data(n_samples, 0)
    gamma = 1.0 / float(np.sum(0.85 ** (2 * np.arange(50))))  # 1 / E‖x‖²

    def fit(X: np.ndarray, m: int | None) -> KernelPCA:
        return KernelPCA(50, kernel="rbf", gamma=gamma, n_landmarks=m, random_state=0).fit(X)

    start, cpu = time.perf_counter(), time.process_time()
    fit(X, n_landmarks)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    tracemalloc.start()
    fit(X, n_landmarks)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(
        f"{'Nystrom, 50000 x 50, rbf, 2000 landmarks':<46} fit {seconds:6.1f} s (target <= 30 s;"
        f" CPU time of all threads {cpu:.1f} s, / 2 cores = {cpu / 2:.1f} s)"
        f"   peak {peak / 1e9:4.2f} GB (tracemalloc), process max RSS {rss / 1e9:4.2f} GB"
        " (target <= 4 GB)"
    )
    X, Y = data(5000, 1), data(500, 2)
    exact = fit(X, None)
    Z_exact = exact.transform(Y)
    for m in (500, 2000):
        model = fit(X, m)
        Z = model.transform(Y)
        signs = np.sign(np.sum(Z * Z_exact, axis=0))
        eig_error = (
            np.abs(model.eigenvalues_[:10] - exact.eigenvalues_[:10]) / exact.eigenvalues_[:10]
        )
        z_error = np.linalg.norm(Z[:, :10] * signs[:10] - Z_exact[:, :10]) / np.linalg.norm(
            Z_exact[:, :10]
        )
        print(
            f"  Nystrom vs exact, 5000 x 50, {m:>4} landmarks: leading 10 eigenvalues "
            f"max rel. error {eig_error.max():.1e}; their components of 500 new points "
            f"rel. error {z_error:.1e}"
        )


def usps_rbf() -> tuple[np.ndarray, dict]:
    """The 7291 USPS training digits and the randomized fit's parameters (c = 0.5)."""
    from kpca_core.denoise import kernel_gamma
    from kpca_core.usps import load_usps

    X = load_usps("train")[0]
    gamma = kernel_gamma(0.5, X.shape[1])
    return X, {"kernel": "rbf", "gamma": gamma, "eigen_solver": "randomized", "random_state": 0}


def randomized_usps(repeats: int) -> None:
    """The randomized solver on the 7291 USPS training digits, ours and scikit-learn's."""
    X, params = usps_rbf()
    times = interleaved_medians(
        {
            "ours": lambda: KernelPCA(256, **params).fit(X),
            "theirs": lambda: SkKernelPCA(256, **params).fit(X),
        },
        repeats,
    )
    report(
        "randomized, USPS 7291 x 256, rbf, 256 comps",
        times["ours"],
        times["theirs"],
        "target: ratio >= 1",
    )
    randomized_accuracy()


def randomized_accuracy() -> None:
    """Leading 50 eigenvalues of the randomized fit against ARPACK's to machine precision.

    The reference is ``eigsh(tol=0)`` (converged to rounding), not LAPACK's
    dense ``eigh``: on the shared 2 cores the dense eigh of the 7291 × 7291
    matrix did not finish within the run's 30 minutes.
    """
    X, params = usps_rbf()
    ours = KernelPCA(256, **params).fit(X)
    K, _, _ = center_kernel(kernel_matrix(X, kernel="rbf", gamma=params["gamma"]), overwrite=True)
    M = len(X)
    v0 = np.random.RandomState(0).uniform(-1, 1, M)
    exact = np.sort(eigsh(K, k=50, which="LA", tol=0, v0=v0, return_eigenvectors=False))[::-1]
    error = np.abs(ours.eigenvalues_[:50] - exact / M) / (exact / M)
    print(
        f"{'  leading 50 eigenvalues vs ARPACK (tol=0)':<46} max relative error {error.max():.1e}"
        "   (target <= 1e-6)"
    )


def solver_table() -> None:
    """Times of each solver for the top k of M, on 2-D and 256-D data."""
    rng = np.random.RandomState(0)
    rows = []
    print(f"{'data':<6}{'M':>6}{'k':>5}{'arpack':>10}{'subset':>10}{'dense':>10}   ms")
    for name, dim in (("2-D", 2), ("256-D", 256)):
        for M in (300, 1000, 2000):
            X = parabola(M, random_state=0)[0] if dim == 2 else rng.rand(M, dim)
            gamma = 2.0 if dim == 2 else 1.0 / (dim * 0.2)
            K, _, _ = center_kernel(kernel_matrix(X, kernel="rbf", gamma=gamma), overwrite=True)
            v0 = np.random.RandomState(0).uniform(-1, 1, M)
            dense = median_time(lambda K=K: linalg.eigh(K, driver="evd"), 3)
            for k in (3, 10, 30):
                arpack = median_time(lambda K=K, k=k, v0=v0: eigsh(K, k=k, which="LA", v0=v0), 3)
                subset = median_time(
                    lambda K=K, k=k, M=M: linalg.eigh(K, subset_by_index=(M - k, M - 1)), 3
                )
                print(
                    f"{name:<6}{M:>6}{k:>5}{arpack * 1e3:>10.1f}{subset * 1e3:>10.1f}"
                    f"{dense * 1e3:>10.1f}"
                )
                rows.append([name, M, k, arpack * 1e3, subset * 1e3, dense * 1e3])
    save(
        "engine_solvers",
        "Eigensolvers for the top k of M (rbf kernel), side by side",
        ["data", "M", "k", "arpack (ms)", "subset (ms)", "dense, all (ms)"],
        rows,
        note="Medians of 3; 'auto' takes the fastest for the problem's size.",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solvers", action="store_true", help="print the solver table")
    parser.add_argument("--kernels", action="store_true", help="ours against pairwise kernels")
    parser.add_argument(
        "--inverse-start", action="store_true", help="the fixed point's start on USPS (Fig. 4)"
    )
    parser.add_argument(
        "--large", action="store_true", help="randomized solver on USPS, Nyström on 50 000 points"
    )
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    if args.solvers:
        solver_table()
        return
    if args.kernels:
        kernel_table(args.repeats)
        return
    if args.inverse_start:
        inverse_starts()
        return
    if args.large:
        nystrom_large()
        randomized_usps(3)
        return
    fig2 = fig2_grid(args.repeats)
    gaussian, over_floor = gaussian_all_components(max(5, args.repeats // 3))
    save(
        "engine",
        "The engine against scikit-learn's KernelPCA, fit + transform",
        COLUMNS,
        [fig2, gaussian],
        note=f"Medians; {RATIO} The Gaussian fit takes {over_floor:.2f} times a bare "
        "scipy.linalg.eigh(driver='evd') of the same centred matrix, the floor.",
    )


if __name__ == "__main__":
    main()
