"""The columns of the Contours grid as the user sets them: kernels, parameters, values.

A column is one kernel with its parameters (:class:`KernelSpec`); a sweep
sets one parameter to each of a few values typed by the user
(:func:`parse_values`, :func:`sweep_specs`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from .. import budget
from ..kernel_pca import explicit_features
from ..kernels import sigma_to_gamma

KernelKind = Literal["linear", "poly", "rbf", "laplacian", "sigmoid", "pca"]
Parameter = Literal["degree", "c", "gamma", "sigma"]

MAX_COMPONENTS = 8
MAX_COLUMNS = 6

SWEEPABLE: dict[str, tuple[str, ...]] = {
    "poly": ("degree", "c", "gamma"),
    "rbf": ("sigma",),
    "laplacian": ("sigma",),
    "sigmoid": ("c", "gamma"),
    "linear": (),
}
"""The parameters of each kernel that can make the columns of the grid."""

DEFAULT_VALUES: dict[tuple[str, str], str] = {
    ("poly", "degree"): "1, 2, 3, 4",
    ("poly", "c"): "0, 0.5, 1, 2",
    ("poly", "gamma"): "0.1, 1, 10",
    ("rbf", "sigma"): "0.1, 0.3, 1, 3",
    ("laplacian", "sigma"): "0.3, 1, 3, 10",
    ("sigmoid", "c"): "-1, -0.5, 0, 0.5",
    ("sigmoid", "gamma"): "0.1, 1, 10",
}
"""Values shown when a parameter is chosen to sweep (Fig. 2: degrees 1–4)."""

LIMITS: dict[str, tuple[float, float]] = {
    "degree": (1, 10),
    "c": (-100.0, 100.0),
    "gamma": (1e-6, 1e6),
    "sigma": (1e-4, 1e4),
}
"""Accepted range of each parameter, inclusive."""

SYMBOLS = {"degree": "degree", "c": "c", "gamma": "γ", "sigma": "σ"}
FIELDS = {"degree": "degree", "c": "coef0", "gamma": "gamma", "sigma": "sigma"}
"""Each parameter's field of :class:`KernelSpec`."""


