"""Take-home notebooks (``kpca_ui/notebook.py``, issue 54).

For every view's default state, each Contours preset, each gallery card, each tab of the
Denoising and Features views, and a drawing, an upload and a written digit, the notebook
is built, its code checked (valid Python as a script, imports only ``kpca_core``, NumPy,
SciPy, scikit-learn and Plotly), then executed in a real kernel (``nbclient``), and the
figures it makes are compared with those of the app's own functions for the same values,
called here in-process: titles and every number to 1e-9 (eigenvalues, grid values,
heatmaps), the contour grid's values and eigenvalues too (its panels are pictures).
"""

from __future__ import annotations

import ast
import base64
import os
import pathlib
import pickle
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import nbformat
import numpy as np
import plotly.graph_objects as go
import pytest
from conftest import open_view

from kpca_core import datasets, drawing, handwriting
from kpca_core.demo import in_turns
from kpca_core.denoise import DEMO_N, ImageGrid, Noise, demo_images
from kpca_core.figures import contours as contour_figures
from kpca_core.figures import denoise as denoise_figures
from kpca_core.figures import features as feature_figures
from kpca_core.figures import preimages as preimage_figures
from kpca_core.figures import rings as ring_figures
from kpca_core.figures import spectrum as spectrum_figures
from kpca_core.figures.style import NARROW_PX
from kpca_core.rings import DK_GAMMA
from kpca_core.uploads import parse_points_csv
from kpca_ui import notebook as nbk
from kpca_ui.points import PointSet, drawing_points, points_of
from kpca_ui.shell import UPLOAD as UPLOAD_NAME
from kpca_ui.views import (
    contours,
    contours_grid,
    demo,
    denoising,
    features,
    home,
    lesson,
    rings,
    spectrum,
    spectrum_sweep,
)
from kpca_ui.views import denoising_cache as cache
from kpca_ui.views import denoising_preimages as preimages

USPS_DIR = os.environ.get("KPCA_USPS_DIR") or "/work/shared/data/usps"
CELL_S = 600
"""Seconds a cell may take (the Demo measures every test digit at four noise levels)."""
ALLOWED = {"kpca_core", "numpy", "scipy", "sklearn", "plotly"}
"""What a notebook may import: the engine and its scientific stack, never the app."""
RTOL, ATOL = 1e-9, 1e-12
SETTINGS = {
    "contours": contours.SETTINGS,
    "spectrum": spectrum.SETTINGS,
    "denoising": denoising.SETTINGS,
    "features": features.SETTINGS,
    "demo": demo.SETTINGS,
}
WRITING = handwriting.Handwriting(
    ((tuple((20 + k, 10 + 3 * k) for k in range(15))), tuple((30, y) for y in range(8, 58, 4)))
)
"""A digit written on a pad: a slanted stroke beside an upright one."""
DRAWING, _ = drawing.from_data(*datasets.moons(40, 0.05, 1))
"""A drawing of 40 points in two groups."""
UPLOAD_CSV = b"x,y,group\n" + b"\n".join(
    f"{np.cos(t):.3f},{np.sin(2 * t):.3f},{'ab'[i % 2]}".encode()
    for i, t in enumerate(np.linspace(0, 6, 30))
)
UPLOADED = parse_points_csv(UPLOAD_CSV)
UPLOAD = PointSet(UPLOADED.X, UPLOADED.labels, "figure_eight.csv (30 points)", ("upload", "8"))


