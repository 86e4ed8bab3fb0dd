"""The plain-language demo's cases and verdict: digits where kernel PCA wins, measured.

The demo shows one noisy digit cleaned by linear PCA ("classic method") and by
kernel PCA ("kernel method") with the numbers of components of Mika et al.
(1999), Fig. 4. Which digits, and how much noise, is chosen by measuring: for
every test digit the squared error to its clean original of both methods
(Mika et al., Sec. 4), and the ratio kernel / linear. Only digits whose ratio
is at most :data:`MAX_RATIO` are shown; the noise level is the one where every
class has such digits and the verdict on them differs most. They are shown in
rounds over the classes, the clearest first (:attr:`DemoCases.clarity`: kernel
PCA's picture clean and the verdict widest), so that no class comes twice in a row.
Chosen by nothing, every test digit can be shown too, in turns over the classes
(:func:`in_turns`); :meth:`DemoCases.median` is the verdict over all of them.

The verdict says how much of the noise each method removed,
:func:`noise_gone`: 1 − ‖z − x‖² / ‖x̃ − x‖² for the clean digit x, its noisy
version x̃ and a reconstruction z.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .denoise import DEMO_N, DigitDenoiser, Noise, squared_errors

MAX_RATIO = 0.5
"""A convincing case: kernel PCA's squared error at most this share of linear PCA's."""
CLEAN = 0.8
"""Kernel PCA's picture looks clean when it removed at least this share of the noise."""


def noisy_digits(X: np.ndarray, indices: np.ndarray, noise: Noise) -> np.ndarray:
    """Each digit ``X[i]`` with noise seeded by ``i``, as the demo draws it one at a time."""
    return np.vstack([noise.apply(X[i : i + 1], int(i)) for i in indices])


@dataclass(frozen=True)
class DemoCases:
    """The measured test digits at one noise level, in the order the demo shows them.

    Attributes
    ----------
    level : float
        Noise level (Gaussian σ on the 0–1 intensity scale).
    errors : ndarray of shape (3, n_digits)
        Squared error to the clean digit of the noisy digit, of linear PCA's
        reconstruction and of kernel PCA's.
    chosen : ndarray of int
        Indices of the digits with a ratio ≤ :data:`MAX_RATIO`, in showing order
        (:func:`showing_order`).
    n_classes : int
        How many classes the chosen digits cover.
    max_ratio : float
        The largest ratio kernel / linear of a chosen digit.
    """

    level: float
    errors: np.ndarray
    chosen: np.ndarray
    n_classes: int
    max_ratio: float = MAX_RATIO

    @property
    def n_wins(self) -> int:
        """How many test digits have a ratio ≤ :attr:`max_ratio` (the chosen ones are among
        them: :func:`showing_order` may leave out a last class's)."""
        return int(np.count_nonzero(self.ratios <= self.max_ratio))

    def median(self) -> Verdict:
        """The median over every test digit of the share of the noise each method removed
        (:func:`noise_gone`, each median taken on its own)."""
        noise, linear, kernel = self.errors
        tiny = np.finfo(float).tiny
        return Verdict(
            float(np.median(1 - kernel / np.maximum(noise, tiny))),
            float(np.median(1 - linear / np.maximum(noise, tiny))),
        )

    @property
    def ratios(self) -> np.ndarray:
        """Kernel PCA's squared error ÷ linear PCA's, per test digit."""
        return self.errors[2] / np.maximum(self.errors[1], np.finfo(float).tiny)

    @property
    def gaps(self) -> np.ndarray:
        """How much more of the noise kernel PCA removes than linear PCA, per test digit:
        the difference of their :func:`noise_gone`, (‖z_lin − x‖² − ‖z_kern − x‖²) / ‖x̃ − x‖²."""
        noise, linear, kernel = self.errors
        return (linear - kernel) / np.maximum(noise, np.finfo(float).tiny)

    @property
    def clarity(self) -> np.ndarray:
        """How clear each case is to an audience: first those where kernel PCA's picture is
        clean (at least :data:`CLEAN` of the noise gone), then by :attr:`gaps`."""
        noise, _, kernel = self.errors
        clean = 1 - kernel / np.maximum(noise, np.finfo(float).tiny) >= CLEAN
        return self.gaps + 2.0 * clean  # a gap is below 2: the clean ones come first

    @property
    def gap(self) -> float:
        """The median of :attr:`gaps` over the chosen digits (0 if none)."""
        return float(np.median(self.gaps[self.chosen])) if len(self.chosen) else 0.0


