"""Warm-up before the first visitor (kpca_ui/warmup.py): a warm preset is served without a fit."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time

import numpy as np
from conftest import figures as sent_figures
from conftest import open_view

from kpca_core import contours as ct
from kpca_core import usps
from kpca_core.denoise import DigitDenoiser
from kpca_core.spectrum import WidthSweep
from kpca_ui import warmup, workers
from kpca_ui.views import contours_grid, demo, denoising_cache, spectrum_sweep
from kpca_ui.views.denoising import DEMO_LEVELS
from kpca_ui.views.home import GALLERY


def counting(monkeypatch, owner: object, name: str) -> list:
    """Count the calls of ``owner.name`` (still calling it)."""
    calls, original = [], getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def clear_contours_caches() -> None:
    for cached in (contours_grid._fit, contours_grid._column, contours_grid.grid):
        cached.clear()


def links(page: str, named: str = "") -> tuple:
    """The warm-up's warmers of ``page``'s first links (their name holds ``named``)."""
    return tuple(w for w in warmup.first_links() if w[0].startswith(page) and named in w[0])


def test_the_warm_up_derives_from_the_views_presets_cards_and_defaults():
    names = [name for name, _ in warmup.first_links()]
    # Fig. 2, the lecturer's likely first link
    assert names[0] == "contours {'ct_data': 'Parabola y = x² + noise'}"
    assert len(names) == len(set(names))
    for card in GALLERY:  # each card's link is warmed
        assert f"{card.settings.page} {card.query}" in names


def test_the_fig2_link_after_warm_up_fits_nothing(monkeypatch):
    clear_contours_caches()
    fits = counting(monkeypatch, ct, "fit_column")
    figures = counting(monkeypatch, contours_grid.figures, "contour_figure_data")
    assert warmup.warm(links("contours")[:1]) == []
    assert (len(fits), len(figures)) == (4, 1)  # the preset's four degrees, one grid figure
    card = GALLERY[0]
    assert card.title == "Schölkopf et al. 1998, Fig. 2"
    at = open_view("contours", query={key: str(value) for key, value in card.query.items()})
    assert [c.key for c in sent_figures(at)][:1] == ["ct_contours"]
    assert (len(fits), len(figures)) == (4, 1)


def test_a_kernel_switched_on_the_fig2_link_after_warm_up_fits_nothing(monkeypatch):
    """The lecturer's likely next click: another kernel for the preset's data, its columns
    those the kernel's callback sets (contours.switched)."""
    clear_contours_caches()
    fits = counting(monkeypatch, ct, "fit_column")
    assert warmup.warm(links("contours", "{'ct_kernel': 'Gaussian'")) == []  # Fig. 2's data
    warmed = len(fits)
    assert warmed > 0
    at = open_view("contours", query={key: str(value) for key, value in GALLERY[0].query.items()})
    at.selectbox(key="ct_kernel").set_value("rbf").run()
    assert not at.exception
    assert "σ = 0.1" in sent_figures(at)[0].spec["layout"]["annotations"][0]["text"]
    assert len(fits) == warmed + 4  # Fig. 2's own four degrees only (before: and 4 widths)


def test_the_rings_spectrum_after_warm_up_sweeps_nothing(monkeypatch):
    for cached in (spectrum_sweep.sweep, spectrum_sweep.dk_share, spectrum_sweep.uncentred):
        cached.clear()
    sweeps = counting(monkeypatch, WidthSweep, "fit")
    shares = counting(monkeypatch, WidthSweep, "leading_shares")
    assert warmup.warm(links("spectrum", "Three rings")) == []
    # the 60 widths centred, Deręgowski & Krzyśko's one width centred and not, and the
    # 60 widths' (λ₁+λ₂)/Σλ not centred
    assert (len(sweeps), len(shares)) == (3, 1)
    open_view("spectrum", query=GALLERY[1].query)
    assert (len(sweeps), len(shares)) == (3, 1)


def test_the_default_denoising_model_after_warm_up_is_fitted_by_no_visitor(monkeypatch):
    denoising_cache.fitted_model.clear()
    demo.convincing_cases.clear()
    fits = counting(monkeypatch, DigitDenoiser, "fit")
    measured = counting(monkeypatch, demo, "measure")
    assert warmup.warm((("demo", demo.warm),)) == []
    assert (len(fits), len(measured)) == (1, len(DEMO_LEVELS) - 1)  # every level but none
    at = open_view("demo")
    assert [c.key for c in sent_figures(at)] == ["dm_chart"]
    open_view("denoising", query={"dn_tab": "Side by side"})
    assert (len(fits), len(measured)) == (1, len(DEMO_LEVELS) - 1)


