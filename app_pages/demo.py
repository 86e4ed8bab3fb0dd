"""Demo: can a computer clean up handwriting? For someone who does not program.

No sidebar, no formula: a digit, the same with noise, the noise removed by the
classic method and by the kernel method, and how much of it each removed. The
cases are measured (``kpca_core/demo.py``); the page's work is in
``kpca_ui/views/demo.py``.
"""

import streamlit as st

from kpca_ui import pad
from kpca_ui.explain import text
from kpca_ui.presenter import prose, title
from kpca_ui.shell import drawing_notice, page_start, take_home
from kpca_ui.views import demo as view

page_start(view.SETTINGS)
drawing_notice()

title("Can a computer clean up handwriting?")
if prose():
    st.page_link("app_pages/home.py", label="Back to Home", icon=":material/arrow_back:")
model, subsets = view.model_and_digits()
with st.spinner("Choosing digits that show the difference…"):  # shown after 0.5 s
    cases = view.convincing_cases(view.model_key(subsets.source), model, subsets)
if len(cases.chosen) == 0:
    st.warning("No digit shows a clear difference with these digits. Try the Denoising page.")
    st.stop()
view.show(model, subsets, cases)

st.header("Write a digit")
if prose():
    st.markdown(text("dm_pad"))
view.write_a_digit(view.PREFIX, model, subsets.side, view.noise_of(cases))
written = pad.keys(view.PREFIX)
counts = {key: st.session_state.get(key, 0) for key in (view.COUNT, written["noise"])}
shown = {written["link"]: st.query_params.get(written["link"], ""), **counts}
take_home("demo", {**shown, view.ANY: view.SETTINGS.value(view.ANY)})
