"""Spectrum: the eigenvalues of the centred kernel matrix as the kernel width varies.

This script is the page's layout; its controls and texts are in
``kpca_ui/views/spectrum.py``, its sweep and figures in
``kpca_ui/views/spectrum_sweep.py``.
"""

import streamlit as st

from kpca_ui.links import link_tools, literal
from kpca_ui.points import point_picker
from kpca_ui.shell import drawing_notice, require_app_shell
from kpca_ui.views import spectrum as view
from kpca_ui.views import spectrum_sweep as sweep_view

require_app_shell(view.LINK_DOMAINS)
drawing_notice()

st.title("Spectrum: eigenvalues as the kernel width varies")
st.markdown(
    "The kernel width decides everything in kernel PCA. Each width gives a centred "
    "kernel matrix K̃ (eq. 49) and its eigenvalues λ, the variances along the "
    "principal axes in feature space (eq. 12). Sweep the width and watch the "
    "variance move from *every point its own component* to *linear PCA*; then "
    "pick a width and see its spectrum and components."
)
points = point_picker("sp", extra=view.EXTRA)
sweep_key = view.kernel_controls()
n_leading, image_format = view.figure_controls()
st.caption(f"Data: {literal(points.title, 200)}")
holder = sweep_view.computed_sweep(points, sweep_key)
sweep_view.drawing_canvas(holder, points)
if holder is not None:
    # One fragment, rerun alone when the chosen width changes: the three sweep
    # figures marked at it, the slider, the spectrum and the component maps there.
    sweep_view.chosen_width_view(holder, points, sweep_key, n_leading, image_format)
    # under them: above, its note pushed them below a phone's first screen
    sweep_view.dk_note(holder, points, image_format)
    sweep_view.sweep_film(holder, points, sweep_key, image_format)
    sweep_view.sweep_csv_download(holder, points, sweep_key)
link_tools("sp")
