"""The USPS handwritten digits, found, downloaded and validated; with a fallback.

Mika et al. (1999, Sect. 4) de-noise the US Postal Service zip-code digits:
16 × 16 grey images, 7291 for training and 2007 for testing. We read them in
the format of *The Elements of Statistical Learning* (``zip.train.gz`` and
``zip.test.gz``): one digit per line, the label (0–9) and then 256 grey values
in [−1, 1], row by row.

Where :func:`load_usps` looks, in order:

1. the directory named by the environment variable ``KPCA_USPS_DIR`` (read
   only; a missing or corrupt file there is an error, never a download);
2. the cache ``<sklearn data home>/usps``;
3. the book's data site: the files are downloaded (about 2.3 MB for both),
   validated in memory and only then written to the cache, through a
   temporary file that is renamed into place. The cache therefore holds a
   complete, valid file or nothing.

:func:`load_digits_with_fallback` never fails: when USPS cannot be had it
returns scikit-learn's bundled 8 × 8 digits instead, saying why in one line.
:func:`load_digit_pair` loads the training and test files together: if either
cannot be had, both fall back, so that a model trained on 16 × 16 digits never
meets 8 × 8 test digits (or the reverse).

Why one file of about 450 lines: it is one path (look in the directory, the
cache, then download, validate, write, fall back), and its private helpers
share one vocabulary of errors and constants.  Tests replace those constants
on this module (``usps.USPS_BASE_URLS``, the download address); split into a
package, a replacement on the package would no longer reach the module that
downloads.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import tempfile
import urllib.error
import urllib.request
import warnings
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.client import HTTPException
from pathlib import Path
from typing import Literal

import numpy as np
from sklearn.datasets import get_data_home, load_digits
from sklearn.model_selection import train_test_split

Subset = Literal["train", "test"]
Progress = Callable[[float, str], None]

USPS_BASE_URLS: tuple[str, ...] = (
    "https://hastie.su.domains/ElemStatLearn/datasets/",
    "https://web.stanford.edu/~hastie/ElemStatLearn/datasets/",
)
"""Mirrors of the book's data site, tried in order."""

USPS_ENV_VAR = "KPCA_USPS_DIR"
USPS_FILES: dict[str, str] = {"train": "zip.train.gz", "test": "zip.test.gz"}
USPS_ROWS: dict[str, int] = {"train": 7291, "test": 2007}
USPS_SIDE = 16
USPS_COLUMNS = 1 + USPS_SIDE * USPS_SIDE
USPS_SHA256: dict[str, str] = {
    "train": "66ebf231ab51f2cf6ac1a892d0f98ccffee1079d7a5db638c1f11f366046ca16",
    "test": "8dacc3c6e136af6c3488de9e5113a7daf140c8c2f1f0b61c54ee02f03f1a962f",
}
"""sha256 of the book's files. A mirror may recompress them, so a file whose
hash differs is still accepted when its content validates; the hash only
changes what the progress message says."""
USPS_BYTES: dict[str, int] = {"train": 1_829_071, "test": 439_208}
"""Size of the book's files, for progress when a server sends no Content-Length."""

FALLBACK_SOURCE = "scikit-learn 8×8 digits"
FALLBACK_TEST_FRACTION = USPS_ROWS["test"] / (USPS_ROWS["train"] + USPS_ROWS["test"])
FALLBACK_SEED = 0
FALLBACK_PLAIN = (
    "The full handwriting set (USPS, 9,298 digits of 16 × 16 pixels) could not be "
    "downloaded, so a small set is shown: scikit-learn's 1,797 digits of 8 × 8 pixels."
)
"""The fallback in one plain line, for an audience (the Demo): no error code, no address."""

_CHUNK = 64 * 1024
_VALUE_BYTES = 16
"""Most characters per grey value (with its separator) a valid file may use: the
book's use 7.  So a valid file decompresses to at most :func:`max_bytes` (31 MB for
training), and a larger one (a gzip bomb) is refused while it is decompressed."""


