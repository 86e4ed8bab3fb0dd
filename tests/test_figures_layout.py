"""The layout rule (kpca_core/figures/layout.py) as the figure builders apply it."""

import re

import numpy as np
import pytest

from kpca_core import contours as ct
from kpca_core.datasets import parabola, three_rings
from kpca_core.figures import contours as figures
from kpca_core.figures import layout as rule
from kpca_core.figures import rings
from kpca_core.figures.style import (
    CHAR_EM,
    FONT_SCALE,
    MIN_FONT_PX,
    for_projector,
    projector_plan_height,
)
from kpca_core.rings import fig5_readings
from kpca_ui.presenter import (
    FIGURE_PX,
    PAGE_PX,
    SLIDE_PLAIN_PX,
    SLIDE_PX,
    SLIDE_SHORTER_PX,
)
from kpca_ui.views.lesson import EMBED_PX
from tests.e2e.audit import contrast

KERNELS = {
    "Fig. 2": ("parabola", ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", (1, 2, 3, 4)),
    "rings": ("rings", ct.KernelSpec("rbf"), "sigma", (0.5, 1.0, 2.0)),
    "D&K Fig. 5": ("rings", ct.KernelSpec("rbf"), "sigma", (5.423,)),
    "sigmoid": ("parabola", ct.KernelSpec("sigmoid"), "gamma", (0.1, 1.0, 10.0)),
    "Laplacian": ("parabola", ct.KernelSpec("laplacian"), "sigma", (0.5, 1.0, 2.0)),
    "linear": ("parabola", ct.KernelSpec("linear"), None, ()),
    # every point its own component: the reason is longer than its panel is tall
    "σ = 0.001": ("parabola", ct.KernelSpec("rbf", sigma=0.001), None, ()),
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
    shown = {m for a in layout.annotations for m in re.findall(r"kPC (\d+)", a.text)}
    if len(shown) < k:
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


@pytest.mark.parametrize(("width", "scale"), [(820, 1.0), (1232, FONT_SCALE), (350, 1.0)])
def test_dk_fig5_titles_fit_their_panels(width, scale):
    """Deręgowski & Krzyśko's Fig. 5: each panel's title in lines as wide as its panel, at
    least 12 px (no <sub>), and the panels far enough apart for the right one's y title;
    on a phone one above the other."""
    X, labels = three_rings(150, 0.25, 0)
    readings = fig5_readings(X)
    fig = rings.fig5_figure(readings, labels, gamma=0.017, width_px=width, text_scale=scale)
    layout = fig.layout
    plot_w = width - layout.margin.l - layout.margin.r
    for note in layout.annotations:
        assert "<sub>" not in note.text and note.font.size >= rule.MIN_TEXT_PX
    if width < 600:
        assert layout.xaxis.domain == layout.xaxis2.domain
        assert layout.yaxis.domain[0] > layout.yaxis2.domain[1]
        return
    gap_px = (layout.xaxis2.domain[0] - layout.xaxis.domain[1]) * plot_w
    assert gap_px >= 80
    panel_px = (layout.xaxis.domain[1] - layout.xaxis.domain[0]) * plot_w
    for note in layout.annotations:
        widest = max(len(re.sub("<[^>]+>", "", line)) for line in note.text.split("<br>"))
        assert widest * CHAR_EM * note.font.size * scale <= panel_px


LIGHT, DARK = (255, 255, 255), (14, 17, 23)
"""Streamlit's light and dark backgrounds."""


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[k : k + 2], 16) for k in (1, 3, 5))


@pytest.mark.parametrize("pca", [False, True])
def test_projection_markers_contrast_on_both_themes(pca):
    """ "The data in kernel principal components": every marker (its fill or its outline)
    has a WCAG contrast ≥ 3 on the light and the dark page (black on near-black was 1.0)."""
    for sweep in (_sweep("Fig. 2", 3, pca), _sweep("rings", 3, pca)):
        fig = figures.projection_figure(sweep, len(sweep.columns) - 1, 1, 2)
        for trace in fig.data:
            marks = [_rgb(trace.marker.color)]
            if trace.marker.line.width and trace.marker.line.width >= 1:
                marks.append(_rgb(trace.marker.line.color))
            for background in (LIGHT, DARK):
                assert max(contrast(mark, background) for mark in marks) >= 3


