"""The USPS loader: parsing, validation, the download path and the fallback.

Downloads go to a real HTTP server on 127.0.0.1 (``http.server`` in a thread)
serving copies of the files from ``KPCA_USPS_DIR`` placed in ``tmp_path``;
every test uses a ``tmp_path`` data home, so the real cache is never touched.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from kpca_core.usps import (
    FALLBACK_SOURCE,
    USPS_BASE_URLS,
    USPS_SHA256,
    DigitsData,
    USPSCacheWarning,
    USPSError,
    load_digit_pair,
    load_digits_with_fallback,
    load_usps,
    parse_usps,
)

TRAIN_COUNTS = [1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644]
TEST_COUNTS = [359, 264, 198, 166, 200, 160, 170, 147, 166, 177]
COUNTS = {"train": TRAIN_COUNTS, "test": TEST_COUNTS}
FILES = {"train": "zip.train.gz", "test": "zip.test.gz"}


def _usps_dir() -> Path | None:
    value = os.environ.get("KPCA_USPS_DIR")
    return Path(value) if value else None


skip_without_usps = pytest.mark.skipif(
    _usps_dir() is None, reason="KPCA_USPS_DIR is not set: the real USPS files are needed"
)


def _files_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


@dataclass
class Server:
    """A local HTTP server: ``url`` is its root, ``root`` the served directory."""

    url: str
    root: Path
    requests: list[str] = field(default_factory=list)

    def put(self, relpath: str, data: bytes) -> None:
        path = self.root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """Serve ``tmp_path/srv``; paths under ``/interrupt/`` announce the full length of
    ``/ok/<file>`` but close the connection half-way."""
    root = tmp_path / "srv"
    root.mkdir()
    requests: list[str] = []

    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            requests.append(self.path)
            if self.path.startswith("/interrupt/"):
                data = (root / "ok" / self.path.rsplit("/", 1)[-1]).read_bytes()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            super().do_GET()

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{httpd.server_address[1]}/", root, requests)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture
def real_files(monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """The bytes of the real files; KPCA_USPS_DIR is then unset for the test."""
    source = _usps_dir()
    assert source is not None
    data = {subset: (source / name).read_bytes() for subset, name in FILES.items()}
    monkeypatch.delenv("KPCA_USPS_DIR")
    return data


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty scikit-learn data home; KPCA_USPS_DIR unset."""
    monkeypatch.delenv("KPCA_USPS_DIR", raising=False)
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def dead_url() -> str:
    """A URL on which nothing listens (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def _synthetic(rows: int, seed: int = 0) -> np.ndarray:
    """A USPS-like table: a label 0–9, then 256 grey values in tenths of [−1, 1]."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, rows)
    return np.column_stack([labels, rng.integers(-10, 11, (rows, 256)) / 10])


def _gz(table: np.ndarray | str) -> bytes:
    if isinstance(table, np.ndarray):
        table = "".join(" ".join(map(str, row)) + "\n" for row in table.tolist())
    return gzip.compress(table.encode("ascii"), compresslevel=1)


# --- the real files ------------------------------------------------------------------


@pytest.mark.parametrize("subset", ["train", "test"])
@pytest.mark.usps
@skip_without_usps
def test_real_files_through_kpca_usps_dir(subset: str, tmp_path: Path) -> None:
    # KPCA_USPS_DIR comes first: a garbage cache file is neither read nor touched.
    cached = tmp_path / "usps" / FILES[subset]
    cached.parent.mkdir()
    cached.write_bytes(b"garbage")
    images, labels = load_usps(subset, data_home=tmp_path)
    assert cached.read_bytes() == b"garbage"
    assert images.shape == (sum(COUNTS[subset]), 256)
    assert images.dtype == np.float64
    assert np.issubdtype(labels.dtype, np.integer)
    assert np.bincount(labels, minlength=10).tolist() == COUNTS[subset]
    assert images.min() == -1.0
    assert images.max() == 1.0
    # The first line of zip.train.gz: "6.0000 -1.0000 (x7) -0.6310 0.8620 -0.1670 ...".
    if subset == "train":
        assert labels[0] == 6
        assert images[0, :10].tolist() == [-1.0] * 7 + [-0.631, 0.862, -0.167]


@pytest.mark.parametrize("subset", ["train", "test"])
@pytest.mark.usps
@skip_without_usps
def test_callers_get_copies_of_the_in_process_cache(subset: str) -> None:
    images, labels = load_usps(subset)
    images[:] = 5.0
    labels[:] = -1
    again, again_labels = load_usps(subset)
    assert again.max() == 1.0
    assert np.bincount(again_labels).tolist() == COUNTS[subset]


