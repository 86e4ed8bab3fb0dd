"""The reader's choice of theme (Settings → Light / Dark / System) held on every page.

Streamlit keeps that choice in ``localStorage`` under a key made of the path the app was loaded at
(``stActiveTheme-<path>-v2``), so reloading or opening a link to another page forgets it, and
``config.toml`` can only fix one theme for everybody.  :func:`hold_theme_choice` draws a small
``components.v2`` script that copies the reader's choice to the key of every page: when the reader
chooses (checked once a second), and on each page to the pages that have no choice yet.  Nothing
else is read or written; ``tests/e2e/test_browser.py`` checks the key's format in Chromium.
"""

from __future__ import annotations

import streamlit as st

from kpca_ui.adapter import THEME_KEY

_HOLD = st.components.v2.component(
    "kpca_ui.theme_choice",
    js="""
export default function ({ data }) {
  const key = (path) => data.key.replace("{path}", path);
  // Streamlit's key is made of the path the app was loaded at, once per page load.
  const loaded = (window.__kpcaThemePath ??= window.location.pathname);
  const page = data.pages
    .filter((p) => p && loaded.endsWith("/" + p))
    .sort((a, b) => b.length - a.length)[0];
  const base = page ? loaded.slice(0, loaded.length - page.length) : loaded;
  const root = base.endsWith("/") ? base : base + "/";
  const copy = (chosen, all) => {
    for (const p of data.pages) {
      const k = key(root + p);
      if (all ? localStorage.getItem(k) !== chosen : localStorage.getItem(k) === null) {
        localStorage.setItem(k, chosen);
      }
    }
  };
  const mine = () => localStorage.getItem(key(loaded));
  if (!("__kpcaThemeSeen" in window)) window.__kpcaThemeSeen = mine();
  if (window.__kpcaThemeSeen !== null) copy(window.__kpcaThemeSeen, false);
  const timer = setInterval(() => {
    const chosen = mine();
    if (chosen !== null && chosen !== window.__kpcaThemeSeen) {
      window.__kpcaThemeSeen = chosen;
      copy(chosen, true);
    }
  }, 1000);
  return () => clearInterval(timer);
}
""",
)


def hold_theme_choice(pages: list[st.Page]) -> None:
    """Draw the script that keeps the reader's theme choice on all ``pages``.

    Draw it after the page, where it takes no room above the content; nothing outside a
    running app (a worker process spawned from ``app.py`` has pages without URLs).
    """
    if st.runtime.exists():
        _HOLD(
            key="kpca_theme_choice",
            data={"pages": [page.url_path for page in pages], "key": THEME_KEY},
        )
