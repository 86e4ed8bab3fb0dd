"""Take it home: a view's current state as a Jupyter notebook that reproduces it (issue 54).

:func:`notebook` writes, for one view and the values of its settings (as the app holds
them), a notebook whose cells

1. say in a title which view and which state it reproduces;
2. hold the settings as plain Python literals, for a student to change (a kernel width);
3. load the same data: a toy set by its :mod:`kpca_core.datasets` function and seed, a
   drawing's or an upload's points inline, the USPS digits by :mod:`kpca_core.usps`'s
   loader (``KPCA_USPS_DIR``, else a download, else scikit-learn's 8 × 8 digits);
4. fit with the same :mod:`kpca_core` functions as the view's figure function, and draw the
   same figure with the same :mod:`kpca_core.figures` builder and arguments;
5. say in short markdown what to look at and which equation of the papers each step is
   (the app's own explanations, ``explanations.toml``).

The notebooks themselves are written as notebooks: one Jinja template per view (or
Denoising tab) in ``notebooks/``, in jupytext's Markdown format (a ```` ```python ```` fence
a code cell, two blank lines between Markdown cells).  This module computes what the
templates are given: the settings' rows, the data's cell, the titles.  The code cells import
only ``kpca_core``, NumPy, SciPy, scikit-learn and Plotly: never Streamlit, never
``kpca_ui``.  :func:`script` writes the same notebook as a plain script (jupytext's percent
format).  ``tests/test_notebooks.py`` runs every view's default, preset and gallery notebook
in a real kernel and checks that its figures carry the app's data.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

import jinja2
import nbformat
import numpy as np

from kpca_core import contours as ct
from kpca_core import drawing, gaussians_table, handwriting
from kpca_core.denoise import DEMO_N, PRESETS
from kpca_core.figures.contours import FIGURE_PX
from kpca_core.figures.style import NARROW_PX
from kpca_ui.draw import DRAW
from kpca_ui.explain import EXPLANATIONS
from kpca_ui.shell import NOTEBOOK_VIEWS as VIEWS
from kpca_ui.shell import UPLOAD

REQUIREMENTS = (
    "It needs the app's engine `kpca_core` (`pip install .` in the project, or its wheel), "
    "NumPy, SciPy, scikit-learn and Plotly; nothing of the app itself."
)
METADATA = {
    "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
    "language_info": {"name": "python"},
}
Drawn = Any
"""What ``drawing`` may be: a :class:`kpca_core.drawing.Drawing`, a
:class:`kpca_core.handwriting.Handwriting` (a pad's digit), or points with ``X`` and
``labels`` (and a ``title``), such as the page's ``PointSet`` of an upload."""
Rows = list[tuple[str, Any, str]]
"""The settings cell's rows: ``(NAME, value, what it is)``."""


def notebook(
    view: str, values: Mapping[str, Any], *, drawing: Drawn = None
) -> nbformat.NotebookNode:
    """The notebook that reproduces ``view`` at the settings ``values``.

    Parameters
    ----------
    view : {"contours", "spectrum", "denoising", "features", "demo"}
        The view (its page script's name).
    values : mapping
        The view's settings as the app holds them (keys of its ``SETTINGS`` table, such
        as ``ct_kernel``); those not given take their defaults
        (:meth:`kpca_ui.settings.Settings.complete`).  The Denoising view's tab is
        ``dn_tab``, the Features view's ``ft_tab``.  A few session values that are no
        settings are read too when given: ``dn_demo_example`` (the Denoising demo's
        "another example" count), ``dm_case`` (the Demo's "show me another" count),
        ``dm_pad_noise`` / ``dn_pad_noise`` (a written digit's "add noise again" count).
    drawing : optional
        The points when they are not a toy set: a :class:`kpca_core.drawing.Drawing`, or
        points with ``X``, ``labels`` and ``title`` (the page's ``PointSet``; needed for an
        upload, whose points no setting holds); for the pads (Demo, "Write a digit") a
        :class:`kpca_core.handwriting.Handwriting`.  Without it a drawing or a written
        digit is read from its link setting (``ct_draw``, ``dm_pad``, …).

    Returns
    -------
    nbformat.NotebookNode
        A version-4 notebook; ``nbformat.writes`` gives the ``.ipynb`` text.

    Raises
    ------
    ValueError
        For an unknown view or tab, an upload without its points, a drawing of fewer
        than three points, or values the view itself cannot use.
    """
    if view not in _BUILDERS:
        raise ValueError(f"no notebook for the view {view!r}; one of {', '.join(VIEWS)}")
    template, context = _BUILDERS[view](values, drawing)
    import jupytext  # only when asked for: 0.2 s of imports the app's pages do not need

    text = _TEMPLATES.get_template(f"{template}.md").render(context)
    text = re.sub(r"\n{4,}", "\n\n\n", text)  # two blank lines end a Markdown cell
    cells = jupytext.reads(text, fmt="md").cells
    return nbformat.v4.new_notebook(cells=cells, metadata=METADATA)


def script(nb: nbformat.NotebookNode) -> str:
    """The notebook ``nb`` as a plain Python script, in jupytext's percent format."""
    import jupytext

    return jupytext.writes(nb, fmt="py:percent")


# ------------------------------------------------------------- what templates call


def _literal(value: Any) -> str:
    """``value`` as a Python literal (NumPy scalars as Python's)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, tuple | list):
        inner = ", ".join(_literal(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, str):  # in double quotes, as the project writes them
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def _settings(rows: Rows) -> str:
    """The settings cell: ``NAME = value  # what it is`` per row."""
    lines = ["# The view's settings as you left them: change one, then run the cells below again."]
    for name, value, comment in rows:
        lines.append(f"{name} = {_literal(value)}" + (f"  # {comment}" if comment else ""))
    return "```python\n" + "\n".join(lines) + "\n```"


def _title(view: str, state: str, what: str, link: str | None = None) -> str:
    where = f" In the app: `{link}`." if link else ""
    return (
        f"# Kernel PCA Explorer, {view}: {state}\n\n"
        f"This notebook reproduces the **{view}** view as you left it: {what}.{where}\n"
        "It loads the same data, fits kernel PCA with the same `kpca_core` functions and draws\n"
        f"the same figure with the same builder. {REQUIREMENTS}\n\n"
        "Run it from the top; then change a setting in the next cell and run it again."
    )


def _explained(name: str, heading: str = "What to look at") -> str:
    """The app's explanation of figure ``name``: its words, then its equations."""
    entry = EXPLANATIONS[name]
    parts = [f"**{heading}.** {entry.words}"] if entry.words else []
    parts.append(f"**The maths.** {entry.source}")
    parts += [f"$$ {latex} $$\n\n{says}" for latex, says in entry.maths]
    return "\n\n".join(parts)


_TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).with_name("notebooks")),
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
_TEMPLATES.globals.update(
    title=_title,
    settings=_settings,
    explained=_explained,
    literal=_literal,
    FIGURE_PX=FIGURE_PX,
    NARROW_PX=NARROW_PX,
    DEMO_N=DEMO_N,
)