@pytest.mark.parametrize("subset", ["train", "test"])
def test_missing_file_in_kpca_usps_dir_is_an_error_not_a_download(
    subset: str, tmp_path: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("KPCA_USPS_DIR", str(empty))
    with pytest.raises(USPSError, match=f"KPCA_USPS_DIR.*{FILES[subset]}"):
        load_usps(subset, data_home=tmp_path / "home", base_urls=[server.url + "ok/"])
    assert server.requests == []


def test_corrupt_file_in_kpca_usps_dir_names_the_file(
    tmp_path: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "usps"
    folder.mkdir()
    (folder / "zip.test.gz").write_bytes(b"not gzip at all")
    monkeypatch.setenv("KPCA_USPS_DIR", str(folder))
    with pytest.raises(USPSError, match=r"zip\.test\.gz is corrupt"):
        load_usps("test", data_home=tmp_path / "home", base_urls=[server.url])
    assert server.requests == []


# --- validation by content -----------------------------------------------------------


def test_a_valid_synthetic_file_parses_exactly() -> None:
    table = _synthetic(2007)
    images, labels = parse_usps(_gz(table), "test", name="x")
    np.testing.assert_array_equal(images, table[:, 1:])
    np.testing.assert_array_equal(labels, table[:, 0].astype(int))


def _set(table: np.ndarray, index: tuple[int, int], value: float) -> np.ndarray:
    table = table.copy()
    table[index] = value
    return table


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (lambda: b"this is not gzip", "corrupt"),
        (lambda: _gz(_synthetic(2007))[:5000], "corrupt or truncated"),
        (lambda: _gz(""), "empty"),
        (lambda: _gz(_synthetic(2006)), "2006 rows, expected 2007"),
        (lambda: _gz(_synthetic(2007)[:, :256]), "256 columns"),
        (lambda: _gz(_set(_synthetic(2007), (5, 0), 10)), "labels"),
        (lambda: _gz(_set(_synthetic(2007), (5, 0), 2.5)), "labels"),
        (lambda: _gz(_set(_synthetic(2007), (9, 3), 1.5)), "grey values"),
        (lambda: _gz(_set(_synthetic(2007), (9, 3), np.nan)), "not finite"),
        (lambda: _gz("1 " + "0 " * 256 + "\n2 0 0\n"), "not a valid USPS file"),
        (lambda: b"\x1f\x8b" + b"\x00" * 40, "corrupt"),
    ],
    ids=[
        "not-gzip",
        "truncated-gzip",
        "empty",
        "rows",
        "columns",
        "label-10",
        "label-fraction",
        "value-range",
        "nan",
        "ragged",
        "bad-header",
    ],
)
def test_invalid_content_is_rejected_with_the_reason(content, reason: str) -> None:
    with pytest.raises(USPSError, match=reason) as info:
        parse_usps(content(), "test", name="some/zip.test.gz")
    assert "some/zip.test.gz" in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("subset", ["validation", "", "TRAIN"])
def test_an_unknown_subset_is_rejected(subset: str, home: Path) -> None:
    with pytest.raises(ValueError, match="subset"):
        load_usps(subset, data_home=home)
    with pytest.raises(ValueError, match="subset"):
        load_digits_with_fallback(subset, data_home=home)


@pytest.mark.parametrize("url", ["file:///etc/", "ftp://example.org/", "/tmp/"])
def test_only_http_mirrors_are_opened(url: str, home: Path) -> None:
    with pytest.raises(ValueError, match="http"):
        load_usps("test", data_home=home, base_urls=[url])


# --- the download path ---------------------------------------------------------------


@pytest.mark.parametrize("subset", ["train", "test"])
@pytest.mark.usps
@skip_without_usps
def test_download_lands_valid_in_the_cache(
    subset: str, real_files: dict[str, bytes], home: Path, server: Server
) -> None:
    server.put(f"ok/{FILES[subset]}", real_files[subset])
    reports: list[tuple[float, str]] = []
    images, labels = load_usps(
        subset,
        data_home=home,
        base_urls=[server.url + "ok/"],
        progress=lambda f, m: reports.append((f, m)),
    )
    assert np.bincount(labels).tolist() == COUNTS[subset]
    assert images.shape == (sum(COUNTS[subset]), 256)
    cached = home / "usps" / FILES[subset]
    assert _files_under(home) == [cached]
    assert cached.read_bytes() == real_files[subset]

    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions)
    assert fractions[-1] == 1.0
    assert len(reports) >= 3
    assert any("Downloading" in m for _, m in reports)
    assert "sha256 matches" in reports[-1][1]

    # Second call: from the cache, no new request.
    assert len(server.requests) == 1
    again, again_labels = load_usps(subset, data_home=home, base_urls=[server.url + "ok/"])
    assert len(server.requests) == 1
    np.testing.assert_array_equal(again, images)
    np.testing.assert_array_equal(again_labels, labels)


