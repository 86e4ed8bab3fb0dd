"""The Denoising view's cached work: the digits, the fitted models, the sweeps and grids.

Each is kept in the shared cache (:mod:`kpca_ui.cache`), keyed on small values; the session
that computes draws the progress bar.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from _plotly_utils.utils import to_typed_array_spec
from plotly.colors import get_colorscale

from kpca_core import denoise, gamma_to_sigma, usps
from kpca_core import preimage_compare as compare
from kpca_core.denoise import FIG4_N, SWEEP_N, DigitDenoiser, DigitSubsets, ImageGrid, Noise
from kpca_core.figures import denoise as denoise_figures
from kpca_core.figures import preimages as figures
from kpca_core.figures import style
from kpca_core.gaussians_table import GaussiansTable, gaussians_table
from kpca_core.preimage_compare import compare_methods
from kpca_ui.adapter import in_script_run
from kpca_ui.cache import memo
from kpca_ui.explain import text
from kpca_ui.presenter import presenter_mode
from kpca_ui.workers import build, compute, in_background, no_progress

# (source, train per class, test per class, c, centre, seed, training-noise kind, level)
ModelKey = tuple[str, int, int, float, bool, int, str | None, float]
Digits = tuple[ModelKey, Noise, tuple[int, ...], str, float]
"""A side-by-side grid: the model's key, the noise, the test digits, the pre-image method, α."""


def _with_bar(text: str, function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """``function(*args, progress=…, **kwargs)``, a progress bar saying ``text`` meanwhile."""
    report, done = progress_bar(text)
    try:
        return function(*args, progress=report, **kwargs)
    finally:
        done()


@memo
def load_digits(
    usps_dir: str | None, data_home: str | None, base_urls: tuple[str, ...]
) -> tuple[usps.DigitsData, usps.DigitsData]:
    """USPS training and test digits (or the 8×8 fallback), keyed on where they come from."""
    return _with_bar(
        "Loading the USPS digits", usps.load_digit_pair, data_home=data_home, base_urls=base_urls
    )


@memo
def digit_subsets(
    source: str, n_train: int, n_test: int, seed: int, _data: tuple[usps.DigitsData, ...]
) -> DigitSubsets:
    pairs = [(data.images, data.labels) for data in _data]  # training, test
    return denoise.sample_digits(
        *pairs, n_train, n_test, side=_data[0].side, source=source, random_state=seed
    )


@memo
def fitted_model(key: ModelKey, _subsets: DigitSubsets) -> DigitDenoiser:
    """Linear and kernel PCA on the training digits, cached across reruns and sessions."""
    _, _, _, c, center, seed, noise_kind, noise_level = key
    X = _subsets.X_train
    if noise_kind is not None:
        X = Noise(noise_kind, noise_level).apply(X, seed + 2)
    fit = DigitDenoiser(c, center=center).fit
    return _with_bar(f"Fitting linear and kernel PCA on {len(X)} digits", in_background, fit, X)


def _noisy(key: ModelKey, noise: Noise, subsets: DigitSubsets) -> np.ndarray:
    """The test digits with ``noise``, drawn with the seed after the model's (``key[5]``)."""
    return noise.apply(subsets.X_test, key[5] + 1)


@memo
def cached_sweep(
    key: ModelKey,
    noise: Noise,
    ridge: bool,
    ridge_alpha: float,
    _model: DigitDenoiser,
    _subsets: DigitSubsets,
) -> denoise.ErrorSweep:
    X, noisy = _subsets.X_test, _noisy(key, noise, _subsets)
    options = {"ridge": ridge, "ridge_alpha": ridge_alpha}
    text = "Computing the error for every n"
    return _with_bar(text, denoise.error_sweep, _model, X, noisy, SWEEP_N, **options)


@memo
def cached_fig4(
    key: ModelKey,
    noise: Noise,
    method: str,
    ridge_alpha: float,
    _model: DigitDenoiser,
    _subsets: DigitSubsets,
) -> ImageGrid:
    X, noisy, labels = _subsets.X_test, _noisy(key, noise, _subsets), _subsets.y_test
    options = {"side": _subsets.side, "method": method, "ridge_alpha": ridge_alpha}
    return denoise.fig4_grid(_model, X, noisy, labels, n_values=FIG4_N, **options)


@memo
def cached_side_by_side(
    digits: Digits, n: int, _model: DigitDenoiser, _subsets: DigitSubsets
) -> ImageGrid:
    """The side-by-side grid, shared by every session that asks for the same digits."""
    return _grid_at(digits, _model, _subsets)(n)


def _grid_at(
    digits: Digits, model: DigitDenoiser, subsets: DigitSubsets
) -> Callable[[int], ImageGrid]:
    """The side-by-side grid of ``digits`` as a function of n."""
    key, noise, pick, method, ridge_alpha = digits
    rows = list(pick)
    X, noisy, labels = subsets.X_test[rows], _noisy(key, noise, subsets)[rows], subsets.y_test[rows]
    options = {"side": subsets.side, "method": method, "ridge_alpha": ridge_alpha}
    return partial(denoise.side_by_side, model, X, noisy, labels, **options)


class Newest:
    """One thread making one request at a time: the newest, once it has settled.

    A request ``settle_s`` or more after the one before is made at once; one within
    ``settle_s`` of another waits ``settle_s`` for a newer one.  A waiting request is
    cancelled by a newer one, never queued, so that states passed while sliders move
    cost nothing.
    """

    def __init__(self, settle_s: float) -> None:
        self.settle_s = settle_s
        self._lock = threading.Lock()
        self._waiting: Future | None = None
        self._asked = -math.inf  # when the last request came
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="kpca-dn-frames")

    def submit(self, function: Callable[..., Any], *args: Any) -> Future:
        """A future of ``function(*args)``; the request waiting before it is cancelled."""
        future: Future = Future()
        with self._lock:
            if self._waiting is not None:
                self._waiting.cancel()  # a running or finished one is left alone
            now = time.monotonic()
            due = now if now - self._asked >= self.settle_s else now + self.settle_s
            self._waiting, self._asked = future, now
        self._thread.submit(self._make, future, due, partial(function, *args))
        return future

    def drain(self) -> None:
        """Wait until nothing waits or runs (tests)."""
        self._thread.submit(time.monotonic).result()

    @staticmethod
    def _make(future: Future, due: float, job: Callable[[], Any]) -> None:
        if not future.cancelled():  # a newer request may come while it waits
            time.sleep(max(0.0, due - time.monotonic()))
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(job())
            except Exception as error:  # the thread stays for the next request
                future.set_exception(error)


