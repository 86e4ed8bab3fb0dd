"""Kernel PCA Explorer's pages: ``streamlit run serve.py`` serves them (see ``serve.py``).

A worker process started by "spawn" (:mod:`kpca_ui.workers`) runs the main
module of the process that started it again, as ``__mp_main__``; during a
session's script run that is this file.  Nothing here runs then, so a worker
neither draws the app nor imports the views.
"""

if __name__ == "__main__":
    import streamlit as st

    from kpca_ui.downloads import keep_built_downloads
    from kpca_ui.presenter import navigation_position, presenter_toggle
    from kpca_ui.shell import SHELL_FLAG, app_pages, moved_notice
    from kpca_ui.theme import hold_theme_choice
    from kpca_ui.widget_states import guard_widget_states
    from kpca_ui.workers import one_blas_thread

    one_blas_thread()
    # A widget state the browser sent that cannot be parsed is dropped, not raised on every run.
    guard_widget_states()
    st.set_page_config(page_title="Kernel PCA Explorer", page_icon="🌀", layout="wide")
    # A CSV built on click stays on the server until the browser has fetched it.
    keep_built_downloads()
    st.session_state[SHELL_FLAG] = True
    # Behind the balancer: a session moved here from a replica that died is told so.
    moved_notice()
    # In presenter mode the sidebar is hidden: the pages are reached from the top.
    presenter_toggle()
    pages = app_pages()
    page = st.navigation(pages, position=navigation_position())
    # The sidebar as the browser's width suits it ("auto"), but closed on the Lesson, whose
    # view then gets a slide's width in either mode (its two settings are a click away).
    # Once a run: "auto" here and "collapsed" from the page left it open on some loads.
    st.set_page_config(initial_sidebar_state="collapsed" if page.url_path == "lesson" else "auto")
    page.run()
    # The reader's Light/Dark choice, which Streamlit keeps per loaded path, on every page.
    hold_theme_choice(pages)
