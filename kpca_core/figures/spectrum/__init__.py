"""Figures of the Spectrum view: how the kernel width shapes the eigenvalue spectrum.

Pure functions: a fitted :class:`kpca_core.spectrum.WidthSweep` (and, for the
maps, component values) in, ``go.Figure`` out.  Grouped by what they show:

* :mod:`.widths`: every width at once: the normalised eigenvalues, the whole
  spectrum as a heatmap, the effective number of components, the spectrum
  at every width as a film;
* :mod:`.at_width`: one chosen width: its spectrum as bars, the contour maps
  of its first components or the data projected onto them;
* :mod:`.marks`: what they share: labels of the swept parameter, the width
  axis, the shaded limit regimes, the chosen-width marks (and
  :func:`move_chosen`, which moves them without a rebuild), the layout
  constants and cheap copies of a figure.

What belongs here: builders that take numbers and return plotly figures, and
their helpers.  What must not: streamlit, caching, or numerics beyond
arranging what to draw (the numbers come from :mod:`kpca_core.spectrum`).
This ``__init__`` re-exports each module's public names, so that a page
reads ``from kpca_core.figures import spectrum as figures`` then
``figures.ratio_lines_figure`` and so on.
"""

from .at_width import (
    MAPS_COLORBAR_PX,
    MAPS_COLORBAR_TITLE,
    MAPS_GAP_X,
    MAPS_MARGIN,
    MAPS_PX,
    component_maps_figure,
    components_at_figure,
    describe_components_at,
    describe_spectrum_bars,
    plan_maps,
    projection_figure,
    spectrum_bars_figure,
    spectrum_bars_frames,
)
from .marks import (
    CHOSEN_LINE,
    FONT,
    HEIGHT,
    KERNEL_NAMES,
    LEGEND_BELOW,
    MARGIN,
    PANEL_PX,
    REGIME_FILL,
    REGIME_TEXT,
    WHITE,
    chosen_frames,
    chosen_marks,
    copy_figure,
    format_parameter,
    move_chosen,
    parameter_label,
    regime_runs,
    symbol,
)
from .widths import (
    centring_share_figure,
    describe_centring,
    describe_effective_components,
    describe_ratio_lines,
    describe_spectrum_film,
    describe_spectrum_heatmap,
    effective_components_figure,
    ratio_lines_figure,
    spectrum_film_figure,
    spectrum_heatmap_figure,
)

__all__ = [
    "CHOSEN_LINE",
    "FONT",
    "HEIGHT",
    "KERNEL_NAMES",
    "LEGEND_BELOW",
    "MAPS_COLORBAR_PX",
    "MAPS_COLORBAR_TITLE",
    "MAPS_GAP_X",
    "MAPS_MARGIN",
    "MAPS_PX",
    "MARGIN",
    "PANEL_PX",
    "REGIME_FILL",
    "REGIME_TEXT",
    "WHITE",
    "centring_share_figure",
    "chosen_frames",
    "chosen_marks",
    "component_maps_figure",
    "components_at_figure",
    "copy_figure",
    "describe_centring",
    "describe_components_at",
    "describe_effective_components",
    "describe_ratio_lines",
    "describe_spectrum_bars",
    "describe_spectrum_film",
    "describe_spectrum_heatmap",
    "effective_components_figure",
    "format_parameter",
    "move_chosen",
    "parameter_label",
    "plan_maps",
    "projection_figure",
    "ratio_lines_figure",
    "regime_runs",
    "spectrum_bars_figure",
    "spectrum_bars_frames",
    "spectrum_film_figure",
    "spectrum_heatmap_figure",
    "symbol",
]
