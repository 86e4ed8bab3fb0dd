"""What the documentation computes when it is built (mkdocs-macros, ``mkdocs.yml``).

Two kinds of numbers appear in the pages, and neither is typed by hand:

* the benches' tables, read from ``docs/benchmarks/results/*.json``
  (written by :func:`bench.results.save`): ``{{ bench_tables() }}`` renders
  every file, ``{{ bench_table("name") }}`` one of them;
* facts of the code, as variables: the limits a lecturer meets (``limits``), those
  every route keeps against a misbehaving browser (``routes``), and a few results the
  app itself computes in well under a second (``rings``, ``table2``), recomputed with the
  app's own functions, and the engine's choices by its cost model with the benches'
  summaries (``engine``).
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "benchmarks" / "results"


def cell(value: Any) -> str:
    """One table cell: numbers to three significant figures (whole numbers as they are)."""
    if isinstance(value, bool) or value is None:
        return "—" if value is None else str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        if value == 0 or abs(value) >= 100:
            return f"{value:.0f}"
        if abs(value) < 1e-3:
            return f"{value:.1e}"
        return f"{value:.3g}"
    # a bench's "mean [min–max]" is text, not a Markdown link or cross-reference
    text = str(value).replace("|", "\\|").replace("\n", " ")
    return text.replace("[", "\\[").replace("]", "\\]")


def render(name: str, record: dict[str, Any], level: int = 3) -> str:
    """One results file as Markdown: its title, the table, how to read it, where it ran."""
    machine = record.get("machine", {})
    lines = [
        f"{'#' * level} {cell(record['title'])} {{#{name.replace('_', '-')}}}",
        "",
        "| " + " | ".join(cell(c) for c in record["columns"]) + " |",
        "|" + " --- |" * len(record["columns"]),
        *("| " + " | ".join(cell(v) for v in row) + " |" for row in record["rows"]),
        "",
    ]
    if record.get("note"):
        lines += [cell(record["note"]), ""]
    lines += [
        f"`{record['command']}` on {record['date']}: {machine.get('cpus', '?')} CPUs"
        + (f" at a load average of {machine['load']}" if "load" in machine else "")
        + f", Python {machine.get('python', '?')}, {machine.get('platform', '?')}.",
        "",
    ]
    return "\n".join(lines)


def results() -> dict[str, dict[str, Any]]:
    """Every results file, by name, in name order."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(RESULTS.glob("*.json"))
    }


def define_env(env: Any) -> None:
    """The macros and variables the pages use (mkdocs-macros' entry point)."""

    @env.macro
    def bench_tables(level: int = 3) -> str:
        """Every results file of the benches, one section each."""
        return "\n".join(render(name, record, level) for name, record in results().items())

    @env.macro
    def bench_table(name: str, run: str = "", level: int = 3) -> str:
        """One results file, or a note saying how to produce it."""
        path = RESULTS / f"{name}.json"
        if path.exists():
            return render(name, json.loads(path.read_text(encoding="utf-8")), level)
        how = f"run `{run}` to make it" if run else "its bench has not been run here yet"
        return f'!!! note "Not measured yet"\n    `{name}` has no results file yet: {how}.\n'

    env.variables["limits"] = code_limits()
    env.variables["routes"] = route_limits()
    env.variables["setup"] = experiment_setup()
    env.variables["lesson"] = shipped_lesson()
    env.variables["rings"] = rings_facts()
    env.variables["table2"] = table2_facts()
    env.variables["engine"] = engine_facts()


