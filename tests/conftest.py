"""Shared test settings and helpers."""

import base64
import json
import os
import pathlib
import re
import socket
import struct
import sys
import zlib
from typing import NamedTuple

# SciPy reads this once, at its import: set before anything imports it, so that
# scikit-learn's array-API check of KernelPCA (tests/test_estimator.py) runs.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from kpca_ui.chart import NAME as CHART

ROOT = pathlib.Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


@pytest.fixture(autouse=True)
def numerics_in_the_session_thread(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Page tests run the engine in their own thread, where they can watch its calls.

    The served app computes in worker processes (``kpca_ui/workers.py``);
    ``tests/test_workers.py`` tests that path, and the browser tests (marked
    ``e2e``) start a real server that uses it.  Nor do they warm the presets in
    a background thread (``kpca_ui/warmup.py``, tested in ``tests/test_warmup.py``).
    """
    if request.node.get_closest_marker("e2e") is None:
        monkeypatch.setenv("KPCA_WORKERS", "0")
        monkeypatch.setenv("KPCA_WARMUP", "0")


@pytest.fixture(autouse=True)
def main_module_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test ends with the ``__main__`` module it started with.

    Streamlit's script runner installs the script it runs as ``__main__`` and leaves
    it there; a worker process started by "spawn" later runs that module again.  After
    an ``AppTest.from_function`` page test its script is a temporary file calling
    ``_script(*__args)``, and the worker died running it (``tests/test_warmup.py``
    under pytest-xdist, when such a test came first in the same process).
    """
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])


@pytest.fixture
def no_usps(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No KPCA_USPS_DIR, an empty data home and a mirror that refuses connections."""
    from kpca_core import usps

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    monkeypatch.delenv("KPCA_USPS_DIR", raising=False)
    monkeypatch.setenv("SCIKIT_LEARN_DATA", str(tmp_path))
    monkeypatch.setattr(usps, "USPS_BASE_URLS", (f"http://127.0.0.1:{port}/",))


def sent_figure(element) -> dict | None:
    """The figure a chart element sent (an ``at.get("bidi_component")`` element), or ``None``
    for an element of another component."""
    payload = sent_payload(element)
    return None if payload is None else payload["figure"]


def sent_payload(element) -> dict | None:
    """All a chart element sent: ``figure``, ``config``, ``width``, ``frames``, ``live``."""
    proto = element.proto
    return json.loads(proto.bytes) if proto.component_name == CHART else None


def key_of(element) -> str:
    """The widget key of a component element (its id ends with ``-<key>``)."""
    return element.proto.id.split("-", 2)[-1]


def open_view(
    page: str, *, query: dict[str, str] | None = None, state: dict[str, object] | None = None
) -> AppTest:
    """A page after its first run, opened from a link (``query``) and/or with session state."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page(f"app_pages/{page}.py")
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


class Shown(NamedTuple):
    """A figure the page sent: its widget key, figure JSON and Plotly ``config``."""

    key: str | None
    spec: dict
    config: dict


def figures(at: AppTest) -> list[Shown]:
    """Every figure on the page in order, drawn by ``st.plotly_chart`` or by the app's
    own chart component (:mod:`kpca_ui.chart`): what was sent to the browser."""
    shown = []
    for element in at.get("plotly_chart"):
        shown.append(Shown(element.key, json.loads(element.proto.spec), _config(element.proto)))
    for element in at.get("bidi_component"):
        payload = sent_payload(element)
        if payload is not None:
            shown.append(Shown(key_of(element), payload["figure"], payload["config"]))
    return shown


def _config(proto) -> dict:
    return json.loads(proto.config) if proto.config else {}


def chart(at: AppTest, key: str) -> dict:
    """The figure JSON of the chart with this widget key."""
    (spec,) = [shown.spec for shown in figures(at) if shown.key == key]
    return spec


def decode(array: dict | list) -> np.ndarray:
    """A plotly array of the figure JSON (``{"dtype", "bdata", "shape"}`` or a list) as numpy."""
    if isinstance(array, list):
        return np.asarray(array, dtype=float)
    values = np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"])
    shape = array.get("shape")
    return values.reshape([int(n) for n in str(shape).split(",")]) if shape else values


def png_pixels(source: str) -> np.ndarray:
    """The pixels of a ``data:image/png;base64`` URI (grey or RGB, with or without
    opacity, or indexed: then the palette's RGB, and opacity if it has any).

    Reads the PNGs the figure builders write: 8 bits, one IDAT chunk, every row
    unfiltered or with PNG's "Sub" filter. Rows from the top.
    """
    png = base64.b64decode(source.split(",", 1)[1])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        chunks[png[at + 4 : at + 8]] = png[at + 8 : at + 8 + length]
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8
    channels = {3: 1, 4: 2, 2: 3, 6: 4}[colour]
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, -1)
    filters, pixels = rows[:, 0], rows[:, 1:].reshape(height, width, channels)
    assert set(filters) <= {0, 1}  # none, or Sub: each byte minus the one a pixel left
    summed = np.cumsum(pixels, axis=1, dtype=np.uint8)  # wraps around at 256, as PNG does
    pixels = np.where(filters[:, None, None] == 1, summed, pixels)
    if colour == 3:
        palette = np.frombuffer(chunks[b"PLTE"], np.uint8).reshape(-1, 3)
        if b"tRNS" in chunks:  # each colour's opacity (255 beyond the chunk's end)
            opacity = np.full(len(palette), 255, np.uint8)
            opacity[: len(chunks[b"tRNS"])] = np.frombuffer(chunks[b"tRNS"], np.uint8)
            palette = np.column_stack([palette, opacity])
        return palette[pixels[..., 0]]
    return pixels


def path_points(path: str) -> np.ndarray:
    """The vertices of an SVG path of M, L (and Z) commands."""
    return np.array(re.findall(r"[ML]([-0-9.e+]+),([-0-9.e+]+)", path), dtype=float)


LIGHT = 200
"""Grey level above which a pixel is light: a block of such pixels glares on the dark theme."""


def _opaque(colour: str | None) -> bool:
    """Whether a plotly colour hides the page behind it (unset or fully transparent does not)."""
    if colour is None:
        return False
    found = re.fullmatch(r"rgba\(([^)]*)\)", colour.replace(" ", ""))
    return found is None or float(found.group(1).split(",")[3]) > 0


def white_blocks(fig) -> list[str]:
    """What in ``fig`` stands as a block of its own colour, white on the dark theme.

    A plot area or paper with an opaque colour (unset, the theme's template
    colours it; transparent, the page shows), and layout pictures that are
    mostly light and opaque. Pictures of paper (digits) are meant to be white
    and are not checked here.
    """
    found = [
        part
        for part, colour in (
            ("plot area", fig.layout.plot_bgcolor),
            ("paper", fig.layout.paper_bgcolor),
        )
        if _opaque(colour)
    ]
    for number, image in enumerate(fig.layout.images):
        pixels = png_pixels(image.source).astype(float)
        grey, opacity = pixels[..., :3].mean(axis=-1), 255.0
        if pixels.shape[-1] in (2, 4):
            opacity = pixels[..., -1]
            grey = pixels[..., :-1].mean(axis=-1)
        if np.mean((grey > LIGHT) & (np.broadcast_to(opacity, grey.shape) > LIGHT)) > 0.5:
            found.append(f"picture {number}")
    return found
