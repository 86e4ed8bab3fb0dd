"""The caches' memory: their sizes in bytes, and the large ones bounded by bytes, not only entries.

``st.cache_resource`` bounds a cache by its number of entries; a fitted USPS
model is ~150 MB and a figure a few hundred kB, so a count alone does not
bound memory.  :func:`bounded` caps a cached function's total size: after
each call, its least recently used entries are dropped (never the newest)
until the rest fit.  :func:`cache_sizes` reports every ``st.cache_resource``
cache shared across sessions (the load test prints it).  The
``st.cache_data`` caches are bounded by Streamlit's own
``server.maxCacheDataSize`` (``.streamlit/config.toml``).

Sizes are estimates: the bytes of the numpy arrays, strings and bytes reached
from a value (attributes, containers, plotly figures' data), which is where
all of the size is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
from plotly.graph_objects import Figure
from streamlit.runtime.caching.cache_resource_api import get_resource_cache_stats_provider

MB = 2**20


def nbytes(value: object) -> int:
    """Estimated bytes held by ``value``: its arrays, strings and bytes, each counted once."""
    seen: set[int] = set()
    todo = [value]
    total = 0
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
            # and the JSON it keeps to be sent (kpca_ui.chart.figure_from_json)
            todo.extend((item._data, item._layout, [frame._props for frame in item.frames]))
            todo.append(getattr(item, "_kpca_json", None))
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            todo.extend(item)
        elif hasattr(item, "__dict__") or hasattr(item, "__slots__"):
            todo.extend(vars(item).values() if hasattr(item, "__dict__") else ())
            for slot in getattr(type(item), "__slots__", ()):
                todo.append(getattr(item, slot, None))
    return total


def _cache_of(cached: Any) -> Any:
    """The ``ResourceCache`` behind an ``st.cache_resource`` function (Streamlit's internals)."""
    return cached._info.get_function_cache(cached._function_key)


def trim(cached: Any, max_bytes: int, known: dict[str, tuple[int, int]] | None = None) -> int:
    """Drop the least recently used entries of ``cached`` until it holds ≤ ``max_bytes``.

    The most recently used entry always stays (it is being shown).  Returns the
    bytes left.  ``known`` remembers each entry's size between calls, as
    key → (id of the value, bytes): cached values are never mutated, and
    measuring a figure again walks all its data (a third of a Contours redraw
    was spent here before).
    """
    known = {} if known is None else known
    cache = _cache_of(cached)
    with cache._mem_cache_lock:
        entries = cache._mem_cache
        for key in known.keys() - entries.keys():
            del known[key]
        for key, result in entries.items():
            if known.get(key, (None,))[0] != id(result.value):
                known[key] = (id(result.value), nbytes(result.value))
        total = sum(size for _, size in known.values())
        while total > max_bytes and len(entries) > 1:
            key, _ = entries.popitem()  # least recently used; releases it
            total -= known.pop(key)[1]
    return total


def bounded(max_bytes: int) -> Callable[[Callable], Callable]:
    """Put above ``@st.cache_resource``: after each call, trim the cache to ``max_bytes``."""

    def decorate(cached: Callable) -> Callable:
        known: dict[str, tuple[int, int]] = {}

        @functools.wraps(cached)
        def call(*args: Any, **kwargs: Any) -> Any:
            result = cached(*args, **kwargs)
            trim(cached, max_bytes, known)
            return result

        call.clear = cached.clear  # type: ignore[attr-defined]
        call.cached = cached  # type: ignore[attr-defined]
        return call

    return decorate


def cache_sizes() -> dict[str, tuple[int, int]]:
    """Every shared ``st.cache_resource`` cache by function name: (entries, bytes)."""
    caches = get_resource_cache_stats_provider()._function_caches.get(None, {})
    sizes = {}
    for cache in list(caches.values()):
        with cache._mem_cache_lock:
            values = [result.value for result in cache._mem_cache.values()]
        sizes[cache.display_name] = (len(values), sum(map(nbytes, values)))
    return sizes
