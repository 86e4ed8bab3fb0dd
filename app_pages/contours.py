"""Contours: kernel principal components as lines of constant value over 2-D data.

Schölkopf, Smola & Müller (1998), Fig. 2. This script is the page's layout; its
presets and controls are in ``kpca_ui/views/contours.py``, its fits and
figures in ``kpca_ui/views/contours_grid.py``.
"""

import streamlit as st

from kpca_ui.links import link_tools
from kpca_ui.points import point_picker
from kpca_ui.presenter import ROW_KEY
from kpca_ui.shell import drawing_notice, require_app_shell
from kpca_ui.views import contours as view
from kpca_ui.views.contours_grid import contour_view

require_app_shell(view.LINK_DOMAINS)
drawing_notice()

st.title("Contours of kernel principal components")
st.markdown(
    "Lines of constant value of the first kernel principal components over 2-D data "
    "(Schölkopf, Smola & Müller 1998, Fig. 2): straight for linear PCA, bent by a "
    "nonlinear kernel. At a point t the value is Σᵢ αᵢᵏ k(xᵢ, t) (eqs. 17, 51)."
)
with st.container(key=f"{ROW_KEY}ct_presets"):  # one row on a phone too
    view.preset_buttons()
points = point_picker("ct")  # 2-D: a toy set, an upload of x, y or a drawing
# One fragment, so that a kernel change reruns only it: the kernel controls,
# the grid of contour panels, the data in two chosen components, the downloads.
contour_view(points)
link_tools("ct")