@dataclass(frozen=True)
class Case:
    """One notebook: a view at some values (the others at their defaults), perhaps drawn."""

    name: str
    view: str
    values: Mapping[str, Any]
    drawing: Any = None
    usps: bool = False
    marks: tuple = field(default=())


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _cases() -> list[Case]:
    """Every view's default, every Contours preset and gallery card (read from the views),
    every Denoising and Features tab, and data drawn, uploaded and written; each state once."""
    wanted = [Case(f"{view}-default", view, {}) for view in nbk.VIEWS]
    wanted += [Case(f"contours-{k}", "contours", p.values) for k, p in contours.PRESETS.items()]
    wanted += [
        Case(f"gallery-{_slug(card.title)}", card.settings.page, card.values)
        for card in home.GALLERY
    ]
    taken_home = {case.name for case in wanted}  # defaults, presets, cards: run by default
    for tab in denoising.TABS:
        pad = {"dn_pad": handwriting.encode(WRITING)} if tab == "Write a digit" else {}
        wanted.append(Case(f"denoising-{_slug(tab)}", "denoising", {"dn_tab": tab, **pad}))
    wanted += [Case(f"features-{_slug(tab)}", "features", {"ft_tab": tab}) for tab in features.TABS]
    drawn = {"ct_data": nbk.DRAW, "ct_draw": drawing.encode(DRAWING)}
    wanted += [
        Case("contours-drawn", "contours", {**drawn, "ct_kernel": "rbf", "ct_sweep": "sigma",
                                            "ct_values": "0.3, 1"}),
        Case("contours-upload", "contours", {"ct_data": UPLOAD_NAME}, UPLOAD),
        Case("spectrum-drawn", "spectrum", {"sp_data": nbk.DRAW,
                                            "sp_draw": drawing.encode(DRAWING)}),
        Case("spectrum-degree", "spectrum", {"sp_kernel": "degree", "sp_dmax": 6}),
        Case("features-drawn", "features", {"ft_data": features.DRAWN,
                                            "ft_draw": drawing.encode(DRAWING)}),
        Case("demo-written", "demo", {"dm_pad": handwriting.encode(WRITING)}),
        Case("demo-any", "demo", {"dm_any": True}),
    ]  # fmt: skip
    seen, cases = set(), []
    for case in wanted:
        full = SETTINGS[case.view].complete(case.values)
        key = (case.view, repr(sorted(full.items(), key=repr)), case.drawing is not None)
        if key in seen:
            continue
        seen.add(key)
        digits = case.view == "demo" or (
            case.view == "denoising" and full["dn_tab"] not in ("2-D toy", "Table 1")
        )
        marks = (pytest.mark.usps,) if digits else ()
        marks += () if case.name in taken_home else (pytest.mark.slow,)
        cases.append(Case(case.name, case.view, case.values, case.drawing, digits, marks))
    return cases


CASES = _cases()


def _params(cases: list[Case]) -> list:
    return [pytest.param(case, id=case.name, marks=case.marks) for case in cases]


# ------------------------------------------------------------------ the code


@pytest.mark.parametrize("case", _params(CASES))
def test_the_notebook_is_valid_and_imports_only_the_engine(case: Case) -> None:
    nb = nbk.notebook(case.view, case.values, drawing=case.drawing)
    nbformat.validate(nb)
    compile(nbk.script(nb), f"{case.name}.py", "exec")
    imported = set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add(node.module.split(".")[0])
        assert "streamlit" not in cell.source and "kpca_ui" not in cell.source
    assert imported and imported <= ALLOWED, imported - ALLOWED
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")


def test_the_settings_are_plain_literals_a_student_changes():
    nb = nbk.notebook("contours", contours.PRESETS["rings"].values)
    settings = next(cell.source for cell in nb.cells if cell.cell_type == "code")
    assigned = {}
    for node in ast.parse(settings).body:
        assert isinstance(node, ast.Assign), ast.dump(node)
        assigned[node.targets[0].id] = ast.literal_eval(node.value)
    assert assigned["KERNEL"] == "rbf" and assigned["SWEEP"] == "sigma"
    assert assigned["VALUES"] == [0.5, 1.0, 2.0]
    assert (assigned["N_POINTS"], assigned["NOISE"], assigned["SEED"]) == (300, 0.25, 0)
    assert "Three rings" in nb.cells[0].source
    script = nbk.script(nb)
    assert script.startswith("# ---\n") and "# %%" in script and "# %% [markdown]" in script


