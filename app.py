"""Kernel PCA Explorer: start with ``streamlit run app.py``."""

import streamlit as st

from pages.common import SHELL_FLAG, app_pages

st.set_page_config(page_title="Kernel PCA Explorer", page_icon="🌀", layout="wide")
st.session_state[SHELL_FLAG] = True
st.navigation(app_pages()).run()