# ----------------------------------------------------------------------- helpers


def _link(settings: Any, values: Mapping[str, Any]) -> str | None:
    """The view's link for these values (the settings that differ from their defaults)."""
    defaults = settings.defaults
    changed = {k: v for k, v in values.items() if k in defaults and v != defaults[k]}
    try:
        query = settings.link(changed)
    except (KeyError, ValueError):
        return None
    text = urlencode(query, doseq=True)
    return f"/{settings.page}" + (f"?{text}" if text else "")


def _text_block(text: str) -> str:
    """Lines of text as a triple-quoted literal (a plain one if they hold quotes or
    backslashes)."""
    if '"""' in text or "\\" in text or text.endswith('"'):
        return _literal(text)
    return f'"""\\\n{text}"""'


def _rows(numbers: np.ndarray) -> str:
    """Rows of numbers as a list literal, one row a line (floats exact: their ``repr``)."""
    lines = [f"    {_literal([float(x) for x in row])}," for row in np.asarray(numbers)]
    return "[\n" + "\n".join(lines) + "\n]"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------- 2-D data


def _points(
    prefix: str, settings: Any, values: Mapping[str, Any], drawn: Drawn, allow: tuple[str, ...]
) -> tuple[list[tuple[str, Any, str]], str, str, str]:
    """The 2-D data of a view with the data picker (prefix ``ct``, ``sp``): the settings' rows,
    the data cell's code (``X``, ``labels``, ``title``), what the data are in words, and the
    set's name (``"drawn"``, ``"upload"`` or the toy set's)."""
    name = values[f"{prefix}_data"]
    if name in (DRAW, UPLOAD):
        X, labels, title, kind = _given_points(values.get(f"{prefix}_draw"), drawn, name)
        code = _inline_points(X, labels, title, kind)
        what = "your drawing" if kind == "drawn" else "your uploaded points"
        return [], code, f"{what} ({len(X)} points, inline below)", kind
    if name not in allow:
        raise ValueError(f"no data set {name!r} here")
    n, noise, seed = (values[f"{prefix}_{k}"] for k in ("n", "noise", "seed"))
    rows = [
        ("N_POINTS", int(n), "number of points"),
        ("NOISE", float(noise), "standard deviation of the noise"),
        ("SEED", int(seed), "seeds the random points: the same seed, the same points"),
    ]
    label = settings[f"{prefix}_data"].name(name)
    code = f"""
        DATA_TITLE = {_literal(label)}
        X, labels = datasets.{name}(N_POINTS, NOISE, SEED)  # points (n, d), a group per point
        title = f"{{DATA_TITLE}}: {{N_POINTS}} points, noise {{NOISE:g}}, seed {{SEED}}"
        print(title, X.shape)
        """
    what = f"{label}, {int(n)} points, noise {float(noise):g}, seed {int(seed)}"
    return rows, textwrap.dedent(code).strip(), what, name


