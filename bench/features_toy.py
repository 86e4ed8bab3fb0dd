"""The Features view's toy: server-side time of a slider change, ours against scikit-learn.

Run ``python bench/features_toy.py``.  On 300 points of each 2-D set, with one
BLAS thread (as the app runs, ``app.py``), the median time of:

- a change of the kernel or its parameter: kernel PCA fit, components of the
  points and of the 100 × 100 grid (:func:`kpca_core.features.toy_features`),
  the two linear SVMs and their decision regions
  (:func:`~kpca_core.features.toy_experiment`) and the figure;
- a change of n alone: the SVMs and the figure, the fit cached;
- the same work as one scikit-learn ``Pipeline(KernelPCA, LinearSVC)``
  (fit and predict on the grid) per change, for comparison.

Wall time and CPU time are printed: with one BLAS thread, the CPU time is
what a change costs when the server has a core to itself.

The machine has 2 cores shared with other work: times are indicative.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.pipeline import Pipeline
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results import save
from kpca_core import sigma_to_gamma
from kpca_core.datasets import TOY_2D
from kpca_core.features import linear_classifier, toy_experiment, toy_features
from kpca_core.figures.features import toy_regions_figure

SETS = ("moons", "circles", "three_rings")
N_COMPONENTS = 10


def median_times(work: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median wall and CPU time of ``work()`` after one warm-up call.

    With one BLAS thread the CPU time is what the work costs when it has a
    core to itself; the wall time is what it took on the shared machine.
    """
    work()
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def ms(times: tuple[float, float]) -> str:
    return f"{1e3 * times[0]:.0f} ms (CPU {1e3 * times[1]:.0f} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=300)
    parser.add_argument("--sigma", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    gamma = sigma_to_gamma(args.sigma)
    rows = []
    with threadpool_limits(1, user_api="blas"):
        for name in SETS:
            X, y = TOY_2D[name](args.points, random_state=0)
            features = toy_features(X, y, kernel="rbf", gamma=gamma)

            def kernel_change(X=X, y=y):
                f = toy_features(X, y, kernel="rbf", gamma=gamma)
                return toy_regions_figure(f, toy_experiment(f, N_COMPONENTS))

            def n_change(features=features):
                return toy_regions_figure(features, toy_experiment(features, N_COMPONENTS))

            grid = np.column_stack([a.ravel() for a in np.meshgrid(features.xs, features.ys)])

            def sklearn_change(X=X, y=y, grid=grid):
                kpca = SklearnKernelPCA(N_COMPONENTS, kernel="rbf", gamma=gamma)
                pipeline = Pipeline([("kpca", kpca), ("svm", linear_classifier())])
                return pipeline.fit(X, y).predict(grid)

            kernel = median_times(kernel_change, args.repeats)
            n = median_times(n_change, args.repeats)
            theirs = median_times(sklearn_change, args.repeats)
            result = toy_experiment(features, N_COMPONENTS)
            print(
                f"{name}, {args.points} points, Gaussian σ = {args.sigma}, n = {N_COMPONENTS}: "
                f"kernel change {ms(kernel)}, n change {ms(n)}; "
                f"scikit-learn Pipeline fit + grid predict {ms(theirs)}; "
                f"accuracy kernel {100 * result.kernel_accuracy:.1f} %, "
                f"raw {100 * result.raw_accuracy:.1f} %",
                flush=True,
            )
            rows.append(
                [
                    name,
                    1e3 * kernel[1],
                    1e3 * n[1],
                    1e3 * theirs[1],
                    100 * result.kernel_accuracy,
                    100 * result.raw_accuracy,
                ]
            )
    save(
        "features_toy",
        f"Features toy: a slider change, {args.points} points, Gaussian σ = {args.sigma}, "
        f"n = {N_COMPONENTS}",
        [
            "data set",
            "kernel change, CPU (ms)",
            "n change, CPU (ms)",
            "scikit-learn Pipeline, CPU (ms)",
            "accuracy on kernel components (%)",
            "accuracy on x, y (%)",
        ],
        rows,
        note="A kernel change: kernel PCA fit, components of the points and of the 100 × 100 "
        "grid, the two linear SVMs and the figure; scikit-learn: Pipeline(KernelPCA, "
        f"LinearSVC) fit and grid predict. CPU medians of {args.repeats}, one BLAS thread.",
    )


if __name__ == "__main__":
    main()
