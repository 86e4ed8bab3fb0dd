"""The picture behind the drawing canvas: a component's colours and contour lines.

Pure functions: a fitted column (:class:`kpca_core.contours.ColumnFit`) and the
canvas's square in, a small dictionary the canvas draws out.  The colours and
lines are those of the Contours grid (:mod:`kpca_core.figures.panels`), over
the canvas's square [−h, h]² instead of around the data.
"""

from __future__ import annotations

import numpy as np

from ..contours import ColumnFit, Grid, evaluate_column
from . import panels

RESOLUTION = 96
"""Grid points per side of the background picture (the browser smooths it)."""
CANVAS_PX = 480
"""Width the contour lines are thinned for: within a tenth of a pixel at this width."""


def canvas_background(
    fit: ColumnFit, half_width: float, resolution: int = RESOLUTION
) -> dict[str, str] | None:
    """The first component of ``fit`` over the square [−h, h]², as the canvas draws it.

    Values are the component (V¹ · Φ̃(t)) of eqs. 17 and 51 at each grid point t,
    divided by its largest |value| on the data points, as in the Contours grid.

    Parameters
    ----------
    fit : ColumnFit
    half_width : float
        h, the half side of the canvas's square.
    resolution : int

    Returns
    -------
    dict or None
        ``"image"``: the colours as a ``data:image/png`` URI, rows from the top
        (y = h) down; ``"lines"``: the contour lines every
        :data:`panels.LEVEL_STEP` as one SVG path in plane coordinates.
        None when the fit has no first component to show.
    """
    axis = np.linspace(-half_width, half_width, resolution)
    column = evaluate_column(fit, Grid(axis, axis))
    if column.error is not None or column.n_components == 0:
        return None
    values = column.values[0].astype(float)
    px_per_unit = CANVAS_PX / (2 * half_width)
    return {
        "image": panels.colour_png(values[::-1]),
        "lines": panels.contour_path(axis, axis, values, px_per_unit),
    }