def test_what_cannot_be_a_notebook_is_refused():
    with pytest.raises(ValueError, match="no notebook"):
        nbk.notebook("home", {})
    with pytest.raises(ValueError, match="upload"):
        nbk.notebook("contours", {"ct_data": UPLOAD_NAME})
    with pytest.raises(ValueError, match="at least 3"):
        nbk.notebook("contours", {"ct_data": nbk.DRAW, "ct_draw": ""})
    with pytest.raises(ValueError):
        nbk.notebook("contours", {"ct_values": "1, x"})
    with pytest.raises(ValueError, match="Nothing is written"):
        nbk.notebook("denoising", {"dn_tab": "Write a digit"})


# ------------------------------------------------------------ the app's figures


def _contours(values: Mapping[str, Any], drawn: Any) -> dict[str, Any]:
    """The grid as the page makes it (``contours_grid.grid``, as its ``warm``), the projection
    and, at Deręgowski & Krzyśko's width, their Fig. 5."""
    values = contours.SETTINGS.complete(values)
    if values["ct_data"] == nbk.DRAW:
        points = drawing_points(drawing.decode(values["ct_draw"])[0])
    elif values["ct_data"] == UPLOAD_NAME:
        points = drawn
    else:
        points = points_of(contours.SETTINGS, values)
    chosen = contours.columns(values)
    sweep, fig = contours_grid.grid(points, chosen, contours_grid.Space())
    labels = contours_grid.column_labels(sweep)
    column = labels.index(values["ct_pcol"]) if values["ct_pcol"] in labels else len(labels) - 1
    i, j = values["ct_pi"], min(values["ct_pj"], chosen.n_components)
    made = {
        "fig": fig,
        "fig_projection": contour_figures.projection_figure(
            sweep, column, i, j, width_px=contour_figures.FIGURE_PX
        ),
        "sweep": sweep,
    }
    if rings.has_dk_width(points, chosen.spec, chosen.parameter, chosen.values):
        made["fig5"] = ring_figures.fig5_figure(
            rings._readings(points),
            points.labels,
            group_names=rings.RING_NAMES,
            gamma=DK_GAMMA,
            width_px=contour_figures.FIGURE_PX,
        )
    return made


def _spectrum(values: Mapping[str, Any], drawn: Any) -> dict[str, Any]:
    """The page's sweep and its figures (``spectrum_sweep.figure`` and ``maps``)."""
    values = spectrum.SETTINGS.complete(values)
    if values["sp_data"] == nbk.DRAW:
        points = drawing_points(drawing.decode(values["sp_draw"])[0])
    else:
        points = points_of(spectrum.SETTINGS, values)
    chosen = spectrum.choice_of(values)
    made = spectrum_sweep.sweep(points, chosen)
    labels = spectrum_sweep.width_labels(made)
    at = values["sp_at"]
    index = labels.index(at) if at in labels else spectrum_sweep._chosen_default(made)
    figure = spectrum_sweep.figure
    figures = {
        "sweep": made,
        "fig_lines": figure(
            points, chosen, "lines", index, values["sp_k"], spectrum_figures.PANEL_PX
        ),
        "fig_components": figure(points, chosen, "components", index),
        "fig_heatmap": figure(points, chosen, "heatmap", index),
        "fig_bars": figure(points, chosen, "bars", index, log=values["sp_logbars"]),
        "fig_maps": spectrum_sweep.maps(points, chosen, index, spectrum_figures.MAPS_PX),
    }
    if points.key[:2] == ("toy", "three_rings") and chosen.kernel == "rbf":
        figures["fig_centring"] = figure(points, chosen, "centring")
    return figures


def _model(values: Mapping[str, Any]) -> tuple:
    """The Denoising page's digits and model (as ``denoising_preimages.warm``)."""
    s = denoising.experiment(values)
    data = cache.digit_sets()
    subsets = cache.digit_subsets(data[0].source, s["n_train"], s["n_test"], s["seed"], data)
    key = cache.model_key(subsets, s)
    return s, subsets, key, cache.fitted_model(key, subsets)