def showing_order(clarity: np.ndarray, labels: np.ndarray, eligible: np.ndarray) -> np.ndarray:
    """The eligible digits in rounds over the classes, never two of one class in a row.

    Within a class the digits go by ``clarity``, largest (clearest) first; the classes
    go in the order of their clearest digit, so the first digit shown is the clearest
    of all. Round r shows the r-th digit of each class that has one; the rounds
    stop before one with a single class, so that neither inside the sequence nor
    from its end back to its start does a class follow itself.

    Parameters
    ----------
    clarity : ndarray of shape (n,)
        The larger, the clearer the case (the demo's: :attr:`DemoCases.clarity`).
    labels : ndarray of shape (n,)
    eligible : ndarray of bool, shape (n,)

    Returns
    -------
    ndarray of int
        Indices into ``clarity``.
    """
    per_class = []
    for label in np.unique(labels[eligible]):
        members = np.flatnonzero(eligible & (labels == label))
        per_class.append(members[np.argsort(-clarity[members], kind="stable")])
    per_class.sort(key=lambda members: -clarity[members[0]])
    if len(per_class) == 1:
        return per_class[0][:1]
    order: list[int] = []
    for r in range(max((len(m) for m in per_class), default=0)):
        round_ = [int(members[r]) for members in per_class if len(members) > r]
        if len(round_) < 2:
            break
        order += round_
    return np.array(order, dtype=int)


def in_turns(labels: np.ndarray) -> np.ndarray:
    """Every digit, in turns over the classes: the first of each class (by index), then the
    second of each, and so on; the order of "any test digit", which picks none.

    Parameters
    ----------
    labels : ndarray of shape (n,)

    Returns
    -------
    ndarray of int
        A permutation of ``range(n)``.
    """
    labels = np.asarray(labels)
    place = np.zeros(len(labels), dtype=int)  # each digit's place among its class's
    for label in np.unique(labels):
        members = labels == label
        place[members] = np.arange(np.count_nonzero(members))
    return np.lexsort((labels, place))


def measure(
    model: DigitDenoiser,
    X: np.ndarray,
    labels: np.ndarray,
    level: float,
    *,
    n_linear: int = DEMO_N["linear"],
    n_kernel: int = DEMO_N["kernel"],
    max_ratio: float = MAX_RATIO,
) -> DemoCases:
    """Both methods' squared errors on every digit of ``X`` at Gaussian noise ``level``.

    The error of a reconstruction z of the clean digit x is ‖z − x‖² (summed
    over pixels), as in :func:`kpca_core.denoise.squared_errors`; the noise of
    digit i is seeded by i (:func:`noisy_digits`), as the demo draws it.
    """
    indices = np.arange(len(X))
    noisy = noisy_digits(X, indices, Noise("gaussian", level))
    errors = np.stack(
        [
            squared_errors(noisy, X),
            squared_errors(model.reconstruct_linear(noisy, n_linear), X),
            squared_errors(model.reconstruct_kernel(noisy, n_kernel)[0], X),
        ]
    )
    cases = DemoCases(level, errors, np.zeros(0, dtype=int), 0)
    eligible = cases.ratios <= max_ratio
    labels = np.asarray(labels)
    return DemoCases(
        level,
        errors,
        showing_order(cases.clarity, labels, eligible),
        len(np.unique(labels[eligible])),
        max_ratio,
    )


def most_convincing(cases: Iterable[DemoCases]) -> DemoCases:
    """The noise level where the digits shown cover most classes, then where the verdict
    differs most (:attr:`DemoCases.gap`; the lower level on a tie).

    Measured on USPS: the share of the noise removed is further apart at a little
    noise than at much (with much noise, both remove most of it, though kernel
    PCA's error is still less than half of linear PCA's).
    """
    return max(cases, key=lambda c: (c.n_classes, c.gap, -c.level))


def noise_gone(clean: np.ndarray, noisy: np.ndarray, reconstruction: np.ndarray) -> float:
    """The share of the noise a reconstruction removed: 1 − ‖z − x‖² / ‖x̃ − x‖².

    Parameters
    ----------
    clean, noisy, reconstruction : ndarray of shape (n_pixels,)
        The digit x, with noise x̃, and de-noised z.

    Returns
    -------
    float
        1 when z is the clean digit, 0 when it is as far from it as the noisy
        one, negative when further.
    """
    noise = float(np.sum((np.asarray(noisy) - clean) ** 2))
    left = float(np.sum((np.asarray(reconstruction) - clean) ** 2))
    return 1.0 - left / noise if noise > 0 else 0.0


@dataclass(frozen=True)
class Verdict:
    """How much of the noise each method removed (:func:`noise_gone`)."""

    kernel: float
    classic: float

    @staticmethod
    def of(
        clean: np.ndarray, noisy: np.ndarray, classic: np.ndarray, kernel: np.ndarray
    ) -> Verdict:
        """The verdict on one digit's two reconstructions."""
        clean = np.ravel(clean)
        return Verdict(
            noise_gone(clean, np.ravel(noisy), np.ravel(kernel)),
            noise_gone(clean, np.ravel(noisy), np.ravel(classic)),
        )

    def words(self) -> str:
        """E.g. ``"kernel method: 71 % of the noise gone; classic: 38 %"``."""
        return (
            f"kernel method: {percent(self.kernel)}; classic: {percent(self.classic, short=True)}"
        )


def percent(share: float, *, short: bool = False) -> str:
    """A share of the noise gone in words: ``"71 % of the noise gone"`` (``short``: ``"71 %"``)."""
    if share < 0:
        return "none, further from the original than the noisy digit"
    value = f"{round(100 * share)} %"
    return value if short else f"{value} of the noise gone"
