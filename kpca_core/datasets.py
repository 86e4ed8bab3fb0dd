"""Toy data sets of the papers, as pure seeded functions.

Every generator returns ``(X, labels)``: points of shape (n, n_features) and
an integer group label per point (the ring, the moon, the cluster; all zeros
where the set has no groups), so that figures can colour by group.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np
from sklearn import datasets as skdatasets
from sklearn.utils import check_random_state

from .usps import DigitsData, USPSError, load_digit_pair, load_digits_with_fallback, load_usps

RandomState = int | np.random.RandomState | None
Dataset = tuple[np.ndarray, np.ndarray]


def _scale(noise: float) -> float:
    """A noise level as NumPy takes it: −0.0 (equal to 0, which a client may send) as 0.0."""
    return float(noise) + 0.0


def parabola(n_samples: int = 300, noise: float = 0.2, random_state: RandomState = None) -> Dataset:
    """x ~ U[−1, 1], y = x² + N(0, noise²) (Schölkopf et al. 1998, Fig. 2)."""
    rng = check_random_state(random_state)
    x = rng.uniform(-1.0, 1.0, n_samples)
    y = x**2 + rng.normal(0.0, _scale(noise), n_samples)
    return np.column_stack([x, y]), np.zeros(n_samples, dtype=int)


def half_circle(
    n_samples: int = 200, noise: float = 0.1, random_state: RandomState = None
) -> Dataset:
    """The upper half of the unit circle with Gaussian noise (Mika et al. 1999, Fig. 1)."""
    rng = check_random_state(random_state)
    t = rng.uniform(0.0, np.pi, n_samples)
    X = np.column_stack([np.cos(t), np.sin(t)]) + rng.normal(0.0, _scale(noise), (n_samples, 2))
    return X, np.zeros(n_samples, dtype=int)


def square(n_samples: int = 200, noise: float = 0.1, random_state: RandomState = None) -> Dataset:
    """The outline of the square [−1, 1]² with Gaussian noise (Mika et al. 1999, Fig. 1).

    Points are uniform along the perimeter; the label is the side (0–3).
    """
    rng = check_random_state(random_state)
    s = rng.uniform(0.0, 8.0, n_samples)  # arc length along a perimeter of 8
    side = np.minimum(s // 2, 3).astype(int)
    t = s - 2 * side - 1.0  # position along the side, in [−1, 1]
    corners = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    directions = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    X = corners[side] + (t + 1.0)[:, np.newaxis] * directions[side]
    return X + rng.normal(0.0, _scale(noise), (n_samples, 2)), side


def three_rings(
    n_samples: int = 300, noise: float = 0.25, random_state: RandomState = None
) -> Dataset:
    """Points on the circles of radius 1, 2 and 4, the outer two with noise.

    Deręgowski & Krzyśko, Section 4: 100 points on each ring (``n_samples``
    split equally), N(0, noise²) added to each coordinate of the rings of
    radius 2 and 4.  The paper draws each set "from a uniform distribution in
    a circle of radius" 1, 2, 4, which can also be read as inside the disc;
    here the points lie on the circles (uniform in angle).  The label is the
    ring (0, 1, 2).
    """
    rng = check_random_state(random_state)
    per_ring = np.full(3, n_samples // 3)
    per_ring[: n_samples % 3] += 1
    parts, labels = [], []
    for ring, (radius, n) in enumerate(zip((1.0, 2.0, 4.0), per_ring, strict=True)):
        t = rng.uniform(0.0, 2 * np.pi, n)
        points = radius * np.column_stack([np.cos(t), np.sin(t)])
        if ring > 0:
            points += rng.normal(0.0, _scale(noise), (n, 2))
        parts.append(points)
        labels.append(np.full(n, ring))
    return np.vstack(parts), np.concatenate(labels)


def moons(n_samples: int = 300, noise: float = 0.05, random_state: RandomState = None) -> Dataset:
    """Two interleaving half circles (``sklearn.datasets.make_moons``)."""
    return skdatasets.make_moons(n_samples, noise=_scale(noise), random_state=random_state)


def circles(n_samples: int = 300, noise: float = 0.05, random_state: RandomState = None) -> Dataset:
    """Two concentric circles, radii 1 and 0.5 (``sklearn.datasets.make_circles``)."""
    return skdatasets.make_circles(
        n_samples, noise=_scale(noise), factor=0.5, random_state=random_state
    )


def gaussian_clusters(
    n_samples: int = 1100,
    noise: float = 0.1,
    random_state: RandomState = None,
    *,
    n_clusters: int = 11,
    n_features: int = 10,
    return_centers: bool = False,
) -> Dataset | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Eleven Gaussians in R^10 (Mika et al. 1999, Table 1).

    Centres uniform in [−1, 1]^10, standard deviation ``noise`` (the paper's
    σ) in each component, ``n_samples`` split equally among the clusters.
    With ``return_centers`` the centres come third, so that de-noised points
    can be compared with the centre they came from.
    """
    rng = check_random_state(random_state)
    centers = rng.uniform(-1.0, 1.0, (n_clusters, n_features))
    X, labels = skdatasets.make_blobs(
        n_samples=n_samples, centers=centers, cluster_std=_scale(noise), random_state=rng
    )
    return (X, labels, centers) if return_centers else (X, labels)


TOY_2D: dict[str, Callable[..., Dataset]] = {
    "parabola": parabola,
    "half_circle": half_circle,
    "square": square,
    "three_rings": three_rings,
    "moons": moons,
    "circles": circles,
}
"""The 2-D generators by name, for the pages' data pickers."""


def default_noise(name: str) -> float:
    """The noise level a 2-D generator uses by default (its papers' value)."""
    return float(inspect.signature(TOY_2D[name]).parameters["noise"].default)


__all__ = [
    "TOY_2D",
    "DigitsData",
    "USPSError",
    "circles",
    "default_noise",
    "gaussian_clusters",
    "half_circle",
    "load_digit_pair",
    "load_digits_with_fallback",
    "load_usps",
    "moons",
    "parabola",
    "square",
    "three_rings",
]