class USPSError(RuntimeError):
    """USPS could not be had; the message is one line a user can act on."""

    def __init__(self, message: str) -> None:
        super().__init__(_one_line(message))


class USPSCacheWarning(UserWarning):
    """The data were returned, but the on-disk cache is not as it should be."""


@dataclass(frozen=True)
class DigitsData:
    """Digit images with the name of where they came from.

    Attributes
    ----------
    images : ndarray of shape (n, side * side)
        Grey values in [−1, 1], each image row-major.
    labels : ndarray of shape (n,)
        The digit, 0–9.
    side : int
        16 for USPS, 8 for scikit-learn's digits.
    source : str
        ``"USPS"`` or ``"scikit-learn 8×8 digits"``.
    message : str or None
        ``None``, or one line saying why USPS could not be had and how to
        provide it through ``KPCA_USPS_DIR``.
    note : str or None
        ``None``, or one line about the cache (it could not be written, or a
        corrupt cached file was replaced); the data are USPS all the same.
    """

    images: np.ndarray
    labels: np.ndarray
    side: int
    source: str
    message: str | None = None
    note: str | None = None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _notify(progress: Progress | None, fraction: float, message: str) -> None:
    if progress is not None:
        progress(fraction, message)


def _check_subset(subset: str) -> None:
    if subset not in USPS_FILES:
        raise ValueError(f"subset must be 'train' or 'test', got {subset!r}")


