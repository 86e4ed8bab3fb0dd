"""Schölkopf et al. (1998) Table 2 on USPS: the grid, and speed against scikit-learn.

Run ``python bench/features_usps.py`` with ``KPCA_USPS_DIR`` pointing at the
folder holding ``zip.train.gz`` and ``zip.test.gz``.  The protocol is that of
:mod:`kpca_core.features`.

1. The grid: for each degree one decomposition (kernel PCA of the first 3000
   training digits, all eigenpairs, and the first 2048 components of all 9298
   digits), then its cells in increasing n, the SVM's linear kernel grown
   from one n to the next.  Writes ``assets/features_table2.csv`` (``--out``)
   with the command, date and commit as ``#`` lines.  ``--degrees`` and
   ``--n`` compute a subset.
2. Speed, at the degrees of ``--compare`` (default 3), in the same run:
   (i) the eigendecomposition with all components: ours
   (``kpca_core.KernelPCA``), scikit-learn's ``KernelPCA`` and a bare
   ``scipy.linalg.eigh`` of the same centred kernel matrix; (ii) the
   projection of the 6298 + 2007 other digits onto 2048 components, ours and
   scikit-learn's; (iii) one cell (n = 2048) from the cached decomposition,
   and scikit-learn's ``LinearSVC`` (dual="auto") fitted once on the same
   components at the C our cell chose (a cell fits one SVM per C and one more).

The machine has 2 cores shared with other work: times are indicative.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from scipy import linalg
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.svm import LinearSVC

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import interleaved_medians
from kpca_core.features import (
    C_GRID,
    KPCA_TRAIN,
    LINEAR_MAX_COMPONENTS,
    TABLE2_DEGREES,
    TABLE2_N,
    Decomposition,
    Table2Data,
    decompose,
    load_table2_data,
    polynomial_kpca,
    table2_cell,
    table2_cells,
    table2_csv,
)
from kpca_core.kernel_pca import center_kernel
from kpca_core.kernels import kernel_matrix

ROOT = Path(__file__).resolve().parent.parent
EIGH_REPEATS = 3
"""Runs of each eigendecomposition compared, in turn (medians printed)."""


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "kpca_core", "bench"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def timed(work):
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def sklearn_kpca(degree: int, n_components: int | None) -> SklearnKernelPCA:
    return SklearnKernelPCA(
        n_components,
        kernel="poly",
        degree=degree,
        gamma=1.0 / LINEAR_MAX_COMPONENTS,
        coef0=0.0,
        eigen_solver="dense",
    )


def compare_eigendecomposition(data: Table2Data, degree: int) -> None:
    X = data.train_images[:KPCA_TRAIN]
    K, _, _ = center_kernel(
        kernel_matrix(X, kernel="poly", degree=degree, gamma=1.0 / LINEAR_MAX_COMPONENTS, coef0=0)
    )
    times = interleaved_medians(
        {
            "ours": lambda: polynomial_kpca(degree).fit(X),
            "theirs": lambda: sklearn_kpca(degree, None).fit(X),
            "bare": lambda: linalg.eigh(K, driver="evd", check_finite=False),
        },
        EIGH_REPEATS,
    )
    ours, theirs, bare = times["ours"], times["theirs"], times["bare"]
    print(
        f"degree {degree} eigendecomposition of {KPCA_TRAIN} digits, all components, "
        f"median of {EIGH_REPEATS} in turn: "
        f"ours {ours:.1f} s, scikit-learn {theirs:.1f} s (ratio {theirs / ours:.2f}), "
        f"bare scipy eigh {bare:.1f} s (ours / eigh {ours / bare:.2f})",
        flush=True,
    )


def compare_projection(data: Table2Data, degree: int, n: int) -> None:
    X = data.train_images[:KPCA_TRAIN]
    others = np.vstack([data.train_images[KPCA_TRAIN:], data.test_images])
    ours_model = polynomial_kpca(degree, n).fit(X)
    their_model = sklearn_kpca(degree, n).fit(X)
    _, ours = timed(lambda: ours_model.transform(others))
    _, theirs = timed(lambda: their_model.transform(others))
    print(
        f"degree {degree} projection of {len(others)} digits onto {n} components: "
        f"ours {ours:.1f} s, scikit-learn {theirs:.1f} s (ratio {theirs / ours:.2f})",
        flush=True,
    )


def compare_cell(decomposition: Decomposition, n: int) -> None:
    cell = table2_cell(decomposition, n)
    F = decomposition.train_features[:, :n]
    svc, theirs = timed(lambda: LinearSVC(C=cell.C, dual="auto").fit(F, decomposition.train_labels))
    error = 100 * np.mean(
        svc.predict(decomposition.test_features[:, :n]) != decomposition.test_labels
    )
    print(
        f"degree {decomposition.degree} cell n = {n} from the cached decomposition: "
        f"ours {cell.seconds:.1f} s (linear kernel + {len(C_GRID) + 1} SVM fits, C = {cell.C:g}, "
        f"error {cell.test_error:.2f} %); scikit-learn LinearSVC one fit at that C "
        f"{theirs:.1f} s (error {error:.2f} %)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--degrees", type=int, nargs="+", default=list(TABLE2_DEGREES))
    parser.add_argument("--n", type=int, nargs="+", default=list(TABLE2_N))
    parser.add_argument("--compare", type=int, nargs="*", default=[3])
    parser.add_argument("--out", type=Path, default=ROOT / "assets" / "features_table2.csv")
    args = parser.parse_args()

    started = datetime.datetime.now(datetime.UTC)
    provenance = {
        "command": shlex.join(["python", "bench/features_usps.py", *sys.argv[1:]]),
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared)",
        "protocol": (
            "Schölkopf et al. 1998 Sect. 6.3; kernel PCA (x.y/256)^d centred on the first "
            f"{KPCA_TRAIN} training digits; linear SVM (libsvm, one against the rest) on the "
            "components of all 7291 training digits, C chosen on 20 % held-out training "
            "digits; error on the 2007 test digits"
        ),
    }
    data = load_table2_data()
    cells = []
    total_start = time.perf_counter()
    for degree in args.degrees:
        if degree in args.compare:
            compare_eigendecomposition(data, degree)
            compare_projection(data, degree, max(args.n))
        decomposition = decompose(data, degree, n_max=max(args.n))
        seconds = decomposition.seconds
        print(
            f"degree {degree}: eigendecomposition {seconds['eigendecomposition']:.1f} s, "
            f"projection of 9298 digits onto {decomposition.n_max} components "
            f"{seconds['projection']:.1f} s",
            flush=True,
        )
        ns = [n for n in args.n if n <= decomposition.n_max]
        for cell in table2_cells(decomposition, ns):
            print(
                f"  d={degree} n={cell.n_components:5d}  C={cell.C:<7g} "
                f"held-out {cell.validation_errors[cell.C]:5.2f} %  test {cell.test_error:5.2f} %"
                f"  paper {cell.paper_error:4.1f} %  ({cell.seconds:.1f} s)",
                flush=True,
            )
            cells.append(cell)
        if degree in args.compare:
            compare_cell(decomposition, max(ns))
        del decomposition
        # written after every degree, so that an interrupted run keeps what it computed
        elapsed = time.perf_counter() - total_start
        provenance["seconds"] = f"{elapsed:.0f} (including the comparisons with scikit-learn)"
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(table2_csv(cells, provenance), encoding="utf-8")
    print(f"{len(cells)} cells in {elapsed:.0f} s; wrote {args.out}")


if __name__ == "__main__":
    main()