def test_effective_components_of_degrees_have_tick_labels():
    """ "Polynomial: degree d": 2 to 8 components needed, a log axis ticked by decades had
    no tick label at all; at least two ticks within the range now."""
    from kpca_core.figures.spectrum import widths
    from kpca_core.spectrum import WidthSweep

    sweep = WidthSweep("poly", sweep="degree", max_degree=10).fit(parabola(120, 0.2, 0)[0])
    fig = widths.effective_components_figure(sweep)
    counts = [v for trace in fig.data for v in trace.y]
    ticks = fig.layout.yaxis.tickvals
    assert ticks is not None
    inside = [t for t in ticks if min(counts) <= t <= max(counts)]
    assert len(inside) >= 2
    assert widths.count_ticks(2, 8) == [2, 5] and widths.count_ticks(3, 4) == [3, 4]


def _digit_px(fig, width_px: int, rows: int, cols: int) -> float:
    """A digit's height as drawn: the mosaic's equal units, the tighter of the plot's
    height and width (less ~90 px of row labels) over ``rows`` × ``cols`` units."""
    layout = fig.layout
    plot_h = layout.height - layout.margin.t - layout.margin.b
    plot_w = width_px - layout.margin.l - layout.margin.r - 90
    return 16 * min(plot_h / rows, plot_w / cols)


def test_fig4_digits_are_48_px_on_the_projector():
    """Mika et al. Fig. 4 in presenter mode: 12 rows of digits were ~31 px tall; linear
    PCA left and kernel PCA right halve the rows."""
    from kpca_core.denoise.grids import ImageGrid
    from kpca_core.figures import denoise

    labels = ["original", "noisy"] + [
        f"{method} n = {n}" for method in ("linear", "kernel") for n in (1, 4, 16, 64, 256)
    ]
    grid = ImageGrid(
        np.random.default_rng(0).uniform(-1, 1, (12, 10, 256)),
        16,
        tuple(labels),
        tuple("0123456789"),
    )
    fig = denoise.fig4_figure(grid, title="USPS: Gaussian noise σ = 0.5", halves=True)
    shown = for_projector(fig, height=FIGURE_PX + 40)
    assert _digit_px(shown, PAGE_PX, 7 * 17 - 1, 21 * 17 - 1) >= rule.PRESENTER_DIGIT_MIN_PX
    assert list(shown.layout.yaxis.ticktext[2:]) == [f"n = {n}" for n in (1, 4, 16, 64, 256)]


@pytest.mark.parametrize(("side", "available"), [(16, 256), (8, 64)], ids=["usps", "sklearn"])
def test_fig4_digits_are_48_px_on_a_lessons_slide(side, available):
    """Lesson step 9 in presenter mode: the scikit-learn 8 × 8 digits (the app without
    USPS) were 46 px tall, their rows labelled "n = 256 (all 64)" in one line, which took
    the width from the 21 columns of digits; and the figure, 460 px, ran past the frame."""
    from kpca_core.denoise.grids import ImageGrid
    from kpca_core.figures import denoise

    ns = (1, 4, 16, 64, 256)
    labels = ["original", "noisy"] + [
        f"{method} n = {n}" + (f" (all {available})" if n > available else "")
        for method in ("linear", "kernel")
        for n in ns
    ]
    grid = ImageGrid(
        np.random.default_rng(0).uniform(-1, 1, (12, 10, side * side)),
        side,
        tuple(labels),
        tuple("0123456789"),
    )
    title = "scikit-learn 8×8 digits: Gaussian noise σ = 0.5 (0–1 intensity scale)"
    fig = denoise.fig4_figure(grid, title=title, halves=True)
    shown = for_projector(fig, height=SLIDE_PLAIN_PX)
    layout = shown.layout
    # the row labels' widest line at the projector's 16 px and plotly's 8 px beside them,
    # for which plotly widens the left margin
    widest = max(len(line) for label in layout.yaxis.ticktext for line in label.split("<br>"))
    labels_px = widest * CHAR_EM * MIN_FONT_PX + 8
    plot_w = SLIDE_PX - max(layout.margin.l, labels_px) - layout.margin.r
    plot_h = layout.height - layout.margin.t - layout.margin.b
    units = side + 1
    digit = side * min(plot_h / (7 * units - 1), plot_w / (21 * units - 1))
    assert digit >= rule.PRESENTER_DIGIT_MIN_PX
    assert SLIDE_PLAIN_PX <= EMBED_PX  # the figure inside the lesson's frame (no tab row)


