"""Warm the server before the first visitor: worker processes spawned, the gallery's presets cached.

When a lecturer says "open this link", a whole class opens the same preset
within a minute.  Cold, the first sessions wait for the worker processes to
spawn and for the preset's models to be fitted.  :func:`start` (called by
``serve.py`` when the server starts) starts one background thread of low CPU
priority that

0. loads the digits and, once the server answers, prints the line saying it is
   ready, on which address and with which digits (:func:`announce`);
1. spawns the worker processes (:mod:`kpca_ui.workers`) and waits until each
   has imported the engine;
2. compresses Plotly's script (:func:`kpca_ui.plotly_js.compressed`), imports
   every module of the pages, builds Home's pictures and computes the
   home gallery's presets and each view's own defaults (the Contours Fig. 2
   grid and its figure, the Spectrum's sweep on the three rings and on its
   default data, the Features toy, the Denoising view's default model of 3000
   USPS digits, which the Demo shows too, the Demo's measured cases, and the
   Denoising tabs that compute) through the same cached functions the views
   call, with the same arguments, so that a first visit finds them cached and
   fits nothing;
3. leaves what it built out of the garbage collector's full passes
   (:func:`freeze_heap`), and prints that the warm-up has finished;
4. then watches the workers: when one has died (the pool is broken), it spawns
   a new pool at once instead of leaving that to the next visitor.

The app answers at once: nothing here runs in a session's script, so the
views' cached functions draw nothing from here (``workers.in_script_run``).
The thread's nice value is raised (Linux), so a visitor's redraw comes first.
"""

from __future__ import annotations

import gc
import importlib
import json
import logging
import os
import pkgutil
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import plotly.io as pio
import streamlit as st

import kpca_ui
from kpca_core import contours as ct
from kpca_core.datasets import default_noise
from kpca_core.demo import DemoCases
from kpca_core.figures.style import NARROW_PX
from kpca_ui import plotly_js, views, workers
from kpca_ui.memory import cache_sizes
from kpca_ui.points import DATASET_TITLES, toy_points
from kpca_ui.views import contours as contours_view
from kpca_ui.views import demo, denoising, features, home_pictures
from kpca_ui.views import denoising_preimages as preimages
from kpca_ui.views.contours_grid import contour_grid_figure
from kpca_ui.views.denoising_cache import (
    cached_animation,
    cached_digit_methods,
    cached_fig4,
    cached_sweep,
    cached_table1,
    cached_toy_methods,
    digit_sets,
)
from kpca_ui.views.spectrum_sweep import dk_share, sweep_holder, uncentred_sweep

ENV = "KPCA_WARMUP"
"""``KPCA_WARMUP=0`` turns the warm-up off (the page tests do, to count the engine's calls)."""
CACHE_REPORT_ENV = "KPCA_CACHE_REPORT"
"""``KPCA_CACHE_REPORT=1``: print the cache sizes every :data:`WATCH_S` (for the load test)."""
CACHE_REPORT = "kpca cache sizes: "
WATCH_S = 5.0
"""How often the warm-up thread checks that the worker processes are alive."""
_LOG = logging.getLogger(__name__)

# The Spectrum view's default sweep (kpca_ui.views.spectrum.kernel_controls):
# Gaussian widths over 10^-3 … 10^2 of the median distance, 60 widths.
SPECTRUM_DEFAULT = ("rbf", (-3.0, 2.0), 60, 3, 1.0, 10)


def warm_imports() -> None:
    """Import every module of the app's pages and views, so that the first visit imports none.

    The server's first session otherwise imported ~60 modules (the app's own, and
    Plotly's figure classes as the first figures were built): 0.3 s before its
    first element at a load of 10.
    """
    for package in (kpca_ui, views):
        for module in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)


def warm_home() -> None:
    """Home's gallery pictures, built once per server, and Plotly's JSON writer (its first
    use imports it)."""
    for name in home_pictures.BUILDERS:
        pio.to_json(home_pictures.picture(name))