def test_a_failing_warmer_is_reported_and_the_others_still_run():
    ran = []

    def broken() -> None:
        raise RuntimeError("no")

    assert warmup.warm((("broken", broken), ("fine", lambda: ran.append(1)))) == ["broken"]
    assert ran == [1]


def test_warm_up_is_off_in_the_page_tests_and_started_once_otherwise(monkeypatch):
    assert warmup.start() is None  # KPCA_WARMUP=0 here (conftest)
    started = []
    monkeypatch.setattr(warmup, "_run", lambda stop: started.append(stop))
    monkeypatch.delenv("KPCA_WARMUP")
    warmup._started.cache_clear()
    try:
        first, second = warmup.start(), warmup.start()
        assert first is second and isinstance(first, threading.Event)
        for thread in threading.enumerate():
            if thread.name == "kpca-warm-up":
                thread.join(5)
        assert started == [first]
    finally:
        warmup._started.cache_clear()


def test_after_the_warm_up_its_objects_are_left_out_of_full_collections(monkeypatch):
    monkeypatch.setattr(warmup, "warm", lambda: [])
    monkeypatch.setattr(warmup, "_lower_priority", lambda: None)  # not this test's thread
    stop = threading.Event()
    stop.set()  # no watching: _run returns after the warm-up
    gc.unfreeze()
    try:
        warmup._run(stop)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_the_workers_are_started_before_the_first_visit_and_replaced_when_one_dies(monkeypatch):
    monkeypatch.setenv("KPCA_WORKERS", "1")
    # a warm-up thread left running by another test would replace the broken pool
    # before this test sees it broken
    assert "kpca-warm-up" not in [thread.name for thread in threading.enumerate()]
    workers._pool.cache_clear()
    assert workers.start_pool() == 1
    assert not workers.pool_broken()
    first = workers.compute(os.getpid)
    os.kill(first, signal.SIGKILL)
    for _ in range(100):  # the pool notices the death in its own thread
        if workers.pool_broken():
            break
        time.sleep(0.1)
    assert workers.pool_broken()
    assert workers.restart_pool() == 1
    assert not workers.pool_broken()
    assert workers.compute(os.getpid) not in (first, os.getpid())


def test_the_pre_images_tab_after_warm_up_computes_nothing(monkeypatch):
    """Its first visitor waited for every method on 20 digits and on the toy, and for the
    fixed point's paths (4.6-6.6 s to the first figure on a quiet machine)."""
    for cached in (
        denoising_cache.cached_digit_methods,
        denoising_cache.cached_toy_methods,
        denoising_cache.cached_toy_paths,
        denoising_cache.cached_animation,
    ):
        cached.clear()
    compared = counting(monkeypatch, denoising_cache, "compare_methods")
    computed = counting(monkeypatch, denoising_cache, "compute")
    assert warmup.warm((("demo", demo.warm), *links("denoising")[:1])) == []
    before = (len(compared), len(computed))
    at = open_view("denoising", query={"dn_tab": "Pre-images"})
    assert at.dataframe  # the methods' summary, under their figure
    assert (len(compared), len(computed)) == before


def test_a_first_visit_of_home_features_and_spectrum_after_warm_up_computes_nothing(monkeypatch):
    """Their defaults (and Home's pictures) were computed by their first visitor."""
    from kpca_ui.views import features, home_pictures

    for cached in (home_pictures.picture, features.toy_fit, features.toy_result):
        cached.clear()
    spectrum_sweep.sweep.clear()
    pictures = counting(monkeypatch, home_pictures, "_small")
    fits = counting(monkeypatch, features.features, "toy_experiment")
    sweeps = counting(monkeypatch, WidthSweep, "fit")
    defaults = [w for w in warmup.first_links() if w[0].endswith(("features {}", "spectrum {}"))]
    warmers = (("home", warmup.warm_home), *defaults)
    assert warmup.warm(warmers) == []
    before = (len(pictures), len(fits), len(sweeps))
    assert all(before)
    for page in ("home", "features", "spectrum"):
        open_view(page)
    assert (len(pictures), len(fits), len(sweeps)) == before


def test_the_warm_up_draws_no_line_about_fallback_digits(monkeypatch):
    """Offline, without the USPS files, the Demo's line saying which small set it shows is
    drawn by a visitor's script run only: drawn from the warm-up thread, it logged
    "missing ScriptRunContext" six times per call at a newcomer's first start."""
    fallback = usps.DigitsData(np.zeros((2, 64)), np.zeros(2, int), 8, "scikit-learn 8×8 digits")
    monkeypatch.setattr(demo, "digit_sets", lambda: (fallback, fallback))
    drawn = counting(monkeypatch, demo.st, "caption")
    assert demo.digits()[0] is fallback
    assert drawn == []
