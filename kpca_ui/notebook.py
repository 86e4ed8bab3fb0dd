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

The code cells are generated from the values (their ``repr``), and import only
``kpca_core``, NumPy, SciPy, scikit-learn and Plotly: never Streamlit, never ``kpca_ui``.
:func:`script` writes the same notebook as a plain script (jupytext's percent format).
``tests/test_notebooks.py`` runs every view's default, preset and gallery notebook in a
real kernel and checks that its figures carry the app's data.
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

import nbformat
import numpy as np

from kpca_core import contours as ct
from kpca_core import denoise, drawing, gaussians_table, handwriting
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
    cells = _BUILDERS[view](values, drawing)
    return nbformat.v4.new_notebook(cells=cells, metadata=METADATA)


def script(nb: nbformat.NotebookNode) -> str:
    """The notebook ``nb`` as a plain Python script, in jupytext's percent format."""
    import jupytext  # only when asked for: 0.2 s of imports the app's pages do not need

    return jupytext.writes(nb, fmt="py:percent")


# ---------------------------------------------------------------------- cells


def _md(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(textwrap.dedent(text).strip())


def _code(template: str, **fields: Any) -> nbformat.NotebookNode:
    """A code cell: ``template`` dedented, then its ``{fields}`` put in (``{{`` for a brace)."""
    return nbformat.v4.new_code_cell(textwrap.dedent(template).strip().format(**fields))


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


def _settings(*rows: tuple[str, Any, str]) -> nbformat.NotebookNode:
    """The settings cell: ``NAME = value  # what it is`` per row."""
    lines = ["# The view's settings as you left them: change one, then run the cells below again."]
    for name, value, comment in rows:
        lines.append(f"{name} = {_literal(value)}" + (f"  # {comment}" if comment else ""))
    return nbformat.v4.new_code_cell("\n".join(lines))


def _title(view: str, state: str, what: str, link: str | None = None) -> nbformat.NotebookNode:
    where = f" In the app: `{link}`." if link else ""
    return _md(
        f"""
        # Kernel PCA Explorer, {view}: {state}

        This notebook reproduces the **{view}** view as you left it: {what}.{where}
        It loads the same data, fits kernel PCA with the same `kpca_core` functions and draws
        the same figure with the same builder. {REQUIREMENTS}

        Run it from the top; then change a setting in the next cell and run it again.
        """
    )


def _explained(name: str, heading: str = "What to look at") -> nbformat.NotebookNode:
    """The app's explanation of figure ``name``: its words, then its equations."""
    entry = EXPLANATIONS[name]
    parts = [f"**{heading}.** {entry.words}"] if entry.words else []
    parts.append(f"**The maths.** {entry.source}")
    parts += [f"$$ {latex} $$\n\n{says}" for latex, says in entry.maths]
    return nbformat.v4.new_markdown_cell("\n\n".join(parts))


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


# ---------------------------------------------------------------- Contours


def _contours(values: Mapping[str, Any], drawn: Drawn) -> list:
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
    columns = ", ".join(labels)
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
    ]
    shown = values["ct_pcol"]
    column = labels.index(shown) if shown in labels[:-1] else None  # None: the last
    pi, pj = (int(values[k]) for k in ("ct_pi", "ct_pj"))
    pi, pj = (k if 1 <= k <= chosen.n_components else d for k, d in ((pi, 1), (pj, 2)))
    pj = min(pj, chosen.n_components)
    rows += [
        ("PROJECTION_COLUMN", column, "the column placing the points below (None: the last)"),
        ("PC_X", pi, "horizontal: kPC number"),
        ("PC_Y", pj, "vertical: kPC number"),
    ]
    state = f"{columns} on {what}"
    cells = [
        _title("Contours", columns, state, _link(view.SETTINGS, values)),
        _md(
            """
            ## Settings

            The kernels are those of Schölkopf, Smola & Müller (1998): the polynomial
            (γ x·y + c)^d (eq. 22 for γ = 1, c = 0), the Gaussian exp(−‖x − y‖²/(2σ²))
            (eq. 62), the sigmoid tanh(γ x·y + c) (eq. 63), and the Laplacian exp(−‖x − y‖₁/σ).
            """
        ),
        _settings(*rows),
        _code(
            """
            import numpy as np

            from kpca_core import KernelPCA, datasets
            from kpca_core import contours as ct
            from kpca_core.figures import contours as figures
            """
        ),
        _md("## The data\n\nThe same points as in the app: the same generator and seed."),
        nbformat.v4.new_code_cell(data),
        _md(
            """
            ## Kernel PCA, one column per kernel

            For each column: the kernel matrix K of the M points (eq. 10), centred in
            feature space (eq. 49), its eigenvectors α (eq. 12: Mλα = K̃α), normalised so
            that each axis V has length 1 in feature space (eqs. 16, 50); then every point t
            of a grid over the plane gets its components (V^k·Φ(t)) = Σᵢ αᵢ^k k̃(xᵢ, t)
            (eqs. 17, 51, with the test points centred by eq. 54).
            """
        ),
        _code(
            """
            base = ct.KernelSpec(KERNEL, degree=DEGREE, gamma=GAMMA, coef0=COEF0, sigma=SIGMA)
            specs = [spec.used() for spec in ct.sweep_specs(base, SWEEP, tuple(VALUES))]
            if ADD_LINEAR_PCA:
                specs.insert(0, ct.KernelSpec("pca"))
            sweep = ct.contour_sweep(
                X,
                specs,
                n_components=N_COMPONENTS,
                center=CENTER,
                parameter=SWEEP,
                labels=labels,
                resolution=RESOLUTION,
            )
            for c, column in enumerate(sweep.columns):
                eigenvalues = np.round(column.fit.eigenvalues, 5).tolist()
                print(f"{{sweep.column_label(c)}}: λ = {{eigenvalues}}", column.error or "")
            """
        ),
        _md(
            """
            ### Inside one column: `kpca_core.KernelPCA`

            The last column again, fitted by hand with the engine's estimator: its
            `eigenvalues_` are the λ of eq. (12) in the titles below, and `transform` of a
            point is eq. (51).
            """
        ),
        _code(
            """
            spec = specs[-1]
            if spec.kernel != "pca" and sweep.columns[-1].error is None:
                model = KernelPCA(
                    N_COMPONENTS,
                    kernel=spec.kernel,
                    gamma=spec.engine_gamma,
                    degree=spec.degree,
                    coef0=spec.coef0,
                    center=CENTER,
                    random_state=0,
                    remove_zero_eig=True,
                ).fit(X)
                print("λ:", model.eigenvalues_)
                print("kPCs of the first point (eq. 51):", model.transform(X[:1])[0])
            """
        ),
        _md("## The figure\n\nThe app's grid, drawn by the same builder."),
        _code(
            """
            fig = figures.contour_figure(sweep, title=title)
            fig.show()
            """
        ),
        _explained("ct_contours"),
    ]
    caption = _contours_caption(values, chosen, kind, rings)
    if caption:
        cells.append(_md(caption))
    cells += [
        _md("## The data in kernel principal components"),
        _code(
            """
            last = len(sweep.columns) - 1
            column = last if PROJECTION_COLUMN is None else min(PROJECTION_COLUMN, last)
            i, j = min(PC_X, N_COMPONENTS), min(PC_Y, N_COMPONENTS)
            fig_projection = figures.projection_figure(sweep, column, i, j, width_px={width})
            fig_projection.show()
            """,
            width=FIGURE_PX,
        ),
        _explained("ct_projection"),
    ]
    if kind == "three_rings" and _has_dk_width(chosen, rings.DK_SIGMA):
        cells += _fig5_cells(rings)
    return cells


def _has_dk_width(chosen: Any, dk_sigma: float) -> bool:
    sigmas = chosen.values if chosen.parameter == "sigma" else (chosen.spec.sigma,)
    return chosen.spec.kernel == "rbf" and any(
        math.isclose(s, dk_sigma, rel_tol=1e-3) for s in sigmas
    )


def _contours_caption(values: Mapping[str, Any], chosen: Any, kind: str, rings: Any) -> str | None:
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


def _fig5_cells(rings: Any) -> list:
    return [
        _md(
            f"""
            ## Deręgowski & Krzyśko, Fig. 5: centred and not centred

            k(x, y) = exp(−c‖x − y‖²) with their c = {rings.DK_GAMMA} (σ = {rings.DK_SIGMA:g}).
            They write that the first kernel principal direction orders the points by their
            distance from the origin. Whether it does depends on centring in feature space
            (eq. 49), which the paper never mentions.

            {rings.WHY_CENTRING}
            """
        ),
        _code(
            """
            from kpca_core.figures import rings as ring_figures
            from kpca_core.rings import DK_GAMMA, fig5_readings

            readings = fig5_readings(X, gamma=DK_GAMMA)
            for reading in readings:
                print("centred" if reading.center else "not centred", end=": ")
                print(f"the radius is kPC {{reading.radius_component}}", reading.correlations)
            fig5 = ring_figures.fig5_figure(
                readings, labels, group_names={names}, gamma=DK_GAMMA, width_px={width}
            )
            fig5.show()
            """,
            names=_literal(rings.RING_NAMES),
            width=FIGURE_PX,
        ),
    ]


# ---------------------------------------------------------------- Spectrum


def _spectrum(values: Mapping[str, Any], drawn: Drawn) -> list:
    from kpca_ui.views import spectrum as view

    values = view.SETTINGS.complete(values)
    chosen = view.choice_of(values)
    names = tuple(view.SETTINGS["sp_data"].names)
    rows, data, what, kind = _points("sp", view.SETTINGS, values, drawn, names)
    degree_sweep = chosen.kernel == "degree"
    if degree_sweep:
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
    dk = kind == "three_rings" and chosen.kernel == "rbf"
    cells = [
        _title(
            "Spectrum",
            f"sweeping {swept}",
            f"{swept} swept on {what}",
            _link(view.SETTINGS, values),
        ),
        _md(
            """
            ## Settings

            The spectrum of the centred kernel matrix (eqs. 12, 49 of Schölkopf, Smola &
            Müller 1998) at every width of a range.
            """
        ),
        _settings(*rows),
        _code(
            """
            import numpy as np

            from kpca_core import datasets
            from kpca_core.figures import spectrum as figures
            from kpca_core.spectrum import WidthSweep
            """
        ),
        _md("## The data\n\nThe same points as in the app: the same generator and seed."),
        nbformat.v4.new_code_cell(data),
        _md(
            """
            ## The sweep

            At each width: the kernel matrix K (eq. 10), centred (eq. 49), and all its
            eigenvalues Mλ (eq. 12); each λ_k / Σλ is the share of the variance in feature
            space that component k carries.
            """
        ),
        _code(
            """
            sweep = WidthSweep(KERNEL, {sweep_code}).fit(X)
            if sweep.sweep == "degree":
                default = min(2, sweep.widths_.size - 1)
            else:
                default = int(np.argmin(np.abs(np.log(sweep.widths_ / sweep.scale_))))
            for digits in (3, 6, 12):  # the widths as the app's slider writes them
                names = [f"{{width:.{{digits}}g}}" for width in sweep.widths_]
                if len(set(names)) == len(names):
                    break
            index = names.index(CHOSEN) if CHOSEN in names else default
            print("data scale:", sweep.scale_, "| chosen:", sweep.widths_[index])
            print("the first shares there:", np.round(sweep.ratios_[index, :N_LEADING], 4))
            """,
            sweep_code=sweep_code,
        ),
    ]
    marks = "[(gamma_to_sigma(DK_GAMMA), 'D&K c = 0.017')]" if dk else "[]"
    cells += [
        _md(
            "## The figures\n\nThe shares as the width varies, the dashed line at the chosen width."
        ),
        _code(
            """
            {imports}marks = {marks}
            fig_lines = figures.ratio_lines_figure(
                sweep, n_leading=N_LEADING, chosen=index, marks=marks, width_px={panel}
            )
            fig_lines.show()
            """,
            imports=(
                "from kpca_core import gamma_to_sigma\nfrom kpca_core.rings import DK_GAMMA\n\n"
                if dk
                else ""
            ),
            marks=marks,
            panel=_spectrum_panel_px(),
        ),
        _explained("sp_lines"),
        _code(
            """
            fig_components = figures.effective_components_figure(sweep, chosen=index)
            fig_components.show()
            """
        ),
        _explained("sp_components"),
        _code(
            """
            fig_heatmap = figures.spectrum_heatmap_figure(sweep, chosen=index)
            fig_heatmap.show()
            """
        ),
        _explained("sp_heatmap"),
        _md("## At the chosen width"),
        _code(
            """
            fig_bars = figures.spectrum_bars_figure(sweep, index, log=LOG_BARS)
            fig_bars.show()
            """
        ),
        _explained("sp_bars"),
        _md(
            """
            The components themselves at the chosen width: a full kernel PCA fit there
            (eqs. 10–17), on 2-D data the plane coloured by each component's value.
            """
        ),
        _code(
            """
            if sweep.regime_[index] == "constant":
                print("Every entry of K rounds to the same number here: choose a narrower width.")
            else:
                fig_maps = figures.components_at_figure(sweep, index, labels, width_px={maps})
                fig_maps.show()
            """,
            maps=_spectrum_maps_px(),
        ),
        _explained("sp_maps"),
    ]
    if dk:
        cells += [
            _md(
                """
                ## Deręgowski & Krzyśko: centred or not

                They report a maximum of (λ₁+λ₂)/Σλ at c = 0.017; here the share with the
                kernel centred in feature space (eq. 49) beside the share without centring
                (K itself, their eq. 3.7), at every width.
                """
            ),
            _code(
                """
                uncentred = WidthSweep(KERNEL, {sweep_code}, center=False).leading_shares(X)
                fig_centring = figures.centring_share_figure(sweep, uncentred, marks=marks)
                fig_centring.show()
                """,
                sweep_code=sweep_code,
            ),
        ]
    if values["sp_film"]:
        cells += [
            _code(
                """
                fig_film = figures.spectrum_film_figure(sweep)  # press play
                fig_film.show()
                """
            ),
            _explained("sp_film"),
        ]
    return cells


def _spectrum_panel_px() -> int:
    from kpca_core.figures.spectrum import PANEL_PX

    return PANEL_PX


def _spectrum_maps_px() -> int:
    from kpca_core.figures.spectrum import MAPS_PX

    return MAPS_PX


# ---------------------------------------------------------------- Denoising

_DIGITS_IMPORTS = """
import numpy as np

from kpca_core import denoise, usps
from kpca_core.denoise import DigitDenoiser, ImageGrid, Noise
from kpca_core.figures import denoise as figures
"""
_DIGITS_DATA = """
## The digits

USPS's 16 × 16 handwritten digits, read by `kpca_core`'s loader: from the folder in
`KPCA_USPS_DIR` if set, else downloaded once (else scikit-learn's 8 × 8 digits, and every
title says so). Then the training and test digits drawn per class with the seed, as
Mika et al. (1999), Sect. 4, do.
"""
_FIT = """
## Fit linear and kernel PCA

Both on the same training digits: linear PCA, and kernel PCA with the Gaussian kernel
k(x, y) = exp(−‖x − y‖² / (N c)), N the number of pixels (Mika et al. Sect. 4): the kernel
matrix (SSM eq. 10), centred if asked (SSM eq. 49), its eigenvectors (SSM eq. 12). Then
noise on the test digits, drawn with the seed after the digits'.
"""


def _experiment_rows(values: Mapping[str, Any]) -> list[tuple[str, Any, str]]:
    from kpca_ui.views.denoising import experiment

    s = experiment(values)
    noise: denoise.Noise = s["noise"]
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


def _digits_cells() -> list:
    """Load the digits, draw the subsets, fit both models, add the test noise."""
    return [
        _md(_DIGITS_DATA),
        _code(
            """
            train, test = usps.load_digit_pair()
            digits = denoise.sample_digits(
                (train.images, train.labels),
                (test.images, test.labels),
                TRAIN_PER_CLASS,
                TEST_PER_CLASS,
                side=train.side,
                source=train.source,
                random_state=SEED,
            )
            print(f"{{digits.source}}: {{len(digits.X_train)}} training and "
                  f"{{len(digits.X_test)}} test digits, {{digits.side}} × {{digits.side}} pixels")
            """
        ),
        _md(_FIT),
        _code(
            """
            noise = Noise(NOISE_KIND, NOISE_LEVEL)
            X_train = noise.apply(digits.X_train, SEED + 2) if TRAIN_NOISY else digits.X_train
            model = DigitDenoiser(C, center=CENTER).fit(X_train)
            noisy = noise.apply(digits.X_test, SEED + 1)
            print(f"linear PCA: {{model.n_linear_max_}} components, "
                  f"kernel PCA: {{model.n_kernel_max_}}")
            """
        ),
    ]


def _denoising(values: Mapping[str, Any], drawn: Drawn) -> list:
    from kpca_ui.views import denoising as view

    given = dict(values)
    values = view.SETTINGS.complete(values)
    tab = values["dn_tab"]
    if tab not in _TABS:
        raise ValueError(f"no notebook for the Denoising tab {tab!r}")
    link = _link(view.SETTINGS, values)
    return _TABS[tab](values, given, drawn, link)


def _state(values: Mapping[str, Any]) -> str:
    from kpca_ui.views.denoising import experiment

    s = experiment(values)
    return (
        f"{s['n_train']} training digits per class, width c = {s['c']:g}, {s['noise'].describe()}"
    )


def _fig4(values: Mapping[str, Any], given: Mapping, drawn: Drawn, link: str | None) -> list:
    return [
        _title("Denoising", "Fig. 4 grid", f"the tab “Fig. 4 grid”, {_state(values)}", link),
        _settings(*_experiment_rows(values)),
        _code(_DIGITS_IMPORTS),
        *_digits_cells(),
        _md(
            """
            ## Fig. 4: one digit of each class, cleaned from n = 1 … 256 components

            Linear PCA projects onto the first n axes; kernel PCA projects Φ(x) onto the
            first n axes in feature space (eq. 4) and looks for the pre-image z whose image
            comes closest (eq. 5), by the fixed-point iteration (eq. 10).
            """
        ),
        _code(
            """
            grid = denoise.fig4_grid(
                model,
                digits.X_test,
                noisy,
                digits.y_test,
                n_values=denoise.FIG4_N,
                side=digits.side,
                method=METHOD,
                ridge_alpha=RIDGE_ALPHA,
            )
            title = f"{{digits.source}}: {{noise.describe()}}"
            fig = figures.fig4_figure(grid, title=title, width_px={width})
            fig.show()
            """,
            width=NARROW_PX,
        ),
        _explained("dn_fig4"),
    ]


def _side_by_side(
    values: Mapping[str, Any], given: Mapping, drawn: Drawn, link: str | None
) -> list:
    rows = [
        *_experiment_rows(values),
        ("N", int(values["dn_n"]), "components of both methods"),
        ("HOW_MANY", int(values["dn_sbs_count"]), "how many test digits"),
        ("DRAW", int(values["dn_sbs_draw"]), "which ones: another number, other digits"),
    ]
    return [
        _title("Denoising", "side by side", f"the tab “Side by side”, {_state(values)}", link),
        _settings(*rows),
        _code(_DIGITS_IMPORTS),
        *_digits_cells(),
        _md(
            """
            ## A few test digits at one n

            Clean, noisy, linear PCA's reconstruction from n components, and kernel PCA's
            pre-image (Mika et al. eqs. 4, 5, 10); under each image its squared distance to
            the clean digit.
            """
        ),
        _code(
            """
            rng = np.random.RandomState(DRAW)
            count = min(HOW_MANY, len(digits.X_test))
            pick = np.sort(rng.choice(len(digits.X_test), count, replace=False))
            grid = denoise.side_by_side(
                model,
                digits.X_test[pick],
                noisy[pick],
                digits.y_test[pick],
                N,
                side=digits.side,
                method=METHOD,
                ridge_alpha=RIDGE_ALPHA,
            )
            title = f"{{digits.source}}: {{noise.describe()}}"
            fig = figures.side_by_side_figure(grid, title=f"{{title}}, n = {{N}}", width_px={width})
            fig.show()
            errors = grid.errors
            print(f"mean squared error: noisy {{errors[1].mean():.1f}}, "
                  f"linear PCA {{errors[2].mean():.1f}}, kernel PCA {{errors[3].mean():.1f}}")
            """,
            width=NARROW_PX,
        ),
        _explained("dn_side_by_side"),
    ]


def _error_curve(values: Mapping[str, Any], given: Mapping, drawn: Drawn, link: str | None) -> list:
    rows = [
        *_experiment_rows(values),
        ("RIDGE_TOO", bool(values["dn_sweep_ridge"]), "add the learned pre-image (slower)"),
        ("CHOSEN_N", int(values["dn_n"]), "the n marked on the curves"),
    ]
    return [
        _title("Denoising", "error against n", f"the tab “Error vs n”, {_state(values)}", link),
        _settings(*rows),
        _code(_DIGITS_IMPORTS),
        *_digits_cells(),
        _md(
            """
            ## The error for every n

            The mean over the test digits of ‖z − x‖², the squared distance of the cleaned
            digit to its clean original, for linear and kernel PCA at every n.
            """
        ),
        _code(
            """
            sweep = denoise.error_sweep(
                model,
                digits.X_test,
                noisy,
                denoise.SWEEP_N,
                ridge=RIDGE_TOO,
                ridge_alpha=RIDGE_ALPHA,
            )
            title = f"{{digits.source}}: {{noise.describe()}}, {{len(digits.X_test)}} test digits"
            fig = figures.error_curve_figure(
                sweep, chosen_n=CHOSEN_N, title_prefix=title, width_px={width}
            )
            fig.show()
            print("best n: linear", sweep.linear.best_n, "kernel", sweep.kernel.best_n,
                  f"| ratio at the best n: {{sweep.ratio_at_best:.2f}}×")
            """,
            width=NARROW_PX,
        ),
        _explained("dn_error"),
    ]


def _toy(values: Mapping[str, Any], given: Mapping, drawn: Drawn, link: str | None) -> list:
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
    return [
        _title("Denoising", "the 2-D toy (Mika et al. Fig. 1)", state, link),
        _settings(*rows),
        _code(
            """
            from kpca_core import denoise
            from kpca_core.figures import denoise as figures
            """
        ),
        _md(
            """
            ## Fig. 1: a half circle and a square outline, 200 noisy points each

            Both methods are fitted on the noisy points: kernel PCA keeps N_COMPONENTS
            components and maps each point back by the fixed point (Mika et al. eq. 10);
            linear PCA keeps one component.
            """
        ),
        _code(
            """
            results = [
                denoise.toy_denoising(
                    name,
                    n_samples=200,
                    noise=NOISE,
                    c=C,
                    n_components=N_COMPONENTS,
                    random_state=SEED,
                )
                for name in ("half_circle", "square")
            ]
            fig = figures.toy_figure(results)
            fig.show()
            """
        ),
        _explained("dn_toy"),
    ]


def _demo_tab(values: Mapping[str, Any], given: Mapping, drawn: Drawn, link: str | None) -> list:
    from kpca_ui.views.denoising import DEMO_LEVELS

    level = values["dn_demo_noise"]
    rows = [
        *_experiment_rows(values),
        ("DIGIT", int(values["dn_demo_digit"]), "which digit"),
        ("DEMO_NOISE", DEMO_LEVELS[level], f"Gaussian noise σ (“{level}”)"),
        ("EXAMPLE", int(given.get("dn_demo_example", 0)), "which handwritten example of it"),
    ]
    state = f"the tab “Demo”, the digit {values['dn_demo_digit']} with {level} noise"
    return [
        _title("Denoising", "the demo", state, link),
        _settings(*rows),
        _code(_DIGITS_IMPORTS),
        *_digits_cells(),
        _md(
            f"""
            ## One digit, with noise, cleaned by both methods

            The classic method is linear PCA with {DEMO_N["linear"]} components; the kernel
            method kernel PCA with {DEMO_N["kernel"]} and the fixed-point pre-image (Mika et
            al. eq. 10): the paper's best numbers of components for Gaussian noise.
            """
        ),
        _code(
            """
            examples = np.flatnonzero(digits.y_test == DIGIT)
            index = int(examples[EXAMPLE % len(examples)])
            clean = digits.X_test[index]
            original = ImageGrid(clean[np.newaxis, np.newaxis], digits.side, ("",), ("",))
            fig_original = figures.demo_figure(original, width_px={alone})
            fig_original.show()
            grid = denoise.demo_images(
                model, clean, Noise("gaussian", DEMO_NOISE), side=digits.side, random_state=index
            )
            fig = figures.demo_figure(grid, width_px={width})
            fig.show()
            """,
            alone=NARROW_PX // 3,
            width=NARROW_PX,
        ),
        _explained("dn_demo"),
    ]


def _table1(values: Mapping[str, Any], given: Mapping, drawn: Drawn, link: str | None) -> list:
    rows = [
        ("SIGMAS", gaussians_table.SIGMAS, "the clusters' standard deviations (rows)"),
        ("N_VALUES", gaussians_table.N_VALUES, "numbers of components n (columns)"),
        ("SEEDS", gaussians_table.SEEDS, "each cell is the mean over these seeds"),
    ]
    return [
        _title("Denoising", "Table 1", "the tab “Table 1”: eleven Gaussians in R¹⁰", link),
        _settings(*rows),
        _code(
            """
            from kpca_core.figures import preimages as figures
            from kpca_core.gaussians_table import gaussians_table
            """
        ),
        _md(
            """
            ## Mika et al. Table 1

            Eleven Gaussian clusters in R¹⁰ (100 training and 33 test points each), de-noised
            from the first n components (eqs. 4, 10). Each cell: the mean squared distance of
            the de-noised test points to their centre, linear PCA over kernel PCA.
            """
        ),
        _code(
            """
            table = gaussians_table(SIGMAS, N_VALUES, SEEDS)
            fig = figures.table1_figure(table, ranges=True, width_px={width})
            fig.show()
            """,
            width=NARROW_PX,
        ),
        _explained("dn_table1"),
    ]


def _fig3(values: Mapping[str, Any], given: Mapping, drawn: Drawn, link: str | None) -> list:
    rows = [
        *_experiment_rows(values),
        ("TEST_DIGIT", int(values["dn_fig3_digit"]), "which test digit (0 = the first)"),
        (
            "START",
            values["dn_fig3_start"],
            "start eq. (10) at the 'mean' digit or the 'digit' itself",
        ),
    ]
    state = f"the tab “Fig. 3”, test digit {values['dn_fig3_digit']}, {_state(values)}"
    return [
        _title("Denoising", "Fig. 3", state, link),
        _settings(*rows),
        _code(
            _DIGITS_IMPORTS + "from kpca_core import preimage_compare as compare\n"
            "from kpca_core.figures import preimages"
        ),
        *_digits_cells(),
        _md(
            """
            ## Fig. 3: one digit rebuilt without noise from n = 1 … 20 components

            Linear PCA projects onto the first n axes; kernel PCA iterates eq. (10).
            """
        ),
        _code(
            """
            index = min(TEST_DIGIT, len(digits.X_test) - 1)
            label = digits.y_test[index]
            recon = compare.reconstruction_series(
                model,
                digits.X_test[index],
                side=digits.side,
                start=START,
                label=str(label),
                random_state=SEED,
            )
            title = f"{{digits.source}}: test digit {{index}} (a {{label}}) rebuilt without noise"
            fig = preimages.fig3_figure(recon, title=title, width_px={width})
            fig.show()
            """,
            width=NARROW_PX,
        ),
        _explained("dn_fig3"),
    ]


def _preimages(values: Mapping[str, Any], given: Mapping, drawn: Drawn, link: str | None) -> list:
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
    return [
        _title("Denoising", "pre-images", f"the tab “Pre-images”, {_state(values)}", link),
        _settings(*rows),
        _code(
            _DIGITS_IMPORTS + "from kpca_core import preimage_compare as compare\n"
            "from kpca_core.figures import preimages"
        ),
        *_digits_cells(),
        _md(
            """
            ## Four ways to the pre-image, on the same noisy digits

            The fixed point (Mika et al. eq. 10), distance constraints and multidimensional
            scaling (Kwok & Tsang 2004), gradient descent on ρ(z) (eq. 7) and a learned
            kernel ridge map (Bakır et al. 2004). The times depend on the machine.
            """
        ),
        _code(
            """
            n_test = len(digits.X_test)
            rows = np.unique(np.linspace(0, n_test - 1, min(N_DIGITS, n_test)).astype(int))
            options = {{"ridge": {{"alpha": RIDGE_ALPHA}}}}
            comparison = compare.compare_methods(
                model, digits.X_test[rows], noisy[rows], DIGIT_N, options=options
            )
            title = f"{{digits.source}}: {{comparison.n_points}} digits, {{noise.describe()}}"
            fig = preimages.comparison_figure(comparison, title=title)
            fig.show()
            """
        ),
        _explained("dn_methods"),
        _md("## The same methods in the 2-D toy"),
        _code(
            """
            toy_comparison = compare.toy_comparison(
                TOY_SET, noise=TOY_NOISE, c=TOY_C, random_state=TOY_SEED
            )
            fig_toy = preimages.comparison_figure(
                toy_comparison, title=f"{toy_title} (noise {{TOY_NOISE:g}})"
            )
            fig_toy.show()
            """,
            toy_title=toy_title,
        ),
        _md("## The fixed point, step by step"),
        _code(
            """
            toy, paths = compare.toy_paths(
                TOY_SET, n_components=TOY_N, random_state=TOY_SEED, noise=TOY_NOISE, c=TOY_C
            )
            fig_fixed_point = preimages.fixed_point_animation(paths, toy.noisy, selected=POINT)
            fig_fixed_point.show()  # press play
            """
        ),
        _explained("dn_fixed_point"),
    ]


def _pad(values: Mapping[str, Any], given: Mapping, drawn: Drawn, link: str | None) -> list:
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
    return [
        _title("Denoising", "your digit", f"the tab “Write a digit”, {_state(values)}", link),
        _settings(*rows),
        _code(
            _DIGITS_IMPORTS
            + "from kpca_core import handwriting\nfrom kpca_core.demo import Verdict"
        ),
        *_digits_cells(),
        *_written_cells("noise"),
        _explained("dn_demo"),
    ]


def _writing(code: str | None, drawn: Drawn) -> handwriting.Handwriting:
    writing = drawn if isinstance(drawn, handwriting.Handwriting) else handwriting.decode(code)[0]
    if not len(writing):
        raise ValueError(handwriting.EMPTY)
    return writing


def _written_cells(noise: str, name: str = "fig") -> list:
    """Your digit as a USPS-like image, with ``noise`` on it, cleaned by both methods, in the
    figure ``name``."""
    from kpca_ui.views.demo import FIGURE_PX, PAD_TITLES

    return [
        _md(
            """
            ## Your digit

            The strokes drawn with a round pen, scaled and centred in the box like a USPS
            digit; then the noise, and both methods' reconstructions.
            """
        ),
        _code(
            """
            writing, notes = handwriting.decode(WRITING)
            clean = handwriting.to_digit(writing, digits.side)
            grid = denoise.demo_images(
                model, clean, {noise}, side=digits.side, random_state=NOISE_SEED,
                n_linear=N_LINEAR, n_kernel=N_KERNEL,
            )
            images = np.concatenate([clean.reshape(1, 1, -1), grid.images], axis=1)
            written = ImageGrid(images, digits.side, ("",), {titles})
            verdict = Verdict.of(clean, *grid.images[0])
            {name} = figures.demo_figure(written, width_px={width}, height_px={height})
            {name}.show()
            print(verdict.words())
            """,
            name=name,
            noise=noise,
            titles=_literal(PAD_TITLES),
            width=NARROW_PX,
            height=FIGURE_PX,
        ),
    ]


_TABS: dict[str, Callable[..., list]] = {
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


def _demo(values: Mapping[str, Any], drawn: Drawn) -> list:
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
    written = values.get("dm_pad") or isinstance(drawn, handwriting.Handwriting)
    if written:
        writing = _writing(values.get("dm_pad"), drawn)
        rows += [
            ("WRITING", handwriting.encode(writing), "your digit's strokes"),
            ("NOISE_SEED", 1000 + int(values.get("dm_pad_noise", 0)), "seeds the noise on it"),
            ("N_LINEAR", DEMO_N["linear"], "the classic method's components"),
            ("N_KERNEL", DEMO_N["kernel"], "the kernel method's components"),
        ]
    cells = [
        _title(
            "Demo",
            "can a computer clean up handwriting?",
            "the case shown" + (" and your digit" if written else ""),
            "/demo",
        ),
        _settings(*rows),
        _code(
            """
            import numpy as np

            from kpca_core import denoise, usps
            from kpca_core.demo import Verdict, in_turns, measure, most_convincing
            from kpca_core.denoise import DigitDenoiser, ImageGrid, Noise
            from kpca_core.figures import denoise as figures
            """
            + ("from kpca_core import handwriting\n" if written else "")
        ),
        _md(_DIGITS_DATA),
        _code(
            """
            train, test = usps.load_digit_pair()
            digits = denoise.sample_digits(
                (train.images, train.labels),
                (test.images, test.labels),
                TRAIN_PER_CLASS,
                TEST_PER_CLASS,
                side=train.side,
                source=train.source,
                random_state=SEED,
            )
            model = DigitDenoiser(C, center=CENTER).fit(digits.X_train)
            """
        ),
        _md(
            f"""
            ## The convincing cases, measured

            Every test digit, at each noise level, cleaned by the classic method (linear PCA,
            {DEMO_N["linear"]} components) and the kernel method (kernel PCA,
            {DEMO_N["kernel"]} components, the fixed point of Mika et al. eq. 10); the level
            whose digits cover most classes, and differ most, is chosen. The Demo shows the
            digits where the kernel method's error is at most half the classic method's
            (`cases.chosen`), or with `ANY` every test digit in turns over the classes.
            """
        ),
        _code(
            """
            cases = most_convincing(
                measure(model, digits.X_test, digits.y_test, level) for level in LEVELS
            )
            order = in_turns(digits.y_test) if ANY else cases.chosen
            index = int(order[CASE % len(order)])
            clean = digits.X_test[index]
            grid = denoise.demo_images(
                model, clean, Noise("gaussian", cases.level), side=digits.side, random_state=index
            )
            images = np.concatenate([clean.reshape(1, 1, -1), grid.images], axis=1)
            shown = ImageGrid(images, digits.side, ("",), {titles})
            verdict = Verdict.of(clean, *grid.images[0])
            fig = figures.demo_figure(shown, width_px={width}, height_px={height})
            fig.show()
            print(f"noise σ = {{cases.level:g}}:", verdict.words())
            """,
            titles=_literal(view.TITLES),
            width=NARROW_PX,
            height=view.FIGURE_PX,
        ),
        _md(view.NOISE_GONE),
    ]
    if written:
        cells += _written_cells('Noise("gaussian", cases.level)', "fig_written")
    return cells


# ---------------------------------------------------------------- Features


def _features(values: Mapping[str, Any], drawn: Drawn) -> list:
    from kpca_ui.views import features as view

    values = view.SETTINGS.complete(values)
    if values["ft_tab"] == view.TABS[1]:
        return _table2(values, view)
    return _features_toy(values, drawn, view)


def _features_toy(values: Mapping[str, Any], drawn: Drawn, view: Any) -> list:
    name, kernel = values["ft_data"], values["ft_kernel"]
    parameter = float(values["ft_sigma"] if kernel == "rbf" else values["ft_pdegree"])
    rows: list[tuple[str, Any, str]] = []
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
    label = "Gaussian, σ = {SIGMA:g}" if kernel == "rbf" else "polynomial, d = {DEGREE:g}"
    params = (
        'params = {"gamma": sigma_to_gamma(SIGMA)}'
        if kernel == "rbf"
        else 'params = {"degree": int(DEGREE), "gamma": 1.0, "coef0": 1.0}'
    )
    return [
        _title(
            "Features",
            "why it works (the toy)",
            f"a linear classifier on kernel components of {what}",
            _link(view.SETTINGS, values),
        ),
        _settings(*rows),
        _code(
            """
            import numpy as np

            from kpca_core import datasets, features, sigma_to_gamma
            from kpca_core.figures import features as figures
            from kpca_core.figures import style
            """
        ),
        _md("## The data"),
        nbformat.v4.new_code_cell(data),
        _md(
            f"""
            ## Kernel PCA, then a linear classifier

            Kernel PCA of the points (Schölkopf et al. 1998, eqs. 10, 49, 12) keeps its first
            {view.TOY_N_MAX} components; a **linear** SVM (scikit-learn's `LinearSVC`, one class
            against the rest) is trained on the first N_COMPONENTS of them (eq. 51), and the
            same SVM on x, y.
            """
        ),
        _code(
            """
            {params}
            fit = features.toy_features(X, labels, kernel=KERNEL, n_max={n_max}{grid_arg}, **params)
            result = features.toy_experiment(fit, N_COMPONENTS)
            print(
                f"correct on {{result.n_components}} kernel components: "
                f"{{result.kernel_accuracy:.1%}}, on x, y: {{result.raw_accuracy:.1%}}"
            )
            fig = figures.toy_regions_figure(
                fit, result, kernel_label=f"{label}", width_px={width}, **groups
            )
            fig.show()
            """,
            params=params,
            n_max=view.TOY_N_MAX,
            grid_arg=grid_arg,
            label=label,
            width=NARROW_PX,
        ),
        _explained("ft_toy"),
    ]


def _table2(values: Mapping[str, Any], view: Any) -> list:
    from kpca_core import features

    degree, n = int(values["ft_degree"]), int(values["ft_n"])
    rows = [
        ("DEGREE", degree, f"the chosen cell's degree d, one of {features.TABLE2_DEGREES}"),
        ("N", n, f"its number of components n, one of {features.TABLE2_N}"),
        ("RECOMPUTE", False, "True: recompute this cell from scratch (USPS, about a minute)"),
    ]
    table = view.TABLE_PATH.read_text(encoding="utf-8")
    return [
        _title(
            "Features",
            "Table 2",
            f"Table 2 of Schölkopf, Smola & Müller (1998), the cell d = {degree}, n = {n}",
            _link(view.SETTINGS, values),
        ),
        _settings(*rows),
        _code(
            """
            import numpy as np

            from kpca_core import features
            from kpca_core.figures import features as figures
            """
        ),
        _md(view.TABLE2_TEXT + "\n\n" + view.PROTOCOL),
        _md(
            """
            ## The table the app ships

            Computed by `python bench/features_usps.py` (its provenance in the `#` lines);
            inline here, exactly as the app reads it.
            """
        ),
        nbformat.v4.new_code_cell(
            f"TABLE2_CSV = {_text_block(table)}\n"
            "table = features.read_table2(TABLE2_CSV)\nprint(table.provenance)"
        ),
        _code(
            """
            live = np.zeros(table.errors.shape, bool)  # no cell recomputed here
            fig = figures.table2_figure(
                table.errors, live=live, chosen=(DEGREE, N), width_px={width}
            )
            fig.show()
            for claim in features.table2_claims(table.errors):
                verdict = "holds" if claim.holds else "holds only in part"
                print(f"{{claim.statement}} {{verdict}}: {{claim.detail}}")
            ours, paper = table.error(DEGREE, N), features.paper_error(DEGREE, N)
            print(f"d = {{DEGREE}}, n = {{N}}: {{ours:.2f}} % here, {{paper}} % in the paper")
            """,
            width=NARROW_PX,
        ),
        _explained("ft_table2"),
        _md(
            """
            ## Recompute the cell yourself

            Kernel PCA of the first 3000 USPS training digits with (x·y/256)^d (eq. 22),
            the first n components (eq. 51) of all digits, linear SVMs with C chosen on
            held-out digits: set `RECOMPUTE = True` above (it needs the USPS files).
            """
        ),
        _code(
            """
            if RECOMPUTE:
                cell = features.recompute_cell(DEGREE, N)
                print(f"test error {{cell.test_error:.2f}} %, C = {{cell.C:g}}")
                figures.confusion_figure(cell.confusion).show()
            """
        ),
    ]


_BUILDERS: dict[str, Callable[[Mapping[str, Any], Drawn], list]] = {
    "contours": _contours,
    "spectrum": _spectrum,
    "denoising": _denoising,
    "features": _features,
    "demo": _demo,
}
