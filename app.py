"""Kernel PCA Explorer: start with ``streamlit run app.py``."""

import streamlit as st

from kpca_ui.downloads import keep_built_downloads
from kpca_ui.presenter import navigation_position, presenter_toggle
from kpca_ui.shell import SHELL_FLAG, app_pages, moved_notice
from kpca_ui.warmup import start as start_warm_up
from kpca_ui.workers import one_blas_thread

one_blas_thread()
# The sidebar as the browser's width suits it ("auto"); the Lesson page starts it closed.
st.set_page_config(
    page_title="Kernel PCA Explorer", page_icon="🌀", layout="wide", initial_sidebar_state="auto"
)
# Once per server process: workers spawned and the gallery's presets cached in the
# background, so that a class opening the lecturer's link finds them ready.
start_warm_up()
# A CSV built on click stays on the server until the browser has fetched it.
keep_built_downloads()
st.session_state[SHELL_FLAG] = True
# Behind the balancer: a session moved here from a replica that died is told so.
moved_notice()
# In presenter mode the sidebar is hidden: the pages are reached from the top.
presenter_toggle()
st.navigation(app_pages(), position=navigation_position()).run()
