"""Deręgowski & Krzyśko's three rings: which kernel component carries the radius.

Section 4 of the paper: 100 points on each of the circles of radius 1, 2 and
4 (:func:`kpca_core.datasets.three_rings`; the paper's "in a circle" can also
mean inside the disc), the Gaussian kernel
k(x, y) = exp(−c‖x − y‖²), i.e. γ = c, and c = 0.017.  Their Fig. 5 claims
that "the first kernel principal direction gives a meaningful order of how
far each observation is away from the origin".  Whether it does depends on
a step the paper never mentions:

* **centred in feature space** (eq. 49 of Schölkopf et al., the standard
  kernel PCA): at this wide kernel kPC 1 and kPC 2 are nearly the linear x
  and y, and the radius is kPC 3 (on ``three_rings(random_state=0)``,
  |Spearman ρ| with ‖x‖ of 0.15, 0.07 and 0.96);
* **not centred in feature space** (the paper centres only the inputs,
  X_ic = X_i − X̄, which does not change a Gaussian kernel, and solves
  K α = γ̃ α, their eq. 3.7, on the raw K): kPC 1 is the radius (0.96,
  close to but not exactly a monotone function of it).

Why: every Φ(x) of a Gaussian kernel has length 1 and all of them lie on one
side of the origin of the feature space.  Uncentred, the first axis points
at their mean, and a point's value on it is nearly its mean similarity to the
data, Σ_j α_j k(x_j, x), highest in the dense middle and lowest on the outer
ring: the radius.  Centring subtracts that mean, and what varies most around
it is then the position in the plane (x and y), so the radius comes third.

The radius is ‖x‖, the distance to the rings' common centre; the data are
generated around the origin.  The correlation is Spearman's (a rank
correlation): the claim is about *order*, and a component may be any
monotone function of the radius.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import spearmanr

from .kernel_pca import KernelPCA

DK_GAMMA = 0.017
"""Deręgowski & Krzyśko's c in exp(−c‖x − y‖²), i.e. γ = c: where they report
the maximum of (λ₁+λ₂)/Σλ (Fig. 4) and draw the projection of Fig. 5."""


@dataclass(frozen=True)
class Reading:
    """One formulation of kernel PCA on the rings: its components and their radius order.

    Attributes
    ----------
    center : bool
        Whether K was centred in feature space (eq. 49).
    components : ndarray of shape (n_samples, n_components)
        kPC 1, kPC 2, … of the data points (eq. 17).
    explained : ndarray of shape (n_components,)
        λ_k/Σλ of each component.
    correlations : ndarray of shape (n_components,)
        |Spearman ρ| of each component with the radius ‖x‖
        (:func:`radius_correlations`).
    """

    center: bool
    components: np.ndarray
    explained: np.ndarray
    correlations: np.ndarray

    @property
    def radius_component(self) -> int:
        """The component (1-based) whose order follows the radius most closely."""
        return int(np.argmax(self.correlations)) + 1


def radius_correlations(components: np.ndarray, X: np.ndarray) -> np.ndarray:
    """|Spearman ρ| of each component with the radius ‖x‖ (``scipy.stats.spearmanr``).

    Parameters
    ----------
    components : ndarray of shape (n_samples, n_components)
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    ndarray of shape (n_components,)
        1 when a component orders the points exactly by their distance from
        the origin (or exactly reversed), near 0 when it ignores it.
    """
    radius = np.linalg.norm(X, axis=1)
    return np.array([abs(spearmanr(column, radius).statistic) for column in components.T])


def reading(
    X: np.ndarray, *, gamma: float = DK_GAMMA, center: bool = True, n_components: int = 3
) -> Reading:
    """Gaussian kernel PCA of ``X``, centred or not, and each component's radius correlation.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    gamma : float, default=DK_GAMMA
        The c of exp(−c‖x − y‖²).
    center : bool, default=True
        Centre in feature space (eq. 49); ``False`` is the paper's eq. 3.7 on K.
    n_components : int, default=3
    """
    model = KernelPCA(
        n_components,
        kernel="rbf",
        gamma=gamma,
        center=center,
        random_state=0,
        remove_zero_eig=True,
    )
    components = model.fit_transform(X)
    return Reading(
        center=center,
        components=components,
        explained=model.explained_variance_ratio_,
        correlations=radius_correlations(components, X),
    )


def fig5_readings(
    X: np.ndarray, *, gamma: float = DK_GAMMA, n_components: int = 3
) -> tuple[Reading, Reading]:
    """Both readings of Deręgowski & Krzyśko's Fig. 5: centred, then uncentred."""
    return (
        reading(X, gamma=gamma, center=True, n_components=n_components),
        reading(X, gamma=gamma, center=False, n_components=n_components),
    )