@pytest.mark.parametrize("name", ["fig2", "rings", "toy", "fig5"])
def test_home_cards_are_pictures_without_words_to_cut(name):
    """A card's picture has no text that its width could cut or run together (tick labels,
    axis titles were: "component k (log scal", Fig. 1's and Fig. 5's neighbouring ticks);
    Fig. 2's is two panels, not a 3 × 4 grid of 60 px ones."""
    from kpca_ui.views import home_pictures

    fig = home_pictures._small(home_pictures.BUILDERS[name]())
    layout = fig.to_dict()["layout"]
    for key, axis in layout.items():
        if key.startswith(("xaxis", "yaxis")):
            assert axis.get("showticklabels") is False and not axis.get("title")
    assert not layout.get("annotations") and not layout.get("title")
    if name == "fig2":
        assert len([i for i in layout["images"] if i.get("name") != "data"]) == 2


def test_fixed_point_animation_names_its_colour_bar_and_keeps_the_step_uncovered():
    """Pre-images: the ρ(z) colour bar has a title as plotly.js reads one (an object; the
    unvalidated bare string was dropped), and the step's "step t = …" is said at the
    slider's right end, away from the ▶/❚❚ buttons at its left (stacked, not side by
    side, so that they end before the slider starts)."""
    from kpca_core.figures.preimages import fixed_point_animation
    from tests.test_figures_preimages import toy_paths

    toy, paths = toy_paths("square", random_state=1)
    spec = fixed_point_animation(paths, toy.noisy, grid_size=20).to_dict()
    layout = spec["layout"]
    contour = spec["data"][0]
    assert contour["colorbar"]["title"]["text"] == "ρ(z)"
    (slider,) = layout["sliders"]
    (menu,) = layout["updatemenus"]
    assert slider["currentvalue"]["xanchor"] == "right"
    assert menu["direction"] == "down" and slider["x"] >= 0.2


def test_misclassified_digits_stand_apart():
    """Features' live cell: misclassified digits were one pixel apart and read as one shape;
    half a digit of the page's background between two now."""
    from kpca_core.figures import features

    rng = np.random.default_rng(0)
    fig = features.misclassified_figure(
        rng.uniform(-1, 1, (4, 256)), np.array([1, 2, 3, 4]), np.array([7, 5, 8, 9])
    )
    z = np.asarray(fig.data[0].z, dtype=float)
    blank = np.all(np.isnan(z), axis=0)
    runs = np.diff(np.flatnonzero(np.diff(np.r_[0, blank.astype(int), 0])))[::2]
    assert len(runs) == 3 and min(runs) >= 8


def test_toy_titles_fit_a_quarter_of_a_slide():
    """The 2-D toy in one row (projector, a lesson's step 8): every title line fits a
    quarter of a slide beside an open sidebar (~800 px) at the projector's size."""
    from kpca_core.denoise import toy_denoising
    from kpca_core.figures import denoise

    results = [toy_denoising(name, n_samples=60) for name in ("half_circle", "square")]
    fig = denoise.toy_figure(results, one_row=True)
    panel_px = 800 * (1 - 3 * 0.04) / 4
    for note in fig.layout.annotations:
        widest = max(len(line) for line in note.text.split("<br>"))
        assert widest * CHAR_EM * 12 * FONT_SCALE <= panel_px, note.text


