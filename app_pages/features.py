"""Features: kernel PCA as a feature extractor for a linear classifier.

Schölkopf, Smola & Müller (1998), Sect. 6.3 and Table 2. This script is the
page's layout; the tabs' settings, cached work and figures are in
``kpca_ui/views/features.py``.
"""

import streamlit as st

from kpca_ui.explain import text
from kpca_ui.presenter import prose, tabs, title
from kpca_ui.shell import drawing_notice, page_start, take_home
from kpca_ui.views import features as view

page_start(view.SETTINGS)
drawing_notice()

title("Kernel PCA as a feature extractor")
if prose():
    st.markdown(text("ft_intro"))
image_format = view.SETTINGS.draw("ft_img", st.sidebar, horizontal=True)

toy, table2 = tabs(view.SETTINGS, "ft_tab")
with toy:
    if toy.open:
        view.show_toy(image_format)
with table2:
    if table2.open:
        view.show_table2(image_format)
take_home("features", view.SETTINGS.values())
view.SETTINGS.finish()
