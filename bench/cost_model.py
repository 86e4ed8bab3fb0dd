"""The cost model (``kpca_core.budget``) against measured times, on this machine.

    python bench/cost_model.py              # predicted / measured over a grid of requests
    python bench/cost_model.py --measure    # the constants of the engine's routes, measured
    python bench/cost_model.py --only "Table 2"   # the requests so named (nothing saved)

Everything runs with one BLAS thread, as in the app's workers (the model prices seconds
of one core), timed as this process's CPU time (``time.process_time``), which the other
tenants of the 2 cores do not lengthen as they do the wall time.  Each time is taken
beside the reference computation (``budget.reference_work``), and the prediction is
rescaled by the reference's time then against ``budget.REFERENCE_S`` (its time when the
constants were measured).  ``tests/test_cost_model.py`` asserts the same ratio, within
2×, over a smaller grid.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import eigsh
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results import save
from kpca_core import KernelPCA, budget
from kpca_core import contours as ct
from kpca_core.datasets import parabola, three_rings
from kpca_core.denoise import DigitDenoiser
from kpca_core.denoise.errors import SWEEP_N, error_sweep
from kpca_core.denoise.grids import FIG4_N, fig4_grid
from kpca_core.eigenproblem import center_kernel
from kpca_core.features import recompute_cell
from kpca_core.kernels import kernel_matrix, polynomial_features
from kpca_core.noise import gaussian_noise
from kpca_core.preimage_compare import compare_methods
from kpca_core.preimage_methods import METHODS
from kpca_core.spectrum import WidthSweep
from kpca_core.usps import load_usps

HEAVY_S = 3.0
"""A request predicted to take longer is timed once (after its warm-up)."""


def timed(work: Callable[[], object], repeats: int = 3) -> tuple[float, float]:
    """Median seconds of ``work`` and of the reference beside it, in turn, after a warm-up
    of each: the ratio of the two is what the machine's load does not change."""
    work()
    budget.reference_work()
    mine, reference = [], []
    for _ in range(repeats):
        start = time.process_time()
        budget.reference_work()
        reference.append(time.process_time() - start)
        start = time.process_time()
        work()
        mine.append(time.process_time() - start)
    return statistics.median(mine), statistics.median(reference)


def relative(work: Callable[[], object], base: float, repeats: int = 3) -> float:
    """Seconds of ``work`` in units of the reference computation timed beside it, times
    ``base`` (the reference's time at the start of the measurement)."""
    mine, reference = timed(work, repeats)
    return mine / reference * base


def requests() -> list[tuple[str, float, Callable[[], object]]]:
    """(name, predicted seconds, work) for each request of the grid the model prices."""
    rng = np.random.RandomState(0)
    made = []
    for M in (300, 1000, 2000):
        X = parabola(M, random_state=0)[0]
        for kernel in ("rbf", "sigmoid", "laplacian", "linear", "poly"):
            spec = ct.KernelSpec(kernel, sigma=0.5, degree=3, coef0=1.0)
            features = spec.explicit_features(M)
            predicted = budget.fit_seconds(M, kernel, features)
            work = lambda X=X, spec=spec: ct.fit_column(X, spec, n_components=3)  # noqa: E731
            made.append((f"Contours fit {kernel} M={M}", predicted, work))
        fit = ct.fit_column(X, ct.KernelSpec("rbf", sigma=0.5), n_components=3)
        for resolution in (60, 100):
            grid = ct.make_grid(X, resolution)
            predicted = budget.grid_seconds(M, resolution)
            work = lambda fit=fit, grid=grid: ct.evaluate_column(fit, grid)  # noqa: E731
            made.append((f"Contours grid rbf M={M} res={resolution}", predicted, work))
        grid = ct.make_grid(X, 200)  # through features: Fig. 2's (x·y)^4, (x·y + 1)^3, x·y
        shapes = ({"degree": 4, "coef0": 0.0}, {"degree": 3, "coef0": 1.0}, {})
        for spec in (ct.KernelSpec("linear" if not shape else "poly", **shape) for shape in shapes):
            column = ct.fit_column(X, spec, n_components=3)
            features = spec.explicit_features(M)
            predicted = budget.grid_seconds(M, 200, features, kernel=spec.kernel)
            work = lambda fit=column, grid=grid: ct.evaluate_column(fit, grid)  # noqa: E731
            made.append((f"Contours grid {spec.formula()} M={M} res=200", predicted, work))
    # a class's points, uniform in a square: ARPACK's steps grow as the kernel narrows
    square = np.random.RandomState(0).uniform(-1, 1, (6000, 2))
    for M, kernel, sigma in (
        (6000, "rbf", 0.5),
        (6000, "rbf", 0.1),  # the class refit of issue 53, one Gaussian column
        (2000, "rbf", 0.05),
        (2000, "laplacian", 0.1),
    ):
        X, spec = square[:M], ct.KernelSpec(kernel, sigma=sigma)
        predicted = budget.fit_seconds(M, kernel, narrowness=spec.narrowness(X))
        work = lambda X=X, spec=spec: ct.fit_column(X, spec, n_components=3)  # noqa: E731
        made.append((f"Contours fit {kernel} σ={sigma} uniform M={M}", predicted, work))
    for M, inputs, kernel, k in (
        (1000, 256, "rbf", 64),
        (2000, 64, "rbf", 3),
        (1000, 64, "sigmoid", 8),
        (2000, 30, "poly", 3),
        (2000, 256, "poly", 256),
    ):
        X = rng.rand(M, inputs)
        degree = 1 if k > 100 else 2
        predicted = budget.engine_fit_seconds(kernel, M, inputs, k, degree=degree, coef0=1.0)
        model = KernelPCA(k, kernel=kernel, degree=degree, random_state=0)
        work = lambda X=X, model=model: model.fit(X)  # noqa: E731
        made.append((f"KernelPCA {kernel} {M}x{inputs} k={k}", predicted, work))
    rings = three_rings(1000, random_state=0)[0]
    for M in (300, 1000):
        for kernel in ("rbf", "laplacian"):
            predicted = budget.sweep_seconds(M, 10, kernel)
            sweep = WidthSweep(kernel, n_widths=10, n_jobs=1)
            work = lambda sweep=sweep, X=rings[:M]: sweep.fit(X)  # noqa: E731
            made.append((f"Spectrum sweep {kernel} M={M}, 10 widths", predicted, work))
    try:
        train, (test, labels) = load_usps("train")[0], load_usps("test")
    except Exception:  # no USPS digits here: the denoising model and Table 2 are left out
        return made
    work = lambda: DigitDenoiser(0.5).fit(train[:1000])  # noqa: E731
    made.append(("Denoising model, 1000 digits", budget.denoise_seconds(1000), work))
    return made + preimage_requests(train, test, labels) + table2_requests()