def _font_sizes(node) -> list[float]:
    """Every font size set anywhere in a figure's dictionary."""
    sizes = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("font") and isinstance(value, dict) and "size" in value:
                sizes.append(value["size"])
            sizes += _font_sizes(value)
    elif isinstance(node, list | tuple):
        for item in node:
            sizes += _font_sizes(item)
    return sizes


def test_no_text_below_12_px_and_toy_connectors_contrast():
    """Numbers under the digits (side by side, Fig. 3) were 11 and 10 px, the contour
    grid's base font (its colour bar's ticks) 11 px; the toy's connecting lines were drawn
    at 0.45 opacity (contrast 1.8-2.0)."""
    from kpca_core.denoise import toy_denoising
    from kpca_core.denoise.grids import ImageGrid
    from kpca_core.figures import denoise

    grid = ImageGrid(np.zeros((2, 3, 256)), 16, ("a", "b"), ("0", "1", "2"))
    mosaic = denoise.numbered_mosaic(grid, np.ones((2, 3))).to_dict()
    contours = figures.contour_figure(_sweep("Fig. 2", 3, False)).to_dict()
    for fig in (mosaic, contours):
        assert min(_font_sizes(fig)) >= rule.MIN_TEXT_PX
    assert contours["layout"]["font"]["size"] >= rule.MIN_TEXT_PX
    toy = denoise.toy_figure([toy_denoising("square", n_samples=40)])
    assert all(trace.opacity in (None, 1) for trace in toy.data)


@pytest.mark.parametrize("width_px", [None, 820, 358])
def test_the_last_row_s_numbers_have_a_line_under_the_mosaic(width_px):
    """The y range ends at the last row's digits: their numbers, under them, were cut at
    a desktop chart's foot (the audit's side by side and Fig. 3, in a 10 px margin)."""
    from kpca_core.denoise.grids import ImageGrid
    from kpca_core.figures import denoise

    grid = ImageGrid(np.zeros((2, 20, 256)), 16, ("a", "b"), tuple(map(str, range(20))))
    fig = denoise.numbered_mosaic(grid, np.ones((2, 20)), width_px=width_px)
    assert fig.layout.margin.b >= rule.lines_px(1, 12)


def test_projector_titles_are_20_px_and_legend_titles_14():
    """Presenter mode: "degree 4: the data in kPC 1 and kPC 2" was drawn at 16 px, the
    legend's title "group" at 12 px."""
    fig = figures.projection_figure(_sweep("rings", 2, False), 0, 1, 2)
    shown = for_projector(fig, height=FIGURE_PX).layout
    assert shown.title.font.size >= rule.PRESENTER_TITLE_PX
    assert shown.legend.title.font.size >= rule.PRESENTER_TEXT_PX


# ----------------------------------------------- a phone's page (390 px: 358 px of content)
PHONE_PX = 358


def _areas(fig, width_px: int) -> list[tuple[float, float, float, float]]:
    """Each subplot's plot area as drawn ``width_px`` wide: (left, top, width, height) in px.

    From the axes' domains and the margins (before equal-aspect constraints shrink it).
    """
    layout = fig.layout
    margin = layout.margin
    plot_w = width_px - (margin.l if margin.l is not None else 80) - (margin.r or 80)
    plot_h = layout.height - (margin.t if margin.t is not None else 100) - (margin.b or 80)
    areas = []
    for name in sorted(k for k in layout.to_plotly_json() if re.fullmatch(r"xaxis\d*", k)):
        x = layout[name]
        y = layout["yaxis" + name[5:]]
        (x0, x1), (y0, y1) = x.domain or (0, 1), y.domain or (0, 1)
        areas.append((x0 * plot_w, (1 - y1) * plot_h, (x1 - x0) * plot_w, (y1 - y0) * plot_h))
    return areas


