"""The shared cache: bounded in bytes, one computation per key, sizes told (kpca_ui/cache.py)."""

from __future__ import annotations

import threading
import time

import numpy as np
import plotly.graph_objects as go
import pytest
from cachetools import LRUCache

from kpca_ui import cache
from kpca_ui.cache import MB, memo, nbytes


def test_nbytes_counts_arrays_strings_and_figures_once():
    array = np.zeros((100, 100))  # 80 000 bytes
    assert nbytes(array) == 80_000
    assert nbytes({"a": array, "view": array[:10], "again": [array]}) == 80_000 + len("aviewagain")
    figure = go.Figure(go.Scatter(x=np.arange(1000.0), y=np.arange(1000.0)))
    assert nbytes(figure) > 16_000 > nbytes(go.Figure())


def test_measuring_a_figure_imports_nothing_per_item(monkeypatch):
    """plotly's ``go.Figure`` is a lazy attribute: each lookup imported it anew (748 imports
    and ~20 ms per Contours grid under load, a third of the server's time on a new grid)."""
    import importlib

    imports = []
    import_module = importlib.import_module

    def counting(*args, **kwargs):
        imports.append(args)
        return import_module(*args, **kwargs)

    figure = go.Figure([go.Scatter(x=[k], y=[k], name=str(k)) for k in range(50)])
    monkeypatch.setattr(importlib, "import_module", counting)
    assert nbytes(figure) > 0
    assert imports == []


@pytest.fixture
def small_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache of 3 MB, empty."""
    monkeypatch.setattr(cache, "MAX_BYTES", 3 * MB)
    monkeypatch.setattr(cache, "_CACHE", LRUCache(3 * MB, getsizeof=lambda entry: entry[1]))


calls: list[int] = []


@memo
def megabytes(seed: int, _ignored: object = None) -> np.ndarray:
    calls.append(seed)
    return np.full(MB // 8, float(seed))  # one MB each


def test_the_cache_keeps_the_newest_entries_that_fit(small_cache):
    calls.clear()
    for seed in range(5):
        megabytes(seed)
    assert cache.sizes()[megabytes.key_name] == (3, 3 * MB)
    megabytes(4)  # the newest: kept
    megabytes(0)  # the oldest: computed again
    assert calls == [0, 1, 2, 3, 4, 0]


def test_arguments_named_with_an_underscore_are_not_the_key(small_cache):
    calls.clear()
    megabytes(7, _ignored=np.zeros(3))
    megabytes(7, _ignored=np.ones(3))
    assert calls == [7]


@memo
def too_large(seed: int) -> np.ndarray:
    return np.zeros(4 * MB // 8)


def test_a_value_larger_than_the_cache_is_used_and_not_kept(small_cache):
    assert too_large(0).nbytes == 4 * MB
    assert too_large.key_name not in cache.sizes()


@memo
def slow(seed: int) -> int:
    calls.append(seed)
    time.sleep(0.2)
    return seed


def test_callers_of_one_key_wait_for_one_computation(small_cache):
    calls.clear()
    results = []
    threads = [threading.Thread(target=lambda: results.append(slow(1))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [1, 1, 1, 1]
    assert calls == [1]


class Stopped(BaseException):
    """A session that stopped waiting (Streamlit's rerun, :class:`kpca_ui.workers.Cancelled`)."""


@memo
def interrupted(seed: int, _stop: threading.Event) -> int:
    calls.append(seed)
    time.sleep(0.2)
    if _stop.is_set():
        raise Stopped
    return seed


def test_a_computation_its_caller_left_is_made_by_a_caller_still_waiting(small_cache):
    calls.clear()
    stop, results = threading.Event(), []

    def leaving() -> None:
        stop.set()
        try:
            interrupted(2, stop)
        except Stopped:
            results.append("left")

    first = threading.Thread(target=leaving)
    first.start()
    time.sleep(0.05)
    waiter = threading.Thread(target=lambda: results.append(interrupted(2, threading.Event())))
    waiter.start()
    first.join()
    waiter.join()
    assert sorted(results, key=str) == [2, "left"]
    assert calls == [2, 2]


@memo
def failing(seed: int) -> int:
    calls.append(seed)
    raise ValueError("no")


def test_an_exception_is_raised_and_not_kept(small_cache):
    calls.clear()
    for _ in range(2):
        with pytest.raises(ValueError):
            failing(3)
    assert calls == [3, 3]
