"""One module per view, with its helpers; the page script in ``app_pages/`` is its layout.

What belongs here: a view's cached calls into :mod:`kpca_core`, its presets,
its sidebar and control builders, the body of each of its tabs and fragments,
its CSV and export helpers and the text of its captions, named after the view
(``contours``, ``spectrum``, ``denoising``, ``home``); a view too large for one
module is split by purpose (e.g. ``denoising`` and ``denoising_tabs``).

What must not: widgets shared by several views (they belong in :mod:`kpca_ui`);
figure builders (:mod:`kpca_core.figures`); imports of a page script, or of
another view's module.  This ``__init__`` imports nothing.
"""
