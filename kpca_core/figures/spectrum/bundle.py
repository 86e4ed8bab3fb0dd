"""A new sweep and the figures a page shows first, made in one call (one trip to a worker).

A changed data or sweep setting needs the sweep, then the figures at the
chosen width (the spectrum bars, the component maps), the three sweep
figures marked there, the frames a slider scrubs through and, when asked, the
comparison with the uncentred kernel.  Made one by one, each was a trip to a
worker process that waited behind every other session's work: on a busy
server the trips, not the computing, took most of a redraw's time (issue
#36).  :func:`sweep_figures` makes them all in one call and returns the
figures as plain data (``Figure.to_plotly_json``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ...kernel_pca import Progress, _notify
from ...spectrum import CONSTANT, WidthSweep
from .at_width import components_at_figure, spectrum_bars_figure, spectrum_bars_frames
from .marks import chosen_frames
from .widths import (
    centring_share_figure,
    effective_components_figure,
    ratio_lines_figure,
    spectrum_heatmap_figure,
)


class SweepFigures(NamedTuple):
    """What :func:`sweep_figures` returns."""

    sweep: WidthSweep
    """The fitted sweep."""
    index: int
    """The chosen width the figures are marked at."""
    figures: dict[str, Any]
    """Figures as plain data by name: ``"bars"``, ``"maps"`` (absent where the kernel
    matrix is constant or kernel PCA fails there), ``"lines"``, ``"components"``,
    ``"heatmap"``, ``"centring"`` (with a comparison); and the scrubbing frames
    ``"bars_frames"`` (absent without a spectrum at the chosen width) and
    ``"marks_frames"``."""
    uncentred: WidthSweep | None
    """The same widths without centring, with a comparison."""
    shares: dict[bool, float] | None
    """(λ₁+λ₂)/Σλ at the comparison's width, centred (``True``) and not."""


def default_index(sweep: WidthSweep) -> int:
    """The width nearest the data scale (the middle of the degrees)."""
    if sweep.sweep == "degree":
        return min(2, sweep.widths_.size - 1)
    return int(np.argmin(np.abs(np.log(sweep.widths_ / sweep.scale_))))


def width_labels(sweep: WidthSweep) -> list[str]:
    """The swept widths as a slider shows them, with more digits if they repeat."""
    for digits in (3, 6, 12):
        labels = [f"{width:.{digits}g}" for width in sweep.widths_]
        if len(set(labels)) == len(labels):
            return labels
    return [f"{label} (#{i + 1})" for i, label in enumerate(labels)]


def sweep_figures(
    X: np.ndarray,
    labels: np.ndarray | None,
    sweep: WidthSweep,
    *,
    chosen: str | None = None,
    n_leading: int = 6,
    lines_px: int,
    maps_px: int,
    log_bars: bool = False,
    legend_right: bool = False,
    marks: Sequence[tuple[float, str]] = (),
    compare_at: float | None = None,
    progress: Progress | None = None,
) -> SweepFigures:
    """Fit ``sweep`` on ``X``, then build the figures a page shows first.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    labels : ndarray of shape (n_samples,), optional
        Point labels, for the projection of data that is not 2-D.
    sweep : WidthSweep, not fitted
    chosen : str, optional
        The chosen width as :func:`width_labels` writes it; the width nearest
        the data scale (:func:`default_index`) if it is not one of the sweep's.
    n_leading, lines_px
        :func:`~.widths.ratio_lines_figure`'s leading components and width.
    maps_px
        :func:`~.at_width.components_at_figure`'s width.
    log_bars, legend_right
        :func:`~.at_width.spectrum_bars_figure`'s ``log`` and ``legend_right``.
    marks : sequence of (width, text)
        Widths to mark on the ratio lines and the comparison.
    compare_at : float, optional
        A width (σ of the Gaussian kernel) at which to compare the centred kernel with
        the uncentred one: the whole sweep is made again without centring (eq. 12 on K),
        for :func:`~.widths.centring_share_figure`, and both shares are taken there.
    progress : callable, optional
        ``progress(fraction, message)``: the sweep's, then once per figure (through
        which a worker cancels the call).

    Returns
    -------
    SweepFigures
    """
    sweep.fit(X, progress=progress)
    names = width_labels(sweep)
    index = names.index(chosen) if chosen in names else default_index(sweep)

    def made(name: str, figure: Any) -> dict:
        _notify(progress, 1.0, f"the figures: {name}")
        return figure.to_plotly_json()

    figures: dict[str, Any] = {
        "bars": made(
            "spectrum", spectrum_bars_figure(sweep, index, log=log_bars, legend_right=legend_right)
        )
    }
    if sweep.regime_[index] != CONSTANT:
        try:
            maps = components_at_figure(sweep, index, labels, progress=progress, width_px=maps_px)
        except ValueError:
            pass  # the page says why when it asks for them again
        else:
            figures["maps"] = made("components", maps)
    lines = ratio_lines_figure(
        sweep, n_leading=n_leading, chosen=index, marks=marks, width_px=lines_px
    )
    figures["lines"] = made("ratios", lines)
    figures["components"] = made("components", effective_components_figure(sweep, chosen=index))
    figures["heatmap"] = made("heatmap", spectrum_heatmap_figure(sweep, chosen=index))
    if not np.isnan(sweep.ratios_[index, 0]):
        figures["bars_frames"] = spectrum_bars_frames(sweep, index, log=log_bars)
    figures["marks_frames"] = chosen_frames(sweep)
    uncentred = shares = None
    if compare_at is not None:
        uncentred = WidthSweep(
            sweep.kernel, widths=sweep.widths_, center=False, n_jobs=sweep.n_jobs
        ).fit(X, progress=_again(progress, "without centring"))
        figures["centring"] = made("centring", centring_share_figure(sweep, uncentred, marks=marks))
        shares = {
            center: float(
                WidthSweep(sweep.kernel, widths=[compare_at], center=center, n_jobs=1)
                .fit(X)
                .share(2)[0]
            )
            for center in (True, False)
        }
    return SweepFigures(sweep, index, figures, uncentred, shares)


def _again(progress: Progress | None, what: str) -> Progress | None:
    """``progress`` for a second sweep: the bar stays full, the message says which."""
    if progress is None:
        return None
    return lambda fraction, message: progress(1.0, f"{what}, {message}")
