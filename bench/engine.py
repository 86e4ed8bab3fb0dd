"""Engine benchmarks: the same work through kpca_core and scikit-learn, in one process.

    python bench/engine.py              # the two targets of the engine issue
    python bench/engine.py --solvers    # the table behind eigen_solver="auto"

1. The Fig. 2 grid: parabola with 300 points; homogeneous polynomial kernels of
   degree 1–4; first 3 components; projections of a 100 × 100 grid.
   Target: ours ≤ 40 ms and ≥ 10× faster than scikit-learn.
2. A Gaussian kernel on 3000 points in 256 dimensions, all components.
   Target: no slower than scikit-learn's dense solver, within 1.3× of a bare
   ``scipy.linalg.eigh`` of the same matrix (the floor).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import eigsh
from sklearn.decomposition import KernelPCA as SkKernelPCA

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_time
from kpca_core import KernelPCA
from kpca_core.datasets import parabola
from kpca_core.kernel_pca import center_kernel
from kpca_core.kernels import kernel_matrix


def report(name: str, ours: float, theirs: float, target: str) -> None:
    print(
        f"{name:<46} ours {ours * 1e3:9.1f} ms   scikit-learn {theirs * 1e3:9.1f} ms   "
        f"ratio {theirs / ours:6.1f}x   ({target})"
    )


def fig2_grid(repeats: int) -> None:
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

    report(
        "Fig. 2 grid (300 pts, degrees 1-4, 3 comps, 100x100)",
        median_time(ours, repeats),
        median_time(theirs, repeats),
        "target: ours <= 40 ms and >= 10x",
    )


def gaussian_all_components(repeats: int) -> None:
    X = np.random.RandomState(0).rand(3000, 256)
    gamma = 1.0 / (256 * X.var())

    def ours() -> KernelPCA:
        return KernelPCA(kernel="rbf", gamma=gamma, eigen_solver="auto").fit(X)

    def theirs() -> SkKernelPCA:
        return SkKernelPCA(kernel="rbf", gamma=gamma, eigen_solver="dense").fit(X)

    K, _, _ = center_kernel(kernel_matrix(X, kernel="rbf", gamma=gamma))
    t_ours = median_time(ours, repeats)
    t_floor = median_time(lambda: linalg.eigh(K, driver="evd"), repeats)
    report(
        "Gaussian, 3000 x 256, all components",
        t_ours,
        median_time(theirs, repeats),
        "target: ratio >= 1",
    )
    print(
        f"{'  floor: bare scipy.linalg.eigh(evd) of K':<46} {t_floor * 1e3:9.1f} ms   "
        f"ours / floor {t_ours / t_floor:5.2f}   (target <= 1.3)"
    )


def solver_table() -> None:
    """Times of each solver for the top k of M, on 2-D and 256-D data."""
    rng = np.random.RandomState(0)
    print(f"{'data':<6}{'M':>6}{'k':>5}{'arpack':>10}{'subset':>10}{'dense':>10}   ms")
    for name, dim in (("2-D", 2), ("256-D", 256)):
        for M in (300, 1000, 2000):
            X = parabola(M, random_state=0)[0] if dim == 2 else rng.rand(M, dim)
            gamma = 2.0 if dim == 2 else 1.0 / (dim * 0.2)
            K, _, _ = center_kernel(kernel_matrix(X, kernel="rbf", gamma=gamma))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solvers", action="store_true", help="print the solver table")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    if args.solvers:
        solver_table()
        return
    fig2_grid(args.repeats)
    gaussian_all_components(max(3, args.repeats // 5))


if __name__ == "__main__":
    main()