def _given_points(code: str | None, drawn: Drawn, name: str) -> tuple[Any, Any, str, str]:
    """A drawing's or an upload's points, groups and title."""
    if drawn is None and name == UPLOAD:
        raise ValueError("an upload's points are no setting: pass them as drawing=")
    if drawn is None:
        drawn, _ = drawing.decode(code)
    if isinstance(drawn, drawing.Drawing):
        if len(drawn) < 3:
            raise ValueError("a drawing needs at least 3 points")
        return drawn.X, drawn.groups, "", "drawn"
    X = np.asarray(drawn.X, dtype=float)
    labels = getattr(drawn, "labels", None)
    kind = "drawn" if getattr(drawn, "key", ("upload",))[0] == "drawn" else "upload"
    title = "" if kind == "drawn" else str(getattr(drawn, "title", f"{len(X)} points"))
    return X, labels, title, kind


def _inline_points(X: np.ndarray, labels: Any, title: str, kind: str) -> str:
    groups = "None" if labels is None else _literal(np.asarray(labels).tolist())
    if kind == "drawn":
        named = 'title = f"Your drawing: {len(X)} points"'
        head = "# Your drawing's points (x, y) and their groups, exactly as the app has them"
    else:
        named = f"title = {_literal(title)}"
        head = "# Your uploaded points (x, y) and their groups, exactly as the app read them"
    return "\n".join(
        [
            head,
            f"POINTS = {_rows(X)}",
            f"GROUPS = {groups}",
            "X = np.array(POINTS, dtype=float)",
            "labels = None if GROUPS is None else np.array(GROUPS)",
            named,
            "print(title, X.shape)",
        ]
    )


# ---------------------------------------------------------------- the views
# Each gives its template's name and what the template is given.

Built = tuple[str, dict[str, Any]]


