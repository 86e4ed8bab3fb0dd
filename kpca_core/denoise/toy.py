"""Mika et al. Fig. 1: de-noising a noisy half circle or square outline in the plane."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.decomposition import PCA

from ..datasets import half_circle, square
from ..kernel_pca import KernelPCA
from .settings import kernel_gamma

TOY_SETS = {"half_circle": half_circle, "square": square}
"""The two data sets of Mika et al. Fig. 1."""


@dataclass(frozen=True)
class ToyDenoising:
    """Mika et al. Fig. 1 for one data set: noisy points and their de-noised versions.

    Attributes
    ----------
    name : str
    noisy : ndarray of shape (n, 2)
    kernel : ndarray of shape (n, 2)
        Kernel PCA with ``n_kernel`` components, fixed-point pre-images.
    linear : ndarray of shape (n, 2)
        Linear PCA with one component.
    n_kernel : int
    restarts : int
    """

    name: str
    noisy: np.ndarray
    kernel: np.ndarray
    linear: np.ndarray
    n_kernel: int
    restarts: int = 0


def toy_denoising(
    name: str,
    *,
    n_samples: int = 200,
    noise: float = 0.1,
    c: float = 0.5,
    n_components: int = 4,
    center: bool = True,
    random_state: int | None = 0,
) -> ToyDenoising:
    """De-noise a noisy half circle or square outline (Mika et al. Fig. 1).

    Both methods are fitted on the noisy points themselves, which are then
    projected and mapped back: kernel PCA (k = exp(−‖x − y‖² / (2c)), i.e.
    N = 2 in the paper's exp(−‖x − y‖² / (N c))) with ``n_components``
    components and fixed-point pre-images (eq. 10), linear PCA with one
    component (with two, the reconstruction is the data itself).

    Parameters
    ----------
    name : {"half_circle", "square"}
    n_samples : int
    noise : float
        Standard deviation of the Gaussian noise added to each coordinate.
    c : float
        Kernel width per dimension.
    n_components : int
    center : bool
    random_state : int or None
        Seeds the data and the restarts.
    """
    if name not in TOY_SETS:
        raise ValueError(f"name must be one of {sorted(TOY_SETS)}, got {name!r}")
    X, _ = TOY_SETS[name](n_samples, noise, random_state)
    kpca = KernelPCA(
        n_components,
        kernel="rbf",
        gamma=kernel_gamma(c, 2),
        center=center,
        remove_zero_eig=True,
    )
    kpca.fit(X)
    Z, info = kpca.preimage(X, random_state=random_state, return_info=True)
    pca = PCA(n_components=1).fit(X)
    return ToyDenoising(
        name=name,
        noisy=X,
        kernel=Z,
        linear=pca.inverse_transform(pca.transform(X)),
        n_kernel=int(kpca.n_components_),
        restarts=int(info["restarts"]),
    )


def distance_to_curve(name: str, X: np.ndarray) -> np.ndarray:
    """Each point's distance to the clean curve of toy set ``name`` (:data:`TOY_SETS`): the
    upper half of the unit circle (below the x axis, its nearer end) or the square
    [−1, 1]²'s outline.

    Parameters
    ----------
    name : {"half_circle", "square"}
    X : ndarray of shape (n, 2)

    Returns
    -------
    ndarray of shape (n,)
    """
    X = np.asarray(X, dtype=float)
    if name == "half_circle":
        ends = np.hypot(np.abs(X[:, 0]) - 1.0, X[:, 1])
        return np.where(X[:, 1] >= 0, np.abs(np.hypot(X[:, 0], X[:, 1]) - 1.0), ends)
    if name == "square":
        reach = np.abs(X).max(axis=1)
        outside = np.hypot(*np.maximum(np.abs(X) - 1.0, 0.0).T)
        return np.where(reach <= 1.0, 1.0 - reach, outside)
    raise ValueError(f"name must be one of {sorted(TOY_SETS)}, got {name!r}")
