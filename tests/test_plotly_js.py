"""Plotly's script as the server serves it (kpca_ui/plotly_js.py)."""

from __future__ import annotations

import ast
import asyncio
import gzip
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import plotly.graph_objects as go
from plotly.basedatatypes import BaseTraceType

from kpca_ui.plotly_js import (
    BUNDLE,
    PACKAGE_JS,
    PLOTLY_JS,
    PLOTLY_PATH,
    js_version,
    plotly_route,
    script,
)

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "app.py"] + [
    path
    for folder in ("kpca_core", "kpca_ui", "app_pages")
    for path in (ROOT / folder).rglob("*.py")
]
"""The app's Python code, where its figures are built."""
TRACE_CLASSES = {
    name: getattr(go, name)().type
    for name in dir(go)
    if isinstance(getattr(go, name), type) and issubclass(getattr(go, name), BaseTraceType)
}
"""``plotly.graph_objects``' trace classes and their trace types (``Scattergl``: ``scattergl``)."""
TRACE_TYPES = set(TRACE_CLASSES.values())


def trace_types_named(source: str) -> set[str]:
    """The trace types ``source`` names: ``go.Heatmap(...)``, ``fig.add_bar(...)``, or a
    ``type=``/``"type":`` whose value is a trace type's name (either branch of an ``if``)."""

    def names(node: ast.AST | None) -> set[str]:
        if isinstance(node, ast.IfExp):
            return names(node.body) | names(node.orelse)
        if isinstance(node, ast.Constant) and node.value in TRACE_TYPES:
            return {node.value}
        return set()

    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "go":
                found |= {TRACE_CLASSES[node.attr]} if node.attr in TRACE_CLASSES else set()
            found |= {node.attr[4:]} & TRACE_TYPES if node.attr.startswith("add_") else set()
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("plotly.graph_"):
            found |= {TRACE_CLASSES[a.name] for a in node.names if a.name in TRACE_CLASSES}
        elif isinstance(node, ast.keyword) and node.arg == "type":
            found |= names(node.value)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "type":
                    found |= names(value)
    return found


def registered(path: Path) -> set[str]:
    """The trace types a plotly.js script registers (each module's ``moduleType``/``name``)."""
    return set(re.findall(r'moduleType:\s*"trace",\s*name:\s*"(\w+)"', script(path).decode()))


def get(path: str, accept: str, base: str = "") -> tuple[dict[str, str], bytes]:
    """The route's answer to a GET of ``path`` (ASGI, in this process): headers, body."""
    sent: list[dict] = []
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"accept-encoding", accept.encode())],
        "http_version": "1.1",
        "scheme": "http",
        "server": ("test", 80),
        "root_path": "",
    }

    requested = []

    async def receive() -> dict:
        if requested:  # then the client waits, connected, until the answer has been sent
            await asyncio.sleep(60)
        requested.append(True)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    # in a thread of its own: a browser test before may keep an event loop running here
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, plotly_route(base).handle(scope, receive, send)).result()
    headers = {k.decode().lower(): v.decode() for k, v in sent[0]["headers"]}
    return headers, b"".join(m.get("body", b"") for m in sent[1:])


def test_the_script_is_sent_compressed_once_compressed() -> None:
    """To a browser that accepts gzip the route itself sends the script compressed, the
    same bytes each time (compressed once per server): Streamlit's middleware compressed
    its 4.8 MB anew for each first visitor, 0.2 s of the event loop each."""
    answers = [get(PLOTLY_PATH, "gzip, deflate, br") for _ in range(2)]
    for headers, _ in answers:
        assert headers["content-encoding"] == "gzip"
        assert "immutable" in headers["cache-control"]
    assert answers[0][1] == answers[1][1]
    assert gzip.decompress(answers[0][1]) == script(PLOTLY_JS)
    # a client without gzip gets it as it is
    headers, body = get(f"/base{PLOTLY_PATH}", "identity", base="base")
    assert "content-encoding" not in headers
    assert body == script(PLOTLY_JS)


def test_the_app_draws_only_trace_types_its_plotly_bundle_has() -> None:
    """Every trace type the app's figures use is registered in the partial plotly.js it
    serves (a missing one would not be drawn: add it to kpca_ui/vendor/build_plotly.sh's
    TRACES and rebuild), and no other: each one more is script a first visit runs for
    nothing (the full 4.8 MB took 0.4-1.2 s of a first visit's main thread)."""
    used = set().union(*(trace_types_named(path.read_text()) for path in SOURCES))
    assert {"scatter", "scattergl", "heatmap", "contour", "bar"} <= used  # the scan finds them
    assert used - registered(BUNDLE) == set(), "not in the bundle"
    assert registered(BUNDLE) - used == set(), "in the bundle, drawn by no figure"


def test_the_scan_finds_a_trace_type_however_it_is_named() -> None:
    """The forms the app's figure builders name a trace type in."""
    source = """
go.Figure([go.Heatmap(z=z), go.Scatter(x=x)])
fig.add_bar(x=x)
spec = {"type": "scatter" if small else "scattergl", "mode": "markers"}
dict(type="contour", z=z)
fig.update_layout(xaxis={"type": "log"}, shapes=[dict(type="line")])
"""
    assert trace_types_named(source) == {"heatmap", "scatter", "bar", "scattergl", "contour"}


def test_the_partial_bundle_is_served_when_made_from_the_packages_plotly_js() -> None:
    """The bundle's plotly.js is the version the ``plotly`` package ships (the figures'
    JSON is made for it): then it is what a browser gets, with its licence header;
    otherwise the package's full script."""
    header = script(BUNDLE)[:400].decode()
    assert "Licensed under the MIT license" in header and "Plotly, Inc." in header
    same = js_version(BUNDLE) == js_version(PACKAGE_JS)
    assert (BUNDLE if same else PACKAGE_JS) == PLOTLY_JS
    assert js_version(PLOTLY_JS) in PLOTLY_PATH