def warm_contours(preset: Mapping[str, Any] = contours_view.FIG2) -> ct.ContourSweep:
    """Fit, evaluate and draw a Contours preset into the view's caches; the sweep.

    ``preset`` maps the view's widget keys to values, as
    :data:`kpca_ui.views.contours.FIG2` does.  The arguments are those the
    view's widgets give for it (``kernel_controls``, ``point_picker``).
    """
    name = preset["ct_data"]
    points = toy_points(
        name, preset["ct_n"], preset["ct_noise"], preset["ct_seed"], DATASET_TITLES[name]
    )
    kernel, parameter = preset["ct_kernel"], preset["ct_sweep"]
    parameter = None if parameter == "none" else parameter
    spec = ct.KernelSpec(kernel)
    fixed = {"degree": "ct_degree", "gamma": "ct_gamma", "c": "ct_coef0", "sigma": "ct_sigma"}
    used = {"poly": ("degree", "gamma", "c"), "sigmoid": ("gamma", "c")}
    for fixed_name in used.get(kernel, ("sigma",) if kernel in ("rbf", "laplacian") else ()):
        if fixed_name != parameter:
            spec = spec.with_value(fixed_name, preset[fixed[fixed_name]])
    values = ct.parse_values(preset["ct_values"], parameter) if parameter else ()
    specs = ct.sweep_specs(spec, parameter, values)
    if preset["ct_pca"]:
        specs.insert(0, ct.KernelSpec("pca"))
    center, resolution = preset["ct_center"], preset["ct_res"]
    return contour_grid_figure(points, specs, parameter, center, preset["ct_k"], resolution)[0]


def warm_spectrum(data: str = "three_rings", n_samples: int = 300) -> dict:
    """The Spectrum view's default sweep of a toy set (its own noise), into the view's cache.

    On the three rings also the share at Deręgowski & Krzyśko's width, centred and not, and
    the uncentred sweep, which the view states and draws.
    """
    points = toy_points(data, n_samples, default_noise(data), 0, DATASET_TITLES[data])
    holder = sweep_holder(points, SPECTRUM_DEFAULT)
    if data == "three_rings":
        for center in (True, False):
            dk_share(points.X, points.key, center)
        uncentred_sweep(holder, points, SPECTRUM_DEFAULT)
    return holder


def warm_spectrum_default() -> dict:
    """The Spectrum page's own default, the first data set (a link without data opens it)."""
    return warm_spectrum(next(iter(DATASET_TITLES)))


def warm_features() -> None:
    """The Features page's toy at its starting values: the kernel PCA fit and the two
    linear classifiers on its first n components (0.65 s for its first visitor at load 10)."""
    name, kernel = next(iter(features.TOY_SETS)), next(iter(features.TOY_KERNELS))
    defaults = features.TOY_DEFAULTS
    parameter = defaults["ft_sigma"] if kernel == "rbf" else defaults["ft_pdegree"]
    key = (name, defaults["ft_points"], 0, kernel, float(parameter))
    features.toy_result(key, defaults["ft_k"], features.toy_fit(*key))


def warm_denoising() -> DemoCases:
    """The Denoising view's default model (Mika et al.'s Fig. 4 settings) and the Demo's
    cases measured on it, into the views' caches; the cases.

    The model is fitted in the background worker process
    (:func:`kpca_ui.workers.in_background`), as a visitor's would be: 11.5 s for the
    3000 digits (measured on a quiet machine), which the first visitor of the
    Denoising view or the Demo otherwise waits for; measuring the Demo's cases then
    takes ~2 s.  Without the USPS files at hand the digits are downloaded first, as
    the view does.
    """
    model, subsets = demo.model_and_digits()
    return demo.convincing_cases(demo.model_key(subsets.source), model, subsets)


def warm_denoising_tabs() -> None:
    """The Denoising view's tabs that compute, at its defaults: the Fig. 4 grid (its first
    tab), the error against n and Mika et al.'s Table 1, into the view's caches.

    Measured cold under load (2 cores, load 10-16): 10 s, 28 s and 19 s to their first
    figure (``bench/cold_start.py``).  Runs after :func:`warm_denoising`, whose model it uses.
    """
    model, subsets = demo.model_and_digits()
    key = demo.model_key(subsets.source)
    noise = (demo.PRESET.noise.kind, demo.PRESET.noise.level)
    method, ridge_alpha = next(iter(denoising.METHODS)), denoising.DEFAULTS["dn_ridge"]
    cached_fig4(key, noise, method, ridge_alpha, model, subsets)
    cached_sweep(key, noise, False, ridge_alpha, model, subsets)
    cached_table1()


def warm_preimages() -> None:
    """The Denoising view's "Pre-images" tab at its defaults: every method on 20 noisy
    digits of the default model, and on the 2-D toy, and the fixed point's animation.

    Its first visitor waited for them: 4.6 s median, 6.6 s p95 to the first figure on a
    quiet machine (``bench/cold_start.py``), 10 s of the server's time under load.
    """
    model, subsets = demo.model_and_digits()
    noise = (demo.PRESET.noise.kind, demo.PRESET.noise.level)
    defaults, toy = preimages.PRE_DEFAULTS, preimages.TOY
    count, name, n = defaults["dn_pre_digits"], defaults["dn_pre_set"], defaults["dn_pre_n"]
    ridge_alpha = denoising.DEFAULTS["dn_ridge"]
    key = demo.model_key(subsets.source)
    cached_digit_methods(key, noise, count, preimages.DIGIT_N, ridge_alpha, model, subsets)
    cached_toy_methods(name, toy["noise"], toy["c"], toy["seed"])
    cached_animation(name, toy["noise"], toy["c"], n, toy["seed"], 0, NARROW_PX)  # a desktop's


