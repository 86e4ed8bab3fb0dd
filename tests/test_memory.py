"""Caches bounded by bytes and their sizes reported (kpca_ui/memory.py)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from kpca_ui import memory
from kpca_ui.memory import MB, bounded, cache_sizes, nbytes


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


@bounded(3 * MB)
@st.cache_resource(max_entries=100, show_spinner=False)
def megabytes(seed: int) -> np.ndarray:
    return np.full(MB // 8, float(seed))  # one MB each


def test_a_bounded_cache_keeps_the_newest_entries_that_fit():
    megabytes.clear()
    for seed in range(5):
        megabytes(seed)
    entries, size = cache_sizes()[f"{__name__}.megabytes"]
    assert (entries, size) == (3, 3 * MB)
    megabytes(4)  # asking again for the newest: still three
    assert cache_sizes()[f"{__name__}.megabytes"] == (3, 3 * MB)


@bounded(1 * MB)
@st.cache_resource(max_entries=100, show_spinner=False)
def too_large(seed: int) -> np.ndarray:
    return np.zeros(2 * MB // 8)


def test_the_newest_entry_stays_even_when_larger_than_the_bound():
    too_large.clear()
    too_large(0)
    too_large(1)
    assert cache_sizes()[f"{__name__}.too_large"] == (1, 2 * MB)


def test_each_entry_is_measured_once(monkeypatch):
    measured = []
    monkeypatch.setattr(memory, "nbytes", lambda value: measured.append(value) or value.nbytes)
    megabytes.clear()
    for seed in (0, 1, 0, 1, 2):
        megabytes(seed)
    assert [value[0] for value in measured] == [0.0, 1.0, 2.0]
