"""Colours and scales shared by every figure, so the views read alike.

The three method colours are from the Okabe–Ito palette, which stays
distinguishable under the common forms of colour blindness.
"""

from __future__ import annotations

LINEAR = "#0072B2"
"""Linear PCA (blue)."""
KERNEL = "#D55E00"
"""Kernel PCA (vermillion)."""
RIDGE = "#009E73"
"""Learned pre-image by kernel ridge regression (bluish green)."""
NEUTRAL = "#7F7F7F"
"""Data points, guides and other marks that belong to no method."""

DIVERGING = "RdBu_r"
"""Component values: diverging, colour-blind safe, centred on 0 (set zmid=0)."""
SEQUENTIAL = "Viridis"
"""Spectra and other non-negative magnitudes."""
GREYS = "Greys"
"""Grey-value images: low values white, high values black."""

GROUPS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442", "#000000")
"""Okabe–Ito colours for groups of points (rings, moons, clusters), in order."""

FONT_FAMILY = "Arial, sans-serif"
"""One font everywhere, present in browsers and in exported images."""


def export_config(filename: str, *, image_format: str = "png", scale: float = 2.0) -> dict:
    """``config`` for ``st.plotly_chart``: the modebar camera saves ``filename``.

    PNG or SVG export happens in the browser (kaleido needs Chrome, which is
    not available where the app is served). Name files ``<view>_<params>``.
    """
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": image_format, "filename": filename, "scale": scale},
    }
