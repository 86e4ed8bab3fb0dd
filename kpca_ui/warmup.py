"""Warm the server before the first visitor: worker processes spawned, the gallery's presets cached.

A lecturer's "open this link" sends a whole class to one preset within a minute.  :func:`start`
(called by :mod:`kpca_ui.server`) starts one background thread of low CPU priority that

0. loads the digits and, once the server answers, prints that it is ready (:func:`announce`);
1. spawns the worker processes (:mod:`kpca_ui.workers`);
2. compresses Plotly's script, imports every module of the pages, builds Home's
   pictures and the Demo, and computes what each view's likely first links show
   (:func:`first_links`) by the view's own functions, so a first visit fits nothing;
3. freezes what it built out of the garbage collector's full passes and prints that it has finished;
4. then watches the workers and spawns a new pool at once when one has died.

Nothing here runs in a session's script, so the views' cached functions draw nothing
from here (:func:`kpca_ui.adapter.in_script_run`).
"""

from __future__ import annotations

import functools
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

import kpca_ui
from kpca_ui import cache, plotly_js, views, workers
from kpca_ui.views import (
    contours,
    contours_grid,
    demo,
    denoising,
    denoising_preimages,
    features,
    home,
    home_pictures,
    spectrum,
    spectrum_sweep,
)
from kpca_ui.views.denoising_cache import digit_sets

ENV = "KPCA_WARMUP"
"""``KPCA_WARMUP=0`` turns the warm-up off (the page tests do, to count the engine's calls)."""
CACHE_REPORT_ENV = "KPCA_CACHE_REPORT"
"""``KPCA_CACHE_REPORT=1``: print the cache sizes every :data:`WATCH_S` (for the load test)."""
CACHE_REPORT = "kpca cache sizes: "
WATCH_S = 5.0
"""How often the warm-up thread checks that the worker processes are alive."""
_LOG = logging.getLogger(__name__)


def warm_imports() -> None:
    """Import every module of the app's pages and views, so that the first visit imports none."""
    for package in (kpca_ui, views):
        for module in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)


def warm_home() -> None:
    """Home's gallery pictures, built once per server, and Plotly's JSON writer (imported once)."""
    for name in home_pictures.BUILDERS:
        pio.to_json(home_pictures.picture(name))


VIEWS: dict[str, tuple[Any, Callable[[Mapping[str, Any]], None]]] = {
    "contours": (contours.SETTINGS, contours_grid.warm),
    "spectrum": (spectrum.SETTINGS, spectrum_sweep.warm),
    "features": (features.SETTINGS, features.warm),
    "denoising": (denoising.SETTINGS, denoising_preimages.warm),
}
"""Each view that computes: its settings, and what its first visit computes at given values."""


def first_links() -> list[tuple[str, Callable[[], None]]]:
    """What the likely first links compute, the lecturer's likely first first: every view's
    presets (the Contours' with each kernel) and gallery cards, then its defaults (a link
    without settings); each once."""
    links = [("contours", preset.values) for preset in contours.PRESETS.values()]
    links += [  # a preset's kernel switched (the columns its callback sets)
        ("contours", {**preset.values, "ct_kernel": kernel, **contours.switched(kernel)})
        for preset in contours.PRESETS.values()
        for kernel in contours.KERNELS
        if kernel != preset.values["ct_kernel"]
    ]
    links += [(card.settings.page, card.values) for card in home.GALLERY]
    links += [(page, {}) for page in VIEWS]
    warmers: dict[tuple, tuple[str, Callable[[], None]]] = {}
    for page, values in links:
        settings, warm_view = VIEWS[page]
        full = settings.complete(values)
        key = (page, tuple(sorted(full.items(), key=repr)))
        if key not in warmers:
            warmers[key] = (f"{page} {settings.link(values)}", functools.partial(warm_view, full))
    return list(warmers.values())


WARMERS: tuple[tuple[str, Callable[[], object]], ...] = (
    ("plotly.js", plotly_js.compressed),
    ("imports", warm_imports),
    ("home", warm_home),
    ("demo", demo.warm),
)
"""What every first visit needs, before the views' links (:func:`first_links`)."""


def warm(warmers: tuple[tuple[str, Callable[[], object]], ...] | None = None) -> list[str]:
    """Spawn the workers and run every warmer (by default :data:`WARMERS` and :func:`first_links`);
    the names of those that failed (logged, left to the first visitor)."""
    failed = []
    workers.start_pool()
    for name, warmer in warmers if warmers is not None else (*WARMERS, *first_links()):
        try:
            warmer()
        except Exception:  # a preset that cannot be warmed must not stop the others
            _LOG.exception("warm-up of %s failed", name)
            failed.append(name)
    return failed


def _lower_priority() -> None:
    if sys.platform == "linux":  # this thread only; lowering it needs no privilege
        thread = threading.get_native_id()
        niceness = os.getpriority(os.PRIO_PROCESS, thread) + workers.BACKGROUND_NICENESS
        os.setpriority(os.PRIO_PROCESS, thread, niceness)


def announce(stop: threading.Event) -> None:
    """Print the line saying the app is ready, once ``/_stcore/health`` answers: its address as
    a browser opens it, and which digits the Denoising view and the Demo use."""
    from streamlit import config

    train, test = digit_sets()
    if train.source == "USPS":
        digits = f"USPS digits: real ({len(train.labels) + len(test.labels)})"
    else:
        digits = f"USPS digits: fallback ({train.message or test.message})"
    host = config.get_option("server.address") or "localhost"
    host = "localhost" if host in ("0.0.0.0", "::") else host
    path = (config.get_option("server.baseUrlPath") or "").strip("/")
    url = f"http://{host}:{config.get_option('server.port')}" + (f"/{path}" if path else "")
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
    # a full pass over the warmed caches holds the GIL for every session; frozen objects are
    # never collected, so only the warm-up's own are frozen
    gc.freeze()
    print(
        f"Kernel PCA Explorer warm-up finished in {time.monotonic() - started:.0f} s"
        + (f" ({', '.join(failed)} failed: computed on first use)" if failed else ""),
        flush=True,
    )
    while not stop.wait(WATCH_S):
        if os.environ.get(CACHE_REPORT_ENV, "").strip() == "1":
            # on the server's output, where bench/load_test.py reads the last line
            print(CACHE_REPORT + json.dumps(cache.sizes()), flush=True)
        if workers.pool_broken():
            _LOG.warning("a worker process died: starting new ones")
            workers.restart_pool()


def start() -> threading.Event | None:
    """Start the warm-up thread once per server process; the event that stops its watch, or
    ``None`` when turned off (``KPCA_WARMUP=0``)."""
    return None if os.environ.get(ENV, "").strip() == "0" else _started()


@functools.cache
def _started() -> threading.Event:
    stop = threading.Event()
    threading.Thread(target=_run, args=(stop,), name="kpca-warm-up", daemon=True).start()
    return stop