def parse_usps(raw: bytes, subset: Subset, *, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Parse and validate the gzip-compressed text of one USPS file.

    Parameters
    ----------
    raw : bytes
        The content of ``zip.train.gz`` or ``zip.test.gz``.
    subset : {"train", "test"}
        Which file it should be (fixes the expected number of rows).
    name : str
        How to name the file in error messages (a path or a URL).

    Returns
    -------
    images : ndarray of shape (n, 256), float64, values in [−1, 1]
    labels : ndarray of shape (n,), int64, values 0–9

    Raises
    ------
    USPSError
        If the content is not a complete USPS file: not gzip, truncated,
        ragged lines, wrong number of rows or columns, labels not integers
        0–9, or grey values not finite or outside [−1, 1].
    """
    _check_subset(subset)
    try:
        text = _gunzip(raw, max_bytes(subset), name).decode("ascii")
        if not text.strip():
            raise USPSError(f"{name} is not a valid USPS file: it is empty")
        table = np.loadtxt(io.StringIO(text), dtype=np.float64, ndmin=2)
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise USPSError(f"{name} is corrupt or truncated ({exc})") from exc
    except ValueError as exc:
        raise USPSError(f"{name} is not a valid USPS file ({exc})") from exc

    rows, expected = table.shape[0], USPS_ROWS[subset]
    problem = None
    if table.shape[1] != USPS_COLUMNS:
        problem = f"{table.shape[1]} columns per line, expected {USPS_COLUMNS}"
    elif rows != expected:
        problem = f"{rows} rows, expected {expected}"
    elif not np.all(np.isfinite(table)):
        problem = "it contains values that are not finite"
    else:
        labels, images = table[:, 0], table[:, 1:]
        if np.any(labels != np.round(labels)) or labels.min() < 0 or labels.max() > 9:
            problem = "labels are not all integers 0–9"
        elif images.min() < -1.0 or images.max() > 1.0:
            problem = f"grey values span [{images.min():g}, {images.max():g}], not [−1, 1]"
    if problem is not None:
        raise USPSError(f"{name} is not a valid USPS file: {problem}")
    return np.ascontiguousarray(table[:, 1:]), table[:, 0].astype(np.int64)


def max_bytes(subset: Subset) -> int:
    """The largest a valid file of this subset can be, compressed or not, in bytes."""
    return USPS_ROWS[subset] * USPS_COLUMNS * _VALUE_BYTES


def _gunzip(raw: bytes, limit: int, name: str) -> bytes:
    """``gzip.decompress(raw)``, refused as soon as it passes ``limit`` bytes.

    Decompressed in steps of at most the bytes still allowed, so that a gzip bomb
    costs ``limit`` bytes of memory, never its whole content.  Raises
    ``zlib.error`` or ``EOFError`` where :func:`gzip.decompress` would.
    """
    out = bytearray()
    rest = raw
    while rest:
        member = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # one gzip member
        out += member.decompress(rest, limit + 1 - len(out))
        if len(out) > limit:
            raise USPSError(
                f"{name} is not a valid USPS file: it decompresses to more than "
                f"{limit / 1e6:.0f} MB, more than any USPS file"
            )
        if not member.eof:
            raise EOFError("compressed file ended before the end-of-stream marker")
        rest = member.unused_data.lstrip(b"\0")  # gzip allows zero padding after a member
    return bytes(out)


@functools.lru_cache(maxsize=8)
def _parse_file(path: str, size: int, mtime_ns: int, subset: Subset) -> tuple[np.ndarray, ...]:
    """Parse a file once per (path, size, mtime): a replaced file is read again."""
    if size > max_bytes(subset):
        raise USPSError(
            f"{path} is not a valid USPS file: {size / 1e6:.0f} MB, more than any USPS file"
        )
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise USPSError(f"cannot read {path} ({exc.strerror or exc})") from exc
    images, labels = parse_usps(raw, subset, name=path)
    images.flags.writeable = False
    labels.flags.writeable = False
    return images, labels


def _read_file(path: Path, subset: Subset) -> tuple[np.ndarray, np.ndarray]:
    try:
        stat = path.stat()
    except OSError as exc:
        raise USPSError(f"cannot read {path} ({exc.strerror or exc})") from exc
    images, labels = _parse_file(str(path), stat.st_size, stat.st_mtime_ns, subset)
    return images.copy(), labels.copy()


def _download(
    filename: str,
    subset: Subset,
    base_urls: Sequence[str],
    progress: Progress | None,
    timeout: float,
) -> tuple[bytes, np.ndarray, np.ndarray]:
    """Fetch one file from the first mirror that serves a valid copy."""
    failures = []
    for base in base_urls:
        url = (base if base.endswith("/") else base + "/") + filename
        try:
            raw = _fetch(url, subset, progress, timeout)
            images, labels = parse_usps(raw, subset, name=url)
        except USPSError as exc:
            failures.append(str(exc))
        except urllib.error.HTTPError as exc:
            failures.append(f"{url}: HTTP {exc.code} {exc.reason}")
        except urllib.error.URLError as exc:
            failures.append(f"{url}: {exc.reason}")
        except (OSError, HTTPException) as exc:
            failures.append(f"{url}: {exc or type(exc).__name__}")
        else:
            matches = hashlib.sha256(raw).hexdigest() == USPS_SHA256[subset]
            check = "sha256 matches the book's file" if matches else "content validated"
            _notify(progress, 1.0, f"Downloaded {filename} ({check})")
            return raw, images, labels
    raise USPSError(f"could not download {filename}: " + "; ".join(failures))


def _fetch(url: str, subset: Subset, progress: Progress | None, timeout: float) -> bytes:
    """Read a URL into memory, reporting bytes read / Content-Length."""
    request = urllib.request.Request(url, headers={"User-Agent": "kpca-explorer"})
    buffer = io.BytesIO()
    filename = url.rsplit("/", 1)[-1]
    with urllib.request.urlopen(request, timeout=timeout) as response:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        expected = total or USPS_BYTES[subset]
        while chunk := response.read(_CHUNK):
            buffer.write(chunk)
            read = buffer.tell()
            if read > max_bytes(subset):
                raise USPSError(f"{url}: more than {max_bytes(subset) / 1e6:.0f} MB, not USPS")
            _notify(
                progress,
                min(read / expected, 0.99),
                f"Downloading {filename}: {read / 1e6:.1f} of {expected / 1e6:.1f} MB",
            )
    if total is not None and buffer.tell() != total:
        raise USPSError(f"{url}: download interrupted after {buffer.tell()} of {total} bytes")
    return buffer.getvalue()


def _write_cache(raw: bytes, target: Path) -> None:
    """Write ``raw`` to ``target`` atomically: a temporary file, then ``os.replace``.

    The temporary file is created private (0600); before it is renamed into
    place it gets the mode any new file gets (0666 less the umask), as the
    first download's file had.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _load_usps(
    subset: Subset,
    data_home: str | Path | None,
    base_urls: Sequence[str],
    progress: Progress | None,
    timeout: float,
) -> tuple[np.ndarray, np.ndarray, str | None]:
    """:func:`load_usps`, returning the cache note instead of warning it."""
    _check_subset(subset)
    if isinstance(base_urls, str):
        base_urls = (base_urls,)
    bad_schemes = [url for url in base_urls if not url.lower().startswith(("http://", "https://"))]
    if bad_schemes:
        raise ValueError(f"base_urls must be http(s) URLs, got {bad_schemes}")
    filename = USPS_FILES[subset]

    env_dir = os.environ.get(USPS_ENV_VAR)
    if env_dir:
        path = Path(env_dir) / filename
        if not path.is_file():
            raise USPSError(f"{USPS_ENV_VAR} is set but {path} does not exist")
        _notify(progress, 0.0, f"Reading {path}")
        images, labels = _read_file(path, subset)
        _notify(progress, 1.0, f"Read {path}")
        return images, labels, None

    corrupt = unwritable = None
    try:
        cache = Path(get_data_home(data_home)) / "usps" / filename
    except OSError as exc:
        cache = None
        unwritable = f"the data home could not be created ({exc.strerror or exc})"
    else:
        if cache.is_file():
            try:
                images, labels = _read_file(cache, subset)
            except USPSError as exc:
                corrupt = str(exc)
                with contextlib.suppress(OSError):
                    cache.unlink()
            else:
                _notify(progress, 1.0, f"Read {cache}")
                return images, labels, None

    try:
        raw, images, labels = _download(filename, subset, base_urls, progress, timeout)
    except USPSError as exc:
        if corrupt is not None:
            raise USPSError(f"cached {corrupt}, and it could not be replaced: {exc}") from exc
        raise

    if cache is not None:
        try:
            _write_cache(raw, cache)
        except OSError as exc:
            unwritable = f"{cache.parent} is not writable ({exc.strerror or exc})"
        else:
            if corrupt is None:
                return images, labels, None
            return images, labels, f"Cached {corrupt}; it was replaced by a fresh download."
    note = f"USPS was downloaded but not cached: {unwritable}; it will be downloaded again."
    if corrupt is not None:
        note = f"Cached {corrupt}. {note}"
    return images, labels, note


