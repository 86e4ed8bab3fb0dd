"""Noise models of the USPS de-noising experiment (Mika et al. 1999, Sect. 4).

"We added (i) additive Gaussian noise with zero mean and standard deviation
σ = 0.5 or (ii) 'speckle' noise with probability p = 0.4 (i.e. each pixel
flips to black or white with probability p/2) to the test set."

Intensity scale: σ is meant on the data's own scale. The USPS files store grey
values in [−1, 1], twice the width of a [0, 1] scale, so a σ quoted for [0, 1]
images is ``sigma_on_file_scale(σ) = 2σ`` here (σ = 0.5 → 1.0). The paper does
not say which scale its σ = 0.5 refers to.

Both functions are pure: they return a new array and never modify ``X``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils import check_random_state

RandomState = int | np.random.RandomState | None


def sigma_on_file_scale(sigma_unit_scale: float) -> float:
    """Convert a noise σ quoted for [0, 1] intensities to the USPS files' [−1, 1].

    Parameters
    ----------
    sigma_unit_scale : float
        Standard deviation on a [0, 1] intensity scale.

    Returns
    -------
    float
        The same noise on a [−1, 1] scale: ``2 * sigma_unit_scale``.
    """
    return 2.0 * sigma_unit_scale


def gaussian_noise(X: ArrayLike, sigma: float, random_state: RandomState = None) -> np.ndarray:
    """Add N(0, σ²) to every pixel independently (Mika et al. 1999, Sect. 4, noise (i)).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_pixels)
        Clean images.
    sigma : float
        Standard deviation, on the scale of ``X`` itself (for USPS files in
        [−1, 1], use ``sigma_on_file_scale`` to convert a [0, 1]-scale σ).
        The result is not clipped to the intensity range.
    random_state : int, RandomState or None
        Seed for reproducible noise.

    Returns
    -------
    ndarray of the shape of ``X``, float64
        ``X + N(0, σ²)``.

    Raises
    ------
    ValueError
        If ``sigma`` is negative or not finite.
    """
    if not np.isfinite(sigma) or sigma < 0:
        raise ValueError(f"sigma must be a finite number ≥ 0, got {sigma!r}")
    X = np.asarray(X, dtype=np.float64)
    rng = check_random_state(random_state)
    return X + rng.normal(0.0, sigma + 0.0, X.shape)  # + 0.0: NumPy refuses a scale of −0.0


def speckle_noise(
    X: ArrayLike,
    p: float,
    random_state: RandomState = None,
    *,
    low: float = -1.0,
    high: float = 1.0,
) -> np.ndarray:
    """Set pixels to black or white at random (Mika et al. 1999, Sect. 4, noise (ii)).

    Each pixel is, with probability ``p``, replaced by ``low`` or ``high``,
    each with probability 1/2 given that it is hit: it "flips to black or
    white with probability p/2" each. A replaced pixel may keep its value if
    it already was ``low`` or ``high``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_pixels)
        Clean images.
    p : float
        Probability that a pixel is replaced, in [0, 1].
    random_state : int, RandomState or None
        Seed for reproducible noise.
    low, high : float
        The black and white values, on the scale of ``X`` (USPS files: −1 and 1).

    Returns
    -------
    ndarray of the shape of ``X``, float64

    Raises
    ------
    ValueError
        If ``p`` is not in [0, 1].
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be a probability in [0, 1], got {p!r}")
    X = np.array(X, dtype=np.float64)
    rng = check_random_state(random_state)
    hit = rng.random_sample(X.shape) < p
    white = rng.random_sample(X.shape) < 0.5
    X[hit] = np.where(white[hit], high, low)
    return X
