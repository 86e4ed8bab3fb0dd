"""The 2-D data picker every 2-D view shows in its sidebar: a toy set, a CSV upload or a drawing."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st

from kpca_core import datasets
from kpca_core.drawing import Drawing, encode
from kpca_core.uploads import UploadedPoints, UploadError, parse_points_csv, plain_text
from kpca_ui import draw
from kpca_ui.links import Domain, choice, integer, literal, number
from kpca_ui.workers import compute

UPLOAD = "Your own data (CSV upload)"
DATASET_TITLES = {
    "parabola": "Parabola y = x² + noise",
    "three_rings": "Three rings, radii 1, 2, 4",
    "half_circle": "Half circle",
    "square": "Square outline",
    "moons": "Two moons",
    "circles": "Two circles",
}
"""Short enough for the sidebar's box (the papers are named in its help)."""
FORMER_TITLES = {
    "Parabola y = x² + noise (Schölkopf et al. Fig. 2)": DATASET_TITLES["parabola"],
    "Half circle (Mika et al. Fig. 1)": DATASET_TITLES["half_circle"],
    "Square outline (Mika et al. Fig. 1)": DATASET_TITLES["square"],
}
"""Titles older links carry, cut in the sidebar's box: read as today's."""
DATASET_HELP = (
    "The parabola is Schölkopf, Smola & Müller's Fig. 2; the half circle and the square "
    "outline are Mika et al.'s Fig. 1; the three rings are Deręgowski & Krzyśko's."
)
MAX_TOY_POINTS = 2000
MAX_SEED = 2**31 - 1
NAME_CHARS = 60
"""An uploaded file's name is cut to this many characters where it is shown."""
MESSAGE_CHARS = 600
"""Longest message about an upload (it may quote the CSV parser, which may quote the file)."""


def link_domains(prefix: str, extra: Mapping[str, tuple[str, float]] | None = None) -> dict:
    """What the picker's widgets accept from a link (:func:`kpca_ui.links.sanitise_link`)."""
    extras = (title for title, _ in (extra or {}).values())
    titles = [*DATASET_TITLES.values(), *extras, UPLOAD, draw.DRAW]
    domains: dict[str, Domain] = {
        "data": choice(titles, former=FORMER_TITLES),
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


@functools.lru_cache(maxsize=64)  # not Streamlit's: live figures use it outside script runs
def _generate(name: str, n_samples: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    generator = {**datasets.TOY_2D, "gaussian_clusters": datasets.gaussian_clusters}[name]
    return generator(n_samples, noise, seed)


@st.cache_data(max_entries=16, show_spinner=False)
def _parse(data: bytes, max_rows: int) -> UploadedPoints:
    """The upload parsed in a worker: a hostile file never holds the server's threads."""
    return compute(parse_points_csv, data, max_rows=max_rows)


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
    max_points: int = MAX_TOY_POINTS,
) -> PointSet:
    """Sidebar controls choosing a toy set, an uploaded CSV or a drawing; returns the points.

    Parameters
    ----------
    prefix : str
        Widget-key prefix of the page (e.g. ``"ct"``).
    extra : mapping, optional
        More generators from :mod:`kpca_core.datasets` by name, as
        ``name -> (title, default noise)``; e.g. the Gaussian clusters in R^10.
    max_points : int
        The view's largest number of points, for uploads as for the toy sets.

    A bad upload shows what is wrong and the page keeps the last good data.
    A drawing's canvas is drawn by the view (:func:`kpca_ui.draw.canvas`), which
    shows the fit behind it; here it is only read.
    """
    extra = extra or {}
    titles = {**DATASET_TITLES, **{name: title for name, (title, _) in extra.items()}}
    default_noises = {name: noise for name, (_, noise) in extra.items()}
    options = [*titles, UPLOAD, draw.DRAW]
    sidebar = st.sidebar
    sidebar.subheader("Data")
    name = sidebar.selectbox(
        "Data set",
        options,
        format_func=lambda option: titles.get(option, option),
        key=f"{prefix}_data",
        help=DATASET_HELP,
        on_change=_reset_noise,
        args=(prefix, default_noises),
        bind="query-params",
    )
    last_good = f"{prefix}_last_good"
    if name == draw.DRAW:
        return drawn_points(prefix)
    draw.sync_link(prefix, None)
    if name == UPLOAD:
        upload = sidebar.file_uploader(
            f"CSV: x, y and an optional group column (at most {max_points} rows)",
            type=["csv", "txt"],
            key=f"{prefix}_upload",
        )
        if upload is None:
            sidebar.info("Upload a CSV to see your own data; showing the last data meanwhile.")
        else:
            data = upload.getvalue()
            try:
                parsed = _parse(data, max_points)
            except UploadError as error:
                # The file's name, and the parser's words about its content, are data.
                shown = literal(upload.name, NAME_CHARS)
                st.error(f"**{shown}** cannot be used: {literal(str(error), MESSAGE_CHARS)}")
            else:
                if parsed.note is not None:
                    st.info(parsed.note)
                digest = hashlib.sha256(data).hexdigest()[:16]
                st.session_state[last_good] = PointSet(
                    parsed.X,
                    parsed.labels,
                    # plain text for figure titles, as the group names are
                    f"{plain_text(upload.name, NAME_CHARS)} ({len(parsed.X)} points)",
                    ("upload", digest),
                )
        return st.session_state.get(last_good) or toy_points("parabola", 300, 0.2, 0)

    default_noise = default_noises[name] if name in default_noises else datasets.default_noise(name)
    n_samples = sidebar.slider(
        "Number of points",
        20,
        max_points,
        300,
        step=10,
        key=f"{prefix}_n",
        bind="query-params",
        help=f"At most {max_points} points: the kernel matrix has M² entries and its "
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
    points = toy_points(name, n_samples, noise, int(seed), titles[name])
    st.session_state[last_good] = points
    return points


def toy_points(
    name: str, n_samples: int, noise: float, seed: int, title: str | None = None
) -> PointSet:
    """A generated 2-D set as the views show it (its points cached per arguments).

    ``title`` names the set in the figure titles (:data:`DATASET_TITLES` by default).
    """
    X, labels = _generate(name, n_samples, noise, seed)
    title = f"{title or DATASET_TITLES[name]}: {n_samples} points, noise {noise:g}, seed {seed}"
    return PointSet(X, labels, title, ("toy", name, n_samples, noise, seed))


def drawn_points(prefix: str) -> PointSet:
    """The session's drawing after the canvas's latest edit, as the page's data.

    The canvas's copy button copies in the data set shown before the drawing
    (if it is 2-D).
    """
    source = copy_source(prefix)
    return drawing_points(
        draw.drawn_state(prefix, None if source is None else (source.X, source.labels))
    )


def drawing_points(drawing: Drawing) -> PointSet:
    """A drawing as the page's data (no Streamlit: a live figure's too, :mod:`kpca_ui.live`)."""
    return PointSet(drawing.X, drawing.groups, draw.title(drawing), ("drawn", encode(drawing)))


def copy_source(prefix: str) -> PointSet | None:
    """The 2-D data set shown before the drawing, which the canvas can copy in."""
    source = st.session_state.get(f"{prefix}_last_good") or toy_points("parabola", 300, 0.2, 0)
    return source if source.X.shape[1] == 2 else None


def is_drawn(points: PointSet) -> bool:
    """Whether the points are the session's drawing."""
    return points.key[0] == "drawn"