def code_limits() -> dict[str, Any]:
    """The limits a lecturer or a deployment meets, read from the code that enforces them."""
    from kpca_core import budget, drawing, uploads
    from kpca_core.figures import layout
    from kpca_ui import cache, workers
    from kpca_ui.rooms.store import CODE_LENGTH, Limits, wait_words
    from kpca_ui.views import class_room

    room = Limits()
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    return {
        "widget_state_mb": config["server"]["maxWidgetStateSize"],
        "upload_mb": config["server"]["maxUploadSize"],
        "min_text_px": layout.MIN_TEXT_PX,
        "upload_rows": uploads.MAX_ROWS,
        "upload_line_chars": uploads.MAX_LINE_CHARS,
        "upload_columns": uploads.MAX_COLUMNS,
        "upload_groups": uploads.MAX_GROUPS,
        "drawing_points": drawing.MAX_POINTS,
        "request_budget_s": f"{budget.REQUEST_BUDGET_S:g}",
        "cache_mb": cache.MAX_BYTES // cache.MB,
        "workers": workers.WORKERS,
        "heavy_s": f"{workers.HEAVY_S:g}",
        "cancellable_s": f"{workers.CANCELLABLE_S:g}",
        "room_code_chars": CODE_LENGTH,
        "room_points": room.points,
        "room_digits": room.digits,
        "room_rate": room.rate,
        "room_window_s": f"{room.window_s:g}",
        "room_students": room.students,
        "rooms": room.rooms,
        "room_idle_h": f"{room.idle_s / 3600:g}",
        "room_total_points": room.room_points,
        "projector_points": class_room.PROJECTOR_POINTS,
        "join_burst": room.join_burst,
        "join_rate": f"{room.join_rate:g}",
        # a class of 100 arriving at once: the burst joins, the rest at the rate
        "join_100_s": f"{(100 - room.join_burst) / room.join_rate:.0f}",
        "join_retry_s": f"{class_room.JOIN_RETRY_S:g}",
        "rooms_per_client": room.rooms_per_client,
        "room_recent": wait_words(room.recent_s),
        "refresh_s": f"{class_room.REFRESH_S:g}",
        "public_url_env": class_room.PUBLIC_URL_ENV,
    }


def route_limits() -> dict[str, Any]:
    """What every route and the live route allow one browser, session or address
    (``kpca_ui.live``, ``kpca_ui.server``), and the live Table 2 cells' line."""
    from kpca_ui import live, server
    from kpca_ui.views import features

    return {
        "session_rate": f"{live.SESSION_RATE:g}",
        "session_burst": live.SESSION_BURST,
        "address_rate": f"{live.ADDRESS_RATE:g}",
        "address_burst": live.ADDRESS_BURST,
        "address_in_flight": live.ADDRESS_IN_FLIGHT,
        "waiting": live.WAITING,
        "max_body_kb": live.MAX_BODY // 1024,
        "body_grace_s": f"{server.BODY_GRACE_S:g}",
        "body_rate_kb": f"{server.BODY_RATE / 1024:g}",
        "cells_line": features.CELLS_LINE,
    }


def experiment_setup() -> dict[str, Any]:
    """The experiments' sizes and grids, from the modules that run them."""
    from kpca_core import denoise, features, gaussians_table, kernel_pca

    preset = next(iter(denoise.PRESETS.values()))
    return {
        "features_per_sample": f"{kernel_pca.FEATURES_PER_SAMPLE:g}",
        "nystrom_block": kernel_pca.NYSTROM_BLOCK,
        "train_per_class": preset.n_train_per_class,
        "test_per_class": preset.n_test_per_class,
        "demo_linear": denoise.DEMO_N["linear"],
        "demo_kernel": denoise.DEMO_N["kernel"],
        "table2_fit": features.KPCA_TRAIN,
        "table2_train": features.ALL_TRAIN,
        "table2_c": ", ".join(f"{c:g}" for c in features.C_GRID),
        "table2_held_out": f"{features.VALIDATION_FRACTION:.0%}",
        "table1_sigmas": f"{gaussians_table.SIGMAS[0]:g} … {gaussians_table.SIGMAS[-1]:g}",
        "table1_n": f"{gaussians_table.N_VALUES[0]} … {gaussians_table.N_VALUES[-1]}",
        "table1_seeds": len(gaussians_table.SEEDS),
        "table1_train": gaussians_table.N_TRAIN,
    }


def shipped_lesson() -> dict[str, Any]:
    """The lesson the app ships: its format (the file's header comment) and its steps."""
    path = ROOT / "assets" / "lessons" / "kernel_pca_10_steps.toml"
    text = path.read_text(encoding="utf-8")
    header = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        header.append(line)
    lesson = tomllib.loads(text)
    return {
        "name": path.stem,
        "title": lesson["title"],
        "header": "\n".join(header),
        "steps": [(step["title"], step["page"]) for step in lesson["step"]],
    }


