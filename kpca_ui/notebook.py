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
a code cell, two blank lines between Markdown cells), each writing its own settings cell
from the view's values.  This module gives the templates those values and what only Python
computes (a sweep's columns, a drawing's points, a link).  The code cells import
only ``kpca_core``, NumPy, SciPy, scikit-learn and Plotly: never Streamlit, never
``kpca_ui``.  :func:`script` writes the same notebook as a plain script (jupytext's percent
format).  ``tests/test_notebooks.py`` runs every view's default, preset and gallery notebook
in a real kernel and checks that its figures carry the app's data.
"""

from __future__ import annotations

import json
import re
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


def _settings(rows: str) -> str:
    """The settings cell around its ``rows`` (``NAME = value  # what it is``), a template's
    ``{% filter settings %}`` block."""
    head = "# The view's settings as you left them: change one, then run the cells below again."
    return f"```python\n{head}\n{rows.strip()}\n```"


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
_TEMPLATES.filters.update(settings=_settings, lit=_literal, bool=bool)
_TEMPLATES.globals.update(
    title=_title,
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


# ---------------------------------------------------------------- 2-D data


def _points(prefix: str, settings: Any, values: Mapping[str, Any], drawn: Drawn) -> dict[str, Any]:
    """What the templates are given of the 2-D data of a view with the data picker (prefix
    ``ct``, ``sp``): ``toy`` (a toy set's size, noise, seed and title) or ``given`` (a drawing's
    or an upload's points, groups and title), ``what`` (the data in words) and ``kind``
    (``"drawn"``, ``"upload"`` or the toy set's name)."""
    name = values[f"{prefix}_data"]
    if name in (DRAW, UPLOAD):
        X, labels, title, kind = _given_points(values.get(f"{prefix}_draw"), drawn, name)
        what = "your drawing" if kind == "drawn" else "your uploaded points"
        groups = None if labels is None else np.asarray(labels).tolist()
        return {
            "toy": None,
            "given": {"rows": _rows(X), "groups": groups, "title": title},
            "what": f"{what} ({len(X)} points, inline below)",
            "kind": kind,
        }
    if name not in settings[f"{prefix}_data"].names:
        raise ValueError(f"no data set {name!r} here")
    n, noise, seed = (values[f"{prefix}_{k}"] for k in ("n", "noise", "seed"))
    label = settings[f"{prefix}_data"].name(name)
    return {
        "toy": {"n": int(n), "noise": float(noise), "seed": int(seed), "label": label},
        "what": f"{label}, {int(n)} points, noise {float(noise):g}, seed {int(seed)}",
        "kind": name,
    }


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


# ---------------------------------------------------------------- the views
# Each gives its template's name and what the template is given: the view's values ``v``
# (every setting), and what only Python can compute.

Built = tuple[str, dict[str, Any]]


def _contours(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_ui.views import contours as view
    from kpca_ui.views import contours_grid, rings

    values = view.SETTINGS.complete(values)
    chosen = view.columns(values)  # ValueError for values the sweep cannot use
    points = _points("ct", view.SETTINGS, values, drawn)
    parameter = chosen.parameter
    # the columns' headings as the page writes them (only their kernels are needed)
    heads = [SimpleNamespace(fit=SimpleNamespace(spec=column)) for column in chosen.specs]
    labels = contours_grid.column_labels(SimpleNamespace(parameter=parameter, columns=heads))
    pi, pj = (int(values[k]) for k in ("ct_pi", "ct_pj"))
    pi, pj = (k if 1 <= k <= chosen.n_components else d for k, d in ((pi, 1), (pj, 2)))
    columns = ", ".join(labels)
    shown = SimpleNamespace(key=("toy", points["kind"]))  # what the view's rules read of points
    classic = contours_grid.classic_of(shown, chosen)
    return "contours", {
        **points,
        "v": values,
        "chosen": chosen,
        "swept": [int(v) if parameter == "degree" else float(v) for v in chosen.values],
        "projection": labels.index(values["ct_pcol"]) if values["ct_pcol"] in labels[:-1] else None,
        "pc": (pi, min(pj, chosen.n_components)),
        "columns": columns,
        "state": f"{columns} on {points['what']}",
        "link": _link(view.SETTINGS, values),
        "caption": classic and contours_grid.caption(classic),
        "fig5": rings.has_dk_width(shown, chosen.spec, chosen.parameter, chosen.values),
        "rings": rings,
        "MAX_COLUMNS": ct.MAX_COLUMNS,
    }


def _spectrum(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_core.figures.spectrum import MAPS_PX, PANEL_PX
    from kpca_ui.views import spectrum as view

    values = view.SETTINGS.complete(values)
    chosen = view.choice_of(values)
    points = _points("sp", view.SETTINGS, values, drawn)
    return "spectrum", {
        **points,
        "v": values,
        "chosen": chosen,
        "link": _link(view.SETTINGS, values),
        "dk": points["kind"] == "three_rings" and chosen.kernel == "rbf",
        "PANEL_PX": PANEL_PX,
        "MAPS_PX": MAPS_PX,
    }


# ---------------------------------------------------------------- Denoising

_TABS = {
    "Fig. 4 grid": "dn_fig4",
    "Side by side": "dn_side_by_side",
    "Error vs n": "dn_error",
    "2-D toy": "dn_toy",
    "Demo": "dn_demo",
    "Table 1": "dn_table1",
    "Fig. 3": "dn_fig3",
    "Pre-images": "dn_preimages",
    "Write a digit": "dn_pad",
}
"""The template of each of the Denoising view's tabs (``_denoising.md`` its start)."""


def _denoising(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_ui.views import denoising as view
    from kpca_ui.views import denoising_preimages
    from kpca_ui.views.denoising import DEMO_LEVELS, PRE_POINTS, PRE_SETS, experiment

    given = dict(values)
    values = view.SETTINGS.complete(values)
    tab = values["dn_tab"]
    if tab not in _TABS:
        raise ValueError(f"no notebook for the Denoising tab {tab!r}")
    context = {
        "v": values,
        "given": given,
        "s": experiment(values),
        "link": _link(view.SETTINGS, values),
        "DEMO_LEVELS": DEMO_LEVELS,
        "more": denoising_preimages,
        "PRE_SETS": PRE_SETS,
        "PRE_POINTS": PRE_POINTS,
        "gaussians_table": gaussians_table,
    }
    if tab == "Write a digit":
        n = given.get("dn_n")
        context |= _written("noise", "fig", _writing(values.get("dn_pad"), drawn))
        context["n"] = (int(n), int(n)) if n else (DEMO_N["linear"], DEMO_N["kernel"])
    return _TABS[tab], context


def _writing(code: str | None, drawn: Drawn) -> handwriting.Handwriting:
    writing = drawn if isinstance(drawn, handwriting.Handwriting) else handwriting.decode(code)[0]
    if not len(writing):
        raise ValueError(handwriting.EMPTY)
    return writing


def _written(noise: str, name: str, writing: handwriting.Handwriting | None) -> dict[str, Any]:
    """What ``_written.md`` is given: ``writing`` (encoded) with ``noise`` on it, in the figure
    ``name``."""
    from kpca_ui.views.demo import FIGURE_PX as DEMO_PX
    from kpca_ui.views.demo import PAD_TITLES

    return {
        "writing": None if writing is None else handwriting.encode(writing),
        "pad_noise": noise,
        "pad_fig": name,
        "PAD_TITLES": PAD_TITLES,
        "DEMO_PX": DEMO_PX,
    }


# ---------------------------------------------------------------- Demo


def _demo(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_ui.views import demo as view
    from kpca_ui.views.denoising import DEMO_LEVELS

    written = bool(values.get("dm_pad") or isinstance(drawn, handwriting.Handwriting))
    writing = _writing(values.get("dm_pad"), drawn) if written else None
    return "demo", {
        "v": values,
        "preset": next(iter(PRESETS.values())),
        "levels": [v for v in DEMO_LEVELS.values() if v > 0],
        "view": view,
        "written": written,
        "TITLES": view.TITLES,
        "NOISE_GONE": view.NOISE_GONE,
        **_written('Noise("gaussian", cases.level)', "fig_written", writing),
    }


# ---------------------------------------------------------------- Features


def _features(values: Mapping[str, Any], drawn: Drawn) -> Built:
    from kpca_core import features
    from kpca_ui.views import features as view

    values = view.SETTINGS.complete(values)
    context = {"v": values, "link": _link(view.SETTINGS, values), "view": view}
    if values["ft_tab"] == view.TABS[1]:
        return "features_table2", {
            **context,
            "features": features,
            "table": _text_block(view.TABLE_PATH.read_text(encoding="utf-8")),
            "protocol": f"{view.TABLE2_TEXT}\n\n{view.PROTOCOL.strip()}",
        }
    if values["ft_data"] != view.DRAWN:
        return "features_toy", {**context, "points": None}
    points = drawn if drawn is not None else drawing.decode(values.get("ft_draw"))[0]
    if not isinstance(points, drawing.Drawing):
        raise ValueError("the Features toy takes a drawing")
    if len(points) < 3:
        raise ValueError("a drawing needs at least 3 points")
    return "features_toy", {**context, "points": points, "rows": _rows(points.X)}


_BUILDERS: dict[str, Callable[[Mapping[str, Any], Drawn], Built]] = {
    "contours": _contours,
    "spectrum": _spectrum,
    "denoising": _denoising,
    "features": _features,
    "demo": _demo,
}
