"""One cache for what the views compute, shared by every session and bounded in bytes.

A function decorated with :func:`memo` keeps its results in one :class:`cachetools.LRUCache` whose
size is the bytes its values hold (:func:`nbytes`): fitted models (~150 MB for 3000 digits), sweeps
and figures (a few hundred kB) share :data:`MAX_BYTES`, the least recently used going first.  The
page's run, the live route, the warm-up and class mode all call the same functions, so they share
their results.

A result is keyed by the function and its arguments, but those whose name starts with ``_`` (a
model, an array), which the other arguments identify, as Streamlit's own caches do.  Two callers
asking for the same key at once wait for one computation; an exception is raised to both and not
kept.  A caller whose computation is interrupted (its session stopped waiting) hands it on: a caller
that was waiting for it computes it anew.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, wait
from typing import Any, ParamSpec, TypeVar

import numpy as np
from cachetools import Cache, LRUCache
from plotly.graph_objects import Figure

from kpca_ui.workers import check_interrupt

MB = 2**20
MAX_BYTES = int(float(os.environ.get("KPCA_CACHE_MB", "768")) * MB)
"""What the cache holds at most: two fitted models of 3000 digits and every figure of a
lecture (``KPCA_CACHE_MB`` sets it)."""
POLL_S = 0.05
"""How often a caller waiting for another's computation checks that its session still waits."""

P = ParamSpec("P")
R = TypeVar("R")

_LOCK = threading.Lock()
_CACHE = LRUCache(MAX_BYTES, getsizeof=lambda entry: entry[1])
"""Each entry: (a result, its size measured once: a figure's walk takes milliseconds)."""
_PENDING: dict[tuple, Future] = {}


def nbytes(value: object) -> int:
    """Estimated bytes held by ``value``: its arrays, strings and bytes, each counted once."""
    seen: set[int] = set()
    todo, total = [value], 0
    while todo:
        item = todo.pop()
        if id(item) in seen or item is None:
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray):
            base = item if item.base is None else item.base
            if base is not item and id(base) in seen:
                continue
            seen.add(id(base))
            total += base.nbytes if isinstance(base, np.ndarray) else item.nbytes
        elif isinstance(item, str | bytes | bytearray):
            total += len(item)
        # Figure bound once: plotly's go.Figure is a lazy attribute, imported anew on every
        # lookup (~20 ms for the items of one Contours grid under load)
        elif isinstance(item, Figure):
            # the figure's own dictionaries: to_plotly_json() would deep-copy them first
            todo.extend((item._data, item._layout, [frame._props for frame in item.frames]))
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            todo.extend(item)
        else:
            todo.extend(getattr(item, "__dict__", {}).values())
            todo.extend(getattr(item, slot, None) for slot in getattr(type(item), "__slots__", ()))
    return total


def memo(function: Callable[P, R]) -> Callable[P, R]:
    """Keep ``function``'s results in the shared cache (see the module's docstring)."""
    signature = inspect.signature(function)
    name = f"{function.__module__}.{function.__qualname__}"

    @functools.wraps(function)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        key = (name, *(v for k, v in bound.arguments.items() if not k.startswith("_")))
        while True:
            with _LOCK:
                if key in _CACHE:
                    return _CACHE[key][0]
                future = _PENDING.setdefault(key, mine := Future())
            if future is mine:
                return _compute(key, mine, function, args, kwargs)
            with contextlib.suppress(_HandedOn):  # else its caller stopped waiting: compute it here
                return _wait(future)

    call.key_name = name  # type: ignore[attr-defined]
    call.clear = functools.partial(_forget, name)  # type: ignore[attr-defined]
    return call


def _forget(name: str) -> None:
    with _LOCK:
        for key in [key for key in _CACHE if key[0] == name]:
            del _CACHE[key]


class _HandedOn(Exception):
    """The computation waited for was interrupted by its own caller."""


def _compute(key: tuple, future: Future, function: Callable, args: tuple, kwargs: dict) -> Any:
    try:
        value = function(*args, **kwargs)
    except BaseException as error:
        with _LOCK:
            del _PENDING[key]
        # an Exception: raised to every caller, kept by none; a rerun, stop or Cancelled: handed on
        future.set_exception(error if isinstance(error, Exception) else _HandedOn())
        raise
    size = max(nbytes(value), 1)
    with _LOCK:
        del _PENDING[key]
        if size <= MAX_BYTES:  # a larger one is used once, not kept
            _CACHE[key] = (value, size)
    future.set_result(value)
    return value


def _wait(future: Future) -> Any:
    while not wait([future], timeout=POLL_S).done:
        check_interrupt()
    return future.result()


def sizes() -> dict[str, tuple[int, int]]:
    """The cache's entries and bytes by function (``bench/load_test.py`` reports them)."""
    told: dict[str, tuple[int, int]] = {}
    with _LOCK:
        for key in _CACHE:  # Cache's __getitem__: a report leaves the entries' order alone
            entries, held = told.get(key[0], (0, 0))
            told[key[0]] = (entries + 1, held + Cache.__getitem__(_CACHE, key)[1])
    return told


def clear() -> None:
    """Forget every result (tests)."""
    with _LOCK:
        _CACHE.clear()