def _apart(areas) -> bool:
    return all(
        a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
        for k, a in enumerate(areas)
        for b in areas[k + 1 :]
    )


@pytest.mark.parametrize("data", ["parabola", "rings"])
def test_spectrum_maps_on_a_phone_keep_plot_areas_of_the_rule(data):
    """The phone's audit measured 74-87 px maps: planned for the width, never below 120 px."""
    from kpca_core.figures import spectrum
    from kpca_core.spectrum import WidthSweep

    X = parabola(150, 0.2, 0)[0] if data == "parabola" else three_rings(150, 0.25, 0)[0]
    sweep = WidthSweep("rbf", n_widths=12).fit(X)
    fig = spectrum.components_at_figure(sweep, 6, width_px=PHONE_PX)
    areas = _areas(fig, PHONE_PX)
    assert len(areas) == 2 and _apart(areas)
    x_range, y_range = fig.layout.xaxis.range, fig.layout.yaxis.range
    aspect = (y_range[1] - y_range[0]) / (x_range[1] - x_range[0])
    for _, _, w, h in areas:  # equal aspect: the data's shape inside the domain's box
        assert min(w, w * aspect, h, h / aspect) >= rule.AREA_MIN_PX - 0.5
    # the colour bar under the maps, not beside them in a phone's width, on a colour axis
    # of its own: drawn in place over the desktop's maps (the width measured late), the
    # desktop's vertical bar left its ticks and its margin, and the maps shrank to 132 px
    assert fig.layout.coloraxis2.colorbar.orientation == "h"
    desktop = spectrum.components_at_figure(sweep, 6)
    assert "coloraxis2" not in desktop.to_dict()["layout"]
    assert desktop.layout.coloraxis.colorbar.orientation != "h"
    assert all(len(line) * CHAR_EM * 17 <= PHONE_PX for line in fig.layout.title.text.split("<br>"))


def test_spectrum_legend_sits_under_the_axis_title_with_room_for_its_rows():
    """On a phone the λ legend's rows pushed plotly to shrink the plot onto the x title."""
    from kpca_core.figures import spectrum
    from kpca_core.spectrum import WidthSweep

    sweep = WidthSweep("rbf", n_widths=12).fit(parabola(100, 0.2, 0)[0])
    fig = spectrum.ratio_lines_figure(sweep, chosen=5, width_px=PHONE_PX)
    margin = fig.layout.margin
    plot_h = fig.layout.height - margin.t - margin.b
    below_px = -fig.layout.legend.y * plot_h
    assert below_px >= rule.AXIS_BELOW_PX - 0.5
    names = [t.name for t in fig.data if t.name and t.showlegend is not False]
    rows = rule.legend_rows(names, PHONE_PX - margin.l)
    assert rows >= 3  # six λ lines, the share, linear PCA, the narrow limit in 300 px
    assert margin.b >= below_px + rows * rule.LEGEND_ROW_PX


@pytest.mark.parametrize("width", [PHONE_PX, 700])
def test_preimage_methods_panels_wrap_on_a_phone(width):
    """Three panels in a phone's width were 91 px wide: they go one below the other."""
    from kpca_core.figures.preimages import comparison_figure
    from kpca_core.preimage_compare import toy_comparison

    comparison = toy_comparison("half_circle", (1, 2, 3, 4, 6, 8, 12, 16, 20))
    fig = comparison_figure(comparison, title="Half circle: 200 noisy points", width_px=width)
    areas = _areas(fig, width)
    assert len(areas) == 3 and _apart(areas)
    assert min(min(w, h) for _, _, w, h in areas) >= rule.AREA_MIN_PX
    assert len({round(top) for _, top, _, _ in areas}) == (3 if width == PHONE_PX else 1)
    # the n ticks have room for their labels in a panel's width
    ticks = fig.layout.xaxis.tickvals
    assert len(ticks) * 36 <= areas[0][2]
    # the legend under the last n axis, below its title
    plot_h = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    assert -fig.layout.legend.y * plot_h >= rule.AXIS_BELOW_PX - 0.5


