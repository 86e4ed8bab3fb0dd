"""Component maps drawn as pictures: colours, contour lines and data dots.

Shared by the figures that show kernel principal components over the plane
(the Contours grid, the Spectrum view's component maps).  Each panel is drawn
with what the browser draws fastest, because Streamlit draws every changed
chart twice (``bench/ui_latency.py``):

- the colours: one PNG of the grid values (``layout.images``), coloured here
  through the diverging scale (256 colours of it, a byte per pixel); the
  browser smooths it as plotly's heatmap does;
- the contour lines: traced with ``contourpy`` (:func:`~kpca_core.contours.evaluate.contour_lines`,
  for the Contours grid with the column's evaluation), one SVG path per panel
  (``layout.shapes``) instead of plotly.js tracing 21 levels itself;
- the data points: one transparent PNG of round dots (:func:`dots_image`),
  which panels of the same plane share, instead of one SVG element per point
  (or a path the browser parses point by point).

Values are expected divided by their largest |value| (the Contours grid: on
the data points; the Spectrum maps: on the grid), so one diverging scale from
−1 to 1, centred on 0, fits every panel; beyond ±1 the colour saturates, and
lines are drawn every :data:`LEVEL_STEP` up to ±:data:`LEVEL_MAX`.
"""

from __future__ import annotations

import base64
import struct
import zlib

import numpy as np
from plotly.colors import get_colorscale, unlabel_rgb

# the lines' levels and tracing are the numerics' (re-exported: the figures' names)
from ..contours.evaluate import LEVEL_MAX as LEVEL_MAX
from ..contours.evaluate import LEVEL_STEP as LEVEL_STEP
from ..contours.evaluate import LEVELS as LEVELS
from ..contours.evaluate import contour_lines as contour_lines
from . import style

LINE = {"width": 0.6, "color": "rgba(0, 0, 0, 0.45)"}
LINE_TOLERANCE_PX = 0.1
"""Drawn contour lines stray about this many pixels at most from the grid's lines (:func:`thin`)."""
LINE_MAX_STEP_PX = 30.0
"""Contour lines keep a vertex at least every this many pixels."""
MAX_THINNING_ROUNDS = 4
"""Tries at a larger tolerance before a panel's lines are left out (see :func:`contour_path`)."""
TANGLED = "contour lines left out: too tangled to draw"
POINT_PX = 3.5
"""Diameter of a data point's dot, in pixels."""
POINT_GREY = 0
"""Grey value of the data points' dots (0: black)."""
POINT_OPACITY = 0.55
"""Opacity of one data point's dot."""
DOTS_PALETTE = np.column_stack([np.full((256, 3), POINT_GREY), np.arange(256)]).astype(np.uint8)
"""The dots' picture's colours: :data:`POINT_GREY` at every opacity, by opacity."""
MAX_PICTURE_PX = 20_000
"""Largest side of a dots picture, in pixels (a figure is ~1000 px wide)."""
DOTS_OVERSAMPLING = 2
"""The dots' picture has this many pixels per screen pixel (sharp on high-density screens)."""
COLORSCALE = get_colorscale(style.DIVERGING)
"""The diverging scale as explicit stops: unvalidated figures get no name lookup."""
_STOPS = np.array([position for position, _ in COLORSCALE])
_STOP_RGB = np.array([unlabel_rgb(colour) for _, colour in COLORSCALE], dtype=float)


def colours(values: np.ndarray) -> np.ndarray:
    """RGB of values through :data:`COLORSCALE` from −1 to 1, saturating beyond.

    Parameters
    ----------
    values : ndarray

    Returns
    -------
    ndarray of shape ``values.shape + (3,)``, uint8
        Interpolated linearly between the scale's stops, as plotly does.

    Raises
    ------
    ValueError
        If a value is not finite: a panel never shows a hole as a colour.
    """
    values = _finite(values)
    t = np.clip((values + 1.0) / 2.0, 0.0, 1.0)
    rgb = np.stack([np.interp(t, _STOPS, _STOP_RGB[:, k]) for k in range(3)], axis=-1)
    return np.round(rgb).astype(np.uint8)