def _contours(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_ui.views import contours as view
    from kpca_ui.views import contours_grid, rings

    values = view.SETTINGS.complete(values)
    chosen = view.columns(values)  # ValueError for values the sweep cannot use
    names = tuple(view.SETTINGS["ct_data"].names)
    rows, data, what, kind = _points("ct", view.SETTINGS, values, drawn, names)
    spec, parameter = chosen.spec, chosen.parameter
    swept = [int(v) if parameter == "degree" else float(v) for v in chosen.values]
    # the columns' headings as the page writes them (only their kernels are needed)
    heads = [SimpleNamespace(fit=SimpleNamespace(spec=column)) for column in chosen.specs]
    labels = contours_grid.column_labels(SimpleNamespace(parameter=parameter, columns=heads))
    shown = values["ct_pcol"]
    pi, pj = (int(values[k]) for k in ("ct_pi", "ct_pj"))
    pi, pj = (k if 1 <= k <= chosen.n_components else d for k, d in ((pi, 1), (pj, 2)))
    rows += [
        ("KERNEL", spec.kernel, "'poly', 'rbf' (Gaussian), 'laplacian', 'sigmoid' or 'linear'"),
        ("SWEEP", parameter, "the parameter the columns sweep: 'degree', 'c', 'gamma', 'sigma'"),
        ("VALUES", swept, f"one column per value of SWEEP (at most {ct.MAX_COLUMNS})"),
        ("DEGREE", int(values["ct_degree"]), "polynomial degree d (when not swept)"),
        ("GAMMA", float(values["ct_gamma"]), "scale γ of x·y (polynomial, sigmoid)"),
        ("COEF0", float(values["ct_coef0"]), "offset c (polynomial, sigmoid)"),
        ("SIGMA", float(values["ct_sigma"]), "width σ (Gaussian, Laplacian)"),
        ("N_COMPONENTS", chosen.n_components, "rows: the first kernel principal components"),
        ("CENTER", chosen.center, "centre the mapped data in feature space (eq. 49)"),
        ("ADD_LINEAR_PCA", chosen.pca, "a first column: scikit-learn's linear PCA"),
        ("RESOLUTION", chosen.resolution, "grid points per side of the plane"),
        (
            "PROJECTION_COLUMN",
            labels.index(shown) if shown in labels[:-1] else None,
            "the column placing the points below (None: the last)",
        ),
        ("PC_X", pi, "horizontal: kPC number"),
        ("PC_Y", min(pj, chosen.n_components), "vertical: kPC number"),
    ]
    columns = ", ".join(labels)
    return "contours", {
        "columns": columns,
        "state": f"{columns} on {what}",
        "link": _link(view.SETTINGS, values),
        "rows": rows,
        "data": data,
        "caption": _contours_caption(chosen, kind, rings),
        "fig5": kind == "three_rings" and _has_dk_width(chosen, rings.DK_SIGMA),
        "rings": rings,
    }


def _has_dk_width(chosen: Any, dk_sigma: float) -> bool:
    sigmas = chosen.values if chosen.parameter == "sigma" else (chosen.spec.sigma,)
    return chosen.spec.kernel == "rbf" and any(
        math.isclose(s, dk_sigma, rel_tol=1e-3) for s in sigmas
    )


def _contours_caption(chosen: Any, kind: str, rings: Any) -> str | None:
    """The app's caption of Fig. 2 or of the three rings, where the settings are theirs."""
    from kpca_ui.views.contours_grid import FIG2_CAPTION

    spec = chosen.spec
    fig2 = (
        kind == "parabola"
        and (spec.kernel, chosen.parameter) == ("poly", "degree")
        and chosen.values[:2] == (1, 2)
        and (spec.gamma, spec.coef0) == (1, 0)
        and chosen.center
    )
    three = (
        kind == "three_rings"
        and spec.kernel == "rbf"
        and chosen.parameter == "sigma"
        and tuple(chosen.values) == (0.5, 1.0, 2.0)
        and chosen.center
    )
    return FIG2_CAPTION if fig2 else rings.RINGS_CAPTION if three else None


def _spectrum(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_core.figures.spectrum import MAPS_PX, PANEL_PX
    from kpca_ui.views import spectrum as view

    values = view.SETTINGS.complete(values)
    chosen = view.choice_of(values)
    names = tuple(view.SETTINGS["sp_data"].names)
    rows, data, what, kind = _points("sp", view.SETTINGS, values, drawn, names)
    if chosen.kernel == "degree":
        rows += [
            ("KERNEL", "poly", "the polynomial kernel (x·y + c)^d, its degree swept"),
            ("SWEEP", "degree", "d = 1, 2, … MAX_DEGREE"),
            ("COEF0", chosen.coef0, "the offset c"),
            ("MAX_DEGREE", chosen.max_degree, "the largest degree"),
        ]
        sweep_code = "sweep=SWEEP, coef0=COEF0, max_degree=MAX_DEGREE"
        swept = f"the degree d = 1 … {chosen.max_degree} of (x·y + {chosen.coef0:g})^d"
    else:
        scale = "mean ‖x‖²" if chosen.kernel == "poly" else "median distance"
        rows += [
            ("KERNEL", chosen.kernel, "'rbf' (width σ), 'laplacian' (width ℓ), 'poly' (offset c)"),
            ("DECADES", chosen.decades, f"the widths' range in powers of ten of the {scale}"),
            ("N_WIDTHS", chosen.n_widths, "number of widths, log-spaced"),
        ]
        sweep_code = "n_widths=N_WIDTHS, decades=DECADES"
        if chosen.kernel == "poly":
            rows.append(("DEGREE", chosen.degree, "the degree d of (x·y + c)^d"))
            sweep_code += ", degree=DEGREE"
        swept = {"rbf": "the Gaussian's width σ", "laplacian": "the Laplacian's width ℓ"}.get(
            chosen.kernel, f"the offset c of (x·y + c)^{chosen.degree}"
        )
    rows += [
        ("N_LEADING", int(values["sp_k"]), "leading components drawn"),
        (
            "CHOSEN",
            values["sp_at"],
            "the chosen width as the app's slider shows it (None: nearest the data scale)",
        ),
        ("LOG_BARS", bool(values["sp_logbars"]), "the bars on a logarithmic scale"),
    ]
    return "spectrum", {
        "swept": swept,
        "what": what,
        "link": _link(view.SETTINGS, values),
        "rows": rows,
        "data": data,
        "sweep_code": sweep_code,
        "dk": kind == "three_rings" and chosen.kernel == "rbf",
        "film": bool(values["sp_film"]),
        "PANEL_PX": PANEL_PX,
        "MAPS_PX": MAPS_PX,
    }


# ---------------------------------------------------------------- Denoising


def _experiment_rows(values: Mapping[str, Any]) -> Rows:
    from kpca_ui.views.denoising import experiment

    s = experiment(values)
    noise = s["noise"]
    return [
        ("TRAIN_PER_CLASS", s["n_train"], "training digits per class (the paper: 300)"),
        ("TEST_PER_CLASS", s["n_test"], "test digits per class (the paper: 50)"),
        (
            "SEED",
            s["seed"],
            "draws the digits; the test noise uses SEED + 1, training noise SEED + 2",
        ),
        ("C", s["c"], "kernel width per pixel: k(x, y) = exp(−‖x − y‖² / (N c)), N pixels"),
        ("CENTER", s["center"], "centre in feature space (SSM eq. 49)"),
        ("NOISE_KIND", noise.kind, "'gaussian' or 'speckle'"),
        ("NOISE_LEVEL", noise.level, "σ on a 0–1 intensity scale (gaussian), or p (speckle)"),
        ("TRAIN_NOISY", s["train_noisy"], "train on noisy digits too"),
        ("METHOD", s["method"], "the pre-image: 'fixed-point' (Mika et al. eq. 10) or 'ridge'"),
        ("RIDGE_ALPHA", s["ridge_alpha"], "the learned pre-image's ridge parameter α"),
    ]


def _denoising(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_ui.views import denoising as view

    given = dict(values)
    values = view.SETTINGS.complete(values)
    tab = values["dn_tab"]
    if tab not in _TABS:
        raise ValueError(f"no notebook for the Denoising tab {tab!r}")
    template, heading, rows, state, more = _TABS[tab](values, given, drawn)
    return template, {
        "heading": heading,
        "state": state,
        "link": _link(view.SETTINGS, values),
        "rows": rows,
        **more,
    }


Tab = tuple[str, str, Rows, str, dict[str, Any]]
"""A Denoising tab's template, heading, settings' rows, state in words and what else its
template is given."""


def _state(values: Mapping[str, Any], *detail: str) -> str:
    """The tab, what else it shows (``detail``) and its experiment in words."""
    from kpca_ui.views.denoising import experiment

    s = experiment(values)
    return ", ".join(
        [
            f"the tab “{values['dn_tab']}”",
            *detail,
            f"{s['n_train']} training digits per class",
            f"width c = {s['c']:g}",
            s["noise"].describe(),
        ]
    )


def _fig4(values: Mapping[str, Any], given: Mapping, drawn: Drawn) -> Tab:
    return "dn_fig4", "Fig. 4 grid", _experiment_rows(values), _state(values), {}


def _side_by_side(values: Mapping[str, Any], given: Mapping, drawn: Drawn) -> Tab:
    rows = [
        *_experiment_rows(values),
        ("N", int(values["dn_n"]), "components of both methods"),
        ("HOW_MANY", int(values["dn_sbs_count"]), "how many test digits"),
        ("DRAW", int(values["dn_sbs_draw"]), "which ones: another number, other digits"),
    ]
    return "dn_side_by_side", "side by side", rows, _state(values), {}


def _error_curve(values: Mapping[str, Any], given: Mapping, drawn: Drawn) -> Tab:
    rows = [
        *_experiment_rows(values),
        ("RIDGE_TOO", bool(values["dn_sweep_ridge"]), "add the learned pre-image (slower)"),
        ("CHOSEN_N", int(values["dn_n"]), "the n marked on the curves"),
    ]
    return "dn_error", "error against n", rows, _state(values), {}


def _toy(values: Mapping[str, Any], given: Mapping, drawn: Drawn) -> Tab:
    rows = [
        ("NOISE", float(values["dn_toy_noise"]), "standard deviation of the points' noise"),
        ("C", float(values["dn_toy_c"]), "kernel width: k(x, y) = exp(−‖x − y‖² / (2c))"),
        ("N_COMPONENTS", int(values["dn_toy_n"]), "kernel components"),
        ("SEED", int(values["dn_toy_seed"]), "seeds the points and their noise"),
    ]
    state = (
        f"the tab “2-D toy”, noise {values['dn_toy_noise']:g}, c = {values['dn_toy_c']:g}, "
        f"{_plural(int(values['dn_toy_n']), 'component')}"
    )
    return "dn_toy", "the 2-D toy (Mika et al. Fig. 1)", rows, state, {}


def _demo_tab(values: Mapping[str, Any], given: Mapping, drawn: Drawn) -> Tab:
    from kpca_ui.views.denoising import DEMO_LEVELS

    level = values["dn_demo_noise"]
    rows = [
        *_experiment_rows(values),
        ("DIGIT", int(values["dn_demo_digit"]), "which digit"),
        ("DEMO_NOISE", DEMO_LEVELS[level], f"Gaussian noise σ (“{level}”)"),
        ("EXAMPLE", int(given.get("dn_demo_example", 0)), "which handwritten example of it"),
    ]
    state = f"the tab “Demo”, the digit {values['dn_demo_digit']} with {level} noise"
    return "dn_demo", "the demo", rows, state, {}


def _table1(values: Mapping[str, Any], given: Mapping, drawn: Drawn) -> Tab:
    rows = [
        ("SIGMAS", gaussians_table.SIGMAS, "the clusters' standard deviations (rows)"),
        ("N_VALUES", gaussians_table.N_VALUES, "numbers of components n (columns)"),
        ("SEEDS", gaussians_table.SEEDS, "each cell is the mean over these seeds"),
    ]
    return "dn_table1", "Table 1", rows, "the tab “Table 1”: eleven Gaussians in R¹⁰", {}


def _fig3(values: Mapping[str, Any], given: Mapping, drawn: Drawn) -> Tab:
    rows = [
        *_experiment_rows(values),
        ("TEST_DIGIT", int(values["dn_fig3_digit"]), "which test digit (0 = the first)"),
        (
            "START",
            values["dn_fig3_start"],
            "start eq. (10) at the 'mean' digit or the 'digit' itself",
        ),
    ]
    state = _state(values, f"test digit {values['dn_fig3_digit']}")
    return "dn_fig3", "Fig. 3", rows, state, {}


def _preimages(values: Mapping[str, Any], given: Mapping, drawn: Drawn) -> Tab:
    from kpca_ui.views import denoising_preimages as more
    from kpca_ui.views.denoising import PRE_POINTS, PRE_SETS

    name = values["dn_pre_set"]
    rows = [
        *_experiment_rows(values),
        ("N_DIGITS", int(values["dn_pre_digits"]), "noisy test digits compared"),
        ("DIGIT_N", more.DIGIT_N, "numbers of components compared"),
        ("TOY_SET", name, "the 2-D set: 'half_circle' or 'square'"),
        ("TOY_NOISE", more.TOY["noise"], "its noise"),
        ("TOY_C", more.TOY["c"], "its kernel width: exp(−‖x − y‖² / (2c))"),
        ("TOY_SEED", more.TOY["seed"], "its seed"),
        ("TOY_N", int(values["dn_pre_n"]), "the fixed point's kernel components"),
        ("POINT", int(values["dn_pre_point"]), "the point whose path is drawn"),
    ]
    toy_title = f"{PRE_SETS[name]}: {PRE_POINTS} noisy points"
    return "dn_preimages", "pre-images", rows, _state(values), {"toy_title": toy_title}


def _pad(values: Mapping[str, Any], given: Mapping, drawn: Drawn) -> Tab:
    n = given.get("dn_n")
    n_linear, n_kernel = (int(n), int(n)) if n else (DEMO_N["linear"], DEMO_N["kernel"])
    writing = _writing(values.get("dn_pad"), drawn)
    rows = [
        *_experiment_rows(values),
        ("N_LINEAR", n_linear, "linear PCA's components"),
        ("N_KERNEL", n_kernel, "kernel PCA's components"),
        ("WRITING", handwriting.encode(writing), "your strokes (kpca_core.handwriting's encoding)"),
        ("NOISE_SEED", 1000 + int(given.get("dn_pad_noise", 0)), "seeds the noise on it"),
    ]
    return "dn_pad", "your digit", rows, _state(values), _written("noise", "fig")


def _writing(code: str | None, drawn: Drawn) -> handwriting.Handwriting:
    writing = drawn if isinstance(drawn, handwriting.Handwriting) else handwriting.decode(code)[0]
    if not len(writing):
        raise ValueError(handwriting.EMPTY)
    return writing


def _written(noise: str, name: str) -> dict[str, Any]:
    """What ``_written.md`` is given: your digit with ``noise`` on it, in the figure ``name``."""
    from kpca_ui.views.demo import FIGURE_PX as DEMO_PX
    from kpca_ui.views.demo import PAD_TITLES

    return {"pad_noise": noise, "pad_fig": name, "PAD_TITLES": PAD_TITLES, "DEMO_PX": DEMO_PX}


_TABS: dict[str, Callable[[Mapping[str, Any], Mapping, Drawn], Tab]] = {
    "Fig. 4 grid": _fig4,
    "Side by side": _side_by_side,
    "Error vs n": _error_curve,
    "2-D toy": _toy,
    "Demo": _demo_tab,
    "Table 1": _table1,
    "Fig. 3": _fig3,
    "Pre-images": _preimages,
    "Write a digit": _pad,
}
"""A notebook for each of the Denoising view's tabs."""


# ---------------------------------------------------------------- Demo


def _demo(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_ui.views import demo as view
    from kpca_ui.views.denoising import DEMO_LEVELS

    preset = next(iter(PRESETS.values()))
    rows = [
        ("TRAIN_PER_CLASS", preset.n_train_per_class, "training digits per class"),
        ("TEST_PER_CLASS", preset.n_test_per_class, "test digits per class"),
        ("SEED", 0, "draws the digits"),
        ("C", preset.c, "kernel width per pixel: k(x, y) = exp(−‖x − y‖² / (N c))"),
        ("CENTER", preset.center, "centre in feature space"),
        ("LEVELS", [v for v in DEMO_LEVELS.values() if v > 0], "noise levels tried"),
        ("ANY", bool(values.get(view.ANY, False)), "every test digit (“Any test digit”)"),
        ("CASE", int(values.get(view.COUNT, 0)), "which case (“Show me another”)"),
    ]
    written = bool(values.get("dm_pad") or isinstance(drawn, handwriting.Handwriting))
    if written:
        writing = _writing(values.get("dm_pad"), drawn)
        rows += [
            ("WRITING", handwriting.encode(writing), "your digit's strokes"),
            ("NOISE_SEED", 1000 + int(values.get("dm_pad_noise", 0)), "seeds the noise on it"),
            ("N_LINEAR", DEMO_N["linear"], "the classic method's components"),
            ("N_KERNEL", DEMO_N["kernel"], "the kernel method's components"),
        ]
    return "demo", {
        "rows": rows,
        "written": written,
        "TITLES": view.TITLES,
        "NOISE_GONE": view.NOISE_GONE,
        **_written('Noise("gaussian", cases.level)', "fig_written"),
    }


# ---------------------------------------------------------------- Features


def _features(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_ui.views import features as view

    values = view.SETTINGS.complete(values)
    link = _link(view.SETTINGS, values)
    if values["ft_tab"] == view.TABS[1]:
        return _table2(values, view, link)
    return _features_toy(values, drawn, view, link)


def _features_toy(values: Mapping[str, Any], drawn: Drawn, view: Any, link: str | None) -> Built:
    name, kernel = values["ft_data"], values["ft_kernel"]
    parameter = float(values["ft_sigma"] if kernel == "rbf" else values["ft_pdegree"])
    rows: Rows = []
    given = name == view.DRAWN
    if not given:
        rows += [
            ("N_POINTS", int(values["ft_points"]), "number of points"),
            ("SEED", int(values["ft_seed"]), "seeds the points"),
        ]
    rows.append(("KERNEL", kernel, "'rbf' (Gaussian) or 'poly' ((x·y + 1)^d)"))
    if kernel == "rbf":
        rows.append(("SIGMA", parameter, "the Gaussian's width σ"))
    else:
        rows.append(("DEGREE", int(parameter), "the polynomial's degree d"))
    rows.append(("N_COMPONENTS", int(values["ft_k"]), "kernel components the classifier sees"))
    if given:
        points = drawn if drawn is not None else drawing.decode(values.get("ft_draw"))[0]
        if not isinstance(points, drawing.Drawing):
            raise ValueError("the Features toy takes a drawing")
        if len(points) < 3:
            raise ValueError("a drawing needs at least 3 points")
        data = "\n".join(
            [
                "# Your drawing's points (x, y) and their groups (the classes), as in the app",
                f"POINTS = {_rows(points.X)}",
                f"GROUPS = {_literal(points.groups.tolist())}",
                f"HALF_WIDTH = {points.half_width!r}  # the canvas: the square [−h, h]²",
                "X, labels = np.array(POINTS, dtype=float), np.array(GROUPS)",
                "classes = np.unique(labels)",
                'groups = {"class_names": [f"group {g}" for g in classes],',
                '          "colours": [style.GROUPS[g - 1] for g in classes]}',
            ]
        )
        what, grid_arg = f"your drawing ({len(points)} points)", ", half_width=HALF_WIDTH"
    else:
        title = view.TOY_SETS[name]
        data = f"X, labels = datasets.{name}(N_POINTS, random_state=SEED)  # {title}\ngroups = {{}}"
        what = f"{title}, {int(values['ft_points'])} points, seed {int(values['ft_seed'])}"
        grid_arg = ""
    rbf = kernel == "rbf"
    return "features_toy", {
        "what": what,
        "link": link,
        "rows": rows,
        "data": data,
        "n_max": view.TOY_N_MAX,
        "grid_arg": grid_arg,
        "label": "Gaussian, σ = {SIGMA:g}" if rbf else "polynomial, d = {DEGREE:g}",
        "params": 'params = {"gamma": sigma_to_gamma(SIGMA)}'
        if rbf
        else 'params = {"degree": int(DEGREE), "gamma": 1.0, "coef0": 1.0}',
    }


def _table2(values: Mapping[str, Any], view: Any, link: str | None) -> Built:
    from kpca_core import features

    degree, n = int(values["ft_degree"]), int(values["ft_n"])
    rows = [
        ("DEGREE", degree, f"the chosen cell's degree d, one of {features.TABLE2_DEGREES}"),
        ("N", n, f"its number of components n, one of {features.TABLE2_N}"),
        ("RECOMPUTE", False, "True: recompute this cell from scratch (USPS, about a minute)"),
    ]
    return "features_table2", {
        "degree": degree,
        "n": n,
        "link": link,
        "rows": rows,
        "table": _text_block(view.TABLE_PATH.read_text(encoding="utf-8")),
        "protocol": f"{view.TABLE2_TEXT}\n\n{view.PROTOCOL.strip()}",
    }


_BUILDERS: dict[str, Callable[[Mapping[str, Any], Drawn], Built]] = {
    "contours": _contours,
    "spectrum": _spectrum,
    "denoising": _denoising,
    "features": _features,
    "demo": _demo,
}
