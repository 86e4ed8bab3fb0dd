"""Kernel PCA Explorer: start with ``streamlit run app.py``."""

import streamlit as st

st.set_page_config(page_title="Kernel PCA Explorer", page_icon="🌀", layout="wide")

PAGES = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("pages/contours.py", title="Contours", icon=":material/line_curve:"),
    st.Page("pages/denoising.py", title="Denoising", icon=":material/blur_off:"),
    st.Page("pages/spectrum.py", title="Spectrum", icon=":material/bar_chart:"),
]

st.navigation(PAGES).run()
