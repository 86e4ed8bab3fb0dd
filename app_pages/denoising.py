"""Denoising: linear vs kernel PCA on noisy handwritten digits (Mika et al. 1999).

This script is the page's layout; its settings are in
``kpca_ui/views/denoising.py``, its cached work in
``kpca_ui/views/denoising_cache.py`` and the body of each tab in
``kpca_ui/views/denoising_tabs.py`` (Table 1, Fig. 3 and pre-images in
``kpca_ui/views/denoising_preimages.py``).
"""

import streamlit as st

from kpca_ui import pad
from kpca_ui.explain import text
from kpca_ui.presenter import prose, tabs, title
from kpca_ui.shell import drawing_notice, page_start, take_home
from kpca_ui.views import denoising as view
from kpca_ui.views import denoising_cache as cache
from kpca_ui.views import denoising_preimages as more
from kpca_ui.views import denoising_tabs as tab

page_start(view.SETTINGS)

title("Denoising handwritten digits")
if prose():
    st.markdown(text("dn_intro"))

settings = view.sidebar_settings()
shown = tabs(view.SETTINGS, "dn_tab")
data = cache.usps_digits()
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

if not shown[8].open:  # the written digit's pictures wait for a digit
    drawing_notice()
bodies = (
    lambda: tab.show_fig4(model, subsets, model_key, settings),
    lambda: tab.show_side_by_side(model, subsets, model_key, settings),
    lambda: tab.show_error_curve(model, subsets, model_key, settings),
    tab.show_toy,
    lambda: tab.show_demo(model, subsets),
    more.show_table1,
    lambda: more.show_fig3(model, subsets, model_key),
    lambda: more.show_preimages(model, subsets, model_key, settings),
    lambda: tab.show_pad(model, subsets, settings),
)
for place, body in zip(shown, bodies, strict=True):
    with place:
        if place.open:
            body()
# under the tabs, whose figures then start within a phone's first screen
if prose():
    with st.expander("What the preset means (scales, error measure)"):
        st.markdown(text("dn_preset"))
# the settings this session has set (a tab shown uses its own until then), and its counts
kept = (*view.SETTINGS.entries, tab.EXAMPLE, pad.keys(view.SETTINGS.prefix)["noise"])
take_home("denoising", {key: st.session_state[key] for key in kept if key in st.session_state})
view.SETTINGS.finish()
