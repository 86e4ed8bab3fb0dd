"""A digit written by hand on a pad, as a USPS-like image, and its compact encoding for a link.

The pad (``kpca_ui/pad.py``) sends strokes: each a list of pen positions on a
grid of :data:`LEVELS` × :data:`LEVELS` across the pad, x to the right and y
down. :func:`to_digit` turns them into a digit like those of the USPS set
(Mika et al. 1999, Sect. 4): the strokes drawn with a round pen, scaled so that
the ink's larger side fills the box (as the USPS digits, whose ink spans all 16
rows), centred in it, and sampled 4 × 4 times per pixel so that the pixels on a
stroke's edge are grey; the grey values are on the files' scale, −1 paper to
1 full ink.

In a link, :func:`encode` writes ``"1.<stroke>.<stroke>…"``: ``1`` the version,
and each stroke its positions, each position two characters of the URL-safe
base64 alphabet (x, then y, 6 bits each). A stroke of k positions costs 2k + 1
characters; :data:`MAX_POINTS` positions and :data:`MAX_STROKES` strokes make at
most :func:`max_link_length` characters. :func:`decode` never fails: it keeps
what is valid of a damaged or oversized link and says what it left out.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np

VERSION = "1"
LEVELS = 64
"""Pen positions per axis across the pad: 6 bits, one base64 character."""
MAX_STROKES = 24
MAX_POINTS = 400
"""The most pen positions a written digit keeps (the pad stops taking more)."""
PEN = 1.1
"""The pen's radius in pixels of a 16 × 16 digit: strokes about 2–3 pixels wide, as in USPS."""
SUPERSAMPLE = 4
"""Samples per pixel along each axis: the share of a pixel under the pen sets its grey."""
ALPHABET = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"
_VALUE = {char: i for i, char in enumerate(ALPHABET)}
EMPTY = "Nothing is written on the pad yet: write a digit with the mouse, a pen or a finger."

Stroke = tuple[tuple[int, int], ...]
_STROKES_NOTE = f"A written digit keeps at most {MAX_STROKES} strokes; the first are kept."
_POSITIONS_NOTE = f"A written digit keeps at most {MAX_POINTS} pen positions; the first are kept."


@dataclass(frozen=True)
class Handwriting:
    """Strokes of a pen on the pad's grid, ``(x, y)`` in ``0 … LEVELS − 1`` (y down)."""

    strokes: tuple[Stroke, ...] = ()

    def __len__(self) -> int:
        """The number of pen positions."""
        return sum(len(stroke) for stroke in self.strokes)


def from_pad(strokes: object) -> tuple[Handwriting, list[str]]:
    """The pad's strokes (lists of ``[x, y]``), checked; what was left out, in words.

    A position that is not two whole numbers on the grid is left out, a stroke
    without positions too.  Beyond :data:`MAX_STROKES` strokes or :data:`MAX_POINTS`
    positions (read or not) the rest is left out unread: a pad never sends more, and
    a longer state (a script's, up to Streamlit's widget-state limit) is not walked.
    """
    strokes = strokes if isinstance(strokes, list | tuple) else []
    kept: list[Stroke] = []
    bad, left, beyond = 0, MAX_POINTS, False
    for stroke in strokes[:MAX_STROKES]:
        positions = stroke if isinstance(stroke, list | tuple) else [None]
        beyond = beyond or len(positions) > left
        points = []
        for point in positions[:left]:
            if _on_grid(point):
                points.append((int(point[0]), int(point[1])))
            else:
                bad += 1
        left -= min(len(positions), left)
        if points:
            kept.append(tuple(points))
    notes = [f"{bad} pen position(s) could not be read and were left out."] if bad else []
    if len(strokes) > MAX_STROKES:
        notes.append(_STROKES_NOTE)
    if beyond:
        notes.append(_POSITIONS_NOTE)
    return Handwriting(tuple(kept)), notes


def _on_grid(point: object) -> bool:
    return (
        isinstance(point, list | tuple)
        and len(point) == 2
        and all(
            isinstance(v, int | float) and not isinstance(v, bool) and float(v).is_integer()
            for v in point
        )
        and all(0 <= v < LEVELS for v in point)
    )


def _bounded(strokes: list[Stroke]) -> tuple[Handwriting, list[str]]:
    """At most :data:`MAX_STROKES` strokes and :data:`MAX_POINTS` positions, the first kept."""
    notes = []
    if len(strokes) > MAX_STROKES:
        notes.append(_STROKES_NOTE)
        strokes = strokes[:MAX_STROKES]
    kept, left = [], MAX_POINTS
    for stroke in strokes:
        if left <= 0:
            break
        kept.append(stroke[:left])
        left -= len(kept[-1])
    if sum(map(len, strokes)) > MAX_POINTS:
        notes.append(_POSITIONS_NOTE)
    return Handwriting(tuple(kept)), notes


