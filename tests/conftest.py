"""Shared test settings and helpers."""

import base64
import json
import pathlib

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

ROOT = pathlib.Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


@pytest.fixture(autouse=True)
def numerics_in_the_session_thread(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Page tests run the engine in their own thread, where they can watch its calls.

    The served app computes in worker processes (``pages/workers.py``);
    ``tests/test_workers.py`` tests that path, and the browser tests (marked
    ``e2e``) start a real server that uses it.
    """
    if request.node.get_closest_marker("e2e") is None:
        monkeypatch.setenv("KPCA_WORKERS", "0")


def open_view(
    page: str, *, query: dict[str, str] | None = None, state: dict[str, object] | None = None
) -> AppTest:
    """A page after its first run, opened from a link (``query``) and/or with session state."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page(f"pages/{page}.py")
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def chart(at: AppTest, key: str) -> dict:
    """The figure JSON of the plotly chart with this widget key."""
    (spec,) = [json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.key == key]
    return spec


def decode(array: dict | list) -> np.ndarray:
    """A plotly array of the figure JSON (``{"dtype", "bdata", "shape"}`` or a list) as numpy."""
    if isinstance(array, list):
        return np.asarray(array, dtype=float)
    values = np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"])
    shape = array.get("shape")
    return values.reshape([int(n) for n in str(shape).split(",")]) if shape else values
