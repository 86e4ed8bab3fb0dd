"""Features: kernel PCA as a feature extractor for a linear classifier.

Schölkopf, Smola & Müller (1998), Sect. 6.3 and Table 2. This script is the
page's layout; the tabs' controls, cached work and figures are in
``kpca_ui/views/features.py``.
"""

import streamlit as st

from kpca_ui.links import link_tools
from kpca_ui.shell import camera_format, drawing_notice, require_app_shell
from kpca_ui.views import features as view

require_app_shell(view.LINK_DOMAINS)
drawing_notice()

st.title("Kernel PCA as a feature extractor")
st.markdown(
    "Schölkopf, Smola & Müller (1998, Sect. 6.3) used kernel principal components as the "
    "input of a **linear** classifier: on handwritten digits, nonlinear components gave far "
    "lower test errors than the same number of linear ones (their Table 2). The toy shows "
    "why on a picture; the USPS tab shows the paper's table, recomputed here."
)
image_format = camera_format(st.sidebar, "ft_img")

tabs = st.tabs(view.TABS, key="ft_tab", on_change="rerun", bind="query-params")
with tabs[0]:
    if tabs[0].open:
        view.show_toy(image_format)
with tabs[1]:
    if tabs[1].open:
        view.show_table2(image_format)
link_tools("ft")
