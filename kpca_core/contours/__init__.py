"""Kernel principal components over the plane: the contour grid of Fig. 2.

Schölkopf, Smola & Müller (1998), Fig. 2: over 2-D data, the lines of
constant value of the first kernel principal components.  Each column of the
grid is one kernel (one value of a swept parameter), each row one component.
The value drawn at a point t of the plane is its k-th nonlinear principal
component

    (V^k · Φ̃(t)) = Σ_i α_i^k k̃(x_i, t)                    (eqs. 17, 51, 54)

so a panel is :meth:`kpca_core.KernelPCA.transform` of a grid of points.

The work is split so that a user interface can cache it on small keys:

* :func:`fit_column` fits one kernel (the expensive eigenproblem, eq. 12);
* :func:`evaluate_column` evaluates a fitted column on a :class:`Grid`;
* :func:`fitted_column` does both for one column (one call to a worker);
* :func:`contour_sweep` does both for every column (for scripts and tests).

Kernels and parameters that give no picture (a width so small that every
point is its own component, a kernel matrix that is constant to rounding, an
overflowing polynomial) are not errors: the column carries a sentence saying
what happened and what to change, and components that do not exist (the
linear kernel in 2-D has two) are explained by :func:`missing_reason`.

Layout
------
* :mod:`.specs`: the columns as the user sets them (:class:`KernelSpec`,
  the sweepable parameters, :func:`parse_values`);
* :mod:`.fit`: one column fitted (:func:`fit_column`) with its notes;
* :mod:`.evaluate`: the grid, a fitted column evaluated on it, the whole
  sweep, and why a component is missing;
* :mod:`.export`: the tables and CSV downloads, the file-name slug.

What belongs here: numerics and plain data about the Contours grid.  What
must not: streamlit or any user interface, caching, figures
(:mod:`kpca_core.figures.contours`).  This ``__init__`` re-exports the
public names: a page reads ``from kpca_core import contours as ct`` then
``ct.fit_column`` and so on (and a test replacing ``ct.fit_column``
replaces what the page calls).
"""

from .evaluate import (
    Column,
    ContourSweep,
    Grid,
    contour_sweep,
    evaluate_column,
    fitted_column,
    make_grid,
    missing_reason,
    ordinal,
)
from .export import eigenvalues_table, grid_table, points_table, sweep_slug, to_csv
from .fit import (
    INDEFINITE_RATIO,
    ISOLATED_KERNEL_VALUE,
    NEARLY_CONSTANT_SPREAD,
    ROUNDING_SPREAD,
    SEPARATE_KERNEL_VALUE,
    ColumnFit,
    Note,
    fit_column,
    merge_notes,
)
from .specs import (
    DEFAULT_VALUES,
    LIMITS,
    MAX_COLUMNS,
    MAX_COMPONENTS,
    SWEEPABLE,
    SYMBOLS,
    KernelKind,
    KernelSpec,
    Parameter,
    parse_values,
    sweep_specs,
)

__all__ = [
    "DEFAULT_VALUES",
    "INDEFINITE_RATIO",
    "ISOLATED_KERNEL_VALUE",
    "LIMITS",
    "MAX_COLUMNS",
    "MAX_COMPONENTS",
    "NEARLY_CONSTANT_SPREAD",
    "ROUNDING_SPREAD",
    "SEPARATE_KERNEL_VALUE",
    "SWEEPABLE",
    "SYMBOLS",
    "Column",
    "ColumnFit",
    "ContourSweep",
    "Grid",
    "KernelKind",
    "KernelSpec",
    "Note",
    "Parameter",
    "contour_sweep",
    "eigenvalues_table",
    "evaluate_column",
    "fit_column",
    "fitted_column",
    "grid_table",
    "make_grid",
    "merge_notes",
    "missing_reason",
    "ordinal",
    "parse_values",
    "points_table",
    "sweep_slug",
    "sweep_specs",
    "to_csv",
]
