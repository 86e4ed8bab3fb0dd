"""Contours: kernel principal components as lines of constant value over 2-D data.

Schölkopf, Smola & Müller (1998), Fig. 2. This script is the page's layout; its
settings and presets are in ``kpca_ui/views/contours.py``, its figures in
``kpca_ui/views/contours_grid.py``.
"""

import streamlit as st

from kpca_ui.explain import text
from kpca_ui.points import point_picker
from kpca_ui.presenter import prose, title
from kpca_ui.shell import drawing_notice, page_start, take_home
from kpca_ui.views import contours as view
from kpca_ui.views.contours_grid import contour_view

page_start(view.SETTINGS)
drawing_notice()

title("Contours of kernel principal components")
if prose():
    st.markdown(text("ct_intro"))
view.preset_buttons()
points = point_picker(view.SETTINGS)  # 2-D: a toy set, an upload of x, y or a drawing
# One fragment, so that a kernel change reruns only it: the kernel controls,
# the grid of contour panels, the data in two chosen components, the downloads.
contour_view(points)
take_home("contours", view.SETTINGS.values(), points)
view.SETTINGS.finish()
