"""Home: the no-maths Demo first, the gallery of classic figures, the views, the five steps."""

import streamlit as st

from kpca_ui.shell import drawing_notice, require_app_shell
from kpca_ui.views import home as view

require_app_shell(view.LINK_DOMAINS)
drawing_notice()

st.title("Kernel PCA Explorer")
view.demo_entry()
st.header("Classic figures")
st.caption("Each card opens its view with the paper's settings; the link can be bookmarked.")
view.classic_figures_gallery()

st.header("The views")
view.view_links()

st.header("Kernel PCA in five steps")
st.markdown(
    "Kernel PCA finds the directions of largest variance of your data after a "
    "nonlinear map Φ into a feature space F, without ever computing Φ: every "
    "step needs only the kernel k(x, y) = Φ(x)·Φ(y). "
    "Equation numbers follow Schölkopf, Smola & Müller (1998)."
)
view.five_steps()
