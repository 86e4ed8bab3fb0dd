"""Reading the user's own 2-D points from an uploaded CSV, safely.

Only text is parsed (no pickle, no paths); every way a file can be wrong gets
an :class:`UploadError` whose message says what is wrong and how to fix it.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd

MAX_ROWS = 5000
MAX_BYTES = 5 * 1024 * 1024


class UploadError(ValueError):
    """An uploaded file that cannot be used; the message is for the user."""


def parse_points_csv(
    data: bytes, *, max_rows: int = MAX_ROWS, max_bytes: int = MAX_BYTES
) -> tuple[np.ndarray, np.ndarray | None]:
    """Points from a CSV of two numeric columns and an optional group label.

    Parameters
    ----------
    data : bytes
        The file's content.  A first row of column names is allowed.
    max_rows : int
        Largest number of points accepted.
    max_bytes : int
        Largest file accepted.

    Returns
    -------
    X : ndarray of shape (n, 2)
    labels : ndarray of shape (n,) of int, or None
        The third column, as group codes 0, 1, … in order of appearance.

    Raises
    ------
    UploadError
        Empty, binary or not CSV, non-numeric, NaN/inf, fewer than two
        columns, fewer than two distinct points, or too large.
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
    try:
        table = pd.read_csv(io.StringIO(text), header=None, sep=_delimiter(text))
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as error:
        raise UploadError(
            f"The file could not be read as CSV ({error}). "
            "Use one point per line: x,y or x,y,group."
        ) from None
    if table.shape[1] < 2:
        raise UploadError(
            "The file has only one column. Each line needs two numbers: x,y "
            "(and optionally a group label)."
        )
    if _is_header(table.iloc[0, :2]):
        table = table.iloc[1:].reset_index(drop=True)
    if table.empty:
        raise UploadError("The file has column names but no data rows.")
    if len(table) > max_rows:
        raise UploadError(
            f"The file has {len(table)} rows; the limit is {max_rows}. "
            "Subsample it (every k-th row) and upload again."
        )
    coords = table.iloc[:, :2].apply(pd.to_numeric, errors="coerce")
    bad = coords.isna().any(axis=1)
    if bad.any():
        first = int(np.flatnonzero(bad.to_numpy())[0]) + 1
        raise UploadError(
            f"{int(bad.sum())} rows have a missing or non-numeric x or y "
            f"(first: data row {first}). Fix or delete them."
        )
    X = coords.to_numpy(dtype=float)
    if not np.all(np.isfinite(X)):
        raise UploadError("Some values are infinite. Replace them with finite numbers.")
    if len(np.unique(X, axis=0)) < 2:
        raise UploadError("All points are the same. Kernel PCA needs at least two distinct points.")
    labels = None
    if table.shape[1] >= 3:
        labels = pd.factorize(table.iloc[:, 2].astype(str))[0]
    return X, labels


def _is_header(first_row: pd.Series) -> bool:
    """A first row whose x and y are both non-numeric is taken as column names."""
    return bool(pd.to_numeric(first_row, errors="coerce").isna().all())


def _delimiter(text: str) -> str:
    """Comma, semicolon, tab or blanks, whichever the first lines use."""
    sample = text[:4096]
    try:
        found = csv.Sniffer().sniff(sample, delimiters=",;\t ").delimiter
    except csv.Error:
        return "," if "," in sample else r"\s+"
    return r"\s+" if found == " " else found
