"""Pre-image methods side by side on USPS: time, error and failures; the animation's build time.

Run ``python bench/preimages.py`` with ``KPCA_USPS_DIR`` pointing at the USPS
files. The paper's protocol (300 training and 50 test digits per class, seed
0, the Gaussian-noise preset of :data:`kpca_core.denoise.PRESETS`): for each
method of :mod:`kpca_core.preimage_methods`, the pre-images of the 500 noisy
test digits at one n (``--n``, several allowed): median wall time over
``--repeats`` runs (after one warm-up), CPU time, MSE to the clean digits,
failures and restarts. scikit-learn's learned pre-image
(``KernelPCA(fit_inverse_transform=True)``) is timed in the same process: its
fit with and without the inverse map, the difference being the cost of the
kernel ridge fit, beside ours. Then the server-side build of the 2-D toy's
animation (fit, paths, figure, JSON).

The machine has 2 cores shared with other work: treat times as indicative.
"""

from __future__ import annotations

import argparse
import statistics
import time

from sklearn.decomposition import KernelPCA as SklearnKernelPCA

from kpca_core.denoise import PRESETS, DigitDenoiser, sample_digits, squared_errors
from kpca_core.figures.preimages import fixed_point_animation
from kpca_core.preimage_compare import toy_paths
from kpca_core.preimage_methods import (
    METHOD_LABELS,
    METHODS,
    GaussianExpansion,
    PreimageProblem,
    preimages,
)
from kpca_core.usps import load_usps

SEED = 0


def timed(work, repeats: int) -> tuple[float, float, object]:
    """(median wall, median CPU, last result) of ``work()`` after one warm-up call."""
    result = work()
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[16, 256])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    preset = next(iter(PRESETS.values()))
    data = sample_digits(
        load_usps("train"), load_usps("test"), 300, 50, side=16, source="USPS", random_state=SEED
    )
    clean = data.X_test
    noisy = preset.noise.apply(clean, SEED + 1)
    model = DigitDenoiser(preset.c, center=preset.center).fit(data.X_train)
    expansion = GaussianExpansion.of(model.kernel_)
    M, n_digits = len(data.X_train), len(clean)
    print(
        f"USPS, {M} training digits, {n_digits} noisy test digits ({preset.noise.describe()}), "
        f"k = exp(-|x-y|^2 / {1 / model.kernel_.gamma_:g}), centring {preset.center}"
    )
    print(f"MSE of the noisy digits: {squared_errors(noisy, clean).mean():.2f}")
    gamma = model.kernel_.gamma_
    for n in args.n:
        wall, cpu, beta = timed(lambda n=n: expansion.project(noisy, n), args.repeats)
        print(f"\nn = {n}: projection onto the first n axes (shared) {wall:.3f} s wall")
        header = f"{'wall s':>7} {'CPU s':>7} {'MSE':>7} {'failures':>8} {'restarts':>8}"
        print(f"  {'method':<50} {header}")
        for method in METHODS:
            wall, cpu, result = timed(
                lambda method=method, beta=beta: preimages(
                    PreimageProblem(expansion, beta, noisy), method
                ),
                args.repeats,
            )
            mse = squared_errors(result.Z, clean).mean()
            print(
                f"  {METHOD_LABELS[method]:<50} {wall:7.3f} {cpu:7.3f} {mse:7.2f} "
                f"{result.failures:8d} {result.total_restarts:8d}"
            )
        plain, _, _ = timed(
            lambda n=n: SklearnKernelPCA(n, kernel="rbf", gamma=gamma).fit(data.X_train), 1
        )
        with_map, _, sk = timed(
            lambda n=n: SklearnKernelPCA(
                n, kernel="rbf", gamma=gamma, fit_inverse_transform=True
            ).fit(data.X_train),
            1,
        )
        ours_ridge, _, ridge = timed(
            lambda beta=beta: preimages(PreimageProblem(expansion, beta, noisy), "ridge"), 1
        )
        sk_Z = sk.inverse_transform(sk.transform(noisy))
        print(
            f"  scikit-learn fit_inverse_transform: fit {with_map:.2f} s vs {plain:.2f} s without "
            f"the map (map {with_map - plain:.2f} s); ours, map + 500 pre-images "
            f"{ours_ridge:.2f} s; ratio {(with_map - plain) / ours_ridge:.2f}; "
            f"MSE sklearn (centred) {squared_errors(sk_Z, clean).mean():.2f}, "
            f"ours {squared_errors(ridge.Z, clean).mean():.2f}"
        )

    def animation() -> object:
        toy, paths = toy_paths("square")
        return fixed_point_animation(paths, toy.noisy, selected=0).to_json()

    wall, cpu, _ = timed(animation, max(args.repeats, 5))
    _, paths = toy_paths("square")
    print(
        f"\nanimation (square, 200 points, {paths.n_frames} frames): fit + paths + figure + JSON "
        f"{1000 * wall:.0f} ms wall, {1000 * cpu:.0f} ms CPU"
    )


if __name__ == "__main__":
    main()