def _denoising(values: Mapping[str, Any], drawn: Any) -> dict[str, Any]:
    """Each tab's cached work (``denoising_cache``) drawn by its builder as the tab does."""
    values = denoising.SETTINGS.complete(values)
    tab, width = values["dn_tab"], NARROW_PX
    if tab == "2-D toy":
        toy = (
            values["dn_toy_noise"],
            values["dn_toy_c"],
            values["dn_toy_n"],
            values["dn_toy_seed"],
        )
        results = [cache.cached_toy(name, 200, *toy) for name in ("half_circle", "square")]
        return {"fig": denoise_figures.toy_figure(results), "results": results}
    if tab == "Table 1":
        table = cache.cached_table1()
        return {"fig": preimage_figures.table1_figure(table, ranges=True, width_px=width)}
    s, subsets, key, model = _model(values)
    noise, method, alpha = s["noise"], s["method"], s["ridge_alpha"]
    title = f"{subsets.source}: {noise.describe()}"
    if tab == "Fig. 4 grid":
        grid = cache.cached_fig4(key, noise, method, alpha, model, subsets)
        fig = denoise_figures.fig4_figure(grid, title=title, width_px=width)
        return {"fig": fig, "grid": grid}
    if tab == "Side by side":
        n, count = values["dn_n"], values["dn_sbs_count"]
        rng = np.random.RandomState(int(values["dn_sbs_draw"]))
        pick = np.sort(rng.choice(len(subsets.X_test), min(count, len(subsets.X_test)), False))
        digits = (key, noise, tuple(int(i) for i in pick), method, alpha)
        grid = cache.cached_side_by_side(digits, n, model, subsets)
        fig = denoise_figures.side_by_side_figure(grid, title=f"{title}, n = {n}", width_px=width)
        return {"fig": fig, "grid": grid}
    if tab == "Error vs n":
        sweep = cache.cached_sweep(key, noise, values["dn_sweep_ridge"], alpha, model, subsets)
        prefix = f"{title}, {len(subsets.X_test)} test digits"
        fig = denoise_figures.error_curve_figure(
            sweep, chosen_n=values["dn_n"], title_prefix=prefix, width_px=width
        )
        return {"fig": fig}
    if tab == "Demo":
        examples = np.flatnonzero(subsets.y_test == values["dn_demo_digit"])
        index = examples[0]
        clean = subsets.X_test[index]
        original = ImageGrid(clean[None, None], subsets.side, ("",), ("",))
        level = denoising.DEMO_LEVELS[values["dn_demo_noise"]]
        grid = demo_images(
            model, clean, Noise("gaussian", level), side=subsets.side, random_state=int(index)
        )
        return {
            "fig_original": denoise_figures.demo_figure(original, width_px=width // 3),
            "fig": denoise_figures.demo_figure(grid, width_px=width),
        }
    if tab == "Fig. 3":
        index = min(int(values["dn_fig3_digit"]), len(subsets.X_test) - 1)
        recon = cache.cached_fig3(key, index, values["dn_fig3_start"], model, subsets)
        label = subsets.y_test[index]
        title = f"{subsets.source}: test digit {index} (a {label}) rebuilt without noise"
        return {"fig": preimage_figures.fig3_figure(recon, title=title, width_px=width)}
    if tab == "Pre-images":
        count, name = values["dn_pre_digits"], values["dn_pre_set"]
        args = (key, noise, int(count), preimages.DIGIT_N, alpha, model, subsets)
        comparison = cache.cached_digit_methods(*args)
        toy = preimages.TOY
        on_toy = cache.cached_toy_methods(name, toy["noise"], toy["c"], toy["seed"])
        toy_title = f"{denoising.PRE_SETS[name]}: {denoising.PRE_POINTS} noisy points"
        n, point = int(values["dn_pre_n"]), int(values["dn_pre_point"])
        px = preimage_figures.COMPARISON_PX
        return {
            "fig": preimage_figures.comparison_figure(
                comparison,
                title=f"{subsets.source}: {comparison.n_points} digits, {noise.describe()}",
                width_px=px,
            ),
            "fig_toy": preimage_figures.comparison_figure(
                on_toy, title=f"{toy_title} (noise {toy['noise']:g})", width_px=px
            ),
            "fig_fixed_point": cache.cached_animation(
                name, toy["noise"], toy["c"], n, toy["seed"], point, px
            ),
        }
    assert tab == "Write a digit", tab
    clean = handwriting.to_digit(handwriting.decode(values["dn_pad"])[0], subsets.side)
    counts = {"n_linear": DEMO_N["linear"], "n_kernel": DEMO_N["kernel"]}
    grid, _ = demo.cleaned(
        model, clean, noise, 1000, subsets.side, titles=demo.PAD_TITLES, **counts
    )
    return {"fig": denoise_figures.demo_figure(grid, width_px=width, height_px=demo.FIGURE_PX)}


def _features(values: Mapping[str, Any], drawn: Any) -> dict[str, Any]:
    """The toy's fit and classifiers (``features.toy_fit``, ``toy_result``, as its ``warm``)
    or the shipped Table 2, drawn by the tab's builder."""
    values = features.SETTINGS.complete(values)
    if values["ft_tab"] == features.TABS[1]:
        table = features.shipped_table()
        live = np.zeros(table.errors.shape, bool)
        chosen = (values["ft_degree"], values["ft_n"])
        fig = feature_figures.table2_figure(
            table.errors, live=live, chosen=chosen, width_px=NARROW_PX
        )
        return {"fig": fig}
    kernel = values["ft_kernel"]
    parameter = float(values["ft_sigma"] if kernel == "rbf" else values["ft_pdegree"])
    label = f"Gaussian, σ = {parameter:g}" if kernel == "rbf" else f"polynomial, d = {parameter:g}"
    if values["ft_data"] == features.DRAWN:
        code = values["ft_draw"]
        fit = features.drawn_fit(code, kernel, parameter)
        result = features.toy_result((features.DRAWN, code, kernel, parameter), values["ft_k"], fit)
        groups = features._groups(fit)
    else:
        key = (values["ft_data"], values["ft_points"], values["ft_seed"], kernel, parameter)
        fit = features.toy_fit(*key)
        result = features.toy_result(key, values["ft_k"], fit)
        groups = {}
    fig = feature_figures.toy_regions_figure(
        fit, result, kernel_label=label, width_px=NARROW_PX, **groups
    )
    return {"fig": fig}


def _demo(values: Mapping[str, Any], drawn: Any) -> dict[str, Any]:
    """The Demo's model, measured cases and pictures (``demo.model_and_digits``, as its
    ``warm``, ``convincing_cases``, ``cleaned``)."""
    model, subsets = demo.model_and_digits()
    cases = demo.convincing_cases(demo.model_key(subsets.source), model, subsets)
    index = int((in_turns(subsets.y_test) if values.get("dm_any") else cases.chosen)[0])
    made = {}
    grid, _ = demo.cleaned(model, subsets.X_test[index], demo.noise_of(cases), index, subsets.side)
    made["fig"] = denoise_figures.demo_figure(grid, width_px=NARROW_PX, height_px=demo.FIGURE_PX)
    if values.get("dm_pad"):
        clean = handwriting.to_digit(handwriting.decode(values["dm_pad"])[0], subsets.side)
        grid, _ = demo.cleaned(
            model, clean, demo.noise_of(cases), 1000, subsets.side, titles=demo.PAD_TITLES
        )
        made["fig_written"] = denoise_figures.demo_figure(
            grid, width_px=NARROW_PX, height_px=demo.FIGURE_PX
        )
    return made


APP: dict[str, Callable[[Mapping[str, Any], Any], dict[str, Any]]] = {
    "contours": _contours,
    "spectrum": _spectrum,
    "denoising": _denoising,
    "features": _features,
    "demo": _demo,
}
"""The app's figures of each view for given values, by its own functions, in this process."""


# ------------------------------------------------------------------ running

PROBE = """
import pickle as _pickle

import plotly.graph_objects as _go

_kept = {{k: v.to_plotly_json() for k, v in dict(globals()).items() if isinstance(v, _go.Figure)}}
_kept |= {{k: globals()[k] for k in ("sweep", "grid", "results") if k in globals()}}
with open({path!r}, "wb") as _file:
    _pickle.dump(_kept, _file)
"""
"""A last cell, added by the test: the notebook's figures and results, pickled."""


def run(nb: nbformat.NotebookNode, folder: pathlib.Path, env: dict[str, str]) -> dict[str, Any]:
    """Execute ``nb`` in a fresh kernel in ``folder``; its figures (as plotly JSON) and results."""
    from nbclient import NotebookClient

    probe = folder / "kept.pickle"
    nb.cells.append(nbformat.v4.new_code_cell(PROBE.format(path=str(probe))))
    client = NotebookClient(
        nb,
        timeout=CELL_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(folder)}},
    )
    client.execute(env=env)
    with probe.open("rb") as file:
        return pickle.load(file)