@dataclass(frozen=True)
class KernelSpec:
    """One kernel with its parameters, as the user sets them.

    ``kernel="pca"`` is scikit-learn's linear PCA, the comparison column.
    The polynomial is (γ x·y + c)^d (eq. 22 for γ = 1, c = 0); the sigmoid
    tanh(γ x·y + c) (eq. 63); the Gaussian exp(−‖x−y‖²/(2σ²)) (eq. 62); the
    Laplacian exp(−‖x−y‖₁/σ).
    """

    kernel: KernelKind
    degree: int = 2
    gamma: float = 1.0
    coef0: float = 0.0
    sigma: float = 1.0

    @property
    def engine_gamma(self) -> float:
        """The γ that :class:`~kpca_core.KernelPCA` takes for this kernel."""
        if self.kernel == "rbf":
            return sigma_to_gamma(self.sigma)
        if self.kernel == "laplacian":
            return 1.0 / self.sigma
        return float(self.gamma)

    def value(self, parameter: Parameter) -> float:
        """The current value of ``parameter``."""
        return {"degree": self.degree, "c": self.coef0, "gamma": self.gamma, "sigma": self.sigma}[
            parameter
        ]

    def with_value(self, parameter: Parameter, value: float) -> KernelSpec:
        """A copy with ``parameter`` set to ``value``."""
        value = int(value) if parameter == "degree" else float(value)
        return replace(self, **{FIELDS[parameter]: value})

    def used(self) -> KernelSpec:
        """The same kernel with the parameters it does not use (:data:`SWEEPABLE`) at their
        defaults: two specs that differ only there fit the same (a cache's key)."""
        used = SWEEPABLE.get(self.kernel, ())
        return KernelSpec(self.kernel, **{FIELDS[p]: getattr(self, FIELDS[p]) for p in used})

    def formula(self) -> str:
        """The kernel written out with its numbers, e.g. ``(x·y)^2``."""
        if self.kernel == "pca":
            return "linear PCA (scikit-learn)"
        if self.kernel == "linear":
            return "x·y"
        if self.kernel == "rbf":
            return f"exp(−‖x−y‖²/(2·{self.sigma:g}²)), γ = {self.engine_gamma:.3g}"
        if self.kernel == "laplacian":
            return f"exp(−‖x−y‖₁/{self.sigma:g}), γ = {self.engine_gamma:.3g}"
        inner = "x·y" if self.gamma == 1 else f"{self.gamma:g} x·y"
        if self.coef0:
            inner = f"{inner} {'+' if self.coef0 > 0 else '−'} {abs(self.coef0):g}"
        if self.kernel == "sigmoid":
            return f"tanh({inner})"
        return f"({inner})^{self.degree}"

    def narrowness(self, X: np.ndarray) -> float:
        """How many of this kernel's widths σ the points ``X`` spread over (Gaussian and
        Laplacian; 1 for the others): what the cost model prices ARPACK's steps by
        (:func:`kpca_core.budget.narrowness`)."""
        return budget.narrowness(X, self.sigma) if self.kernel in ("rbf", "laplacian") else 1.0

    def explicit_features(self, n_points: int, n_components: int = 3) -> int | None:
        """The features a fit of ``n_components`` components of ``n_points`` points in the
        plane goes through, or ``None`` where it forms the kernel matrix
        (:func:`kpca_core.kernel_pca.explicit_features`): what :mod:`kpca_core.budget`
        prices the column by."""
        return explicit_features(
            self.kernel,
            n_points,
            2,
            degree=self.degree,
            coef0=self.coef0,
            n_components=n_components,
        )

    def label(self, parameter: Parameter | None) -> str:
        """Short column heading: the swept parameter's value, or the formula."""
        if self.kernel == "pca":
            return "linear PCA"
        if parameter is None:
            return self.formula()
        if parameter == "degree":
            return f"degree {self.degree}"
        return f"{SYMBOLS[parameter]} = {self.value(parameter):g}"


def sweep_specs(
    base: KernelSpec, parameter: Parameter | None, values: tuple[float, ...]
) -> list[KernelSpec]:
    """The columns: ``base`` with ``parameter`` set to each value (or ``base`` alone)."""
    if parameter is None:
        return [base]
    return [base.with_value(parameter, value) for value in values]


def parse_values(text: str, parameter: Parameter) -> tuple[float, ...]:
    """Values of the swept parameter from text such as ``"1, 2, 3, 4"``.

    Raises
    ------
    ValueError
        With a message for the user: not numbers, out of range, a
        non-integer degree, repeated, none, or more than
        :data:`MAX_COLUMNS`.
    """
    parts = [part for part in re.split(r"[,;\s]+", text.strip()) if part]
    if not parts:
        raise ValueError(f"enter at least one value of {SYMBOLS[parameter]}, e.g. 1, 2, 3")
    values = []
    for part in parts:
        try:
            value = float(part.replace("−", "-"))
        except ValueError:
            raise ValueError(f"{part!r} is not a number; separate values by commas") from None
        if not math.isfinite(value):
            raise ValueError(f"{part!r} is not a finite number")
        low, high = LIMITS[parameter]
        if not low <= value <= high:
            raise ValueError(f"{SYMBOLS[parameter]} = {value:g} is outside {low:g} … {high:g}")
        if parameter == "degree" and not value.is_integer():
            raise ValueError(f"the degree must be a whole number, got {value:g}")
        values.append(value)
    if len(set(values)) != len(values):
        raise ValueError("a value is repeated; give each value once")
    if len(values) > MAX_COLUMNS:
        raise ValueError(f"{len(values)} values are too many; give at most {MAX_COLUMNS}")
    return tuple(values)
