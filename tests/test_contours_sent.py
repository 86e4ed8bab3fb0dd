"""What the Contours grid sends: its JSON made once, where the figure is built, and the same
as plotly's own JSON of the figure (issue #36: less work per interaction on the server)."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from conftest import chart, open_view

from kpca_core import contours as ct
from kpca_core.datasets import parabola
from kpca_core.figures import contours as figures
from kpca_core.figures.style import figure_json, for_projector
from kpca_ui import chart as chart_module
from kpca_ui.chart import figure_from_json


def sweep(labels: bool) -> ct.ContourSweep:
    X, _ = parabola(60, 0.2, 0)
    specs = ct.sweep_specs(ct.KernelSpec("poly"), "degree", (1, 2))
    groups = np.where(X[:, 0] > 0, 2, 1) if labels else None
    return ct.contour_sweep(
        X, specs, n_components=3, parameter="degree", labels=groups, resolution=40
    )


@pytest.mark.parametrize("labels", [False, True])
def test_the_grids_json_is_plotlys_json_of_its_figure(labels):
    colours = ("#0072B2", "#D55E00") if labels else None
    spec = figures.contour_figure_data(sweep(labels), title="parabola", group_colours=colours)
    plotly_json = pio.to_json(go.Figure(spec, _validate=False), validate=False, engine="orjson")
    kept, sent = figure_json(spec)
    assert json.loads(sent) == json.loads(plotly_json)
    # the figure made of both sends the JSON kept, and is the figure of that JSON
    figure = figure_from_json(kept, sent)
    assert chart_module.json_of(figure) is sent
    assert json.loads(pio.to_json(figure, validate=False)) == json.loads(sent)
    # the arrays stay arrays in the data kept (float32: the data's dots)
    assert isinstance(kept["data"][0]["x"], np.ndarray)


def test_a_cached_grid_is_sent_without_serialising_it_again(monkeypatch):
    at = open_view("contours")
    first = chart(at, "ct_contours")
    at.slider(key="ct_k").set_value(4).run()
    assert len(chart(at, "ct_contours")["layout"]["images"]) > len(first["layout"]["images"])
    serialised = []
    to_json = pio.to_json

    def counting(value, *args, **kwargs):
        if isinstance(value, go.Figure) and value.layout.images:  # a grid of panels
            serialised.append(value)
        return to_json(value, *args, **kwargs)

    monkeypatch.setattr(chart_module.pio, "to_json", counting)
    at.slider(key="ct_k").set_value(3).run()  # the grid of the first run, from the cache
    assert not at.exception
    assert chart(at, "ct_contours") == first
    assert serialised == []


@pytest.mark.parametrize("projector_height", [None, 600])
def test_a_held_grids_json_is_the_grids_own_or_its_projector_copys(projector_height):
    """:func:`figures.sweep_and_figure_json`, the page's and the live endpoint's
    (kpca_ui/live.py): the sweep and its figure in one call, for the page or for presenter
    mode's screen."""
    X, _ = parabola(60, 0.2, 0)
    specs = ct.sweep_specs(ct.KernelSpec("poly"), "degree", (1, 2))
    settings = {"n_components": 3, "center": True, "parameter": "degree", "resolution": 40}
    _, _, sent = figures.sweep_and_figure_json(
        X, specs, {**settings, "labels": None}, projector_height=projector_height, title="p"
    )
    spec = figures.contour_figure_data(sweep(False), title="p")
    figure = go.Figure(spec, _validate=False)
    if projector_height is not None:
        figure = for_projector(figure, height=projector_height)
    assert json.loads(sent) == json.loads(pio.to_json(figure, validate=False, engine="orjson"))