def load_usps(
    subset: Subset = "train",
    *,
    data_home: str | Path | None = None,
    base_urls: Sequence[str] = USPS_BASE_URLS,
    progress: Progress | None = None,
    timeout: float = 30.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Load the USPS digits (the data of Mika et al. 1999, Sect. 4).

    Looks in ``$KPCA_USPS_DIR``, then in ``<data_home>/usps``, and otherwise
    downloads the file from ``base_urls`` (tried in order), validates it and
    caches it. Parsed arrays are kept in memory, keyed on the file's path,
    size and modification time; callers get copies.

    Parameters
    ----------
    subset : {"train", "test"}
        ``zip.train.gz`` (7291 digits) or ``zip.test.gz`` (2007 digits).
    data_home : str or Path, optional
        scikit-learn's data home (``sklearn.datasets.get_data_home``).
    base_urls : sequence of str
        http(s) directories holding the two files.
    progress : callable, optional
        ``progress(fraction, message)``, called while downloading (bytes read
        / Content-Length) and when done.
    timeout : float
        Seconds to wait for a server.

    Returns
    -------
    images : ndarray of shape (n, 256), float64
        Grey values in [−1, 1], each 16 × 16 image row-major.
    labels : ndarray of shape (n,), int64
        The digit, 0–9.

    Raises
    ------
    USPSError
        A file in ``KPCA_USPS_DIR`` is missing or corrupt, or no mirror
        served a valid file (a corrupt cached file is deleted and named in
        the message).

    Warns
    -----
    USPSCacheWarning
        The data are valid but the cache could not be written (read-only
        directory), or a corrupt cached file was found and replaced.
    """
    images, labels, note = _load_usps(subset, data_home, base_urls, progress, timeout)
    if note is not None:
        warnings.warn(note, USPSCacheWarning, stacklevel=2)
    return images, labels


@functools.lru_cache(maxsize=1)
def _fallback_split() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    digits = load_digits()
    images = digits.data / 8.0 - 1.0  # grey values 0–16 → [−1, 1]
    x_train, x_test, y_train, y_test = train_test_split(
        images,
        digits.target,
        test_size=FALLBACK_TEST_FRACTION,
        random_state=FALLBACK_SEED,
        stratify=digits.target,
    )
    split = {"train": (x_train, y_train), "test": (x_test, y_test)}
    for arrays in split.values():
        for array in arrays:
            array.flags.writeable = False
    return split


def load_digits_with_fallback(
    subset: Subset = "train",
    *,
    data_home: str | Path | None = None,
    base_urls: Sequence[str] = USPS_BASE_URLS,
    progress: Progress | None = None,
    timeout: float = 30.0,
) -> DigitsData:
    """USPS if it can be had, else scikit-learn's 8 × 8 digits; never fails on data.

    Parameters
    ----------
    subset : {"train", "test"}
        Which half. For the fallback, a seeded stratified split of the 1797
        bundled digits in USPS proportions (about 78 % / 22 %).
    data_home, base_urls, progress, timeout
        As for :func:`load_usps`.

    Returns
    -------
    DigitsData
        With ``source`` saying which data these are and ``message`` saying,
        in one line, why USPS could not be had.
    """
    _check_subset(subset)
    try:
        images, labels, note = _load_usps(subset, data_home, base_urls, progress, timeout)
    except (USPSError, OSError) as exc:
        return _fallback(subset, exc)
    return DigitsData(images, labels, side=USPS_SIDE, source="USPS", note=note)


def _fallback(subset: Subset, reason: Exception) -> DigitsData:
    message = _one_line(
        f"USPS digits unavailable ({reason}). Showing {FALLBACK_SOURCE} instead; "
        f"to use USPS, download zip.train.gz and zip.test.gz and set {USPS_ENV_VAR} "
        "to their folder."
    )
    x, y = _fallback_split()[subset]
    return DigitsData(x.copy(), y.copy(), side=8, source=FALLBACK_SOURCE, message=message)


def load_digit_pair(
    *,
    data_home: str | Path | None = None,
    base_urls: Sequence[str] = USPS_BASE_URLS,
    progress: Progress | None = None,
    timeout: float = 30.0,
) -> tuple[DigitsData, DigitsData]:
    """The training and test digits, both USPS or both scikit-learn's 8 × 8 digits.

    The test file (the smaller) is loaded first; if either file cannot be
    had, neither is used and both halves are the fallback's, each with the
    same message naming the file that failed.

    Parameters
    ----------
    data_home, base_urls, timeout
        As for :func:`load_usps`.
    progress : callable, optional
        ``progress(fraction, message)``: the test file is the first half, the
        training file the second.

    Returns
    -------
    train, test : DigitsData
        Of the same ``source`` and ``side``.
    """
    loaded: dict[str, tuple[np.ndarray, np.ndarray, str | None]] = {}
    try:
        for i, subset in enumerate(("test", "train")):
            loaded[subset] = _load_usps(subset, data_home, base_urls, _half(progress, i), timeout)
    except (USPSError, OSError) as exc:
        return _fallback("train", exc), _fallback("test", exc)
    train, test = (
        DigitsData(images, labels, side=USPS_SIDE, source="USPS", note=note)
        for images, labels, note in (loaded["train"], loaded["test"])
    )
    return train, test


def _half(progress: Progress | None, i: int) -> Progress | None:
    """Report the i-th of two files as the i-th half of one bar."""
    if progress is None:
        return None

    def report(fraction: float, message: str) -> None:
        progress((i + fraction) / 2, message)

    return report
