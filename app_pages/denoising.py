"""Denoising: linear vs kernel PCA on noisy handwritten digits (Mika et al. 1999).

This script is the page's layout; its settings are in
``kpca_ui/views/denoising.py``, its cached work in
``kpca_ui/views/denoising_cache.py`` and the body of each tab in
``kpca_ui/views/denoising_tabs.py`` (Table 1, Fig. 3 and pre-images in
``kpca_ui/views/denoising_preimages.py``).
"""

import streamlit as st

from kpca_ui.links import link_tools
from kpca_ui.presenter import LAST_KEY
from kpca_ui.shell import drawing_notice, require_app_shell
from kpca_ui.views import denoising as view
from kpca_ui.views import denoising_cache as cache
from kpca_ui.views import denoising_preimages as more
from kpca_ui.views import denoising_tabs as tab

require_app_shell(view.LINK_DOMAINS)

st.title("Denoising handwritten digits")
st.markdown(
    "Mika et al. (1999) removed noise from handwritten digits by projecting them onto the "
    "first n principal components and mapping the result back to an image. With kernel PCA "
    "(a Gaussian kernel) the de-noised digits come out much cleaner than with linear PCA."
)

settings = view.sidebar_settings()

tabs = st.tabs(view.TABS, key="dn_tab", on_change="rerun", bind="query-params")
data = cache.usps_digits()
# the digits' details under the tabs, whose figures then start higher on the first
# screen (on a phone: last)
with st.container(key=f"{LAST_KEY}dn_data"):
    subsets = cache.chosen_subsets(data, settings)
model_key = cache.model_key(subsets, settings)
# The fit's progress in a place of its own, while the tabs keep showing the previous
# model's figures until the new ones replace them (a new width c: ~12 s).
try:
    with st.empty():
        model = cache.fitted_model(model_key, subsets)
except ValueError as error:
    st.error(f"Kernel PCA could not be fitted with these settings: {error}. Try another width c.")
    st.stop()

if not tabs[8].open:  # the written digit's pictures wait for a digit
    drawing_notice()
with tabs[0]:
    if tabs[0].open:
        tab.show_fig4(model, subsets, model_key, settings)
with tabs[1]:
    if tabs[1].open:
        tab.show_side_by_side(model, subsets, model_key, settings)
with tabs[2]:
    if tabs[2].open:
        tab.show_error_curve(model, subsets, model_key, settings)
with tabs[3]:
    if tabs[3].open:
        tab.show_toy()
with tabs[4]:
    if tabs[4].open:
        tab.show_demo(model, subsets)
with tabs[5]:
    if tabs[5].open:
        more.show_table1()
with tabs[6]:
    if tabs[6].open:
        more.show_fig3(model, subsets, model_key)
with tabs[7]:
    if tabs[7].open:
        more.show_preimages(model, subsets, model_key, settings)
with tabs[8]:
    if tabs[8].open:
        tab.show_pad(model, subsets, settings)
# under the tabs, whose figures then start within a phone's first screen
with st.expander("What the preset means (scales, error measure)"):
    st.markdown(view.PRESET_EXPLANATION)
link_tools("dn")
