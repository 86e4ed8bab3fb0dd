"""The fit at one chosen width: a full kernel PCA there, and its components over a grid.

The sweep computes eigenvalues only.  Eigenvectors, the components and their
maps, are computed at the one width the user chose, by a full
:class:`~kpca_core.kernel_pca.KernelPCA` fit with the kernel of that width
(:func:`kernel_params`), then evaluated over a grid around 2-D data
(:func:`component_grid`, eqs. 51, 54).
"""

from __future__ import annotations

import numpy as np

from ..kernel_pca import KernelPCA, Progress, _check_array
from ..kernels import sigma_to_gamma
from .base import Sweep, SweepKernel


def kernel_params(
    kernel: SweepKernel, sweep: Sweep, value: float, *, degree: int, coef0: float
) -> dict:
    """Keyword arguments of :class:`~kpca_core.kernel_pca.KernelPCA` at one width.

    Parameters
    ----------
    kernel, sweep : as ``WidthSweep``
    value : float
        The swept parameter: σ (``"rbf"``), ℓ (``"laplacian"``), c or the degree.
    degree, coef0
        The polynomial's fixed degree (c swept) or fixed offset (degree swept).
    """
    if kernel == "rbf":
        return {"kernel": "rbf", "gamma": sigma_to_gamma(value)}
    if kernel == "laplacian":
        return {"kernel": "laplacian", "gamma": 1.0 / value}
    if sweep == "degree":
        return {"kernel": "poly", "gamma": 1.0, "degree": int(value), "coef0": coef0}
    return {"kernel": "poly", "gamma": 1.0, "degree": int(degree), "coef0": value}


def fit_at(
    X: np.ndarray,
    params: dict,
    n_components: int | None = 2,
    *,
    progress: Progress | None = None,
) -> KernelPCA:
    """A full kernel PCA (eigenvectors too) of ``X`` with the kernel ``params``."""
    model = KernelPCA(n_components, random_state=0, remove_zero_eig=True, **params)
    return model.fit(X, progress=progress)


def component_grid(
    model: KernelPCA,
    X: np.ndarray,
    *,
    n_components: int = 2,
    resolution: int = 80,
    margin: float = 0.15,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first nonlinear components over a grid covering 2-D data (eqs. 51, 54).

    Parameters
    ----------
    model : fitted KernelPCA
    X : ndarray of shape (n_samples, 2)
        The points whose bounding box, widened by ``margin`` of its size on
        every side, the grid covers.
    n_components : int, default=2
    resolution : int, default=80
        Grid points along each axis.

    Returns
    -------
    xs : ndarray of shape (resolution,)
    ys : ndarray of shape (resolution,)
    values : ndarray of shape (n, resolution, resolution)
        ``values[k, i, j]`` is component k + 1 at (xs[j], ys[i]), for the
        n = min(n_components, model.n_components_) components there are.
    """
    X = _check_array(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"contour maps need 2-D data, got {X.shape[1]} features")
    low, high = X.min(axis=0), X.max(axis=0)
    pad = margin * np.maximum(high - low, 1e-12)
    xs = np.linspace(low[0] - pad[0], high[0] + pad[0], resolution)
    ys = np.linspace(low[1] - pad[1], high[1] + pad[1], resolution)
    gx, gy = np.meshgrid(xs, ys)
    n = min(n_components, model.n_components_)
    values = model.transform(np.column_stack([gx.ravel(), gy.ravel()]))[:, :n]
    return xs, ys, values.T.reshape(n, resolution, resolution)