_FRAMES = Newest(settle_s=1.0)  # makes the side-by-side grid's frames
GAP = 0
"""A quantised mosaic's gap between digits (transparent); its greys are 1-255.  Not 255:
runs of 255 are "////" in base64, and Plotly's JSON writes each "/" as six bytes."""
QUANTISED_GREYS = {  # the colours of a quantised mosaic: its gaps transparent, the digits' greys
    "zmin": 0,
    "zmax": 255,
    "colorscale": [[0, "rgba(0, 0, 0, 0)"], [0.5 / 255, "rgba(0, 0, 0, 0)"]]
    + [[(1 + p * 254) / 255, c] for p, c in get_colorscale(style.GREYS)],
}


def side_by_side_frames(*args: Any) -> dict | None:
    """The chart's frames of :func:`_side_by_side_frames` (asked again if a newer request
    cancelled it first), once made; until then (or if they failed) none, and the grid
    changes when the n slider is released, as every figure does."""
    every_n = _side_by_side_frames(*args)
    if every_n.cancelled():  # asked again, under a key of its own
        every_n = _side_by_side_frames(*args, attempt=id(every_n))
    if not every_n.done() or every_n.cancelled() or not every_n.result():
        return None
    return {"slider": "dn_n", "frames": every_n.result()}