def rings_facts() -> dict[str, Any]:
    """Deręgowski & Krzyśko's three rings, read both ways (``kpca_core.rings``)."""
    from kpca_core import gamma_to_sigma
    from kpca_core.datasets import three_rings
    from kpca_core.rings import DK_GAMMA, fig5_readings
    from kpca_core.spectrum import WidthSweep

    X, _ = three_rings(random_state=0)
    centred, uncentred = fig5_readings(X)
    share = {
        center: WidthSweep("rbf", widths=[gamma_to_sigma(DK_GAMMA)], center=center, n_jobs=1)
        .fit(X)
        .share(2)[0]
        for center in (True, False)
    }
    return {
        "centred": [f"{rho:.2f}" for rho in centred.correlations],
        "centred_radius": centred.radius_component,
        "uncentred": [f"{rho:.2f}" for rho in uncentred.correlations],
        "uncentred_kpc1": f"{uncentred.correlations[0]:.3f}",
        "share_centred": f"{share[True]:.3f}",
        "share_uncentred": f"{share[False]:.3f}",
    }


def table2_facts() -> dict[str, Any]:
    """The shipped Table 2 against the paper's, in the Features view's own words."""
    from kpca_core.features import differences_from_paper, read_table2, table2_claims

    table = read_table2((ROOT / "assets" / "features_table2.csv").read_text(encoding="utf-8"))
    claims = table2_claims(table.errors)
    return {
        "differences": differences_from_paper(table.errors),
        "claims": [f"{c.statement} {c.detail}" for c in claims],
    }


ROUTE_EXAMPLES = (
    # kernel, points, inputs, components, polynomial degree (its c = 1, scikit-learn's default)
    ("rbf", 300, 2, 2, 3),
    ("rbf", 2000, 256, 10, 3),
    ("rbf", 1000, 256, 100, 3),
    ("rbf", 1000, 2, 800, 3),
    ("sigmoid", 2000, 2, 3, 3),
    ("poly", 2000, 2, 3, 3),
    ("poly", 6000, 16, 10, 2),
    ("poly", 2000, 256, 10, 2),
)
"""Fits whose route ``eigen_solver="auto"`` the engine page shows, as the cost model prices them."""
KERNEL_WORDS = {"rbf": "Gaussian", "sigmoid": "sigmoid (indefinite)", "poly": "polynomial"}


def engine_facts() -> dict[str, Any]:
    """The route ``eigen_solver="auto"`` takes for :data:`ROUTE_EXAMPLES` and its predicted
    time (``kpca_core.budget``), the solver's fixed bounds, and the summaries of the engine's
    benches' results (``engine_sweep``, ``cost_model``), if they were run."""
    from kpca_core import budget, eigenproblem
    from kpca_core.kernel_pca import explicit_features
    from kpca_core.kernels import feature_space_dimension

    lines = [
        "| kernel | points | inputs | components | explicit features | route | predicted (s) |",
        "|" + " --- |" * 7,
    ]
    for kernel, M, N, k, degree in ROUTE_EXAMPLES:
        shape = {"degree": degree, "coef0": 1.0}
        dimension = feature_space_dimension(kernel, N, **shape)
        if explicit_features(kernel, M, N, **shape, n_components=k):
            route = "features"
        else:
            route = eigenproblem.choose_solver(
                "auto", M, k, feature_dimension=dimension, n_inputs=N
            )
        words = KERNEL_WORDS[kernel] + (f", d = {degree}" if kernel == "poly" else "")
        seconds = budget.engine_fit_seconds(kernel, M, N, k, **shape)
        row = (words, M, N, k, dimension, f"`{route}`", float(seconds))
        lines.append("| " + " | ".join(cell(value) for value in row) + " |")
    facts: dict[str, Any] = {
        "routes": "\n".join(lines),
        "low_rank": eigenproblem.LOW_RANK,
        "arpack_max_components": eigenproblem.ARPACK_MAX_COMPONENTS,
        "dense_fraction": f"{eigenproblem.SUBSET_MAX_FRACTION:g}",
    }
    found = results()
    if "engine_sweep" in found:
        ratios = sorted(row[-1] for row in found["engine_sweep"]["rows"])
        slower = sorted({row[2] for row in found["engine_sweep"]["rows"] if row[-1] < 1})
        facts["sweep"] = {
            "cells": len(ratios),
            "slower": sum(r < 1 for r in ratios),
            "slower_kernels": " or ".join(slower) or "none",
            "median": cell(float(ratios[len(ratios) // 2])),
        }
    if "cost_model" in found:
        ratios = [row[-1] for row in found["cost_model"]["rows"]]
        facts["model"] = {"rows": len(ratios), "low": cell(min(ratios)), "high": cell(max(ratios))}
    return facts