def _finite(values: np.ndarray) -> np.ndarray:
    """``values`` as floats; a value that is not finite raises: a panel never shows a hole."""
    values = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(values)):
        raise ValueError("component values must be finite to be coloured")
    return values


PNG_COLOUR_TYPES = {2: 4, 3: 2, 4: 6}
"""PNG colour type by channels: grey + opacity, RGB, RGB + opacity."""
PNG_PALETTE_TYPE = 3
"""PNG colour type of a picture of indices into a palette."""
PALETTE = colours(np.linspace(-1.0, 1.0, 256))
"""The diverging scale in 256 colours, from −1 to 1: the panels' pictures store
one byte per pixel, an index into it (:func:`colour_png`)."""


def colour_png(values: np.ndarray) -> str:
    """Values as a PNG of the diverging scale from −1 to 1, saturating beyond.

    Each value takes the nearest of the :data:`PALETTE`'s 256 colours, whose
    values are 2/255 apart: at most 2 of 255 off in each channel from
    :func:`colours`, and a byte per pixel instead of three (a 100 × 100 panel
    of a contour grid: ~4 kB instead of ~11 kB).

    Parameters
    ----------
    values : ndarray of shape (height, width)
        Rows from the top of the picture down.

    Returns
    -------
    str
        A ``data:image/png;base64`` URI.

    Raises
    ------
    ValueError
        If a value is not finite, as :func:`colours`.
    """
    top = len(PALETTE) - 1
    index = np.round((np.clip(_finite(values), -1.0, 1.0) + 1.0) / 2.0 * top).astype(np.uint8)
    return png_data_uri(index[..., None], sub_filter=True, palette=PALETTE)