@memo
def _side_by_side_frames(
    digits: Digits,
    title: str,
    width_px: int | None,
    _model: DigitDenoiser,
    _subsets: DigitSubsets,
    attempt: int = 0,
) -> Future:
    """Scrubbing n: a future of ``{str(n): frame}`` for every n of ``SWEEP_N``, made in the
    background, each the side-by-side figure's changes at that n (:func:`kpca_ui.chart.chart`)."""
    return _FRAMES.submit(_every_n, _grid_at(digits, _model, _subsets), title, width_px)


def quantised(z: object) -> np.ndarray:
    """A mosaic's grey values (``GREY_RANGE``, NaN between digits) as bytes: :data:`GAP`
    between digits, 1-255 for the greys."""
    values = np.asarray(z, dtype=float)
    grey = 1 + np.round(np.interp(values, denoise_figures.GREY_RANGE, (0, 254)))
    return np.where(np.isnan(values), GAP, grey).astype(np.uint8)


def _every_n(
    grid_at: Callable[[int], ImageGrid], title: str, width_px: int | None
) -> dict[str, dict]:
    frames = {}
    try:
        for n in SWEEP_N:
            fig = denoise_figures.side_by_side_figure(
                grid_at(n), title=f"{title}, n = {n}", width_px=width_px
            )
            frames[str(n)] = {
                # bytes, as Plotly's typed array (a plain array's JSON is a list of numbers)
                "data": [{"z": to_typed_array_spec(quantised(fig.data[0].z)), **QUANTISED_GREYS}],
                "layout": {
                    "title": fig.layout.title.to_plotly_json(),
                    "annotations": [a.to_plotly_json() for a in fig.layout.annotations],
                    "yaxis": {"ticktext": list(fig.layout.yaxis.ticktext)},
                },
            }
    except Exception:  # no frames: the slider still redraws on its release
        logging.getLogger(__name__).exception("the side-by-side frames failed")
        return {}
    return frames


@memo
def cached_toy(
    name: str, n_samples: int, noise: float, c: float, n: int, seed: int
) -> denoise.ToyDenoising:
    options = {"noise": noise, "c": c, "n_components": n, "random_state": seed}
    return denoise.toy_denoising(name, n_samples=n_samples, **options)


@memo
def cached_table1() -> GaussiansTable:
    """Mika et al. Table 1 (5 σ × 9 n × 3 seeds), computed once for every session, in a worker."""
    text = "Computing Table 1 (15 fits of kernel PCA, once for everyone)"
    return _with_bar(text, compute, gaussians_table)


@memo
def cached_fig3(
    key: ModelKey, index: int, start: str, _model: DigitDenoiser, _subsets: DigitSubsets
) -> compare.Reconstruction:
    """Test digit ``index`` rebuilt without noise from n = 1 … 20 components (Fig. 3)."""
    x, label = _subsets.X_test[index], str(_subsets.y_test[index])
    return compare.reconstruction_series(
        _model, x, side=_subsets.side, start=start, label=label, random_state=key[5]
    )


@memo
def cached_digit_methods(
    key: ModelKey,
    noise: Noise,
    count: int,
    n_values: tuple[int, ...],
    ridge_alpha: float,
    _model: DigitDenoiser,
    _subsets: DigitSubsets,
) -> compare.MethodComparison:
    """Every pre-image method on the same ``count`` noisy test digits, at every n, the digits
    spread evenly over the test set (so over every class)."""
    n_test = len(_subsets.X_test)
    rows = np.unique(np.linspace(0, n_test - 1, min(count, n_test)).astype(int))
    X, noisy = _subsets.X_test[rows], _noisy(key, noise, _subsets)[rows]
    text = f"Pre-images of {len(rows)} digits by every method"
    options = {"ridge": {"alpha": ridge_alpha}}
    return _with_bar(text, compare_methods, _model, X, noisy, n_values, options=options)


@memo
def cached_toy_methods(name: str, noise: float, c: float, seed: int) -> compare.MethodComparison:
    """Every pre-image method on a 2-D toy set (Fig. 1's setting, 200 points)."""
    return compute(compare.toy_comparison, name, noise=noise, c=c, random_state=seed)