def _typed(value: Any) -> Any:
    """Plotly's typed array (``{"dtype", "bdata"}``) as an array; anything else as it is."""
    if isinstance(value, dict) and set(value) >= {"dtype", "bdata"}:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        if isinstance(shape, str):
            shape = tuple(int(n) for n in shape.split(","))
        return array.reshape(shape) if shape else array
    return value


def _array(value: Any) -> np.ndarray:
    """A sequence as an array: of numbers or of strings where it holds only those, else of
    objects (dictionaries, ``None``, nested sequences of different lengths)."""
    try:
        array = np.asarray(value)
    except ValueError:  # ragged
        return np.asarray(value, dtype=object)
    return array if array.dtype.kind in "biufUS" else np.asarray(value, dtype=object)


def assert_same(ours: Any, app: Any, path: str = "") -> None:
    """Every string equal, every number within :data:`RTOL` (NaN where NaN), at every path."""
    ours, app = _typed(ours), _typed(app)
    if isinstance(app, dict):
        assert isinstance(ours, dict), path
        assert sorted(ours) == sorted(app), f"{path}: keys {sorted(ours)} != {sorted(app)}"
        for key in app:
            assert_same(ours[key], app[key], f"{path}.{key}")
        return
    if isinstance(app, list | tuple | np.ndarray):
        mine, theirs = _array(ours), _array(app)
        assert mine.shape == theirs.shape, f"{path}: shape {mine.shape} != {theirs.shape}"
        if theirs.dtype.kind in "biuf":
            assert mine.dtype.kind in "biuf", f"{path}: {mine.dtype} is no number"
            np.testing.assert_allclose(mine, theirs, rtol=RTOL, atol=ATOL, err_msg=path)
        elif theirs.dtype.kind in "US":
            np.testing.assert_array_equal(mine, theirs, err_msg=path)
        else:
            for k, pair in enumerate(zip(mine.ravel(), theirs.ravel(), strict=True)):
                assert_same(*pair, f"{path}[{k}]")
        return
    if isinstance(app, float | int | np.number) and not isinstance(app, bool):
        both = float(ours), float(app)
        assert np.isclose(*both, rtol=RTOL, atol=ATOL, equal_nan=True), f"{path}: {both}"
        return
    assert ours == app, f"{path}: {ours!r} != {app!r}"