def test_fixed_point_title_and_legend_have_room_on_a_phone():
    """The legend above the plot lay over the title, and the title was cut, on a phone."""
    from kpca_core.figures.preimages import fixed_point_animation
    from kpca_core.preimage_compare import toy_paths

    toy, paths = toy_paths("half_circle", n_components=2, max_steps=5)
    fig = fixed_point_animation(paths, toy.noisy, grid_size=20, width_px=PHONE_PX)
    lines = fig.layout.title.text.split("<br>")
    assert len(lines) > 1
    assert all(len(line) * CHAR_EM * 15 <= PHONE_PX - 20 for line in lines)
    names = [t.name for t in fig.data if t.type == "scatter"]
    room = fig.layout.margin.t - rule.lines_px(len(lines), 15)
    assert room >= rule.legend_rows(names, PHONE_PX - 80) * rule.LEGEND_ROW_PX


@pytest.mark.parametrize(("n", "width_px"), [(1, 200), (3, 600)])
def test_a_row_of_demo_pictures_is_as_tall_as_they_are(n, width_px):
    """Denoising's Demo tab at 1280 × 720: 410 px figures with bands above and below
    the pictures cut the original digit at the screen's foot."""
    from kpca_core.denoise import ImageGrid
    from kpca_core.figures.denoise import demo_figure

    grid = ImageGrid(np.zeros((1, n, 256)), 16, ("",), ("a",) * n)
    fig = demo_figure(grid, width_px=width_px)
    side_px = 16 * (width_px - 20) / (n * (16 + 4) - 4)  # 16 pixels, a gap of 4 between
    assert fig.layout.height <= fig.layout.margin.t + fig.layout.margin.b + side_px + 1
    assert demo_figure(grid, width_px=width_px, height_px=300).layout.height == 300


@pytest.mark.parametrize("n", [3, 4])
def test_demo_pictures_wrap_into_rows_on_a_phone(n):
    """Four pictures in a phone's width were 72 px tall: two a row, each titled above it."""
    from kpca_core.denoise import ImageGrid
    from kpca_core.figures.denoise import demo_figure

    titles = ("Written<br>by hand", "With<br>noise", "Classic<br>method", "Kernel<br>method")[-n:]
    grid = ImageGrid(np.zeros((1, n, 256)), 16, ("",), titles)
    fig = demo_figure(grid, width_px=PHONE_PX, height_px=300)
    z = np.asarray(fig.data[0].z, dtype=float)
    assert z.shape[1] < 3 * 16  # two pictures a row
    unit_px = (PHONE_PX - 20) / z.shape[1]
    assert 16 * unit_px >= rule.AREA_MIN_PX
    assert fig.layout.height >= fig.layout.margin.t + z.shape[0] * unit_px
    assert sorted(a.text for a in fig.layout.annotations) == sorted(titles)
    assert not fig.layout.xaxis.showticklabels  # titles above each picture, not as ticks
    one_row = demo_figure(grid, width_px=700, height_px=300)
    assert one_row.layout.height == 300 and tuple(one_row.layout.xaxis.ticktext) == titles


@pytest.mark.parametrize("k", [4, 8])
def test_fewer_rows_shown_start_at_kpc_1_and_say_how_many_are_hidden(k):
    """Lesson step 3 (SSM Fig. 2 on a slide) hid kPC 1: the figure showed the last rows."""
    sweep = _sweep("Fig. 2", k, pca=False)
    fig = _presenter_figure(sweep)
    titles = [a.text for a in fig.layout.annotations if "kPC" in a.text]
    shown = sorted({int(m) for t in titles for m in re.findall(r"kPC (\d+)", t)})
    assert shown and shown[0] == 1 and shown == list(range(1, len(shown) + 1))
    assert len(shown) < k  # the projector's screen holds fewer rows than asked
    assert f"kPC 1–{len(shown)} of {k} shown ({k - len(shown)} hidden" in fig.layout.title.text


