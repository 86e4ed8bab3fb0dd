"""``kpca-explorer``: the app as ``streamlit run app.py`` serves it, for ``pipx``/``uv tool`` users.

The app's own files (``app.py``, its pages, its settings and files) are installed with
it as ``kpca_explorer``; any argument is passed on to ``streamlit run``
(``kpca-explorer --server.port 8080``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def app_dir() -> Path:
    """The folder of ``app.py``, its pages and ``assets/``: the installed app's, or else the
    checkout this package lies in."""
    try:
        import kpca_explorer  # the app's files, installed beside this package
    except ImportError:
        return Path(__file__).resolve().parents[1]
    return Path(next(iter(kpca_explorer.__path__)))


def main() -> None:
    """Serve the app: ``python -m streamlit run <app.py> [arguments]``, in this process."""
    app = app_dir() / "app.py"
    os.chdir(app.parent)  # Streamlit reads .streamlit/config.toml from there
    os.execv(sys.executable, [sys.executable, "-m", "streamlit", "run", str(app), *sys.argv[1:]])