@pytest.mark.usps
@skip_without_usps
@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("truncated-file", "corrupt or truncated"),
        ("interrupt", "download interrupted after"),
    ],
)
def test_truncated_download_is_an_error_and_leaves_no_file(
    how: str, reason: str, real_files: dict[str, bytes], home: Path, server: Server
) -> None:
    full = real_files["test"]
    server.put("ok/zip.test.gz", full)
    server.put("truncated-file/zip.test.gz", full[: len(full) // 2])
    with pytest.raises(USPSError, match=rf"{how}/zip\.test\.gz.*{reason}"):
        load_usps("test", data_home=home, base_urls=[server.url + how + "/"], timeout=10)
    assert _files_under(home) == []


@pytest.mark.usps
@skip_without_usps
def test_a_404_on_the_first_mirror_then_the_second(
    real_files: dict[str, bytes], home: Path, server: Server
) -> None:
    server.put("mirror2/zip.test.gz", real_files["test"])
    _, labels = load_usps(
        "test", data_home=home, base_urls=[server.url + "mirror1", server.url + "mirror2/"]
    )
    assert np.bincount(labels).tolist() == TEST_COUNTS
    assert server.requests == ["/mirror1/zip.test.gz", "/mirror2/zip.test.gz"]
    assert (home / "usps" / "zip.test.gz").read_bytes() == real_files["test"]


@pytest.mark.usps
@skip_without_usps
def test_all_mirrors_failing_names_each_reason(
    real_files: dict[str, bytes], home: Path, server: Server, dead_url: str
) -> None:
    server.put("bad/zip.test.gz", real_files["test"][:1000])
    with pytest.raises(USPSError) as info:
        load_usps(
            "test",
            data_home=home,
            base_urls=[server.url + "gone/", server.url + "bad/", dead_url],
            timeout=5,
        )
    message = str(info.value)
    assert message.startswith("could not download zip.test.gz")
    assert "HTTP 404" in message
    assert "bad/zip.test.gz is corrupt or truncated" in message
    assert f"{dead_url}zip.test.gz: " in message
    assert "refused" in message.lower()
    assert _files_under(home) == []


@pytest.mark.usps
@skip_without_usps
def test_a_recompressed_mirror_copy_is_accepted_by_content(
    real_files: dict[str, bytes], home: Path, server: Server
) -> None:
    recompressed = gzip.compress(gzip.decompress(real_files["test"]), compresslevel=1)
    assert hashlib.sha256(recompressed).hexdigest() != USPS_SHA256["test"]
    server.put("mirror/zip.test.gz", recompressed)
    reports: list[str] = []
    _, labels = load_usps(
        "test",
        data_home=home,
        base_urls=[server.url + "mirror/"],
        progress=lambda f, m: reports.append(m),
    )
    assert np.bincount(labels).tolist() == TEST_COUNTS
    assert "content validated" in reports[-1]
    assert (home / "usps" / "zip.test.gz").read_bytes() == recompressed


@pytest.mark.usps
@skip_without_usps
@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong-rows"])
def test_a_corrupt_cache_is_reported_and_replaced(
    damage: str, real_files: dict[str, bytes], home: Path, server: Server
) -> None:
    good = real_files["test"]
    bad = {
        "garbage": b"\x00" * 100,
        "truncated": good[: len(good) // 3],
        "wrong-rows": _gz(_synthetic(10)),
    }[damage]
    cached = home / "usps" / "zip.test.gz"
    cached.parent.mkdir()
    cached.write_bytes(bad)
    server.put("ok/zip.test.gz", good)
    with pytest.warns(USPSCacheWarning, match=r"zip\.test\.gz .*replaced by a fresh download"):
        _, labels = load_usps("test", data_home=home, base_urls=[server.url + "ok/"])
    assert np.bincount(labels).tolist() == TEST_COUNTS
    assert cached.read_bytes() == good
    assert _files_under(home) == [cached]


@pytest.mark.parametrize("damage", [b"\x00" * 100, _gz(_synthetic(10))], ids=["garbage", "rows"])
def test_a_corrupt_cache_offline_is_reported_and_removed(
    damage: bytes, home: Path, dead_url: str
) -> None:
    cached = home / "usps" / "zip.test.gz"
    cached.parent.mkdir()
    cached.write_bytes(damage)
    with pytest.raises(USPSError, match=r"cached .*zip\.test\.gz .*could not download") as info:
        load_usps("test", data_home=home, base_urls=[dead_url], timeout=5)
    assert str(cached) in str(info.value)
    assert _files_under(home) == []


@pytest.mark.usps
@skip_without_usps
def test_an_unwritable_cache_still_returns_the_data_and_says_so(
    real_files: dict[str, bytes], home: Path, server: Server
) -> None:
    blocker = home / "usps"  # a file where the cache directory should be
    blocker.write_bytes(b"")
    server.put("ok/zip.test.gz", real_files["test"])
    with pytest.warns(USPSCacheWarning, match="downloaded but not cached"):
        _, labels = load_usps("test", data_home=home, base_urls=[server.url + "ok/"])
    assert np.bincount(labels).tolist() == TEST_COUNTS
    assert _files_under(home) == [blocker]
    assert blocker.read_bytes() == b""

    data = load_digits_with_fallback("test", data_home=home, base_urls=[server.url + "ok/"])
    assert data.source == "USPS"
    assert data.message is None
    assert "not cached" in data.note


@pytest.mark.usps
@skip_without_usps
def test_a_failed_cache_write_leaves_no_temporary_file(
    real_files: dict[str, bytes], home: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    server.put("ok/zip.test.gz", real_files["test"])
    with pytest.warns(USPSCacheWarning, match="not writable .*Permission denied"):
        _, labels = load_usps("test", data_home=home, base_urls=[server.url + "ok/"])
    assert np.bincount(labels).tolist() == TEST_COUNTS
    assert _files_under(home) == []


@pytest.mark.usps
@skip_without_usps
@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores directory permissions"
)
def test_a_read_only_cache_directory_still_returns_the_data(
    real_files: dict[str, bytes], home: Path, server: Server
) -> None:
    cache = home / "usps"
    cache.mkdir()
    cache.chmod(0o555)
    try:
        server.put("ok/zip.test.gz", real_files["test"])
        with pytest.warns(USPSCacheWarning, match="not writable"):
            _, labels = load_usps("test", data_home=home, base_urls=[server.url + "ok/"])
        assert np.bincount(labels).tolist() == TEST_COUNTS
        assert _files_under(home) == []
    finally:
        cache.chmod(0o755)


# --- the fallback --------------------------------------------------------------------


def test_all_servers_down_falls_back_to_the_8x8_digits(home: Path, dead_url: str) -> None:
    train = load_digits_with_fallback("train", data_home=home, base_urls=[dead_url], timeout=5)
    test = load_digits_with_fallback("test", data_home=home, base_urls=[dead_url], timeout=5)
    for data in (train, test):
        assert isinstance(data, DigitsData)
        assert data.source == FALLBACK_SOURCE == "scikit-learn 8×8 digits"
        assert data.side == 8
        assert data.images.shape[1] == 64
        assert data.images.min() == -1.0
        assert data.images.max() == 1.0
        assert set(np.unique(data.labels)) == set(range(10))
        assert "KPCA_USPS_DIR" in data.message
        assert "could not download" in data.message
        assert "\n" not in data.message
    assert len(train.labels) + len(test.labels) == 1797
    assert 0.7 < len(train.labels) / 1797 < 0.85
    # Disjoint halves: no training image appears in the test set.
    train_rows = {row.tobytes() for row in train.images}
    assert sum(row.tobytes() in train_rows for row in test.images) < 5
    assert _files_under(home) == []

    again = load_digits_with_fallback("train", data_home=home, base_urls=[dead_url], timeout=5)
    np.testing.assert_array_equal(again.images, train.images)
    again.images[:] = 0.0
    third = load_digits_with_fallback("train", data_home=home, base_urls=[dead_url], timeout=5)
    np.testing.assert_array_equal(third.images, train.images)


def test_a_broken_kpca_usps_dir_falls_back_with_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KPCA_USPS_DIR", str(tmp_path / "nowhere"))
    data = load_digits_with_fallback("train", data_home=tmp_path / "home")
    assert data.source == FALLBACK_SOURCE
    assert str(tmp_path / "nowhere") in data.message


@pytest.mark.usps
@skip_without_usps
@pytest.mark.parametrize("subset", ["train", "test"])
def test_fallback_loader_prefers_usps(subset: str) -> None:
    data = load_digits_with_fallback(subset, base_urls=USPS_BASE_URLS)
    assert (data.source, data.side, data.message, data.note) == ("USPS", 16, None, None)
    assert np.bincount(data.labels).tolist() == COUNTS[subset]


# --- the training and test files together (issue #14, item 3) --------------------


@pytest.fixture(scope="module")
def synthetic_files() -> dict[str, bytes]:
    """Valid USPS-shaped files (right row counts, labels, grey values)."""
    return {"train": _gz(_synthetic(7291, seed=1)), "test": _gz(_synthetic(2007, seed=2))}


def _usps_folder(tmp_path: Path, monkeypatch, files: dict[str, bytes]) -> None:
    """A KPCA_USPS_DIR holding ``files`` by subset (a subset left out is missing)."""
    folder = tmp_path / "usps"
    folder.mkdir()
    for subset, raw in files.items():
        (folder / FILES[subset]).write_bytes(raw)
    monkeypatch.setenv("KPCA_USPS_DIR", str(folder))


@pytest.mark.parametrize("damage", ["missing", "truncated", "garbage"])
def test_one_bad_file_in_kpca_usps_dir_makes_both_fall_back(
    damage: str, synthetic_files: dict[str, bytes], tmp_path: Path, monkeypatch
) -> None:
    """A bad training file with a good test file: 8×8 for both, never 16×16 with 8×8."""
    files = {"test": synthetic_files["test"]}
    train = synthetic_files["train"]
    if damage != "missing":
        files["train"] = train[: len(train) // 2] if damage == "truncated" else b"\x00" * 100
    _usps_folder(tmp_path, monkeypatch, files)
    train_data, test_data = load_digit_pair(data_home=tmp_path / "home")
    for data in (train_data, test_data):
        assert (data.source, data.side, data.images.shape[1]) == (FALLBACK_SOURCE, 8, 64)
        assert "zip.train.gz" in data.message


def test_a_corrupt_cached_training_file_offline_makes_both_fall_back(
    synthetic_files: dict[str, bytes], home: Path, dead_url: str
) -> None:
    cache = home / "usps"
    cache.mkdir()
    (cache / "zip.test.gz").write_bytes(synthetic_files["test"])
    (cache / "zip.train.gz").write_bytes(synthetic_files["train"][:1000])
    train_data, test_data = load_digit_pair(data_home=home, base_urls=[dead_url], timeout=5)
    assert train_data.side == test_data.side == 8
    assert train_data.message == test_data.message
    assert "zip.train.gz" in train_data.message


def test_a_bad_test_file_makes_both_fall_back_too(
    synthetic_files: dict[str, bytes], tmp_path: Path, monkeypatch
) -> None:
    _usps_folder(
        tmp_path, monkeypatch, {"train": synthetic_files["train"], "test": _gz(_synthetic(10))}
    )
    train_data, test_data = load_digit_pair(data_home=tmp_path / "home")
    assert train_data.side == test_data.side == 8
    assert "zip.test.gz" in train_data.message


def test_two_good_files_load_together_with_progress_in_halves(
    synthetic_files: dict[str, bytes], tmp_path: Path, monkeypatch
) -> None:
    _usps_folder(tmp_path, monkeypatch, synthetic_files)
    reports: list[float] = []
    train_data, test_data = load_digit_pair(progress=lambda f, m: reports.append(f))
    assert (train_data.source, test_data.source) == ("USPS", "USPS")
    assert (len(train_data.labels), len(test_data.labels)) == (7291, 2007)
    assert reports == sorted(reports) and reports[-1] == 1.0 and 0.5 in reports


def test_a_re_downloaded_cache_file_gets_the_usual_mode(
    synthetic_files: dict[str, bytes], home: Path, server: Server
) -> None:
    """The cache file was created by mkstemp (0600); it must be 0666 less the umask."""
    cached = home / "usps" / "zip.test.gz"
    cached.parent.mkdir()
    cached.write_bytes(b"\x00" * 100)
    server.put("ok/zip.test.gz", synthetic_files["test"])
    with pytest.warns(USPSCacheWarning, match="replaced"):
        load_usps("test", data_home=home, base_urls=[server.url + "ok/"])
    mask = os.umask(0o022)
    os.umask(mask)
    assert cached.stat().st_mode & 0o777 == 0o666 & ~mask