def png_data_uri(
    pixels: np.ndarray, *, sub_filter: bool = False, palette: np.ndarray | None = None
) -> str:
    """An image as a ``data:image/png;base64`` URI (PNG written with zlib).

    Written here rather than by Pillow: for the pictures of a contour grid
    (12 colour images of 100 × 100, a dots picture of ~300 × 280) Pillow took
    0.8–2.4 ms per image against 0.3–0.5 ms here, for the same size, and a
    grid has two dozen of them.

    Parameters
    ----------
    pixels : ndarray of shape (height, width, channels), uint8
        Rows from the top of the picture down; channels as in
        :data:`PNG_COLOUR_TYPES` (the last of 2 or 4 is the opacity).
    sub_filter : bool, default=False
        Store each byte as its difference to the pixel on its left (PNG's
        "Sub" filter): smooth colours then compress to about 60 %; sparse
        pictures (dots) compress better without.
    palette : ndarray of shape (n_colours, 3) or (n_colours, 4), uint8, optional
        With it, ``pixels`` has one channel: each pixel's index into the
        palette (PNG's indexed colour), a third of the bytes of RGB.  A fourth
        column is each colour's opacity (PNG's ``tRNS`` chunk).

    Returns
    -------
    str
    """
    height, width, channels = pixels.shape
    colour_type = PNG_COLOUR_TYPES[channels] if palette is None else PNG_PALETTE_TYPE
    flat = pixels.reshape(height, channels * width)
    if sub_filter:
        flat = flat.copy()
        flat[:, channels:] -= pixels.reshape(height, channels * width)[:, :-channels]
    rows = np.concatenate([np.full((height, 1), int(sub_filter), np.uint8), flat], 1)

    def chunk(tag: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(tag + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)

    colours = b""
    if palette is not None:
        palette = np.asarray(palette, np.uint8)
        colours = chunk(b"PLTE", palette[:, :3].tobytes())
        if palette.shape[1] == 4:
            colours += chunk(b"tRNS", palette[:, 3].tobytes())
    png = b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)),
            colours,
            chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)),
            chunk(b"IEND", b""),
        )
    )
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def dots_image(
    X: np.ndarray,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    px_per_unit: float,
    radius_px: float,
    grey: int = POINT_GREY,
    opacity: float = POINT_OPACITY,
) -> np.ndarray:
    """The points as round dots on a transparent picture of ``x_range`` × ``y_range``.

    The browser draws one picture far faster than a shape or marker per point.
    Each dot is a disc of ``radius_px`` pixels with anti-aliased edges (a pixel
    takes the disc's coverage of it); where dots overlap, their opacities
    combine as layers of paint do, α = 1 − Π(1 − αᵢ), so clusters darken.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    x_range, y_range : (float, float)
        The data coordinates of the picture's edges.
    px_per_unit : float
        Pixels per data unit, the same along both axes.
    radius_px : float
    grey : int
        The dots' grey value, 0 (black) to 255.
    opacity : float
        A single dot's opacity, in [0, 1].

    Returns
    -------
    ndarray of shape (height, width, 2), uint8
        Grey and opacity, rows from the top (largest y) down.

    Raises
    ------
    ValueError
        If a range's width in pixels is not finite or above :data:`MAX_PICTURE_PX`
        (e.g. data near ±1e308, whose extent overflows).
    """
    size = np.array([x_range[1] - x_range[0], y_range[1] - y_range[0]]) * px_per_unit
    if not np.all(np.isfinite(size)) or np.any(size > MAX_PICTURE_PX):
        raise ValueError(f"a picture of {size} pixels cannot be drawn: ranges must be finite")
    width, height = (max(1, int(np.ceil(side))) for side in size)
    x = (np.asarray(X[:, 0], float) - x_range[0]) * px_per_unit
    y = (y_range[1] - np.asarray(X[:, 1], float)) * px_per_unit
    reach = np.arange(-int(np.ceil(radius_px)) - 1, int(np.ceil(radius_px)) + 2)
    columns, rows = np.broadcast_arrays(
        np.floor(x).astype(int)[:, None, None] + reach[None, None, :],
        np.floor(y).astype(int)[:, None, None] + reach[None, :, None],
    )
    distance = np.hypot(columns + 0.5 - x[:, None, None], rows + 0.5 - y[:, None, None])
    coverage = np.clip(radius_px + 0.5 - distance, 0.0, 1.0)
    inside = (coverage > 0) & (columns >= 0) & (columns < width) & (rows >= 0) & (rows < height)
    # log Π(1 − αᵢ), summed per pixel; an opaque dot gives −inf, i.e. α = 1
    log_clear = np.zeros((height, width))
    with np.errstate(divide="ignore"):
        np.add.at(log_clear, (rows[inside], columns[inside]), np.log1p(-opacity * coverage[inside]))
    image = np.full((height, width, 2), grey, np.uint8)
    image[..., 1] = np.round(-255.0 * np.expm1(log_clear))
    return image


def dots_layer(
    X: np.ndarray,
    x_range: list[float],
    y_range: list[float],
    px_per_unit: float,
    oversampling: int = DOTS_OVERSAMPLING,
) -> dict:
    """The data points as a layout image of ``x_range`` × ``y_range`` (add xref/yref).

    Panels of the same plane can share it: the browser decodes it once (but
    the figure carries it once per panel).  Its grey is the same at every pixel,
    so it is stored as each pixel's opacity, an index into :data:`DOTS_PALETTE`:
    Fig. 2's held grid (eleven panels) carried 11 × 24.6 kB of it as grey and
    opacity, 11 × 18.9 kB so, written in two thirds of the time (0.36 ms).
    """
    image = dots_image(X, x_range, y_range, oversampling * px_per_unit, oversampling * POINT_PX / 2)
    return {
        "source": png_data_uri(image[..., 1:], palette=DOTS_PALETTE),
        "x": x_range[0],
        "y": y_range[1],
        "sizex": x_range[1] - x_range[0],
        "sizey": y_range[1] - y_range[0],
        "sizing": "stretch",
        "xanchor": "left",
        "yanchor": "top",
        "layer": "above",
        "name": "data",
    }