def _steady(figure: dict) -> dict:
    """A figure without what depends on the machine or the process: the pre-image methods'
    times, and the default template (Streamlit, imported here, sets its own)."""
    data = [
        trace
        for trace in figure.get("data", [])
        if "s per point" not in str(trace.get("hovertemplate", ""))
    ]
    layout = {k: v for k, v in figure.get("layout", {}).items() if k != "template"}
    return {**figure, "data": data, "layout": layout}


def assert_same_results(name: str, ours: Any, app: Any) -> None:
    """The numbers behind a figure that its JSON does not carry (the grid's panels are
    pictures): the grid's values, the eigenvalues."""
    if name == "sweep" and hasattr(app, "columns"):  # the contour grid
        assert len(ours.columns) == len(app.columns)
        np.testing.assert_allclose(ours.grid.xs, app.grid.xs, rtol=RTOL)
        np.testing.assert_allclose(ours.grid.ys, app.grid.ys, rtol=RTOL)
        for mine, theirs in zip(ours.columns, app.columns, strict=True):
            assert mine.error == theirs.error
            np.testing.assert_allclose(mine.fit.eigenvalues, theirs.fit.eigenvalues, rtol=RTOL)
            np.testing.assert_allclose(mine.values, theirs.values, rtol=RTOL, atol=ATOL)
    elif name == "sweep":  # the spectrum's width sweep
        np.testing.assert_allclose(ours.widths_, app.widths_, rtol=RTOL)
        np.testing.assert_allclose(ours.eigenvalues_, app.eigenvalues_, rtol=RTOL, atol=ATOL)
    elif name == "grid":
        np.testing.assert_allclose(ours.images, app.images, rtol=RTOL, atol=ATOL)


