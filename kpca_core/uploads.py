"""Reading the user's own 2-D points from an uploaded CSV, safely and in linear time.

Only text is parsed (no pickle, no paths); every way a file can be wrong gets
an :class:`UploadError` whose message says what is wrong and how to fix it.

Every step is linear in the file's size, and the cheap limits come first: the
bytes, then the number of lines and the longest line (one pass over the
text), then the columns; only then does pandas read the table and are the
numbers converted.  A 2.1 MB file whose first line holds a million fields is
refused at the line check, in milliseconds (``tests/test_uploads.py``).
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

MAX_ROWS = 2000
"""Default largest number of points: the largest the views compute (their own limit)."""
MAX_BYTES = 5 * 1024 * 1024
MAX_LINE_CHARS = 200
"""Longest line accepted: ``x,y,group`` with 17-digit numbers and a long name is ~80."""
MAX_COLUMNS = 3
"""x, y and an optional group; a wider file is refused rather than guessed at."""
MAX_GROUPS = 10
"""Groups shown by name; the rest are merged into :data:`OTHERS`."""
OTHERS = "others"
MAX_NAME_CHARS = 40
UNSAFE = r"[^\w .+-]"
"""Characters replaced by ``_`` in group and file names (:func:`plain_text`): names are shown
as plain text in legends, tooltips and figure titles, where ``<a href=…>``, ``%{…}`` or
markdown would be markup."""
MAX_MAGNITUDE = 1e100
"""Largest |x| or |y|: squared distances (up to ~1e200) stay far below float overflow."""
MIN_EXTENT = 1e-100
"""Smallest extent of the data: squared distances (~1e-200) stay far above underflow."""


class UploadError(ValueError):
    """An uploaded file that cannot be used; the message is for the user."""


@dataclass(frozen=True)
class UploadedPoints:
    """Points read from a CSV.

    Attributes
    ----------
    X : ndarray of shape (n, 2)
    labels : ndarray of shape (n,) of str, or None
        The group column's names; beyond the :data:`MAX_GROUPS` most frequent
        groups, every name is :data:`OTHERS`.
    note : str or None
        One line for the user when groups were merged.
    """

    X: np.ndarray
    labels: np.ndarray | None
    note: str | None = None


def parse_points_csv(
    data: bytes, *, max_rows: int = MAX_ROWS, max_bytes: int = MAX_BYTES
) -> UploadedPoints:
    """Points from a CSV of two numeric columns and an optional group label.

    Parameters
    ----------
    data : bytes
        The file's content.  A first row of column names is allowed.
    max_rows : int
        Largest number of points accepted (the view's own limit).
    max_bytes : int
        Largest file accepted.

    Returns
    -------
    UploadedPoints

    Raises
    ------
    UploadError
        Empty, binary or not CSV, a line longer than :data:`MAX_LINE_CHARS`,
        more than :data:`MAX_COLUMNS` columns, non-numeric, NaN/inf, values
        beyond ±:data:`MAX_MAGNITUDE` or spread less than :data:`MIN_EXTENT`,
        fewer than two distinct points, or too large.
    """
    if len(data) > max_bytes:
        raise UploadError(
            f"The file is {len(data) / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.0f} MB. "
            f"Upload at most {max_rows} rows."
        )
    if not data.strip():
        raise UploadError("The file is empty. Upload a CSV with two numeric columns (x, y).")
    if b"\x00" in data[:4096]:
        raise UploadError("This is not a text file. Upload a CSV with two numeric columns (x, y).")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UploadError(
            "The file is not UTF-8 text. Save it as a CSV (comma-separated values)."
        ) from None
    lines = [line for line in text.splitlines() if line.strip()]
    _check_lines(lines, max_rows)
    table = _read_table(lines)
    first = [_number(value) for value in table.iloc[0, :2]]
    if all(math.isnan(value) for value in first):
        table = table.iloc[1:].reset_index(drop=True)
    if table.empty:
        raise UploadError("The file has column names but no data rows.")
    if len(table) > max_rows:
        raise UploadError(
            f"The file has {len(table)} rows; the limit here is {max_rows}. "
            "Subsample it (every k-th row) and upload again."
        )
    X = np.array([[_number(x), _number(y)] for x, y in table.iloc[:, :2].itertuples(index=False)])
    bad = np.isnan(X).any(axis=1)
    if bad.any():
        row = int(np.flatnonzero(bad)[0]) + 1
        raise UploadError(
            f"{int(bad.sum())} rows have a missing or non-numeric x or y "
            f"(first: data row {row}). Fix or delete them."
        )
    _check_values(X)
    if table.shape[1] < 3:
        return UploadedPoints(X, None)
    names = table.iloc[:, 2].fillna("").str.replace(UNSAFE, "_", regex=True).str.strip()
    return _groups(X, names.str.slice(0, MAX_NAME_CHARS).to_numpy(dtype=str))


def plain_text(name: str, limit: int = MAX_NAME_CHARS) -> str:
    """A name from a file (its own name, say) as plain text for a figure: :data:`UNSAFE` → ``_``.

    Cut to ``limit`` characters, an ellipsis saying so.  For markdown, text from
    outside is escaped instead (``kpca_ui.links.literal``); a figure would show
    the backslashes, and reads ``<a href=…>`` as a link.
    """
    kept = " ".join(re.sub(UNSAFE, "_", name).split())
    return kept if len(kept) <= limit else kept[: limit - 1] + "…"


def _check_lines(lines: list[str], max_rows: int) -> None:
    """Refuse too many lines or one too long, in one pass and before any parsing."""
    if len(lines) > max_rows + 1:  # one line may be the column names
        raise UploadError(
            f"The file has {len(lines)} lines; the limit here is {max_rows} points. "
            "Subsample it (every k-th row) and upload again."
        )
    longest = max(range(len(lines)), key=lambda i: len(lines[i]))
    line = lines[longest]
    if len(line) > MAX_LINE_CHARS:
        fields = 1 + max(line.count(separator) for separator in ",;\t")
        if fields > MAX_COLUMNS:
            raise UploadError(
                f"Line {longest + 1} has {fields} columns; use x, y and an optional group "
                f"column ({MAX_COLUMNS} at most). Delete the other columns."
            )
        raise UploadError(
            f"Line {longest + 1} has {len(line)} characters; a line holds one "
            f"point, x,y or x,y,group, in at most {MAX_LINE_CHARS}. "
            "Put one point per line."
        )


def _read_table(lines: list[str]) -> pd.DataFrame:
    """The lines as a table of text cells, with at most :data:`MAX_COLUMNS` columns."""
    text = "\n".join(lines)
    try:
        table = pd.read_csv(
            io.StringIO(text), header=None, sep=_delimiter(text), dtype=str, engine="python"
        )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, csv.Error) as error:
        raise UploadError(
            f"The file could not be read as CSV ({' '.join(str(error).split())[:200]}). "
            "Use one point per line: x,y or x,y,group."
        ) from None
    if table.shape[1] < 2:
        raise UploadError(
            "The file has only one column. Each line needs two numbers: x,y "
            "(and optionally a group label)."
        )
    if table.shape[1] > MAX_COLUMNS:
        raise UploadError(
            f"The file has {table.shape[1]} columns; use x, y and an optional group "
            f"column ({MAX_COLUMNS} at most). Delete the other columns."
        )
    return table


def _number(cell: object) -> float:
    """A cell as a float; NaN if it is not a number (huge integers become ±inf)."""
    if not isinstance(cell, str):
        return math.nan
    try:
        return float(cell)
    except (ValueError, OverflowError):
        return math.nan


def _check_values(X: np.ndarray) -> None:
    if not np.all(np.isfinite(X)):
        raise UploadError("Some values are infinite. Replace them with finite numbers.")
    largest = float(np.max(np.abs(X)))
    if largest > MAX_MAGNITUDE:
        raise UploadError(
            f"Values reach {largest:.1e}; kernels square distances, which overflow beyond "
            f"about 1e154. Rescale the data (divide by {largest:.0e}) and upload again."
        )
    if len(np.unique(X, axis=0)) < 2:
        raise UploadError("All points are the same. Kernel PCA needs at least two distinct points.")
    extent = float(np.max(np.ptp(X, axis=0)))
    if extent < MIN_EXTENT:
        raise UploadError(
            f"The points span only {extent:.1e}; squared distances that small are lost to "
            f"rounding. Rescale the data (multiply by {1 / extent:.0e}) and upload again."
        )


def _groups(X: np.ndarray, names: np.ndarray) -> UploadedPoints:
    """The group names, the :data:`MAX_GROUPS` most frequent kept and the rest merged."""
    unique, counts = np.unique(names, return_counts=True)
    if len(unique) <= MAX_GROUPS:
        return UploadedPoints(X, names)
    kept = unique[np.argsort(-counts, kind="stable")[:MAX_GROUPS]]
    labels = np.where(np.isin(names, kept), names, OTHERS)
    note = (
        f"The group column has {len(unique)} groups: the {MAX_GROUPS} largest are shown "
        f"by name, the other {len(unique) - MAX_GROUPS} as “{OTHERS}”."
    )
    return UploadedPoints(X, labels, note)


def _delimiter(text: str) -> str:
    """Comma, semicolon, tab or blanks, whichever the first lines use."""
    sample = text[:4096]
    try:
        found = csv.Sniffer().sniff(sample, delimiters=",;\t ").delimiter
    except csv.Error:
        return "," if "," in sample else r"\s+"
    return r"\s+" if found == " " else found
