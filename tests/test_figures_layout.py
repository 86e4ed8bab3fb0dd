"""The layout rule (kpca_core/figures/layout.py) as the figure builders apply it."""

import numpy as np
import pytest

from kpca_core import contours as ct
from kpca_core.datasets import parabola, three_rings
from kpca_core.figures import contours as figures
from kpca_core.figures import layout as rule
from kpca_core.figures.style import CHAR_EM, for_projector, projector_plan_height
from kpca_ui.presenter import FIGURE_PX, PAGE_PX

KERNELS = {
    "Fig. 2": ("parabola", ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", (1, 2, 3, 4)),
    "rings": ("rings", ct.KernelSpec("rbf"), "sigma", (0.5, 1.0, 2.0)),
    "D&K Fig. 5": ("rings", ct.KernelSpec("rbf"), "sigma", (5.423,)),
    "sigmoid": ("parabola", ct.KernelSpec("sigmoid"), "gamma", (0.1, 1.0, 10.0)),
    "Laplacian": ("parabola", ct.KernelSpec("laplacian"), "sigma", (0.5, 1.0, 2.0)),
    "linear": ("parabola", ct.KernelSpec("linear"), None, ()),
}


def _sweep(name: str, k: int, pca: bool) -> ct.ContourSweep:
    data, spec, parameter, values = KERNELS[name]
    X, labels = parabola(120, 0.2, 0) if data == "parabola" else three_rings(120, 0.25, 0)
    specs = ct.sweep_specs(spec, parameter, values)
    if pca:
        specs.insert(0, ct.KernelSpec("pca"))
    return ct.contour_sweep(
        X, specs, n_components=k, parameter=parameter, labels=labels, resolution=20
    )


def _presenter_figure(sweep: ct.ContourSweep):
    """As the Contours view draws it in presenter mode (kpca_ui/views/contours_grid.py)."""
    height = projector_plan_height(FIGURE_PX, {**figures.FITTED_MARGIN, "t": 20})
    fig = figures.contour_figure(sweep, width_px=PAGE_PX, height_px=height)
    return for_projector(fig, height=FIGURE_PX)


@pytest.mark.parametrize("k", range(1, 9))
@pytest.mark.parametrize("name", list(KERNELS))
def test_presenter_contours_hold_at_every_number_of_components(name, k):
    """Panels ≥ PANEL_MIN_PX, text ≥ 14 px, an empty panel's reason within its panel with
    no data under it, and the figure says when it shows fewer rows than asked."""
    sweep = _sweep(name, k, pca=name == "rings")
    fig = _presenter_figure(sweep)
    layout = fig.layout
    plot_w = PAGE_PX - layout.margin.l - layout.margin.r
    plot_h = layout.height - layout.margin.t - layout.margin.b
    x0, x1 = layout.xaxis.range
    y0, y1 = layout.yaxis.range
    per_unit = min(plot_w / (x1 - x0), plot_h / (y1 - y0))
    colours = [image for image in layout.images if image.name != "data"]
    dots = [image for image in layout.images if image.name == "data"]
    empty = [shape for shape in layout.shapes if shape.name == "empty panel"]
    sides = [min(i.sizex, i.sizey) * per_unit for i in colours] + [
        min(s.x1 - s.x0, s.y1 - s.y0) * per_unit for s in empty
    ]
    assert min(sides) >= rule.PANEL_MIN_PX - 0.5
    assert len(dots) == len(colours)  # no data under an empty panel's reason
    for note in layout.annotations:
        assert note.font.size >= rule.PRESENTER_TEXT_PX
    for shape in empty:
        centre = ((shape.x0 + shape.x1) / 2, (shape.y0 + shape.y1) / 2)
        (note,) = [a for a in layout.annotations if (a.x, a.y) == pytest.approx(centre)]
        lines = note.text.split("<br>")
        width = max(map(len, lines)) * CHAR_EM * note.font.size
        assert width <= (shape.x1 - shape.x0) * per_unit
        assert rule.lines_px(len(lines), note.font.size) <= (shape.y1 - shape.y0) * per_unit
    rows = {round(a.y, 6) for a in layout.annotations if "kPC" in a.text and "of" not in a.text}
    if len(rows) < k:
        assert f"of {k}" in layout.title.text
        assert layout.title.font.size is None or layout.title.font.size >= 20


def test_plan_grid_wraps_and_pages():
    plan = rule.plan_grid(6, 2, 390 - 60)
    assert plan.per_row == 3 and plan.panel_px >= rule.PANEL_MIN_PX
    plan = rule.plan_grid(4, 8, 1000, height_px=400, title_px=28)
    assert plan.shown_rows < 8 and plan.panel_px == rule.PANEL_MIN_PX
    assert plan.shown_rows * (plan.panel_px + 28) <= 400


def test_fit_lines_never_breaks_a_word():
    lines = rule.fit_lines("no 3rd component: non-zero eigenvalues", 60, 12)
    assert all(word in " ".join(lines).split() for word in ("non-zero", "component:"))
    chars = int(60 / (CHAR_EM * 12))
    assert np.all([len(line) <= chars or " " not in line for line in lines])