def preimage_requests(
    train: np.ndarray, test: np.ndarray, labels: np.ndarray
) -> list[tuple[str, float, Callable[[], object]]]:
    """The Denoising view's pre-images (``budget.preimage_seconds``): its error curve, its
    Fig. 4 grid and its comparison of every method, on 1000 training digits."""
    made = []
    noisy = gaussian_noise(test[:50], 0.5, random_state=0)
    shown = test[:10], noisy[:10], labels[:10]
    for c in (0.5, 0.1):
        model = DigitDenoiser(c).fit(train[:1000])
        n_values = sum(n <= model.n_kernel_max_ for n in SWEEP_N)
        for methods in (("fixed-point",), ("fixed-point", "ridge")):
            predicted = budget.preimage_seconds(50, 1000, n_values, methods, c=c)
            ridge = "ridge" in methods
            work = lambda m=model, r=ridge: error_sweep(m, test[:50], noisy, ridge=r)  # noqa: E731
            name = f"Error curve, 50 digits, c={c}" + (", learned too" if ridge else "")
            made.append((name, predicted, work))
        for method in ("fixed-point", "ridge"):
            predicted = budget.preimage_seconds(10, 1000, len(FIG4_N), (method,), c=c)
            work = lambda m=model, how=method: fig4_grid(m, *shown, side=16, method=how)  # noqa: E731
            made.append((f"Fig. 4 grid {method}, c={c}", predicted, work))
        predicted = budget.preimage_seconds(20, 1000, 4, METHODS, c=c)
        work = lambda m=model: compare_methods(m, test[:20], noisy[:20], (4, 16, 64, 256))  # noqa: E731
        made.append((f"Every pre-image method, 20 digits, c={c}", predicted, work))
    return made


def table2_requests() -> list[tuple[str, float, Callable[[], object]]]:
    """Live cells of the Features view's Table 2 (``budget.table2_cell_seconds``): the
    protocol's (3000 digits fitted, all 7291 trained on) and smaller ones."""
    made = []
    for degree, n, sizes in (
        (3, 64, {}),
        (5, 2048, {}),
        (2, 32, {"n_fit": 7291}),  # all the training digits: the randomized solver
        (2, 32, {"n_fit": 1000, "n_train": 2000, "n_test": 500}),
        (4, 256, {"n_fit": 1000, "n_train": 2000, "n_test": 500}),
    ):
        predicted = budget.table2_cell_seconds(n, **sizes)
        work = lambda d=degree, n=n, sizes=sizes: recompute_cell(d, n, **sizes)  # noqa: E731
        words = ", ".join(f"{k}={v}" for k, v in sizes.items()) or "the protocol"
        made.append((f"Table 2 cell d={degree} n={n} ({words})", predicted, work))
    return made