def encode(handwriting: Handwriting) -> str:
    """The strokes as link text, ``"1.<stroke>.<stroke>…"`` (see the module's docstring)."""
    strokes = ("".join(ALPHABET[x] + ALPHABET[y] for x, y in s) for s in handwriting.strokes)
    return ".".join([VERSION, *strokes])


def max_link_length() -> int:
    """Characters of the longest link text :func:`decode` takes whole."""
    return len(VERSION) + MAX_STROKES + 2 * MAX_POINTS


def decode(text: str | None) -> tuple[Handwriting, list[str]]:
    """Strokes from link text, with what is valid of a damaged one and notes on the rest.

    Parameters
    ----------
    text : str or None
        As written by :func:`encode`; ``None`` or ``""`` is an empty pad.

    Returns
    -------
    handwriting : Handwriting
    notes : list of str
        What could not be used, in words for the page (empty if all was).
    """
    if not text:
        return Handwriting(), []
    version, *parts = text[: 4 * max_link_length()].split(".")
    if version != VERSION:
        return Handwriting(), ["The link's written digit is not in the form this app writes."]
    strokes, damaged = [], False
    for part in parts:
        chars = [_VALUE.get(char) for char in part]
        if None in chars or len(chars) % 2 or not chars:
            damaged = True
            continue
        strokes.append(tuple(zip(chars[::2], chars[1::2], strict=True)))
    handwriting, notes = _bounded(strokes)
    if damaged or len(text) > 4 * max_link_length():
        notes.insert(0, "Part of the link's written digit was damaged and is left out.")
    return handwriting, notes


def to_digit(handwriting: Handwriting, side: int = 16) -> np.ndarray:
    """The written digit as a ``side`` × ``side`` image of grey values in [−1, 1], row-major.

    The strokes are drawn with a round pen of radius :data:`PEN` (for 16 pixels;
    in proportion for another ``side``), scaled so that the ink's larger side
    spans the whole box, the other in proportion, and centred; each pixel's grey
    is the share of its :data:`SUPERSAMPLE` ² samples under the pen, from −1
    (none) to 1 (all). A dot (one position) is a round blot of the pen in the middle.

    Raises
    ------
    ValueError
        If nothing is written (:data:`EMPTY`).
    """
    if not len(handwriting):
        raise ValueError(EMPTY)
    pen = PEN * side / 16
    points = [np.asarray(stroke, dtype=float) for stroke in handwriting.strokes]
    everything = np.vstack(points)
    low, high = everything.min(axis=0), everything.max(axis=0)
    extent = float(np.max(high - low))
    scale = (side - 2 * pen) / extent if extent > 0 else 0.0
    centre = (low + high) / 2
    # segments in pixel units (x right, y down), the ink's box centred at side / 2
    starts, ends = [], []
    for stroke in points:
        at = (stroke - centre) * scale + side / 2
        starts.append(at[:-1] if len(at) > 1 else at)
        ends.append(at[1:] if len(at) > 1 else at)
    inked = _ink(
        np.vstack(starts) * SUPERSAMPLE,
        np.vstack(ends) * SUPERSAMPLE,
        pen * SUPERSAMPLE,
        side * SUPERSAMPLE,
    )
    share = inked.reshape(side, SUPERSAMPLE, side, SUPERSAMPLE).mean(axis=(1, 3))
    return (2 * share - 1).reshape(-1)


def _ink(a: np.ndarray, b: np.ndarray, radius: float, size: int) -> np.ndarray:
    """A ``size`` × ``size`` boolean image: the samples (centres at k + ½) within ``radius``
    of some segment ``a[k]``–``b[k]`` (x, y in samples), each segment tried only near it."""
    inked = np.zeros((size, size), dtype=bool)
    for (ax, ay), (bx, by) in zip(a.tolist(), b.tolist(), strict=True):
        x0, x1 = (max(int(min(ax, bx) - radius), 0), min(int(max(ax, bx) + radius) + 1, size))
        y0, y1 = (max(int(min(ay, by) - radius), 0), min(int(max(ay, by) + radius) + 1, size))
        if x0 >= x1 or y0 >= y1:
            continue
        px = np.arange(x0, x1)[None, :] + 0.5 - ax
        py = np.arange(y0, y1)[:, None] + 0.5 - ay
        dx, dy = bx - ax, by - ay
        t = np.clip((px * dx + py * dy) / max(dx * dx + dy * dy, 1e-12), 0.0, 1.0)
        inked[y0:y1, x0:x1] |= (px - t * dx) ** 2 + (py - t * dy) ** 2 <= radius**2
    return inked
