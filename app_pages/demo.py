"""Demo: can a computer clean up handwriting? For someone who does not program.

No sidebar, no formula: a digit, the same with noise, and the noise removed by
the classic method and by the kernel method. The cases are measured
(``kpca_core/demo.py``); the page's work is in ``kpca_ui/views/demo.py``.
"""

import streamlit as st

from kpca_ui.shell import require_app_shell
from kpca_ui.views import demo as view

require_app_shell(view.LINK_DOMAINS)
view.hide_sidebar()

st.title("Can a computer clean up handwriting?")
model, subsets = view.model_and_digits()
with st.spinner("Choosing digits that show the difference…"):  # shown after 0.5 s
    cases = view.convincing_cases(view.model_key(subsets.source), model, subsets)
if len(cases.chosen) == 0:
    st.warning("No digit shows a clear difference with these digits. Try the Denoising page.")
    st.stop()
st.markdown(
    f"After looking at {len(subsets.X_train):,} handwritten digits, the **kernel method** "
    "redraws a noisy digit from similar ones it has seen, while the **classic method** "
    "keeps much of the noise."
)
view.show(model, subsets, cases)