def colour_image(
    xs: np.ndarray, ys: np.ndarray, values: np.ndarray, axes: dict, stride: int = 1
) -> dict:
    """A panel's colours as a layout image, one pixel per grid point (as a heatmap).

    Parameters
    ----------
    xs, ys : ndarray
        Grid coordinates.
    values : ndarray of shape (len(ys), len(xs))
        Component values, divided by their largest |value| on the data.
    axes : dict
        The panel's ``{"xref": …, "yref": …}``.
    stride : int
        One pixel every ``stride`` grid points along each axis: a smaller
        picture when a figure's pictures would exceed its byte budget.
    """
    xs, ys, values = xs[::stride], ys[::stride], values[::stride, ::stride]
    dx = (xs[-1] - xs[0]) / max(xs.size - 1, 1)
    dy = (ys[-1] - ys[0]) / max(ys.size - 1, 1)
    return {
        "source": colour_png(values[::-1]),
        **axes,
        "x": float(xs[0] - dx / 2),
        "y": float(ys[-1] + dy / 2),
        "sizex": float(xs[-1] - xs[0] + dx),
        "sizey": float(ys[-1] - ys[0] + dy),
        "sizing": "stretch",
        "xanchor": "left",
        "yanchor": "top",
        "layer": "below",
    }


def thin(
    points: np.ndarray, starts: np.ndarray, tolerance: float, max_step: float = np.inf
) -> np.ndarray:
    """Which vertices to keep so that each line strays about ``tolerance`` at most.

    Contour lines of a grid have a vertex on every cell edge they cross, often
    a fraction of a pixel apart, and the browser converts every vertex of a
    shape.  A chord of length s across a bend of curvature κ strays from it
    by its sagitta, κ s² / 8, so along a line a vertex is kept about every
    √(8 ``tolerance`` / κ), and at least every ``max_step``: few on straight
    stretches, many in tight bends.  κ at a vertex is its turning angle over
    the mean length of its two segments, the largest within two vertices (so
    a bend is seen before it is reached).  The ends of every line are kept.

    Parameters
    ----------
    points : ndarray of shape (n, 2)
    starts : ndarray of shape (n,), bool
        Where a new line starts, as from :func:`contour_lines`.
    tolerance, max_step : float
        In data units.

    Returns
    -------
    ndarray of shape (n,), bool
    """
    n = len(points)
    if n == 0:
        return np.zeros(0, bool)
    ends = np.append(starts[1:], True)
    steps = np.diff(points, axis=0)
    segment = np.hypot(*steps.T)  # from vertex i to vertex i + 1
    segment[ends[:-1]] = 0.0  # a line's end is not joined to the next line's start
    before, after = np.append(0.0, segment), np.append(segment, 0.0)
    heading = np.arctan2(steps[:, 1], steps[:, 0])
    turn = np.zeros(n)
    turn[1:-1] = np.abs((np.diff(heading) + np.pi) % (2 * np.pi) - np.pi)
    turn[starts | ends] = 0.0
    span = (before + after) / 2
    curvature = np.divide(turn, span, out=np.zeros(n), where=span > 0)
    nearby = curvature.copy()
    for shift in (1, 2):
        np.maximum(nearby[shift:], curvature[:-shift], out=nearby[shift:])
        np.maximum(nearby[:-shift], curvature[shift:], out=nearby[:-shift])
    with np.errstate(divide="ignore"):
        step = np.minimum(max_step, np.sqrt(8.0 * tolerance / nearby))
    # steps covered along each line; a vertex is kept where a new one begins
    covered = np.cumsum(before / step)
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    section = np.floor(covered - covered[first])
    return starts | ends | (section != np.roll(section, 1))


