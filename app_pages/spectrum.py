"""Spectrum: the eigenvalues of the centred kernel matrix as the kernel width varies.

This script is the page's layout; its settings and texts are in
``kpca_ui/views/spectrum.py``, its sweep and figures in
``kpca_ui/views/spectrum_sweep.py``.
"""

import streamlit as st

from kpca_ui.explain import text
from kpca_ui.points import point_picker
from kpca_ui.presenter import prose, title
from kpca_ui.settings import literal
from kpca_ui.shell import drawing_notice, page_start, take_home
from kpca_ui.views import spectrum as view
from kpca_ui.views import spectrum_sweep as sweep_view

page_start(view.SETTINGS)
drawing_notice()

title("Spectrum: eigenvalues as the kernel width varies")
if prose():
    st.markdown(text("sp_intro"))
points = point_picker(view.SETTINGS)
chosen = view.kernel_controls()
n_leading = view.figure_controls()
if prose():
    st.caption(f"Data: {literal(points.title, 200)}")
has_sweep = sweep_view.computed(points, chosen)
sweep_view.drawing_canvas(points, chosen, has_sweep)
if has_sweep:
    # One fragment, rerun alone when the chosen width changes: the three sweep
    # figures marked at it, the slider, the spectrum and the component maps there.
    sweep_view.chosen_width_view(points, chosen, n_leading)
    # under them: above, its note pushed them below a phone's first screen
    sweep_view.dk_note(points, chosen)
    sweep_view.sweep_extras(points, chosen)
take_home("spectrum", view.SETTINGS.values(), points)
view.SETTINGS.finish()