def compare(repeats: int, only: str = "") -> None:
    """Print predicted / measured per request; save the table when every request ran."""
    rows = []
    print(f"{'request':<52}{'predicted (s)':>15}{'measured (s)':>15}{'ratio':>8}")
    with threadpool_limits(1, user_api="blas"):
        for name, predicted, work in requests():
            if only not in name:
                continue
            mine, reference = timed(work, repeats if predicted < HEAVY_S else 1)
            scaled = predicted * reference / budget.REFERENCE_S
            rows.append([name, round(scaled, 4), round(mine, 4), round(scaled / mine, 2)])
            print(f"{name:<52}{scaled:>15.4f}{mine:>15.4f}{scaled / mine:>8.2f}", flush=True)
    if only:
        return
    save(
        "cost_model",
        "The cost model's predicted seconds against measured ones, one BLAS thread",
        ["request", "predicted (s)", "measured (s)", "predicted / measured"],
        rows,
        note="predicted rescaled by the reference computation timed beside each request",
    )


def measure() -> None:
    """Each constant of the engine's routes, as a median over a grid of sizes."""
    rng = np.random.RandomState(0)
    base = timed(budget.reference_work, 7)[1]
    print(f"REFERENCE_S = {base:.4f}")
    entry: dict[str, list[tuple[int, float]]] = {}
    for kernel in ("linear", "poly", "rbf", "sigmoid", "cosine", "laplacian"):
        for M, inputs in ((500, 2), (1500, 2), (1000, 64), (1000, 256)):
            X = rng.rand(M, inputs)

            def build(X: np.ndarray = X, kernel: str = kernel) -> None:
                K = kernel_matrix(X, kernel=kernel, gamma=1.0 / X.shape[1], degree=3)
                center_kernel(K, overwrite=True)

            entry.setdefault(kernel, []).append((inputs, relative(build, base) / M**2 * 1e9))
    gemm = [
        (b[1] - a[1]) / (b[0] - a[0])
        for a, b in zip(entry["linear"], entry["linear"][1:], strict=False)
        if b[0] > a[0]
    ]
    gemm_ns = statistics.median(gemm)
    print(f"GEMM_NS = {gemm_ns:.3f}")
    for kernel, values in entry.items():
        if kernel == "laplacian":
            per = statistics.median(t / n for n, t in values)
        else:
            per = statistics.median(t - gemm_ns * n for n, t in values)
        print(f"ENTRY_NS[{kernel!r}] = {per:.2f}")
    dense, subset, arpack = [], [], []
    for M in (500, 1000, 1500):
        X = parabola(M, random_state=0)[0]
        K, _, _ = center_kernel(kernel_matrix(X, kernel="rbf", gamma=2.0), overwrite=True)
        dense.append(relative(lambda K=K: linalg.eigh(K, driver="evd"), base, 1) / M**3 * 1e9)
        for k in (2, 8, 30):
            top = (M - k, M - 1)
            subset.append(
                relative(lambda K=K, top=top: linalg.eigh(K, subset_by_index=top), base, 1)
                / M**3
                * 1e9
            )
            v0 = np.random.RandomState(0).uniform(-1, 1, M)
            steps = budget.ARPACK_STEPS[0] + budget.ARPACK_STEPS[1] * k
            work = lambda K=K, k=k, v0=v0: eigsh(K, k=k, which="LA", v0=v0)  # noqa: E731
            seconds = relative(work, base, 1)
            arpack.append(seconds / (M**2 * steps) * 1e9)
    print(f"DENSE_NS[0] (with DENSE_NS[1] = 0) = {statistics.median(dense):.3f}")
    print(f"SUBSET_NS[0] (with SUBSET_NS[1] = 0) = {statistics.median(subset):.3f}")
    print(f"ARPACK_NS = {statistics.median(arpack):.3f}")
    build, svd = [], []
    for M, inputs, degree in ((2000, 256, 1), (4000, 30, 2), (10000, 2, 4)):
        X = rng.rand(M, inputs)
        Phi = polynomial_features(X, degree=degree, gamma=1.0, coef0=1.0)
        D = Phi.shape[1]
        seconds = relative(
            lambda X=X, d=degree: polynomial_features(X, degree=d, gamma=1.0, coef0=1.0), base
        )
        build.append(seconds / (M * D) * 1e9)
        seconds = relative(lambda P=Phi: linalg.svd(P - P.mean(axis=0), full_matrices=False), base)
        svd.append(seconds / (M * D**2) * 1e9)
    print(f"FEATURE_NS = {statistics.median(build):.3f}")
    print(f"SVD_NS = {statistics.median(svd):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", action="store_true", help="measure the constants")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="", help="the requests whose name has this (not saved)")
    args = parser.parse_args()
    if args.measure:
        with threadpool_limits(1, user_api="blas"):
            measure()
    else:
        compare(args.repeats, args.only)


if __name__ == "__main__":
    main()