def lines_path(points: np.ndarray, starts: np.ndarray, decimals: int) -> str:
    """One SVG path of polylines, ``"M x,y L x,y …"`` per line, in data coordinates."""
    fmt = f"{{}}{{:.{decimals}f}},{{:.{decimals}f}}".format
    commands = np.where(starts, "M", "L").tolist()
    return "".join(map(fmt, commands, points[:, 0].tolist(), points[:, 1].tolist()))


def contour_path(
    xs: np.ndarray,
    ys: np.ndarray,
    values: np.ndarray,
    px_per_unit: float,
    max_chars: int | None = None,
) -> str | None:
    """A grid's contour lines every :data:`LEVEL_STEP` (:func:`contour_lines`) as one
    SVG path, in data coordinates (:func:`lines_svg_path`)."""
    return lines_svg_path(*contour_lines(xs, ys, values), px_per_unit, max_chars)


def lines_svg_path(
    points: np.ndarray, starts: np.ndarray, px_per_unit: float, max_chars: int | None = None
) -> str | None:
    """Contour lines (``points``, ``starts`` as from :func:`contour_lines`) as one SVG path.

    Within :data:`LINE_TOLERANCE_PX` of the grid's lines (:func:`thin`),
    written to a tenth of a pixel, at ``px_per_unit`` pixels per data unit.
    With ``max_chars``, the vertices are thinned further (a larger tolerance)
    until the path fits; a tangle of lines that fits at no tolerance
    (thousands of tiny loops) gives ``None``.
    """
    decimals = max(0, int(np.ceil(np.log10(10 * px_per_unit))))
    tolerance, step = LINE_TOLERANCE_PX / px_per_unit, LINE_MAX_STEP_PX / px_per_unit
    for _ in range(MAX_THINNING_ROUNDS):
        keep = thin(points, starts, tolerance, step)
        # at least "L", "," and per coordinate a digit and `decimals` digits
        length = int(keep.sum()) * (2 * decimals + 4)
        if max_chars is None or length <= max_chars:
            path = lines_path(points[keep], starts[keep], decimals)
            length = len(path)
            if max_chars is None or length <= max_chars:
                return path
        # about f times fewer vertices: a bend keeps one every √tolerance
        factor = 1.2 * length / max_chars
        tolerance, step = tolerance * factor**2, step * factor
    return None


def lines_shape(
    xs: np.ndarray,
    ys: np.ndarray,
    values: np.ndarray,
    px_per_unit: float,
    axes: dict,
    max_chars: int | None = None,
) -> dict:
    """A panel's contour lines (:func:`contour_path`) as one SVG path shape (:func:`path_shape`)."""
    return path_shape(contour_path(xs, ys, values, px_per_unit, max_chars), axes)


def path_shape(path: str | None, axes: dict) -> dict:
    """Contour lines' SVG ``path`` as a shape; ``None`` (lines left out as too tangled)
    leaves it empty, and the shape's name says so."""
    return {
        "type": "path",
        "path": path or "",
        **axes,
        "line": LINE,
        "layer": "above",
        "name": TANGLED if path is None else "contour lines",
    }


def data_trace(X: np.ndarray) -> dict:
    """The data as a trace that draws nothing (their dots are a picture).

    Cheap to draw, and it keeps the data points among the figure's data.
    """
    X = np.asarray(X, dtype=np.float32)
    return {
        "type": "scatter",
        "x": X[:, 0],
        "y": X[:, 1],
        "mode": "none",
        "name": "data",
        "hoverinfo": "skip",
        "showlegend": False,
    }


def colour_axis_trace(axis: str = "coloraxis") -> dict:
    """An empty trace on the figure's colour ``axis``, so that plotly draws its colour bar."""
    return {
        "type": "scatter",
        "x": [None],
        "y": [None],
        "mode": "markers",
        "marker": {"color": [0.0], "coloraxis": axis},
        "hoverinfo": "skip",
        "showlegend": False,
    }
