"""Kernel PCA Explorer: ``streamlit run app.py``.

Streamlit reads this file twice.  Run as a session's script (``__main__``), it is
the app: the navigation and the page chosen (:func:`kpca_ui.shell.run`).  Imported
by the server (``streamlit run`` finds ``app`` below), it is the server: the pages
with Plotly's script, the live figures and the warm-up beside them
(:mod:`kpca_ui.server`).  A worker process started by "spawn" imports it as
``__mp_main__``, and then nothing here runs.
"""

import streamlit as st

if __name__ == "__main__":
    from kpca_ui.shell import run

    run()
elif __name__ != "__mp_main__":
    from kpca_ui import server

    app = st.App(
        __file__, lifespan=server.lifespan, routes=server.routes(), middleware=server.middleware()
    )
