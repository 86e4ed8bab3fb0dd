"""Points drawn by hand, and their compact encoding for a link.

A drawing is a list of points in a square of the plane, [−h, h]², each in one
of :data:`N_GROUPS` groups.  Its coordinates sit on a grid of :data:`STEPS` + 1 ×
:data:`STEPS` + 1 positions across the square, so that a drawing is exact, hashable
(a key for caches of fitted models) and fits in a link:

``"1.<h>.<payload>"``, where ``1`` is the version, ``h`` the half-width of the
square (one of :data:`HALF_WIDTHS`) and the payload the points in URL-safe
base64 without padding.  The payload is read in blocks of up to four points: a
byte of groups (two bits per point, group − 1, the block's first point in the
lowest bits), then three bytes per point, 12 bits of x and 12 of y.  So a
point costs 3.25 bytes, about 4.3 characters, and :data:`MAX_POINTS` points
about 1300 characters.

Reading a link never fails: :func:`decode` keeps as much of a damaged or
oversized drawing as is valid and says what it left out.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

VERSION = "1"
MAX_POINTS = 300
"""The most points a drawing keeps (the canvas states it)."""
N_GROUPS = 3
BITS = 12
STEPS = 2**BITS - 2
"""Grid steps across the square: positions 0 … STEPS per axis, in 12 bits; an even
number, so that the origin is on the grid."""
HALF_WIDTHS = (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
"""The square sides a drawing may have, as half-widths h of [−h, h]²."""
DEFAULT_HALF_WIDTH = 2.0
COPY_MARGIN = 1.1
"""A copied data set fills at most 1 / this of the square's half-width."""
_BLOCK = 4
_PAYLOAD = re.compile(r"[A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Drawing:
    """Points on the grid of a square [−h, h]², each with its group.

    Attributes
    ----------
    cells : tuple of (int, int, int)
        ``(ix, iy, group)`` per point: grid positions in ``0 … STEPS``
        across the square, group in ``1 … N_GROUPS``.
    half_width : float
        h, one of :data:`HALF_WIDTHS`.
    """

    cells: tuple[tuple[int, int, int], ...] = ()
    half_width: float = DEFAULT_HALF_WIDTH

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def X(self) -> np.ndarray:
        """The points' coordinates, shape (n, 2)."""
        if not self.cells:
            return np.zeros((0, 2))
        grid = np.array([cell[:2] for cell in self.cells], dtype=float)
        return grid * (2 * self.half_width / STEPS) - self.half_width

    @property
    def groups(self) -> np.ndarray:
        """The points' groups, shape (n,), in ``1 … N_GROUPS``."""
        return np.array([cell[2] for cell in self.cells], dtype=int)


def _to_cell(value: float, half_width: float) -> int:
    # onto the square's edge first: (1e308 + h) / 2h · STEPS is no float
    value = min(max(value, -half_width), half_width)
    return round((value + half_width) / (2 * half_width) * STEPS)


def encode(drawing: Drawing) -> str:
    """The drawing as link text, ``"1.<h>.<payload>"`` (see the module's docstring)."""
    payload = bytearray()
    cells = drawing.cells
    for start in range(0, len(cells), _BLOCK):
        block = cells[start : start + _BLOCK]
        payload.append(sum((group - 1) << (2 * k) for k, (_, _, group) in enumerate(block)))
        for ix, iy, _ in block:
            payload += bytes((ix >> 4, ((ix & 0xF) << 4) | (iy >> 8), iy & 0xFF))
    text = base64.urlsafe_b64encode(bytes(payload)).decode("ascii").rstrip("=")
    return f"{VERSION}.{drawing.half_width:g}.{text}"


def max_link_length() -> int:
    """Characters of the link text of a drawing of :data:`MAX_POINTS` points."""
    return len(encode(Drawing(((0, 0, 1),) * MAX_POINTS)))


def decode(text: str | None) -> tuple[Drawing, list[str]]:
    """A drawing from link text, with as much of a damaged one as is valid.

    Parameters
    ----------
    text : str or None
        As written by :func:`encode`; ``None`` or ``""`` is the empty drawing.

    Returns
    -------
    drawing : Drawing
    notes : list of str
        What could not be used, in words for the page (empty if all was).
    """
    if not text:
        return Drawing(), []
    parts = text.strip().split(".")
    if len(parts) != 3 or parts[0] != VERSION:
        return Drawing(), [
            "The link's drawing is not in the form this app writes; the canvas starts empty."
        ]
    notes = []
    half_width = _number(parts[1])
    if half_width not in HALF_WIDTHS:
        # the size is echoed only as the number it is: the field itself is link text
        size = "" if half_width is None else f" ({half_width:g})"
        notes.append(
            f"The link's drawing has an unknown size{size}; its points are "
            f"placed in the square [−{DEFAULT_HALF_WIDTH:g}, {DEFAULT_HALF_WIDTH:g}]²."
        )
        half_width = DEFAULT_HALF_WIDTH
    encoded = parts[2]
    valid = _PAYLOAD.match(encoded).group()
    # enough characters for one point more than the limit, so that an oversized
    # drawing is noticed without decoding all of it
    limit = math.ceil(4 * (MAX_POINTS + 1) * (3 + 1 / _BLOCK) / 3) + 4
    cut = len(valid) < len(encoded)
    oversized = len(valid) > limit
    valid = valid[:limit]
    if len(valid) % 4 == 1:  # no base64 text has this length: one character too many
        valid, cut = valid[:-1], True
    try:
        payload = base64.urlsafe_b64decode(valid + "=" * (-len(valid) % 4))
    except (binascii.Error, ValueError):  # pragma: no cover - the characters were checked
        payload, cut = b"", True
    cells, bad_groups, short = _read_cells(payload)
    if (cut or short) and not oversized:
        notes.append(
            f"The link's drawing was damaged; the {len(cells)} points before the damage are shown."
        )
    if bad_groups:
        notes.append(
            f"{_count(bad_groups)} of the link's drawing had no valid group and "
            f"{'was' if bad_groups == 1 else 'were'} left out."
        )
    if oversized or len(cells) > MAX_POINTS:
        notes.append(
            f"The link's drawing has more than {MAX_POINTS} points; the first "
            f"{MAX_POINTS} are shown."
        )
        cells = cells[:MAX_POINTS]
    return Drawing(tuple(cells), half_width), notes


def _read_cells(payload: bytes) -> tuple[list[tuple[int, int, int]], int, bool]:
    """The points of a payload, how many had an invalid group, whether it ended mid-point."""
    cells: list[tuple[int, int, int]] = []
    bad_groups = 0
    at = 0
    while at < len(payload):
        groups = payload[at]
        at += 1
        for k in range(_BLOCK):
            if at == len(payload):
                return cells, bad_groups, k == 0
            if at + 3 > len(payload):
                return cells, bad_groups, True
            a, b, c = payload[at : at + 3]
            at += 3
            group = ((groups >> (2 * k)) & 3) + 1
            if group > N_GROUPS:
                bad_groups += 1
                continue
            # the 12 bits hold one position beyond the square: onto its edge
            ix, iy = min((a << 4) | (b >> 4), STEPS), min(((b & 0xF) << 8) | c, STEPS)
            cells.append((ix, iy, group))
    return cells, bad_groups, False


def from_points(
    rows: Iterable[Sequence[object]] | None, half_width: float
) -> tuple[Drawing, list[str]]:
    """A drawing from ``[x, y, group]`` rows in plane coordinates (the canvas's edits).

    Rows that are not three finite numbers, or whose group is not one of
    ``1 … N_GROUPS``, are left out; points outside the square are moved onto
    its edge; beyond :data:`MAX_POINTS` rows, rows are left out unread (a
    canvas never sends more: a longer list is not walked).

    Returns
    -------
    drawing : Drawing
    notes : list of str
        What was left out, in words for the page.
    """
    if half_width not in HALF_WIDTHS:
        half_width = DEFAULT_HALF_WIDTH
    rows = rows if isinstance(rows, list | tuple) else []
    cells = []
    bad = 0
    for row in rows[:MAX_POINTS]:
        ok = isinstance(row, list | tuple) and len(row) == 3
        values = [_number(value) for value in row] if ok else []
        if len(values) != 3 or None in values or values[2] not in range(1, N_GROUPS + 1):
            bad += 1
            continue
        x, y, group = values
        cells.append((_to_cell(x, half_width), _to_cell(y, half_width), int(group)))
    notes = []
    if bad:
        verb = "was" if bad == 1 else "were"
        notes.append(f"{_count(bad)} could not be read and {verb} left out.")
    if len(rows) > MAX_POINTS:
        notes.append(f"A drawing keeps at most {MAX_POINTS} points; the first are kept.")
    return Drawing(tuple(cells), half_width), notes


def from_data(X: np.ndarray, labels: np.ndarray | None = None) -> tuple[Drawing, str | None]:
    """A drawing of a data set: its points on the grid of the smallest square that holds them.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    labels : ndarray of shape (n_samples,), optional
        Groups: the first ``N_GROUPS − 1`` distinct labels become groups 1, 2, …
        and all others the last group.

    Returns
    -------
    drawing : Drawing
    note : str or None
        What was changed beyond rounding to the grid: points left out (every
        k-th is kept, over the whole set) or moved onto the square's edge.
    """
    X = np.asarray(X, dtype=float)
    finite = np.all(np.isfinite(X), axis=1)
    X = X[finite]
    labels = None if labels is None else np.asarray(labels)[finite]
    extent = float(np.max(np.abs(X))) * COPY_MARGIN if len(X) else 0.0
    half_width = next((h for h in HALF_WIDTHS if h >= extent), HALF_WIDTHS[-1])
    notes = []
    if len(X) > MAX_POINTS:
        keep = np.unique(np.linspace(0, len(X) - 1, MAX_POINTS).round().astype(int))
        notes.append(f"{MAX_POINTS} of its {len(X)} points are kept (spread over the whole set)")
        X = X[keep]
        labels = None if labels is None else labels[keep]
    if extent > half_width:
        notes.append(f"points beyond ±{half_width:g} are moved onto the canvas's edge")
    if labels is None:
        groups = np.ones(len(X), dtype=int)
    else:
        _, index = np.unique(labels, return_inverse=True)
        groups = np.minimum(index.ravel(), N_GROUPS - 1) + 1
    cells = tuple(
        (_to_cell(x, half_width), _to_cell(y, half_width), int(group))
        for (x, y), group in zip(X.tolist(), groups.tolist(), strict=True)
    )
    return Drawing(cells, half_width), "; ".join(notes) or None


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _count(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"
