"""The app's shell and UI layer: the Streamlit machinery every view shares.

What belongs here: the frame every page runs in (:mod:`kpca_ui.shell`), the 2-D
data picker (:mod:`kpca_ui.points`), the worker processes that compute
(:mod:`kpca_ui.workers`), links and their notices (:mod:`kpca_ui.links`),
presenter mode (:mod:`kpca_ui.presenter`), the explanations beside each figure
(:mod:`kpca_ui.explain`), and in :mod:`kpca_ui.views` one module per view with
that view's helpers (cached calls, presets, controls, the bodies of its tabs).

What must not: numerics and figure builders (they are :mod:`kpca_core`'s, which
never imports this package); imports of a page script (``app_pages/`` imports
this package, never the other way round).  This ``__init__`` imports nothing,
so that importing one module of the package never imports the others.

A module here that imports :mod:`kpca_core` imports the package itself first
(``from kpca_core import ...`` or ``import kpca_core``), never a submodule
path first: see ``tests/test_pages_import_order.py``.
"""