@memo
def cached_toy_paths(
    name: str, noise: float, c: float, n: int, seed: int
) -> tuple[compare.ToyData, compare.FixedPointPaths]:
    """Every noisy point's path under eq. (10) in a 2-D toy set."""
    return compute(compare.toy_paths, name, n_components=n, random_state=seed, noise=noise, c=c)


@memo
def cached_animation(
    name: str, noise: float, c: float, n: int, seed: int, point: int, width: int
) -> go.Figure:
    """The fixed point's animation over ρ(z) of one point, planned for ``width`` px."""
    toy, paths = cached_toy_paths(name, noise, c, n, seed)
    return build(figures.fixed_point_animation, paths, toy.noisy, selected=point, width_px=width)


def progress_bar(
    text: str, delay_s: float = 0.0
) -> tuple[Callable[[float, str], None], Callable[[], None]]:
    """A ``progress(fraction, message)`` callback drawing a bar (from the first report
    ``delay_s`` or more after this call, if a delay is given), and a function removing it;
    both do nothing outside a session's script (the warm-up, another session's wait)."""
    if not in_script_run():
        return no_progress, lambda: None
    bars = [] if delay_s else [st.progress(0.0, text=text)]
    started = time.monotonic()

    def report(fraction: float, message: str) -> None:
        # the time too: a step may take seconds without a report of its own
        waited = time.monotonic() - started
        if not bars and waited >= delay_s:
            bars.append(st.progress(0.0, text=text))
        for bar in bars:  # none yet, or the one
            bar.progress(min(max(fraction, 0.0), 1.0), text=f"{text}: {message} ({waited:.0f} s)")

    def done() -> None:
        for bar in bars:
            bar.empty()

    return report, done


def digit_sets() -> tuple[usps.DigitsData, usps.DigitsData]:
    """The training and test digits (USPS, or the fallback with its message), saying nothing."""
    env = os.environ.get
    return load_digits(env(usps.USPS_ENV_VAR), env("SCIKIT_LEARN_DATA"), tuple(usps.USPS_BASE_URLS))


def usps_digits() -> tuple[usps.DigitsData, usps.DigitsData]:
    """The training and test digits, with a word where they are not the USPS files."""
    data = train_data, test_data = digit_sets()
    if train_data.message or test_data.message:
        st.warning(train_data.message or test_data.message, icon=":material/cloud_off:")
    for note in {train_data.note, test_data.note} - {None}:
        st.caption(note)
    if train_data.source != "USPS":
        st.info(text("dn_not_usps", source=train_data.source))
    return data


def chosen_subsets(
    data: tuple[usps.DigitsData, usps.DigitsData], settings: dict[str, object]
) -> DigitSubsets:
    """The digits the settings ask for, and a caption saying what they are."""
    n_train, n_test = settings["n_train"], settings["n_test"]
    subsets = digit_subsets(data[0].source, n_train, n_test, settings["seed"], data)
    sizes = {"s": subsets, "n_train": len(subsets.X_train), "n_test": len(subsets.X_test)}
    if (subsets.n_train_per_class, subsets.n_test_per_class) != (n_train, n_test):
        st.info(text("dn_fewer", **sizes))
    if not presenter_mode():
        c, n_pixels = settings["c"], subsets.X_train.shape[1]
        sigma = gamma_to_sigma(denoise.kernel_gamma(c, n_pixels))
        kernel = {"c": c, "n_pixels": n_pixels, "nc": n_pixels * c, "sigma": sigma}
        st.caption(text("dn_digits", **kernel, **sizes))
    return subsets


def model_key(subsets: DigitSubsets, settings: dict[str, object]) -> ModelKey:
    """The key of the model these settings fit."""
    noise: Noise = settings["noise"]
    sizes = (settings[name] for name in ("n_train", "n_test", "c", "center", "seed"))
    trained = (noise.kind, noise.level) if settings["train_noisy"] else (None, 0.0)
    return (subsets.source, *sizes, *trained)
