"""The 2-D data picker every 2-D view shows in its sidebar: a toy set, a CSV upload or a drawing."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from kpca_core import datasets
from kpca_core.drawing import Drawing, encode
from kpca_core.uploads import UploadedPoints, UploadError, parse_points_csv, plain_text
from kpca_ui import draw
from kpca_ui.cache import memo
from kpca_ui.presenter import prose
from kpca_ui.settings import Setting, Settings, choice, literal, number
from kpca_ui.shell import UPLOAD
from kpca_ui.workers import compute

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
EXTRA_NOISES = {"gaussian_clusters": 0.1}
"""The own noise of the data sets a view adds (:func:`picker`'s ``extra``)."""


def picker(
    prefix: str, extra: Mapping[str, str] | None = None, *, live: bool = False
) -> tuple[Setting, ...]:
    """The picker's settings, for a view's table: data set, points, noise, seed, drawing;
    ``extra`` adds data sets of :mod:`kpca_core.datasets` by name, with their titles, and with
    ``live`` a chart follows the noise while it is held."""
    titles = {**DATASET_TITLES, **(extra or {}), UPLOAD: UPLOAD, draw.DRAW: draw.DRAW}
    return (
        choice(f"{prefix}_data", "Data set", titles, former=FORMER_TITLES, help=DATASET_HELP),
        number(
            f"{prefix}_n",
            "Number of points",
            20,
            MAX_TOY_POINTS,
            300,
            step=10,
            cost="data",
            help=f"At most {MAX_TOY_POINTS} points: the kernel matrix has M² entries and its "
            "eigenvalues take time of order M³, so large sets are slow for everyone on a "
            "shared server.",
        ),
        # the default is the data set's own: a link without the parameter means the paper's
        number(
            f"{prefix}_noise",
            "Noise (standard deviation)",
            0.0,
            1.0,
            lambda values: own_noise(values[f"{prefix}_data"]),
            step=0.01,
            cost="data",
            live=live,
        ),
        number(f"{prefix}_seed", "Seed", 0, MAX_SEED, 0, step=1, widget="number", cost="data"),
        Setting(f"{prefix}_draw", "Drawing", "link", longest=4096),
    )


def own_noise(name: str) -> float:
    """A data set's own noise (that of its paper)."""
    return EXTRA_NOISES.get(name, datasets.default_noise(name) if name in datasets.TOY_2D else 0.2)


@dataclass(frozen=True)
class PointSet:
    """The data a page works on; ``key``, small and hashable, identifies it exactly (the cached
    fits key on it, never on the array)."""

    X: np.ndarray = field(compare=False)
    labels: np.ndarray | None = field(compare=False)
    title: str = field(compare=False)
    key: tuple


@functools.lru_cache(maxsize=64)  # not the shared cache: small, and asked for by every run
def _generate(name: str, n_samples: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    generator = {**datasets.TOY_2D, "gaussian_clusters": datasets.gaussian_clusters}[name]
    return generator(n_samples, noise, seed)


@memo
def _parse(data: bytes, max_rows: int) -> UploadedPoints:
    """The upload parsed in a worker: a hostile file never holds the server's threads."""
    return compute(parse_points_csv, data, max_rows=max_rows)


def point_picker(settings: Settings) -> PointSet:
    """Sidebar controls choosing a toy set, an uploaded CSV or a drawing; returns the points.
    A bad upload says what is wrong and the page keeps the last good data; a drawing is only
    read here (the view draws its canvas, :func:`kpca_ui.draw.canvas`)."""
    prefix = settings.prefix
    sidebar = st.sidebar
    if prose():  # presenter mode draws no sidebar
        sidebar.subheader("Data")
    name = settings.draw(f"{prefix}_data", sidebar, on_change=_own_noise, args=(settings,))
    last_good = f"{prefix}_last_good"
    if name == draw.DRAW:
        return drawn_points(prefix)
    draw.sync_link(prefix, None)
    if name == UPLOAD:
        if prose():
            upload = sidebar.file_uploader(
                f"CSV: x, y and an optional group column (at most {MAX_TOY_POINTS} rows)",
                type=["csv", "txt"],
                key=f"{prefix}_upload",
            )
            if upload is None:
                sidebar.info("Upload a CSV to see your own data; showing the last data meanwhile.")
            else:
                _take_upload(upload, MAX_TOY_POINTS, last_good)
        return st.session_state.get(last_good) or toy_points("parabola", 300, 0.2, 0)
    for key in ("n", "noise", "seed"):
        settings.draw(f"{prefix}_{key}", sidebar)
    points = points_of(settings, settings.values())
    st.session_state[last_good] = points
    return points


def points_of(settings: Settings, values: Mapping) -> PointSet:
    """The toy set the picker's settings ``values`` choose (the page's, a preset's)."""
    prefix, name = settings.prefix, values[f"{settings.prefix}_data"]
    n_samples, noise, seed = (values[f"{prefix}_{key}"] for key in ("n", "noise", "seed"))
    return toy_points(name, n_samples, noise, int(seed), settings[f"{prefix}_data"].name(name))


def _own_noise(settings: Settings) -> None:
    """The data set's callback: the noise becomes the new data set's own."""
    key = f"{settings.prefix}_noise"
    settings.keep(key, settings.default(key))


def _take_upload(upload: object, max_points: int, last_good: str) -> None:
    data = upload.getvalue()
    try:
        parsed = _parse(data, max_points)
    except UploadError as error:
        # The file's name, and the parser's words about its content, are data.
        shown = literal(upload.name, NAME_CHARS)
        st.error(f"**{shown}** cannot be used: {literal(str(error), MESSAGE_CHARS)}")
        return
    if parsed.note is not None:
        st.info(parsed.note)
    # plain text for figure titles, as the group names are
    title = f"{plain_text(upload.name, NAME_CHARS)} ({len(parsed.X)} points)"
    key = ("upload", hashlib.sha256(data).hexdigest()[:16])
    st.session_state[last_good] = PointSet(parsed.X, parsed.labels, title, key)


def toy_points(
    name: str, n_samples: int, noise: float, seed: int, title: str | None = None
) -> PointSet:
    """A generated 2-D set as the views show it; ``title`` names it in the figure titles
    (:data:`DATASET_TITLES` by default)."""
    X, labels = _generate(name, n_samples, noise, seed)
    title = f"{title or DATASET_TITLES[name]}: {n_samples} points, noise {noise:g}, seed {seed}"
    return PointSet(X, labels, title, ("toy", name, n_samples, noise, seed))


def drawn_points(prefix: str) -> PointSet:
    """The session's drawing after the canvas's latest edit, as the page's data."""
    source = copy_source(prefix)
    copied = None if source is None else (source.X, source.labels)
    return drawing_points(draw.drawn_state(prefix, copied))


def drawing_points(drawing: Drawing) -> PointSet:
    """A drawing as the page's data (no Streamlit: a live figure's too, :mod:`kpca_ui.live`),
    titled with its number of points as the other sets are."""
    title = f"Your drawing: {len(drawing)} point{'' if len(drawing) == 1 else 's'}"
    return PointSet(drawing.X, drawing.groups, title, ("drawn", encode(drawing)))


def copy_source(prefix: str) -> PointSet | None:
    """The 2-D data set shown before the drawing, which the canvas can copy in."""
    source = st.session_state.get(f"{prefix}_last_good") or toy_points("parabola", 300, 0.2, 0)
    return source if source.X.shape[1] == 2 else None


def is_drawn(points: PointSet) -> bool:
    """Whether the points are the session's drawing."""
    return points.key[0] == "drawn"