@pytest.fixture
def kernel_env(case: Case, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The kernel's environment: this one's, with ``KPCA_USPS_DIR`` for the digits."""
    env = dict(os.environ)
    if case.usps:
        if not os.path.isdir(USPS_DIR):
            pytest.skip("the USPS files are not available (set KPCA_USPS_DIR)")
        monkeypatch.setenv("KPCA_USPS_DIR", USPS_DIR)
        env["KPCA_USPS_DIR"] = USPS_DIR
    return env


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("case", _params(CASES))
def test_the_notebook_draws_the_apps_figure(
    case: Case, kernel_env: dict[str, str], tmp_path: pathlib.Path
) -> None:
    nb = nbk.notebook(case.view, case.values, drawing=case.drawing)
    ours = run(nb, tmp_path, kernel_env)
    errors = [
        output
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    assert not errors
    app = APP[case.view](case.values, case.drawing)
    for name, made in app.items():
        assert name in ours, f"the notebook makes no {name}"
        if isinstance(made, go.Figure):
            assert_same(_steady(ours[name]), _steady(made.to_plotly_json()), name)
        else:
            assert_same_results(name, ours[name], made)


@pytest.mark.slow
def test_a_student_changes_the_kernel_widths_and_gets_the_apps_figure_at_them(
    tmp_path: pathlib.Path,
) -> None:
    """The rings preset's notebook with two other widths typed into its settings cell (one
    column fewer: the projection still takes the last) draws what the app draws at them."""
    preset = contours.PRESETS["rings"].values
    nb = nbk.notebook("contours", preset)
    settings = next(cell for cell in nb.cells if cell.cell_type == "code")
    assert "VALUES = [0.5, 1.0, 2.0]" in settings.source
    settings.source = settings.source.replace("VALUES = [0.5, 1.0, 2.0]", "VALUES = [2.0, 8.0]")
    ours = run(nb, tmp_path, dict(os.environ))
    app = _contours({**preset, "ct_values": "2, 8"}, None)
    assert_same_results("sweep", ours["sweep"], app["sweep"])
    for name in ("fig", "fig_projection"):
        assert_same(_steady(ours[name]), _steady(app[name].to_plotly_json()), name)


# ------------------------------------------------------------ the lesson's steps


def test_each_lesson_steps_notebook_has_the_settings_its_exercise_asks_to_change():
    for name in lesson.lesson_names():
        steps = [step for step in lesson.load_lesson(name).steps if step.page in nbk.VIEWS]
        assert steps and any(step.try_this for step in steps), name
        for step in steps:
            nb = nbk.notebook(step.page, lesson.step_values(step))
            settings = next(cell.source for cell in nb.cells if cell.cell_type == "code")
            assigned = {node.targets[0].id for node in ast.parse(settings).body}
            asked = set(re.findall(r"\b([A-Z][A-Z_]+) =", step.try_this))
            assert asked <= assigned, (name, step.title, asked - assigned)


# ------------------------------------------------------------ on the pages


@pytest.mark.usps
@pytest.mark.parametrize("view", nbk.VIEWS)
def test_every_view_offers_its_state_as_a_notebook_and_a_script(view: str) -> None:
    at = open_view(view, state={f"{view}_notebook": True})  # the popover opened
    assert f"{view}_notebook" in [popover.key for popover in at.sidebar.get("popover")]
    files = [button.proto.label for button in at.sidebar.get("download_button")]
    assert files[-2:] == ["Notebook (.ipynb)", "Python script (.py)"]
    presenting = open_view(view, query={"presenter": "true"})
    assert not [p for p in presenting.get("popover") if p.key == f"{view}_notebook"]