@pytest.mark.parametrize("name", ["linear", "D&K Fig. 5"])
def test_a_short_wide_screen_shows_every_component_side_by_side(name):
    """Lesson steps 1, 2 and 4 (one column on a slide) showed "kPC 1 of 3 shown (2 hidden)":
    one small row, and the slide's width empty beside it."""
    sweep = _sweep(name, 3, pca=False)
    height = projector_plan_height(FIGURE_PX - SLIDE_SHORTER_PX, {**figures.FITTED_MARGIN, "t": 20})
    fig = figures.contour_figure(sweep, width_px=SLIDE_PX, height_px=height)
    titles = [a.text for a in fig.layout.annotations if "kPC" in a.text]
    assert sorted(int(m) for t in titles for m in re.findall(r"kPC (\d+)", t)) == [1, 2, 3]
    assert "hidden" not in (fig.layout.title.text or "")
    rows = {round(a.y, 6) for a in fig.layout.annotations if "kPC" in a.text}
    assert len(rows) < 3  # side by side: the screen is too short for three rows


def test_table1_on_a_phone_is_transposed_one_number_a_cell():
    """Nine columns of "mean<br>low–high" ran into each other on a phone (113 overlaps)."""
    from kpca_core.figures.preimages import table1_figure
    from kpca_core.gaussians_table import N_VALUES, SIGMAS, GaussiansTable

    ratios = np.exp(np.random.default_rng(0).normal(2, 2, size=(len(SIGMAS), len(N_VALUES), 3)))
    zeros, counts = np.zeros_like(ratios), np.zeros(ratios.shape[:2], dtype=int)
    table = GaussiansTable(
        SIGMAS, N_VALUES, (0, 1, 2), ratios, counts, counts, kernel_mse=zeros,
        wrong=zeros.astype(int), wrong_share=zeros, floor=np.zeros(ratios.shape[:2]),
    )  # fmt: skip
    fig = table1_figure(table, width_px=PHONE_PX)
    ours, paper = fig.data
    assert list(ours.x) == [f"σ = {s:g}" for s in SIGMAS] and list(ours.y) == list(
        map(str, N_VALUES)
    )
    cell_px = (PHONE_PX - fig.layout.margin.l - fig.layout.margin.r) / len(SIGMAS)
    for trace in (ours, paper):
        assert np.asarray(trace.z).shape == (len(N_VALUES), len(SIGMAS))
        texts = [text for row in trace.text for text in row]
        assert all("<br>" not in text for text in texts)  # the range on hover only
        assert max(map(len, texts)) * CHAR_EM * 14 <= cell_px - 8
    assert all(len(line) * CHAR_EM * 15 <= PHONE_PX for line in fig.layout.title.text.split("<br>"))
    assert fig.layout.xaxis.showticklabels  # σ above the upper table too
    # no colour bar: drawn in place over the desktop's, it lay over the lower table
    assert all(trace.showscale is False for trace in fig.data)
    desktop = table1_figure(table)
    assert list(desktop.data[0].x) == list(map(str, N_VALUES))


def test_fig3_columns_wrap_into_blocks_of_readable_digits_on_a_phone():
    """21 digits in a phone's width were 13 px wide, their numbers on each other."""
    from kpca_core.denoise import ImageGrid
    from kpca_core.figures.preimages import fig3_figure
    from kpca_core.preimage_compare import Reconstruction

    labels = (*(f"n = {n}" for n in range(1, 21)), "original")
    grid = ImageGrid(np.zeros((2, 21, 256)), 16, ("linear PCA", "kernel PCA"), labels)
    fractions = np.linspace(0.1, 1.2, 20)
    recon = Reconstruction(grid, fractions, fractions[::-1], np.arange(1, 21))
    fig = fig3_figure(recon, title="USPS: test digit 0 (a 9) rebuilt without noise", width_px=358)
    z = np.asarray(fig.data[0].z, dtype=float)
    per_block = len(fig.layout.xaxis.ticktext)
    assert per_block < 21
    ticks = fig.layout.xaxis.tickvals
    step = ticks[1] - ticks[0]  # a tile and its gap, in the mosaic's pixels
    assert z.shape[1] == per_block * step - (step - 16)
    unit_px = (PHONE_PX - 80) / (per_block * step)
    assert 16 * unit_px >= rule.DIGIT_MIN_PX  # a digit's height on the phone
    assert (step - 16) * unit_px >= rule.lines_px(1, 12)  # its number's line under it
    shown = list(fig.layout.xaxis.ticktext) + [
        a.text for a in fig.layout.annotations if a.name == "column label"
    ]
    assert [label for label in shown if label] == list(labels)
    numbers = [a.text for a in fig.layout.annotations if a.name != "column label"]
    assert len(numbers) == 40  # every reconstruction keeps its number


