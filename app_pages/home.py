"""Home: the no-maths Demo first, the gallery of classic figures, the views, the five steps."""

import streamlit as st

from kpca_ui.explain import text
from kpca_ui.presenter import prose, title
from kpca_ui.shell import drawing_notice, page_start
from kpca_ui.views import home as view

page_start()
drawing_notice()

title("Kernel PCA Explorer")
view.demo_entry()
st.header("Classic figures")
if prose():
    st.caption("Each card opens its view with the paper's settings; the link can be bookmarked.")
view.classic_figures_gallery()

st.header("The views")
view.view_links()

st.header("Kernel PCA in five steps")
if prose():
    st.markdown(text("home_steps"))
view.five_steps()