WARMERS: tuple[Callable[[], object], ...] = (
    plotly_js.compressed,
    warm_imports,
    warm_home,
    warm_contours,
    warm_spectrum,
    warm_spectrum_default,
    warm_features,
    warm_denoising,
    warm_denoising_tabs,
    warm_preimages,
)
"""The gallery's presets, the lecturer's likely first link first."""


def warm(warmers: tuple[Callable[[], object], ...] = WARMERS) -> list[str]:
    """Spawn the workers and run every warmer; the names of those that failed.

    A failing warmer is logged and skipped: its preset is then computed by its
    first visitor, as without warm-up.
    """
    failed = []
    workers.start_pool()
    for warmer in warmers:
        try:
            warmer()
        except Exception:  # a preset that cannot be warmed must not stop the others
            _LOG.exception("warm-up of %s failed", warmer.__name__)
            failed.append(warmer.__name__)
    return failed


def freeze_heap() -> None:
    """Leave what the process holds after the warm-up out of the garbage collector's full passes.

    A full pass walks every object the process tracks (the modules, the warmed
    caches) and holds the GIL for every session meanwhile: measured in the
    server, 72–102 ms each, one during 16 drawing redraws.  After the freeze
    the passes walk only what sessions created since, and none took over
    2 ms in the same redraws.  (Frozen objects are never collected, so only
    the warm-up's own are frozen.)
    """
    gc.freeze()


def _lower_priority() -> None:
    if sys.platform == "linux":  # this thread only; lowering it needs no privilege
        thread = threading.get_native_id()
        niceness = os.getpriority(os.PRIO_PROCESS, thread) + workers.BACKGROUND_NICENESS
        os.setpriority(os.PRIO_PROCESS, thread, niceness)


def base_url() -> str:
    """The address the server listens on, as a browser would open it."""
    from streamlit import config

    host = config.get_option("server.address") or "localhost"
    host = "localhost" if host in ("0.0.0.0", "::") else host
    path = (config.get_option("server.baseUrlPath") or "").strip("/")
    return f"http://{host}:{config.get_option('server.port')}" + (f"/{path}" if path else "")


def digits_line() -> str:
    """Which digits the Denoising view and the Demo use: the real USPS files, or why not."""
    train, test = digit_sets()
    if train.source == "USPS":
        return f"USPS digits: real ({len(train.labels) + len(test.labels)})"
    return f"USPS digits: fallback ({train.message or test.message})"


def announce(stop: threading.Event) -> None:
    """Print the line saying the app is ready, once ``/_stcore/health`` answers."""
    digits = digits_line()
    url = base_url()
    while not stop.is_set():
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            stop.wait(0.2)
    print(f"Kernel PCA Explorer ready on {url}; {digits}", flush=True)


def _run(stop: threading.Event) -> None:
    _lower_priority()
    started = time.monotonic()
    announce(stop)
    try:
        failed = warm()
    except BrokenProcessPool:  # the workers were ended at once: the server is being stopped
        return
    freeze_heap()
    print(
        f"Kernel PCA Explorer warm-up finished in {time.monotonic() - started:.0f} s"
        + (f" ({', '.join(failed)} failed: computed on first use)" if failed else ""),
        flush=True,
    )
    while not stop.wait(WATCH_S):
        if os.environ.get(CACHE_REPORT_ENV, "").strip() == "1":
            # on the server's output, where bench/load_test.py reads the last line
            print(CACHE_REPORT + json.dumps(cache_sizes()), flush=True)
        if workers.pool_broken():
            _LOG.warning("a worker process died: starting new ones")
            workers.restart_pool()


def start() -> threading.Event | None:
    """Start the warm-up thread once per server process (unless ``KPCA_WARMUP=0``).

    Returns the event that stops its watch when set, or ``None`` when turned off.
    """
    if os.environ.get(ENV, "").strip() == "0":
        return None
    return _started()


@st.cache_resource(show_spinner=False)
def _started() -> threading.Event:
    stop = threading.Event()
    threading.Thread(target=_run, args=(stop,), name="kpca-warm-up", daemon=True).start()
    return stop
