"""The 2-D data picker every 2-D view shows in its sidebar: a toy set or a CSV upload."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st

from kpca_core import datasets
from kpca_core.uploads import MAX_ROWS, UploadError, parse_points_csv
from kpca_ui.links import Domain, choice, integer, number

UPLOAD = "Your own data (CSV upload)"
DATASET_TITLES = {
    "parabola": "Parabola y = x² + noise (Schölkopf et al. Fig. 2)",
    "three_rings": "Three rings, radii 1, 2, 4",
    "half_circle": "Half circle (Mika et al. Fig. 1)",
    "square": "Square outline (Mika et al. Fig. 1)",
    "moons": "Two moons",
    "circles": "Two circles",
}
MAX_TOY_POINTS = 2000
MAX_SEED = 2**31 - 1


def link_domains(prefix: str, extra: Mapping[str, tuple[str, float]] | None = None) -> dict:
    """What the picker's widgets accept from a link (:func:`kpca_ui.links.sanitise_link`)."""
    titles = [*DATASET_TITLES.values(), *(title for title, _ in (extra or {}).values()), UPLOAD]
    domains: dict[str, Domain] = {
        "data": choice(titles),
        "n": integer(20, MAX_TOY_POINTS),
        "noise": number(0.0, 1.0),
        "seed": integer(0, MAX_SEED),
    }
    return {f"{prefix}_{name}": domain for name, domain in domains.items()}


@dataclass(frozen=True)
class PointSet:
    """The data a page works on.

    ``key`` is small and hashable and identifies the data exactly, so that
    caches of fitted models can key on it instead of on the array.
    """

    X: np.ndarray
    labels: np.ndarray | None
    title: str
    key: tuple


@st.cache_data(max_entries=64, show_spinner=False)
def _generate(name: str, n_samples: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    generator = {**datasets.TOY_2D, "gaussian_clusters": datasets.gaussian_clusters}[name]
    return generator(n_samples, noise, seed)


@st.cache_data(max_entries=16, show_spinner=False)
def _parse(data: bytes) -> tuple[np.ndarray, np.ndarray | None]:
    return parse_points_csv(data)


def _reset_noise(prefix: str, extra: Mapping[str, float]) -> None:
    name = st.session_state[f"{prefix}_data"]
    if name in datasets.TOY_2D:
        st.session_state[f"{prefix}_noise"] = datasets.default_noise(name)
    elif name in extra:
        st.session_state[f"{prefix}_noise"] = extra[name]


def point_picker(
    prefix: str,
    *,
    extra: Mapping[str, tuple[str, float]] | None = None,
) -> PointSet:
    """Sidebar controls choosing a toy set or an uploaded CSV; returns the points.

    Parameters
    ----------
    prefix : str
        Widget-key prefix of the page (e.g. ``"ct"``).
    extra : mapping, optional
        More generators from :mod:`kpca_core.datasets` by name, as
        ``name -> (title, default noise)``; e.g. the Gaussian clusters in R^10.

    A bad upload shows what is wrong and the page keeps the last good data.
    """
    extra = extra or {}
    titles = {**DATASET_TITLES, **{name: title for name, (title, _) in extra.items()}}
    default_noises = {name: noise for name, (_, noise) in extra.items()}
    options = [*titles, UPLOAD]
    sidebar = st.sidebar
    sidebar.subheader("Data")
    name = sidebar.selectbox(
        "Data set",
        options,
        format_func=lambda option: titles.get(option, option),
        key=f"{prefix}_data",
        on_change=_reset_noise,
        args=(prefix, default_noises),
        bind="query-params",
    )
    last_good = f"{prefix}_last_good"
    if name == UPLOAD:
        upload = sidebar.file_uploader(
            f"CSV: x, y and an optional group column (at most {MAX_ROWS} rows)",
            type=["csv", "txt"],
            key=f"{prefix}_upload",
        )
        if upload is None:
            sidebar.info("Upload a CSV to see your own data; showing the last data meanwhile.")
        else:
            data = upload.getvalue()
            try:
                X, labels = _parse(data)
            except UploadError as error:
                st.error(f"**{upload.name}** cannot be used: {error}")
            else:
                digest = hashlib.sha256(data).hexdigest()[:16]
                st.session_state[last_good] = PointSet(
                    X, labels, f"{upload.name} ({len(X)} points)", ("upload", digest)
                )
        return st.session_state.get(last_good) or _toy("parabola", 300, 0.2, 0)

    default_noise = default_noises[name] if name in default_noises else datasets.default_noise(name)
    n_samples = sidebar.slider(
        "Number of points",
        20,
        MAX_TOY_POINTS,
        300,
        step=10,
        key=f"{prefix}_n",
        bind="query-params",
        help=f"At most {MAX_TOY_POINTS} points: the kernel matrix has M² entries and its "
        "eigenvalues take time of order M³, so large sets are slow for everyone on a "
        "shared server.",
    )
    # The default is the data set's own noise, so that a link without the
    # parameter means "the paper's noise" (a bound widget leaves its default
    # out of the URL).
    noise = sidebar.slider(
        "Noise (standard deviation)",
        0.0,
        1.0,
        default_noise,
        step=0.01,
        key=f"{prefix}_noise",
        bind="query-params",
    )
    seed = sidebar.number_input(
        "Seed", 0, MAX_SEED, 0, step=1, key=f"{prefix}_seed", bind="query-params"
    )
    points = _toy(name, n_samples, noise, int(seed), titles[name])
    st.session_state[last_good] = points
    return points


def _toy(name: str, n_samples: int, noise: float, seed: int, title: str | None = None) -> PointSet:
    X, labels = _generate(name, n_samples, noise, seed)
    title = f"{title or DATASET_TITLES[name]}: {n_samples} points, noise {noise:g}, seed {seed}"
    return PointSet(X, labels, title, ("toy", name, n_samples, noise, seed))