@pytest.mark.parametrize("k", [1, 3])
def test_projection_title_and_reason_fit_a_phone(k):
    """On a phone "exp(−‖x−y‖²/(2·0.001²)), γ = 5e+05: the data in kPC 1 and kPC 2" and
    the reason for a missing component ran past the chart's right edge."""
    sweep = _sweep("σ = 0.001" if k == 3 else "rings", 2, pca=False)
    fig = figures.projection_figure(sweep, 0, 1, k, width_px=PHONE_PX)
    texts = [(fig.layout.title.text, 17)] + [
        (a.text, rule.CHART_TEXT_PX) for a in fig.layout.annotations
    ]
    for text, size in texts:
        for line in re.sub("<[^>]+>", "", text.replace("<br>", "\n")).split("\n"):
            assert len(line) * CHAR_EM * size <= PHONE_PX - 20, line


def test_toy_regions_stack_on_a_phone():
    """Two panels side by side in a phone's width were 143 × 76 px plot areas."""
    from kpca_core.features import toy_experiment, toy_features
    from kpca_core.figures.features import toy_regions_figure

    X = parabola(120, 0.2, 0)[0]  # wider than tall, as the toy's data
    fit = toy_features(X, (X[:, 0] > 0).astype(int), kernel="rbf", gamma=2.0, grid_size=30)
    fig = toy_regions_figure(fit, toy_experiment(fit, 8), width_px=PHONE_PX)
    areas = _areas(fig, PHONE_PX)
    x_range, y_range = fig.layout.xaxis.range, fig.layout.yaxis.range
    aspect = (y_range[1] - y_range[0]) / (x_range[1] - x_range[0])
    assert len(areas) == 2 and _apart(areas)
    for _, _, w, h in areas:  # equal aspect inside the domain's box
        assert min(w, w * aspect, h, h / aspect) >= rule.AREA_MIN_PX - 0.5
    titles = [a for a in fig.layout.annotations]
    assert titles[1].y == pytest.approx(fig.layout.yaxis2.domain[1])


def test_flat_panels_on_a_phone_keep_their_shorter_side():
    """The audit's upload (x in [−2, 2], y = x²/2 − 1, two groups) drew 84–85 px tall panels
    on a phone: two columns side by side were planned from the panels' width only."""
    x = np.arange(-20, 21) / 10
    X = np.column_stack([x, np.round(x**2 / 2 - 1, 2)])
    specs = ct.sweep_specs(ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", (1, 2, 3, 4))
    sweep = ct.contour_sweep(
        X, specs, n_components=3, parameter="degree", labels=(x > 0).astype(int), resolution=100
    )
    layout = figures.contour_figure(sweep, width_px=358).layout
    plot_w = layout.width - layout.margin.l - layout.margin.r
    plot_h = layout.height - layout.margin.t - layout.margin.b
    (x0, x1), (y0, y1) = layout.xaxis.range, layout.yaxis.range
    per_unit = min(plot_w / (x1 - x0), plot_h / (y1 - y0))
    colours = [image for image in layout.images if image.name != "data"]
    # the layout rule's least side with the 2 px a browser's rounding takes
    assert min(min(i.sizex, i.sizey) * per_unit for i in colours) >= rule.PANEL_MIN_PX + 2
